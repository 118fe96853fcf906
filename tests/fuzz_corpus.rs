//! Replays the fuzzers' seed corpus (`tests/fuzz_corpus/`, including every
//! input that once crashed a fuzzer, under `regressions/`, plus the kernels
//! of `testdata/`, which seed the fuzzers too) through exactly what the fuzz
//! targets run, so CI checks it without a fuzzer.

use std::path::{Path, PathBuf};

fn corpus_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = files_under(root.join("tests/fuzz_corpus"));
    files.extend(files_under(root.join("testdata")));
    files
}

fn files_under(root: PathBuf) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_seed_runs_through_parse_rules_and_every_report_format() {
    let files = corpus_files();
    assert!(files.len() >= 10, "the seed corpus is missing: {files:?}");
    for path in &files {
        let data = std::fs::read(path).unwrap();
        let run = std::panic::catch_unwind(|| {
            warplint::fuzzing::check_and_render(&data);
            warplint::fuzzing::prefilter_is_sound(&data);
        });
        assert!(run.is_ok(), "{} fails the fuzz invariants", path.display());
    }
}

/// `WARPLINT_FUZZ_CORPUS=fuzz/corpus/pipeline cargo test --test fuzz_corpus`
/// replays a fuzzer's whole working corpus in this (debug) build, where
/// integer overflow panics: the fuzz builds (`cargo fuzz build -O`) do not
/// check it.
#[test]
fn replay_a_local_fuzz_corpus_when_asked() {
    let Some(dir) = std::env::var_os("WARPLINT_FUZZ_CORPUS") else {
        return;
    };
    let files = files_under(PathBuf::from(dir));
    for path in &files {
        let data = std::fs::read(path).unwrap();
        let run = std::panic::catch_unwind(|| {
            warplint::fuzzing::check_and_render(&data);
            warplint::fuzzing::prefilter_is_sound(&data);
        });
        assert!(run.is_ok(), "{} fails the fuzz invariants", path.display());
    }
    eprintln!("replayed {} inputs", files.len());
}

#[test]
fn the_seeds_exercise_findings_not_just_clean_files() {
    // A corpus of inputs that all skip the pipeline would test nothing.
    let opts = warplint::engine::Options::default();
    let with_findings = corpus_files()
        .iter()
        .filter(|p| {
            let data = std::fs::read(p).unwrap();
            !warplint::engine::check_source("seed.cu", &data, &opts)
                .diagnostics
                .is_empty()
        })
        .count();
    assert!(
        with_findings >= 5,
        "only {with_findings} seeds have findings"
    );
}
