//! The corpus benchmark: `cargo bench --bench corpus`.
//!
//! It measures whatever the pipeline is when it runs (the stages come from
//! `warplint::timing`), on:
//! - the `.cuh` headers of the `cuda-cccl` wheel (CUB), fetched once with
//!   pip into `.bench-cache/` (never committed);
//! - generated large and adversarial inputs in `.bench-cache/generated/`.
//!
//! It prints a report, writes it as JSON to `.bench-cache/results.json`, and
//! checks the budgets of issue 6. Options (after `--`):
//! `--strict` exits 1 when a budget is missed; `--runs N` repeats the timed
//! whole-corpus runs (default 5); `--threads N` runs `warplint check` with
//! `-j N` (default: warplint's own default, one per core).

use std::fmt::Write as _;
use std::fs;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use warplint::engine::{self, Options};
use warplint::timing;

const CCCL_REQUIREMENT: &str = "cuda-cccl==1.2.1";
const BIN: &str = env!("CARGO_BIN_EXE_warplint");

/// Issue 6's budgets.
const BUDGET_RATIO: f64 = 0.5;
const BUDGET_RSS_MB: f64 = 150.0;
const BUDGET_LINEARITY: f64 = 1.2;
const BUDGET_FILE_S: f64 = 1.0;
const BUDGET_RELINT_MS: f64 = 30.0;

struct Args {
    strict: bool,
    runs: usize,
    threads: Option<usize>,
}

fn parse_args() -> Args {
    let mut args = Args {
        strict: false,
        runs: 5,
        threads: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--strict" => args.strict = true,
            "--runs" => args.runs = it.next().and_then(|v| v.parse().ok()).unwrap_or(5).max(1),
            "--threads" => args.threads = it.next().and_then(|v| v.parse().ok()),
            _ => {} // `cargo bench` passes `--bench`
        }
    }
    args
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    if argv.get(1).map(String::as_str) == Some("--measure-child") && argv.len() > 3 {
        measure_child(Path::new(&argv[2]), &argv[3..]);
    }
    let args = parse_args();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let cache = root.join(".bench-cache");
    let mut report = Report::default();

    let corpus_dir = match ensure_cccl(&cache) {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("corpus bench: cannot fetch {CCCL_REQUIREMENT}: {e}");
            std::process::exit(2);
        }
    };
    let corpus = load_files(&corpus_dir, "cuh");
    let generated_dir = cache.join("generated");
    let generated = generate_inputs(&generated_dir);

    report.line(format!(
        "machine: {} logical CPU(s), {}; warplint {} ({} profile)",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu_model(),
        env!("CARGO_PKG_VERSION"),
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "optimized"
        },
    ));
    let corpus_bytes: usize = corpus.iter().map(|(_, b)| b.len()).sum();
    let passing = corpus
        .iter()
        .filter(|(_, b)| warplint::prefilter::has_warp_code(b))
        .count();
    report.line(format!(
        "corpus: {CCCL_REQUIREMENT} .cuh headers: {} files, {:.2} MB; {} pass the prefilter",
        corpus.len(),
        mb(corpus_bytes),
        passing
    ));
    report.json("corpus_files", corpus.len());
    report.json("corpus_bytes", corpus_bytes);
    report.json("corpus_files_parsed", passing);

    // 1. Bare single-threaded tree-sitter-cuda parse of the same files.
    let (bare, ops) = bare_parse(&corpus);
    report.line(format!(
        "bare tree-sitter-cuda parse, 1 thread: {:.1} ms ({:.1} MB/s); {:.1} parser ops/byte",
        ms(bare),
        mb(corpus_bytes) / bare.as_secs_f64(),
        ops as f64 / corpus_bytes as f64
    ));
    report.json("bare_parse_ms", ms(bare));
    report.json("parse_ops_per_byte", ops as f64 / corpus_bytes as f64);

    // 2. `warplint check` on the corpus as a child process: wall and RSS.
    let mut check_args: Vec<String> = vec!["check".into(), "--format".into(), "json".into()];
    if let Some(n) = args.threads {
        check_args.push(format!("-j{n}"));
    }
    let mut walls = Vec::new();
    let mut peak_kb = 0;
    for _ in 0..args.runs {
        let r = run_child(&check_args, &corpus_dir, &cache);
        walls.push(r.wall);
        peak_kb = peak_kb.max(r.max_rss_kb);
    }
    walls.sort();
    let median = walls[walls.len() / 2];
    let best = walls[0];
    let ratio = median.as_secs_f64() / bare.as_secs_f64();
    report.line(format!(
        "warplint check (child, {} runs, {}): median {:.1} ms, best {:.1} ms; \
         {:.1} MB/s, {:.0} files/s; peak RSS {:.1} MB",
        args.runs,
        args.threads
            .map_or("default threads".to_owned(), |n| format!("-j{n}")),
        ms(median),
        ms(best),
        mb(corpus_bytes) / median.as_secs_f64(),
        corpus.len() as f64 / median.as_secs_f64(),
        peak_kb as f64 / 1024.0
    ));
    report.json("check_median_ms", ms(median));
    report.json("check_best_ms", ms(best));
    report.json("check_mb_per_s", mb(corpus_bytes) / median.as_secs_f64());
    report.json(
        "check_files_per_s",
        corpus.len() as f64 / median.as_secs_f64(),
    );
    report.json("check_peak_rss_mb", peak_kb as f64 / 1024.0);
    report.json("ratio_to_bare_parse", ratio);
    let single = run_child(
        &[
            "check".into(),
            "--format".into(),
            "json".into(),
            "-j1".into(),
        ],
        &corpus_dir,
        &cache,
    );
    report.line(format!(
        "warplint check -j1: {:.1} ms (one run)",
        ms(single.wall)
    ));
    report.json("check_j1_ms", ms(single.wall));

    // 3. Per-stage breakdown, from `--timings=json`.
    let mut timed_args = check_args.clone();
    timed_args.push("--timings=json".into());
    let timed = run_child(&timed_args, &corpus_dir, &cache);
    if let Some(t) = timed.timings {
        let stages = &t["stages_ms"];
        let mut s = String::from("stages (ms summed over workers):");
        for name in timing::Stage::ALL.iter().map(|s| s.name()) {
            let v = stages[name].as_f64().unwrap_or(0.0);
            let _ = write!(s, " {name} {v:.1};");
        }
        report.line(s);
        report.json("stages_ms", stages.clone());
    }

    // 4. The slowest single file, in process, corpus and generated inputs.
    timing::set_enabled(true);
    let opts = Options::default();
    let mut per_file: Vec<(String, Duration, String)> = Vec::new();
    for (path, bytes) in corpus.iter().chain(generated.iter()) {
        let t = Instant::now();
        let outcome = engine::check_source(&path.display().to_string(), bytes, &opts);
        let took = t.elapsed();
        let what = if outcome.skipped_by_prefilter {
            "skipped by the prefilter".to_owned()
        } else if let Some(why) = &outcome.not_analysed {
            why.clone()
        } else {
            format!("{} diagnostic(s)", outcome.diagnostics.len())
        };
        per_file.push((short(path, &root), took, what));
    }
    timing::set_enabled(false);
    let slowest = per_file
        .iter()
        .max_by_key(|(_, d, _)| *d)
        .cloned()
        .unwrap_or_default();
    report.line(format!(
        "slowest single file: {} ({:.1} ms)",
        slowest.0,
        ms(slowest.1)
    ));
    let slowest_real = per_file[..corpus.len()]
        .iter()
        .max_by_key(|(_, d, _)| *d)
        .cloned()
        .unwrap_or_default();
    report.line(format!(
        "slowest cuda-cccl header: {} ({:.1} ms)",
        slowest_real.0,
        ms(slowest_real.1)
    ));
    report.json("slowest_corpus_file", &slowest_real.0);
    report.json("slowest_corpus_file_ms", ms(slowest_real.1));
    report.json("slowest_file", &slowest.0);
    report.json("slowest_file_ms", ms(slowest.1));
    report.line("generated inputs (in process, one thread):".to_owned());
    for (path, bytes) in &generated {
        let name = short(path, &root);
        if let Some((_, d, what)) = per_file.iter().find(|(p, _, _)| *p == name) {
            report.line(format!(
                "  {:<34} {:>8.2} MB {:>9.1} ms  {what}",
                name.rsplit('/').next().unwrap_or(&name),
                mb(bytes.len()),
                ms(*d)
            ));
        }
    }
    let gen_run = run_child(&check_args, &generated_dir, &cache);
    report.line(format!(
        "warplint check on generated/ (child): {:.1} ms, peak RSS {:.1} MB",
        ms(gen_run.wall),
        gen_run.max_rss_kb as f64 / 1024.0
    ));
    report.json("generated_check_ms", ms(gen_run.wall));
    report.json("generated_peak_rss_mb", gen_run.max_rss_kb as f64 / 1024.0);

    // 5. Linearity: per-byte cost of 100 concatenated copies vs one copy,
    //    for the pipeline and, as the floor it cannot beat, bare parsing.
    let unit = linearity_unit(&corpus);
    let lin = linearity(&unit);
    report.line(format!(
        "linearity ({:.1} KB unit, best of 5): warplint 1 copy {:.1} ns/byte, 100 copies {:.1} \
         ns/byte, ratio {:.2}; bare parse {:.1} → {:.1} ns/byte, ratio {:.2}",
        unit.len() as f64 / 1024.0,
        lin.one,
        lin.hundred,
        lin.hundred / lin.one,
        lin.bare_one,
        lin.bare_hundred,
        lin.bare_hundred / lin.bare_one,
    ));
    let lin_ratio = lin.hundred / lin.one;
    report.json("linearity_ns_per_byte_1", lin.one);
    report.json("linearity_ns_per_byte_100", lin.hundred);
    report.json("linearity_ratio", lin_ratio);
    report.json(
        "linearity_bare_parse_ratio",
        lin.bare_hundred / lin.bare_one,
    );

    // 6. Language-server re-lint of a 5,000-line file: real CUB code (the
    //    budget), and dense generated kernels (a harder case, reported).
    let real_5000 = first_lines(&corpus, 5_000);
    let dense_5000 = generated
        .iter()
        .find(|(p, _)| p.ends_with("lsp_5000_lines.cu"))
        .map(|(_, b)| b.clone())
        .unwrap_or_default();
    let relint = relint_time(&real_5000);
    let relint_dense = relint_time(&dense_5000);
    report.line(format!(
        "re-lint of 5,000 lines of CUB ({:.0} KB, engine::check_source): median {:.2} ms, max {:.2} ms",
        real_5000.len() as f64 / 1024.0,
        ms(relint.0),
        ms(relint.1)
    ));
    report.line(format!(
        "re-lint of 5,000 lines of dense generated kernels ({:.0} KB): median {:.2} ms, max {:.2} ms",
        dense_5000.len() as f64 / 1024.0,
        ms(relint_dense.0),
        ms(relint_dense.1)
    ));
    report.json("relint_5000_lines_median_ms", ms(relint.0));
    report.json("relint_5000_lines_max_ms", ms(relint.1));
    report.json("relint_5000_dense_lines_median_ms", ms(relint_dense.0));

    // Budgets.
    let budgets = [
        (
            format!("check ≤ {BUDGET_RATIO}× bare parse"),
            ratio <= BUDGET_RATIO,
            format!("{ratio:.3}×"),
        ),
        (
            format!("peak RSS ≤ {BUDGET_RSS_MB} MB"),
            (peak_kb as f64 / 1024.0) <= BUDGET_RSS_MB,
            format!("{:.1} MB", peak_kb as f64 / 1024.0),
        ),
        (
            format!("linear: 100 copies ≤ {BUDGET_LINEARITY}× per byte"),
            lin_ratio <= BUDGET_LINEARITY,
            format!(
                "{lin_ratio:.2}× (bare tree-sitter parse alone: {:.2}×)",
                lin.bare_hundred / lin.bare_one
            ),
        ),
        (
            format!("no file > {BUDGET_FILE_S} s"),
            slowest.1.as_secs_f64() <= BUDGET_FILE_S,
            format!("{:.0} ms", ms(slowest.1)),
        ),
        (
            format!("re-lint 5,000 lines ≤ {BUDGET_RELINT_MS} ms"),
            ms(relint.0) <= BUDGET_RELINT_MS,
            format!("{:.1} ms", ms(relint.0)),
        ),
    ];
    report.line("budgets:".to_owned());
    let mut all_met = true;
    for (name, ok, value) in &budgets {
        all_met &= ok;
        report.line(format!(
            "  [{}] {name}: {value}",
            if *ok { "met" } else { "MISSED" }
        ));
    }
    report.json("budgets_met", all_met);
    let out = cache.join("results.json");
    if let Err(e) = fs::write(&out, serde_json::to_string_pretty(&report.json).unwrap()) {
        eprintln!("corpus bench: cannot write {}: {e}", out.display());
    } else {
        println!("results written to {}", out.display());
    }
    if args.strict && !all_met {
        std::process::exit(1);
    }
}

#[derive(Default)]
struct Report {
    json: serde_json::Map<String, serde_json::Value>,
}

impl Report {
    fn line(&mut self, s: String) {
        println!("{s}");
    }

    fn json(&mut self, key: &str, v: impl serde::Serialize) {
        self.json.insert(
            key.to_owned(),
            serde_json::to_value(v).unwrap_or(serde_json::Value::Null),
        );
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn mb(bytes: usize) -> f64 {
    bytes as f64 / 1e6
}

fn short(path: &Path, root: &Path) -> String {
    let p = path
        .strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string();
    p.replace(".bench-cache/cccl/cuda/cccl/headers/include/", "cccl:")
}

fn cpu_model() -> String {
    fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned())
}

/// Download the wheel with pip (once) and unpack its sources, with
/// `benches/fetch_corpora.py` (the same script `.ci/run` uses).
fn ensure_cccl(cache: &Path) -> Result<PathBuf, String> {
    let dir = cache.join("cccl");
    if dir.join(".complete").exists() {
        return Ok(dir);
    }
    eprintln!(
        "corpus bench: fetching {CCCL_REQUIREMENT} with pip into {}",
        cache.display()
    );
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/fetch_corpora.py");
    let status = Command::new(&python)
        .arg(script)
        .arg("--only=cccl")
        .arg(cache)
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("{python}: {e}"))?;
    if !status.success() || !dir.join(".complete").exists() {
        return Err(format!("benches/fetch_corpora.py failed: {status}"));
    }
    Ok(dir)
}

/// Every file under `dir` with extension `ext`, sorted, with its bytes.
fn load_files(dir: &Path, ext: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == ext)
                && let Ok(b) = fs::read(&p)
            {
                out.push((p, b));
            }
        }
    }
    out.sort();
    out
}

/// Best of three single-threaded parses of every file (bytes already in
/// memory), plus the parser operations they took (counted separately, so
/// the callback does not slow the timed runs).
fn bare_parse(files: &[(PathBuf, Vec<u8>)]) -> (Duration, u64) {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_cuda::LANGUAGE.into())
        .unwrap();
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        for (_, bytes) in files {
            let tree = parser.parse(bytes, None);
            std::hint::black_box(&tree);
        }
        best = best.min(t.elapsed());
    }
    let mut ops = 0u64;
    for (_, bytes) in files {
        let mut count = |_: &tree_sitter::ParseState| {
            ops += 100;
            ControlFlow::Continue(())
        };
        let mut input = |at: usize, _| bytes.get(at..).unwrap_or(&[]);
        let options = tree_sitter::ParseOptions::new().progress_callback(&mut count);
        parser.reset();
        std::hint::black_box(parser.parse_with_options(&mut input, None, Some(options)));
    }
    (best, ops)
}

struct ChildRun {
    wall: Duration,
    max_rss_kb: i64,
    timings: Option<serde_json::Value>,
}

/// Run `warplint ARGS DIR` and measure its wall time and peak RSS.
///
/// Linux charges a child the peak RSS of the process it was forked (or
/// vforked) from until it calls exec, and this process holds the whole
/// corpus and the generated files in memory. So the child is started by a
/// fresh, small copy of this binary (`--measure-child`), which reaps it
/// with `wait4` and writes its figures to a file.
fn run_child(args: &[String], dir: &Path, cache: &Path) -> ChildRun {
    let stdout = fs::File::create(cache.join("last-stdout.txt")).unwrap();
    let stderr = fs::File::create(cache.join("last-stderr.txt")).unwrap();
    let figures = cache.join("last-rusage.txt");
    let status = Command::new(std::env::current_exe().unwrap())
        .arg("--measure-child")
        .arg(&figures)
        .arg(BIN)
        .args(args)
        .arg(dir)
        .stdout(Stdio::from(stdout))
        .stderr(Stdio::from(stderr))
        .env("NO_COLOR", "1")
        .status()
        .expect("start the measuring process");
    assert!(status.success(), "measuring {args:?} failed: {status}");
    let text = fs::read_to_string(&figures).unwrap();
    let nums: Vec<i64> = text
        .split_whitespace()
        .filter_map(|n| n.parse().ok())
        .collect();
    let [wall_ns, max_rss_kb, code] = nums[..] else {
        panic!("bad figures: {text}");
    };
    assert!(
        (0..=2).contains(&code),
        "warplint {args:?} {} ended with status {code}",
        dir.display()
    );
    let err = fs::read_to_string(cache.join("last-stderr.txt")).unwrap_or_default();
    let timings = err
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find_map(|v| v.get("warplint_timings").cloned());
    ChildRun {
        wall: Duration::from_nanos(wall_ns as u64),
        max_rss_kb,
        timings,
    }
}

/// `--measure-child FILE CMD ARGS…`: run CMD (inheriting stdio), reap it
/// with `wait4`, write "wall_ns max_rss_kb exit_code" to FILE.
fn measure_child(figures: &Path, cmd: &[String]) -> ! {
    let t = Instant::now();
    // Reaped below with wait4, which `Child::wait` cannot replace: it does
    // not return the child's resource usage.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(&cmd[0])
        .args(&cmd[1..])
        .spawn()
        .expect("spawn warplint");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid; wait4 fills it for this pid only.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = t.elapsed();
    assert_eq!(rc, pid, "wait4 failed");
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    fs::write(
        figures,
        format!("{} {} {code}\n", wall.as_nanos(), usage.ru_maxrss),
    )
    .unwrap();
    std::process::exit(0)
}

/// The linearity unit: the corpus's warp-level headers (the files the
/// prefilter passes) under `cub/warp/`, concatenated.
fn linearity_unit(corpus: &[(PathBuf, Vec<u8>)]) -> Vec<u8> {
    let mut unit = Vec::new();
    for (p, b) in corpus {
        if p.to_string_lossy().contains("/cub/warp/") && warplint::prefilter::has_warp_code(b) {
            unit.extend_from_slice(b);
            unit.push(b'\n');
        }
    }
    if unit.is_empty() {
        unit = kernels(200, "lin");
    }
    unit
}

struct Linearity {
    one: f64,
    hundred: f64,
    bare_one: f64,
    bare_hundred: f64,
}

/// Best-of-5 ns per byte for one copy and for 100 concatenated copies, for
/// the pipeline (with no per-file parse or executor budget: this measures
/// scaling, not the budgets) and for bare tree-sitter parsing of the same
/// bytes.
fn linearity(unit: &[u8]) -> Linearity {
    let mut opts = Options::default();
    opts.budgets.max_parse_operations = u64::MAX;
    opts.budgets.max_file_steps = u64::MAX;
    let big: Vec<u8> = unit.repeat(100);
    let best_per_byte = |bytes: &[u8], f: &mut dyn FnMut(&[u8])| {
        let mut best = Duration::MAX;
        for _ in 0..5 {
            let t = Instant::now();
            f(bytes);
            best = best.min(t.elapsed());
        }
        best.as_secs_f64() * 1e9 / bytes.len() as f64
    };
    let mut pipeline = |b: &[u8]| {
        std::hint::black_box(engine::check_source("lin.cu", b, &opts));
    };
    let one = best_per_byte(unit, &mut pipeline);
    let hundred = best_per_byte(&big, &mut pipeline);
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_cuda::LANGUAGE.into())
        .unwrap();
    let mut bare = |b: &[u8]| {
        std::hint::black_box(parser.parse(b, None));
    };
    let bare_one = best_per_byte(unit, &mut bare);
    let bare_hundred = best_per_byte(&big, &mut bare);
    Linearity {
        one,
        hundred,
        bare_one,
        bare_hundred,
    }
}

/// The first `n` lines of the corpus's warp and block headers that pass the
/// prefilter, concatenated: a realistic file an editor would hold.
fn first_lines(corpus: &[(PathBuf, Vec<u8>)], n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut lines = 0;
    for (p, b) in corpus {
        let p = p.to_string_lossy();
        if !(p.contains("/cub/warp/") || p.contains("/cub/block/"))
            || !warplint::prefilter::has_warp_code(b)
        {
            continue;
        }
        for line in b.split_inclusive(|&c| c == b'\n') {
            if lines == n {
                return out;
            }
            out.extend_from_slice(line);
            lines += 1;
        }
    }
    out
}

/// Median and max of 30 re-lints of the same buffer, after one warm-up.
fn relint_time(bytes: &[u8]) -> (Duration, Duration) {
    let opts = Options::default();
    std::hint::black_box(engine::check_source("lsp.cu", bytes, &opts));
    let mut times: Vec<Duration> = (0..30)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(engine::check_source("lsp.cu", bytes, &opts));
            t.elapsed()
        })
        .collect();
    times.sort();
    (times[times.len() / 2], times[times.len() - 1])
}

// ---------------------------------------------------------------------------
// Generated inputs. Deterministic; rewritten only when missing.

fn generate_inputs(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fs::create_dir_all(dir).unwrap();
    type Generator = fn() -> Vec<u8>;
    let gens: [(&str, Generator); 9] = [
        ("many_kernels.cu", || kernels(5_000, "k")),
        // Just under the default parse budget: the costliest file that is
        // analysed in full.
        ("kernels_2500_near_parse_budget.cu", || kernels(2_500, "nb")),
        ("nested_divergent_ifs.cu", nested_ifs),
        ("loops_10000_iterations.cu", long_loops),
        ("huge_shared_arrays.cu", huge_shared),
        ("deep_nesting_100000.cu", deep_nesting),
        ("lsp_5000_lines.cu", lsp_file),
        ("comments_only_50mb.cu", comments_50mb),
        ("kernels_50mb.cu", kernels_50mb),
    ];
    let mut out = Vec::new();
    for (name, make) in gens {
        let path = dir.join(name);
        let bytes = match fs::read(&path) {
            Ok(b) if !b.is_empty() => b,
            _ => {
                let b = make();
                fs::write(&path, &b).unwrap();
                b
            }
        };
        out.push((path, bytes));
    }
    out
}

/// `n` kernels, each a warp reduction with a legacy call, a full mask in a
/// divergent branch, `__activemask()`, shared memory and a barrier.
fn kernels(n: usize, prefix: &str) -> Vec<u8> {
    let mut s = String::new();
    for i in 0..n {
        let _ = write!(
            s,
            "__global__ void {prefix}{i}(float *out, const float *in, int n) {{\n\
             \x20 __shared__ float tile[32];\n\
             \x20 int lane = threadIdx.x & 31;\n\
             \x20 float v = threadIdx.x < n ? in[threadIdx.x] : 0.0f;\n\
             \x20 for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);\n\
             \x20 if (lane < 16) {{ v += __shfl_xor(v, 1); v = __shfl_sync(__activemask(), v, 0); }}\n\
             \x20 tile[lane] = v;\n\
             \x20 __syncwarp();\n\
             \x20 if (threadIdx.x == 0) out[blockIdx.x * {i}] = tile[0];\n\
             }}\n"
        );
    }
    s.into_bytes()
}

fn nested_ifs() -> Vec<u8> {
    let depth = 1_000;
    let mut s = String::from("__global__ void nested(int *p) {\n  int v = p[threadIdx.x];\n");
    for i in 0..depth {
        let _ = writeln!(s, "if ((threadIdx.x + {i}) % {} != 0) {{", i % 31 + 2);
    }
    s.push_str("v = __shfl_down_sync(0xffffffff, v, 1); __syncwarp();\n");
    s.push_str(&"}\n".repeat(depth));
    s.push_str("  p[threadIdx.x] = v;\n}\n");
    s.into_bytes()
}

fn long_loops() -> Vec<u8> {
    let mut s = String::new();
    for k in 0..50 {
        let _ = write!(
            s,
            "__global__ void loop{k}(float *p, int n) {{\n\
             \x20 float v = p[threadIdx.x];\n\
             \x20 for (int i = 0; i < 10000; ++i) {{\n\
             \x20   v += __shfl_down_sync(0xffffffff, v, 1);\n\
             \x20   if (threadIdx.x % 32 < (i % 32)) v = __shfl_xor(v, 2);\n\
             \x20   __syncwarp();\n\
             \x20 }}\n\
             \x20 for (int i = threadIdx.x; i < 10000; i += 7) v += __ballot_sync(0xffffffff, v > i);\n\
             \x20 p[threadIdx.x] = v;\n\
             }}\n"
        );
    }
    s.into_bytes()
}

fn huge_shared() -> Vec<u8> {
    let mut s = String::new();
    for k in 0..50 {
        let _ = write!(
            s,
            "__global__ void shared{k}(float *p) {{\n\
             \x20 __shared__ float big[1 << 24];\n\
             \x20 __shared__ double grid[4096][4096];\n\
             \x20 extern __shared__ float dyn[];\n\
             \x20 unsigned t = threadIdx.x;\n\
             \x20 big[t] = p[t]; grid[t][t] = big[t + 16];\n\
             \x20 if (t < 32) {{ big[t] += big[t + 16]; big[t] += big[t + 8]; big[t] += big[t + 4]; }}\n\
             \x20 dyn[t] = grid[t][0];\n\
             \x20 __syncthreads();\n\
             \x20 p[t] = big[0] + dyn[t];\n\
             }}\n"
        );
    }
    s.into_bytes()
}

fn deep_nesting() -> Vec<u8> {
    let depth = 100_000;
    let mut s = String::from("__device__ int deep(int v) {\n  return ");
    s.push_str(&"(".repeat(depth));
    s.push_str("__shfl(v, 0)");
    s.push_str(&")".repeat(depth));
    s.push_str(";\n}\n__global__ void braces() ");
    s.push_str(&"{".repeat(depth));
    s.push_str(" __syncwarp(); ");
    s.push_str(&"}".repeat(depth));
    s.push('\n');
    s.into_bytes()
}

/// A 5,000-line file of kernels (10 lines each), for the re-lint figure.
fn lsp_file() -> Vec<u8> {
    kernels(500, "edit")
}

/// 50 MB where warp tokens appear only in comments: the prefilter must
/// skip it without parsing.
fn comments_50mb() -> Vec<u8> {
    let line = "int f_x(int a) { return a + 1; } // uses __syncthreads() and __shfl_down_sync\n";
    let mut s = String::with_capacity(50_000_000 + line.len());
    let mut i = 0usize;
    while s.len() < 50_000_000 {
        s.push_str(&line.replace("f_x", &format!("f_{i}")));
        i += 1;
    }
    s.into_bytes()
}

/// 50 MB of kernels: more than any parse budget admits.
fn kernels_50mb() -> Vec<u8> {
    let one = kernels(1, "big");
    let n = 50_000_000 / one.len() + 1;
    kernels(n, "big")
}
