//! A real editor: headless Neovim attaches `warplint server` to a `.cu`
//! buffer through the shipped `editors/nvim/warplint.lua`, reads the
//! diagnostics, applies a code action and sees the diagnostics clear.
//!
//! Needs `nvim` (Debian's `neovim`). When it is missing the test tries
//! `apt-get install neovim` (as root), and otherwise skips, saying so on the
//! real stderr. `.ci/run` installs Neovim and sets `WARPLINT_REQUIRE_EDITORS=1`,
//! which turns the skip into a failure.

mod common;

use std::ffi::OsStr;
use std::path::Path;

use serde_json::Value;

/// `😀` (4 bytes, 2 UTF-16 units) before the call: Neovim's byte column is
/// only right if the server's UTF-16 columns were.
const KERNEL: &str = "// A pre-Volta warp reduction.\n__device__ float warp_sum(float v) {\n    for (int o = 16; o > 0; o /= 2)\n        /* 😀 */ v += __shfl_down(v, o);\n    return v;\n}\n";

#[test]
fn neovim_shows_warplint_diagnostics_and_applies_its_fix() {
    let test = "neovim_shows_warplint_diagnostics_and_applies_its_fix";
    if let Err(why) = common::ensure_debian_packages(common::nvim_present, &["neovim"]) {
        return common::skip_or_fail(test, &why);
    }

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("kernel.cu");
    std::fs::write(&file, KERNEL).unwrap();
    let out = dir.path().join("result.json");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = repo.join("tests/nvim/lsp_client.lua");
    let luafile = format!("luafile {}", script.display());
    let snippet = repo.join("editors/nvim/warplint.lua");
    let output = common::run_nvim_headless(
        dir.path(),
        &[OsStr::new("-c"), OsStr::new(&luafile)],
        &[
            ("WARPLINT_BIN", OsStr::new(env!("CARGO_BIN_EXE_warplint"))),
            ("WARPLINT_NVIM_FILE", file.as_os_str()),
            ("WARPLINT_NVIM_OUT", out.as_os_str()),
            ("WARPLINT_NVIM_SNIPPET", snippet.as_os_str()),
        ],
    );
    let result: Value = match std::fs::read_to_string(&out) {
        Ok(s) => serde_json::from_str(&s).unwrap(),
        Err(e) => panic!("nvim wrote no result ({e}); its output:\n{output}"),
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
    common::loud(&format!(
        "Neovim {} ran warplint server (offset encoding {})",
        result["nvim"], result["offset_encoding"]
    ));
}
