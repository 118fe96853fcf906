//! Whatever a repository contains, `warplint check` survives it: it names
//! the file that is odd, checks the others as usual, and exits 2 only for
//! I/O errors.

use std::path::Path;
use std::process::{Command, Output};

const BAD: &str = "__device__ int f(int v) {\n  return __shfl(v, 0);\n}\n";

fn warplint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warplint"))
        .current_dir(dir)
        .env("NO_COLOR", "1")
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

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", stdout(o), stderr(o)))
}

/// A directory with one ordinary file that has a known finding; every test
/// checks that it is still reported next to the odd input.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ok.cu"), BAD).unwrap();
    dir
}

fn assert_ok_file_checked(o: &Output) {
    assert!(
        stdout(o).contains("ok.cu:2:10: WL001"),
        "the ordinary file was not checked: {}\n{}",
        stdout(o),
        stderr(o)
    );
}

fn assert_no_panic(o: &Output) {
    let err = stderr(o);
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        o.status.code().is_some(),
        "killed by a signal: {:?}",
        o.status
    );
}

#[test]
fn deep_nesting_of_parentheses_and_braces() {
    let dir = tree();
    let depth = 100_000;
    let mut text = String::from("__device__ int deep(int v) { return ");
    text.push_str(&"(".repeat(depth));
    text.push_str("__shfl(v, 0)");
    text.push_str(&")".repeat(depth));
    text.push_str("; }\n__global__ void braces() ");
    text.push_str(&"{".repeat(depth));
    text.push_str(" __syncwarp(); ");
    text.push_str(&"}".repeat(depth));
    text.push('\n');
    std::fs::write(dir.path().join("deep.cu"), &text).unwrap();
    // Unbalanced too: 100,000 openers that never close.
    std::fs::write(
        dir.path().join("open.cu"),
        "{(".repeat(depth) + "__syncwarp();",
    )
    .unwrap();
    let o = warplint(dir.path(), &["check", "--format", "concise", "-q"]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_ok_file_checked(&o);
    assert!(stdout(&o).contains("deep.cu:1:"), "{}", stdout(&o));
}

#[test]
fn a_50_mb_file_is_bounded_and_reported_not_dropped() {
    let dir = tree();
    // Warp code all the way down: more than the parse budget admits.
    let kernel = "__global__ void k(float *p) { float v = p[threadIdx.x]; \
                  v += __shfl_down_sync(0xffffffff, v, 1); p[threadIdx.x] = v; }\n";
    let big = kernel.repeat(50_000_000 / kernel.len() + 1);
    std::fs::write(dir.path().join("big.cu"), &big).unwrap();
    // 50 MB where the warp tokens are only in comments: skipped unparsed.
    let line = "int g(int a) { return a; } // __syncthreads() __shfl(v, 0)\n";
    std::fs::write(
        dir.path().join("comments.cu"),
        line.repeat(50_000_000 / line.len() + 1),
    )
    .unwrap();
    let t = std::time::Instant::now();
    let o = warplint(dir.path(), &["check", "--format", "json"]);
    let took = t.elapsed();
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning: big.cu: not analysed: parsing exceeded the budget"),
        "{}",
        stderr(&o)
    );
    let report = json(&o);
    let not_analysed = &report["stats"]["not_analysed"];
    assert_eq!(not_analysed.as_array().unwrap().len(), 1, "{not_analysed}");
    assert_eq!(not_analysed[0]["path"], "big.cu");
    assert_eq!(report["stats"]["files_skipped_by_prefilter"], 1);
    assert_eq!(report["diagnostics"][0]["path"], "ok.cu");
    // Generous (debug build, shared CI machine), but not unbounded.
    assert!(took.as_secs() < 60, "took {took:?}");
}

#[test]
fn odd_bytes_crlf_bom_and_empty_files() {
    let dir = tree();
    let p = dir.path();
    std::fs::write(
        p.join("latin1.cu"),
        b"// caf\xe9 \xff\n__device__ int f(int v) { return __shfl(v, 0); }\n",
    )
    .unwrap();
    std::fs::write(
        p.join("nul.cu"),
        b"int a = 0;\0\0\n__device__ int f(int v) { return __shfl(v, 0); }\n",
    )
    .unwrap();
    std::fs::write(p.join("crlf.cu"), BAD.replace('\n', "\r\n")).unwrap();
    std::fs::write(p.join("bom.cu"), format!("\u{feff}// header\n{BAD}")).unwrap();
    std::fs::write(p.join("empty.cu"), b"").unwrap();
    std::fs::write(p.join("only_nul.cu"), [0u8; 4096]).unwrap();
    let o = warplint(p, &["check", "--format", "concise", "-q", "--verbose"]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert_ok_file_checked(&o);
    for expected in [
        "latin1.cu:2:34: WL001",
        "nul.cu:2:34: WL001",
        "crlf.cu:2:10: WL001",
        "bom.cu:3:10: WL001",
    ] {
        assert!(out.contains(expected), "missing {expected}: {out}");
    }
    assert!(
        stderr(&o).contains("latin1.cu: not valid UTF-8; invalid bytes were replaced"),
        "{}",
        stderr(&o)
    );
    let o = warplint(p, &["check", "--format", "json"]);
    let report = json(&o);
    assert_eq!(report["stats"]["files_checked"], 7);
    assert_eq!(
        report["stats"]["non_utf8_files"],
        serde_json::json!(["latin1.cu"])
    );
}

#[cfg(unix)]
#[test]
fn symlink_loops_are_not_followed_and_broken_links_are_named() {
    use std::os::unix::fs::symlink;
    let dir = tree();
    let p = dir.path();
    std::fs::create_dir(p.join("sub")).unwrap();
    std::fs::write(p.join("sub/inner.cu"), BAD).unwrap();
    symlink("..", p.join("sub/up")).unwrap(); // a directory loop
    symlink("self.cu", p.join("self.cu")).unwrap(); // a link to itself
    symlink("ok.cu", p.join("alias.cu")).unwrap(); // a good link to a file
    let o = warplint(p, &["check", "--format", "concise", "-q"]);
    assert_no_panic(&o);
    // The looping `.cu` link cannot be read: an I/O error, named.
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("self.cu"), "{}", stderr(&o));
    let out = stdout(&o);
    assert_ok_file_checked(&o);
    assert!(out.contains("alias.cu:2:10"), "{out}");
    assert_eq!(
        out.matches("inner.cu:2:10").count(),
        1,
        "walked the loop: {out}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn unreadable_files_are_named_and_the_others_checked() {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let dir = tree();
    let p = dir.path();
    // `chmod 000` does not stop root (CI runs as root), so the file whose
    // read fails is a link to /proc/self/mem: a regular file whose read at
    // offset 0 fails with EIO for any user.
    symlink("/proc/self/mem", p.join("eio.cu")).unwrap();
    let locked = p.join("locked.cu");
    std::fs::write(&locked, BAD).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let root = std::fs::read(&locked).is_ok();
    let o = warplint(p, &["check", "--format", "concise", "-q"]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("warplint: error: eio.cu: "), "{err}");
    if root {
        eprintln!("note: running as root, so locked.cu (mode 000) is still readable");
    } else {
        assert!(err.contains("locked.cu: Permission denied"), "{err}");
    }
    assert_ok_file_checked(&o);
}

#[cfg(unix)]
#[test]
fn a_fifo_named_like_a_source_file_is_refused_not_read() {
    let dir = tree();
    let fifo = dir.path().join("pipe.cu");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("SKIPPED a_fifo_named_like_a_source_file_is_refused_not_read: mkfifo failed");
        return;
    }
    // Named explicitly, it would block forever if it were opened for reading.
    let o = warplint(
        dir.path(),
        &["check", "--format", "concise", "-q", "pipe.cu", "ok.cu"],
    );
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("pipe.cu: not a regular file"),
        "{}",
        stderr(&o)
    );
    assert_ok_file_checked(&o);
    // Found by the walk, it is not a source file at all.
    let o = warplint(dir.path(), &["check", "--format", "concise", "-q"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

#[test]
fn a_directory_named_like_a_cu_file_is_walked_not_read() {
    let dir = tree();
    let p = dir.path();
    std::fs::create_dir(p.join("kernels.cu")).unwrap();
    std::fs::write(p.join("kernels.cu/inner.cuh"), BAD).unwrap();
    let o = warplint(p, &["check", "--format", "concise", "-q"]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("kernels.cu/inner.cuh:2:10"),
        "{}",
        stdout(&o)
    );
    assert_ok_file_checked(&o);
    let o = warplint(
        p,
        &["check", "--format", "concise", "-q", "kernels.cu", "ok.cu"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("kernels.cu/inner.cuh:2:10"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_file_deleted_between_discovery_and_reading_is_an_io_error_naming_it() {
    // Deterministic: discover, delete, then run the same code the binary
    // runs after discovery.
    let dir = tree();
    let p = dir.path();
    std::fs::write(p.join("gone.cu"), BAD).unwrap();
    let opts = warplint::engine::Options::default();
    let (candidates, walk_errors) =
        warplint::discover::discover(&[p.to_path_buf()], &opts.discover);
    assert_eq!(candidates.len(), 2);
    std::fs::remove_file(p.join("gone.cu")).unwrap();
    let run = warplint::engine::check_candidates(&candidates, walk_errors, &opts);
    assert_eq!(run.io_errors.len(), 1, "{:?}", run.io_errors);
    let (path, message) = &run.io_errors[0];
    assert!(path.ends_with("gone.cu"), "{path}");
    assert!(message.contains("No such file"), "{message}");
    assert_eq!(run.diagnostics().count(), 1, "ok.cu was not checked");
    assert_eq!(warplint::cli::exit_code(&run, false), 2);
}

#[test]
fn json_is_identical_with_1_and_8_threads_on_a_generated_tree() {
    let dir = tree();
    let p = dir.path();
    for i in 0..200 {
        let sub = p.join(format!("d{}", i % 7));
        std::fs::create_dir_all(&sub).unwrap();
        let text = match i % 4 {
            0 => BAD.repeat(i % 5 + 1),
            1 => format!("// clean {i}\nint x{i};\n"),
            2 => format!("__global__ void k{i}() {{ __syncwarp(); }}\n{BAD}"),
            _ => format!(
                "#define S{i}(v) __ballot(v)\n__device__ int g{i}(int v) {{ return __any(v); }}\n"
            ),
        };
        std::fs::write(sub.join(format!("f{i}.cu")), text).unwrap();
    }
    std::fs::write(p.join("missing_is_an_error.cu"), BAD).unwrap();
    let args = |j: &'static str| ["check", "--format", "json", "-j", j, ".", "nope.cu"];
    let one = warplint(p, &args("1"));
    let eight = warplint(p, &args("8"));
    assert_eq!(one.status.code(), Some(2));
    assert!(json(&one)["diagnostics"].as_array().unwrap().len() > 100);
    assert_eq!(one.stdout, eight.stdout);
    assert_eq!(one.status, eight.status);
}

#[test]
fn json_is_identical_with_1_and_8_threads_on_the_cccl_headers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = root.join(".bench-cache/cccl");
    if !corpus.join(".complete").exists() {
        eprintln!(
            "SKIPPED json_is_identical_with_1_and_8_threads_on_the_cccl_headers: the cuda-cccl \
             headers are not cached; run `python3 benches/fetch_corpora.py` once to fetch them"
        );
        return;
    }
    let one = warplint(
        root,
        &["check", "--format", "json", "-j", "1", ".bench-cache/cccl"],
    );
    let eight = warplint(
        root,
        &["check", "--format", "json", "-j", "8", ".bench-cache/cccl"],
    );
    // The whole unpacked wheel: CUB, Thrust and libcudacxx headers that look
    // like CUDA (403 with cuda-cccl 1.2.1).
    let checked = json(&one)["stats"]["files_checked"].as_u64().unwrap();
    assert!(checked >= 400, "only {checked} cccl files checked");
    assert_eq!(one.stdout, eight.stdout);
}
