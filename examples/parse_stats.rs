//! How much of a code base parses: files, function definitions and those
//! with parse errors, per directory, as the engine's `stats` counts them
//! (files the prefilter skips are not parsed and not counted; `--all`
//! parses them too). Parse only: no IR, dataflow or executor. `--raw`
//! parses the files as written instead of their configured view (the
//! figures before the preprocessor configuration); `-D NAME[=VALUE]` and
//! `--cuda-version X.Y` configure it.
//!
//! cargo run --example parse_stats -- [--all] [--raw] [--errors] [-D NAME[=VALUE]]… DIR…

use std::path::{Path, PathBuf};

use warplint::discover::{DEFAULT_EXTENSIONS, SNIFFED_EXTENSIONS};
use warplint::engine::Options;
use warplint::source::SourceFile;
use warplint::{frontend, prefilter};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
}

fn main() {
    let mut all = false;
    let mut opts = Options::default();
    let mut raw = false;
    let mut show_errors = false;
    let mut dirs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--all" => all = true,
            "--raw" => raw = true,
            "--errors" => show_errors = true,
            "-D" => opts.env.defines.extend(args.next()),
            "--cuda-version" => {
                if let Some(v) = args
                    .next()
                    .and_then(|v| frontend::preproc::parse_cuda_version(&v))
                {
                    opts.env.cuda_version = v;
                }
            }
            _ => dirs.push(PathBuf::from(a)),
        }
    }
    println!("| dir | files | parsed | functions | with parse errors | % |");
    println!("|---|---|---|---|---|---|");
    for dir in dirs {
        let mut files = Vec::new();
        walk(&dir, &mut files);
        let (mut candidates, mut parsed, mut total, mut broken) = (0, 0, 0, 0);
        for path in files {
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            let always = DEFAULT_EXTENSIONS.contains(&ext);
            if !always && !SNIFFED_EXTENSIONS.contains(&ext) {
                continue;
            }
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            if !always && !prefilter::looks_like_cuda(&bytes) {
                continue;
            }
            candidates += 1;
            if !all && !prefilter::has_warp_code(&bytes) {
                continue;
            }
            let source = SourceFile::new(path.display().to_string(), &bytes);
            let budget = opts.budgets.max_parse_operations;
            let result = if raw {
                frontend::parse_within(source, budget)
            } else {
                frontend::parse_configured(source, &opts.env, budget).map(|(f, _)| f)
            };
            let Ok(file) = result else {
                continue;
            };
            parsed += 1;
            if show_errors {
                print_innermost_errors(&file, &path);
            }
            total += file.functions.total;
            broken += file.functions.with_parse_errors;
        }
        let pct = if total == 0 {
            0.0
        } else {
            100.0 * broken as f64 / total as f64
        };
        println!(
            "| {} | {candidates} | {parsed} | {total} | {broken} | {pct:.1} |",
            dir.display()
        );
    }
}

/// Every ERROR/MISSING node with no such node inside it: `path:line:
/// [kind] text | line`, text and line cut to 100 characters (for grouping
/// the causes of parse errors).
fn print_innermost_errors(file: &frontend::ParsedFile, path: &Path) {
    let text = &file.source.text;
    frontend::preorder(file.tree.root_node(), |node| {
        if !node.has_error() && !node.is_missing() {
            return frontend::Walk::Skip;
        }
        let inner_error = (0..node.child_count())
            .filter_map(|i| node.child(i))
            .any(|c| c.has_error() || c.is_missing());
        if (node.is_error() || node.is_missing()) && !inner_error {
            let line = node.start_position().row + 1;
            let cut = |s: &str| -> String {
                s.split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .chars()
                    .take(100)
                    .collect()
            };
            let own = cut(frontend::node_text(node, text));
            let kind = if node.is_missing() {
                "MISSING"
            } else {
                "ERROR"
            };
            let line_text = cut(file.source.line_text(line));
            eprintln!("{}:{line}: [{kind}] {own} | {line_text}", path.display());
        }
        frontend::Walk::Descend
    });
}
