//! What a run produced: per-file outcomes, the whole run, its statistics.
//! Shared by the driver, baselines and every report.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::diagnostic::Diagnostic;
use crate::source::{SourceFile, Span};
use crate::timing::StageTimes;

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
    /// Set when only a prefix of the file was analysed (the whole was past
    /// the parse budget, `frontend::cut`): where it stops and why.
    pub partly_analysed: Option<String>,
    /// With `partly_analysed`: the last line analysed.
    pub analysed_up_to_line: Option<usize>,
    /// Time per stage; all zero unless timing is enabled.
    pub timings: StageTimes,
    /// Diagnostics hidden by suppression comments.
    pub suppressed: usize,
    /// Functions lowered to the kernel IR.
    pub functions: usize,
    /// Function definitions in the parsed file, and how many of them hold or
    /// sit in a parse error (zero for files that were not parsed).
    pub function_definitions: usize,
    pub functions_with_parse_errors: usize,
    /// Warp executions the executor ran for this file's findings.
    pub executor_runs: usize,
    /// Interpreter steps those executions took.
    pub executor_steps: u64,
    /// The function the executor spent most on: name, steps, time.
    pub executor_worst: Option<(String, u64, std::time::Duration)>,
    /// Findings inside included headers, seen in this file's context; the
    /// run reports each once, at the header (`engine::merge_header_findings`).
    pub header_diagnostics: Vec<HeaderDiagnostic>,
    /// The header functions this file's unit linked and ran its rules on
    /// (header text, function span): where the unit reported nothing, the
    /// header's own run, without the includer's context, is overruled.
    pub header_functions: Vec<(Arc<SourceFile>, (usize, usize))>,
    /// `#include`s of the translation unit resolved to a file.
    pub includes_resolved: usize,
    /// Included names that resolved to no file.
    pub missing_includes: Vec<String>,
    /// Includes not followed because a budget ran out.
    pub includes_cut: usize,
    /// The file was configured again with its headers' macros: a condition
    /// the rule for unknowns decided names a macro a header defines.
    pub configured_with_header_macros: bool,
    /// HIP code (a `.hip` file, or one whose unit includes HIP's runtime):
    /// not checked against CUDA's rules, its findings dropped.
    pub hip_code: bool,
}

/// Why the re-lint of a fixed text refuses it: the one check behind both
/// the fixes the engine offers (each fix alone, `engine`) and those `--fix`
/// applies together (`fix`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RelintProblem {
    /// The fixed text could not be analysed (the reason).
    NotAnalysed(String),
    /// A code has more findings than before minus those fixed: `now` where
    /// at most `allowed` may remain; `example` is one of them (the first
    /// whose line does not hold one of that code before, if any), at `line`
    /// of the text before the fix; `kept`: that line had one before.
    Extra {
        code: &'static str,
        now: usize,
        allowed: usize,
        example: Box<Diagnostic>,
        line: usize,
        kept: bool,
    },
}

impl RelintProblem {
    /// A few words for a finding whose fix is withheld (`fix_withheld`).
    pub fn short(&self) -> String {
        match self {
            RelintProblem::NotAnalysed(_) => {
                "re-lint: the fixed text could not be analysed".to_owned()
            }
            RelintProblem::Extra {
                code,
                line,
                kept: true,
                ..
            } => format!("re-lint: {code} would remain at line {line}"),
            RelintProblem::Extra { code, line, .. } => {
                format!("re-lint: would add {code} at line {line}")
            }
        }
    }

    /// The full sentence `--fix` prints.
    pub fn long(&self) -> String {
        match self {
            RelintProblem::NotAnalysed(why) => {
                format!("the fixed text could not be analysed ({why})")
            }
            RelintProblem::Extra {
                code,
                now,
                allowed,
                example,
                ..
            } => format!(
                "the fixed text would have {now} {code} finding(s) where at most {allowed} may remain \
                 (line {}: {})",
                example.span.line, example.message
            ),
        }
    }
}

/// Whether the re-lint `after` of a text with the fixes of `fixed` applied
/// refuses it: for every code, `after` may have at most the findings of
/// `before` minus those fixed. `original_line` maps a line of the fixed
/// text back to the text `before` was computed on.
pub fn relint_problem(
    before: &[Diagnostic],
    fixed: &[&Diagnostic],
    after: &FileOutcome,
    original_line: &dyn Fn(&Diagnostic) -> usize,
) -> Option<RelintProblem> {
    if let Some(why) = &after.not_analysed {
        return Some(RelintProblem::NotAnalysed(why.clone()));
    }
    // A refuted finding is proven not to be a problem: one the fix turns
    // refuted is fixed (`--show-refuted` shows it, and must not withhold
    // the fix for it).
    let counts = |d: &&Diagnostic| d.confirmation.status != crate::diagnostic::Status::Refuted;
    let count = |code: &str, ds: &mut dyn Iterator<Item = &Diagnostic>| {
        ds.filter(counts).filter(|d| d.code == code).count()
    };
    let mut codes: Vec<&'static str> = after
        .diagnostics
        .iter()
        .filter(counts)
        .map(|d| d.code)
        .collect();
    codes.sort_unstable();
    codes.dedup();
    for code in codes {
        let now = count(code, &mut after.diagnostics.iter());
        let allowed =
            count(code, &mut before.iter()).saturating_sub(count(code, &mut fixed.iter().copied()));
        if now > allowed {
            let was_there = |d: &Diagnostic| {
                let line = original_line(d);
                before.iter().any(|b| b.code == code && b.span.line == line)
            };
            let of_code = || {
                after
                    .diagnostics
                    .iter()
                    .filter(counts)
                    .filter(|d| d.code == code)
            };
            let (example, kept) = match of_code().find(|d| !was_there(d)) {
                Some(d) => (d, false),
                None => (of_code().next()?, true),
            };
            return Some(RelintProblem::Extra {
                code,
                now,
                allowed,
                line: original_line(example),
                example: Box::new(example.clone()),
                kept,
            });
        }
    }
    None
}

/// A diagnostic located in a header a checked file includes.
#[derive(Debug, Clone)]
pub struct HeaderDiagnostic {
    pub source: Arc<SourceFile>,
    pub diagnostic: Diagnostic,
    /// Shown at the unit's options (`--min-confidence`,
    /// `--show-refuted`). Hidden verdicts are kept: a unit that ran the
    /// helper from its callers may overrule the header's own run without
    /// one.
    pub visible: bool,
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
    pub baseline: Option<BaselineSummary>,
    /// Headers parsed and lowered for translation units.
    pub headers_lowered: usize,
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
            s.functions += f.function_definitions;
            s.functions_with_parse_errors += f.functions_with_parse_errors;
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
            if let Some(reason) = &f.partly_analysed {
                s.partly_analysed.push(NotAnalysedSummary {
                    path: f.path.clone(),
                    reason: reason.clone(),
                });
            }
            s.suppressed += f.suppressed;
            s.includes_resolved += f.includes_resolved;
            s.includes_cut += f.includes_cut;
            s.files_configured_with_header_macros += usize::from(f.configured_with_header_macros);
            s.files_hip_code += usize::from(f.hip_code);
            for m in &f.missing_includes {
                *s.missing_includes.entry(m.clone()).or_default() += 1;
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
        s.headers_lowered = self.headers_lowered;
        s.baseline = self.baseline.clone();
        for d in self.diagnostics() {
            s.diagnostics += 1;
            match d.confirmation.status {
                crate::diagnostic::Status::Confirmed => s.confirmed += 1,
                crate::diagnostic::Status::Refuted => s.refuted += 1,
                crate::diagnostic::Status::Undecided => s.undecided += 1,
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
    pub undecided: usize,
    pub files_with_parse_errors: usize,
    /// Function definitions in the files that were parsed (files the
    /// prefilter skips are not parsed and not counted).
    pub functions: usize,
    /// Of those, definitions holding or inside an ERROR/MISSING node, or
    /// lost inside an ERROR node.
    pub functions_with_parse_errors: usize,
    pub parse_error_regions: usize,
    /// Which regions of which file could not be parsed (never findings).
    pub parse_errors: Vec<ParseErrorSummary>,
    pub non_utf8_files: Vec<String>,
    /// Files read but not analysed (e.g. over the parse budget), with why.
    pub not_analysed: Vec<NotAnalysedSummary>,
    /// Files analysed only up to a cut (past the parse budget), with where.
    pub partly_analysed: Vec<NotAnalysedSummary>,
    pub io_errors: usize,
    /// Diagnostics hidden by suppression comments.
    pub suppressed: usize,
    /// `#include`s resolved to a file, over every translation unit.
    pub includes_resolved: usize,
    /// Includes not followed because a budget ran out.
    pub includes_cut: usize,
    /// Files whose conditions were decided again with their headers'
    /// macros (a condition on a name a header defines).
    pub files_configured_with_header_macros: usize,
    /// Files whose findings were dropped because they are HIP code (a
    /// `.hip` file, or one whose unit includes HIP's runtime).
    pub files_hip_code: usize,
    /// Headers parsed and lowered (each once per configuration).
    pub headers_lowered: usize,
    /// Included names no file was found for → how many checked files
    /// include them.
    pub missing_includes: std::collections::BTreeMap<String, usize>,
    /// What `--baseline` hid, and its stale entries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<BaselineSummary>,
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

/// What `--baseline` did to a run (JSON `stats.baseline`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct BaselineSummary {
    /// The baseline file as given.
    pub file: String,
    /// Findings hidden because the baseline has them.
    pub matched: usize,
    /// Entries for checked files that match no finding now.
    pub stale: Vec<BaselineEntry>,
}

/// One finding recorded in a baseline file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BaselineEntry {
    /// `/`-separated, relative to the baseline file's directory when the
    /// file lies under it.
    pub path: String,
    pub code: String,
    pub fingerprint: String,
    /// Where it was when recorded; for people reading the file, not matched.
    pub line: usize,
    pub message: String,
}
