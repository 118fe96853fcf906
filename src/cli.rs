//! The command line. Parsing and dispatch only: every decision about what is
//! a finding lives in the library.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::baseline::{self, Baseline};
pub use crate::config::{BlockDim, parse_block_dim, parse_target_arch};
use crate::diagnostic::MinConfidence;

fn parse_min_confidence(s: &str) -> Result<MinConfidence, String> {
    MinConfidence::parse(s)
        .ok_or_else(|| format!("unknown level `{s}`: expected confirmed, likely or all"))
}
use crate::config::{ConfigSource, Overrides, Resolver, normalize_extension};
use crate::docs;
use crate::engine::{self, Options, RunResult};
use crate::report::{self, Format, ReportOptions};
use crate::rules::{self, RuleSet};
use crate::server::ServerConfig;

/// Exit codes: 0 clean, 1 findings, 2 usage or I/O error.
pub const EXIT_CLEAN: u8 = 0;
pub const EXIT_FINDINGS: u8 = 1;
pub const EXIT_ERROR: u8 = 2;

#[derive(Parser, Debug)]
#[command(
    name = "warplint",
    version,
    about = "Static analyzer for CUDA warp-level synchronization bugs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check CUDA files and directories for warp-synchronization bugs.
    Check(Box<CheckArgs>),
    /// List every rule: code, name, default severity, fix availability.
    Rules {
        /// Output format.
        #[arg(long, value_enum, default_value_t = RulesFormat::Text)]
        format: RulesFormat,
    },
    /// Print a rule's documentation page.
    Explain {
        /// Rule code (WL001) or name (legacy-warp-primitive).
        rule: String,
    },
    /// Run the language server (LSP over stdin/stdout) for editors.
    Server(ServerArgs),
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum RulesFormat {
    Text,
    Json,
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// Files or directories to check (default: `.`); `-` reads standard input.
    paths: Vec<PathBuf>,
    /// Output format (`--output-format` is the same flag).
    #[arg(long, alias = "output-format", value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Apply safe fixes to the files, then report what is left.
    #[arg(long)]
    fix: bool,
    /// With `--fix` or `--diff`: apply unsafe fixes too (they change
    /// behaviour unless an assumption holds; review them).
    #[arg(long)]
    unsafe_fixes: bool,
    /// Print the fixes as a unified diff and change nothing (exit 1 when
    /// there is something to change).
    #[arg(long, conflicts_with = "fix")]
    diff: bool,
    /// Print how many findings each rule has, instead of the findings.
    #[arg(long)]
    statistics: bool,
    /// Print the resolved settings for the first file that would be checked,
    /// and exit.
    #[arg(long)]
    show_settings: bool,
    /// Print the files that would be checked, and exit.
    #[arg(long)]
    show_files: bool,
    /// Add a `// warplint: ignore[CODE] REASON` comment for every current
    /// finding, then report what is left.
    #[arg(long, value_name = "REASON", conflicts_with_all = ["fix", "diff"])]
    add_suppressions: Option<String>,
    /// Only run these rules (comma-separated codes or names, or ALL).
    #[arg(long, value_delimiter = ',')]
    select: Option<Vec<String>>,
    /// Do not run these rules (comma-separated codes or names).
    #[arg(long, value_delimiter = ',')]
    ignore: Vec<String>,
    /// Exit 0 even when there are findings.
    #[arg(long)]
    exit_zero: bool,
    /// Print diagnostics only: no summary line.
    #[arg(short, long)]
    quiet: bool,
    /// Worker threads (default: one per core).
    #[arg(short = 'j', long, value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Also say which files were skipped and which regions did not parse.
    #[arg(short, long)]
    verbose: bool,
    /// Include directory for `#include` resolution (repeatable); searched
    /// before the config's `include-dirs` and a compile database's `-I`.
    #[arg(short = 'I', value_name = "DIR")]
    include_dirs: Vec<PathBuf>,
    /// `compile_commands.json` to take `-I`/`-isystem`/`-D` flags from
    /// (default: one at the checked root or in its `build/`).
    #[arg(long, value_name = "PATH")]
    compile_commands: Option<PathBuf>,
    /// Name to report for input read from `-`.
    #[arg(long, value_name = "PATH")]
    stdin_filename: Option<String>,
    /// File extensions to check unconditionally (default: cu,cuh). Headers
    /// and sources (h, hpp, inl, cpp, cc, …) are checked when they contain
    /// CUDA constructs.
    #[arg(long = "extension", value_delimiter = ',', value_name = "EXT")]
    extensions: Vec<String>,
    /// Block shape to assume where no launch site or `__launch_bounds__`
    /// gives one, e.g. `128` or `16,8`.
    #[arg(long, value_name = "X[,Y[,Z]]", value_parser = parse_block_dim)]
    block_dim: Option<BlockDim>,
    /// Target architectures, e.g. `sm_70,sm_90` (default: sm_70). Code in
    /// `#if` regions that none of them compiles is not checked.
    #[arg(long = "target-arch", value_delimiter = ',', value_name = "sm_NN")]
    target_arch: Vec<String>,
    /// Define a macro for the preprocessor configuration, as nvcc's `-D`
    /// (repeatable; added after the config's `defines`).
    #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]", value_parser = parse_define)]
    defines: Vec<String>,
    /// The CUDA toolkit version the configuration assumes (`CUDA_VERSION`,
    /// `__CUDACC_VER_MAJOR__`), e.g. `12.8` (default 12.8).
    #[arg(long = "cuda-version", value_name = "MAJOR.MINOR", value_parser = parse_cuda_version_arg)]
    cuda_version: Option<(u32, u32)>,
    /// Also report findings the warp executor refuted (proven impossible).
    #[arg(long)]
    show_refuted: bool,
    /// Which findings to report: `confirmed` (a run showed the bug),
    /// `likely` (also undecided ones with direct static evidence; default)
    /// or `all` (also speculative and shape-dependent candidates).
    #[arg(long, value_name = "LEVEL", value_parser = parse_min_confidence)]
    min_confidence: Option<MinConfidence>,
    /// Color for human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// Use this config file for every checked file, instead of the nearest
    /// `warplint.toml` or `.warplint.toml` above each one.
    #[arg(long, value_name = "PATH", conflicts_with = "isolated")]
    config: Option<PathBuf>,
    /// Ignore all config files.
    #[arg(long)]
    isolated: bool,
    /// Apply `exclude` to files named on the command line too (for
    /// pre-commit and editors, which pass every file explicitly).
    #[arg(long)]
    force_exclude: bool,
    /// Ignore `warplint: ignore[…]` comments: report everything they hide.
    #[arg(long)]
    no_suppressions: bool,
    /// Report only findings that this baseline file does not record.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    baseline: Option<PathBuf>,
    /// Record every current finding in FILE and exit 0 (no report).
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<PathBuf>,
    /// Write the report to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Print time per pipeline stage to stderr (for the benchmark; also
    /// `WARPLINT_TIMINGS=text|json`).
    #[arg(
        long,
        hide = true,
        value_enum,
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "text"
    )]
    timings: Option<TimingsFormat>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum TimingsFormat {
    Text,
    Json,
}

#[derive(Args, Debug)]
struct ServerArgs {
    /// Only run these rules (comma-separated codes or names, or ALL).
    #[arg(long, value_delimiter = ',')]
    select: Option<Vec<String>>,
    /// Do not run these rules (comma-separated codes or names).
    #[arg(long, value_delimiter = ',')]
    ignore: Vec<String>,
    /// Block shape to assume where no launch site or `__launch_bounds__`
    /// gives one, e.g. `128` or `16,8`.
    #[arg(long, value_name = "X[,Y[,Z]]", value_parser = parse_block_dim)]
    block_dim: Option<BlockDim>,
    /// Target architectures, e.g. `sm_70,sm_90` (default: sm_70).
    #[arg(long = "target-arch", value_delimiter = ',', value_name = "sm_NN")]
    target_arch: Vec<String>,
    /// Define a macro for the preprocessor configuration, as nvcc's `-D`
    /// (repeatable; added after the config's `defines`).
    #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]", value_parser = parse_define)]
    defines: Vec<String>,
    /// The CUDA toolkit version the configuration assumes (`CUDA_VERSION`,
    /// `__CUDACC_VER_MAJOR__`), e.g. `12.8` (default 12.8).
    #[arg(long = "cuda-version", value_name = "MAJOR.MINOR", value_parser = parse_cuda_version_arg)]
    cuda_version: Option<(u32, u32)>,
    /// Base URL of the rule pages: a diagnostic links to
    /// `{URL}{CODE}-{name}.md`.
    #[arg(long, value_name = "URL")]
    rules_url: Option<String>,
    /// Quiet period after an edit before the document is checked again.
    #[arg(long, value_name = "MS", default_value_t = 150)]
    debounce_ms: u64,
    /// Use this configuration file for every document.
    #[arg(long, value_name = "PATH")]
    config: Option<PathBuf>,
    /// Ignore configuration files.
    #[arg(long, conflicts_with = "config")]
    isolated: bool,
    /// Accepted for editors that always pass it; stdio is the only transport.
    #[arg(long, hide = true)]
    stdio: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Color {
    Auto,
    Always,
    Never,
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                EXIT_ERROR
            } else {
                EXIT_CLEAN
            });
        }
    };
    let code = match cli.command {
        Command::Check(args) => check(*args),
        Command::Rules { format } => list_rules(format),
        Command::Explain { rule } => explain(&rule),
        Command::Server(args) => server(args),
    };
    ExitCode::from(code)
}

fn usage_error(msg: &str) -> u8 {
    eprintln_quiet!("warplint: error: {msg}");
    EXIT_ERROR
}

fn check(args: CheckArgs) -> u8 {
    let wall = std::time::Instant::now();
    let timings = args
        .timings
        .or_else(|| match std::env::var("WARPLINT_TIMINGS").ok()?.as_str() {
            "json" => Some(TimingsFormat::Json),
            "" | "0" => None,
            _ => Some(TimingsFormat::Text),
        });
    crate::timing::set_enabled(timings.is_some());
    // Validate the command line's own rule lists before any config is read.
    if let Err(e) = RuleSet::from_lists(args.select.as_deref(), &args.ignore) {
        return usage_error(&e);
    }
    let mut overrides = Overrides {
        select: args.select.clone(),
        ignore: args.ignore.clone(),
        block_dim: args.block_dim,
        min_confidence: args.min_confidence,
        force_exclude: args.force_exclude,
        cuda_version: args.cuda_version,
        defines: args.defines.clone(),
        ..Overrides::default()
    };
    if !args.target_arch.is_empty() {
        let mut archs = Vec::new();
        for a in &args.target_arch {
            match parse_target_arch(a) {
                Ok(v) => archs.push(v),
                Err(e) => return usage_error(&e),
            }
        }
        overrides.min_arch = archs.into_iter().min();
    }
    if !args.extensions.is_empty() {
        overrides.extensions = Some(
            args.extensions
                .iter()
                .map(|e| normalize_extension(e))
                .collect(),
        );
    }
    let base = Options {
        threads: args.threads.map(usize::from),
        show_refuted: args.show_refuted,
        ignore_suppressions: args.no_suppressions,
        includes: crate::tu::IncludeOptions {
            dirs: args.include_dirs.clone(),
            compile_commands: args.compile_commands.clone(),
            disabled: false,
        },
        ..Options::default()
    };
    let source = match (&args.config, args.isolated) {
        (Some(path), _) => ConfigSource::File(path.clone()),
        (None, true) => ConfigSource::Isolated,
        (None, false) => ConfigSource::Discover,
    };
    let resolver = match Resolver::new(source, overrides, base) {
        Ok(r) => std::sync::Arc::new(r),
        Err(e) => return usage_error(&e.to_string()),
    };

    // A compile database the user names must be usable: analysing without
    // its include paths and macros, unsaid, would look like a clean run.
    if let Some(path) = &args.compile_commands
        && let Err(e) = crate::tu::compile_db::CompileDb::open(path)
    {
        return usage_error(&format!("--compile-commands {}: {e}", path.display()));
    }
    // Read the baseline first: a bad one should fail before a long run.
    let baseline = match &args.baseline {
        Some(path) => match Baseline::load(path) {
            Ok(b) => Some((b, path.clone())),
            Err(e) => return usage_error(&e),
        },
        None => None,
    };

    let stdin_requested = args.paths.iter().any(|p| p.as_os_str() == "-");
    if stdin_requested && args.paths.len() > 1 {
        return usage_error("`-` (standard input) cannot be combined with other paths");
    }
    if stdin_requested && (args.fix || args.add_suppressions.is_some()) {
        return usage_error("standard input cannot be rewritten; use --diff");
    }
    if args.unsafe_fixes && !args.fix && !args.diff {
        return usage_error("--unsafe-fixes needs --fix or --diff");
    }
    if args
        .add_suppressions
        .as_ref()
        .is_some_and(|r| r.trim().is_empty())
    {
        return usage_error("--add-suppressions needs a reason");
    }
    if args.show_files || args.show_settings {
        let paths = if args.paths.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            args.paths.clone()
        };
        let (text, code) = crate::fix::settings::show(&paths, &resolver, args.show_settings);
        return print_stdout(&text).map_or_else(|failed| failed, |()| code);
    }
    let mut run = if stdin_requested {
        let mut bytes = Vec::new();
        if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
            return usage_error(&format!("cannot read standard input: {e}"));
        }
        let name = args.stdin_filename.as_deref().unwrap_or("<stdin>");
        // The config that applies is the one above the file stdin stands for.
        let opts = match resolver.options_for(std::path::Path::new(name)) {
            Ok(o) => o,
            Err(e) => return usage_error(&e.to_string()),
        };
        let excluded =
            args.stdin_filename.is_some() && resolver.is_excluded(std::path::Path::new(name), true);
        let files = if excluded {
            Vec::new()
        } else {
            vec![engine::check_source(name, &bytes, &opts)]
        };
        let mut timings = crate::timing::StageTimes::default();
        for f in &files {
            timings.merge(&f.timings);
        }
        RunResult {
            files,
            timings,
            ..RunResult::default()
        }
    } else {
        let paths = if args.paths.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            args.paths.clone()
        };
        match engine::check_paths_with(&paths, &resolver) {
            Ok(run) => run,
            Err(errors) => {
                for e in &errors {
                    eprintln_quiet!("warplint: error: {e}");
                }
                return EXIT_ERROR;
            }
        }
    };

    for (path, err) in &run.io_errors {
        eprintln_quiet!("warplint: error: {path}: {err}");
    }
    // Always said, not only with --verbose: a file that was not analysed
    // must never look like a clean one.
    for f in &run.files {
        if let Some(reason) = f.not_analysed.as_ref().or(f.partly_analysed.as_ref()) {
            eprintln_quiet!("warplint: warning: {}: {reason}", f.path);
        }
    }
    if let Some(path) = &args.write_baseline {
        return write_baseline(&run, path);
    }
    if let Some((baseline, path)) = baseline {
        let summary = baseline.filter(&mut run, &path);
        report_stale(&summary);
        run.baseline = Some(summary);
    }
    if args.verbose {
        print_verbose(&run);
    }
    if args.fix || args.diff || args.add_suppressions.is_some() {
        let rewrite = crate::fix::run::Rewrite {
            write: !args.diff,
            unsafe_fixes: args.unsafe_fixes,
            suppress_reason: args.add_suppressions.clone(),
        };
        let summary = crate::fix::run::rewrite(&mut run, &resolver, &rewrite);
        if args.diff {
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            let _ = out.write_all(summary.diff.as_bytes());
            let _ = out.flush();
            return if !run.io_errors.is_empty() || summary.io_errors > 0 {
                EXIT_ERROR
            } else if summary.changed_files > 0 {
                EXIT_FINDINGS
            } else {
                EXIT_CLEAN
            };
        }
        if summary.io_errors > 0 {
            return EXIT_ERROR;
        }
    }
    if args.statistics {
        let text = crate::fix::run::statistics(&run, args.format == Format::Json);
        if let Err(failed) = print_stdout(&text) {
            return failed;
        }
        return exit_code(&run, args.exit_zero);
    }

    let color = match args.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            args.output.is_none()
                && std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none()
        }
    };
    let report_opts = ReportOptions {
        format: args.format,
        quiet: args.quiet,
        color,
        verbose: args.verbose,
    };
    let mut clock = crate::timing::Clock::start();
    match &args.output {
        Some(path) => {
            let written = std::fs::File::create(path).and_then(|file| {
                let mut out = std::io::BufWriter::new(file);
                report::write(&run, &report_opts, &mut out)?;
                out.flush()
            });
            if let Err(e) = written {
                let target = path.display();
                eprintln_quiet!("warplint: error: cannot write report to {target}: {e}");
                return EXIT_ERROR;
            }
        }
        None => {
            if let Err(failed) = to_stdout("report", |out| report::write(&run, &report_opts, out)) {
                return failed;
            }
        }
    }
    clock.lap(crate::timing::Stage::Report);
    if let Some(format) = timings {
        run.timings.merge(&clock.finish());
        let threads = args
            .threads
            .map_or_else(rayon::current_num_threads, usize::from);
        print_timings(&run, threads, wall.elapsed(), format);
    }
    exit_code(&run, args.exit_zero)
}

/// 2 if any path could not be read or walked, else 1 if there are findings
/// (unless `exit_zero`), else 0.
pub fn exit_code(run: &RunResult, exit_zero: bool) -> u8 {
    if !run.io_errors.is_empty() {
        EXIT_ERROR
    } else if run.diagnostics().next().is_some() && !exit_zero {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}

/// `--timings`: stage times summed over workers, the wall time, and the
/// slowest file, on stderr.
fn print_timings(run: &RunResult, threads: usize, wall: Duration, f: TimingsFormat) {
    let parsed = run
        .files
        .iter()
        .filter(|f| !f.skipped_by_prefilter && f.io_error.is_none())
        .count();
    let slowest = run
        .files
        .iter()
        .max_by_key(|f| f.timings.total())
        .map(|f| (f.path.as_str(), f.timings.total().as_secs_f64() * 1e3));
    let stages = run.timings.as_millis();
    match f {
        TimingsFormat::Json => {
            let stages: serde_json::Map<String, serde_json::Value> = stages
                .iter()
                .map(|(n, ms)| ((*n).to_owned(), serde_json::json!(ms)))
                .collect();
            let v = serde_json::json!({ "warplint_timings": {
                "wall_ms": wall.as_secs_f64() * 1e3,
                "threads": threads,
                "files": run.files.len(),
                "parsed": parsed,
                "bytes": run.files.iter().map(|f| f.bytes).sum::<usize>(),
                "stages_ms": stages,
                "slowest_file": slowest.map(|(p, ms)| serde_json::json!({"path": p, "ms": ms})),
            }});
            eprintln_quiet!("{v}");
        }
        TimingsFormat::Text => {
            eprintln_quiet!(
                "warplint timings: wall {:.1} ms, {threads} thread(s), {} file(s), {parsed} parsed",
                wall.as_secs_f64() * 1e3,
                run.files.len()
            );
            eprintln_quiet!("  stage        ms (summed over workers)");
            for (name, ms) in stages {
                eprintln_quiet!("  {name:<12} {ms:>10.1}");
            }
            if let Some((path, ms)) = slowest {
                eprintln_quiet!("  slowest file: {path} ({ms:.1} ms)");
            }
        }
    }
}

fn server(args: ServerArgs) -> u8 {
    // Validate rule names up front, as `check` does.
    if let Err(e) = RuleSet::from_lists(args.select.as_deref(), &args.ignore) {
        return usage_error(&e);
    }
    let mut overrides = Overrides {
        select: args.select.clone(),
        ignore: args.ignore.clone(),
        block_dim: args.block_dim,
        ..Overrides::default()
    };
    // The lowest listed target decides, as for `check`.
    let mut archs = Vec::new();
    for a in &args.target_arch {
        match parse_target_arch(a) {
            Ok(v) => archs.push(v),
            Err(e) => return usage_error(&e),
        }
    }
    overrides.min_arch = archs.into_iter().min();
    let mut config = ServerConfig {
        debounce: Duration::from_millis(args.debounce_ms),
        overrides,
        config_source: match (&args.config, args.isolated) {
            (Some(path), _) => ConfigSource::File(path.clone()),
            (None, true) => ConfigSource::Isolated,
            (None, false) => ConfigSource::Discover,
        },
        ..ServerConfig::default()
    };
    // Documents without a config file use the command line alone.
    if let Ok(rules) = RuleSet::from_lists(args.select.as_deref(), &args.ignore) {
        config.options.rules = rules;
    }
    config.options.block_dim = args.block_dim.map(|b| b.0);
    if let Some(min) = config.overrides.min_arch {
        config.options.env.min_arch = min;
    }
    config.overrides.cuda_version = args.cuda_version;
    config.overrides.defines = args.defines.clone();
    if let Some(v) = args.cuda_version {
        config.options.env.cuda_version = v;
    }
    config.options.env.defines = args.defines.clone();
    if let Some(url) = args.rules_url {
        config.rules_base_url = url;
    }
    crate::server::run_stdio(config)
}

fn write_baseline(run: &RunResult, path: &std::path::Path) -> u8 {
    let dir = path.parent().unwrap_or(std::path::Path::new(""));
    let baseline = Baseline::from_run(run, dir);
    if let Err(e) = std::fs::write(path, baseline.to_json()) {
        return usage_error(&format!("cannot write baseline {}: {e}", path.display()));
    }
    eprintln_quiet!(
        "warplint: wrote {} baseline entr{} to {}",
        baseline.entries.len(),
        if baseline.entries.len() == 1 {
            "y"
        } else {
            "ies"
        },
        path.display()
    );
    if run.io_errors.is_empty() {
        EXIT_CLEAN
    } else {
        EXIT_ERROR
    }
}

fn report_stale(summary: &baseline::Summary) {
    for e in &summary.stale {
        eprintln_quiet!(
            "warplint: baseline: stale entry {} {} (line {} when recorded) matches no finding: {}",
            e.path,
            e.code,
            e.line,
            e.message
        );
    }
    let n = summary.stale.len();
    if n > 0 {
        eprintln_quiet!(
            "warplint: {n} baseline entr{} in {} no longer match (fixed?); \
             refresh it with --write-baseline",
            if n == 1 { "y" } else { "ies" },
            summary.file
        );
    }
}

fn print_verbose(run: &RunResult) {
    let stats = run.stats();
    for f in &run.files {
        if f.skipped_by_prefilter {
            eprintln_quiet!("warplint: {}: skipped (no warp-level tokens)", f.path);
        }
        if f.lossy_utf8 {
            eprintln_quiet!(
                "warplint: {}: not valid UTF-8; invalid bytes were replaced",
                f.path
            );
        }
        if !f.parse_error_regions.is_empty() {
            let lines: Vec<String> = f
                .parse_error_regions
                .iter()
                .map(|r| {
                    if r.line == r.end_line {
                        r.line.to_string()
                    } else {
                        format!("{}-{}", r.line, r.end_line)
                    }
                })
                .collect();
            eprintln_quiet!(
                "warplint: {}: {} region(s) could not be parsed and were skipped (lines {})",
                f.path,
                f.parse_error_regions.len(),
                lines.join(", ")
            );
        }
    }
    eprintln_quiet!(
        "warplint: {} file(s) checked, {} skipped by the prefilter, {} with parse errors",
        stats.files_checked,
        stats.files_skipped_by_prefilter,
        stats.files_with_parse_errors
    );
    let pct = if stats.functions == 0 {
        0.0
    } else {
        100.0 * stats.functions_with_parse_errors as f64 / stats.functions as f64
    };
    eprintln_quiet!(
        "warplint: {} function definition(s) parsed, {} ({pct:.1}%) with parse errors",
        stats.functions,
        stats.functions_with_parse_errors
    );
    let worst = run
        .files
        .iter()
        .filter_map(|f| f.executor_worst.as_ref().map(|w| (&f.path, w)))
        .max_by_key(|(_, w)| w.1);
    eprintln_quiet!(
        "warplint: {} function(s) analysed, {} warp execution(s) run",
        stats.functions_analyzed,
        stats.executor_runs
    );
    if let Some((path, (name, steps, time))) = worst {
        eprintln_quiet!(
            "warplint: costliest function for the executor: `{name}` in {path}: {steps} steps, {:.1} ms",
            time.as_secs_f64() * 1000.0
        );
    }
    eprintln_quiet!(
        "warplint: translation units: {} include(s) resolved, {} header(s) lowered, {} not followed (budgets), {} name(s) not found, {} file(s) configured again with their headers' macros, {} file(s) of HIP code not checked",
        stats.includes_resolved,
        stats.headers_lowered,
        stats.includes_cut,
        stats.missing_includes.len(),
        stats.files_configured_with_header_macros,
        stats.files_hip_code
    );
    for (name, files) in &stats.missing_includes {
        eprintln_quiet!("warplint: include not found: {name} (in {files} file(s))");
    }
}

fn parse_define(s: &str) -> Result<String, String> {
    crate::config::check_define(s).map(|()| s.to_owned())
}

fn parse_cuda_version_arg(s: &str) -> Result<(u32, u32), String> {
    crate::frontend::preproc::parse_cuda_version(s)
        .ok_or_else(|| format!("invalid CUDA version `{s}`, expected MAJOR.MINOR such as 12.8"))
}

/// Write `what` (the report, a listing) on standard output with `write`.
/// A reader that closed the pipe (`| head`) is the reader's choice: the
/// output ends quietly, with the exit code of an I/O error (`Err`); another
/// write error is also said.
fn to_stdout(
    what: &str,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), u8> {
    let mut out = std::io::stdout().lock();
    match write(&mut out).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(EXIT_ERROR),
        Err(e) => {
            eprintln_quiet!("warplint: error: cannot write {what} to standard output: {e}");
            Err(EXIT_ERROR)
        }
    }
}

/// [`to_stdout`] for text already built.
fn print_stdout(text: &str) -> Result<(), u8> {
    to_stdout("output", |out| out.write_all(text.as_bytes()))
}

fn list_rules(format: RulesFormat) -> u8 {
    let text = match format {
        RulesFormat::Text => {
            let mut text = format!(
                "{:<7} {:<38} {:<9} {:<5} summary\n",
                "code", "name", "severity", "fix"
            );
            for m in rules::all_meta() {
                text.push_str(&format!(
                    "{:<7} {:<38} {:<9} {:<5} {}\n",
                    m.code,
                    m.name,
                    m.severity.to_string(),
                    if m.has_fix { "yes" } else { "no" },
                    m.summary
                ));
            }
            text
        }
        RulesFormat::Json => {
            let list: Vec<_> = rules::all_meta()
                .map(|m| {
                    serde_json::json!({
                        "code": m.code,
                        "name": m.name,
                        "severity": m.severity,
                        "fix": m.has_fix,
                        "summary": m.summary,
                    })
                })
                .collect();
            serde_json::to_string_pretty(&list).unwrap_or_default() + "\n"
        }
    };
    print_stdout(&text).map_or_else(|failed| failed, |()| EXIT_CLEAN)
}

fn explain(key: &str) -> u8 {
    match rules::lookup(key) {
        Some(meta) => {
            let page = docs::RulePage::parse(meta.page).render_terminal();
            print_stdout(&page).map_or_else(|failed| failed, |()| EXIT_CLEAN)
        }
        None => usage_error(&format!(
            "unknown rule `{key}` (see `warplint rules` for codes and names)"
        )),
    }
}
