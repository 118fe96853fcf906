//! What the fuzz targets in `fuzz/` run, in the library so that the
//! seed-corpus replay test (`tests/fuzz_corpus.rs`) runs exactly the same
//! code on every `cargo test`, without a fuzzer.
//!
//! Each function panics when an invariant breaks; that is what the fuzzer
//! reports as a crash.

use crate::engine::{self, FileOutcome, Options, RunResult};
use crate::prefilter;
use crate::report::{self, Format, ReportOptions};

/// Run the whole pipeline on `data` as one `.cu` file, render it in every
/// format, and check the invariants every stage promises.
pub fn check_and_render(data: &[u8]) {
    let opts = Options::default();
    let file = engine::check_source("fuzz/input.cu", data, &opts);
    check_outcome(&file, data);
    let run = RunResult {
        files: vec![file],
        ..RunResult::default()
    };
    for format in [Format::Human, Format::Concise, Format::Json] {
        for color in [false, true] {
            let mut out = Vec::new();
            let opts = ReportOptions {
                format,
                quiet: false,
                color,
                verbose: true,
            };
            report::write(&run, &opts, &mut out).expect("writing to memory cannot fail");
            if format == Format::Json {
                serde_json::from_slice::<serde_json::Value>(&out).expect("the report is JSON");
            }
        }
    }
}

/// Whatever the prefilter skips has no finding when fully analysed.
pub fn prefilter_is_sound(data: &[u8]) {
    if prefilter::has_warp_code(data) {
        return;
    }
    let full = engine::check_source_unfiltered("fuzz/input.cu", data, &Options::default());
    assert!(
        full.diagnostics.is_empty(),
        "the prefilter skipped a file with findings: {:#?}",
        full.diagnostics
    );
}

fn check_outcome(file: &FileOutcome, data: &[u8]) {
    assert_eq!(file.bytes, data.len());
    if file.diagnostics.is_empty() {
        return;
    }
    let source = file
        .source
        .as_ref()
        .expect("a file with diagnostics keeps its source for rendering");
    let text = source.text.as_str();
    for d in &file.diagnostics {
        let spans = std::iter::once(&d.span).chain(d.labels.iter().map(|l| &l.span));
        for span in spans {
            assert!(span.start <= span.end && span.end <= text.len(), "{span:?}");
            assert!(span.line >= 1 && span.line <= span.end_line, "{span:?}");
            assert!(span.column >= 1 && span.end_column >= 1, "{span:?}");
        }
        if let Some(fix) = &d.fix {
            let mut edits: Vec<_> = fix.edits.iter().collect();
            edits.sort_by_key(|e| (e.start_byte, e.end_byte));
            for pair in edits.windows(2) {
                assert!(pair[0].end_byte <= pair[1].start_byte, "overlapping edits");
            }
            for e in edits {
                assert!(e.start_byte <= e.end_byte && e.end_byte <= text.len());
                assert!(text.is_char_boundary(e.start_byte) && text.is_char_boundary(e.end_byte));
            }
        }
    }
}
