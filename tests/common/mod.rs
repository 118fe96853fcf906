//! Helpers shared by the integration tests: driving real editors installed
//! from Debian, and walking test trees.

// Each test crate that includes this module uses only some of it.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Say something on the real stderr, so that `cargo test` shows it even
/// when the test passes (`eprintln!` output is captured).
pub fn loud(msg: &str) {
    let _ = writeln!(std::io::stderr(), "\n*** {msg} ***\n");
}

/// Make sure `present()` holds, installing the Debian `packages` with
/// apt-get when this runs as root. `Err` says why it could not.
pub fn ensure_debian_packages(present: impl Fn() -> bool, packages: &[&str]) -> Result<(), String> {
    if present() {
        return Ok(());
    }
    let is_root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if !is_root {
        return Err(format!(
            "{} not installed, and not root to apt-get it",
            packages.join(" ")
        ));
    }
    let apt = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let install = |apt: &dyn Fn(&[&str]) -> bool| {
        let mut args = vec!["install", "-y", "-qq"];
        args.extend_from_slice(packages);
        apt(&args)
    };
    if !(install(&apt) || (apt(&["update", "-qq"]) && install(&apt))) {
        return Err(format!("apt-get install {} failed", packages.join(" ")));
    }
    if present() {
        Ok(())
    } else {
        Err(format!(
            "{} still missing after apt-get install",
            packages.join(" ")
        ))
    }
}

/// A missing editor skips the test loudly, or fails it when
/// `WARPLINT_REQUIRE_EDITORS` is set (as `.ci/run` does).
pub fn skip_or_fail(test: &str, why: &str) {
    if std::env::var_os("WARPLINT_REQUIRE_EDITORS").is_some() {
        panic!("{test}: required editor unavailable (WARPLINT_REQUIRE_EDITORS is set): {why}");
    }
    loud(&format!("SKIPPED {test}: {why}"));
}

pub fn nvim_present() -> bool {
    Command::new("nvim")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Run `nvim --headless -u NONE` in `dir` with `args` and `envs`, its
/// state, logs and config kept under `dir`; its output (see
/// [`run_with_timeout`]).
pub fn run_nvim_headless(
    dir: &std::path::Path,
    args: &[&std::ffi::OsStr],
    envs: &[(&str, &std::ffi::OsStr)],
) -> String {
    let mut cmd = Command::new("nvim");
    cmd.args(["--headless", "-u", "NONE", "-i", "NONE", "-n"])
        .args(args)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .current_dir(dir);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    run_with_timeout(&mut cmd)
}

/// Run `cmd` (stdin closed), killing it after 90 s; its stdout and stderr.
pub fn run_with_timeout(cmd: &mut Command) -> String {
    use std::time::{Duration, Instant};
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn editor");
    let deadline = Instant::now() + Duration::from_secs(90);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// Every file under `dir` whose extension is one of `exts` (any file when
/// `exts` is empty), sorted.
pub fn files_under(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
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

/// Every file of testdata and the fuzz seeds: the inputs the soundness
/// and invariant tests always check.
pub fn own_inputs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = files_under(&root.join("testdata"), &[]);
    files.extend(files_under(&root.join("tests/fuzz_corpus"), &[]));
    files
}

/// The CUDA files of the cached corpora that `selector` (an environment
/// variable holding a comma-separated list) picks; cccl, CuPy and CUTLASS
/// when it is unset (FlashInfer, 300 MB, is opt-in, as in
/// `tests/realcode.rs`). Empty when none is cached.
pub fn corpus_inputs(selector: &str) -> Vec<PathBuf> {
    let cache = Path::new(env!("CARGO_MANIFEST_DIR")).join(".bench-cache");
    let selected = std::env::var(selector).unwrap_or_else(|_| "cccl,cupy,cutlass".to_owned());
    let mut files = Vec::new();
    for corpus in selected.split(',').map(str::trim).filter(|c| !c.is_empty()) {
        files.extend(files_under(
            &cache.join(corpus),
            &["cuh", "h", "hpp", "cu", "inl"],
        ));
    }
    files
}
