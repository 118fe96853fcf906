//! The pipeline for one file, and for many in parallel.
//!
//! read → prefilter → parse → rules → confirmation → diagnostics.
//! Each stage ends with `clock.lap(Stage::…)` (see [`crate::timing`]).
//!
//! Invariants:
//! - A worker holds at most one syntax tree at a time; it is dropped before
//!   the worker takes the next file.
//! - Output order depends only on the input: results are collected in
//!   discovery order and diagnostics are sorted, whatever the thread count.

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;

use crate::baseline;
use crate::config::{ConfigError, Resolver};
use crate::dataflow;
use crate::diagnostic::{Confirmation, Diagnostic, Evidence, Label, Severity, Status, Witness};
use crate::discover::{self, Candidate};
use crate::executor::{self, confirm::ExecOptions, confirm::Verdict};
use crate::frontend;
use crate::ir;
use crate::prefilter;
use crate::rules::{self, Finding, RuleContext};
use crate::source::SourceFile;
use crate::suppress;
use crate::timing::{Clock, Stage, StageTimes};

pub use crate::budgets::Budgets;
pub use crate::options::Options;
pub use crate::outcome::{FileOutcome, NotAnalysedSummary, ParseErrorSummary, RunResult, Stats};

/// Check one in-memory buffer (stdin, the language server, tests).
pub fn check_source(path: &str, bytes: &[u8], opts: &Options) -> FileOutcome {
    check_bytes(path, Cow::Borrowed(bytes), opts)
}

/// [`check_source`] for a buffer we own: valid UTF-8 is analysed in place,
/// without a copy (a 50 MB file costs 50 MB, not 100).
fn check_bytes(path: &str, bytes: Cow<'_, [u8]>, opts: &Options) -> FileOutcome {
    let mut clock = Clock::start();
    let mut outcome = FileOutcome {
        path: path.to_owned(),
        bytes: bytes.len(),
        ..FileOutcome::default()
    };
    if bytes.len() as u64 > opts.budgets.max_file_bytes {
        outcome.not_analysed = Some(too_big(bytes.len() as u64, opts));
    } else {
        // A file with no warp code can still hold suppression comments, and
        // those must be audited (an unused one is reported).
        let audit_comments = !opts.ignore_suppressions && suppress::mentions_directive(&bytes);
        let relevant = prefilter::has_warp_code(&bytes);
        clock.lap(Stage::Prefilter);
        if relevant || audit_comments {
            analyse(bytes, opts, audit_comments, &mut outcome, &mut clock);
        } else {
            outcome.skipped_by_prefilter = true;
        }
    }
    outcome.timings.merge(&clock.finish());
    outcome
}

/// Like [`check_source`] but without the prefilter: every file is parsed.
/// For tests that prove the prefilter never changes a result.
pub fn check_source_unfiltered(path: &str, bytes: &[u8], opts: &Options) -> FileOutcome {
    let mut clock = Clock::start();
    let mut outcome = FileOutcome {
        path: path.to_owned(),
        bytes: bytes.len(),
        ..FileOutcome::default()
    };
    let audit_comments = !opts.ignore_suppressions && suppress::mentions_directive(bytes);
    analyse(
        Cow::Borrowed(bytes),
        opts,
        audit_comments,
        &mut outcome,
        &mut clock,
    );
    outcome.timings.merge(&clock.finish());
    outcome
}

/// The stages after the prefilter. Each ends with a lap of `clock`.
fn analyse(
    bytes: Cow<'_, [u8]>,
    opts: &Options,
    audit_comments: bool,
    outcome: &mut FileOutcome,
    clock: &mut Clock,
) {
    let path = outcome.path.clone();
    let source = match bytes {
        Cow::Borrowed(b) => SourceFile::new(outcome.path.as_str(), b),
        Cow::Owned(v) => SourceFile::from_vec(outcome.path.as_str(), v),
    };
    outcome.lossy_utf8 = source.lossy;
    clock.lap(Stage::Decode);
    // The view the configuration compiles: branches not taken and
    // directive lines blank, attribute macros rewritten (same offsets).
    let parsed = frontend::parse_configured(source, &opts.env, opts.budgets.max_parse_operations);
    clock.lap(Stage::Parse);
    let (parsed, original_text) = match parsed {
        Ok(p) => p,
        Err(why) => {
            outcome.not_analysed = Some(why.to_string());
            return;
        }
    };
    outcome.parse_error_regions = parsed.error_regions.clone();
    outcome.function_definitions = parsed.functions.total;
    outcome.functions_with_parse_errors = parsed.functions.with_parse_errors;
    let mut module = ir::lower_file(&parsed, &opts.env);
    // Constants from quoted includes next to a file on disk; the file's own
    // definitions win.
    let on_disk = std::path::Path::new(&path);
    if on_disk.is_file() {
        for (k, v) in ir::includes::included_constants(&parsed, on_disk, &opts.env) {
            module.constants.entry(k).or_insert(v);
        }
    }
    clock.lap(Stage::Ir);
    let facts = dataflow::analyze(&module);
    clock.lap(Stage::Dataflow);
    let cx = RuleContext {
        file: &parsed,
        env: &opts.env,
        module: &module,
        facts: &facts,
    };
    let mut findings = rules::run(&opts.rules, &cx);
    clock.lap(Stage::Rules);
    let claims: Vec<_> = findings.iter().map(|f| f.claim.clone()).collect();
    let exec = ExecOptions {
        block_dim: opts.block_dim,
        budgets: opts.budgets,
    };
    let (verdicts, cost) = executor::confirm_findings(&module, &parsed.source, &claims, &exec);
    // The mask each fix writes comes from the same analysis (`rules::fixes`).
    let confirmed: Vec<bool> = verdicts
        .iter()
        .map(|v| {
            v.as_ref()
                .is_some_and(|v| v.confirmation.status == Status::Confirmed)
        })
        .collect();
    rules::fixes::attach(&cx, &mut findings, &confirmed);
    clock.lap(Stage::Executor);
    outcome.functions = module.functions.len();
    outcome.executor_runs = cost.runs;
    outcome.executor_worst = cost.worst;
    let mut diagnostics: Vec<Diagnostic> = findings
        .into_iter()
        .zip(verdicts)
        .filter_map(|(f, v)| to_diagnostic(&parsed.source, f, v, opts))
        .collect();
    if audit_comments {
        let applied = suppress::apply(&parsed.source, diagnostics, &opts.rules);
        diagnostics = applied.diagnostics;
        outcome.suppressed = applied.suppressed;
    }
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    diagnostics.dedup();
    baseline::assign_fingerprints(&parsed, &mut diagnostics);
    clock.lap(Stage::Diagnostics);
    if !diagnostics.is_empty() {
        // Render the file as written, not its configured view (same lines).
        let mut source = parsed.source;
        if let Some(text) = original_text {
            source.text = text;
        }
        outcome.source = Some(Arc::new(source));
    }
    outcome.diagnostics = diagnostics;
}

/// Apply the executor's verdict: refuted findings are dropped unless asked
/// for; undecided ones are kept only at the chosen confidence level
/// (`--min-confidence`), lowered to warnings, and say why.
fn to_diagnostic(
    source: &SourceFile,
    f: Finding,
    verdict: Option<Verdict>,
    opts: &Options,
) -> Option<Diagnostic> {
    let verdict = verdict.unwrap_or_else(|| static_verdict(&f));
    let mut severity = f.rule.severity;
    match verdict.confirmation.status {
        Status::Refuted if !opts.show_refuted => return None,
        Status::Undecided if !opts.min_confidence.admits(&verdict.confirmation) => return None,
        Status::Undecided => severity = Severity::Warning,
        _ => {}
    }
    let mut confirmation = verdict.confirmation;
    // An undecided finding shows its static evidence first: the guard or
    // exit the rule saw, then why no run decided it.
    if confirmation.status == Status::Undecided
        && let (Some(reason), Some((s, _, label))) = (&confirmation.reason, f.labels.first())
    {
        let line = source.line_col(*s).0;
        confirmation.reason = Some(format!("{label} (line {line}); {reason}"));
    }
    // The message stays one short sentence; what the run saw (launch,
    // inputs, schedule, lanes) is the witness's.
    let message = f.message;
    Some(Diagnostic {
        code: f.rule.code,
        name: f.rule.name,
        severity,
        path: source.path.clone(),
        span: source.span(f.start, f.end),
        message,
        help: f.help,
        labels: f
            .labels
            .into_iter()
            .map(|(s, e, message)| Label {
                span: source.span(s, e),
                message,
            })
            .collect(),
        confirmation,
        fix: f.fix,
        fingerprint: String::new(),
    })
}

/// Findings with no claim are facts about the source itself (a legacy
/// primitive in a macro body does not compile for sm_70+ wherever it is
/// expanded); their witness is that fact.
fn static_verdict(f: &Finding) -> Verdict {
    if f.rule.code != "WL001" {
        return Verdict {
            detail: None,
            confirmation: Confirmation::undecided(
                "the executor has no model of this finding",
                Evidence::Direct,
            ),
        };
    }
    Verdict {
        detail: Some("it does not compile for sm_70 or later".to_owned()),
        confirmation: Confirmation {
            status: Status::Confirmed,
            reason: None,
            evidence: None,
            proof: None,
            witness: Some(Witness {
                summary: "nvcc rejects maskless warp primitives when compiling for sm_70 or later"
                    .to_owned(),
                ..Witness::default()
            }),
        },
    }
}

/// Read and check one discovered file.
pub fn check_file(candidate: &Candidate, opts: &Options) -> Option<FileOutcome> {
    let display = display_path(&candidate.path);
    let mut clock = Clock::start();
    let read = read_file(&candidate.path, opts.budgets.max_file_bytes);
    clock.lap(Stage::Read);
    let bytes = match read {
        Ok(Ok(b)) => b,
        Ok(Err(len)) => {
            return Some(FileOutcome {
                path: display,
                bytes: usize::try_from(len).unwrap_or(usize::MAX),
                not_analysed: Some(too_big(len, opts)),
                ..FileOutcome::default()
            });
        }
        Err(e) => {
            return Some(FileOutcome {
                path: display,
                io_error: Some(e.to_string()),
                ..FileOutcome::default()
            });
        }
    };
    if candidate.sniff && !prefilter::looks_like_cuda(&bytes) {
        return None;
    }
    let mut outcome = check_bytes(&display, Cow::Owned(bytes), opts);
    outcome.timings.merge(&clock.finish());
    Some(outcome)
}

fn too_big(len: u64, opts: &Options) -> String {
    format!(
        "not analysed: the file is {len} bytes, over the {}-byte size limit",
        opts.budgets.max_file_bytes
    )
}

/// Read a whole file, or give its size (`Ok(Err(len))`) when it is over
/// `max_bytes`. A path that is not a regular file (a directory named `x.cu`,
/// a FIFO, a socket) is an I/O error with a clear reason rather than a read
/// that fails obscurely or blocks forever.
fn read_file(path: &std::path::Path, max_bytes: u64) -> std::io::Result<Result<Vec<u8>, u64>> {
    let md = std::fs::metadata(path)?;
    if md.is_dir() {
        return Err(std::io::Error::other("is a directory, not a source file"));
    }
    if !md.is_file() {
        return Err(std::io::Error::other(
            "not a regular file (a FIFO, socket or device); not read",
        ));
    }
    if md.len() > max_bytes {
        return Ok(Err(md.len()));
    }
    std::fs::read(path).map(Ok)
}

fn display_path(p: &std::path::Path) -> String {
    let s = p.to_string_lossy();
    s.strip_prefix("./").unwrap_or(&s).to_owned()
}

/// Discover and check `roots`, every file with `opts` (no config files).
pub fn check_paths(roots: &[PathBuf], opts: &Options) -> RunResult {
    let mut clock = Clock::start();
    let (candidates, walk_errors) = discover::discover(roots, &opts.discover);
    clock.lap(Stage::Discover);
    let mut run = check_candidates(&candidates, walk_errors, opts);
    run.timings.merge(&clock.finish());
    run
}

/// Check discovered files with `opts` (in parallel on `opts.threads`
/// workers) and collect the results in discovery order. Files that vanished
/// or became unreadable since discovery are I/O errors naming them.
pub fn check_candidates(
    candidates: &[Candidate],
    walk_errors: Vec<discover::WalkError>,
    opts: &Options,
) -> RunResult {
    let jobs: Vec<(Candidate, &Options)> = candidates.iter().map(|c| (c.clone(), opts)).collect();
    run_jobs(&jobs, opts.threads, walk_errors)
}

/// Discover and check `roots`, each file with the options its config gives
/// it. Any config error (unknown key, bad value) stops the run before a file
/// is checked: the errors are returned, sorted.
pub fn check_paths_with(
    roots: &[PathBuf],
    resolver: &Arc<Resolver>,
) -> Result<RunResult, Vec<ConfigError>> {
    let mut clock = Clock::start();
    let policy: Arc<dyn discover::Policy> = resolver.clone();
    let (candidates, walk_errors) = discover::discover_with(roots, policy);
    let mut jobs = Vec::with_capacity(candidates.len());
    for c in candidates {
        // Errors are cached by the resolver and collected below.
        if let Ok(opts) = resolver.options_for(&c.path) {
            jobs.push((c, opts));
        }
    }
    let errors = resolver.errors();
    if !errors.is_empty() {
        return Err(errors);
    }
    clock.lap(Stage::Discover);
    let mut run = run_jobs(&jobs, resolver.base().threads, walk_errors);
    run.timings.merge(&clock.finish());
    Ok(run)
}

fn run_jobs<O: std::borrow::Borrow<Options> + Sync>(
    jobs: &[(Candidate, O)],
    threads: Option<usize>,
    walk_errors: Vec<discover::WalkError>,
) -> RunResult {
    let run = || -> Vec<FileOutcome> {
        jobs.par_iter()
            .filter_map(|(c, opts)| check_file(c, opts.borrow()))
            .collect()
    };
    let files = match threads {
        Some(n) => match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
            Ok(pool) => pool.install(run),
            Err(_) => run(),
        },
        None => run(),
    };
    let mut io_errors: Vec<(String, String)> = walk_errors
        .into_iter()
        .map(|e| (e.path, e.message))
        .collect();
    io_errors.extend(
        files
            .iter()
            .filter_map(|f| f.io_error.as_ref().map(|e| (f.path.clone(), e.clone()))),
    );
    io_errors.sort();
    let mut timings = StageTimes::default();
    for f in &files {
        timings.merge(&f.timings);
    }
    RunResult {
        files,
        io_errors,
        baseline: None,
        timings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_over_the_size_limit_are_reported_not_analysed() {
        let mut opts = Options::default();
        opts.budgets.max_file_bytes = 16;
        let text = b"__device__ int f(int v) { return __shfl(v, 0); }";
        let outcome = check_source("big.cu", text, &opts);
        assert!(outcome.diagnostics.is_empty());
        let why = outcome.not_analysed.unwrap();
        assert!(why.contains("over the 16-byte size limit"), "{why}");

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.cu");
        std::fs::write(&path, text).unwrap();
        let run = check_paths(&[path], &opts);
        assert!(run.io_errors.is_empty());
        assert_eq!(run.stats().not_analysed.len(), 1);
        opts.budgets.max_file_bytes = 1 << 20;
        assert_eq!(check_source("ok.cu", text, &opts).diagnostics.len(), 1);
    }
}
