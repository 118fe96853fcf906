//! `--write-baseline` / `--baseline`: findings are matched by fingerprint,
//! not by line, and fixed ones are reported as stale.

use std::path::Path;
use std::process::{Command, Output};

const KERNEL: &str = "\
__device__ int reduce(int v) {
    v += __shfl_down(v, 16);
    v += __shfl_down(v, 8);
    return v;
}

__device__ int broadcast(int v) {
    return __shfl(v, 0);
}
";

fn warplint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warplint"))
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .arg("check")
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `line: message-start` of each reported finding.
fn concise(dir: &Path, extra: &[&str]) -> (Option<i32>, Vec<String>, String) {
    let mut args = vec![
        "--format",
        "concise",
        "-q",
        "--baseline",
        "warplint-baseline.json",
    ];
    args.extend(extra);
    let o = warplint(dir, &args);
    let lines = stdout(&o).lines().map(str::to_owned).collect();
    (o.status.code(), lines, stderr(&o))
}

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/k.cu"), KERNEL).unwrap();
    let o = warplint(dir.path(), &["--write-baseline", "warplint-baseline.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("wrote 3 baseline entries to warplint-baseline.json"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty(), "writing a baseline prints no report");
    dir
}

#[test]
fn a_baselined_run_is_clean_and_says_what_it_hid() {
    let dir = setup();
    let b: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("warplint-baseline.json")).unwrap())
            .unwrap();
    let entries = b["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 3);
    assert_eq!(entries[0]["path"], "src/k.cu");
    assert_eq!(entries[0]["code"], "WL001");
    let o = warplint(dir.path(), &["--baseline", "warplint-baseline.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("No problems found (1 file checked; 3 hidden by the baseline)."),
        "{}",
        stdout(&o)
    );
}

#[test]
fn edits_above_a_finding_and_reformatting_do_not_revive_it() {
    let dir = setup();
    let edited = format!(
        "// A new header comment.\n#include <cstdio>\n\n__device__ int unrelated(int x) {{ return x * 2; }}\n\n{}",
        KERNEL
            .replace("__shfl_down(v, 16)", "__shfl_down( v,16 )")
            .replace(
                "    return __shfl(v, 0);",
                "    int r = __shfl(v, 0);\n    return r;"
            )
    );
    std::fs::write(dir.path().join("src/k.cu"), edited).unwrap();
    let (code, lines, err) = concise(dir.path(), &[]);
    assert_eq!(code, Some(0), "{lines:?} {err}");
    assert!(lines.is_empty(), "{lines:?}");
    assert!(!err.contains("stale"), "{err}");
}

#[test]
fn only_new_findings_are_reported() {
    let dir = setup();
    let more = KERNEL.replace(
        "    return v;\n}\n\n__device__ int broadcast",
        "    v += __shfl_down(v, 4);\n    return v;\n}\n\n__device__ int broadcast",
    );
    std::fs::write(dir.path().join("src/k.cu"), more).unwrap();
    let (code, lines, _) = concise(dir.path(), &[]);
    assert_eq!(code, Some(1));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("src/k.cu:4:10: WL001 `__shfl_down`"),
        "{lines:?}"
    );

    // The same call moved into another function is a different finding.
    let moved = KERNEL.replace(
        "    return __shfl(v, 0);\n}\n",
        "    return __shfl(v, 0);\n}\n__device__ int other(int v) { return __shfl(v, 0); }\n",
    );
    std::fs::write(dir.path().join("src/k.cu"), moved).unwrap();
    let (code, lines, _) = concise(dir.path(), &[]);
    assert_eq!(code, Some(1));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("src/k.cu:10:"), "{lines:?}");
}

#[test]
fn fixed_findings_are_reported_as_stale_on_stderr_and_in_json() {
    let dir = setup();
    let fixed = KERNEL.replace("__shfl(v, 0)", "__shfl_sync(0xffffffff, v, 0)");
    std::fs::write(dir.path().join("src/k.cu"), fixed).unwrap();
    let (code, lines, err) = concise(dir.path(), &[]);
    assert_eq!(code, Some(0));
    assert!(lines.is_empty());
    assert!(
        err.contains("stale entry src/k.cu WL001 (line 8 when recorded) matches no finding"),
        "{err}"
    );
    assert!(
        err.contains("1 baseline entry in warplint-baseline.json no longer match"),
        "{err}"
    );

    let o = warplint(
        dir.path(),
        &["--format", "json", "--baseline", "warplint-baseline.json"],
    );
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let b = &report["stats"]["baseline"];
    assert_eq!(b["matched"], 2);
    assert_eq!(b["stale"].as_array().unwrap().len(), 1);
    assert_eq!(b["stale"][0]["line"], 8);
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/report.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&report)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");

    // Entries for files this run did not check are not stale.
    std::fs::write(dir.path().join("other.cu"), "int x;\n").unwrap();
    let (_, _, err) = concise(dir.path(), &["other.cu"]);
    assert!(!err.contains("stale"), "{err}");
}

#[test]
fn duplicates_are_matched_one_for_one() {
    let dir = tempfile::tempdir().unwrap();
    let twice = "__device__ int f(int v) {\n    v += __shfl(v, 0);\n    v += __shfl(v, 0);\n    return v;\n}\n";
    std::fs::write(dir.path().join("k.cu"), twice).unwrap();
    let o = warplint(dir.path(), &["--write-baseline", "warplint-baseline.json"]);
    assert_eq!(o.status.code(), Some(0));
    let thrice = twice.replace("    return v;", "    v += __shfl(v, 0);\n    return v;");
    std::fs::write(dir.path().join("k.cu"), &thrice).unwrap();
    let (code, lines, _) = concise(dir.path(), &[]);
    assert_eq!((code, lines.len()), (Some(1), 1), "{lines:?}");
    let once = "__device__ int f(int v) {\n    v += __shfl(v, 0);\n    return v;\n}\n";
    std::fs::write(dir.path().join("k.cu"), once).unwrap();
    let (code, lines, err) = concise(dir.path(), &[]);
    assert_eq!((code, lines.len()), (Some(0), 0));
    assert!(err.contains("1 baseline entry"), "{err}");
}

#[test]
fn a_baseline_works_from_another_directory() {
    let dir = setup();
    let o = warplint(
        &dir.path().join("src"),
        &[
            "--format",
            "concise",
            "--baseline",
            "../warplint-baseline.json",
            "k.cu",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn a_bad_baseline_is_an_error() {
    let dir = setup();
    std::fs::write(dir.path().join("bad.json"), "{\"entries\": 3}").unwrap();
    let o = warplint(dir.path(), &["--baseline", "bad.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bad.json: not a warplint baseline"),
        "{}",
        stderr(&o)
    );
    let o = warplint(dir.path(), &["--baseline", "missing.json"]);
    assert_eq!(o.status.code(), Some(2));
    let o = warplint(
        dir.path(),
        &["--baseline", "a.json", "--write-baseline", "b.json"],
    );
    assert_eq!(o.status.code(), Some(2), "the two flags conflict");
}
