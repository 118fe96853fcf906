//! Stage 7: reports. Every format renders the same sorted diagnostics.

mod concise;
pub mod github;
mod human;
mod json;
pub mod sarif;

use std::io::{self, Write};

use clap::ValueEnum;

use crate::outcome::RunResult;

pub use human::render_diagnostic;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Source snippets with labels (miette).
    Human,
    /// One line per finding: `path:line:col: CODE message`.
    Concise,
    /// Machine-readable report; see `schema/report.schema.json`.
    Json,
    /// SARIF 2.1.0 (GitHub code scanning, IDE viewers).
    Sarif,
    /// GitHub Actions annotations (`::error file=…::message`).
    Github,
}

pub struct ReportOptions {
    pub format: Format,
    pub quiet: bool,
    pub color: bool,
    pub verbose: bool,
}

pub fn write(run: &RunResult, opts: &ReportOptions, out: &mut dyn Write) -> io::Result<()> {
    match opts.format {
        Format::Human => human::write(run, opts, out),
        Format::Concise => concise::write(run, opts, out),
        Format::Json => json::write(run, out),
        Format::Sarif => sarif::write(run, out),
        Format::Github => github::write(run, out),
    }
}

/// The summary line both text formats end with.
fn summary(run: &RunResult) -> String {
    let stats = run.stats();
    let n = stats.diagnostics;
    let files = stats.files_checked;
    let fw = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let hidden = match &run.baseline {
        Some(b) if b.matched > 0 => format!("; {} hidden by the baseline", b.matched),
        _ => String::new(),
    };
    if n == 0 {
        format!(
            "No problems found ({} checked{hidden}).",
            fw(files, "file", "files")
        )
    } else {
        let with: std::collections::BTreeSet<&str> =
            run.diagnostics().map(|d| d.path.as_str()).collect();
        format!(
            "Found {} in {} ({} checked{hidden}).",
            fw(n, "problem", "problems"),
            fw(with.len(), "file", "files"),
            fw(files, "file", "files"),
        )
    }
}
