//! The real `pre-commit` (from PyPI) runs this repository's
//! `.pre-commit-hooks.yaml` in a scratch git repository: a commit with a
//! legacy `__shfl_down` is refused, the fixed commit goes through, and files
//! that `identify` does not tag `cuda` are not passed to the hook.
//!
//! Slow (pre-commit builds warplint with `cargo install`), so it is
//! `#[ignore]`d and run by `.ci/run`:
//! `cargo test --test pre_commit -- --ignored`.
//!
//! The hook repository is a snapshot of this checkout (tracked and
//! untracked, not ignored files) committed in a temporary repository, so the
//! test uses the working tree as it is, committed or not. pre-commit is
//! installed into a venv under `target/tmp`; the cargo build of the hook goes
//! to `target/tmp/pre-commit-cargo` so that reruns only rebuild warplint.
//! If pip cannot install pre-commit, or pre-commit cannot build the hook
//! (no network for crates.io), the test is skipped and says so on the
//! terminal; with `WARPLINT_REQUIRE_EXTERNAL_TOOLS=1` it fails instead.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const PRE_COMMIT: &str = "pre-commit>=3.2,<5";

fn unavailable(reason: &str) {
    if std::env::var("WARPLINT_REQUIRE_EXTERNAL_TOOLS").as_deref() == Ok("1") {
        panic!("pre-commit required but unavailable: {reason}");
    }
    // Straight to the terminal: libtest captures `eprintln!`, not this.
    let _ = writeln!(
        std::io::stderr(),
        "\n*** SKIPPED pre_commit: {reason} ***\n"
    );
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn run(cmd: &mut Command) -> Result<Output, String> {
    cmd.output().map_err(|e| format!("cannot run {cmd:?}: {e}"))
}

/// `pre-commit` from a venv under `target/tmp`, installed on first use.
fn pre_commit() -> Result<PathBuf, String> {
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pre-commit-venv");
    let bin = venv.join("bin/pre-commit");
    if bin.exists() {
        return Ok(bin);
    }
    let o = run(Command::new("python3").arg("-m").arg("venv").arg(&venv))?;
    if !o.status.success() {
        return Err(format!("python3 -m venv failed: {}", text(&o).trim()));
    }
    let o = run(Command::new(venv.join("bin/pip")).args([
        "install",
        "--quiet",
        "--disable-pip-version-check",
        PRE_COMMIT,
    ]))?;
    if !o.status.success() || !bin.exists() {
        return Err(format!(
            "pip install {PRE_COMMIT} failed: {}",
            text(&o).trim()
        ));
    }
    Ok(bin)
}

fn git(dir: &Path, args: &[&str]) -> Output {
    let o = Command::new("git")
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success() || args[0] == "commit",
        "git {args:?}: {}",
        text(&o)
    );
    o
}

fn init_repo(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["config", "user.name", "warplint test"]);
    git(dir, &["config", "user.email", "test@warplint.invalid"]);
    git(dir, &["config", "commit.gpgsign", "false"]);
}

/// Commit the checkout's current files into `dest`; returns the commit.
fn snapshot_checkout(dest: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let listed = Command::new("git")
        .current_dir(root)
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .output()
        .unwrap();
    assert!(listed.status.success(), "this test needs a git checkout");
    init_repo(dest);
    for rel in listed.stdout.split(|&b| b == 0).filter(|s| !s.is_empty()) {
        let rel = Path::new(std::str::from_utf8(rel).unwrap());
        let from = root.join(rel);
        if !from.is_file() {
            continue; // deleted in the working tree
        }
        let to = dest.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&from, &to).unwrap();
    }
    git(dest, &["add", "-A"]);
    git(dest, &["commit", "-q", "-m", "snapshot"]);
    let head = git(dest, &["rev-parse", "HEAD"]);
    String::from_utf8(head.stdout).unwrap().trim().to_owned()
}

const BAD: &str = "__device__ float warp_sum(float v) {\n    for (int o = 16; o > 0; o /= 2)\n        v += __shfl_down(v, o);\n    return v;\n}\n";
const GOOD: &str = "__device__ float warp_sum(float v) {\n    for (int o = 16; o > 0; o /= 2)\n        v += __shfl_down_sync(0xffffffff, v, o);\n    return v;\n}\n";

#[test]
#[ignore = "slow: builds warplint through pre-commit; run by .ci/run"]
fn pre_commit_blocks_a_bad_commit_and_lets_the_fix_through() {
    let tool = match pre_commit() {
        Ok(t) => t,
        Err(reason) => return unavailable(&reason),
    };
    let work = tempfile::tempdir().unwrap();
    let hooks = work.path().join("hooks");
    let rev = snapshot_checkout(&hooks);
    let project = work.path().join("project");
    init_repo(&project);
    std::fs::write(
        project.join(".pre-commit-config.yaml"),
        format!(
            "repos:\n  - repo: {}\n    rev: {rev}\n    hooks:\n      - id: warplint\n",
            hooks.display()
        ),
    )
    .unwrap();

    let cargo_bin = Path::new(env!("CARGO")).parent().unwrap().to_owned();
    let path = std::env::join_paths(
        std::iter::once(cargo_bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let cargo_target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pre-commit-cargo");
    let with_env = |cmd: &mut Command| {
        cmd.current_dir(&project)
            .env("PATH", &path)
            .env("PRE_COMMIT_HOME", work.path().join("pre-commit-home"))
            .env("CARGO_TARGET_DIR", &cargo_target)
            // The hook only needs to run: build it fast, not small.
            .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
            .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
            .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "256")
            .env("NO_COLOR", "1");
    };

    let o = {
        let mut c = Command::new(&tool);
        c.arg("install");
        with_env(&mut c);
        run(&mut c).unwrap()
    };
    assert!(o.status.success(), "pre-commit install: {}", text(&o));
    // Build the hook's environment up front, so an install failure (no
    // crates.io) is told apart from a hook failure.
    let o = {
        let mut c = Command::new(&tool);
        c.arg("install-hooks");
        with_env(&mut c);
        run(&mut c).unwrap()
    };
    if !o.status.success() {
        let log = std::fs::read_to_string(work.path().join("pre-commit-home/pre-commit.log"))
            .unwrap_or_default();
        return unavailable(&format!(
            "pre-commit could not build the hook: {}\n{log}",
            text(&o)
        ));
    }

    let commit = |message: &str| {
        let mut c = Command::new("git");
        c.args(["commit", "-m", message]);
        with_env(&mut c);
        run(&mut c).unwrap()
    };

    // A kernel with a legacy shuffle: the hook fails and the commit is refused.
    std::fs::write(project.join("reduce.cu"), BAD).unwrap();
    git(&project, &["add", ".pre-commit-config.yaml", "reduce.cu"]);
    let o = commit("add reduce kernel");
    let out = text(&o);
    assert!(!o.status.success(), "the bad commit went through:\n{out}");
    assert!(out.contains("warplint") && out.contains("Failed"), "{out}");
    assert!(
        out.contains("WL001") && out.contains("reduce.cu:3"),
        "the hook should name the finding:\n{out}"
    );
    let log = git(&project, &["rev-list", "--all", "--count"]);
    assert_eq!(String::from_utf8_lossy(&log.stdout).trim(), "0");

    // Fixed; plus a clean header and a text file that mentions a legacy
    // call, which must not reach the hook (`types: [cuda]`).
    std::fs::write(project.join("reduce.cu"), GOOD).unwrap();
    std::fs::write(
        project.join("warp.cuh"),
        GOOD.replace("warp_sum", "warp_sum2"),
    )
    .unwrap();
    std::fs::write(project.join("NOTES.txt"), BAD).unwrap();
    git(&project, &["add", "-A"]);
    let o = commit("fix reduce kernel");
    let out = text(&o);
    assert!(o.status.success(), "the fixed commit was refused:\n{out}");
    assert!(out.contains("warplint") && out.contains("Passed"), "{out}");

    // Headers are checked too.
    std::fs::write(project.join("warp.cuh"), BAD).unwrap();
    git(&project, &["add", "warp.cuh"]);
    let o = commit("break the header");
    let out = text(&o);
    assert!(!o.status.success(), "{out}");
    assert!(out.contains("warp.cuh:3"), "{out}");
    let log = git(&project, &["rev-list", "--all", "--count"]);
    assert_eq!(String::from_utf8_lossy(&log.stdout).trim(), "1");
}
