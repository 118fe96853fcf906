use std::io::{self, Write};

use super::ReportOptions;
use crate::outcome::RunResult;

pub fn write(run: &RunResult, opts: &ReportOptions, out: &mut dyn Write) -> io::Result<()> {
    for d in run.diagnostics() {
        writeln!(
            out,
            "{}:{}:{}: {} {}",
            d.path, d.span.line, d.span.column, d.code, d.message
        )?;
    }
    if !opts.quiet {
        writeln!(out, "{}", super::summary(run))?;
    }
    Ok(())
}
