//! Long blank runs the parser need not read.
//!
//! The configured view keeps every byte offset, so what configuration
//! removes (branches not taken, directive lines, host bodies, device-only
//! bodies in the launch-contracts view) becomes spaces. tree-sitter's lexer
//! reads whitespace one character at a time, at about the cost of code: a
//! generated file whose kernels the contracts view blanks cost as much to
//! parse as the kernels themselves. The parser is therefore given the view
//! minus these runs as *included ranges*: it skips the gaps, and every node
//! keeps its offsets and positions in the whole text.
//!
//! A gap is the inside of a run of spaces, tabs and newlines in code (not
//! in a comment or a literal, where the skipped bytes would belong to one
//! token), at least [`MIN_GAP`] bytes long. The bytes on both sides of it
//! stay readable: the run's first newline (so a line comment or a directive
//! still ends where it did) and its last byte. So tokens on the two sides
//! of a gap are still separated by whitespace the lexer reads, and the
//! token stream is the one of the whole view.

// The lexer the configured view's tokens came from.
use super::configure::{block_comment_end, char_end, line_comment_end, string_end};

/// Runs shorter than this are read: each gap costs the parser a range.
pub const MIN_GAP: usize = 256;

/// The gaps of `b` (sorted, disjoint, byte offsets): see the module doc.
/// One forward pass.
pub fn blank_gaps(b: &[u8]) -> Vec<(usize, usize)> {
    let mut gaps = Vec::new();
    let mut i = 0usize;
    while i < b.len() {
        let c = b[i];
        match c {
            b'/' if b.get(i + 1) == Some(&b'/') => i = line_comment_end(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => i = block_comment_end(b, i),
            b'"' => i = string_end(b, i),
            b'\'' => i = char_end(b, i),
            b' ' | b'\t' | b'\n' | b'\r' => {
                let start = i;
                while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
                    i += 1;
                }
                if i - start >= MIN_GAP {
                    let keep =
                        memchr::memchr(b'\n', &b[start..i]).map_or(start + 1, |n| start + n + 1);
                    let end = i - 1;
                    if end > keep {
                        gaps.push((keep, end));
                    }
                }
            }
            _ => i += 1,
        }
    }
    gaps
}

/// The parts of a text of `len` bytes outside `gaps`, as tree-sitter ranges
/// (positions counted in `b`, rows by `\n`, columns in bytes).
pub fn included_ranges(b: &[u8], gaps: &[(usize, usize)]) -> Vec<tree_sitter::Range> {
    let mut ranges = Vec::with_capacity(gaps.len() + 1);
    let mut point = tree_sitter::Point { row: 0, column: 0 };
    let mut at = 0usize;
    // Advance `point` from `at` to `to`.
    let advance = |point: &mut tree_sitter::Point, at: &mut usize, to: usize| {
        let slice = &b[*at..to];
        let newlines = memchr::memchr_iter(b'\n', slice).count();
        if newlines == 0 {
            point.column += slice.len();
        } else {
            point.row += newlines;
            let last = memchr::memrchr(b'\n', slice).unwrap_or(0);
            point.column = slice.len() - last - 1;
        }
        *at = to;
    };
    let mut start = 0usize;
    let mut start_point = point;
    for &(g0, g1) in gaps {
        advance(&mut point, &mut at, g0);
        ranges.push(tree_sitter::Range {
            start_byte: start,
            end_byte: g0,
            start_point,
            end_point: point,
        });
        advance(&mut point, &mut at, g1);
        start = g1;
        start_point = point;
    }
    advance(&mut point, &mut at, b.len());
    ranges.push(tree_sitter::Range {
        start_byte: start,
        end_byte: b.len(),
        start_point,
        end_point: point,
    });
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_are_inside_long_blank_runs_of_code_only() {
        let blank = " ".repeat(MIN_GAP + 10);
        let text = format!("int a;{blank}int b; /*{blank}*/ \"{blank}\" // {blank}\nint c;");
        let gaps = blank_gaps(text.as_bytes());
        // Only the run between the two declarations; its first and last
        // bytes stay readable.
        assert_eq!(gaps, vec![(7, 6 + MIN_GAP + 10 - 1)]);
    }

    #[test]
    fn a_gap_keeps_the_runs_first_newline() {
        let text = format!(
            "#define X 1{}\n{}int y;",
            " ".repeat(4),
            " ".repeat(MIN_GAP)
        );
        let gaps = blank_gaps(text.as_bytes());
        let nl = text.find('\n').unwrap();
        assert_eq!(gaps, vec![(nl + 1, text.len() - "int y;".len() - 1)]);
    }

    #[test]
    fn a_tree_parsed_around_gaps_has_the_offsets_and_positions_of_the_whole_text() {
        let body = format!("{{\n{}\n}}", format!("{}\n", " ".repeat(40)).repeat(20));
        let text =
            format!("void h() {body}\n__global__ void k(int *p) {{ p[threadIdx.x] = 1; }}\n");
        assert!(!blank_gaps(text.as_bytes()).is_empty());
        let tree = crate::frontend::parse_text_within(&text, 1_000_000).expect("parses");
        let whole = {
            let mut p = tree_sitter::Parser::new();
            p.set_language(crate::frontend::language()).unwrap();
            p.parse(&text, None).unwrap()
        };
        assert_eq!(
            tree.root_node()
                .child(1)
                .map(|n| (n.start_byte(), n.start_position(), n.to_sexp())),
            whole
                .root_node()
                .child(1)
                .map(|n| (n.start_byte(), n.start_position(), n.to_sexp())),
        );
        assert!(!tree.root_node().has_error());
    }
}
