//! The testdata harness: every `.cu`/`.cuh` file under `testdata/` states the
//! diagnostics it must produce with inline comments, and this test fails on
//! any missing or unexpected one (line and code must both match).
//!
//! - `// expect: WL001` on the line of the finding (several: `WL001, WL002`);
//! - `// expect-next-line: WL001` on the line before it.
//!
//! A file with no expectation must produce no diagnostic at all.
//!
//! `// strict: WL002, WL007` anywhere in a file: at `--min-confidence all`
//! too, its findings of those codes are exactly the expected ones, so a
//! look-alike is shown clean by the analysis, not merely hidden because the
//! runs contested it.
//!
//! `testdata/pending/` is skipped: it holds known false positives that are
//! not fixed yet (see its README).
//!
//! Multi-file fixtures (translation units): a directory holding a `.multi`
//! marker or a `warplint.toml` is linted as one tree, as the CLI would
//! (`check_paths_with`, config discovery on), and the expectations of every
//! `.cu`/`.cuh`/`.h` file in it are checked where diagnostics land; a
//! finding inside a header is expected at the header's line.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use warplint::config::{ConfigSource, Overrides, Resolver};
use warplint::diagnostic::MinConfidence;
use warplint::engine::{Options, check_paths_with, check_source};

/// Is `dir` a multi-file fixture, linted as a tree?
fn is_tree(dir: &Path) -> bool {
    dir.join(".multi").is_file() || dir.join("warplint.toml").is_file()
}

/// Single-file cases (`.cu`/`.cuh` outside trees) and the tree fixtures.
fn testdata_layout() -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut files = Vec::new();
    let mut trees = Vec::new();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let pending = root.join("pending");
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path == pending {
                    continue;
                }
                if is_tree(&path) {
                    trees.push(path);
                } else {
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
    trees.sort();
    (files, trees)
}

fn testdata_files() -> Vec<PathBuf> {
    testdata_layout().0
}

/// The source files of a tree fixture that may hold expectations.
fn tree_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("cu" | "cuh" | "h")
            ) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Lint a tree fixture and compare (path, line, code) with its comments.
fn check_tree(root: &Path, threads: usize) -> Result<(), String> {
    let base = Options {
        threads: Some(threads),
        ..Options::default()
    };
    let resolver = std::sync::Arc::new(
        Resolver::new(ConfigSource::Discover, Overrides::default(), base).unwrap(),
    );
    let run = check_paths_with(&[root.to_path_buf()], &resolver).map_err(|e| format!("{e:?}"))?;
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rel = |p: &Path| p.strip_prefix(manifest).unwrap_or(p).display().to_string();
    let mut expected: BTreeMap<(String, usize, String), usize> = BTreeMap::new();
    for f in tree_files(root) {
        let text = std::fs::read_to_string(&f).unwrap();
        for ((line, code), n) in expectations(&text) {
            *expected.entry((rel(&f), line, code)).or_default() += n;
        }
    }
    let mut actual: BTreeMap<(String, usize, String), usize> = BTreeMap::new();
    for d in run.diagnostics() {
        let key = (rel(Path::new(&d.path)), d.span.line, d.code.to_owned());
        *actual.entry(key).or_default() += 1;
    }
    if expected == actual {
        return Ok(());
    }
    let mut problems = Vec::new();
    for (k, &n) in &expected {
        let got = actual.get(k).copied().unwrap_or(0);
        if got < n {
            problems.push(format!("{}:{}: missing {} x{}", k.0, k.1, k.2, n - got));
        }
    }
    for (k, &n) in &actual {
        let want = expected.get(k).copied().unwrap_or(0);
        if n > want {
            let msgs: Vec<_> = run
                .diagnostics()
                .filter(|d| d.span.line == k.1 && d.code == k.2 && rel(Path::new(&d.path)) == k.0)
                .map(|d| d.message.as_str())
                .collect();
            problems.push(format!(
                "{}:{}: unexpected {} x{}: {}",
                k.0,
                k.1,
                k.2,
                n - want,
                msgs.join(" | ")
            ));
        }
    }
    Err(problems.join("\n"))
}

#[test]
fn multi_file_trees_hold_expectations() {
    let (_, trees) = testdata_layout();
    assert!(trees.len() >= 3, "testdata/ holds too few tree fixtures");
    let failures: Vec<String> = trees
        .iter()
        .filter_map(|t| check_tree(t, 2).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} tree fixtures failed:\n{}",
        failures.len(),
        trees.len(),
        failures.join("\n")
    );
}

#[test]
fn a_header_finding_takes_the_strongest_verdict_of_its_units() {
    // comm/queue.cuh alone runs `SkewedQueue::run` without a caller
    // (undecided); the unit of kernels/queue_kernels.cu runs it from its
    // kernel and confirms it. The header's own finding gives way.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/tu/header_class_state");
    let base = Options {
        show_refuted: true,
        min_confidence: MinConfidence::All,
        ..Options::default()
    };
    let resolver = std::sync::Arc::new(
        Resolver::new(ConfigSource::Discover, Overrides::default(), base).unwrap(),
    );
    let r = check_paths_with(std::slice::from_ref(&root), &resolver).unwrap();
    let at: Vec<(usize, warplint::diagnostic::Status)> = r
        .diagnostics()
        .filter(|d| d.path.ends_with("queue.cuh") && d.code == "WL002")
        .map(|d| (d.span.line, d.confirmation.status))
        .collect();
    assert!(
        at.contains(&(57, warplint::diagnostic::Status::Confirmed)),
        "{at:?}"
    );
    assert_eq!(at.iter().filter(|(l, _)| *l == 57).count(), 1, "{at:?}");
}

#[test]
fn tree_output_does_not_depend_on_threads() {
    let (_, trees) = testdata_layout();
    for t in &trees {
        let run = |threads: usize| {
            let base = Options {
                threads: Some(threads),
                ..Options::default()
            };
            let resolver = std::sync::Arc::new(
                Resolver::new(ConfigSource::Discover, Overrides::default(), base).unwrap(),
            );
            let r = check_paths_with(std::slice::from_ref(t), &resolver).unwrap();
            r.diagnostics()
                .map(|d| format!("{} {} {:?} {}", d.path, d.code, d.span, d.message))
                .chain(
                    r.diagnostics()
                        .flat_map(|d| d.labels.iter().map(|l| l.message.clone())),
                )
                .collect::<Vec<_>>()
        };
        assert_eq!(run(1), run(8), "{}", t.display());
    }
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
    let strict = strict_codes(&text);
    if !strict.is_empty() {
        let all = Options {
            min_confidence: MinConfidence::All,
            ..Options::default()
        };
        let outcome = check_source(&rel, &bytes, &all);
        let mut actual: BTreeMap<(usize, String), usize> = BTreeMap::new();
        for d in outcome
            .diagnostics
            .iter()
            .filter(|d| strict.contains(&d.code.to_owned()))
        {
            *actual.entry((d.span.line, d.code.to_owned())).or_default() += 1;
        }
        for (key, &n) in &actual {
            if n > expected.get(key).copied().unwrap_or(0) {
                problems.push(format!(
                    "{rel}:{}: unexpected {} at --min-confidence all (the file is strict)",
                    key.0, key.1
                ));
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// The codes of a `// strict:` line.
fn strict_codes(text: &str) -> Vec<String> {
    let marker = "// strict:";
    text.lines()
        .filter_map(|l| l.find(marker).map(|p| &l[p + marker.len()..]))
        .flat_map(|rest| rest.split(',').map(|c| c.trim().to_owned()))
        .filter(|c| !c.is_empty())
        .collect()
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
fn harness_reads_strict_codes() {
    assert_eq!(
        strict_codes("x\n// strict: WL002, WL007\n"),
        ["WL002", "WL007"]
    );
    assert!(strict_codes("// expect: WL002\n").is_empty());
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

/// A buffer checked in a `Workspace` is a file of its tree: its includes
/// resolve there (`<lanekit/exchange.cuh>` by the tree's own paths), and
/// an edit of the buffer, not the file on disk, decides the findings.
#[test]
fn a_workspace_checks_a_buffer_as_a_file_of_its_tree() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/tu/wrapper_default_mask");
    let path = dir.join("kernels/scale.cu");
    let text = std::fs::read_to_string(&path).unwrap();
    let workspace =
        warplint::engine::Workspace::open(std::slice::from_ref(&dir), &Options::default());
    let at_line_8 = |text: &str| {
        workspace
            .check_unverified(&path.display().to_string(), text.as_bytes())
            .diagnostics
            .iter()
            .any(|d| d.code == "WL002" && d.span.line == 8)
    };
    assert!(
        at_line_8(&text),
        "the wrapper's default full mask under `i < n`"
    );
    let converged = text.replacen("if (i < n) {", "if (true) {  ", 1);
    assert_ne!(converged, text);
    assert!(!at_line_8(&converged), "every lane calls the wrapper");
}
