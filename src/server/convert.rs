//! Positions, URIs and diagnostics in LSP terms.
//!
//! The engine speaks byte offsets into UTF-8 text. LSP speaks 0-based lines
//! and a character offset counted in the negotiated encoding: UTF-16 code
//! units unless the client offered `utf-8` (or `utf-32`). Lines end at `\n`,
//! `\r\n` or a lone `\r`, as the LSP specification says.

use std::path::PathBuf;

use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Position, PositionEncodingKind, Range, TextEdit, Uri,
};
use serde::{Deserialize, Serialize};

use crate::diagnostic::{Applicability, Diagnostic, Severity, Status, lane_ranges};
use crate::source::SourceFile;

/// How the `character` of a [`Position`] counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
    Utf32,
}

impl Encoding {
    /// Pick from the client's `general.positionEncodings`: UTF-8 (no
    /// conversion at all) when offered, then UTF-32, else the mandatory
    /// UTF-16.
    pub fn negotiate(offered: &[String]) -> Encoding {
        if offered.iter().any(|e| e == "utf-8") {
            Encoding::Utf8
        } else if offered.iter().any(|e| e == "utf-32") {
            Encoding::Utf32
        } else {
            Encoding::Utf16
        }
    }

    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
            Encoding::Utf32 => PositionEncodingKind::UTF32,
        }
    }

    fn units(self, c: char) -> usize {
        match self {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
            Encoding::Utf32 => 1,
        }
    }
}

/// Line starts of a document, for offset ↔ position conversion.
#[derive(Debug, Clone)]
pub struct LineIndex {
    /// Byte offset of the start of each line.
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'\n' => starts.push(i + 1),
                b'\r' if bytes.get(i + 1) != Some(&b'\n') => starts.push(i + 1),
                _ => {}
            }
        }
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// Byte range of 0-based `line`'s content, without its terminator.
    pub fn line_range(&self, text: &str, line: usize) -> (usize, usize) {
        let Some(&start) = self.starts.get(line) else {
            return (self.len, self.len);
        };
        let mut end = self.starts.get(line + 1).copied().unwrap_or(self.len);
        let bytes = text.as_bytes();
        if end > start && bytes.get(end - 1) == Some(&b'\n') {
            end -= 1;
        }
        if end > start && bytes.get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        (start, end)
    }

    /// The LSP position of byte `offset` (clamped into the text, and down to
    /// a character boundary).
    pub fn position(&self, text: &str, offset: usize, enc: Encoding) -> Position {
        let mut offset = offset.min(self.len).min(text.len());
        while offset > 0 && !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let (start, end) = self.line_range(text, line);
        // An offset inside a `\r\n` terminator belongs to the line's end.
        let offset = offset.min(end);
        let character = match enc {
            Encoding::Utf8 => offset - start,
            _ => text[start..offset].chars().map(|c| enc.units(c)).sum(),
        };
        Position::new(to_u32(line), to_u32(character))
    }

    /// The byte offset of an LSP position. Past the end of a line means the
    /// line's end and past the last line means the end of the text (the
    /// specification's rule); inside a character means its start.
    pub fn offset(&self, text: &str, pos: Position, enc: Encoding) -> usize {
        let line = pos.line as usize;
        if line >= self.starts.len() {
            return self.len;
        }
        let (start, end) = self.line_range(text, line);
        let want = pos.character as usize;
        let mut units = 0;
        for (i, c) in text[start..end].char_indices() {
            let next = units + enc.units(c);
            if next > want {
                return start + i;
            }
            units = next;
        }
        end
    }

    pub fn range(&self, text: &str, start: usize, end: usize, enc: Encoding) -> Range {
        Range::new(
            self.position(text, start, enc),
            self.position(text, end.max(start), enc),
        )
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The filesystem path of a `file:` URI (percent-decoded); `None` for other
/// schemes (`untitled:` buffers) and for URIs that do not decode.
pub fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let scheme = uri.scheme()?;
    if !scheme.as_str().eq_ignore_ascii_case("file") {
        return None;
    }
    let raw = uri.path().as_str();
    let decoded = percent_encoding::percent_decode_str(raw)
        .decode_utf8()
        .ok()?
        .into_owned();
    // `file:///C:/x` names `C:/x` on Windows.
    let bytes = decoded.as_bytes();
    if cfg!(windows) && bytes.len() >= 3 && bytes[0] == b'/' && bytes[2] == b':' {
        return Some(PathBuf::from(&decoded[1..]));
    }
    if decoded.is_empty() {
        return None;
    }
    Some(PathBuf::from(decoded))
}

/// Where rule pages live: `{base}{CODE}-{name}.md`.
pub fn default_rules_base_url() -> String {
    let repo = env!("CARGO_PKG_REPOSITORY").trim_end_matches('/');
    if repo.is_empty() {
        FALLBACK_RULES_BASE_URL.to_owned()
    } else {
        format!("{repo}/blob/main/rules/")
    }
}

/// Used while `Cargo.toml` names no `repository`.
pub const FALLBACK_RULES_BASE_URL: &str = "https://github.com/warplint/warplint/blob/main/rules/";

pub fn rule_page_url(base: &str, code: &str, name: &str) -> Option<Uri> {
    format!("{base}{code}-{name}.md").parse().ok()
}

/// What a published diagnostic carries in `data`: what code actions need,
/// and no more (a large file has hundreds of diagnostics). It comes back
/// from clients, so it is parsed and checked, never trusted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiagnosticData {
    /// The document version the ranges below were computed against.
    pub version: i32,
    /// `confirmed`, `refuted` or `undecided`.
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<FixData>,
    /// Why the rule's fix is not offered (the engine's re-lint refused it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix_withheld: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FixData {
    pub message: String,
    /// `safe` or `unsafe`.
    pub applicability: String,
    pub edits: Vec<TextEdit>,
}

/// Everything the conversion of one document's diagnostics needs.
pub struct DocView<'a> {
    pub uri: &'a Uri,
    pub text: &'a str,
    pub index: &'a LineIndex,
    pub version: i32,
    pub encoding: Encoding,
    pub rules_base_url: &'a str,
}

pub fn to_lsp(d: &Diagnostic, source: Option<&SourceFile>, v: &DocView) -> lsp_types::Diagnostic {
    let range = v.index.range(v.text, d.span.start, d.span.end, v.encoding);
    let mut related: Vec<DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .map(|l| DiagnosticRelatedInformation {
            location: Location::new(
                v.uri.clone(),
                v.index.range(v.text, l.span.start, l.span.end, v.encoding),
            ),
            message: l.message.clone(),
        })
        .collect();
    // The engine's message already ends with the witness summary; the
    // status says how much to trust it.
    let mut message = d.message.clone();
    match (d.confirmation.status, &d.confirmation.reason) {
        (Status::Confirmed, _) => {}
        (status, Some(reason)) => message.push_str(&format!(" [{status}: {reason}]")),
        (status, None) => message.push_str(&format!(" [{status}]")),
    }
    if let Some(w) = &d.confirmation.witness {
        for e in &w.events {
            related.push(DiagnosticRelatedInformation {
                location: Location::new(v.uri.clone(), witness_line_range(e.line, source, v)),
                message: format!(
                    "witness, warp {}: lanes {}: {}",
                    w.warp,
                    lane_ranges(e.lanes),
                    e.what
                ),
            });
        }
    }
    let fix = d.fix.as_ref().map(|f| FixData {
        message: f.message.clone(),
        applicability: match f.applicability {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
        .to_owned(),
        edits: f
            .edits
            .iter()
            .map(|e| TextEdit {
                range: v.index.range(v.text, e.start_byte, e.end_byte, v.encoding),
                new_text: e.replacement.clone(),
            })
            .collect(),
    });
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let data = DiagnosticData {
        version: v.version,
        status: d.confirmation.status.to_string(),
        fix,
        fix_withheld: d.fix_withheld.clone(),
    };
    lsp_types::Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.to_owned())),
        code_description: rule_page_url(v.rules_base_url, d.code, d.name)
            .map(|href| CodeDescription { href }),
        source: Some("warplint".to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: serde_json::to_value(data).ok(),
    }
}

/// A witness event names a 1-based line of the engine's source (which counts
/// `\n` only); point at that whole line.
fn witness_line_range(line: usize, source: Option<&SourceFile>, v: &DocView) -> Range {
    let start = match source {
        Some(s) => s.line_start(line),
        None => v.index.line_range(v.text, line.saturating_sub(1)).0,
    };
    let lsp_line = v.index.position(v.text, start, v.encoding).line as usize;
    let (s, e) = v.index.line_range(v.text, lsp_line);
    v.index.range(v.text, s, e, v.encoding)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position::new(line, character)
    }

    #[test]
    fn utf16_counts_surrogate_pairs_and_utf8_counts_bytes() {
        // 'é' is 2 bytes / 1 UTF-16 unit; '😀' is 4 bytes / 2 units / 1 char.
        let text = "aé😀x\nsecond";
        let idx = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(idx.position(text, x, Encoding::Utf16), pos(0, 4));
        assert_eq!(idx.position(text, x, Encoding::Utf8), pos(0, 7));
        assert_eq!(idx.position(text, x, Encoding::Utf32), pos(0, 3));
        for enc in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
            let p = idx.position(text, x, enc);
            assert_eq!(idx.offset(text, p, enc), x, "{enc:?}");
        }
        assert_eq!(idx.position(text, text.len(), Encoding::Utf16), pos(1, 6));
    }

    #[test]
    fn offsets_inside_characters_snap_to_their_start() {
        let text = "😀x";
        let idx = LineIndex::new(text);
        // UTF-16 character 1 is the middle of the surrogate pair.
        assert_eq!(idx.offset(text, pos(0, 1), Encoding::Utf16), 0);
        // Byte 2 is inside the emoji.
        assert_eq!(idx.position(text, 2, Encoding::Utf16), pos(0, 0));
    }

    #[test]
    fn all_three_line_terminators_count() {
        let text = "a\r\nb\rc\nd";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_count(), 4);
        assert_eq!(
            idx.position(text, text.find('d').unwrap(), Encoding::Utf16),
            pos(3, 0)
        );
        assert_eq!(
            idx.position(text, text.find('c').unwrap(), Encoding::Utf16),
            pos(2, 0)
        );
        // The `\n` of `\r\n` is still the end of line 0.
        assert_eq!(idx.position(text, 2, Encoding::Utf16), pos(0, 1));
        assert_eq!(idx.line_range(text, 0), (0, 1));
    }

    #[test]
    fn positions_past_the_end_clamp() {
        let text = "ab\ncd";
        let idx = LineIndex::new(text);
        assert_eq!(idx.offset(text, pos(0, 99), Encoding::Utf16), 2);
        assert_eq!(idx.offset(text, pos(9, 0), Encoding::Utf16), text.len());
        assert_eq!(idx.position(text, 999, Encoding::Utf8), pos(1, 2));
    }

    #[test]
    fn file_uris_decode_and_other_schemes_have_no_path() {
        let uri: Uri = "file:///tmp/my%20kernels/k%C3%A9.cu".parse().unwrap();
        assert_eq!(
            uri_to_path(&uri),
            Some(PathBuf::from("/tmp/my kernels/ké.cu"))
        );
        let untitled: Uri = "untitled:Untitled-1".parse().unwrap();
        assert_eq!(uri_to_path(&untitled), None);
    }

    #[test]
    fn negotiation_prefers_utf8_and_falls_back_to_utf16() {
        let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            Encoding::negotiate(&s(&["utf-16", "utf-8"])),
            Encoding::Utf8
        );
        assert_eq!(
            Encoding::negotiate(&s(&["utf-32", "utf-16"])),
            Encoding::Utf32
        );
        assert_eq!(Encoding::negotiate(&s(&[])), Encoding::Utf16);
    }

    #[test]
    fn labels_witness_severity_and_status_are_carried() {
        use crate::diagnostic::{Confirmation, Label, Launch, Witness, WitnessEvent};
        let text = "if (lane < 16) {\n  x = __shfl_sync(0xffffffff, x, 0);\n}\n";
        let source = SourceFile::new("k.cu", text.as_bytes());
        let call = text.find("__shfl_sync").unwrap();
        let d = Diagnostic {
            code: "WL002",
            name: "full-mask-in-divergent-code",
            severity: Severity::Warning,
            path: "k.cu".into(),
            span: source.span(call, call + 11),
            message: "full mask".into(),
            help: Some("use a ballot".into()),
            fingerprint: String::new(),
            labels: vec![Label {
                span: source.span(4, 13),
                message: "lanes 16–31 leave here".into(),
            }],
            confirmation: Confirmation::confirmed(Witness {
                summary: "lanes 0–15 wait forever".into(),
                launch: Launch::default(),
                inputs: Default::default(),
                warp: 0,
                schedule: None,
                events: vec![WitnessEvent {
                    lanes: 0xffff,
                    line: 2,
                    what: "wait at the shuffle".into(),
                }],
                without_caller: false,
            }),
            fix: None,
            fix_withheld: None,
        };
        let uri: Uri = "file:///k.cu".parse().unwrap();
        let index = LineIndex::new(text);
        let v = DocView {
            uri: &uri,
            text,
            index: &index,
            version: 9,
            encoding: Encoding::Utf16,
            rules_base_url: "https://example.org/rules/",
        };
        let l = to_lsp(&d, Some(&source), &v);
        assert_eq!(l.severity, Some(DiagnosticSeverity::WARNING));
        assert_eq!(l.code, Some(NumberOrString::String("WL002".into())));
        assert_eq!(
            l.range,
            Range::new(Position::new(1, 6), Position::new(1, 17))
        );
        assert_eq!(l.message, "full mask\nhelp: use a ballot");
        let rel = l.related_information.unwrap();
        assert_eq!(rel.len(), 2);
        assert_eq!(rel[0].message, "lanes 16–31 leave here");
        assert_eq!(rel[0].location.range.start, Position::new(0, 4));
        assert_eq!(
            rel[1].message,
            "witness, warp 0: lanes 0–15: wait at the shuffle"
        );
        assert_eq!(
            rel[1].location.range,
            Range::new(Position::new(1, 0), Position::new(1, 36))
        );
        let data: DiagnosticData = serde_json::from_value(l.data.unwrap()).unwrap();
        assert_eq!(data.version, 9);
        assert_eq!(data.status, "confirmed");

        let mut undecided = d.clone();
        undecided.confirmation =
            Confirmation::undecided("budget exhausted", crate::diagnostic::Evidence::Direct);
        undecided.help = None;
        assert_eq!(
            to_lsp(&undecided, Some(&source), &v).message,
            "full mask [undecided: budget exhausted]"
        );
        assert_eq!(
            l.code_description.unwrap().href.as_str(),
            "https://example.org/rules/WL002-full-mask-in-divergent-code.md"
        );
    }

    #[test]
    fn rule_page_urls_follow_the_code_name_scheme() {
        let u = rule_page_url(
            "https://example.org/rules/",
            "WL001",
            "legacy-warp-primitive",
        )
        .unwrap();
        assert_eq!(
            u.as_str(),
            "https://example.org/rules/WL001-legacy-warp-primitive.md"
        );
    }
}
