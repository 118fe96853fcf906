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
use serde::Serialize;

use crate::baseline;
use crate::config::{ConfigError, Resolver};
use crate::dataflow;
use crate::diagnostic::{Confirmation, Diagnostic, Label, Severity, Status, Witness};
use crate::discover::{self, Candidate, DiscoverOptions};
use crate::executor::{self, confirm::ExecOptions, confirm::Verdict};
use crate::frontend::{self, PreprocEnv};
use crate::ir;
use crate::prefilter;
use crate::rules::{self, Finding, RuleContext, RuleSet};
use crate::source::{SourceFile, Span};
use crate::suppress;
use crate::timing::{Clock, Stage, StageTimes};

#[derive(Debug, Clone, Default)]
pub struct Options {
    pub rules: RuleSet,
    pub env: PreprocEnv,
    pub discover: DiscoverOptions,
    /// Report findings the executor refuted.
    pub show_refuted: bool,
    /// Worker threads; `None` lets rayon pick.
    pub threads: Option<usize>,
    /// Block shape to assume when no launch site or `__launch_bounds__`
    /// says otherwise (`--block-dim`, config `block-dim`).
    pub block_dim: Option<[u32; 3]>,
    /// Limits that keep the executor linear and bounded.
    pub budgets: Budgets,
    /// Audit as if there were no suppression comments (`--no-suppressions`).
    pub ignore_suppressions: bool,
}

/// Executor limits (config `[executor]`). A finding whose check runs out of
/// budget is reported as unverified, never dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budgets {
    /// Interpreter steps per function and warp schedule.
    pub max_steps: u64,
    /// Iterations of one loop before the executor stops unrolling it.
    pub max_loop_iterations: u32,
    /// Lane partitions and input choices explored per finding.
    pub max_forks: u32,
    /// Depth of `__device__` calls followed.
    pub max_call_depth: u32,
    /// Interpreter steps for a whole file; functions past it are not run
    /// and their findings are unverified. Keeps any one file near a second.
    pub max_file_steps: u64,
    /// tree-sitter parser operations per file; a file that needs more is
    /// reported as not analysed (counted, so it does not depend on load).
    pub max_parse_operations: u64,
    /// Files larger than this are not read or analysed (reported as such).
    /// tree-sitter's offsets are 32-bit, so this must stay below 4 GiB.
    pub max_file_bytes: u64,
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets {
            max_steps: 200_000,
            max_loop_iterations: 64,
            max_forks: 16,
            max_call_depth: 8,
            max_file_steps: 3_000_000,
            max_parse_operations: frontend::DEFAULT_MAX_PARSE_OPERATIONS,
            max_file_bytes: 1 << 30,
        }
    }
}

/// What checking one file produced.
#[derive(Debug, Clone, Default)]
pub struct FileOutcome {
    pub path: String,
    pub diagnostics: Vec<Diagnostic>,
    /// The source, kept only when there are diagnostics to render.
    pub source: Option<Arc<SourceFile>>,
    pub bytes: usize,
    pub skipped_by_prefilter: bool,
    pub parse_error_regions: Vec<Span>,
    pub lossy_utf8: bool,
    /// Set when the file could not be read; it was not checked.
    pub io_error: Option<String>,
    /// Set when the file was read but not analysed (e.g. it exceeded the
    /// parse budget): the reason, always reported, never a silent pass.
    pub not_analysed: Option<String>,
    /// Time per stage; all zero unless timing is enabled.
    pub timings: StageTimes,
    /// Diagnostics hidden by suppression comments.
    pub suppressed: usize,
    /// Functions lowered to the kernel IR.
    pub functions: usize,
    /// Warp executions the executor ran for this file's findings.
    pub executor_runs: usize,
    /// The function the executor spent most on: name, steps, time.
    pub executor_worst: Option<(String, u64, std::time::Duration)>,
}

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
    let parsed = frontend::parse_within(source, opts.budgets.max_parse_operations);
    clock.lap(Stage::Parse);
    let parsed = match parsed {
        Ok(p) => p,
        Err(why) => {
            outcome.not_analysed = Some(why.to_string());
            return;
        }
    };
    outcome.parse_error_regions = parsed.error_regions.clone();
    let mut module = ir::lower_file(&parsed, &opts.env);
    // Constants from quoted includes next to a file on disk; the file's own
    // definitions win.
    let on_disk = std::path::Path::new(&path);
    if on_disk.is_file() {
        for (k, v) in frontend::includes::included_constants(&parsed, on_disk, &opts.env) {
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
        .filter_map(|(f, v)| to_diagnostic(&parsed.source, f, v, opts.show_refuted))
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
        outcome.source = Some(Arc::new(parsed.source));
    }
    outcome.diagnostics = diagnostics;
}

/// Apply the executor's verdict: refuted findings are dropped unless asked
/// for; unverified ones are lowered to warnings and say why.
fn to_diagnostic(
    source: &SourceFile,
    f: Finding,
    verdict: Option<Verdict>,
    show_refuted: bool,
) -> Option<Diagnostic> {
    let verdict = verdict.unwrap_or_else(|| static_verdict(&f));
    let mut severity = f.rule.severity;
    match verdict.confirmation.status {
        Status::Refuted if !show_refuted => return None,
        Status::Unverified => severity = Severity::Warning,
        _ => {}
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
        confirmation: verdict.confirmation,
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
            confirmation: Confirmation::unverified("the executor has no model of this finding"),
        };
    }
    Verdict {
        detail: Some("it does not compile for sm_70 or later".to_owned()),
        confirmation: Confirmation {
            status: Status::Confirmed,
            reason: None,
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

/// The result of a whole run.
#[derive(Debug, Default)]
pub struct RunResult {
    pub files: Vec<FileOutcome>,
    /// Paths that could not be walked or read, with the reason.
    pub io_errors: Vec<(String, String)>,
    /// Time per stage summed over files (zero unless timing is enabled).
    pub timings: StageTimes,
    /// Set when `--baseline` filtered the run.
    pub baseline: Option<baseline::Summary>,
}

impl RunResult {
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.files.iter().flat_map(|f| f.diagnostics.iter())
    }

    pub fn stats(&self) -> Stats {
        let mut s = Stats::default();
        for f in &self.files {
            if f.io_error.is_some() {
                continue;
            }
            s.files_checked += 1;
            s.bytes += f.bytes;
            s.functions_analyzed += f.functions;
            s.executor_runs += f.executor_runs;
            if let Some((_, steps, _)) = &f.executor_worst {
                s.executor_max_steps = s.executor_max_steps.max(*steps);
            }
            if f.skipped_by_prefilter {
                s.files_skipped_by_prefilter += 1;
            }
            if f.lossy_utf8 {
                s.non_utf8_files.push(f.path.clone());
            }
            if let Some(reason) = &f.not_analysed {
                s.not_analysed.push(NotAnalysedSummary {
                    path: f.path.clone(),
                    reason: reason.clone(),
                });
            }
            s.suppressed += f.suppressed;
            if !f.parse_error_regions.is_empty() {
                s.files_with_parse_errors += 1;
                s.parse_error_regions += f.parse_error_regions.len();
                s.parse_errors.push(ParseErrorSummary {
                    path: f.path.clone(),
                    regions: f.parse_error_regions.len(),
                    lines: f.parse_error_regions.iter().map(|r| r.line).collect(),
                });
            }
        }
        s.io_errors = self.io_errors.len();
        s.baseline = self.baseline.clone();
        for d in self.diagnostics() {
            s.diagnostics += 1;
            match d.confirmation.status {
                crate::diagnostic::Status::Confirmed => s.confirmed += 1,
                crate::diagnostic::Status::Refuted => s.refuted += 1,
                crate::diagnostic::Status::Unverified => s.unverified += 1,
            }
        }
        s
    }
}

#[derive(Debug, Default, Serialize, PartialEq, Eq)]
pub struct Stats {
    pub files_checked: usize,
    /// Device functions, kernels and lambdas lowered to the kernel IR.
    pub functions_analyzed: usize,
    /// Warp executions run to confirm or refute findings.
    pub executor_runs: usize,
    /// Interpreter steps of the most expensive function (all its runs).
    pub executor_max_steps: u64,
    pub files_skipped_by_prefilter: usize,
    pub bytes: usize,
    pub diagnostics: usize,
    pub confirmed: usize,
    pub refuted: usize,
    pub unverified: usize,
    pub files_with_parse_errors: usize,
    pub parse_error_regions: usize,
    /// Which regions of which file could not be parsed (never findings).
    pub parse_errors: Vec<ParseErrorSummary>,
    pub non_utf8_files: Vec<String>,
    /// Files read but not analysed (e.g. over the parse budget), with why.
    pub not_analysed: Vec<NotAnalysedSummary>,
    pub io_errors: usize,
    /// Diagnostics hidden by suppression comments.
    pub suppressed: usize,
    /// What `--baseline` hid, and its stale entries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<baseline::Summary>,
}

#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct NotAnalysedSummary {
    pub path: String,
    pub reason: String,
}

#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct ParseErrorSummary {
    pub path: String,
    pub regions: usize,
    pub lines: Vec<usize>,
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
