//! The prefilter only saves time: on every file we have (testdata, the fuzz
//! seeds, and the cuda-cccl headers when the benchmark has cached them),
//! checking with it and without it gives the same diagnostics.
//! `WARPLINT_PREFILTER_CORPORA=cccl,cupy,cutlass,flashinfer` checks every
//! file of those cached corpora too (release build: minutes).

use std::path::{Path, PathBuf};

use warplint::engine::{self, Options};

mod common;
use common::{corpus_inputs, files_under, own_inputs};

fn assert_same_with_and_without_prefilter(files: &[PathBuf]) -> usize {
    let opts = Options::default();
    let mut skipped = 0;
    for path in files {
        let bytes = std::fs::read(path).unwrap();
        let name = path.display().to_string();
        let filtered = engine::check_source(&name, &bytes, &opts);
        let full = engine::check_source_unfiltered(&name, &bytes, &opts);
        assert_eq!(
            filtered.diagnostics, full.diagnostics,
            "the prefilter changed the result for {name}"
        );
        skipped += usize::from(filtered.skipped_by_prefilter);
    }
    skipped
}

#[test]
fn testdata_and_fuzz_seeds_give_the_same_diagnostics_unfiltered() {
    let files = own_inputs();
    assert!(files.len() > 10);
    assert_same_with_and_without_prefilter(&files);
}

#[test]
fn cccl_headers_give_the_same_diagnostics_unfiltered() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(".bench-cache/cccl");
    let files = files_under(&dir, &["cuh"]);
    if files.is_empty() {
        eprintln!(
            "SKIPPED cccl_headers_give_the_same_diagnostics_unfiltered: the cuda-cccl headers \
             are not cached; run `python3 benches/fetch_corpora.py` once to fetch them"
        );
        return;
    }
    let skipped = assert_same_with_and_without_prefilter(&files);
    // The prefilter must also earn its keep on real code. With translation
    // units a header that defines device code and includes warp code is
    // analysed, so fewer are skipped than by the byte test alone (105 of 240
    // with cuda-cccl 1.2.1).
    assert!(
        skipped * 3 > files.len(),
        "only {skipped} of {} skipped",
        files.len()
    );
}

#[test]
fn selected_corpora_give_the_same_diagnostics_unfiltered() {
    if std::env::var_os("WARPLINT_PREFILTER_CORPORA").is_none() {
        return; // opt-in: the default corpora's cccl headers are checked above
    }
    let files = corpus_inputs("WARPLINT_PREFILTER_CORPORA");
    let skipped = assert_same_with_and_without_prefilter(&files);
    eprintln!(
        "prefilter: {} corpus files, {skipped} skipped, same diagnostics unfiltered",
        files.len()
    );
}

/// Files of a multi-file tree, checked with the tree on disk (each a
/// translation unit with its headers): the prefilter must not skip a file
/// whose warp code is all in the headers it includes.
fn assert_tree_same_with_and_without_prefilter(root: &Path) -> (usize, Vec<String>) {
    let opts = Options::default();
    let (mut findings, mut skipped) = (0, Vec::new());
    for path in files_under(root, &["cu", "cuh", "h"]) {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        let filtered = engine::check_source(&name, &bytes, &opts);
        let full = engine::check_source_unfiltered(&name, &bytes, &opts);
        let headers = |o: &engine::FileOutcome| {
            o.header_diagnostics
                .iter()
                .map(|h| h.diagnostic.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            filtered.diagnostics, full.diagnostics,
            "the prefilter changed the result for {name}"
        );
        assert_eq!(
            headers(&filtered),
            headers(&full),
            "the prefilter changed the header findings seen from {name}"
        );
        findings += filtered.diagnostics.len() + filtered.header_diagnostics.len();
        if filtered.skipped_by_prefilter {
            skipped.push(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    (findings, skipped)
}

#[test]
fn multi_file_trees_give_the_same_diagnostics_unfiltered() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    // A repository: `<wrap/shift.cuh>` resolves by path suffix among its
    // files, as it does for a file checked alone with no include dirs.
    write(".git/HEAD", "ref: refs/heads/main\n");
    // The only warp identifier of the tree is in a header; the kernel that
    // calls its wrapper in divergent code has none of its own.
    write(
        "include/wrap/shift.cuh",
        "#pragma once\n__device__ inline float shift_down(float v, int d, unsigned m = 0xffffffffu) {\n    return __shfl_down_sync(m, v, d);\n}\n",
    );
    write(
        "src/tail.cu",
        "#include <wrap/shift.cuh>\n__global__ void tail(float *x, int n) {\n    int i = threadIdx.x;\n    if (i < n) {\n        x[i] = shift_down(x[i], 1);\n    }\n}\n",
    );
    // A header without any warp identifier, seen from its caller: its
    // wrapper calls the other header's primitive.
    write(
        "include/wrap/pair.cuh",
        "#pragma once\n#include \"shift.cuh\"\n__device__ inline float pair_sum(float v) { return v + shift_down(v, 1); }\n",
    );
    write(
        "src/pairs.cu",
        "#include \"../include/wrap/pair.cuh\"\n__global__ void pairs(float *x, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) x[i] = pair_sum(x[i]);\n}\n",
    );
    // Files with no device code and no warp code at all stay skipped.
    write(
        "src/host.cpp",
        "#include <wrap/shift.cuh>\nint main() { return 0; }\n",
    );
    write(
        "src/unrelated.cu",
        "#include <vector>\nint twice(int a) { return 2 * a; }\n",
    );
    // A header with a warp wrapper beside plain helpers: a file calling
    // only a plain helper cannot reach the wrapper and is skipped; one
    // using its macro, or a member defined out of its class, is not.
    write(
        "include/wrap/util.cuh",
        "#pragma once\n#define SHFL_DOWN(v, d) __shfl_down_sync(0xffffffffu, v, d)\n\
         __device__ inline int clamp_index(int i, int n) { return i < n ? i : n - 1; }\n\
         __device__ inline float warp_total(float v) {\n    for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);\n    return v;\n}\n\
         struct Reducer {\n    __device__ float pair(float v);\n};\n\
         __device__ float Reducer::pair(float v) { return v + __shfl_xor_sync(0xffffffffu, v, 1); }\n",
    );
    write(
        "src/plain.cu",
        "#include <wrap/util.cuh>\n__global__ void plain(float *x, int n) {\n    int i = clamp_index(threadIdx.x, n);\n    if (i < n) x[i] = 2.0f * x[i];\n}\n",
    );
    write(
        "src/by_macro.cu",
        "#include <wrap/util.cuh>\n__global__ void by_macro(float *x, int n) {\n    int i = threadIdx.x;\n    if (i < n) x[i] = SHFL_DOWN(x[i], 1);\n}\n",
    );
    write(
        "src/by_member.cu",
        "#include <wrap/util.cuh>\n__global__ void by_member(float *x, int n) {\n    int i = threadIdx.x;\n    Reducer r;\n    if (i < n) x[i] = r.pair(x[i]);\n}\n",
    );
    let (findings, skipped) = assert_tree_same_with_and_without_prefilter(root);
    assert!(
        findings >= 4,
        "the tree's four divergent calls must be found ({findings} findings)"
    );
    for file in ["unrelated.cu", "plain.cu"] {
        assert!(
            skipped.iter().any(|s| s == file),
            "{file} should be skipped: {skipped:?}"
        );
    }
    for file in ["tail.cu", "pairs.cu", "by_macro.cu", "by_member.cu"] {
        assert!(
            !skipped.iter().any(|s| s == file),
            "{file} must be analysed"
        );
    }
}
