//! Fixes: `rules::fixes` computes each finding's edit inside the per-file
//! pipeline (after the executor); this module, a stage after the engine,
//! composes a file's fixes, lints the fixed text again, and writes it.
//!
//! The engine offers a fix only if it passes that re-lint alone
//! (`engine::verify_fixes`); here the fixes a file offers are applied
//! together and the same check runs again ([`relint_problem`]): the fixed
//! text must have, for every code, at most the findings it had minus those
//! fixed. When all of a file's fixes
//! together fail that, each is tried alone (in order, keeping those that
//! pass), so one wrong fix does not hold back the others; past
//! [`MAX_SINGLE_TRIES`] the file's fixes are dropped with a note.

pub mod run;
pub mod settings;
pub mod suppressions;

use std::io::Write as _;
use std::path::Path;

pub use crate::diagnostic::apply_edits;
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, original_line};
use crate::engine::{FileOutcome, Options, check_source_unverified, relint_problem, verify_fixes};

/// How many fixes of one file are tried one at a time (each is a re-lint)
/// when they fail together.
pub const MAX_SINGLE_TRIES: usize = 32;

/// The result of fixing one file in memory.
#[derive(Debug)]
pub struct FileFix {
    pub path: String,
    pub original: String,
    pub fixed: String,
    /// The diagnostics whose fixes are in `fixed`.
    pub applied: Vec<Diagnostic>,
    /// Why fixes were left out (overlap, re-lint), one line each.
    pub notes: Vec<String>,
    /// Unsafe fixes not applied because `--unsafe-fixes` was not given.
    pub unsafe_skipped: usize,
    /// The lint of `fixed` (what is left).
    pub after: FileOutcome,
}

impl FileFix {
    pub fn changed(&self) -> bool {
        self.fixed != self.original
    }
}

/// Whether a fix of this applicability may be applied.
pub fn allowed(fix: &Fix, unsafe_fixes: bool) -> bool {
    match fix.applicability {
        Applicability::Safe => true,
        Applicability::Unsafe => unsafe_fixes,
    }
}

/// Two edits conflict when their ranges overlap or both insert at the same
/// offset different text. Identical edits (two fixes inserting the same
/// ballot) are one edit.
fn conflicts(a: &Edit, b: &Edit) -> bool {
    if a == b {
        return false;
    }
    let a_insert = a.start_byte == a.end_byte;
    let b_insert = b.start_byte == b.end_byte;
    if a_insert && b_insert {
        return a.start_byte == b.start_byte;
    }
    a.start_byte < b.end_byte && b.start_byte < a.end_byte
}

/// The fixes of `candidates` that compose, in order: a fix whose edits
/// conflict with an earlier kept fix is dropped. Returns (kept, dropped).
pub fn compose<'d>(candidates: &[&'d Diagnostic]) -> (Vec<&'d Diagnostic>, Vec<&'d Diagnostic>) {
    let mut kept: Vec<&Diagnostic> = Vec::new();
    let mut dropped = Vec::new();
    let mut edits: Vec<&Edit> = Vec::new();
    for d in candidates {
        let Some(fix) = &d.fix else { continue };
        if fix
            .edits
            .iter()
            .any(|e| edits.iter().any(|k| conflicts(k, e)))
        {
            dropped.push(*d);
        } else {
            edits.extend(&fix.edits);
            kept.push(*d);
        }
    }
    (kept, dropped)
}

fn edits_of(ds: &[&Diagnostic]) -> Vec<Edit> {
    ds.iter()
        .filter_map(|d| d.fix.as_ref())
        .flat_map(|f| f.edits.iter().cloned())
        .collect()
}

/// Fix one file's text in memory: `outcome` is its lint with `opts`.
/// `None` when it has no fix to offer.
pub fn fix_text(
    path: &str,
    text: &str,
    outcome: &FileOutcome,
    opts: &Options,
    unsafe_fixes: bool,
) -> Option<FileFix> {
    let with_fix: Vec<&Diagnostic> = outcome
        .diagnostics
        .iter()
        .filter(|d| d.fix.as_ref().is_some_and(|f| !f.edits.is_empty()))
        .collect();
    if with_fix.is_empty() {
        return None;
    }
    let candidates: Vec<&Diagnostic> = with_fix
        .iter()
        .copied()
        .filter(|d| d.fix.as_ref().is_some_and(|f| allowed(f, unsafe_fixes)))
        .collect();
    let unsafe_skipped = with_fix.len() - candidates.len();
    let mut notes = Vec::new();
    let mut result = FileFix {
        path: path.to_owned(),
        original: text.to_owned(),
        fixed: text.to_owned(),
        applied: Vec::new(),
        notes: Vec::new(),
        unsafe_skipped,
        after: FileOutcome::default(),
    };
    if outcome.lossy_utf8 {
        result
            .notes
            .push(format!("{path}: not fixed: the file is not valid UTF-8"));
        return Some(result);
    }
    let (kept, dropped) = compose(&candidates);
    for d in &dropped {
        notes.push(format!(
            "{path}:{}: {} fix not applied: its edits overlap an earlier fix (run --fix again)",
            d.span.line, d.code
        ));
    }
    // The re-lint only counts findings; the one kept gets its own fixes
    // verified below.
    let attempt = |ds: &[&Diagnostic]| -> Option<(String, FileOutcome)> {
        let fixed = apply_edits(text, &edits_of(ds))?;
        let after = check_source_unverified(path, fixed.as_bytes(), opts);
        Some((fixed, after))
    };
    let problem = |ds: &[&Diagnostic], after: &FileOutcome| -> Option<String> {
        let edits = edits_of(ds);
        let original_line = |a: &Diagnostic| original_line(text, &edits, a.span.start);
        relint_problem(&outcome.diagnostics, ds, after, &original_line).map(|p| p.long())
    };
    let mut accepted: Vec<&Diagnostic> = Vec::new();
    let mut best: Option<(String, FileOutcome)> = None;
    match attempt(&kept) {
        Some((fixed, after)) if problem(&kept, &after).is_none() => {
            accepted = kept.clone();
            best = Some((fixed, after));
        }
        together => {
            let why = together
                .and_then(|(_, after)| problem(&kept, &after))
                .unwrap_or_else(|| "the edits do not apply".to_owned());
            if kept.len() > MAX_SINGLE_TRIES {
                notes.push(format!("{path}: not fixed: {why}"));
            } else {
                notes.push(format!(
                    "{path}: the fixes together fail the re-lint ({why}); trying them one at a time"
                ));
                for d in &kept {
                    let mut trial = accepted.clone();
                    trial.push(d);
                    match attempt(&trial) {
                        Some((fixed, after)) => match problem(&trial, &after) {
                            None => {
                                accepted = trial;
                                best = Some((fixed, after));
                            }
                            Some(why) => notes.push(format!(
                                "{path}:{}: {} fix not applied: {why}",
                                d.span.line, d.code
                            )),
                        },
                        None => notes.push(format!(
                            "{path}:{}: {} fix not applied: its edits do not apply",
                            d.span.line, d.code
                        )),
                    }
                }
            }
        }
    }
    result.notes = notes;
    match best {
        Some((fixed, mut after)) => {
            // What is left is reported: offer only fixes that pass alone.
            verify_fixes(&mut after, opts);
            result.fixed = fixed;
            result.after = after;
            result.applied = accepted.into_iter().cloned().collect();
        }
        // Nothing changed: what is left is what was there.
        None => result.after = outcome.clone(),
    }
    Some(result)
}

/// Replace `path`'s contents with `contents`: written to a temporary file
/// in the same directory, given the original's permissions, then renamed
/// over it, so a reader sees the old file or the new one, never half.
pub fn write_atomically(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let meta = std::fs::metadata(path)?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut n = 0u32;
    let (tmp, mut file) = loop {
        let tmp = dir.join(format!(".{name}.warplint-fix.{}.{n}", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => break (tmp, f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 100 => n += 1,
            Err(e) => return Err(e),
        }
    };
    let written = file
        .write_all(contents)
        .and_then(|_| file.sync_all())
        .and_then(|_| std::fs::set_permissions(&tmp, meta.permissions()))
        .and_then(|_| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// A unified diff of one file (`a/PATH`, `b/PATH`), three lines of context.
pub fn unified_diff(path: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(
            &format!("a/{}", path.trim_start_matches('/')),
            &format!("b/{}", path.trim_start_matches('/')),
        )
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(s: usize, e: usize, r: &str) -> Edit {
        Edit {
            start_byte: s,
            end_byte: e,
            replacement: r.to_owned(),
        }
    }

    #[test]
    fn edits_apply_in_offset_order_with_inserts_first() {
        let t = "abcdef";
        let out = apply_edits(t, &[edit(2, 4, "X"), edit(2, 2, "<"), edit(6, 6, "!")]).unwrap();
        assert_eq!(out, "ab<Xef!");
        assert_eq!(apply_edits(t, &[edit(1, 3, "X"), edit(2, 4, "Y")]), None);
        assert_eq!(apply_edits(t, &[edit(1, 9, "X")]), None);
        // The same edit twice is one edit.
        assert_eq!(
            apply_edits(t, &[edit(0, 0, "+"), edit(0, 0, "+")]).unwrap(),
            "+abcdef"
        );
    }

    #[test]
    fn conflicts_are_overlaps_and_competing_inserts() {
        assert!(conflicts(&edit(1, 3, "a"), &edit(2, 4, "b")));
        assert!(conflicts(&edit(2, 2, "a"), &edit(2, 2, "b")));
        assert!(!conflicts(&edit(2, 2, "a"), &edit(2, 2, "a")));
        assert!(!conflicts(&edit(1, 2, "a"), &edit(2, 3, "b")));
        assert!(!conflicts(&edit(2, 2, "a"), &edit(2, 3, "b")));
    }

    #[test]
    fn atomic_write_keeps_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("k.cu");
        std::fs::write(&p, "old").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomically(&p, b"new\r\n").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new\r\n");
        let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
