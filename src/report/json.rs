//! The JSON report. Its shape is fixed by `schema/report.schema.json`; bump
//! `version` on any incompatible change.

use std::io::{self, Write};

use serde::Serialize;

use crate::diagnostic::Diagnostic;
use crate::outcome::{RunResult, Stats};

pub const REPORT_VERSION: u32 = 1;

#[derive(Serialize)]
struct Report<'a> {
    version: u32,
    tool: Tool,
    diagnostics: Vec<&'a Diagnostic>,
    errors: Vec<IoError<'a>>,
    stats: Stats,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct IoError<'a> {
    path: &'a str,
    message: &'a str,
}

pub fn write(run: &RunResult, out: &mut dyn Write) -> io::Result<()> {
    let report = Report {
        version: REPORT_VERSION,
        tool: Tool {
            name: "warplint",
            version: env!("CARGO_PKG_VERSION"),
        },
        diagnostics: run.diagnostics().collect(),
        errors: run
            .io_errors
            .iter()
            .map(|(p, m)| IoError {
                path: p,
                message: m,
            })
            .collect(),
        stats: run.stats(),
    };
    serde_json::to_writer_pretty(&mut *out, &report).map_err(io::Error::other)?;
    writeln!(out)
}
