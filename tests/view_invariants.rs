//! The configured view keeps every byte offset and every line break of the
//! text as written (`frontend::configure`): a finding's line and column are
//! read from the view, and render against the text as written. A rewrite
//! that moved a line break put every later finding of the file on the
//! wrong line (CUTLASS's `CUTLASS_HOST_DEVICE` above `friend`, moved in
//! front of it, reported a `__syncthreads()` at line 1365 of
//! `sm90_pipeline.hpp`, four lines above where it is).
//!
//! Checked for both views (the one analysed, and the one launch contracts
//! read, which keeps host bodies) on testdata, the fuzz seeds, and the
//! cached corpora (`WARPLINT_VIEW_CORPORA` picks which; FlashInfer is
//! opt-in, as in `tests/realcode.rs`).

use std::path::PathBuf;

use warplint::frontend::configure::{configure, configure_keeping_host_bodies};
use warplint::frontend::{MacroEnv, PpConfig};
use warplint::source::SourceFile;

mod common;
use common::{corpus_inputs, own_inputs};

/// Where `view` breaks lines or has bytes `text` does not.
fn broken(text: &[u8], view: &[u8]) -> Option<String> {
    if text.len() != view.len() {
        return Some(format!("length {} became {}", text.len(), view.len()));
    }
    let mut line = 1;
    for (a, b) in text.iter().zip(view) {
        let breaks = |c: &u8| matches!(c, b'\n' | b'\r');
        if breaks(a) != breaks(b) || (breaks(a) && a != b) {
            return Some(format!("the line break at line {line} moved"));
        }
        line += usize::from(*a == b'\n');
    }
    None
}

fn assert_views_keep_lines(files: &[PathBuf]) {
    let config = PpConfig::default();
    let mut bad = Vec::new();
    for path in files {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        // Configured as the engine does: after decoding (bytes that are not
        // UTF-8 become U+FFFD).
        let bytes = SourceFile::new(path.display().to_string(), &bytes).text;
        let bytes = bytes.as_bytes();
        let views = [
            configure(bytes, &config, &mut MacroEnv::from_config(&config)),
            configure_keeping_host_bodies(
                bytes,
                &config,
                &mut MacroEnv::from_config(&config),
                usize::MAX,
            ),
        ];
        for (which, view) in ["analysed", "contracts"].iter().zip(&views) {
            if let Some(why) = broken(bytes, view.text.as_bytes()) {
                bad.push(format!("{} ({which} view): {why}", path.display()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} file(s) whose view moved a line:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn views_of_testdata_and_fuzz_seeds_keep_every_line() {
    let files = own_inputs();
    assert!(files.len() > 100);
    assert_views_keep_lines(&files);
}

#[test]
fn a_specifier_line_above_friend_keeps_its_line_break() {
    // Indented as CUTLASS writes it, and with no room to spare.
    for src in [
        "struct T {\n  CUTLASS_HOST_DEVICE\n  friend bool operator==(T a, T b) { return true; }\n};\n",
        "struct T {\n  OTHERLIB_HOST_DEVICE\nfriend bool operator==(T a, T b) { return true; }\n};\n",
    ] {
        let config = PpConfig::default();
        let view = configure(src.as_bytes(), &config, &mut MacroEnv::from_config(&config));
        assert_eq!(broken(src.as_bytes(), view.text.as_bytes()), None);
        // `friend` comes first, where the grammar wants it, and the
        // declaration still says device code.
        let squeezed: Vec<&str> = view.text.split_whitespace().collect();
        let at = squeezed
            .iter()
            .position(|w| *w == "friend")
            .expect("friend kept");
        assert_eq!(squeezed[at - 1], "{", "{squeezed:?}");
        assert_eq!(squeezed[at + 1], "__device__", "{squeezed:?}");
    }
}

#[test]
fn views_of_the_cached_corpora_keep_every_line() {
    let files = corpus_inputs("WARPLINT_VIEW_CORPORA");
    if files.is_empty() {
        eprintln!("skipped: no corpus in .bench-cache (cargo bench --bench corpus fetches them)");
        return;
    }
    assert_views_keep_lines(&files);
}
