//! The binary as users run it: exit codes, formats, messages.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn warplint() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_warplint"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1");
    c
}

fn run(args: &[&str]) -> Output {
    warplint().args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn legacy_calls_are_reported_with_positions_and_exit_1() {
    let o = run(&[
        "check",
        "--format",
        "concise",
        "testdata/wl001/legacy_reductions.cu",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("testdata/wl001/legacy_reductions.cu:8:14: WL001 `__shfl_down`"),
        "{out}"
    );
    assert!(
        out.contains("legacy_reductions.cu:39:30: WL001 `__all`"),
        "{out}"
    );
}

#[test]
fn clean_code_exits_0() {
    let o = run(&["check", "testdata/wl001/lookalikes_clean.cu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("No problems found"));
}

#[test]
fn missing_path_exits_2_and_other_files_are_still_checked() {
    let o = run(&[
        "check",
        "--format",
        "concise",
        "no/such/file.cu",
        "testdata/wl001/legacy_reductions.cu",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no/such/file.cu"), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("WL001"),
        "the readable file was not checked"
    );
}

#[test]
fn a_panic_in_one_file_is_that_files_error_and_the_others_are_still_checked() {
    let o = warplint()
        .env("WARPLINT_TEST_PANIC_IN", "wl001/lookalikes_clean.cu")
        .args([
            "check",
            "--format",
            "concise",
            "testdata/wl001/lookalikes_clean.cu",
            "testdata/wl001/legacy_reductions.cu",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("testdata/wl001/lookalikes_clean.cu")
            && err.contains("internal error while checking this file")
            && err.contains("injected by WARPLINT_TEST_PANIC_IN"),
        "{err}"
    );
    assert!(
        stdout(&o).contains("legacy_reductions.cu:8:14: WL001"),
        "the other file was not checked: {}",
        stdout(&o)
    );
}

/// A temporary tree holding `files` (path, text), outside any repository.
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let f = dir.path().join(path);
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(f, text).unwrap();
    }
    dir
}

/// `warplint ARGS` run in `dir`.
fn run_in(dir: &tempfile::TempDir, args: &[&str]) -> Output {
    warplint()
        .current_dir(dir.path())
        .args(args)
        .output()
        .unwrap()
}

/// The JSON report's `stats` of `warplint check PATH` run in `dir`.
fn json_stats(dir: &tempfile::TempDir, path: &str) -> serde_json::Value {
    let o = run_in(dir, &["check", "--format", "json", path]);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    report["stats"].clone()
}

/// A kernel that broadcasts under a lane-dependent guard through a helper
/// it includes by `<warpkit/broadcast.cuh>`.
const TAIL_BROADCAST: &str = "#include <warpkit/broadcast.cuh>\n\
__global__ void tail(const float *in, float *out, int n) {\n\
    int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
    float v = in[i];\n\
    if (i < n) { v = wk_broadcast(v); }\n\
    out[i] = v;\n\
}\n";

#[test]
fn a_missing_path_does_not_widen_what_the_others_include() {
    // `proj` does not have the header its kernel includes; a sibling tree
    // that is not named on the command line does. A missing path beside
    // `proj` (whose directory is the parent of both) must not make the
    // run resolve the include into the sibling.
    let dir = tree(&[
        ("proj/k.cu", TAIL_BROADCAST),
        (
            "elsewhere/warpkit/broadcast.cuh",
            "__device__ inline float wk_broadcast(float v) { return __shfl_sync(0xffffffffu, v, 0); }\n",
        ),
    ]);
    let alone = run_in(&dir, &["check", "--format", "concise", "proj"]);
    assert_eq!(alone.status.code(), Some(0), "{}", stdout(&alone));
    let beside_missing = run_in(
        &dir,
        &["check", "--format", "concise", "proj", "missing.cu"],
    );
    assert_eq!(beside_missing.status.code(), Some(2));
    assert!(stderr(&beside_missing).contains("missing.cu"));
    assert!(
        !stdout(&beside_missing).contains("WL002"),
        "{}",
        stdout(&beside_missing)
    );
}

#[test]
fn a_system_header_name_is_not_taken_from_elsewhere_in_the_tree() {
    // `<endian.h>` and `<assert.h>` are the C library's: the only
    // `endian.h` of the tree, deep in another directory, is not it, and
    // the only `assert.h`, beside the includer, is not `<assert.h>`
    // either. A project header found once in the tree is found
    // (`<kernel_config.h>`).
    let dir = tree(&[
        ("third_party/portable/endian.h", "#define LE 1\n"),
        ("include/ops/assert.h", "#define CHECK(x)\n"),
        ("include/kernel_config.h", "#define BLOCK 128\n"),
        (
            "include/ops/k.cu",
            "#include <endian.h>\n#include <assert.h>\n#include <kernel_config.h>\n\
             __global__ void k(float *out) { out[threadIdx.x] = __shfl_sync(0xffffffffu, 1.0f * BLOCK, 0); }\n",
        ),
    ]);
    let stats = json_stats(&dir, ".");
    assert_eq!(
        stats["missing_includes"],
        serde_json::json!({"endian.h": 1, "assert.h": 1}),
        "{stats}"
    );
    assert_eq!(stats["includes_resolved"], 1, "{stats}");
}

#[test]
fn two_trees_checked_together_each_see_their_own_vendored_headers() {
    // app_a and app_b vendor two versions of one header at the same path;
    // checking both in one run finds what checking each alone finds.
    let tree = "testdata/tu/vendored_copies";
    let together = run(&[
        "check",
        "--format",
        "concise",
        &format!("{tree}/app_a"),
        &format!("{tree}/app_b"),
    ]);
    let a = run(&["check", "--format", "concise", &format!("{tree}/app_a")]);
    let b = run(&["check", "--format", "concise", &format!("{tree}/app_b")]);
    assert_eq!(a.status.code(), Some(1), "{}", stdout(&a));
    assert_eq!(b.status.code(), Some(0), "{}", stdout(&b));
    let findings = |o: &Output| -> Vec<String> {
        stdout(o)
            .lines()
            .filter(|l| l.contains(": WL"))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(findings(&together), findings(&a));
    assert_eq!(findings(&together).len(), 1, "{}", stdout(&together));
    assert!(findings(&together)[0].contains("app_a/src/bcast.cu:8:"));
}

#[test]
fn exit_zero_and_quiet() {
    let o = run(&[
        "check",
        "--exit-zero",
        "-q",
        "--format",
        "concise",
        "testdata/wl001",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.lines().all(|l| l.contains(": WL")), "{out}");
}

#[test]
fn select_and_ignore_filter_rules() {
    let o = run(&[
        "check",
        "--ignore",
        "legacy-warp-primitive",
        "testdata/wl001",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let o = run(&["check", "--select", "WL999", "testdata/wl001"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("WL999"));
}

#[test]
fn stdin_is_named_by_stdin_filename() {
    let mut child = warplint()
        .args([
            "check",
            "-",
            "--stdin-filename",
            "kernels/k.cu",
            "--format",
            "concise",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"__device__ int f(int v) {\n  return __shfl(v, 0);\n}\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).starts_with("kernels/k.cu:2:10: WL001"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn directories_respect_gitignore_and_sniff_headers() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let bad = "__device__ int f(int v) { return __shfl(v, 0); }\n";
    std::fs::write(root.join(".gitignore"), "ignored/\n").unwrap();
    std::fs::create_dir_all(root.join("ignored")).unwrap();
    std::fs::create_dir_all(root.join(".hidden")).unwrap();
    std::fs::write(root.join("ignored/a.cu"), bad).unwrap();
    std::fs::write(root.join(".hidden/b.cu"), bad).unwrap();
    std::fs::write(root.join("c.cuh"), bad).unwrap();
    std::fs::write(root.join("d.h"), bad).unwrap(); // CUDA content: checked
    std::fs::write(
        root.join("e.h"),
        "int __shfl(int, int);\nint g() { return __shfl(1, 0); }\n",
    )
    .unwrap(); // shim declared, no CUDA markers: not even looked at
    std::fs::write(root.join("f.txt"), bad).unwrap();
    let o = warplint()
        .current_dir(root)
        .args(["check", "--format", "concise", "-q"])
        .output()
        .unwrap();
    let out = stdout(&o);
    let files: Vec<&str> = out.lines().map(|l| l.split(':').next().unwrap()).collect();
    assert_eq!(files, ["c.cuh", "d.h"], "{out}");
}

#[test]
fn explain_prints_the_page() {
    let o = run(&["explain", "WL001"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.starts_with("WL001 (legacy-warp-primitive)"), "{out}");
    assert!(out.contains("## Why is this a bug"));
    let o = run(&["explain", "nope"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn json_output_validates_against_the_schema() {
    let schema_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/report.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for args in [
        vec!["check", "--format", "json", "testdata"],
        vec![
            "check",
            "--format",
            "json",
            "testdata/wl001/lookalikes_clean.cu",
        ],
        vec!["check", "--format", "json", "missing.cu", "testdata/wl001"],
    ] {
        let o = run(&args);
        let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&report)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{args:?}: {errors:#?}");
    }
    // The validator is not vacuous: a broken report is rejected.
    let broken = serde_json::json!({"version": 1, "tool": {"name": "warplint", "version": "x"},
        "diagnostics": [{"code": "X1"}], "errors": [], "stats": {}});
    assert!(!validator.is_valid(&broken));
}

#[test]
fn json_is_identical_whatever_the_thread_count() {
    let one = run(&["check", "--format", "json", "-j", "1", "testdata"]);
    let many = run(&["check", "--format", "json", "-j", "8", "testdata"]);
    assert_eq!(one.stdout, many.stdout);
}

#[test]
fn readme_rule_table_matches_warplint_rules() {
    let readme =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README.md"))
            .unwrap();
    let o = run(&["rules", "--format", "json"]);
    let rules: Vec<serde_json::Value> = serde_json::from_slice(&o.stdout).unwrap();
    let table: Vec<String> = readme
        .lines()
        .filter(|l| l.starts_with("| WL"))
        .map(|l| l.to_owned())
        .collect();
    assert_eq!(table.len(), rules.len(), "README rule table: {table:#?}");
    for (row, rule) in table.iter().zip(&rules) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(cells[1], rule["code"], "{row}");
        assert_eq!(
            cells[2],
            format!("`{}`", rule["name"].as_str().unwrap()),
            "{row}"
        );
        assert_eq!(cells[3], rule["severity"], "{row}");
        assert_eq!(
            cells[4],
            if rule["fix"] == true { "yes" } else { "no" },
            "{row}"
        );
    }
}

#[test]
fn version_flag() {
    let o = run(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains(env!("CARGO_PKG_VERSION")));
}

/// Standard output whose reader is already gone: the read end of a pipe
/// closed before the child writes, so every write fails with EPIPE. The
/// standard library's pipe is close-on-exec: a child another test spawns
/// meanwhile must not keep the read end open (with `libc::pipe`, one did,
/// under CI's load, and the writes then succeeded).
#[cfg(unix)]
fn closed_pipe() -> Stdio {
    let (read, write) = std::io::pipe().unwrap();
    drop(read);
    Stdio::from(write)
}

/// `warplint … | head` where head has exited: no panic and no message,
/// the exit code of an I/O error, as the report itself does.
#[cfg(unix)]
#[test]
fn a_closed_output_pipe_ends_every_command_quietly() {
    for args in [
        &["rules"][..],
        &["rules", "--format", "json"],
        &["explain", "WL004"],
        &["check", "testdata/wl001", "--show-files"],
        &["check", "testdata/wl001", "--show-settings"],
        &["check", "testdata/wl001", "--statistics"],
        &["check", "testdata/wl001", "--format", "concise"],
    ] {
        let o = warplint()
            .args(args)
            .stdout(closed_pipe())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.trim().is_empty(), "{args:?}: {err}");
    }
}

/// `warplint check -v 2>&1 | head -1`: messages on a standard error whose
/// reader is gone are lost, and the run still ends with its own exit code.
#[cfg(unix)]
#[test]
fn a_closed_error_pipe_loses_messages_not_the_run() {
    let o = warplint()
        .args(["check", "-v", "testdata/wl001", "--format", "concise"])
        .stdout(Stdio::piped())
        .stderr(closed_pipe())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("WL001"), "{}", stdout(&o));
}

/// A compile database named on the command line that cannot be used is an
/// error before any file is checked, not a silent run without its flags.
#[test]
fn an_unusable_compile_database_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let not_an_array = dir.path().join("compile_commands.json");
    std::fs::write(&not_an_array, "{\"file\": \"a.cu\"}").unwrap();
    let missing = dir.path().join("build/compile_commands.json");
    for (db, why) in [
        (&not_an_array, "not a JSON array of compile commands"),
        (&missing, "No such file"),
    ] {
        let o = run(&[
            "check",
            "--compile-commands",
            db.to_str().unwrap(),
            "testdata/wl001/legacy_reductions.cu",
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains("--compile-commands") && err.contains(why),
            "{err}"
        );
        assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    }
}

#[test]
fn a_header_finding_is_reported_once_however_the_checked_path_is_spelt() {
    // The unit names the header by the path its include resolved to; the
    // header's own check by the path as discovered. Both are one file.
    let abs = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/tu/include_dirs");
    let abs = abs.to_string_lossy().into_owned();
    for root in [
        abs.as_str(),
        "testdata/tu/../tu/include_dirs",
        "testdata/tu/include_dirs",
    ] {
        let o = run(&[
            "check",
            root,
            "--format",
            "json",
            "--min-confidence",
            "all",
            "--exit-zero",
        ]);
        let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let votes = (report["diagnostics"].as_array().unwrap().iter())
            .filter(|d| {
                d["path"].as_str().unwrap().ends_with("vendor/inc/vote.cuh")
                    && d["line"] == 4
                    && d["code"] == "WL006"
            })
            .count();
        assert_eq!(votes, 1, "checked as {root}: {}", stdout(&o));
    }
}

#[test]
fn a_header_finding_names_the_call_whose_run_showed_it() {
    // `lamkit.cuh`'s `sum_below` is called first by `whole_warp`, which
    // passes 32 (no bug), then by `half_warp`, which passes 16: the label
    // names the second.
    let o = run(&[
        "check",
        "testdata/tu/lambda_helpers/kernels.cu",
        "--format",
        "json",
    ]);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let d = (report["diagnostics"].as_array().unwrap().iter())
        .find(|d| d["path"].as_str().unwrap().ends_with("lamkit.cuh"))
        .expect("the header's finding");
    let labels: Vec<&str> = (d["labels"].as_array().unwrap().iter())
        .filter_map(|l| l["message"].as_str())
        .filter(|m| m.starts_with("seen as called from"))
        .collect();
    assert_eq!(labels.len(), 1, "{labels:?}");
    assert!(
        labels[0].contains("`half_warp`") && labels[0].ends_with("kernels.cu:11"),
        "{labels:?}"
    );
}

#[test]
fn a_switch_case_is_named_as_the_case_its_lanes_enter() {
    // `switch (lane % 4) { case 0: __shfl_sync(…) }`: the lanes that reach
    // the shuffle are those where `lane % 4` is 0, not where it "holds".
    let o = run(&[
        "check",
        "testdata/wl002/loops_and_helpers.cu",
        "--format",
        "json",
    ]);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let d = (report["diagnostics"].as_array().unwrap().iter())
        .find(|d| d["line"] == 62)
        .expect("the switch's finding");
    let message = d["message"].as_str().unwrap();
    assert!(
        message.ends_with(
            "only lanes entering `case 0:` of the switch on `lane % 4` (line 60) reach it"
        ),
        "{message}"
    );
}

#[test]
fn a_helper_barrier_is_named_as_the_helper_writes_it() {
    // A block passed to a helper written for any group: the barrier the
    // threads wait at is the helper's `g.sync()`, also through a second
    // helper that hands the group on, and the label points at it.
    let o = run(&[
        "check",
        "testdata/coop/generic_groups.cu",
        "--format",
        "json",
    ]);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for line in [44, 54] {
        let d = (report["diagnostics"].as_array().unwrap().iter())
            .find(|d| d["line"] == line && d["code"] == "WL007")
            .expect("the helper call's finding");
        let message = d["message"].as_str().unwrap();
        assert!(message.contains("waits at `g.sync()`,"), "{message}");
        let labels: Vec<&str> = (d["labels"].as_array().unwrap().iter())
            .filter_map(|l| l["message"].as_str())
            .collect();
        assert!(
            labels.contains(&"`g.sync` inside `scratch_sum<thread_block>`"),
            "{labels:?}"
        );
    }
}
