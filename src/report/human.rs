//! Human output: miette's graphical reports, one per diagnostic, followed by
//! the executor's verdict and witness.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::sync::Arc;

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, MietteError,
    NamedSource, SourceCode, SourceSpan, SpanContents,
};

use super::ReportOptions;
use crate::diagnostic::{Diagnostic, Severity, Status, lane_ranges};
use crate::outcome::RunResult;
use crate::source::SourceFile;

/// Lets miette read from the file the engine already holds, without a copy.
struct Shared(Arc<SourceFile>);

impl SourceCode for Shared {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        self.0.text.read_span(span, before, after)
    }
}

pub fn write(run: &RunResult, opts: &ReportOptions, out: &mut dyn Write) -> io::Result<()> {
    for f in &run.files {
        let Some(source) = &f.source else { continue };
        for d in &f.diagnostics {
            out.write_all(render_diagnostic(d, source, opts.color).as_bytes())?;
        }
    }
    if !opts.quiet {
        writeln!(out, "{}", super::summary(run))?;
    }
    Ok(())
}

pub fn render_diagnostic(d: &Diagnostic, source: &Arc<SourceFile>, color: bool) -> String {
    let mut labels = vec![LabeledSpan::new_primary_with_span(
        Some(d.name.to_owned()),
        (d.span.start, d.span.end - d.span.start),
    )];
    labels.extend(d.labels.iter().map(|l| {
        LabeledSpan::new_with_span(
            Some(l.message.clone()),
            (l.span.start, l.span.end - l.span.start),
        )
    }));
    let mut diag = MietteDiagnostic::new(d.message.clone())
        .with_code(d.code)
        .with_severity(match d.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
        .with_labels(labels);
    if let Some(help) = &d.help {
        diag = diag.with_help(help.clone());
    }
    let report = miette::Report::new(diag)
        .with_source_code(NamedSource::new(d.path.clone(), Shared(Arc::clone(source))));
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let mut out = String::new();
    let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
    if handler.render_report(&mut out, report.as_ref()).is_err() {
        let _ = writeln!(out, "{}:{}: {}", d.path, d.span.line, d.message);
    }
    out.push_str(&verdict(d));
    out.push('\n');
    out
}

/// The executor's verdict, printed under the diagnostic.
fn verdict(d: &Diagnostic) -> String {
    let c = &d.confirmation;
    let mut s = String::new();
    match (&c.status, &c.witness) {
        (Status::Confirmed, Some(w)) => {
            let _ = writeln!(s, "  witness: {}", w.summary);
            for e in &w.events {
                let _ = writeln!(
                    s,
                    "    lanes {} of warp {}: {} (line {})",
                    lane_ranges(e.lanes),
                    w.warp,
                    e.what,
                    e.line
                );
            }
        }
        (status, _) => {
            let reason = c.reason.as_deref().unwrap_or("");
            // How strong the evidence, or which proof: part of the verdict.
            let kind = match (c.evidence, c.proof) {
                (Some(e), _) => format!(" ({})", format!("{e:?}").to_lowercase()),
                (None, Some(p)) => format!(" (proof: {p})"),
                _ => String::new(),
            };
            let _ = writeln!(s, "  {status}{kind}: {reason}");
        }
    }
    s
}
