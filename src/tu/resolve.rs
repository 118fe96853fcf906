//! Finding the file an `#include` names: next to the including file
//! (quoted form), through include directories, or — with no compile
//! database and no configured directories — by path suffix among the
//! files of the checked tree and its enclosing git repository.

use rustc_hash::FxHashMap as HashMap;
use std::path::{Component, Path, PathBuf};

/// One `#include` directive, in source order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    /// The name between the quotes or angle brackets.
    pub name: String,
    /// `"…"` rather than `<…>`.
    pub quoted: bool,
}

/// The `#include` directives of `text`, in order. A line lexer, not the
/// preprocessor: directives in comments or dead `#if` branches are listed
/// too, which only ever adds headers (the prefilter stays sound; the
/// `preproc` stage's taken includes replace this list when it lands).
/// `#include MACRO` forms are skipped (counted by the caller as unknown).
pub fn directives(text: &str) -> Vec<Directive> {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        let Some(rest) = t.strip_prefix('#') else {
            continue;
        };
        let rest = rest.trim_start();
        let Some(rest) = rest
            .strip_prefix("include_next")
            .or_else(|| rest.strip_prefix("include"))
        else {
            continue;
        };
        let rest = rest.trim_start();
        let (close, quoted) = match rest.chars().next() {
            Some('"') => ('"', true),
            Some('<') => ('>', false),
            _ => continue,
        };
        let body = &rest[1..];
        if let Some(end) = body.find(close) {
            let name = body[..end].trim();
            if !name.is_empty() {
                out.push(Directive {
                    name: name.to_owned(),
                    quoted,
                });
            }
        }
    }
    out
}

/// `a/./b/../c` → `a/c`, without touching the file system (so paths keep
/// the form discovery gives them, relative or absolute).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(c),
            },
            other => out.push(other),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

/// Extensions of files the suffix index holds.
const INDEXED_EXTENSIONS: &[&str] = &[
    "h", "hh", "hpp", "hxx", "cuh", "inl", "inc", "cu", "cuhpp", "ipp", "tcc", "def",
];

/// Files walked to build the suffix index, at most: a huge monorepo gets a
/// partial index rather than an unbounded walk.
pub const MAX_INDEXED_FILES: usize = 200_000;

/// Path components of a suffix that are indexed: `a/b/c/d.h` is found by
/// `d.h`, `c/d.h`, … up to this many components.
const MAX_SUFFIX_COMPONENTS: usize = 6;

/// Path suffix → the files ending in it (`cub/util.cuh` → `…/cub/util.cuh`).
#[derive(Debug, Default)]
pub struct SuffixIndex {
    by_suffix: HashMap<String, Vec<PathBuf>>,
    /// Files indexed (for statistics and tests).
    pub files: usize,
}

impl SuffixIndex {
    /// Index the files under `roots` (each walked with `.gitignore` rules).
    pub fn build(roots: &[PathBuf]) -> SuffixIndex {
        let mut index = SuffixIndex::default();
        let mut seen = rustc_hash::FxHashSet::default();
        for root in roots {
            if index.files >= MAX_INDEXED_FILES {
                break;
            }
            let walker = ignore::WalkBuilder::new(root).follow_links(false).build();
            for entry in walker.flatten() {
                if index.files >= MAX_INDEXED_FILES {
                    break;
                }
                let path = entry.path();
                let indexed = path
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| INDEXED_EXTENSIONS.contains(&e));
                if !indexed || !entry.file_type().is_some_and(|t| t.is_file()) {
                    continue;
                }
                let path = normalize(path);
                // The same file reached from two roots (`.` and an absolute
                // root) is one file, not an ambiguity.
                let identity = std::path::absolute(&path)
                    .map(|p| normalize(&p))
                    .unwrap_or_else(|_| path.clone());
                if !seen.insert(identity) {
                    continue;
                }
                index.files += 1;
                let parts: Vec<&str> = path
                    .components()
                    .filter_map(|c| match c {
                        Component::Normal(s) => s.to_str(),
                        _ => None,
                    })
                    .collect();
                for k in 1..=parts.len().min(MAX_SUFFIX_COMPONENTS) {
                    let key = parts[parts.len() - k..].join("/");
                    let list = index.by_suffix.entry(key).or_default();
                    // Two are enough to know a suffix is ambiguous.
                    if list.len() < 2 {
                        list.push(path.clone());
                    }
                }
            }
        }
        index
    }

    /// The one file whose path ends in `name`, if exactly one does.
    pub fn lookup(&self, name: &str) -> Option<&PathBuf> {
        let key = normalize(Path::new(name));
        let key = key.to_str()?.trim_start_matches("./");
        match self.by_suffix.get(key).map(Vec::as_slice) {
            Some([one]) => Some(one),
            _ => None,
        }
    }
}

/// The enclosing git repository's root of `dir`, if any (a `.git` file or
/// directory above it; at most 64 levels are looked at).
pub fn git_root(dir: &Path) -> Option<PathBuf> {
    let abs = std::path::absolute(dir).ok()?;
    let mut cur: Option<&Path> = Some(&abs);
    for _ in 0..64 {
        let d = cur?;
        if d.join(".git").exists() {
            return Some(d.to_path_buf());
        }
        cur = d.parent();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_include_directives() {
        let text = "#include \"a.cuh\"\n  #  include <cub/b.cuh> // x\n#include MACRO\n#define X\n#include_next <c.h>\n";
        let d = directives(text);
        let names: Vec<_> = d.iter().map(|d| (d.name.as_str(), d.quoted)).collect();
        assert_eq!(
            names,
            vec![("a.cuh", true), ("cub/b.cuh", false), ("c.h", false)]
        );
    }

    #[test]
    fn normalizes_lexically() {
        assert_eq!(normalize(Path::new("a/./b/../c.h")), PathBuf::from("a/c.h"));
        assert_eq!(normalize(Path::new("../x/../y.h")), PathBuf::from("../y.h"));
        assert_eq!(normalize(Path::new("/a/../../b")), PathBuf::from("/b"));
    }

    #[test]
    fn suffix_index_answers_only_unambiguous_names() {
        let dir = tempfile::tempdir().unwrap();
        for p in ["lib/one/util.cuh", "lib/two/util.cuh", "lib/one/only.cuh"] {
            let f = dir.path().join(p);
            std::fs::create_dir_all(f.parent().unwrap()).unwrap();
            std::fs::write(&f, "").unwrap();
        }
        let index = SuffixIndex::build(&[dir.path().to_path_buf()]);
        assert_eq!(index.files, 3);
        assert!(index.lookup("util.cuh").is_none());
        assert!(index.lookup("one/util.cuh").is_some());
        assert!(index.lookup("only.cuh").is_some());
        assert!(index.lookup("./one/only.cuh").is_some());
        assert!(index.lookup("missing.cuh").is_none());
    }
}
