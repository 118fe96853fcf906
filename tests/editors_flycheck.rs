//! The Flycheck checker in `editors/emacs/flycheck-warplint.el`, run by
//! the real Flycheck (Debian's `elpa-flycheck`) in `emacs --batch`: it reads
//! warplint's JSON report for the buffer, sent on stdin with
//! `--stdin-filename`. Skips loudly without Emacs/Flycheck, fails instead
//! under `WARPLINT_REQUIRE_EDITORS` (set by `.ci/run`).

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

/// Non-ASCII text before the call: Flycheck's columns count characters, as
/// the report's do.
const KERNEL: &str = "// café\n__device__ float warp_sum(float v) {\n        /* 😀 */ v += __shfl_down(v, 1);\n    return v;\n}\n";

fn emacs_with_flycheck() -> bool {
    let emacs = Command::new("emacs")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let flycheck = std::fs::read_dir("/usr/share/emacs/site-lisp/elpa").is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("flycheck-"))
    });
    emacs && flycheck
}

#[test]
fn flycheck_shows_warplint_json_diagnostics() {
    let test = "flycheck_shows_warplint_json_diagnostics";
    if let Err(why) =
        common::ensure_debian_packages(emacs_with_flycheck, &["emacs-nox", "elpa-flycheck"])
    {
        return common::skip_or_fail(test, &why);
    }
    let dir = tempfile::tempdir().unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = dir.path().join("kernel.cu");
    std::fs::write(&file, KERNEL).unwrap();
    let out = dir.path().join("out.json");
    let output = common::run_with_timeout(
        Command::new("emacs")
            .args(["--batch", "-Q", "-l"])
            .arg(repo.join("tests/emacs/flycheck_client.el"))
            .env("HOME", dir.path())
            .env("WARPLINT_BIN", env!("CARGO_BIN_EXE_warplint"))
            .env(
                "WARPLINT_FLYCHECK_EL",
                repo.join("editors/emacs/flycheck-warplint.el"),
            )
            .env("WARPLINT_FILE", &file)
            .env("WARPLINT_OUT", &out)
            .current_dir(dir.path()),
    );
    let result: Value = match std::fs::read_to_string(&out) {
        Ok(s) => serde_json::from_str(&s).unwrap(),
        Err(e) => panic!("emacs wrote no result ({e}); its output:\n{output}"),
    };
    assert_eq!(result["status"], "finished", "{result:#}\n{output}");
    let errors = result["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{result:#}");
    let e = &errors[0];
    assert_eq!(e["checker"], "warplint");
    assert_eq!(e["id"], "WL001");
    assert_eq!(e["level"], "error");
    assert_eq!(e["line"], 3);
    // The highlighted region is exactly the call.
    assert_eq!(e["text"], "__shfl_down(v, 1)");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .starts_with("`__shfl_down` is a legacy warp primitive"),
        "{e}"
    );
}
