//! The corpus benchmark: `cargo bench --bench corpus`.
//!
//! It measures whatever the pipeline is when it runs (the stages come from
//! `warplint::timing`), on:
//! - the four real-code corpora of `benches/fetch_corpora.py` (cuda-cccl,
//!   CuPy, CUTLASS, FlashInfer), fetched once with pip into `.bench-cache/`
//!   (never committed);
//! - generated large and adversarial inputs in `.bench-cache/generated/`.
//!
//! Per corpus: files and MB (what discovery takes), `warplint check -j2` on
//! the whole tree in a child process (wall time, peak RSS, per-stage laps,
//! functions), a bare single-threaded tree-sitter-cuda parse of the same
//! files in this process and the ratio, and every file timed alone on one
//! thread in a watched child process: a file that runs past the watchdog
//! (`--file-limit-s`, default 20 s) is killed, named and counted over
//! budget, so one pathological file cannot stall the benchmark; the whole
//! tree is likewise given up after `--tree-limit-s` (default 900 s).
//!
//! It prints a report, writes it as JSON to `.bench-cache/results.json`, and
//! checks the budgets of issues 6 and 9. Options (after `--`): `--strict`
//! exits 1 when a budget is missed; `--corpora a,b` (or
//! `WARPLINT_BENCH_CORPORA`) limits the corpora; `--no-generated` skips
//! the generated inputs, linearity and re-lint figures.

use std::fmt::Write as _;
use std::fs;
use std::io::{BufRead, BufReader, Write as _};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use warplint::discover::{self, DiscoverOptions};
use warplint::engine::{self, Options};
use warplint::timing;

const BIN: &str = env!("CARGO_BIN_EXE_warplint");
const CORPORA: [&str; 4] = ["cccl", "cupy", "cutlass", "flashinfer"];
/// Threads for the whole-tree run (the CI machine has two cores).
const TREE_THREADS: usize = 2;

/// Issue 6's and 9's budgets.
const BUDGET_RATIO: f64 = 0.5;
const BUDGET_RSS_MB: f64 = 150.0;
const BUDGET_RSS_MB_FLASHINFER: f64 = 500.0;
const BUDGET_LINEARITY: f64 = 1.2;
const BUDGET_FILE_S: f64 = 1.0;
const BUDGET_RELINT_MS: f64 = 30.0;

struct Args {
    strict: bool,
    corpora: Vec<String>,
    generated: bool,
    file_limit: Duration,
    tree_limit: Duration,
}

fn parse_args() -> Args {
    let mut args = Args {
        strict: false,
        corpora: std::env::var("WARPLINT_BENCH_CORPORA")
            .ok()
            .filter(|v| !v.trim().is_empty())
            .map_or_else(
                || CORPORA.iter().map(|s| s.to_string()).collect(),
                |v| v.split(',').map(|s| s.trim().to_owned()).collect(),
            ),
        generated: true,
        file_limit: Duration::from_secs(20),
        tree_limit: Duration::from_secs(900),
    };
    let secs = |v: Option<String>, default: Duration| {
        v.and_then(|v| v.parse::<f64>().ok())
            .map_or(default, Duration::from_secs_f64)
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--strict" => args.strict = true,
            "--no-generated" => args.generated = false,
            "--corpora" => {
                if let Some(v) = it.next() {
                    args.corpora = v.split(',').map(|s| s.trim().to_owned()).collect();
                }
            }
            "--file-limit-s" => args.file_limit = secs(it.next(), args.file_limit),
            "--tree-limit-s" => args.tree_limit = secs(it.next(), args.tree_limit),
            _ => {} // `cargo bench` passes `--bench`
        }
    }
    args.corpora.retain(|c| {
        let known = CORPORA.contains(&c.as_str());
        if !known {
            eprintln!("corpus bench: unknown corpus {c:?} ignored (known: {CORPORA:?})");
        }
        known
    });
    args
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    match argv.get(1).map(String::as_str) {
        Some("--measure-child") if argv.len() > 4 => {
            measure_child(Path::new(&argv[2]), &argv[3], &argv[4..])
        }
        Some("--per-file-child") if argv.len() == 4 => {
            per_file_child(Path::new(&argv[2]), argv[3].parse().unwrap_or(0))
        }
        _ => {}
    }
    let args = parse_args();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let cache = root.join(".bench-cache");
    let mut report = Report::default();

    report.line(format!(
        "machine: {} logical CPU(s), {}; warplint {} ({} profile), commit {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu_model(),
        env!("CARGO_PKG_VERSION"),
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "optimized"
        },
        git_commit(&root),
    ));
    report.json("commit", git_commit(&root));

    let mut budgets: Vec<(String, bool, String)> = Vec::new();
    let mut table = vec![
        "| corpus | files | MB | check -j2 | bare parse (1 thread) | ratio | slowest file | files over 1 s | peak RSS |".to_owned(),
        "|---|---:|---:|---:|---:|---:|---|---:|---:|".to_owned(),
    ];
    let mut corpora_json = serde_json::Map::new();
    let mut cccl_files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    for name in &args.corpora {
        let dir = match ensure_corpus(&cache, name) {
            Ok(dir) => dir,
            Err(e) => {
                eprintln!("corpus bench: cannot fetch corpus {name}: {e}");
                budgets.push((format!("{name}: corpus present"), false, e));
                continue;
            }
        };
        let m = measure_corpus(name, &dir, &cache, &args, &mut report);
        let rss_budget = if name == "flashinfer" {
            BUDGET_RSS_MB_FLASHINFER
        } else {
            BUDGET_RSS_MB
        };
        let ratio_text = m
            .ratio
            .map_or_else(|| "did not finish".to_owned(), |r| format!("{r:.3}×"));
        budgets.push((
            format!("{name}: check -j{TREE_THREADS} ≤ {BUDGET_RATIO}× bare parse"),
            m.ratio.is_some_and(|r| r <= BUDGET_RATIO),
            ratio_text.clone(),
        ));
        budgets.push((
            format!("{name}: no file ≥ {BUDGET_FILE_S} s"),
            m.slowest.1 < Duration::from_secs_f64(BUDGET_FILE_S) && m.over_limit.is_empty(),
            format!(
                "{} {:.0} ms{}",
                m.slowest.0,
                ms(m.slowest.1),
                if m.over_limit.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; {} file(s) killed after the {:.0} s watchdog",
                        m.over_limit.len(),
                        args.file_limit.as_secs_f64()
                    )
                }
            ),
        ));
        budgets.push((
            format!("{name}: peak RSS ≤ {rss_budget} MB"),
            m.peak_rss_mb <= rss_budget && m.ratio.is_some(),
            format!("{:.1} MB", m.peak_rss_mb),
        ));
        table.push(format!(
            "| {name} | {} | {:.1} | {} | {:.1} s | {ratio_text} | `{}` {:.2} s | {} | {:.0} MB |",
            m.files,
            mb(m.bytes),
            m.tree_wall.map_or_else(
                || format!("> {:.0} s", args.tree_limit.as_secs_f64()),
                |w| format!("{:.1} s", w.as_secs_f64())
            ),
            m.bare.as_secs_f64(),
            m.slowest.0.rsplit('/').next().unwrap_or(""),
            m.slowest.1.as_secs_f64(),
            m.over_budget_files + m.over_limit.len(),
            m.peak_rss_mb,
        ));
        corpora_json.insert(name.clone(), m.json);
        if name == "cccl" {
            cccl_files = m.files_for_generated;
        }
    }
    report.json("corpora", corpora_json);
    report.line("table (Markdown):".to_owned());
    for row in &table {
        report.line(row.clone());
    }
    report.json("table_markdown", table.join("\n"));

    if args.generated {
        generated_part(&root, &cache, &cccl_files, &mut report, &mut budgets);
    }

    report.line("budgets:".to_owned());
    let mut all_met = true;
    for (name, ok, value) in &budgets {
        all_met &= ok;
        report.line(format!(
            "  [{}] {name}: {value}",
            if *ok { "met" } else { "MISSED" }
        ));
    }
    report.json(
        "budgets",
        budgets
            .iter()
            .map(|(n, ok, v)| serde_json::json!({"budget": n, "met": ok, "value": v}))
            .collect::<Vec<_>>(),
    );
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

/// What [`measure_corpus`] found on one corpus.
struct CorpusFigures {
    files: usize,
    bytes: usize,
    bare: Duration,
    /// `None` when the whole-tree run was given up.
    tree_wall: Option<Duration>,
    ratio: Option<f64>,
    peak_rss_mb: f64,
    slowest: (String, Duration),
    /// Files at or over the 1 s budget that finished.
    over_budget_files: usize,
    /// Files the watchdog killed.
    over_limit: Vec<String>,
    json: serde_json::Value,
    /// cccl's `.cuh` headers, kept for the linearity and re-lint figures.
    files_for_generated: Vec<(PathBuf, Vec<u8>)>,
}

fn measure_corpus(
    name: &str,
    dir: &Path,
    cache: &Path,
    args: &Args,
    report: &mut Report,
) -> CorpusFigures {
    let mut json = serde_json::Map::new();
    // The files discovery takes (headers only when they look like CUDA),
    // in memory for the bare parse.
    let (candidates, _) = discover::discover(&[dir.to_path_buf()], &DiscoverOptions::default());
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    for c in &candidates {
        if let Ok(b) = fs::read(&c.path)
            && (!c.sniff || warplint::prefilter::looks_like_cuda(&b))
        {
            files.push((c.path.clone(), b));
        }
    }
    let bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
    let file_count = files.len();
    let passing = files
        .iter()
        .filter(|(_, b)| warplint::prefilter::has_warp_code(b))
        .count();
    report.line(format!(
        "== {name}: {} files, {:.1} MB; {passing} pass the prefilter",
        files.len(),
        mb(bytes)
    ));
    json.insert("files".into(), files.len().into());
    json.insert("bytes".into(), bytes.into());
    json.insert("files_passing_prefilter".into(), passing.into());

    // 1. Bare single-threaded tree-sitter-cuda parse of the same files.
    let rounds = if bytes < 50_000_000 { 3 } else { 1 };
    let (bare, ops) = bare_parse(&files, rounds);
    report.line(format!(
        "  bare tree-sitter-cuda parse, 1 thread (best of {rounds}): {:.2} s ({:.1} MB/s); \
         {:.1} parser ops/byte",
        bare.as_secs_f64(),
        mb(bytes) / bare.as_secs_f64(),
        ops as f64 / bytes.max(1) as f64
    ));
    json.insert("bare_parse_ms".into(), ms(bare).into());
    let files_for_generated = if name == "cccl" {
        files
            .into_iter()
            .filter(|(p, _)| p.extension().is_some_and(|e| e == "cuh"))
            .collect()
    } else {
        Vec::new()
    };

    // 2. `warplint check -j2 --timings=json` on the whole tree, in a child.
    let tree_args: Vec<String> = vec![
        "check".into(),
        "--format".into(),
        "json".into(),
        format!("-j{TREE_THREADS}"),
        "--timings=json".into(),
    ];
    let tree = run_child(&tree_args, dir, cache, args.tree_limit);
    let peak_rss_mb = tree.max_rss_kb as f64 / 1024.0;
    let (tree_wall, ratio) = if tree.killed {
        report.line(format!(
            "  warplint check -j{TREE_THREADS}: DID NOT FINISH in {:.0} s (killed); peak RSS so far {peak_rss_mb:.1} MB",
            args.tree_limit.as_secs_f64()
        ));
        (None, None)
    } else {
        let ratio = tree.wall.as_secs_f64() / bare.as_secs_f64();
        report.line(format!(
            "  warplint check -j{TREE_THREADS}: {:.2} s ({:.1} MB/s), {ratio:.3}× the bare parse; peak RSS {peak_rss_mb:.1} MB",
            tree.wall.as_secs_f64(),
            mb(bytes) / tree.wall.as_secs_f64(),
        ));
        (Some(tree.wall), Some(ratio))
    };
    json.insert(
        "check_j2_ms".into(),
        tree_wall
            .map(ms)
            .map_or(serde_json::Value::Null, Into::into),
    );
    json.insert(
        "ratio_to_bare_parse".into(),
        ratio.map_or(serde_json::Value::Null, Into::into),
    );
    json.insert("peak_rss_mb".into(), peak_rss_mb.into());
    if let Some(t) = &tree.timings {
        let stages = &t["stages_ms"];
        let mut s = format!("  stages, check -j{TREE_THREADS} (ms summed over workers):");
        for name in timing::Stage::ALL.iter().map(|s| s.name()) {
            let v = stages[name].as_f64().unwrap_or(0.0);
            let _ = write!(s, " {name} {v:.0};");
        }
        report.line(s);
        json.insert("stages_ms".into(), stages.clone());
    }
    if let Some(stats) = &tree.stats {
        // `functions` and `functions_with_parse_errors` where the engine's
        // statistics have them; older ones name the first
        // `functions_analyzed`.
        let mut s = String::from("  stats:");
        for key in [
            "files_checked",
            "files_skipped_by_prefilter",
            "functions",
            "functions_analyzed",
            "functions_with_parse_errors",
            "files_with_parse_errors",
            "diagnostics",
        ] {
            if let Some(v) = stats.get(key) {
                let _ = write!(s, " {key} {v};");
                json.insert(key.into(), v.clone());
            }
        }
        report.line(s);
    }

    // 3. Every file alone, one thread, in a watched child process.
    let per_file = time_each_file(dir, candidates.len(), args.file_limit);
    let mut times: Vec<(PathBuf, Duration)> = per_file.done.clone();
    times.sort_by_key(|(_, d)| std::cmp::Reverse(*d));
    let slowest = times
        .first()
        .map(|(p, d)| (short(p, dir), *d))
        .unwrap_or_default();
    let over_budget_files = times
        .iter()
        .filter(|(_, d)| d.as_secs_f64() >= BUDGET_FILE_S)
        .count();
    report.line(format!(
        "  per file, 1 thread: slowest {} ({:.0} ms); {over_budget_files} file(s) at or over {BUDGET_FILE_S} s",
        slowest.0,
        ms(slowest.1)
    ));
    for (p, d) in times.iter().take(5).skip(1) {
        report.line(format!("    next: {} ({:.0} ms)", short(p, dir), ms(*d)));
    }
    let over_limit: Vec<String> = per_file.killed.iter().map(|p| short(p, dir)).collect();
    for p in &over_limit {
        report.line(format!(
            "    KILLED after {:.0} s: {p}",
            args.file_limit.as_secs_f64()
        ));
    }
    let mut stage_line = String::from("  stages, per-file runs (ms):");
    for (stage, v) in per_file.stages.as_millis() {
        let _ = write!(stage_line, " {stage} {v:.0};");
    }
    report.line(stage_line);
    json.insert(
        "per_file_stages_ms".into(),
        serde_json::Value::Object(
            per_file
                .stages
                .as_millis()
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v.into()))
                .collect(),
        ),
    );
    json.insert("per_file_functions".into(), per_file.functions.into());
    json.insert("slowest_file".into(), slowest.0.clone().into());
    json.insert("slowest_file_ms".into(), ms(slowest.1).into());
    json.insert("files_over_1s".into(), over_budget_files.into());
    json.insert("files_killed".into(), over_limit.clone().into());
    json.insert(
        "file_watchdog_s".into(),
        args.file_limit.as_secs_f64().into(),
    );

    CorpusFigures {
        files: file_count,
        bytes,
        bare,
        tree_wall,
        ratio,
        peak_rss_mb,
        slowest,
        over_budget_files,
        over_limit,
        json: serde_json::Value::Object(json),
        files_for_generated,
    }
}

/// Generated inputs, linearity and the language server's re-lint figures
/// (issue 6), on cccl's headers where they are loaded.
fn generated_part(
    root: &Path,
    cache: &Path,
    cccl: &[(PathBuf, Vec<u8>)],
    report: &mut Report,
    budgets: &mut Vec<(String, bool, String)>,
) {
    let generated_dir = cache.join("generated");
    let generated = generate_inputs(&generated_dir);
    timing::set_enabled(true);
    let opts = Options::default();
    let mut slowest = (String::new(), Duration::ZERO);
    report.line("generated inputs (in process, one thread):".to_owned());
    for (path, bytes) in &generated {
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
        let name = short(path, root);
        report.line(format!(
            "  {:<34} {:>8.2} MB {:>9.1} ms  {what}",
            name.rsplit('/').next().unwrap_or(&name),
            mb(bytes.len()),
            ms(took)
        ));
        if took > slowest.1 {
            slowest = (name, took);
        }
    }
    timing::set_enabled(false);
    report.json("generated_slowest_file", &slowest.0);
    report.json("generated_slowest_file_ms", ms(slowest.1));
    budgets.push((
        format!("generated: no file ≥ {BUDGET_FILE_S} s"),
        slowest.1.as_secs_f64() < BUDGET_FILE_S,
        format!("{} {:.0} ms", slowest.0, ms(slowest.1)),
    ));
    let check_args: Vec<String> = vec!["check".into(), "--format".into(), "json".into()];
    let gen_run = run_child(&check_args, &generated_dir, cache, Duration::from_secs(600));
    report.line(format!(
        "warplint check on generated/ (child): {:.1} ms, peak RSS {:.1} MB",
        ms(gen_run.wall),
        gen_run.max_rss_kb as f64 / 1024.0
    ));
    report.json("generated_check_ms", ms(gen_run.wall));
    report.json("generated_peak_rss_mb", gen_run.max_rss_kb as f64 / 1024.0);

    // Linearity: per-byte cost of 100 concatenated copies vs one copy, for
    // the pipeline and, as the floor it cannot beat, bare parsing.
    let unit = linearity_unit(cccl);
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
    budgets.push((
        format!("linear: 100 copies ≤ {BUDGET_LINEARITY}× per byte"),
        lin_ratio <= BUDGET_LINEARITY,
        format!(
            "{lin_ratio:.2}× (bare tree-sitter parse alone: {:.2}×)",
            lin.bare_hundred / lin.bare_one
        ),
    ));

    // Language-server re-lint of a 5,000-line file: real CUB code (the
    // budget), and dense generated kernels (a harder case, reported).
    let real_5000 = first_lines(cccl, 5_000);
    let dense_5000 = generated
        .iter()
        .find(|(p, _)| p.ends_with("lsp_5000_lines.cu"))
        .map(|(_, b)| b.clone())
        .unwrap_or_default();
    let relint_dense = relint_time(&dense_5000);
    if !real_5000.is_empty() {
        let relint = relint_time(&real_5000);
        report.line(format!(
            "re-lint of 5,000 lines of CUB ({:.0} KB, engine::check_source): median {:.2} ms, max {:.2} ms",
            real_5000.len() as f64 / 1024.0,
            ms(relint.0),
            ms(relint.1)
        ));
        report.json("relint_5000_lines_median_ms", ms(relint.0));
        report.json("relint_5000_lines_max_ms", ms(relint.1));
        budgets.push((
            format!("re-lint 5,000 lines ≤ {BUDGET_RELINT_MS} ms"),
            ms(relint.0) <= BUDGET_RELINT_MS,
            format!("{:.1} ms", ms(relint.0)),
        ));
    }
    report.line(format!(
        "re-lint of 5,000 lines of dense generated kernels ({:.0} KB): median {:.2} ms, max {:.2} ms",
        dense_5000.len() as f64 / 1024.0,
        ms(relint_dense.0),
        ms(relint_dense.1)
    ));
    report.json("relint_5000_dense_lines_median_ms", ms(relint_dense.0));
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
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
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

fn git_commit(root: &Path) -> String {
    Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "unknown".to_owned())
}

/// Fetch one corpus with `benches/fetch_corpora.py` (once; the same script
/// `.ci/run` and `tests/realcode.rs` rely on).
fn ensure_corpus(cache: &Path, name: &str) -> Result<PathBuf, String> {
    let dir = cache.join(name);
    if dir.join(".complete").exists() {
        return Ok(dir);
    }
    eprintln!(
        "corpus bench: fetching {name} with pip into {}",
        cache.display()
    );
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/fetch_corpora.py");
    let status = Command::new(&python)
        .arg(script)
        .arg(format!("--only={name}"))
        .arg(cache)
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("{python}: {e}"))?;
    if !status.success() || !dir.join(".complete").exists() {
        return Err(format!("benches/fetch_corpora.py failed: {status}"));
    }
    Ok(dir)
}

/// The best of `rounds` single-threaded parses of every file (bytes already
/// in memory), plus the parser operations they took (counted separately, so
/// the callback does not slow the timed runs).
fn bare_parse(files: &[(PathBuf, Vec<u8>)], rounds: usize) -> (Duration, u64) {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_cuda::LANGUAGE.into())
        .unwrap();
    let mut best = Duration::MAX;
    for _ in 0..rounds {
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
    killed: bool,
    timings: Option<serde_json::Value>,
    stats: Option<serde_json::Value>,
}

/// Run `warplint ARGS DIR`, measure its wall time and peak RSS, and kill it
/// after `limit`.
///
/// Linux charges a child the peak RSS of the process it was forked (or
/// vforked) from until it calls exec, and this process holds a corpus in
/// memory. So the child is started by a fresh, small copy of this binary
/// (`--measure-child`), which reaps it with `wait4` and writes its figures
/// to a file.
fn run_child(args: &[String], dir: &Path, cache: &Path, limit: Duration) -> ChildRun {
    let stdout = fs::File::create(cache.join("last-stdout.txt")).unwrap();
    let stderr = fs::File::create(cache.join("last-stderr.txt")).unwrap();
    let figures = cache.join("last-rusage.txt");
    let status = Command::new(std::env::current_exe().unwrap())
        .arg("--measure-child")
        .arg(&figures)
        .arg(limit.as_secs_f64().to_string())
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
    let killed = code == -2;
    assert!(
        killed || (0..=2).contains(&code),
        "warplint {args:?} {} ended with status {code}",
        dir.display()
    );
    let err = fs::read_to_string(cache.join("last-stderr.txt")).unwrap_or_default();
    let timings = err
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find_map(|v| v.get("warplint_timings").cloned());
    let stats = fs::read(cache.join("last-stdout.txt"))
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|v| v.get("stats").cloned());
    ChildRun {
        wall: Duration::from_nanos(wall_ns as u64),
        max_rss_kb,
        killed,
        timings,
        stats,
    }
}

/// `--measure-child FILE LIMIT_S CMD ARGS…`: run CMD (inheriting stdio),
/// kill it after LIMIT_S seconds, reap it with `wait4`, write
/// "wall_ns max_rss_kb exit_code" to FILE (exit code -2: killed).
fn measure_child(figures: &Path, limit: &str, cmd: &[String]) -> ! {
    let limit = Duration::from_secs_f64(limit.parse().unwrap_or(600.0));
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
    let mut killed = false;
    let rc = loop {
        // SAFETY: as above; WNOHANG returns 0 while the child runs.
        let rc = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if rc != 0 {
            break rc;
        }
        if t.elapsed() > limit && !killed {
            // SAFETY: pid is our own unreaped child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            killed = true;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let wall = t.elapsed();
    assert_eq!(rc, pid, "wait4 failed");
    let code = if killed {
        -2
    } else if libc::WIFEXITED(status) {
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

/// Per-file figures from [`time_each_file`].
#[derive(Default)]
struct PerFile {
    done: Vec<(PathBuf, Duration)>,
    killed: Vec<PathBuf>,
    stages: timing::StageTimes,
    functions: usize,
}

/// Time every candidate under `dir` alone, on one thread, in a child
/// process (`--per-file-child`) that reports each file as it starts and
/// ends. A file still running after `limit` has its child killed and is
/// named; a new child goes on with the next file.
fn time_each_file(dir: &Path, count: usize, limit: Duration) -> PerFile {
    let mut out = PerFile::default();
    let mut next = 0usize;
    while next < count {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .arg("--per-file-child")
            .arg(dir)
            .arg(next.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the per-file child");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel::<String>();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut current: Option<PathBuf> = None;
        let mut ended_cleanly = false;
        loop {
            match rx.recv_timeout(limit) {
                Ok(line) => {
                    let mut parts = line.splitn(4, '\t');
                    match (parts.next(), parts.next()) {
                        (Some("S"), Some(i)) => {
                            next = i.parse::<usize>().unwrap_or(next);
                            current = parts.next().map(PathBuf::from);
                        }
                        (Some("D"), Some(ns)) => {
                            let took = Duration::from_nanos(ns.parse().unwrap_or(0));
                            let rest = parts.next().unwrap_or("");
                            next += 1;
                            if rest == "skip" {
                                current = None;
                                continue;
                            }
                            let mut fields = rest.split(',');
                            out.functions += fields
                                .next()
                                .and_then(|f| f.parse::<usize>().ok())
                                .unwrap_or(0);
                            for (stage, v) in timing::Stage::ALL.iter().zip(fields) {
                                out.stages
                                    .add(*stage, Duration::from_nanos(v.parse().unwrap_or(0)));
                            }
                            if let Some(p) = current.take() {
                                out.done.push((p, took));
                            }
                        }
                        (Some("END"), _) => {
                            ended_cleanly = true;
                            break;
                        }
                        _ => {}
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let _ = child.kill();
                    if let Some(p) = current.take() {
                        eprintln!(
                            "corpus bench: killed after {:.0} s: {}",
                            limit.as_secs_f64(),
                            p.display()
                        );
                        out.killed.push(p);
                    }
                    next += 1;
                    break;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    // The child died (a crash is a finding in itself).
                    if let Some(p) = current.take() {
                        eprintln!("corpus bench: the child died on {}", p.display());
                        out.killed.push(p);
                    }
                    next += 1;
                    break;
                }
            }
        }
        let _ = child.wait();
        let _ = reader.join();
        if ended_cleanly {
            break;
        }
    }
    out
}

/// `--per-file-child DIR START`: check the candidates of DIR from index
/// START on, one at a time, printing `S\tindex\tpath` before each and
/// `D\tnanoseconds\tfunctions,stage_ns,…` (or `skip` for a header that
/// is not CUDA) after it, then `END`.
fn per_file_child(dir: &Path, start: usize) -> ! {
    timing::set_enabled(true);
    let opts = Options {
        threads: Some(1),
        ..Options::default()
    };
    let (candidates, _) = discover::discover(&[dir.to_path_buf()], &opts.discover);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (i, c) in candidates.iter().enumerate().skip(start) {
        let _ = writeln!(out, "S\t{i}\t{}", c.path.display());
        let _ = out.flush();
        let t = Instant::now();
        let outcome = engine::check_file(c, &opts);
        let took = t.elapsed();
        // `None`: a header that does not look like CUDA, not checked.
        let mut fields = outcome
            .as_ref()
            .map_or("skip".to_owned(), |o| o.functions.to_string());
        if let Some(o) = &outcome {
            for stage in timing::Stage::ALL {
                let _ = write!(fields, ",{}", o.timings.get(*stage).as_nanos());
            }
        }
        let _ = writeln!(out, "D\t{}\t{fields}", took.as_nanos());
        let _ = out.flush();
    }
    let _ = writeln!(out, "END");
    let _ = out.flush();
    std::process::exit(0)
}
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
