//! Stage 1: discovery. Expands the paths on the command line into the files
//! to check, walking directories with the `ignore` crate so that
//! `.gitignore` and hidden files are honoured as users expect.

use std::path::{Path, PathBuf};

use ignore::WalkBuilder;

/// Extensions checked unconditionally.
pub const DEFAULT_EXTENSIONS: &[&str] = &["cu", "cuh"];
/// Extensions checked only when the content holds CUDA constructs.
pub const SNIFFED_EXTENSIONS: &[&str] = &["h", "hh", "hpp", "hxx", "inl", "cpp", "cc", "cxx"];

#[derive(Debug, Clone)]
pub struct DiscoverOptions {
    pub extensions: Vec<String>,
    pub sniffed_extensions: Vec<String>,
}

impl Default for DiscoverOptions {
    fn default() -> Self {
        DiscoverOptions {
            extensions: DEFAULT_EXTENSIONS.iter().map(|s| s.to_string()).collect(),
            sniffed_extensions: SNIFFED_EXTENSIONS.iter().map(|s| s.to_string()).collect(),
        }
    }
}

/// A file to check.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Candidate {
    pub path: PathBuf,
    /// Named on the command line: always checked, whatever its extension.
    pub explicit: bool,
    /// Checked only if its content looks like CUDA.
    pub sniff: bool,
}

/// A path that could not be walked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkError {
    pub path: String,
    pub message: String,
}

/// Expand `roots` into sorted, de-duplicated candidates.
pub fn discover(roots: &[PathBuf], opts: &DiscoverOptions) -> (Vec<Candidate>, Vec<WalkError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for root in roots {
        match std::fs::metadata(root) {
            Err(e) => errors.push(WalkError {
                path: root.display().to_string(),
                message: e.to_string(),
            }),
            Ok(md) if !md.is_dir() => files.push(Candidate {
                path: root.clone(),
                explicit: true,
                sniff: false,
            }),
            Ok(_) => walk_dir(root, opts, &mut files, &mut errors),
        }
    }
    files.sort();
    files.dedup_by(|a, b| a.path == b.path);
    (files, errors)
}

fn walk_dir(
    root: &Path,
    opts: &DiscoverOptions,
    files: &mut Vec<Candidate>,
    errors: &mut Vec<WalkError>,
) {
    let walker = WalkBuilder::new(root)
        .hidden(true)
        .git_ignore(true)
        .git_exclude(true)
        .require_git(false)
        .follow_links(false)
        .build();
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                errors.push(walk_error(root, e));
                continue;
            }
        };
        let path = entry.path();
        let Some(ft) = entry.file_type() else {
            continue;
        };
        // Symlinks are never followed into directories (no loops). A link to
        // a file is checked; a link that cannot be resolved (dangling, or a
        // loop) is kept so that reading it names it with the reason.
        let is_file = ft.is_file() || (ft.is_symlink() && !path.is_dir());
        if !is_file {
            continue;
        }
        let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
            continue;
        };
        let ext = ext.to_ascii_lowercase();
        let sniff = if opts.extensions.contains(&ext) {
            false
        } else if opts.sniffed_extensions.contains(&ext) {
            true
        } else {
            continue;
        };
        files.push(Candidate {
            path: path.to_path_buf(),
            explicit: false,
            sniff,
        });
    }
}

fn walk_error(root: &Path, err: ignore::Error) -> WalkError {
    let mut path = root.display().to_string();
    let mut cur = &err;
    // ignore wraps errors with the path and depth they happened at.
    loop {
        match cur {
            ignore::Error::WithPath { path: p, err } => {
                path = p.display().to_string();
                cur = err;
            }
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                cur = err
            }
            _ => break,
        }
    }
    WalkError {
        path,
        message: cur.to_string(),
    }
}
