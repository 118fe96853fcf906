//! Stage 1: discovery. Expands the paths on the command line into the files
//! to check, walking directories with the `ignore` crate so that
//! `.gitignore` and hidden files are honoured as users expect.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

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

/// How discovery treats a walked file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// Checked whatever it contains (`.cu`, `.cuh`, `extensions`).
    Always,
    /// Checked only if its content looks like CUDA (headers, C++ sources).
    Sniff,
}

impl DiscoverOptions {
    /// Whether a walked file is a candidate, by its extension.
    pub fn kind_of(&self, path: &Path) -> Option<FileKind> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        if self.extensions.contains(&ext) {
            Some(FileKind::Always)
        } else if self.sniffed_extensions.contains(&ext) {
            Some(FileKind::Sniff)
        } else {
            None
        }
    }
}

/// What discovery asks about each path: a config resolver answers per
/// directory ([`crate::config::Resolver`]); plain [`DiscoverOptions`] give
/// the same answer everywhere and exclude nothing.
pub trait Policy: Send + Sync {
    /// Leave this path out. `explicit`: it was named on the command line.
    /// A walked directory that is excluded is not entered.
    fn excluded(&self, path: &Path, explicit: bool) -> bool;
    /// Whether a walked file is a candidate, and how.
    fn kind_of(&self, path: &Path) -> Option<FileKind>;
}

impl Policy for DiscoverOptions {
    fn excluded(&self, _: &Path, _: bool) -> bool {
        false
    }

    fn kind_of(&self, path: &Path) -> Option<FileKind> {
        DiscoverOptions::kind_of(self, path)
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
    discover_with(roots, Arc::new(opts.clone()))
}

/// [`discover`], asking `policy` what to exclude and which files to take.
pub fn discover_with(
    roots: &[PathBuf],
    policy: Arc<dyn Policy>,
) -> (Vec<Candidate>, Vec<WalkError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for root in roots {
        match std::fs::metadata(root) {
            Err(e) => errors.push(WalkError {
                path: root.display().to_string(),
                message: e.to_string(),
            }),
            Ok(md) if !md.is_dir() => {
                if !policy.excluded(root, true) {
                    files.push(Candidate {
                        path: root.clone(),
                        explicit: true,
                        sniff: false,
                    })
                }
            }
            Ok(_) => walk_dir(root, &policy, &mut files, &mut errors),
        }
    }
    files.sort();
    files.dedup_by(|a, b| a.path == b.path);
    (files, errors)
}

fn walk_dir(
    root: &Path,
    policy: &Arc<dyn Policy>,
    files: &mut Vec<Candidate>,
    errors: &mut Vec<WalkError>,
) {
    let filter = Arc::clone(policy);
    let walker = WalkBuilder::new(root)
        .hidden(true)
        .git_ignore(true)
        .git_exclude(true)
        .require_git(false)
        .follow_links(false)
        // The root itself was named by the user; exclusion applies below it.
        .filter_entry(move |e| e.depth() == 0 || !filter.excluded(e.path(), false))
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
        let Some(kind) = policy.kind_of(path) else {
            continue;
        };
        files.push(Candidate {
            path: path.to_path_buf(),
            explicit: false,
            sniff: kind == FileKind::Sniff,
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

/// `path` made absolute against `cwd` and lexically normalized (`.` dropped,
/// `..` applied), without touching the file system: symlinks stay as named.
pub fn normalize_path(cwd: &Path, path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.join(path)
    };
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}
