//! The command line. Parsing and dispatch only: every decision about what is
//! a finding lives in the library.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

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
    Check(CheckArgs),
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
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
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
    /// Also report findings the warp executor refuted.
    #[arg(long)]
    show_refuted: bool,
    /// Color for human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
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
    /// Base URL of the rule pages: a diagnostic links to
    /// `{URL}{CODE}-{name}.md`.
    #[arg(long, value_name = "URL")]
    rules_url: Option<String>,
    /// Quiet period after an edit before the document is checked again.
    #[arg(long, value_name = "MS", default_value_t = 150)]
    debounce_ms: u64,
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

#[derive(Debug, Clone, Copy)]
pub struct BlockDim(pub [u32; 3]);

/// `128`, `16,8` or `8,8,4`: every dimension at least 1.
pub fn parse_block_dim(s: &str) -> Result<BlockDim, String> {
    let parts: Vec<&str> = s.split([',', 'x']).map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("expected X[,Y[,Z]], got `{s}`"));
    }
    let mut dim = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        dim[i] = p
            .parse::<u32>()
            .ok()
            .filter(|&v| (1..=1024).contains(&v))
            .ok_or_else(|| format!("block dimension `{p}` is not an integer in 1..=1024"))?;
    }
    if dim.iter().product::<u32>() > 1024 {
        return Err(format!("block `{s}` has more than 1024 threads"));
    }
    Ok(BlockDim(dim))
}

/// `sm_90` / `sm_90a` / `compute_70` / `90` → 900 (the `__CUDA_ARCH__` value).
pub fn parse_target_arch(s: &str) -> Result<i128, String> {
    let digits: String = s
        .trim()
        .trim_start_matches("sm_")
        .trim_start_matches("compute_")
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    match digits.parse::<i128>() {
        Ok(v) if (10..=200).contains(&v) => Ok(v * 10),
        _ => Err(format!(
            "unknown target architecture `{s}` (expected e.g. sm_70)"
        )),
    }
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
        Command::Check(args) => check(args),
        Command::Rules { format } => list_rules(format),
        Command::Explain { rule } => explain(&rule),
        Command::Server(args) => server(args),
    };
    ExitCode::from(code)
}

fn usage_error(msg: &str) -> u8 {
    eprintln!("warplint: error: {msg}");
    EXIT_ERROR
}

fn check(args: CheckArgs) -> u8 {
    let rules = match RuleSet::from_lists(args.select.as_deref(), &args.ignore) {
        Ok(r) => r,
        Err(e) => return usage_error(&e),
    };
    let mut opts = Options {
        rules,
        threads: args.threads.map(usize::from),
        ..Options::default()
    };
    opts.block_dim = args.block_dim.map(|b| b.0);
    opts.show_refuted = args.show_refuted;
    if !args.target_arch.is_empty() {
        let mut archs = Vec::new();
        for a in &args.target_arch {
            match parse_target_arch(a) {
                Ok(v) => archs.push(v),
                Err(e) => return usage_error(&e),
            }
        }
        opts.env.min_arch = archs.into_iter().min().unwrap_or(opts.env.min_arch);
    }
    if !args.extensions.is_empty() {
        opts.discover.extensions = args
            .extensions
            .iter()
            .map(|e| e.trim_start_matches('.').to_ascii_lowercase())
            .collect();
    }

    let stdin_requested = args.paths.iter().any(|p| p.as_os_str() == "-");
    if stdin_requested && args.paths.len() > 1 {
        return usage_error("`-` (standard input) cannot be combined with other paths");
    }
    let run = if stdin_requested {
        let mut bytes = Vec::new();
        if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
            return usage_error(&format!("cannot read standard input: {e}"));
        }
        let name = args.stdin_filename.as_deref().unwrap_or("<stdin>");
        RunResult {
            files: vec![engine::check_source(name, &bytes, &opts)],
            io_errors: Vec::new(),
        }
    } else {
        let paths = if args.paths.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            args.paths.clone()
        };
        engine::check_paths(&paths, &opts)
    };

    for (path, err) in &run.io_errors {
        eprintln!("warplint: error: {path}: {err}");
    }
    if args.verbose {
        print_verbose(&run);
    }

    let color = match args.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let report_opts = ReportOptions {
        format: args.format,
        quiet: args.quiet,
        color,
        verbose: args.verbose,
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let Err(e) = report::write(&run, &report_opts, &mut out).and_then(|_| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("warplint: error: cannot write report: {e}");
        }
        return EXIT_ERROR;
    }

    if !run.io_errors.is_empty() {
        EXIT_ERROR
    } else if run.diagnostics().next().is_some() && !args.exit_zero {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}

fn server(args: ServerArgs) -> u8 {
    let rules = match RuleSet::from_lists(args.select.as_deref(), &args.ignore) {
        Ok(r) => r,
        Err(e) => return usage_error(&e),
    };
    let mut config = ServerConfig {
        debounce: Duration::from_millis(args.debounce_ms),
        ..ServerConfig::default()
    };
    config.options.rules = rules;
    config.options.block_dim = args.block_dim.map(|b| b.0);
    // The lowest listed target decides, as for `check`.
    let mut archs = Vec::new();
    for a in &args.target_arch {
        match parse_target_arch(a) {
            Ok(v) => archs.push(v),
            Err(e) => return usage_error(&e),
        }
    }
    if let Some(min) = archs.into_iter().min() {
        config.options.env.min_arch = min;
    }
    if let Some(url) = args.rules_url {
        config.rules_base_url = url;
    }
    crate::server::run_stdio(config)
}

fn print_verbose(run: &RunResult) {
    let stats = run.stats();
    for f in &run.files {
        if f.skipped_by_prefilter {
            eprintln!("warplint: {}: skipped (no warp-level tokens)", f.path);
        }
        if f.lossy_utf8 {
            eprintln!(
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
            eprintln!(
                "warplint: {}: {} region(s) could not be parsed and were skipped (lines {})",
                f.path,
                f.parse_error_regions.len(),
                lines.join(", ")
            );
        }
    }
    eprintln!(
        "warplint: {} file(s) checked, {} skipped by the prefilter, {} with parse errors",
        stats.files_checked, stats.files_skipped_by_prefilter, stats.files_with_parse_errors
    );
    let worst = run
        .files
        .iter()
        .filter_map(|f| f.executor_worst.as_ref().map(|w| (&f.path, w)))
        .max_by_key(|(_, w)| w.1);
    eprintln!(
        "warplint: {} function(s) analysed, {} warp execution(s) run",
        stats.functions_analyzed, stats.executor_runs
    );
    if let Some((path, (name, steps, time))) = worst {
        eprintln!(
            "warplint: costliest function for the executor: `{name}` in {path}: {steps} steps, {:.1} ms",
            time.as_secs_f64() * 1000.0
        );
    }
}

fn list_rules(format: RulesFormat) -> u8 {
    match format {
        RulesFormat::Text => {
            println!(
                "{:<7} {:<38} {:<9} {:<5} summary",
                "code", "name", "severity", "fix"
            );
            for m in rules::all_meta() {
                println!(
                    "{:<7} {:<38} {:<9} {:<5} {}",
                    m.code,
                    m.name,
                    m.severity.to_string(),
                    if m.has_fix { "yes" } else { "no" },
                    m.summary
                );
            }
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
            println!(
                "{}",
                serde_json::to_string_pretty(&list).unwrap_or_default()
            );
        }
    }
    EXIT_CLEAN
}

fn explain(key: &str) -> u8 {
    match rules::lookup(key) {
        Some(meta) => {
            print!("{}", docs::RulePage::parse(meta.page).render_terminal());
            EXIT_CLEAN
        }
        None => usage_error(&format!(
            "unknown rule `{key}` (see `warplint rules` for codes and names)"
        )),
    }
}
