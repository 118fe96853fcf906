//! GitHub Actions workflow commands: one `::error` or `::warning` line per
//! finding, which the Actions runner turns into annotations on the diff.
//!
//! `::error file=F,line=L,col=C,endLine=EL,endColumn=EC,title=T::MESSAGE`
//!
//! Escaping follows the runner's rules: in the message `%`, `\r` and `\n`
//! are percent-encoded; in properties `:` and `,` are as well.

use std::io::{self, Write};

use crate::diagnostic::Severity;
use crate::outcome::RunResult;

pub fn write(run: &RunResult, out: &mut dyn Write) -> io::Result<()> {
    for d in run.diagnostics() {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut message = d.message.clone();
        if let Some(help) = &d.help {
            message.push_str("\nhelp: ");
            message.push_str(help);
        }
        writeln!(
            out,
            "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}",
            escape_property(&d.path),
            d.span.line,
            d.span.column,
            d.span.end_line,
            d.span.end_column,
            escape_property(&format!("{} ({})", d.code, d.name)),
            escape_data(&message),
        )?;
    }
    for (path, message) in &run.io_errors {
        writeln!(
            out,
            "::error file={},title={}::{}",
            escape_property(path),
            escape_property("warplint: cannot read"),
            escape_data(message)
        )?;
    }
    Ok(())
}

/// The message part of a workflow command.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A `key=value` property of a workflow command.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_the_runner() {
        assert_eq!(escape_data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(escape_property("C:\\x,y%\n"), "C%3A\\x%2Cy%25%0A");
    }
}
