//! The testdata harness: every `.cu`/`.cuh` file under `testdata/` states the
//! diagnostics it must produce with inline comments, and this test fails on
//! any missing or unexpected one (line and code must both match).
//!
//! - `// expect: WL001` on the line of the finding (several: `WL001, WL002`);
//! - `// expect-next-line: WL001` on the line before it.
//!
//! A file with no expectation must produce no diagnostic at all.
//!
//! `testdata/pending/` is skipped: it holds known false positives that are
//! not fixed yet (see its README).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use warplint::engine::{Options, check_source};

fn testdata_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let pending = root.join("pending");
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path != pending {
                    stack.push(path);
                }
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("cu" | "cuh")
            ) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// (line, code) → how many diagnostics are expected there.
fn expectations(text: &str) -> BTreeMap<(usize, String), usize> {
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        for (marker, target) in [("// expect-next-line:", i + 2), ("// expect:", i + 1)] {
            if let Some(pos) = line.find(marker) {
                for code in line[pos + marker.len()..].split(',') {
                    let code = code.split_whitespace().next().unwrap_or("");
                    if !code.is_empty() {
                        *out.entry((target, code.to_owned())).or_default() += 1;
                    }
                }
                break;
            }
        }
    }
    out
}

fn check_one(path: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    let expected = expectations(&text);
    let rel = path
        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap()
        .display()
        .to_string();
    let outcome = check_source(&rel, &bytes, &Options::default());
    let mut actual: BTreeMap<(usize, String), usize> = BTreeMap::new();
    for d in &outcome.diagnostics {
        *actual.entry((d.span.line, d.code.to_owned())).or_default() += 1;
    }
    let mut problems = Vec::new();
    for (key, &n) in &expected {
        let got = actual.get(key).copied().unwrap_or(0);
        if got < n {
            problems.push(format!("{rel}:{}: missing {} x{}", key.0, key.1, n - got));
        }
    }
    for (key, &n) in &actual {
        let want = expected.get(key).copied().unwrap_or(0);
        if n > want {
            let msgs: Vec<_> = outcome
                .diagnostics
                .iter()
                .filter(|d| d.span.line == key.0 && d.code == key.1)
                .map(|d| d.message.as_str())
                .collect();
            problems.push(format!(
                "{rel}:{}: unexpected {} x{}: {}",
                key.0,
                key.1,
                n - want,
                msgs.join(" | ")
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

#[test]
fn testdata_expectations_hold() {
    let files = testdata_files();
    assert!(files.len() >= 5, "testdata/ holds too few cases");
    let failures: Vec<String> = files.iter().filter_map(|f| check_one(f).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} testdata files failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// A message is one short sentence (the run that shows it is the
/// witness's): under 160 characters for every finding testdata produces.
#[test]
fn every_message_is_short() {
    let mut long = Vec::new();
    let mut seen = 0;
    for path in testdata_files() {
        let bytes = std::fs::read(&path).unwrap();
        let outcome = check_source(&path.display().to_string(), &bytes, &Options::default());
        for d in &outcome.diagnostics {
            seen += 1;
            if d.message.chars().count() >= 160 || d.message.contains('\n') {
                long.push(format!("{}:{}: {}", d.path, d.span.line, d.message));
            }
        }
    }
    assert!(seen > 20, "testdata produced too few findings ({seen})");
    assert!(
        long.is_empty(),
        "messages of 160 characters or more:\n{}",
        long.join("\n")
    );
}

#[test]
fn harness_reads_expectations() {
    let e = expectations("a // expect: WL001, WL001\n// expect-next-line: WL002\nb\n");
    assert_eq!(e.get(&(1, "WL001".into())), Some(&2));
    assert_eq!(e.get(&(3, "WL002".into())), Some(&1));
}

#[test]
fn harness_catches_a_missing_diagnostic() {
    // A deliberately wrong expectation must fail: the harness can fail.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("wrong.cu");
    std::fs::write(&p, "__global__ void k() { int x = 0; } // expect: WL001\n").unwrap();
    let bytes = std::fs::read(&p).unwrap();
    let out = check_source("wrong.cu", &bytes, &Options::default());
    assert!(out.diagnostics.is_empty());
    assert!(!expectations(&String::from_utf8_lossy(&bytes)).is_empty());
}
