//! A real editor: headless Neovim attaches `warplint server` to a `.cu`
//! buffer through the shipped `editors/nvim/warplint.lua`, reads the
//! diagnostics, applies a code action and sees the diagnostics clear.
//!
//! Needs `nvim` (Debian's `neovim`). When it is missing the test tries
//! `apt-get install neovim` (as root), and otherwise skips, saying so on the
//! real stderr. `.ci/run` installs Neovim and sets `WARPLINT_REQUIRE_NVIM=1`,
//! which turns the skip into a failure.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

/// `😀` (4 bytes, 2 UTF-16 units) before the call: Neovim's byte column is
/// only right if the server's UTF-16 columns were.
const KERNEL: &str = "// A pre-Volta warp reduction.\n__device__ float warp_sum(float v) {\n    for (int o = 16; o > 0; o /= 2)\n        /* 😀 */ v += __shfl_down(v, o);\n    return v;\n}\n";

fn loud(msg: &str) {
    // Written to the real stderr so that `cargo test` shows it even when
    // the test passes (eprintln! output is captured).
    let _ = writeln!(std::io::stderr(), "\n*** {msg} ***\n");
}

fn nvim_available() -> bool {
    Command::new("nvim")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Install Debian's neovim if this runs as root with apt-get.
fn try_install_nvim() -> Result<(), String> {
    let is_root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if !is_root {
        return Err("not root, cannot apt-get install neovim".into());
    }
    let apt = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if apt(&["install", "-y", "-qq", "neovim"])
        || (apt(&["update", "-qq"]) && apt(&["install", "-y", "-qq", "neovim"]))
    {
        Ok(())
    } else {
        Err("apt-get install neovim failed".into())
    }
}

#[test]
fn neovim_shows_warplint_diagnostics_and_applies_its_fix() {
    let ready = if nvim_available() {
        Ok(())
    } else {
        try_install_nvim().and_then(|_| {
            nvim_available()
                .then_some(())
                .ok_or_else(|| "nvim still missing after install".to_owned())
        })
    };
    if let Err(why) = ready {
        if std::env::var_os("WARPLINT_REQUIRE_NVIM").is_some() {
            panic!("Neovim is required (WARPLINT_REQUIRE_NVIM) but unavailable: {why}");
        }
        loud(&format!(
            "SKIPPED neovim_shows_warplint_diagnostics_and_applies_its_fix: Neovim is not installed ({why})"
        ));
        return;
    }

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("kernel.cu");
    std::fs::write(&file, KERNEL).unwrap();
    let out = dir.path().join("result.json");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut child = Command::new("nvim")
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n"])
        .arg("-c")
        .arg(format!(
            "luafile {}",
            repo.join("tests/nvim/lsp_client.lua").display()
        ))
        .env("WARPLINT_BIN", env!("CARGO_BIN_EXE_warplint"))
        .env("WARPLINT_NVIM_FILE", &file)
        .env("WARPLINT_NVIM_OUT", &out)
        .env(
            "WARPLINT_NVIM_SNIPPET",
            repo.join("editors/nvim/warplint.lua"),
        )
        // Keep Neovim's state, logs and config out of the user's home.
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .env("XDG_CACHE_HOME", dir.path().join("cache"))
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start nvim");
    let deadline = Instant::now() + Duration::from_secs(90);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("nvim did not finish within 90 s");
        }
        thread::sleep(Duration::from_millis(50));
    };
    let result: Value = match std::fs::read_to_string(&out) {
        Ok(s) => serde_json::from_str(&s).unwrap(),
        Err(e) => panic!("nvim ({status}) wrote no result: {e}"),
    };
    assert!(result.get("error").is_none(), "{result:#}");
    assert_eq!(result["filetype"], "cuda", "{result:#}");
    assert_eq!(result["got_diagnostics"], true, "{result:#}");

    let initial = result["initial"].as_array().unwrap();
    assert_eq!(initial.len(), 1, "{result:#}");
    let d = &initial[0];
    assert_eq!(d["code"], "WL001");
    assert_eq!(d["source"], "warplint");
    // vim.diagnostic.severity.ERROR
    assert_eq!(d["severity"], 1);
    assert_eq!(d["lnum"], 3);
    // Byte column of `__shfl_down` in `        /* 😀 */ v += __shfl_down(v, o);`.
    let line = KERNEL.lines().nth(3).unwrap();
    assert_eq!(d["col"], line.find("__shfl_down").unwrap());
    assert_eq!(d["end_col"], line.find(';').unwrap());
    let msg = d["message"].as_str().unwrap();
    assert!(
        msg.starts_with("`__shfl_down` is a legacy warp primitive"),
        "{msg}"
    );
    assert!(
        d["href"]
            .as_str()
            .unwrap()
            .ends_with("WL001-legacy-warp-primitive.md"),
        "{d}"
    );
    assert_eq!(result["client_name"], "warplint");

    let actions: Vec<&str> = result["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(
        actions
            .iter()
            .any(|a| a.starts_with("Unsafe fix for WL001")),
        "{actions:?}"
    );
    assert!(
        actions.iter().any(|a| a.starts_with("Suppress WL001")),
        "{actions:?}"
    );
    assert_eq!(
        result["fixed_line"], "        /* 😀 */ v += __shfl_down_sync(0xffffffff, v, o);",
        "{result:#}"
    );
    assert_eq!(result["cleared"], true, "{result:#}");
    assert_eq!(result["after_fix"], serde_json::json!([]));
    loud(&format!(
        "Neovim {} ran warplint server (offset encoding {})",
        result["nvim"], result["offset_encoding"]
    ));
}
