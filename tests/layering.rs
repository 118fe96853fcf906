//! The module layering of ARCHITECTURE.md, kept by a test: every module may
//! use only modules of an earlier layer or of its own layer's leaf types,
//! never a later one, so the crate has no import circles.
//!
//! The check reads `crate::NAME` paths in every file under `src/` (comments
//! and string literals skipped), maps each file to its top-level module and
//! compares layers. A module missing from [`LAYERS`] fails the test, so a new
//! module must be given its place.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Top-level modules, earliest layer first. A module may use any module of
/// an earlier layer, and those of its own layer only where listed in
/// [`SAME_LAYER`].
const LAYERS: &[&[&str]] = &[
    // Shared leaf types: spans and sources, diagnostics, timing, rule pages.
    &["source", "diagnostic", "timing", "docs"],
    // Discovery and the byte-level prefilter.
    &["discover", "prefilter"],
    // Parsing, macros, the preprocessor configuration.
    &["frontend"],
    // The counted limits every later stage reads.
    &["budgets"],
    // The kernel IR and its lowering.
    &["ir"],
    // Translation units: includes resolved to headers, parsed and lowered
    // once per run, linked into each file's module.
    &["tu"],
    // Uniformity, reaching contexts, mask provenance.
    &["dataflow"],
    // Rules propose findings with claims.
    &["rules"],
    // The warp executor decides claims.
    &["executor"],
    // Per-file options and the results of a run.
    &["options", "outcome"],
    // Suppression comments and fingerprints, applied per file.
    &["suppress", "baseline"],
    // Config files resolved to options.
    &["config"],
    // The driver: one file, a whole run.
    &["engine"],
    // Fixes applied to files, reports of a run.
    &["fix", "report"],
    // Front ends.
    &["server", "fuzzing"],
    &["cli"],
];

/// Same-layer uses that are allowed: (user, used).
const SAME_LAYER: &[(&str, &str)] = &[("diagnostic", "source"), ("baseline", "suppress")];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
}

/// The source with comments and string/char literals replaced by spaces,
/// so that doc links and messages do not count as uses. A unit-test module
/// at the end of a file (`#[cfg(test)] mod tests`) is cut off: tests may
/// drive the whole pipeline.
fn code_only(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                    i += 1;
                }
            }
        } else if b[i] == b'"' {
            out.push(b' ');
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    out.push(b' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                    i += 1;
                }
            }
            out.push(b' ');
            i += 1;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The top-level modules a file names as `crate::NAME`, including those in
/// grouped imports like `use crate::{a, b::c}`.
fn used_modules(code: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level items of the group, at brace depth 0.
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        used.insert(ident(group[start..i].trim_start()));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        used.insert(ident(group[start..i].trim_start()));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            used.insert(ident(rest));
        }
    }
    used.remove("");
    used
}

fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_owned()
}

#[test]
fn every_module_uses_only_earlier_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut problems = Vec::new();
    for file in &files {
        let module = module_of(&src, file);
        if module == "lib" || module == "main" {
            continue;
        }
        let Some(own) = layer_of(&module) else {
            problems.push(format!(
                "module `{module}` has no layer in tests/layering.rs"
            ));
            continue;
        };
        let code = code_only(&std::fs::read_to_string(file).unwrap());
        for used in used_modules(&code) {
            if used == module || used == "self" || used == "super" {
                continue;
            }
            let Some(theirs) = layer_of(&used) else {
                problems.push(format!(
                    "{}: uses `{used}`, which has no layer",
                    file.display()
                ));
                continue;
            };
            let allowed = theirs < own
                || (theirs == own && SAME_LAYER.contains(&(module.as_str(), used.as_str())));
            if !allowed {
                problems.push(format!(
                    "{}: `{module}` (layer {own}) uses `{used}` (layer {theirs})",
                    file.display()
                ));
            }
        }
    }
    problems.sort();
    problems.dedup();
    assert!(
        problems.is_empty(),
        "layering violations:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_checker_sees_grouped_and_nested_uses() {
    let code = code_only(
        "use crate::{engine::Options, rules::{self, RuleSet}};\n\
         // crate::report in a comment\n\
         let s = \"crate::server\";\n\
         fn f() { crate::ir::fold::eval(); }\n",
    );
    let used: Vec<String> = used_modules(&code).into_iter().collect();
    assert_eq!(used, ["engine", "ir", "rules"]);
}
