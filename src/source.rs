//! Source text and positions.
//!
//! Every later stage speaks in byte offsets into [`SourceFile::text`]; this
//! module is the one place that turns them into 1-based lines and columns.

use serde::Serialize;

/// One file's contents, decoded for analysis.
///
/// Bytes that are not UTF-8 are replaced (U+FFFD) so that every stage can work
/// on `&str`; `lossy` records that it happened so the report can say so.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path as shown to the user (relative paths stay relative).
    pub path: String,
    pub text: String,
    /// The input held bytes that are not UTF-8.
    pub lossy: bool,
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(path: impl Into<String>, bytes: &[u8]) -> SourceFile {
        let (text, lossy) = match std::str::from_utf8(bytes) {
            Ok(s) => (s.to_owned(), false),
            Err(_) => (String::from_utf8_lossy(bytes).into_owned(), true),
        };
        SourceFile::from_string(path, text, lossy)
    }

    /// Like [`SourceFile::new`], taking ownership: valid UTF-8 is not copied.
    pub fn from_vec(path: impl Into<String>, bytes: Vec<u8>) -> SourceFile {
        match String::from_utf8(bytes) {
            Ok(text) => SourceFile::from_string(path, text, false),
            Err(e) => {
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                SourceFile::from_string(path, text, true)
            }
        }
    }

    pub fn from_string(path: impl Into<String>, text: String, lossy: bool) -> SourceFile {
        let mut line_starts = vec![0];
        line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        SourceFile {
            path: path.into(),
            text,
            lossy,
            line_starts,
        }
    }

    pub fn len(&self) -> usize {
        self.text.len()
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// 1-based (line, column) of a byte offset. Columns count characters, so a
    /// multi-byte character before the offset counts once.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = self.floor_char_boundary(offset.min(self.text.len()));
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line];
        let column = self.text[start..offset].chars().count() + 1;
        (line + 1, column)
    }

    /// The 1-based line of byte `offset` ([`Self::line_col`] without the
    /// column, which counts characters).
    pub fn line(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        self.line_starts.partition_point(|&s| s <= offset)
    }

    /// The text of 1-based line `line`, without its line terminator.
    pub fn line_text(&self, line: usize) -> &str {
        if line == 0 || line > self.line_starts.len() {
            return "";
        }
        let start = self.line_starts[line - 1];
        let end = self
            .line_starts
            .get(line)
            .map(|&e| e - 1)
            .unwrap_or(self.text.len());
        self.text[start..end.max(start)].trim_end_matches('\r')
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Byte offset where 1-based `line` starts (clamped to the end of file).
    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(self.text.len())
    }

    pub fn span(&self, start: usize, end: usize) -> Span {
        let end = end.max(start);
        let (line, column) = self.line_col(start);
        let (end_line, end_column) = self.line_col(end);
        Span {
            start,
            end,
            line,
            column,
            end_line,
            end_column,
        }
    }

    /// The text from byte `start` to `end` on one line (each run of
    /// whitespace one space), for messages; `?` where that is not text of
    /// the file. At most `max` bytes: a longer one is cut to `max - 3` and
    /// ends in `…`.
    pub fn snippet(&self, (start, end): (usize, usize), max: usize) -> String {
        let text: String = self
            .text
            .get(start..end)
            .unwrap_or("?")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if text.len() > max {
            format!(
                "{}…",
                &text[..text.floor_char_boundary(max.saturating_sub(3))]
            )
        } else {
            text
        }
    }

    fn floor_char_boundary(&self, mut offset: usize) -> usize {
        while offset > 0 && !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }
}

/// A region of a source file: byte offsets plus 1-based line/column of both ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Span {
    #[serde(rename = "start_byte")]
    pub start: usize,
    #[serde(rename = "end_byte")]
    pub end: usize,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters_and_lines() {
        let f = SourceFile::new("a.cu", "ab\ncé d\n".as_bytes());
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        // 'é' is two bytes but one column.
        assert_eq!(f.line_col(6), (2, 3));
        assert_eq!(f.line_text(2), "cé d");
        assert_eq!(f.line_text(3), "");
    }

    #[test]
    fn invalid_utf8_is_replaced_not_rejected() {
        let f = SourceFile::new("b.cu", b"int \xff x;");
        assert!(f.lossy);
        assert!(f.text.contains('\u{fffd}'));
    }

    #[test]
    fn from_vec_matches_new() {
        for bytes in [&b"ok \xce\xbb\n"[..], b"bad \xff\n", b""] {
            let a = SourceFile::new("a.cu", bytes);
            let b = SourceFile::from_vec("a.cu", bytes.to_vec());
            assert_eq!((a.text, a.lossy), (b.text, b.lossy));
        }
    }

    #[test]
    fn offset_past_end_is_clamped() {
        let f = SourceFile::new("c.cu", b"x\r\ny");
        assert_eq!(f.line_col(100), (2, 2));
        assert_eq!(f.line_text(1), "x");
    }
}
