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

use crate::diagnostic::{Confirmation, Diagnostic, Label};
use crate::discover::{self, Candidate, DiscoverOptions};
use crate::frontend::{self, PreprocEnv};
use crate::prefilter;
use crate::rules::{self, Finding, RuleContext, RuleSet};
use crate::source::{SourceFile, Span};
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
    } else if prefilter::has_warp_code(&bytes) {
        clock.lap(Stage::Prefilter);
        analyse(bytes, opts, &mut outcome, &mut clock);
    } else {
        clock.lap(Stage::Prefilter);
        outcome.skipped_by_prefilter = true;
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
    analyse(Cow::Borrowed(bytes), opts, &mut outcome, &mut clock);
    outcome.timings.merge(&clock.finish());
    outcome
}

/// The stages after the prefilter. Each ends with a lap of `clock`.
fn analyse(bytes: Cow<'_, [u8]>, opts: &Options, outcome: &mut FileOutcome, clock: &mut Clock) {
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
    let cx = RuleContext {
        file: &parsed,
        env: &opts.env,
    };
    let findings = rules::run(&opts.rules, &cx);
    let mut diagnostics: Vec<Diagnostic> = findings
        .into_iter()
        .map(|f| to_diagnostic(&parsed.source, f))
        .collect();
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    diagnostics.dedup();
    clock.lap(Stage::Rules);
    if !diagnostics.is_empty() {
        outcome.source = Some(Arc::new(parsed.source));
    }
    outcome.diagnostics = diagnostics;
}

fn to_diagnostic(source: &SourceFile, f: Finding) -> Diagnostic {
    Diagnostic {
        code: f.rule.code,
        name: f.rule.name,
        severity: f.rule.severity,
        path: source.path.clone(),
        span: source.span(f.start, f.end),
        message: f.message,
        help: f.help,
        labels: f
            .labels
            .into_iter()
            .map(|(s, e, message)| Label {
                span: source.span(s, e),
                message,
            })
            .collect(),
        confirmation: Confirmation::unverified(
            "the abstract warp executor does not model this rule yet",
        ),
        fix: f.fix,
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

/// Discover and check `roots`.
pub fn check_paths(roots: &[PathBuf], opts: &Options) -> RunResult {
    let mut clock = Clock::start();
    let (candidates, walk_errors) = discover::discover(roots, &opts.discover);
    clock.lap(Stage::Discover);
    let mut run = check_candidates(&candidates, walk_errors, opts);
    run.timings.merge(&clock.finish());
    run
}

/// Check discovered files (in parallel on `opts.threads` workers) and
/// collect the results in discovery order. Files that vanished or became
/// unreadable since discovery are I/O errors naming them.
pub fn check_candidates(
    candidates: &[Candidate],
    walk_errors: Vec<discover::WalkError>,
    opts: &Options,
) -> RunResult {
    let run = || -> Vec<FileOutcome> {
        candidates
            .par_iter()
            .filter_map(|c| check_file(c, opts))
            .collect()
    };
    let files = match opts.threads {
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
