//! `testdata/hardware/results.toml` records what a real GPU and
//! compute-sanitizer did with each kernel in `testdata/hardware/`. This test
//! checks that the record is consistent with the kernels it describes: every
//! kernel is listed once, each case's `rule`/`line` agrees with the file's
//! `// expect:` marker, the outcomes use the documented vocabulary, and no
//! correct look-alike showed a symptom.
//!
//! It does not run warplint. The test that "wherever the hardware showed a
//! symptom, the executor confirms a finding at that file and line" builds on
//! [`Case::shows_symptom`] here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Results {
    meta: Meta,
    case: Vec<Case>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Meta {
    date: String,
    device: String,
    driver: String,
    compute_cap: String,
    nvcc: String,
    compute_sanitizer: String,
    flags: String,
    timeouts: String,
    native_runs: String,
    sanitizer_flags: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    file: String,
    rule: String,
    line: usize,
    compile: String,
    native: String,
    native_detail: String,
    synccheck: String,
    racecheck: String,
    memcheck: String,
    /// racecheck at `--racecheck-detect-level info`: informational only.
    racecheck_info: String,
    /// Lines of this file that synccheck, racecheck or memcheck blamed.
    sanitizer_lines: Vec<usize>,
}

impl Case {
    /// The hardware showed a symptom: the build failed, the native run was
    /// wrong, hung or crashed, or a sanitizer (synccheck, racecheck,
    /// memcheck) was not clean.
    fn shows_symptom(&self) -> bool {
        self.compile != "ok"
            || matches!(self.native.as_str(), "wrong" | "hang" | "crash")
            || [&self.synccheck, &self.racecheck, &self.memcheck]
                .iter()
                .any(|s| s.as_str() != "clean" && s.as_str() != "not-run")
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// (line, code) of every `// expect:` / `// expect-next-line:` marker, read
/// the way tests/testdata.rs reads them.
fn markers(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for (marker, target) in [("// expect-next-line:", i + 2), ("// expect:", i + 1)] {
            if let Some(pos) = line.find(marker) {
                for code in line[pos + marker.len()..].split(',') {
                    if let Some(code) = code.split_whitespace().next() {
                        out.push((target, code.to_owned()));
                    }
                }
                break;
            }
        }
    }
    out
}

fn is_rule_code(s: &str) -> bool {
    s.len() == 5 && s.starts_with("WL") && s[2..].bytes().all(|b| b.is_ascii_digit())
}

fn check_sanitizer(field: &str, value: &str, problems: &mut Vec<String>, at: &str) {
    let ok = matches!(value, "clean" | "timeout" | "not-run")
        || value.starts_with("error: ")
        || (field.starts_with("racecheck") && value.starts_with("hazard: "));
    if !ok {
        problems.push(format!("{at}: {field} = {value:?} is not a known outcome"));
    }
}

/// Every inconsistency between `results` and the kernels under `repo`, where
/// `cu_files` are the repository-relative paths of all hardware kernels.
fn problems(results: &Results, repo: &Path, cu_files: &BTreeSet<String>) -> Vec<String> {
    let mut problems = Vec::new();
    let m = &results.meta;
    for (name, value) in [
        ("date", &m.date),
        ("device", &m.device),
        ("driver", &m.driver),
        ("compute_cap", &m.compute_cap),
        ("nvcc", &m.nvcc),
        ("compute_sanitizer", &m.compute_sanitizer),
        ("flags", &m.flags),
        ("timeouts", &m.timeouts),
        ("native_runs", &m.native_runs),
        ("sanitizer_flags", &m.sanitizer_flags),
    ] {
        if value.trim().is_empty() {
            problems.push(format!("meta.{name} is empty"));
        }
    }

    let mut listed: BTreeMap<&str, usize> = BTreeMap::new();
    for case in &results.case {
        let at = case.file.as_str();
        *listed.entry(at).or_default() += 1;
        let text = match std::fs::read_to_string(repo.join(&case.file)) {
            Ok(text) => text,
            Err(e) => {
                problems.push(format!("{at}: cannot read: {e}"));
                continue;
            }
        };
        let found = markers(&text);
        if case.rule == "none" {
            if case.line != 0 {
                problems.push(format!("{at}: rule none needs line = 0, not {}", case.line));
            }
            if !found.is_empty() {
                problems.push(format!(
                    "{at}: rule none but the file has markers {found:?}"
                ));
            }
        } else if !is_rule_code(&case.rule) {
            problems.push(format!(
                "{at}: rule {:?} is neither none nor a code",
                case.rule
            ));
        } else {
            if !found.contains(&(case.line, case.rule.clone())) {
                problems.push(format!(
                    "{at}:{}: no `// expect: {}` marker for this line",
                    case.line, case.rule
                ));
            }
            if let Some((line, code)) = found.iter().find(|(_, code)| *code != case.rule) {
                problems.push(format!(
                    "{at}:{line}: marker {code} differs from the case's rule {}",
                    case.rule
                ));
            }
        }

        if case.compile != "ok" && !case.compile.starts_with("error: ") {
            problems.push(format!("{at}: compile = {:?}", case.compile));
        }
        if !matches!(
            case.native.as_str(),
            "ok" | "wrong" | "hang" | "crash" | "not-run"
        ) {
            problems.push(format!("{at}: native = {:?}", case.native));
        }
        if case.native_detail.trim().is_empty() {
            problems.push(format!("{at}: native_detail is empty"));
        }
        for (field, value) in [
            ("synccheck", &case.synccheck),
            ("racecheck", &case.racecheck),
            ("memcheck", &case.memcheck),
            ("racecheck_info", &case.racecheck_info),
        ] {
            check_sanitizer(field, value, &mut problems, at);
            if case.compile != "ok" && value != "not-run" {
                problems.push(format!("{at}: did not compile but {field} = {value:?}"));
            }
        }
        if case.compile != "ok" && case.native != "not-run" {
            problems.push(format!(
                "{at}: did not compile but native = {:?}",
                case.native
            ));
        }

        let lines = text.lines().count();
        for &l in &case.sanitizer_lines {
            if l == 0 || l > lines {
                problems.push(format!("{at}: sanitizer line {l} is outside the file"));
            }
        }
        // Where a sanitizer points into the kernel, it should point at (one of)
        // the marked findings; a miss needs a human look at marker or kernel.
        if !case.sanitizer_lines.is_empty()
            && !case
                .sanitizer_lines
                .iter()
                .any(|l| found.iter().any(|(line, _)| line == l))
        {
            problems.push(format!(
                "{at}: sanitizers blamed lines {:?}, none of them marked",
                case.sanitizer_lines
            ));
        }
        if case.rule == "none" && case.shows_symptom() {
            problems.push(format!(
                "{at}: a correct look-alike showed a symptom on the hardware"
            ));
        }
    }

    for (file, n) in &listed {
        if *n > 1 {
            problems.push(format!("{file}: listed {n} times"));
        }
    }
    for file in cu_files {
        if !listed.contains_key(file.as_str()) {
            problems.push(format!("{file}: not listed in results.toml"));
        }
    }
    problems
}

fn hardware_cu_files() -> BTreeSet<String> {
    let dir = root().join("testdata/hardware");
    std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".cu"))
        .map(|name| format!("testdata/hardware/{name}"))
        .collect()
}

fn load(text: &str) -> Results {
    toml::from_str(text).unwrap_or_else(|e| panic!("results.toml does not parse: {e}"))
}

fn committed() -> Results {
    load(&std::fs::read_to_string(root().join("testdata/hardware/results.toml")).unwrap())
}

#[test]
fn results_file_is_consistent_with_the_kernels() {
    let results = committed();
    let found = problems(&results, &root(), &hardware_cu_files());
    assert!(found.is_empty(), "results.toml:\n{}", found.join("\n"));
}

#[test]
fn results_cover_every_rule_and_both_kinds_of_case() {
    let results = committed();
    let rules: BTreeSet<&str> = results.case.iter().map(|c| c.rule.as_str()).collect();
    for code in [
        "WL001", "WL002", "WL003", "WL004", "WL005", "WL006", "WL007", "WL008", "WL009", "none",
    ] {
        assert!(rules.contains(code), "no hardware case for {code}");
    }
    // Both kinds of buggy case must be present: the ones the hardware
    // exposed, and the latent ones only a static tool can report.
    let buggy = results.case.iter().filter(|c| c.rule != "none");
    let (shown, latent): (Vec<&Case>, Vec<&Case>) = buggy.partition(|c| c.shows_symptom());
    assert!(!shown.is_empty() && !latent.is_empty());
}

// The checker itself must be able to fail.

fn write_case(dir: &Path, name: &str, body: &str) -> String {
    let rel = format!("testdata/hardware/{name}");
    std::fs::create_dir_all(dir.join("testdata/hardware")).unwrap();
    std::fs::write(dir.join(&rel), body).unwrap();
    rel
}

const META: &str = r#"[meta]
date = "2026-11-22"
device = "GPU"
driver = "1"
compute_cap = "9.0"
nvcc = "nvcc"
compute_sanitizer = "cs"
flags = "-arch=sm_90"
timeouts = "t"
native_runs = "n"
sanitizer_flags = "s"
"#;

fn one_case(file: &str, rule: &str, line: usize, native: &str, lines: &str) -> String {
    format!(
        "{META}\n[[case]]\nfile = \"{file}\"\nrule = \"{rule}\"\nline = {line}\ncompile = \"ok\"\n\
         native = \"{native}\"\nnative_detail = \"d\"\nsynccheck = \"clean\"\nracecheck = \"clean\"\n\
         memcheck = \"clean\"\nracecheck_info = \"clean\"\nsanitizer_lines = {lines}\n"
    )
}

#[test]
fn checker_accepts_a_consistent_record() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_case(dir.path(), "a.cu", "x\n__syncwarp(1); // expect: WL006\n");
    let results = load(&one_case(&f, "WL006", 2, "ok", "[2]"));
    let files = BTreeSet::from([f]);
    assert_eq!(problems(&results, dir.path(), &files), Vec::<String>::new());
}

#[test]
fn checker_rejects_inconsistent_records() {
    let dir = tempfile::tempdir().unwrap();
    let buggy = write_case(dir.path(), "b.cu", "x\n__syncwarp(1); // expect: WL006\n");
    let clean = write_case(dir.path(), "c.cu", "__syncwarp();\n");
    let unlisted = "testdata/hardware/unlisted.cu".to_owned();
    let files = BTreeSet::from([buggy.clone(), clean.clone(), unlisted]);
    let cases = [
        // wrong line, wrong rule, a look-alike with a marker or a symptom,
        // a sanitizer pointing elsewhere, an outcome outside the vocabulary
        (
            one_case(&buggy, "WL006", 1, "ok", "[]"),
            "no `// expect: WL006`",
        ),
        (
            one_case(&buggy, "WL002", 2, "ok", "[]"),
            "no `// expect: WL002`",
        ),
        (one_case(&buggy, "none", 0, "ok", "[]"), "rule none but"),
        (
            one_case(&clean, "none", 0, "hang", "[]"),
            "look-alike showed",
        ),
        (
            one_case(&buggy, "WL006", 2, "ok", "[1]"),
            "none of them marked",
        ),
        (
            one_case(&buggy, "WL006", 2, "slow", "[]"),
            "native = \"slow\"",
        ),
        (
            one_case(&buggy, "WL006", 2, "ok", "[9]"),
            "outside the file",
        ),
    ];
    for (text, want) in cases {
        let found = problems(&load(&text), dir.path(), &files);
        assert!(
            found.iter().any(|p| p.contains(want)),
            "expected a problem containing {want:?}, got {found:?}"
        );
        assert!(
            found.iter().any(|p| p.contains("unlisted.cu: not listed")),
            "the unlisted kernel went unnoticed: {found:?}"
        );
    }
    let mut empty_meta = load(&one_case(&buggy, "WL006", 2, "ok", "[]"));
    empty_meta.meta.device.clear();
    let found = problems(&empty_meta, dir.path(), &files);
    assert!(
        found.iter().any(|p| p == "meta.device is empty"),
        "{found:?}"
    );
}

/// The executor against the hardware: wherever the GPU or a sanitizer showed
/// a symptom, warplint confirms a finding of the case's rule on its line;
/// latent bugs (the spec says undefined, the GPU happened to work) are
/// confirmed too, because the executor follows the programming guide; and
/// correct look-alikes get no finding at all.
#[test]
fn executor_confirms_every_hardware_symptom() {
    use warplint::diagnostic::Status;
    use warplint::engine::{Options, check_source};

    let results = committed();
    let mut failures = Vec::new();
    let mut symptoms = 0;
    for case in &results.case {
        let bytes = std::fs::read(root().join(&case.file)).unwrap();
        let out = check_source(&case.file, &bytes, &Options::default());
        let confirmed_here = out.diagnostics.iter().any(|d| {
            d.code == case.rule
                && d.span.line == case.line
                && d.confirmation.status == Status::Confirmed
                && d.confirmation.witness.is_some()
        });
        if case.rule == "none" {
            if !out.diagnostics.is_empty() {
                failures.push(format!(
                    "{}: correct look-alike, but warplint reports {:?}",
                    case.file,
                    out.diagnostics
                        .iter()
                        .map(|d| (d.code, d.span.line))
                        .collect::<Vec<_>>()
                ));
            }
            continue;
        }
        if case.shows_symptom() {
            symptoms += 1;
        }
        if !confirmed_here {
            failures.push(format!(
                "{}:{}: the hardware {} but the executor does not confirm {} there",
                case.file,
                case.line,
                if case.shows_symptom() {
                    "showed a symptom"
                } else {
                    "was latent"
                },
                case.rule
            ));
        }
    }
    assert!(symptoms > 0, "the record has no symptomatic case");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
