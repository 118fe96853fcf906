//! A translation unit parses a header only when its words say it may
//! define a name the file asks for (`tu::words`). That is sound only if
//! every function a parsed header defines passes
//! `Words::may_define_function`, and every constant it folds passes
//! `Words::may_define_constant`: checked here on every file we have
//! (testdata, the fuzz seeds, and the cached corpora's headers when the
//! benchmark has fetched them; `WARPLINT_WORDS_CORPORA` picks which).
//!
//! The prefilter skips a file without warp code of its own when no header
//! declaration its names reach holds warp code (`tu::reach`). That is
//! sound only if a call of a function reaches all of its text and every
//! call it makes (its constructors' too), and a use of a macro its whole
//! definition: checked here on the same files.

use std::path::{Path, PathBuf};

use warplint::frontend::{self, PreprocEnv};
use warplint::ir;
use warplint::source::SourceFile;
use warplint::tu::reach::Reach;
use warplint::tu::words::Words;

mod common;
use common::{corpus_inputs, own_inputs};

/// The names defined in `path`'s lowered module that its words miss.
fn missed_definitions(path: &Path) -> Vec<String> {
    let Ok(bytes) = std::fs::read(path) else {
        return Vec::new();
    };
    let source = SourceFile::new(path.display().to_string(), &bytes);
    let env = PreprocEnv::default();
    let Ok((parsed, _)) = frontend::parse_configured(source, &env, 50_000_000) else {
        return Vec::new();
    };
    let words = Words::of(&parsed.source.text);
    let module = ir::lower_file(&parsed, &env);
    let mut missed: Vec<String> = module
        .by_name
        .keys()
        // A call asks only for an identifier (`Unit::link`).
        .filter(|name| ir::lower::is_identifier(name) && !is_keyword(name))
        .filter(|name| !words.may_define_function(name))
        .cloned()
        .collect();
    // A constant is looked up by its name; `NAME()` (a function-like
    // macro's value, or a constant `constexpr` function's) only by a call
    // of it, whose name `#define` or the function's definition gives; a class's `Wide::kLanes` where the header may define its
    // last segment (`Unit::link`). Files with parse errors are left out: error recovery can
    // turn a template's parameter list into declarations (CUTLASS's
    // `simd.h` has an attribute macro before `template`), which no lexer
    // mirrors.
    if parsed.error_regions.is_empty() {
        missed.extend(
            module
                .constants
                .keys()
                .filter(|name| {
                    let last = name.rsplit("::").next().unwrap_or(name);
                    match last.strip_suffix("()") {
                        // A constant `constexpr` function's value: its
                        // definition's head gives the name.
                        Some(base) => {
                            !words.may_define_constant(base) && !words.may_define_function(base)
                        }
                        None => !words.may_define_constant(last),
                    }
                })
                .map(|name| format!("constant {name}")),
        );
    }
    missed.extend(unreached_definitions(&parsed, &module));
    missed.sort();
    missed
}

/// Functions and macros whose text the declarations reached from their
/// name do not cover.
fn unreached_definitions(parsed: &frontend::ParsedFile, module: &ir::Module) -> Vec<String> {
    let reach = Reach::of(&parsed.source.text);
    let mut missed = Vec::new();
    let covered = |spans: &[(usize, usize)], s: ir::ByteSpan| {
        ir::is_synthesized(s) || spans.iter().any(|&(a, b)| a <= s.0 && s.1 <= b)
    };
    for f in &module.functions {
        if !ir::lower::is_identifier(&f.name) || is_keyword(&f.name) {
            continue;
        }
        let (spans, _) = reach.closure_of(&f.name);
        // Its statements, not its span: error recovery can stretch a
        // definition over a namespace's `}`. (Statements from elsewhere,
        // a base class's constants, are the prelude; their calls are
        // checked below.)
        let own = |s: &ir::ByteSpan| f.span.0 <= s.0 && s.1 <= f.span.1;
        let mut stmts = (f.stmts.iter().map(|st| st.span).filter(own)).chain([f.name_span]);
        if let Some(s) = stmts.find(|&s| !covered(&spans, s)) {
            missed.push(format!("reach of {} (bytes {}..{})", f.name, s.0, s.1));
        }
        for e in &f.exprs {
            if let ir::ExprKind::Call(c) = &e.kind
                && !covered(&spans, e.span)
            {
                missed.push(format!(
                    "reach of {}: its call of {} at byte {}",
                    f.name, c.name, e.span.0
                ));
            }
        }
    }
    for m in &parsed.macros.defs {
        let (spans, _) = reach.closure_of(&m.name);
        // An empty body may start past the line's end.
        let body = m.body.trim_end();
        let end = if body.trim().is_empty() {
            m.define_start + 1
        } else {
            m.body_start + body.len()
        };
        if !covered(&spans, (m.define_start, end)) {
            missed.push(format!("reach of macro {}", m.name));
        }
    }
    missed
}

fn is_keyword(name: &str) -> bool {
    warplint::tu::words::KEYWORDS.contains(&name)
}

fn assert_no_missed(files: &[PathBuf]) {
    let mut problems = Vec::new();
    for f in files {
        let missed = missed_definitions(f);
        if !missed.is_empty() {
            problems.push(format!("{}: {}", f.display(), missed.join(", ")));
        }
    }
    assert!(
        problems.is_empty(),
        "functions or constants defined where the words lexer says none may be, or \
         definitions their name does not reach:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_defined_function_in_testdata_and_fuzz_seeds_is_a_candidate() {
    let files = own_inputs();
    assert!(files.len() > 100);
    assert_no_missed(&files);
}

#[test]
fn every_defined_function_in_the_cached_corpora_is_a_candidate() {
    // FlashInfer is opt-in:
    // `WARPLINT_WORDS_CORPORA=cccl,cupy,cutlass,flashinfer`.
    let files = corpus_inputs("WARPLINT_WORDS_CORPORA");
    if files.is_empty() {
        eprintln!("skipped: no corpus in .bench-cache (cargo bench --bench corpus fetches them)");
        return;
    }
    assert_no_missed(&files);
}
