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
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;

use crate::baseline;
use crate::config::{ConfigError, Resolver};
use crate::dataflow;
use crate::diagnostic::{
    Confirmation, Diagnostic, Evidence, Label, Severity, Status, Witness, apply_edits,
    original_line, weakness,
};
use crate::discover::{self, Candidate};
use crate::executor::{self, confirm::ExecOptions, confirm::Verdict};
use crate::frontend;
use crate::ir;
use crate::prefilter;
use crate::rules::{self, Finding, RuleContext};
use crate::source::SourceFile;
use crate::suppress;
use crate::timing::{Clock, Stage, StageTimes};
use crate::tu;

pub use crate::budgets::Budgets;
pub use crate::options::Options;
pub use crate::outcome::{
    FileOutcome, HeaderDiagnostic, NotAnalysedSummary, ParseErrorSummary, RelintProblem, RunResult,
    Stats, relint_problem,
};

/// Check one in-memory buffer (stdin, the language server, tests).
/// When `path` names a file on disk, its includes are resolved from there
/// (a translation unit of its own, with a fresh header cache).
pub fn check_source(path: &str, bytes: &[u8], opts: &Options) -> FileOutcome {
    check_buffer(path, bytes, opts, FixCheck::Verify)
}

/// [`check_source`] without verifying fixes: the findings keep the fixes
/// the rules proposed. What a re-lint of a fixed text needs (it only
/// counts findings), never what a user should be offered.
pub fn check_source_unverified(path: &str, bytes: &[u8], opts: &Options) -> FileOutcome {
    check_buffer(path, bytes, opts, FixCheck::Skip)
}

fn check_buffer(path: &str, bytes: &[u8], opts: &Options, fix_check: FixCheck) -> FileOutcome {
    let session = session_for_buffer(path, bytes, opts);
    check_bytes(
        path,
        Cow::Borrowed(bytes),
        opts,
        session.as_ref(),
        fix_check,
    )
}

/// Whether a check verifies the fixes it offers ([`verify_fixes`]). The
/// re-lints that verification runs skip it, so it never recurses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FixCheck {
    Verify,
    Skip,
}

/// A translation-unit session for a lone buffer whose path is on disk,
/// with the launch contracts the buffer itself states: the same as a run
/// over that one file (`warplint check FILE`), so an editor, a test and the
/// command line agree.
fn session_for_buffer(path: &str, bytes: &[u8], opts: &Options) -> Option<tu::Session> {
    let p = std::path::Path::new(path);
    if !p.is_file() {
        return None;
    }
    let session = tu::Session::new(&[p.to_path_buf()]);
    session.state_launches([tu::contracts::of_file(
        bytes,
        &opts.env,
        opts.budgets.max_parse_operations,
    )]);
    Some(session)
}

fn unit_options(opts: &Options) -> tu::UnitOptions<'_> {
    tu::UnitOptions {
        includes: &opts.includes,
        env: &opts.env,
        max_file_bytes: opts.budgets.max_file_bytes,
        max_parse_operations: opts.budgets.max_parse_operations,
        max_header_bytes: opts.budgets.max_header_bytes,
    }
}

/// [`check_source`] for a buffer we own: valid UTF-8 is analysed in place,
/// without a copy (a 50 MB file costs 50 MB, not 100).
fn check_bytes(
    path: &str,
    bytes: Cow<'_, [u8]>,
    opts: &Options,
    session: Option<&tu::Session>,
    fix_check: FixCheck,
) -> FileOutcome {
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
        // A file without warp code of its own is still analysed when it
        // may reach a header's: it may call a wrapper defined there, or
        // launch a header's kernel template with a class whose members it
        // sees (a host-only launcher file).
        let relevant = prefilter::has_warp_code(&bytes)
            || session.is_some_and(|s| {
                (prefilter::may_define_device_code(&bytes) || prefilter::mentions_launch(&bytes))
                    && s.unit_reaches_warp_code(
                        std::path::Path::new(path),
                        &bytes,
                        &unit_options(opts),
                    )
            });
        clock.lap(Stage::Prefilter);
        if relevant || audit_comments {
            analyse(
                bytes,
                opts,
                audit_comments,
                session,
                &mut outcome,
                &mut clock,
            );
        } else {
            outcome.skipped_by_prefilter = true;
        }
    }
    if fix_check == FixCheck::Verify {
        clock.skip();
        verify_fixes_in(&mut outcome, opts, session);
        clock.lap(Stage::FixCheck);
    }
    outcome.timings.merge(&clock.finish());
    outcome
}

/// Keep a finding's fix only if it does what it says: applied alone to the
/// file's text, the re-lint of that text (same options, same translation
/// unit) no longer has the finding and has no new one (the check `--fix`
/// applies to a file's fixes together, [`relint_problem`]). A fix that
/// fails is dropped for its fallback (`Fix::fallback`), verified the same
/// way, if it has one; where none passes, `fix_withheld` says why; so does a finding past the
/// file's budget of re-lints (`Budgets::max_fix_relints`), which offers no
/// fix unverified. Every output (reports, `--statistics`, `--fix`, `--diff`,
/// the language server's code actions) sees only verified fixes. The
/// translation unit states the launches of the text `outcome` was computed
/// from (`outcome.source`), scanned only when a fix is offered.
pub fn verify_fixes(outcome: &mut FileOutcome, opts: &Options) {
    let offered = offered_fixes(outcome);
    if offered.is_empty() {
        return;
    }
    let session = (outcome.source.as_deref())
        .and_then(|s| session_for_buffer(&outcome.path, s.text.as_bytes(), opts));
    verify_offered_fixes(outcome, offered, opts, session.as_ref());
}

fn verify_fixes_in(outcome: &mut FileOutcome, opts: &Options, session: Option<&tu::Session>) {
    let offered = offered_fixes(outcome);
    if !offered.is_empty() {
        verify_offered_fixes(outcome, offered, opts, session);
    }
}

/// The findings of `outcome` that offer a fix (with edits).
fn offered_fixes(outcome: &FileOutcome) -> Vec<usize> {
    (0..outcome.diagnostics.len())
        .filter(|&i| {
            outcome.diagnostics[i]
                .fix
                .as_ref()
                .is_some_and(|f| !f.edits.is_empty())
        })
        .collect()
}

fn verify_offered_fixes(
    outcome: &mut FileOutcome,
    offered: Vec<usize>,
    opts: &Options,
    session: Option<&tu::Session>,
) {
    let source = outcome.source.clone();
    let text = source
        .as_deref()
        .map(|s| s.text.as_str())
        .filter(|_| !outcome.lossy_utf8);
    let mut relints = 0u32;
    // Each re-lint analyses the whole unit again: the functions it
    // analysed are what the budget counts (a file whose unit links a
    // hundred header functions gets fewer re-lints than a small kernel).
    let mut relinted_functions = 0usize;
    let function_budget = opts.budgets.max_fix_relint_functions;
    // And the executor runs again on every function that holds a finding.
    let mut relinted_steps = 0u64;
    let step_budget = opts.budgets.max_fix_relint_steps;
    for i in offered {
        let speculative = outcome.diagnostics[i].confirmation.evidence
            == Some(crate::diagnostic::Evidence::Speculative);
        // Why no (further) re-lint may run for this finding's fix.
        let no_relint = |relints: u32, functions: usize, steps: u64| match text {
            None => Some("the file is not valid UTF-8".to_owned()),
            // Its re-lint would propose the same candidate again (one on
            // every shared-memory statement, every narrowed mask) and leave
            // it undecided: one such fix of 53,723 findings verified on
            // FlashInfer, none on the other corpora, and the re-lints were
            // most of a run at `--min-confidence all`.
            Some(_) if speculative => Some(
                "not verified: no run confirmed this speculative candidate, so there is no \
                 problem shown for a fix to remove"
                    .to_owned(),
            ),
            Some(_) if relints >= opts.budgets.max_fix_relints => Some(format!(
                "not verified: past the budget of {} fix re-lints per file",
                opts.budgets.max_fix_relints
            )),
            Some(_) if relints > 0 && functions + outcome.functions > function_budget => {
                Some(format!(
                    "not verified: past the budget of {function_budget} functions analysed \
                     again to verify this file's fixes"
                ))
            }
            Some(_) if relints > 0 && steps + outcome.executor_steps > step_budget => {
                Some(format!(
                    "not verified: past the budget of {step_budget} executor steps run \
                     again to verify this file's fixes"
                ))
            }
            Some(_) => None,
        };
        // The fix, then its fallback where the fix fails its re-lint.
        let mut candidate = outcome.diagnostics[i].fix.clone();
        let mut failed: Vec<String> = Vec::new();
        let mut verified: Option<crate::diagnostic::Fix> = None;
        while let Some(fix) = candidate.take() {
            // The first reason is the rule's own fix's; a fallback's says
            // which fix it was.
            let reason = |why: String| {
                if failed.is_empty() {
                    why
                } else {
                    format!("{}: {why}", fix.message)
                }
            };
            if let Some(why) = no_relint(relints, relinted_functions, relinted_steps) {
                failed.push(reason(why));
                break;
            }
            let Some(text) = text else { break };
            relints += 1;
            let d = &outcome.diagnostics[i];
            let problem = match apply_edits(text, &fix.edits) {
                None => Some("its edits do not apply".to_owned()),
                Some(fixed) => {
                    let after = check_bytes(
                        &outcome.path,
                        Cow::Owned(fixed.into_bytes()),
                        opts,
                        session,
                        FixCheck::Skip,
                    );
                    relinted_functions += after.functions;
                    relinted_steps += after.executor_steps;
                    let original_line =
                        |a: &Diagnostic| original_line(text, &fix.edits, a.span.start);
                    relint_problem(&outcome.diagnostics, &[d], &after, &original_line)
                        .map(|p| p.short())
                }
            };
            match problem {
                None => {
                    verified = Some(crate::diagnostic::Fix {
                        fallback: None,
                        ..fix
                    });
                }
                Some(why) => {
                    failed.push(reason(why));
                    candidate = fix.fallback.map(|b| *b);
                }
            }
        }
        let d = &mut outcome.diagnostics[i];
        d.fix = verified;
        if d.fix.is_none() {
            d.fix_withheld = Some(failed.join("; also tried: "));
        }
    }
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
    let session = session_for_buffer(path, bytes, opts);
    analyse(
        Cow::Borrowed(bytes),
        opts,
        audit_comments,
        session.as_ref(),
        &mut outcome,
        &mut clock,
    );
    clock.skip();
    verify_fixes_in(&mut outcome, opts, session.as_ref());
    clock.lap(Stage::FixCheck);
    outcome.timings.merge(&clock.finish());
    outcome
}

/// The stages after the prefilter. Each ends with a lap of `clock`.
fn analyse(
    bytes: Cow<'_, [u8]>,
    opts: &Options,
    audit_comments: bool,
    session: Option<&tu::Session>,
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
    // The configuration this file is compiled with: the run's, and the
    // `-D`s of its compile database entry.
    let file_path = std::path::Path::new(&path);
    let file_env = session.and_then(|s| s.file_env(file_path, &unit_options(opts)));
    let env = file_env.as_ref().unwrap_or(&opts.env);
    let unit_opts = tu::UnitOptions {
        env,
        ..unit_options(opts)
    };
    let budget = opts.budgets.max_parse_operations;
    // The view the configuration compiles: branches not taken and
    // directive lines blank, attribute macros rewritten (same offsets).
    let parsed = frontend::parse_configured(source, env, budget);
    clock.lap(Stage::Parse);
    let (mut parsed, mut original_text) = match parsed {
        Ok(p) => p,
        Err(why) => {
            outcome.not_analysed = Some(why.to_string());
            return;
        }
    };
    // The translation unit: headers parsed and lowered once per run, their
    // macros visible to this file's lowering, their functions linked in.
    let mut unit = session
        .map(|s| s.unit(file_path, &parsed.source.text, &unit_opts))
        .unwrap_or_default();
    clock.lap(Stage::Unit);
    // A condition the rule for unknowns decided on a name the headers
    // define: configure again with the headers' macros.
    if let Some(s) = session
        && let Some(again) = tu::configure_again(
            &parsed,
            &mut original_text,
            &unit.header_effects(),
            env,
            budget,
        )
    {
        match again {
            Ok(p) => (parsed, original_text) = p,
            Err(why) => {
                outcome.not_analysed = Some(why.to_string());
                return;
            }
        }
        outcome.configured_with_header_macros = true;
        clock.lap(Stage::Parse);
        unit = s.unit(file_path, &parsed.source.text, &unit_opts);
        clock.lap(Stage::Unit);
    }
    if let Some(at) = parsed.view.cut_at {
        let budget = opts.budgets.max_parse_operations;
        let (line, _) = parsed.source.line_col(at);
        outcome.analysed_up_to_line = Some(line);
        outcome.partly_analysed = Some(format!(
            "analysed only up to line {line}: the whole file is past the parse budget of \
             {budget} parser operations, so the declarations after that line were not \
             parsed; {}",
            frontend::RAISE_PARSE_BUDGET
        ));
    }
    outcome.parse_error_regions = parsed.error_regions.clone();
    outcome.function_definitions = parsed.functions.total;
    outcome.functions_with_parse_errors = parsed.functions.with_parse_errors;
    outcome.includes_resolved = unit.resolved;
    outcome.missing_includes = unit.missing.clone();
    outcome.includes_cut = unit.cut;
    // A file without function definitions lowers to no function, so no
    // header macro is ever looked up (and no header is parsed for it).
    if parsed.functions.total > 0 && (unit.has_headers() || !unit.defines.is_empty()) {
        parsed.macros.inherit(unit.macros());
    }
    clock.lap(Stage::Unit);
    let mut module = ir::lower_file(&parsed, env);
    unit.link(&mut module);
    ir::lower::bind_callables(&mut module);
    if let Some(contracts) = session.and_then(|s| s.launch_contracts.get()) {
        for f in &module.functions {
            if let Some(name) = f.launch_name()
                && let Some(e) = contracts.get(name)
            {
                module.launch_extents.insert(name.to_owned(), *e);
                if f.class.is_some() {
                    module.launched_classes.insert(name.to_owned());
                }
            }
        }
        module.inherit_launch_extents();
    }
    if let Some(run) = session.and_then(|s| s.launch_instances.get()) {
        ir::lower::instantiate_from_run(&mut module, run);
    }
    clock.lap(Stage::Ir);
    let facts = dataflow::analyze(&module);
    clock.lap(Stage::Dataflow);
    let cx = RuleContext {
        file: &parsed,
        env,
        module: &module,
        facts: &facts,
    };
    let mut findings = rules::run(&opts.rules, &cx);
    // HIP code is not checked against CUDA's rules: its `__shfl` and
    // `__ballot` are HIP's own, its masks 64-bit, its wavefronts 64 lanes
    // on AMD GPUs. Asked only where a rule found something: the include
    // walk costs.
    let linked = linked_header_functions(&module);
    if (!findings.is_empty() || !linked.is_empty())
        && is_hip_code(&parsed, &unit, session, file_path, &unit_opts)
    {
        findings.clear();
        outcome.hip_code = true;
    } else {
        outcome.header_functions = linked;
    }
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
    outcome.executor_steps = cost.steps;
    outcome.executor_worst = cost.worst;
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    let mut in_headers: Vec<HeaderDiagnostic> = Vec::new();
    for (f, v) in findings.into_iter().zip(verdicts) {
        let function = f.claim.as_ref().map(|c| c.function);
        match function.and_then(|fi| module.header_of(fi).map(|h| (fi, h))) {
            Some((fi, header)) => {
                let via = v.as_ref().map_or(&[][..], |v| &v.via[..]);
                let label = calling_site_label(&module, &parsed.source, fi, via);
                let (mut d, visible) = build_diagnostic(header, f, v, opts);
                d.labels.extend(label);
                in_headers.push(HeaderDiagnostic {
                    source: Arc::clone(header),
                    diagnostic: d,
                    visible,
                });
            }
            None => {
                let (d, visible) = build_diagnostic(&parsed.source, f, v, opts);
                if visible {
                    diagnostics.push(d);
                }
            }
        }
    }
    keep_strongest_header_findings(&mut in_headers);
    outcome.header_diagnostics = suppress_in_headers(in_headers, opts);
    if audit_comments {
        // Directives are comments as written: the configured view blanks
        // some (inside `<nv/target>` dispatch arguments). Offsets and lines
        // are the same in both texts.
        let swap = |parsed: &mut frontend::ParsedFile, text: &mut Option<String>| {
            if let Some(t) = text.as_mut() {
                std::mem::swap(&mut parsed.source.text, t);
            }
        };
        swap(&mut parsed, &mut original_text);
        let applied = suppress::apply(&parsed.source, diagnostics, &opts.rules);
        swap(&mut parsed, &mut original_text);
        diagnostics = applied.diagnostics;
        outcome.suppressed = applied.suppressed;
    }
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    diagnostics.dedup();
    crate::diagnostic::keep_strongest_per_span(&mut diagnostics, |d| d);
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

/// The functions of included headers that this unit linked and analysed
/// in its context (its callers, its macros and constants): each header
/// function's span once, however many instances.
fn linked_header_functions(module: &ir::Module) -> Vec<(Arc<SourceFile>, ir::ByteSpan)> {
    let mut linked: Vec<(Arc<SourceFile>, ir::ByteSpan)> = (0..module.functions.len())
        .filter_map(|fi| Some((Arc::clone(module.header_of(fi)?), module.functions[fi].span)))
        .collect();
    linked.sort_by(|a, b| (a.0.path.as_str(), a.1).cmp(&(b.0.path.as_str(), b.1)));
    linked.dedup_by(|a, b| a.0.path == b.0.path && a.1 == b.1);
    linked
}

/// A `.hip` file, one that includes HIP's runtime (`<hip/…>`) in a
/// branch the configuration compiles, itself or through its headers (a
/// HIP library's configuration header), or one whose compiled code uses
/// AMD-only builtins or types (a hipified source that names no HIP header).
fn is_hip_code(
    parsed: &frontend::ParsedFile,
    unit: &tu::Unit,
    session: Option<&tu::Session>,
    path: &std::path::Path,
    unit_opts: &tu::UnitOptions,
) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("hip"))
        || parsed.view.includes_hip_runtime
        || parsed.view.amd_only_at.is_some()
        || (unit.headers_include_hip_runtime
            && session.is_some_and(|s| s.reaches_hip_runtime(path, &parsed.source.text, unit_opts)))
}

/// Apply the executor's verdict: refuted findings are shown only when
/// asked for; undecided ones only at the chosen confidence level
/// (`--min-confidence`), lowered to warnings, and say why. The bool says
/// whether the options show it.
fn build_diagnostic(
    source: &SourceFile,
    f: Finding,
    verdict: Option<Verdict>,
    opts: &Options,
) -> (Diagnostic, bool) {
    let verdict = verdict.unwrap_or_else(|| static_verdict(&f));
    let mut severity = f.rule.severity;
    let visible = match verdict.confirmation.status {
        Status::Refuted => opts.show_refuted,
        Status::Undecided => {
            severity = Severity::Warning;
            opts.min_confidence.admits(&verdict.confirmation)
        }
        Status::Confirmed => true,
    };
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
    let d = Diagnostic {
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
        fix_withheld: None,
        fingerprint: String::new(),
    };
    (d, visible)
}

/// Findings with no claim are facts about the source itself (a legacy
/// primitive in a macro body does not compile for sm_70+ wherever it is
/// expanded); their witness is that fact.
fn static_verdict(f: &Finding) -> Verdict {
    if f.rule.code != "WL001" {
        return Verdict {
            via: Vec::new(),
            detail: None,
            confirmation: Confirmation::undecided(
                "the executor has no model of this finding",
                Evidence::Direct,
            ),
        };
    }
    Verdict {
        via: Vec::new(),
        detail: Some("it does not compile for sm_70 or later".to_owned()),
        confirmation: Confirmation::confirmed(Witness {
            summary: "nvcc rejects maskless warp primitives when compiling for sm_70 or later"
                .to_owned(),
            ..Witness::default()
        }),
    }
}

/// Read and check one discovered file (a translation unit of its own).
pub fn check_file(candidate: &Candidate, opts: &Options) -> Option<FileOutcome> {
    let session = tu::Session::new(std::slice::from_ref(&candidate.path));
    check_file_in(candidate, opts, &session)
}

/// [`check_file`] with the run's shared header cache.
fn check_file_in(
    candidate: &Candidate,
    opts: &Options,
    session: &tu::Session,
) -> Option<FileOutcome> {
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
    // A bug of the analysis fails one file, not the run: the file is
    // named with the panic's message, as an unreadable one is (exit 2), and
    // the other files are still checked. The session's locks recover from
    // poisoning, and a header whose lowering panicked stays unlowered.
    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // How the test of this isolation makes a file fail (`tests/cli.rs`).
        if std::env::var_os("WARPLINT_TEST_PANIC_IN")
            .is_some_and(|name| display.ends_with(&*name.to_string_lossy()))
        {
            panic!("injected by WARPLINT_TEST_PANIC_IN");
        }
        check_bytes(
            &display,
            Cow::Owned(bytes),
            opts,
            Some(session),
            FixCheck::Verify,
        )
    }));
    let mut outcome = match checked {
        Ok(outcome) => outcome,
        Err(panic) => {
            let why = (panic.downcast_ref::<&str>().copied())
                .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("no message");
            return Some(FileOutcome {
                path: display,
                io_error: Some(format!(
                    "internal error while checking this file, please report it: {why}"
                )),
                ..FileOutcome::default()
            });
        }
    };
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
    let session = tu::Session::new(roots);
    let jobs: Vec<(Candidate, &Options)> = candidates.iter().map(|c| (c.clone(), opts)).collect();
    let mut run = run_jobs(&jobs, opts.threads, walk_errors, &session);
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
    let roots: Vec<PathBuf> = candidates.iter().map(|c| c.path.clone()).collect();
    run_jobs(&jobs, opts.threads, walk_errors, &tu::Session::new(&roots))
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
    let session = tu::Session::new(roots);
    let mut run = run_jobs(&jobs, resolver.base().threads, walk_errors, &session);
    run.timings.merge(&clock.finish());
    Ok(run)
}

/// The launch contracts of the whole run, set once on `session` before any
/// file is analysed: a kernel class's block shape is often stated in
/// another file than the class. Returns each job's size in bytes (0 for a
/// file that cannot be read or is over budget), for scheduling, and the
/// time the scan took (summed over workers).
fn scan_launch_contracts<O: std::borrow::Borrow<Options> + Sync>(
    jobs: &[(Candidate, O)],
    session: &tu::Session,
) -> (Vec<u64>, StageTimes) {
    // One file per rayon job: a file's cost varies by 1,000×, and a
    // worker that took a run of files as one job cannot be stolen from
    // (cccl ran on one core for most of its wall time).
    let scanned: Vec<(u64, ir::lower::StatedLaunches, StageTimes)> = jobs
        .par_iter()
        .with_max_len(1)
        .map(|(c, opts)| {
            let mut clock = Clock::start();
            let (size, launches) = scan_file_launches(c, opts.borrow());
            clock.lap(Stage::Contracts);
            (size, launches, clock.finish())
        })
        .collect();
    let mut times = StageTimes::default();
    let mut sizes = Vec::with_capacity(scanned.len());
    let mut launches = Vec::with_capacity(scanned.len());
    for (size, stated, t) in scanned {
        sizes.push(size);
        launches.push(stated);
        times.merge(&t);
    }
    session.state_launches(launches);
    (sizes, times)
}

/// One file's size and the launches it states (nothing for a file that
/// cannot be read or is over budget).
fn scan_file_launches(c: &Candidate, opts: &Options) -> (u64, ir::lower::StatedLaunches) {
    // Regular files only (a FIFO would block; `check_file_in` reports it).
    let size = std::fs::metadata(&c.path)
        .ok()
        .filter(|m| m.is_file() && m.len() <= opts.budgets.max_file_bytes)
        .map(|m| m.len());
    let Some(size) = size else {
        return (0, Default::default());
    };
    match std::fs::read(&c.path) {
        Ok(bytes) if bytes.len() as u64 <= opts.budgets.max_file_bytes => (
            size,
            tu::contracts::of_file(&bytes, &opts.env, opts.budgets.max_parse_operations),
        ),
        _ => (size, Default::default()),
    }
}

/// A run over a tree kept open, so that buffers (an editor's unsaved text,
/// a test's edited copy of a file) are checked as files of that run: the
/// same include resolution, header cache and launch contracts, without
/// re-reading the tree for each buffer.
pub struct Workspace {
    session: tu::Session,
    opts: Options,
}

impl Workspace {
    /// Discover `roots` and read the launch contracts of every file.
    pub fn open(roots: &[PathBuf], opts: &Options) -> Workspace {
        let (candidates, _walk_errors) = discover::discover(roots, &opts.discover);
        let session = tu::Session::new(roots);
        let jobs: Vec<(Candidate, &Options)> =
            candidates.iter().map(|c| (c.clone(), opts)).collect();
        in_pool(opts.threads, || scan_launch_contracts(&jobs, &session));
        Workspace {
            session,
            opts: opts.clone(),
        }
    }

    /// Check `bytes` as the text of `path` in this run. Fixes are offered
    /// unverified ([`check_source_unverified`]).
    pub fn check_unverified(&self, path: &str, bytes: &[u8]) -> FileOutcome {
        check_bytes(
            path,
            Cow::Borrowed(bytes),
            &self.opts,
            Some(&self.session),
            FixCheck::Skip,
        )
    }
}

/// Stack of each worker thread. Stages walk trees without recursion, but
/// the executor's calls nest (up to `max-call-depth`) and a debug build's
/// frames are large: rayon's default (2 MiB, like any spawned thread) is
/// what a debug build of the test suite once overflowed. Reserved, not
/// committed, until used.
pub const WORKER_STACK_BYTES: usize = 64 << 20;

/// Run `work` on a pool of `threads` workers (one per core when `None`),
/// each with [`WORKER_STACK_BYTES`] of stack; on the calling thread when a
/// pool cannot be built.
fn in_pool<R: Send>(threads: Option<usize>, work: impl FnOnce() -> R + Send) -> R {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .stack_size(WORKER_STACK_BYTES)
        .build();
    match pool {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    }
}

fn run_jobs<O: std::borrow::Borrow<Options> + Sync>(
    jobs: &[(Candidate, O)],
    threads: Option<usize>,
    walk_errors: Vec<discover::WalkError>,
    session: &tu::Session,
) -> RunResult {
    let run = || -> (Vec<FileOutcome>, StageTimes) {
        let (sizes, contract_times) = scan_launch_contracts(jobs, session);
        // Largest files first, so that no large file starts last while the
        // other workers idle; the results go back to discovery order.
        let mut order: Vec<usize> = (0..jobs.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(sizes[i]));
        let mut checked: Vec<(usize, FileOutcome)> = order
            .par_iter()
            .with_max_len(1)
            .filter_map(|&i| {
                let (c, opts) = &jobs[i];
                check_file_in(c, opts.borrow(), session).map(|o| (i, o))
            })
            .collect();
        checked.sort_by_key(|(i, _)| *i);
        (
            checked.into_iter().map(|(_, o)| o).collect(),
            contract_times,
        )
    };
    let (mut files, contract_times) = in_pool(threads, run);
    merge_header_findings(&mut files);
    let headers_lowered = session
        .headers_lowered
        .load(std::sync::atomic::Ordering::Relaxed);
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
    let mut timings = contract_times;
    for f in &files {
        timings.merge(&f.timings);
    }
    RunResult {
        files,
        io_errors,
        baseline: None,
        timings,
        headers_lowered,
    }
}

/// A unit's verdicts on one header finding (several instances, or the
/// helper called from several places): the strongest, a shown one
/// before a hidden one of equal strength.
fn keep_strongest_header_findings(found: &mut Vec<HeaderDiagnostic>) {
    crate::diagnostic::keep_strongest_per_span_by(
        found,
        |h| &h.diagnostic,
        |h| 2 * weakness(&h.diagnostic) + u8::from(!h.visible),
    );
}

/// A confirmation from a run that started in the function itself,
/// without a caller.
fn without_caller(d: &Diagnostic) -> bool {
    d.confirmation.status == Status::Confirmed
        && (d.confirmation.witness.as_ref()).is_some_and(|w| w.without_caller)
}

/// Report each finding inside a header once, with the strongest verdict
/// any unit gave it; of equals, the first file in discovery order that
/// saw it gives its calling-site label (so the output does not depend on
/// the thread count). It joins the header's own outcome when the header
/// was checked too (replacing the header's own finding where a unit's
/// verdict is stronger: a helper run from its caller shows what it run
/// alone could not), or a new outcome for the header, after the checked
/// files. A header's own finding inside a function that a unit linked
/// and found nothing in goes: the header checked alone lacks what its
/// includers define before including it (a namespace alias, a constant)
/// and its real callers.
fn merge_header_findings(files: &mut Vec<FileOutcome>) {
    let mut all: Vec<HeaderDiagnostic> = files
        .iter_mut()
        .flat_map(|f| std::mem::take(&mut f.header_diagnostics))
        .collect();
    let mut linked: Vec<(Arc<SourceFile>, ir::ByteSpan)> = files
        .iter_mut()
        .flat_map(|f| std::mem::take(&mut f.header_functions))
        .collect();
    respell_header_paths(files, &mut all, &mut linked);
    keep_strongest_header_findings(&mut all);
    // Header path → its text, the units' verdicts (shown or not) and the
    // spans of its functions that units linked.
    struct Verdicts {
        source: Arc<SourceFile>,
        verdicts: Vec<(Diagnostic, bool)>,
        linked: Vec<ir::ByteSpan>,
    }
    let mut by_path: BTreeMap<String, Verdicts> = BTreeMap::new();
    fn entry(by_path: &mut BTreeMap<String, Verdicts>, source: Arc<SourceFile>) -> &mut Verdicts {
        let path = source.path.clone();
        by_path.entry(path).or_insert_with(|| Verdicts {
            source,
            verdicts: Vec::new(),
            linked: Vec::new(),
        })
    }
    for h in all {
        entry(&mut by_path, h.source)
            .verdicts
            .push((h.diagnostic, h.visible));
    }
    for (source, span) in linked {
        entry(&mut by_path, source).linked.push(span);
    }
    for (
        path,
        Verdicts {
            source,
            verdicts: diags,
            linked,
        },
    ) in by_path
    {
        let at = match files.iter().position(|f| f.path == path) {
            Some(i) => i,
            None if diags.is_empty() => continue,
            None => {
                files.push(FileOutcome {
                    path: path.clone(),
                    bytes: source.text.len(),
                    ..FileOutcome::default()
                });
                files.len() - 1
            }
        };
        let outcome = &mut files[at];
        // The header's own findings in functions a unit ran its rule on, in
        // context, and found nothing in.
        let own = outcome.diagnostics.len();
        outcome.diagnostics.retain(|o| {
            let in_linked =
                (linked.iter()).any(|&(start, end)| start <= o.span.start && o.span.end <= end);
            let rule_saw_it = rules::lookup(o.code).is_some_and(|m| m.checks_linked_functions);
            !(in_linked && rule_saw_it) || diags.iter().any(|(d, _)| same_site(d, o))
        });
        let mut changed = outcome.diagnostics.len() != own;
        let before = outcome.diagnostics.len();
        let mut overruled: Vec<usize> = Vec::new();
        for (d, visible) in diags {
            let own = outcome.diagnostics[..before]
                .iter()
                .position(|o| same_site(o, &d));
            match own {
                // The header's own run started in the helper, which has no
                // caller there, and assumed its callers; a unit ran it
                // from real ones: theirs is the verdict, even a weaker one.
                Some(k) if without_caller(&outcome.diagnostics[k]) && !without_caller(&d) => {
                    if visible {
                        outcome.diagnostics[k] = d;
                    } else {
                        overruled.push(k);
                    }
                    changed = true;
                }
                Some(k) if visible && weakness(&d) < weakness(&outcome.diagnostics[k]) => {
                    outcome.diagnostics[k] = d;
                    changed = true;
                }
                Some(_) => {}
                None if visible => {
                    outcome.diagnostics.push(d);
                    changed = true;
                }
                None => {}
            }
        }
        if !overruled.is_empty() {
            let mut i = 0;
            outcome.diagnostics.retain(|_| {
                i += 1;
                !overruled.contains(&(i - 1))
            });
        }
        if !changed {
            continue;
        }
        outcome
            .diagnostics
            .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        let text = SourceFile::from_string(source.path.clone(), source.text.clone(), source.lossy);
        if let Some(parsed) = frontend::parse(text) {
            baseline::assign_fingerprints(&parsed, &mut outcome.diagnostics);
        }
        if outcome.source.is_none() {
            outcome.source = Some(source);
        }
    }
}

/// The same rule at the same span: one finding, whatever the verdict.
fn same_site(a: &Diagnostic, b: &Diagnostic) -> bool {
    a.code == b.code && a.span.start == b.span.start && a.span.end == b.span.end
}

/// A header that is also a checked file gets that file's spelling: a unit
/// names it by the path its include resolved to (an absolute include
/// directory, a run on `../src` or an absolute path), and matching by text
/// reported its findings twice. Matched by canonical path, looked up only
/// for spellings no checked file has; the header's linked functions
/// (`header_functions`) are respelt alike.
fn respell_header_paths(
    files: &[FileOutcome],
    found: &mut [HeaderDiagnostic],
    linked: &mut [(Arc<SourceFile>, ir::ByteSpan)],
) {
    let spelt: std::collections::HashSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let unspelt = |path: &str| !spelt.contains(path);
    if !found.iter().any(|h| unspelt(&h.diagnostic.path))
        && !linked.iter().any(|l| unspelt(&l.0.path))
    {
        return;
    }
    let by_canonical: BTreeMap<PathBuf, &str> = (files.iter())
        .filter_map(|f| Some((std::fs::canonicalize(&f.path).ok()?, f.path.as_str())))
        .collect();
    // Per header spelling, once: the checked file's spelling and the
    // header's text under it (a header has several findings).
    let mut respelt: BTreeMap<String, Option<Arc<SourceFile>>> = BTreeMap::new();
    let mut respell = |source: &Arc<SourceFile>| -> Option<Arc<SourceFile>> {
        if !unspelt(&source.path) {
            return None;
        }
        let entry = respelt.entry(source.path.clone()).or_insert_with(|| {
            let path = *by_canonical.get(&std::fs::canonicalize(&source.path).ok()?)?;
            Some(Arc::new(SourceFile::from_string(
                path.to_owned(),
                source.text.clone(),
                source.lossy,
            )))
        });
        entry.clone()
    };
    for h in found.iter_mut() {
        if let Some(source) = respell(&h.source) {
            h.diagnostic.path = source.path.clone();
            h.source = source;
        }
    }
    for l in linked.iter_mut() {
        if let Some(source) = respell(&l.0) {
            l.0 = source;
        }
    }
}

/// Suppression comments in a header apply to findings reported there. Only
/// the filtering is kept: whether a header's comments are used is judged
/// when the header itself is checked.
fn suppress_in_headers(found: Vec<HeaderDiagnostic>, opts: &Options) -> Vec<HeaderDiagnostic> {
    if opts.ignore_suppressions || found.is_empty() {
        return found;
    }
    // Per header and visibility: hidden verdicts are suppressed alike.
    let mut groups: Vec<(Arc<SourceFile>, bool, Vec<Diagnostic>)> = Vec::new();
    for h in found {
        match groups
            .iter_mut()
            .find(|(s, v, _)| Arc::ptr_eq(s, &h.source) && *v == h.visible)
        {
            Some((_, _, v)) => v.push(h.diagnostic),
            None => groups.push((h.source, h.visible, vec![h.diagnostic])),
        }
    }
    let mut out = Vec::new();
    for (source, visible, diags) in groups {
        let diags = if suppress::mentions_directive(source.text.as_bytes()) {
            suppress::apply(&source, diags, &opts.rules).diagnostics
        } else {
            diags
        };
        out.extend(
            diags
                .into_iter()
                .filter(|d| !rules::is_engine_rule(d.code))
                .map(|diagnostic| HeaderDiagnostic {
                    source: Arc::clone(&source),
                    diagnostic,
                    visible,
                }),
        );
    }
    out
}

/// A label on a header function's name saying which call in the checked
/// file brought it in: the last call from the file's own code on the path
/// of the run that showed the finding (`via`), else the first call (in
/// function and expression order) from the file's own code whose chain of
/// calls reaches `function`.
fn calling_site_label(
    module: &ir::Module,
    file: &SourceFile,
    function: usize,
    via: &[(usize, ir::ExprId)],
) -> Option<Label> {
    let label = |caller: usize, at: usize| {
        let (line, _) = file.line_col(at);
        let f = &module.functions[function];
        Some(Label {
            span: (module.header_of(function)).map(|h| h.span(f.name_span.0, f.name_span.1))?,
            message: format!(
                "seen as called from `{}` at {}:{line}",
                module.functions[caller].name, file.path
            ),
        })
    };
    let shown =
        (via.iter().rev()).find(|&&(g, _)| module.functions.get(g).is_some_and(|g| g.file == 0));
    if let Some(&(caller, call)) = shown {
        let at = module.functions[caller].exprs.get(call as usize)?.span.0;
        return label(caller, at);
    }
    let n = module.functions.len();
    let mut callers: Vec<Vec<(usize, (usize, usize))>> = vec![Vec::new(); n];
    for (fi, f) in module.functions.iter().enumerate() {
        for e in &f.exprs {
            if let ir::ExprKind::Call(c) = &e.kind
                && let Some(g) = dataflow::callee(module, c)
                && g < n
                && g != fi
            {
                callers[g].push((fi, e.span));
            }
        }
    }
    let mut seen = vec![false; n];
    let mut queue = std::collections::VecDeque::from([function]);
    seen[function] = true;
    while let Some(g) = queue.pop_front() {
        for &(caller, span) in &callers[g] {
            if module.functions[caller].file == 0 {
                return label(caller, span.0);
            }
            if !seen[caller] {
                seen[caller] = true;
                queue.push_back(caller);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Uses about `depth` × 64 KiB of stack.
    #[inline(never)]
    fn deep(depth: usize) -> u64 {
        let frame = std::hint::black_box([depth as u8; 64 << 10]);
        if depth == 0 {
            return u64::from(frame[0]);
        }
        deep(depth - 1) + u64::from(frame[depth % frame.len()])
    }

    #[test]
    fn workers_have_more_stack_than_a_default_thread() {
        // 8 MiB: four times a default spawned thread's stack (a 2 MiB
        // worker aborts the test binary here), an eighth of a worker's.
        for threads in [None, Some(1), Some(2)] {
            assert_eq!(in_pool(threads, || deep(128)), 128 * 129 / 2);
        }
    }

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

    #[test]
    fn a_file_past_the_parse_budget_is_analysed_up_to_a_cut() {
        // The same divergent full-mask shuffle in 300 kernels; a budget the
        // whole file is far past keeps the first few.
        let kernel = |i: usize| {
            format!(
                "__global__ void k{i}(float *p) {{\n  float v = p[threadIdx.x];\n  \
                 if (threadIdx.x < 5) v = __shfl_xor_sync(0xffffffff, v, 1);\n  \
                 p[threadIdx.x] = v;\n}}\n"
            )
        };
        let text: String = (0..300).map(kernel).collect();
        let mut opts = Options::default();
        opts.budgets.max_parse_operations = 16_000;
        let outcome = check_source("big.cu", text.as_bytes(), &opts);
        assert!(outcome.not_analysed.is_none());
        let why = outcome.partly_analysed.expect("cut");
        assert!(why.starts_with("analysed only up to line "), "{why}");
        let lines: Vec<usize> = outcome.diagnostics.iter().map(|d| d.span.line).collect();
        assert!(!lines.is_empty() && lines.len() < 300, "{lines:?}");
        // Every kernel before the cut is reported, none after it.
        let cut_line: usize = why["analysed only up to line ".len()..]
            .split(':')
            .next()
            .and_then(|n| n.parse().ok())
            .expect("a line");
        assert_eq!(lines.len(), cut_line / 5);
        assert!(lines.iter().all(|&l| l < cut_line));
    }
}
