//! `--format sarif`, `--format github` and `--output`, from the binary.

use std::path::Path;
use std::process::{Command, Output};

const KERNEL: &str = "\
__device__ int f(int v) {
    // warplint: ignore[WL001]
    v += __shfl(v, 0);
    return __shfl_down(v, 1);
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

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src dir")).unwrap();
    std::fs::write(dir.path().join("src dir/k,1.cu"), KERNEL).unwrap();
    dir
}

#[test]
fn sarif_carries_rules_results_fingerprints_and_fixes() {
    let dir = project();
    let o = warplint(dir.path(), &["--format", "sarif"]);
    assert_eq!(o.status.code(), Some(1));
    let log: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "warplint");
    assert_eq!(driver["semanticVersion"], env!("CARGO_PKG_VERSION"));

    // Every code, with metadata from the registry and the page.
    let rules = driver["rules"].as_array().unwrap();
    let listed = Command::new(env!("CARGO_BIN_EXE_warplint"))
        .args(["rules", "--format", "json"])
        .output()
        .unwrap();
    let listed: Vec<serde_json::Value> = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(rules.len(), listed.len());
    for (r, l) in rules.iter().zip(&listed) {
        assert_eq!(r["id"], l["code"]);
        assert_eq!(r["name"], l["name"]);
        assert_eq!(r["shortDescription"]["text"], l["summary"]);
        assert_eq!(r["defaultConfiguration"]["level"], l["severity"]);
        assert!(
            r["help"]["markdown"]
                .as_str()
                .unwrap()
                .contains("## Why is this a bug")
        );
        assert!(!r["fullDescription"]["text"].as_str().unwrap().is_empty());
    }

    // Results: the WL001 the comment hid is gone; the missing reason and the
    // other call remain, in report order.
    let results = run["results"].as_array().unwrap();
    let ids: Vec<&str> = results
        .iter()
        .map(|r| r["ruleId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["WL101", "WL001"]);
    let wl001 = &results[1];
    assert_eq!(wl001["level"], "error");
    assert_eq!(
        rules[wl001["ruleIndex"].as_u64().unwrap() as usize]["id"],
        "WL001"
    );
    let loc = &wl001["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "src%20dir/k,1.cu");
    assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(loc["region"]["startLine"], 4);
    assert_eq!(loc["region"]["startColumn"], 12);
    assert_eq!(loc["region"]["snippet"]["text"], "__shfl_down(v, 1)");
    let base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap();
    assert!(
        base.starts_with("file:///") && base.ends_with('/'),
        "{base}"
    );
    // The executor's verdict travels with the result.
    let confirmation = &wl001["properties"]["confirmation"];
    assert_eq!(confirmation["status"], "confirmed");
    assert!(
        confirmation["witness"]["summary"]
            .as_str()
            .is_some_and(|s| !s.is_empty())
    );

    // partialFingerprints are the JSON report's (and the baseline's) fingerprints.
    let o = warplint(dir.path(), &["--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        wl001["partialFingerprints"]["warplintFingerprint/v1"],
        json["diagnostics"][1]["fingerprint"]
    );

    // The fix: rename, and insert the mask after the parenthesis.
    let fix = &wl001["fixes"][0];
    assert!(
        fix["description"]["text"]
            .as_str()
            .unwrap()
            .contains("unsafe")
    );
    let reps = fix["artifactChanges"][0]["replacements"]
        .as_array()
        .unwrap();
    assert_eq!(reps[0]["deletedRegion"]["startColumn"], 12);
    assert_eq!(reps[0]["deletedRegion"]["endColumn"], 23);
    assert_eq!(reps[0]["insertedContent"]["text"], "__shfl_down_sync");
    assert_eq!(
        reps[1]["deletedRegion"]["startColumn"],
        reps[1]["deletedRegion"]["endColumn"]
    );
    assert_eq!(reps[1]["insertedContent"]["text"], "0xffffffff, ");
}

#[test]
fn github_annotations_escape_data_and_properties() {
    let dir = project();
    let o = warplint(dir.path(), &["--format", "github"]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with(
            "::warning file=src dir/k%2C1.cu,line=2,col=8,endLine=2,endColumn=31,\
             title=WL101 (suppression-without-reason)::`warplint: ignore[WL001]` does not say why"
        ),
        "{out}"
    );
    assert!(
        lines[1].starts_with(
            "::error file=src dir/k%2C1.cu,line=4,col=12,endLine=4,endColumn=29,\
             title=WL001 (legacy-warp-primitive)::`__shfl_down` is a legacy warp primitive"
        ),
        "{out}"
    );
    // The help goes on a second line of the message, encoded.
    assert!(lines[1].contains("%0Ahelp: use `__shfl_down_sync"), "{out}");
    assert!(!out.contains("Found"), "no summary line in annotations");
}

#[test]
fn output_writes_the_report_to_a_file() {
    let dir = project();
    let o = warplint(
        dir.path(),
        &["--format", "sarif", "--output", "report.sarif"],
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "the exit code still reflects the findings"
    );
    assert!(o.stdout.is_empty());
    let text = std::fs::read_to_string(dir.path().join("report.sarif")).unwrap();
    let log: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), 2);

    // Human output to a file has no color codes even with a terminal around.
    let o = warplint(dir.path(), &["-o", "report.txt"]);
    assert_eq!(o.status.code(), Some(1));
    let text = std::fs::read_to_string(dir.path().join("report.txt")).unwrap();
    assert!(text.contains("Found 2 problems"), "{text}");
    assert!(!text.contains('\u{1b}'));

    // An unwritable destination is an error (exit 2), named on stderr.
    let o = warplint(
        dir.path(),
        &["-o", "no/such/dir/r.json", "--format", "json"],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("cannot write report to no/such/dir/r.json"),
        "{err}"
    );
}
