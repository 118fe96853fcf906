//! Microsoft's SARIF validator (npm `@microsoft/sarif-multitool`) accepts
//! warplint's SARIF: a real run over every rule's testdata (confirmed
//! findings with witnesses, secondary labels, fixes) plus suppression
//! bookkeeping, and a synthetic run with every optional part filled in.
//!
//! The validator always exits 0 ("the tool ran"); its verdict is the SARIF
//! log it writes with `-o`, which this test reads. It also reports nothing at
//! all for a log it cannot deserialize (e.g. an unknown enum value), so the
//! logs are checked as well against the SARIF 2.1.0 JSON schema that ships
//! in the same package, and a deliberately broken log must be rejected.
//!
//! Setup installs the package into `target/tmp/sarif-multitool` with npm.
//! If npm is missing or the install fails, the test is skipped and says so
//! on the terminal (not captured); with `WARPLINT_REQUIRE_EXTERNAL_TOOLS=1`
//! (set by `.ci/run`) it fails instead.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use warplint::diagnostic::{
    Confirmation, Diagnostic, Label, Launch, Severity, Status, Witness, WitnessEvent,
};
use warplint::engine::{FileOutcome, RunResult};
use warplint::source::SourceFile;

const PACKAGE: &str = "@microsoft/sarif-multitool@5.7.0";

/// Skip loudly, or fail when CI demands the tool.
fn unavailable(reason: &str) {
    if std::env::var("WARPLINT_REQUIRE_EXTERNAL_TOOLS").as_deref() == Ok("1") {
        panic!("SARIF validator required but unavailable: {reason}");
    }
    // Straight to the terminal: libtest captures `eprintln!`, not this.
    let _ = writeln!(
        std::io::stderr(),
        "\n*** SKIPPED sarif_validator: {reason} ***\n"
    );
}

/// The validator's launcher, installed on first use.
fn multitool() -> Result<PathBuf, String> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sarif-multitool");
    let bin = dir.join("node_modules/.bin/sarif-multitool");
    if bin.exists() {
        return Ok(bin);
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let out = Command::new("npm")
        .args([
            "install",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            "--fetch-retries=1",
            "--prefix",
        ])
        .arg(&dir)
        .arg(PACKAGE)
        .output()
        .map_err(|e| format!("cannot run npm ({e}); install Node.js and npm"))?;
    if !out.status.success() || !bin.exists() {
        return Err(format!(
            "`npm install {PACKAGE}` failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(bin)
}

/// The findings the validator wrote about one input file.
#[derive(Debug)]
struct Finding {
    level: String,
    rule: String,
    text: String,
}

fn validate(tool: &Path, files: &[&Path], work: &Path) -> Vec<(String, Finding)> {
    let out = work.join("validation.sarif");
    let _ = std::fs::remove_file(&out);
    // The npm launcher hands its arguments to a shell (`spawnSync` with
    // `shell: true`), so each one is quoted for `sh`.
    let mut args: Vec<String> = [
        "validate",
        "--level",
        "Error;Warning;Note",
        "--rule-kind",
        "Sarif;Gh",
        "-o",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.push(out.display().to_string());
    args.extend(files.iter().map(|f| f.display().to_string()));
    let o = Command::new(tool)
        .args(
            args.iter()
                .map(|a| format!("'{}'", a.replace('\'', "'\\''"))),
        )
        // No ICU needed, no telemetry.
        .env("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT", "1")
        .env("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
        .output()
        .unwrap();
    let console = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && console.contains(&format!("Done. {} files scanned.", files.len())),
        "the validator did not run: {console}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let mut found = Vec::new();
    for r in log["runs"][0]["results"].as_array().into_iter().flatten() {
        let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap_or("")
            .to_owned();
        let file = uri.rsplit('/').next().unwrap_or("").to_owned();
        let args: Vec<String> = r["message"]["arguments"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|a| a.as_str().unwrap_or("").to_owned())
            .collect();
        found.push((
            file,
            Finding {
                level: r["level"].as_str().unwrap_or("warning").to_owned(),
                rule: r["ruleId"].as_str().unwrap_or("").to_owned(),
                // Either plain text, or a message id with its arguments.
                text: r["message"]["text"]
                    .as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| {
                        format!(
                            "{}: {}",
                            r["message"]["id"].as_str().unwrap_or(""),
                            args.join(" | ")
                        )
                    }),
            },
        ));
    }
    found
}

fn synthetic_run() -> RunResult {
    let text = "__global__ void k(int n) {\n  if (threadIdx.x < 16)\n    x = __shfl_sync(0xffffffff, x, 0);\n}\n";
    let source = Arc::new(SourceFile::new("src/k.cu", text.as_bytes()));
    let call = text.find("__shfl_sync").unwrap();
    let cond = text.find("threadIdx.x < 16").unwrap();
    let d = Diagnostic {
        code: "WL001",
        name: "legacy-warp-primitive",
        severity: Severity::Error,
        path: "src/k.cu".to_owned(),
        span: source.span(call, call + 11),
        message: "full mask in a divergent branch".to_owned(),
        help: Some("compute the mask before the branch".to_owned()),
        labels: vec![Label {
            span: source.span(cond, cond + 16),
            message: "only lanes 0–15 take this branch".to_owned(),
        }],
        confirmation: Confirmation {
            status: Status::Confirmed,
            reason: None,
            evidence: None,
            proof: None,
            witness: Some(Witness {
                summary: "lanes 16–31 never reach the shuffle".to_owned(),
                launch: Launch {
                    block_dim: [32, 1, 1],
                    source: "assumed".to_owned(),
                },
                inputs: [("n".to_owned(), 20)].into_iter().collect(),
                warp: 0,
                schedule: Some("lanes 0–15 first".to_owned()),
                events: vec![WitnessEvent {
                    lanes: 0xffff,
                    line: 3,
                    what: "wait at the shuffle".to_owned(),
                }],
                without_caller: false,
            }),
        },
        fix: None,
        fix_withheld: None,
        fingerprint: "0123456789abcdef0123456789abcdef".to_owned(),
    };
    RunResult {
        files: vec![FileOutcome {
            path: "src/k.cu".to_owned(),
            diagnostics: vec![d],
            source: Some(source),
            ..FileOutcome::default()
        }],
        io_errors: vec![(
            "missing.cu".to_owned(),
            "No such file or directory".to_owned(),
        )],
        ..RunResult::default()
    }
}

#[test]
fn microsofts_validator_accepts_warplints_sarif() {
    let tool = match multitool() {
        Ok(t) => t,
        Err(reason) => return unavailable(&reason),
    };
    let work = tempfile::tempdir().unwrap();
    let project = work.path().join("project");
    // Every rule's testdata (confirmed findings with witnesses, secondary
    // labels, fixes), in a directory whose name needs URI escaping.
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    for entry in std::fs::read_dir(&testdata).unwrap() {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        if !dir.is_dir() || !name.starts_with("wl") {
            continue;
        }
        let dest = project.join(format!("kernels {name}"));
        std::fs::create_dir_all(&dest).unwrap();
        for f in std::fs::read_dir(&dir).unwrap() {
            let p = f.unwrap().path();
            if p.is_file() {
                std::fs::copy(&p, dest.join(p.file_name().unwrap())).unwrap();
            }
        }
    }
    std::fs::write(
        project.join("suppressions.cu"),
        "__device__ int f(int v) {\n    // warplint: ignore[WL001]\n    v += __shfl_sync(0xffffffff, v, 0);\n    // warplint: ignore[WL01] typo\n    return __shfl(v, 1); // warplint: ignore[WL001] legacy build\n}\n",
    )
    .unwrap();
    let real = work.path().join("real.sarif");
    let o = Command::new(env!("CARGO_BIN_EXE_warplint"))
        .current_dir(&project)
        .args(["check", "--format", "sarif", "--output"])
        .arg(&real)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let real_log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&real).unwrap()).unwrap();
    let results = real_log["runs"][0]["results"].as_array().unwrap();
    let codes: std::collections::BTreeSet<&str> = results
        .iter()
        .map(|r| r["ruleId"].as_str().unwrap())
        .collect();
    assert!(
        codes.is_superset(&["WL001", "WL100", "WL101", "WL102"].into()),
        "the run should exercise every kind of result: {codes:?}"
    );
    assert!(results.iter().any(|r| r.get("fixes").is_some()));
    assert!(results.iter().any(|r| r.get("relatedLocations").is_some()));
    assert!(results.iter().any(|r| {
        r["properties"]["confirmation"]["witness"]["events"]
            .as_array()
            .is_some_and(|e| !e.is_empty())
    }));

    let synthetic = work.path().join("synthetic.sarif");
    let log = warplint::report::sarif::to_value(&synthetic_run(), Some(&project));
    std::fs::write(&synthetic, serde_json::to_string_pretty(&log).unwrap()).unwrap();

    // Negative control: the validator must reject a log without a tool name.
    let mut broken_log = real_log.clone();
    broken_log["runs"][0]["tool"]["driver"]
        .as_object_mut()
        .unwrap()
        .remove("name");
    let broken = work.path().join("broken.sarif");
    std::fs::write(&broken, serde_json::to_string_pretty(&broken_log).unwrap()).unwrap();

    let findings = validate(&tool, &[&real, &synthetic, &broken], work.path());
    let of = |file: &str| -> Vec<&Finding> {
        findings
            .iter()
            .filter(|(f, _)| f == file)
            .map(|(_, x)| x)
            .collect()
    };
    assert!(
        of("broken.sarif").iter().any(|f| f.level == "error"),
        "the validator accepted a log with no tool name: {findings:#?}"
    );
    // Without a homepage or repository in Cargo.toml there is no URI to give.
    let no_uri = env!("CARGO_PKG_HOMEPAGE").is_empty() && env!("CARGO_PKG_REPOSITORY").is_empty();
    for file in ["real.sarif", "synthetic.sarif"] {
        let problems: Vec<&Finding> = of(file)
            .into_iter()
            .filter(|f| f.level == "error" || f.level == "warning")
            // The message id is `Warning_ProvideToolnformationUri` (sic).
            .filter(|f| !(no_uri && f.rule == "SARIF2005" && f.text.contains("nformationUri")))
            .collect();
        assert!(problems.is_empty(), "{file}: {problems:#?}");
    }

    // The validator says nothing about logs it cannot deserialize (such as
    // an unknown `level`), so check the schema from the same package too.
    let schema_path =
        std::fs::read_dir(tool.parent().unwrap().parent().unwrap().join("@microsoft"))
            .unwrap()
            .filter_map(|e| Some(e.ok()?.path().join("sarif-2.1.0.json")))
            .find(|p| p.exists())
            .expect("the package ships sarif-2.1.0.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for (name, log) in [("real", &real_log), ("synthetic", &log)] {
        let errors: Vec<String> = validator
            .iter_errors(log)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
    }
    let mut bad_level = log.clone();
    bad_level["runs"][0]["results"][0]["level"] = "bogus".into();
    assert!(
        !validator.is_valid(&bad_level),
        "the schema check is not vacuous"
    );
}
