//! The ALE linter in `editors/ale/warplint.vim`, run by the real ALE
//! (Debian's `vim-ale`) inside headless Neovim: it reads warplint's JSON
//! report for the buffer, sent on stdin with `--stdin-filename`.
//! Skips loudly without Neovim/ALE, fails instead under
//! `WARPLINT_REQUIRE_EDITORS` (set by `.ci/run`).

mod common;

use std::ffi::OsStr;
use std::path::Path;

use serde_json::Value;

/// Debian installs ALE here.
const ALE_DIR: &str = "/usr/share/vim-ale";

/// Non-ASCII text before the call: the report's character columns must be
/// turned into ALE's byte columns.
const KERNEL: &str = "// café\n__device__ float warp_sum(float v) {\n        /* 😀 */ v += __shfl_down(v, 1);\n    return v;\n}\n";

#[test]
fn ale_shows_warplint_json_diagnostics() {
    let test = "ale_shows_warplint_json_diagnostics";
    let present = || common::nvim_present() && Path::new(ALE_DIR).join("plugin/ale.vim").exists();
    if let Err(why) = common::ensure_debian_packages(present, &["neovim", "vim-ale"]) {
        return common::skip_or_fail(test, &why);
    }
    let dir = tempfile::tempdir().unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    // ALE finds linters under `ale_linters/<filetype>/` on the runtimepath.
    let rtp = dir.path().join("rtp");
    std::fs::create_dir_all(rtp.join("ale_linters/cuda")).unwrap();
    std::fs::copy(
        repo.join("editors/ale/warplint.vim"),
        rtp.join("ale_linters/cuda/warplint.vim"),
    )
    .unwrap();
    let file = dir.path().join("kernel.cu");
    std::fs::write(&file, KERNEL).unwrap();
    let out = dir.path().join("out.json");
    let script = repo.join("tests/nvim/ale_client.vim");
    let output = common::run_nvim_headless(
        dir.path(),
        &[OsStr::new("-S"), script.as_os_str()],
        &[
            ("WARPLINT_BIN", OsStr::new(env!("CARGO_BIN_EXE_warplint"))),
            ("WARPLINT_ALE_DIR", OsStr::new(ALE_DIR)),
            ("WARPLINT_ALE_RTP", rtp.as_os_str()),
            ("WARPLINT_ALE_FILE", file.as_os_str()),
            ("WARPLINT_ALE_OUT", out.as_os_str()),
        ],
    );
    let result: Value = match std::fs::read_to_string(&out) {
        Ok(s) => serde_json::from_str(&s).unwrap(),
        Err(e) => panic!("nvim wrote no result ({e}); its output:\n{output}"),
    };
    assert_eq!(result["filetype"], "cuda", "{result:#}");
    let list = result["loclist"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{result:#}");
    let d = &list[0];
    let line = KERNEL.lines().nth(2).unwrap();
    assert_eq!(d["linter_name"], "warplint");
    assert_eq!(d["code"], "WL001");
    assert_eq!(d["type"], "E");
    assert_eq!(d["lnum"], 3);
    // 1-based byte column of the call, and ALE's inclusive end.
    assert_eq!(d["col"], line.find("__shfl_down").unwrap() + 1);
    assert_eq!(d["end_col"], line.find(';').unwrap());
    assert!(
        d["text"]
            .as_str()
            .unwrap()
            .starts_with("`__shfl_down` is a legacy warp primitive"),
        "{d}"
    );
}
