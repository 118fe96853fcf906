//! The prefilter only saves time: on every file we have (testdata, the fuzz
//! seeds, and the cuda-cccl headers when the benchmark has cached them),
//! checking with it and without it gives the same diagnostics.

use std::path::{Path, PathBuf};

use warplint::engine::{self, Options};

fn files_under(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if exts.is_empty() || p.extension().is_some_and(|x| exts.iter().any(|e| x == *e))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

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
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = files_under(&root.join("testdata"), &[]);
    files.extend(files_under(&root.join("tests/fuzz_corpus"), &[]));
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
             are not cached; run `cargo bench --bench corpus` once to fetch them"
        );
        return;
    }
    let skipped = assert_same_with_and_without_prefilter(&files);
    // The prefilter must also earn its keep on real code.
    assert!(
        skipped * 2 > files.len(),
        "only {skipped} of {} skipped",
        files.len()
    );
}
