//! Finding the file an `#include` names: next to the including file
//! (quoted form), through include directories, or — with no compile
//! database and no configured directories — by path suffix among the
//! files of the checked tree and its enclosing git repository.

use rustc_hash::FxHashMap as HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

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

/// Candidates kept per suffix: past this many copies of one name, the
/// name is ambiguous whatever the includer.
const MAX_CANDIDATES: usize = 32;

/// One indexed file: its path as walked, and its absolute form (to measure
/// how close it is to an includer, whatever form the includer's path has).
#[derive(Debug)]
struct Indexed {
    path: PathBuf,
    absolute: PathBuf,
}

/// The files ending in one suffix.
#[derive(Debug, Default)]
struct Candidates {
    files: Vec<Arc<Indexed>>,
    /// More than [`MAX_CANDIDATES`] files end in it.
    overflowed: bool,
}

/// Path suffix → the files ending in it (`cub/util.cuh` → `…/cub/util.cuh`).
#[derive(Debug, Default)]
pub struct SuffixIndex {
    by_suffix: HashMap<String, Candidates>,
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
                let absolute = absolute(&path);
                if !seen.insert(absolute.clone()) {
                    continue;
                }
                index.files += 1;
                let parts: Vec<String> = path
                    .components()
                    .filter_map(|c| match c {
                        Component::Normal(s) => s.to_str().map(str::to_owned),
                        _ => None,
                    })
                    .collect();
                let file = Arc::new(Indexed { path, absolute });
                for k in 1..=parts.len().min(MAX_SUFFIX_COMPONENTS) {
                    let key = parts[parts.len() - k..].join("/");
                    let list = index.by_suffix.entry(key).or_default();
                    if list.files.len() < MAX_CANDIDATES {
                        list.files.push(Arc::clone(&file));
                    } else {
                        list.overflowed = true;
                    }
                }
            }
        }
        index
    }

    /// The file whose path ends in `name`, as included from a file in
    /// `from`: the only such file, or else the one that shares the longest
    /// leading directories with `from` (a project that vendors two copies
    /// of a library includes, from each copy's files, that copy's headers).
    /// `None` when no file, or two equally close ones, end in `name`.
    pub fn lookup(&self, name: &str, from: &Path) -> Option<&PathBuf> {
        let key = normalize(Path::new(name));
        let key = key.to_str()?.trim_start_matches("./");
        let candidates = self.by_suffix.get(key)?;
        if candidates.overflowed {
            return None;
        }
        if let [one] = candidates.files.as_slice() {
            return Some(&one.path);
        }
        // A bare file name (`<mma.h>`) matches any file of that name; of
        // several, the nearest is a guess a compiler would not make (the
        // toolkit's header is meant, not `cutlass/arch/mma.h`).
        if !key.contains('/') {
            return None;
        }
        let from = absolute(from);
        let mut best: Option<(usize, &Indexed)> = None;
        let mut tied = false;
        for file in &candidates.files {
            let shared = shared_components(&from, &file.absolute);
            match best {
                Some((n, _)) if shared < n => {}
                Some((n, _)) if shared == n => tied = true,
                _ => {
                    best = Some((shared, file));
                    tied = false;
                }
            }
        }
        best.filter(|_| !tied).map(|(_, f)| &f.path)
    }
}

/// `path` made absolute against the working directory, lexically.
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path)
        .map(|p| normalize(&p))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// How many leading components `a` and `b` have in common.
fn shared_components(a: &Path, b: &Path) -> usize {
    a.components()
        .zip(b.components())
        .take_while(|(x, y)| x == y)
        .count()
}

/// Headers of the C and C++ libraries, POSIX and the CUDA toolkit that
/// code includes by a bare name: `<assert.h>` is the system's even where
/// the tree holds a file of that name (libcu++'s `__cccl/assert.h`,
/// CUTLASS's `arch/mma.h`).
#[rustfmt::skip]
const SYSTEM_HEADERS: &[&str] = &[
    // C
    "assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h",
    "iso646.h", "limits.h", "locale.h", "math.h", "setjmp.h", "signal.h", "stdalign.h",
    "stdarg.h", "stdatomic.h", "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h",
    "string.h", "tgmath.h", "threads.h", "time.h", "uchar.h", "wchar.h", "wctype.h",
    // POSIX and platform
    "endian.h", "unistd.h", "pthread.h", "dlfcn.h", "fcntl.h", "sched.h", "semaphore.h",
    "malloc.h", "alloca.h", "strings.h", "windows.h", "intrin.h", "process.h",
    // C++
    "algorithm", "any", "array", "atomic", "bit", "bitset", "cassert", "cctype", "cerrno",
    "cfloat", "charconv", "chrono", "cinttypes", "climits", "cmath", "compare", "complex",
    "concepts", "condition_variable", "cstdarg", "cstddef", "cstdint", "cstdio", "cstdlib",
    "cstring", "ctime", "deque", "exception", "execution", "expected", "filesystem", "format",
    "forward_list", "fstream", "functional", "future", "initializer_list", "iomanip", "ios",
    "iosfwd", "iostream", "istream", "iterator", "limits", "list", "locale", "map", "memory",
    "mutex", "new", "numbers", "numeric", "optional", "ostream", "queue", "random", "ranges",
    "ratio", "regex", "set", "shared_mutex", "source_location", "span", "sstream", "stack",
    "stdexcept", "string", "string_view", "system_error", "thread", "tuple", "type_traits",
    "typeindex", "typeinfo", "unordered_map", "unordered_set", "utility", "valarray", "variant",
    "vector", "version",
    // CUDA toolkit
    "cuda.h", "cuda_runtime.h", "cuda_runtime_api.h", "cuda_fp16.h", "cuda_bf16.h",
    "cuda_fp8.h", "cuda_fp6.h", "cuda_fp4.h", "cuda_pipeline.h", "cuda_awbarrier.h",
    "cuda_device_runtime_api.h", "cuda_profiler_api.h", "cuda_texture_types.h",
    "cudaTypedefs.h", "mma.h", "vector_types.h", "vector_functions.h", "device_functions.h",
    "device_launch_parameters.h", "driver_types.h", "builtin_types.h", "host_defines.h",
    "math_constants.h", "math_functions.h", "sm_20_intrinsics.h", "sm_30_intrinsics.h",
    "sm_32_intrinsics.h", "sm_35_intrinsics.h", "sm_60_atomic_functions.h",
    "sm_61_intrinsics.h", "cooperative_groups.h", "cuda_occupancy.h", "nvrtc.h", "cublas_v2.h",
    "cublas.h", "cublasLt.h", "curand.h", "curand_kernel.h", "cufft.h", "cusparse.h",
    "cusolverDn.h", "nvml.h", "nvtx3.hpp", "nvToolsExt.h",
];

/// Is `<name>` a system header (see [`SYSTEM_HEADERS`])?
pub fn is_system_header(name: &str) -> bool {
    SYSTEM_HEADERS.contains(&name)
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
    fn suffix_index_answers_the_closest_copy() {
        let dir = tempfile::tempdir().unwrap();
        for p in [
            "lib/one/util.cuh",
            "lib/two/util.cuh",
            "lib/one/only.cuh",
            "app/a/vendor/cub/warp.cuh",
            "app/b/vendor/cub/warp.cuh",
        ] {
            let f = dir.path().join(p);
            std::fs::create_dir_all(f.parent().unwrap()).unwrap();
            std::fs::write(&f, "").unwrap();
        }
        let root = dir.path();
        let index = SuffixIndex::build(&[root.to_path_buf()]);
        assert_eq!(index.files, 5);
        // Equally far from both copies: ambiguous.
        assert!(index.lookup("util.cuh", root).is_none());
        assert!(index.lookup("util.cuh", &root.join("app")).is_none());
        // From inside one copy's tree, that copy (a bare name, above, is
        // never chosen by nearness).
        assert!(index.lookup("util.cuh", &root.join("lib/two")).is_none());
        let a = index
            .lookup("cub/warp.cuh", &root.join("app/a/src"))
            .unwrap();
        assert!(a.ends_with("app/a/vendor/cub/warp.cuh"));
        let b = index.lookup("cub/warp.cuh", &root.join("app/b")).unwrap();
        assert!(b.ends_with("app/b/vendor/cub/warp.cuh"));
        // A bare name of several files is ambiguous even from beside one.
        assert!(
            index
                .lookup("warp.cuh", &root.join("app/a/vendor/cub"))
                .is_none()
        );
        // One file ending in the name is the answer from anywhere.
        assert!(index.lookup("one/util.cuh", &root.join("app/b")).is_some());
        assert!(index.lookup("only.cuh", root).is_some());
        assert!(index.lookup("./one/only.cuh", root).is_some());
        assert!(index.lookup("missing.cuh", root).is_none());
    }
}
