//! Human output: miette's graphical reports, one per diagnostic, followed by
//! the executor's verdict and witness.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::sync::Arc;

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, MietteError,
    MietteSpanContents, NamedSource, SourceCode, SourceSpan, SpanContents,
};

use super::ReportOptions;
use crate::diagnostic::{Diagnostic, Severity, Status, lane_ranges};
use crate::outcome::RunResult;
use crate::source::SourceFile;

/// Lets miette read from the file the engine already holds, without a
/// copy, and without scanning it from its start for every span: miette's
/// own reader counts lines from the first byte, so a file with thousands
/// of findings took time quadratic in its length to print. A span is read
/// from a window of whole lines around it, with its line numbers shifted
/// by the lines before the window.
#[derive(Clone)]
struct Shared {
    source: Arc<SourceFile>,
    /// False where the text has a lone `\r`, which miette counts as a line
    /// break and [`SourceFile`] does not: such a file is read whole.
    windowed: bool,
}

impl Shared {
    fn new(source: &Arc<SourceFile>) -> Shared {
        let b = source.text.as_bytes();
        let lone_cr = memchr::memchr_iter(b'\r', b).any(|i| b.get(i + 1) != Some(&b'\n'));
        Shared {
            source: Arc::clone(source),
            windowed: !lone_cr,
        }
    }
}

impl SourceCode for Shared {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let source = &self.source;
        if !self.windowed {
            return source.text.read_span(span, before, after);
        }
        // One line more than the context on each side: miette needs to see
        // the line break before the first context line and after the last.
        let first = (source.line(span.offset()))
            .saturating_sub(before + 1)
            .max(1);
        let last = source.line(span.offset() + span.len()) + after + 1;
        let start = source.line_start(first);
        let end = if last < source.line_count() {
            source.line_start(last + 1)
        } else {
            source.text.len()
        };
        let window = &source.text.as_bytes()[start..end];
        let inner = SourceSpan::new(span.offset().saturating_sub(start).into(), span.len());
        let read = window.read_span(&inner, before, after)?;
        let lines_before = first - 1;
        Ok(Box::new(MietteSpanContents::new(
            read.data(),
            SourceSpan::new((read.span().offset() + start).into(), read.span().len()),
            read.line() + lines_before,
            read.column(),
            read.line_count() + lines_before,
        )))
    }
}

pub fn write(run: &RunResult, opts: &ReportOptions, out: &mut dyn Write) -> io::Result<()> {
    for f in &run.files {
        let Some(source) = &f.source else { continue };
        let reader = Shared::new(source);
        for d in &f.diagnostics {
            out.write_all(render(d, reader.clone(), opts.color).as_bytes())?;
        }
    }
    if !opts.quiet {
        writeln!(out, "{}", super::summary(run))?;
    }
    Ok(())
}

pub fn render_diagnostic(d: &Diagnostic, source: &Arc<SourceFile>, color: bool) -> String {
    render(d, Shared::new(source), color)
}

fn render(d: &Diagnostic, source: Shared, color: bool) -> String {
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
    let report =
        miette::Report::new(diag).with_source_code(NamedSource::new(d.path.clone(), source));
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
                    "    {} {} of warp {}: {} (line {})",
                    if e.lanes.count_ones() == 1 {
                        "lane"
                    } else {
                        "lanes"
                    },
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What miette reads for `span`, as comparable values.
    fn read(
        source: &Shared,
        span: (usize, usize),
        context: usize,
    ) -> Option<(Vec<u8>, usize, usize, usize, usize, usize)> {
        let c = source.read_span(&span.into(), context, context).ok()?;
        Some((
            c.data().to_vec(),
            c.span().offset(),
            c.span().len(),
            c.line(),
            c.column(),
            c.line_count(),
        ))
    }

    #[test]
    fn a_span_read_from_its_window_is_what_miette_reads_from_the_whole_file() {
        let mut text = String::new();
        for i in 0..40 {
            text.push_str(&format!("  line {i} holds some code;"));
            text.push_str(if i % 7 == 3 { "\r\n" } else { "\n" });
            if i % 11 == 5 {
                text.push('\n');
            }
        }
        text.push_str("last line, no newline");
        let source = Arc::new(SourceFile::from_string("t.cu", text.clone(), false));
        let windowed = Shared::new(&source);
        assert!(windowed.windowed);
        let whole = Shared {
            windowed: false,
            ..windowed.clone()
        };
        let mut checked = 0;
        for start in (0..text.len()).step_by(7) {
            for len in [0, 1, 5, 30, 90] {
                if start + len > text.len() {
                    continue;
                }
                for context in 0..3 {
                    let span = (start, len);
                    assert_eq!(
                        read(&windowed, span, context),
                        read(&whole, span, context),
                        "span {span:?}, {context} context line(s)"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn a_text_with_a_lone_carriage_return_is_read_whole() {
        let source = Arc::new(SourceFile::from_string("t.cu", "a\rb\nc\n".into(), false));
        assert!(!Shared::new(&source).windowed);
    }
}
