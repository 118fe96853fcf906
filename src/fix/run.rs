//! What `warplint check --fix`, `--diff`, `--add-suppressions` and
//! `--statistics` do with a finished run. The CLI parses; this decides.

use std::collections::BTreeMap;
use std::path::Path;

use super::{fix_text, suppressions, unified_diff, write_atomically};
use crate::config::Resolver;
use crate::diagnostic::Applicability;
use crate::engine::{RunResult, check_source};

/// What to do with the run's files.
pub struct Rewrite {
    /// Write the files (`--fix`, `--add-suppressions`); otherwise only
    /// collect a diff (`--diff`).
    pub write: bool,
    pub unsafe_fixes: bool,
    /// `--add-suppressions REASON` instead of fixes.
    pub suppress_reason: Option<String>,
}

#[derive(Debug, Default)]
pub struct Summary {
    /// Unified diffs of every changed file (`--diff`).
    pub diff: String,
    pub changed_files: usize,
    pub fixed: usize,
    pub io_errors: usize,
}

/// Fix (or suppress) every file of `run` that has something to change,
/// write it unless asked for a diff, and put each written file's re-lint in
/// its place, so the report shows what is left. Notes go to stderr.
pub fn rewrite(run: &mut RunResult, resolver: &Resolver, rw: &Rewrite) -> Summary {
    let mut summary = Summary::default();
    let mut unsafe_skipped = 0;
    for file in run.files.iter_mut() {
        let Some(source) = file.source.clone() else {
            continue;
        };
        let opts = match resolver.options_for(Path::new(&file.path)) {
            Ok(o) => o,
            Err(e) => {
                eprintln_quiet!("warplint: error: {e}");
                summary.io_errors += 1;
                continue;
            }
        };
        let text = source.text.as_str();
        let (fixed, after, count) = match &rw.suppress_reason {
            Some(reason) => {
                if file.lossy_utf8 {
                    eprintln_quiet!(
                        "warplint: {}: not changed: the file is not valid UTF-8",
                        file.path
                    );
                    continue;
                }
                let (fixed, added, notes) = suppressions::add(text, &file.diagnostics, reason);
                for n in notes {
                    eprintln_quiet!("warplint: {}:{n}", file.path);
                }
                let after = check_source(&file.path, fixed.as_bytes(), &opts);
                (fixed, after, added)
            }
            None => {
                let Some(ff) = fix_text(&file.path, text, file, &opts, rw.unsafe_fixes) else {
                    continue;
                };
                for n in &ff.notes {
                    eprintln_quiet!("warplint: {n}");
                }
                unsafe_skipped += ff.unsafe_skipped;
                let n = ff.applied.len();
                (ff.fixed, ff.after, n)
            }
        };
        if fixed == text {
            continue;
        }
        summary.changed_files += 1;
        summary.fixed += count;
        if !rw.write {
            summary
                .diff
                .push_str(&unified_diff(&file.path, text, &fixed));
            continue;
        }
        match write_atomically(Path::new(&file.path), fixed.as_bytes()) {
            Ok(()) => *file = after,
            Err(e) => {
                eprintln_quiet!("warplint: error: cannot write {}: {e}", file.path);
                summary.io_errors += 1;
            }
        }
    }
    let what = if rw.suppress_reason.is_some() {
        "suppressed"
    } else if rw.write {
        "fixed"
    } else {
        "would fix"
    };
    eprintln_quiet!(
        "warplint: {what} {} finding(s) in {} file(s)",
        summary.fixed,
        summary.changed_files
    );
    if unsafe_skipped > 0 {
        eprintln_quiet!(
            "warplint: {unsafe_skipped} unsafe fix(es) not applied (review them with --diff --unsafe-fixes)"
        );
    }
    summary
}

/// `--statistics`: findings per rule, most frequent first, and how many of
/// them have a safe fix.
pub fn statistics(run: &RunResult, json: bool) -> String {
    let mut per: BTreeMap<&str, (usize, usize, usize, &str)> = BTreeMap::new();
    for d in run.diagnostics() {
        let e = per.entry(d.code).or_insert((0, 0, 0, d.name));
        e.0 += 1;
        match d.fix.as_ref().map(|f| f.applicability) {
            Some(Applicability::Safe) => e.1 += 1,
            Some(Applicability::Unsafe) => e.2 += 1,
            None => {}
        }
    }
    let mut rows: Vec<_> = per.into_iter().collect();
    rows.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
    if json {
        let list: Vec<_> = rows
            .iter()
            .map(|(code, (n, safe, unsafe_, name))| {
                serde_json::json!({"code": code, "name": name, "count": n,
                    "safe_fixes": safe, "unsafe_fixes": unsafe_})
            })
            .collect();
        return serde_json::to_string_pretty(&list).unwrap_or_default() + "\n";
    }
    let mut out = String::new();
    for (code, (n, safe, unsafe_, name)) in rows {
        let mark = if safe == n { "[*]" } else { "[ ]" };
        out.push_str(&format!("{n:>5}\t{code}\t{mark} {name}"));
        if safe > 0 && safe < n {
            out.push_str(&format!(" ({safe} fixable)"));
        }
        if unsafe_ > 0 {
            out.push_str(&format!(" ({unsafe_} with an unsafe fix)"));
        }
        out.push('\n');
    }
    out
}
