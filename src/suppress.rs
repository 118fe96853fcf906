//! Suppression comments, applied inside [`crate::engine::check_source`] so
//! that every front end (CLI, language server, tests) honours them.
//!
//! ```text
//! x = __shfl(v, 0); // warplint: ignore[WL001] CUDA 8 build only
//! // warplint: ignore[WL001, legacy-warp-primitive] reason
//! // warplint: ignore-file[WL001] reason
//! ```
//!
//! - A comment that shares its line with code covers that line; a comment
//!   alone on its line(s) covers the line after it. `ignore-file` covers the
//!   whole file, wherever it is.
//! - Codes or names, comma-separated. A reason after `]` is expected.
//! - Comments are found by a small lexer that skips string, character and
//!   raw-string literals, so a directive inside `"…"` is not one; it works on
//!   `#define` lines too, where the parser would fold the comment into the
//!   macro body.
//!
//! The bookkeeping is reported under engine codes ([`crate::rules::ENGINE_RULES`]):
//! WL100 `unused-suppression`, WL101 `suppression-without-reason`, WL102
//! `invalid-suppression`. Those cannot be suppressed by comments (only by
//! `select`/`ignore`), so that an audit cannot be silenced from the code it
//! audits.

use memchr::memmem;

use crate::diagnostic::{Applicability, Confirmation, Diagnostic, Edit, Fix, Status};
use crate::rules::{self, RuleMeta, RuleSet};
use crate::source::SourceFile;

pub use crate::rules::{INVALID_SUPPRESSION, SUPPRESSION_WITHOUT_REASON, UNUSED_SUPPRESSION};

const MARKER: &str = "warplint:";

/// Cheap test before any lexing: can `bytes` hold a directive at all?
pub fn mentions_directive(bytes: &[u8]) -> bool {
    memmem::find(bytes, MARKER.as_bytes()).is_some()
}

/// A comment's byte range, delimiters included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Comment {
    pub start: usize,
    pub end: usize,
    /// `/* … */` rather than `// …`.
    pub block: bool,
}

/// Every comment in `text`, skipping string, character and raw-string
/// literals. Ill-formed literals end at the end of their line, so one stray
/// quote cannot hide the rest of the file.
pub fn comments(text: &str) -> Vec<Comment> {
    let b = text.as_bytes();
    let n = b.len();
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = line_comment_end(b, i + 2);
                out.push(Comment {
                    start: i,
                    end,
                    block: false,
                });
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = memmem::find(&b[i + 2..], b"*/").map_or(n, |p| i + 2 + p + 2);
                out.push(Comment {
                    start: i,
                    end,
                    block: true,
                });
                i = end;
            }
            b'"' => {
                i = match raw_string_end(b, i) {
                    Some(end) => end,
                    None => quoted_end(b, i + 1, b'"'),
                };
            }
            b'\'' => i = quoted_end(b, i + 1, b'\''),
            // Whole identifiers and numbers at once: a `'` inside a number
            // is a digit separator (`1'000'000`), and one after an
            // identifier such as `u8` opens a character literal.
            c if c.is_ascii_alphabetic() || c == b'_' => {
                i += 1;
                while i < n && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
            }
            c if c.is_ascii_digit() => {
                i += 1;
                while i < n && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'.' | b'\''))
                {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// A `//` comment runs to the end of the line, and on past a line that
/// ends in a backslash (a line splice).
fn line_comment_end(b: &[u8], from: usize) -> usize {
    let mut i = from;
    loop {
        let Some(nl) = memchr::memchr(b'\n', &b[i..]).map(|p| i + p) else {
            return b.len();
        };
        let mut j = nl;
        if j > 0 && b[j - 1] == b'\r' {
            j -= 1;
        }
        if j > from && b[j - 1] == b'\\' {
            i = nl + 1;
            continue;
        }
        return j;
    }
}

/// End (exclusive) of a `"…"` or `'…'` literal whose body starts at `from`.
fn quoted_end(b: &[u8], from: usize, quote: u8) -> usize {
    let mut i = from;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// If the `"` at `q` opens a raw string (`R"delim(…)delim"`, with an
/// optional `u8`, `u`, `U` or `L` prefix), its end.
fn raw_string_end(b: &[u8], q: usize) -> Option<usize> {
    if q == 0 || b[q - 1] != b'R' {
        return None;
    }
    // The identifier-like run before the quote must be a raw-string prefix.
    let mut s = q - 1;
    while s > 0 && (b[s - 1].is_ascii_alphanumeric() || b[s - 1] == b'_') {
        s -= 1;
    }
    if !matches!(&b[s..q], b"R" | b"u8R" | b"uR" | b"UR" | b"LR") {
        return None;
    }
    let open = q + 1 + b[q + 1..].iter().take(17).position(|&c| c == b'(')?;
    let delim = &b[q + 1..open];
    if delim
        .iter()
        .any(|c| c.is_ascii_whitespace() || matches!(c, b'\\' | b')' | b'"'))
    {
        return None;
    }
    let mut close = Vec::with_capacity(delim.len() + 2);
    close.push(b')');
    close.extend_from_slice(delim);
    close.push(b'"');
    Some(memmem::find(&b[open + 1..], &close).map_or(b.len(), |p| open + 1 + p + close.len()))
}

/// What a directive covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Diagnostics that start on this 1-based line.
    Line(usize),
    File,
}

/// One rule named in a directive.
#[derive(Debug, Clone)]
pub struct CodeRef {
    pub text: String,
    pub start: usize,
    pub end: usize,
    /// `None`: no rule has this code or name.
    pub rule: Option<&'static RuleMeta>,
}

/// A parsed `warplint:` comment.
#[derive(Debug, Clone)]
pub struct Directive {
    pub comment: Comment,
    /// The comment is alone on its line(s).
    pub own_line: bool,
    pub scope: Scope,
    /// From `warplint:` through the closing `]` (or the end of the comment).
    pub start: usize,
    pub end: usize,
    pub codes: Vec<CodeRef>,
    pub reason: Option<String>,
    /// Why the directive could not be read, if it could not.
    pub error: Option<String>,
}

/// Every directive in the file.
pub fn directives(source: &SourceFile) -> Vec<Directive> {
    let text = source.text.as_str();
    if !mentions_directive(text.as_bytes()) {
        return Vec::new();
    }
    comments(text)
        .into_iter()
        .filter_map(|c| parse_directive(source, c))
        .collect()
}

fn parse_directive(source: &SourceFile, c: Comment) -> Option<Directive> {
    let text = source.text.as_str();
    let body_end = if c.block && text[c.start..c.end].ends_with("*/") && c.end - c.start >= 4 {
        c.end - 2
    } else {
        c.end
    };
    let body = &text[c.start + 2..body_end];
    // `///`, `//!`, `/**` and leading blanks are decoration.
    let lead = body.len() - body.trim_start_matches(['/', '!', '*', ' ', '\t']).len();
    let rest = &body[lead..];
    if !rest.starts_with(MARKER) {
        return None;
    }
    let start = c.start + 2 + lead;
    let own_line = alone_on_line(text, c);
    let (first_line, _) = source.line_col(c.start);
    let (last_line, _) = source.line_col(c.end);
    let mut d = Directive {
        comment: c,
        own_line,
        scope: Scope::Line(if own_line { last_line + 1 } else { first_line }),
        start,
        end: body_end,
        codes: Vec::new(),
        reason: None,
        error: None,
    };
    let after_marker = &rest[MARKER.len()..];
    let trimmed = after_marker.trim_start();
    let at = start + MARKER.len() + (after_marker.len() - trimmed.len());
    let (list_at, file_wide) = if let Some(r) = trimmed.strip_prefix("ignore-file[") {
        (at + trimmed.len() - r.len(), true)
    } else if let Some(r) = trimmed.strip_prefix("ignore[") {
        (at + trimmed.len() - r.len(), false)
    } else {
        d.error = Some(
            "expected `ignore[CODES] reason` or `ignore-file[CODES] reason` after `warplint:`"
                .to_owned(),
        );
        return Some(d);
    };
    if file_wide {
        d.scope = Scope::File;
    }
    let Some(close) = text[list_at..body_end].find(']').map(|p| list_at + p) else {
        d.error = Some("missing `]` after the rule list".to_owned());
        return Some(d);
    };
    d.end = close + 1;
    let mut pos = list_at;
    for part in text[list_at..close].split(',') {
        let lead = part.len() - part.trim_start().len();
        let code = part.trim();
        if !code.is_empty() {
            d.codes.push(CodeRef {
                text: code.to_owned(),
                start: pos + lead,
                end: pos + lead + code.len(),
                rule: rules::lookup(code),
            });
        }
        pos += part.len() + 1;
    }
    if d.codes.is_empty() {
        d.error = Some("the rule list is empty".to_owned());
    }
    let reason = text[close + 1..body_end]
        .trim()
        .trim_start_matches([':', '-', '–', '—'])
        .trim();
    if reason.chars().any(char::is_alphanumeric) {
        d.reason = Some(reason.to_owned());
    }
    Some(d)
}

/// Only blanks before the comment on its first line and after it on its last.
fn alone_on_line(text: &str, c: Comment) -> bool {
    let line_start = text[..c.start].rfind('\n').map_or(0, |p| p + 1);
    let line_end = text[c.end..].find('\n').map_or(text.len(), |p| c.end + p);
    text[line_start..c.start].trim().is_empty() && text[c.end..line_end].trim().is_empty()
}

/// What applying the file's directives did.
#[derive(Debug, Default)]
pub struct Applied {
    /// Diagnostics left, with the engine's own WL100–WL102 added.
    pub diagnostics: Vec<Diagnostic>,
    /// How many diagnostics the comments suppressed.
    pub suppressed: usize,
}

/// Drop the diagnostics that directives cover, and report the directives
/// that are unused, give no reason, or cannot be read. `rules` decides which
/// engine codes are reported, and which unused codes count: a suppression
/// for a rule that is not running is not called unused.
pub fn apply(source: &SourceFile, diagnostics: Vec<Diagnostic>, rules: &RuleSet) -> Applied {
    let directives = directives(source);
    if directives.is_empty() {
        return Applied {
            diagnostics,
            suppressed: 0,
        };
    }
    // used[d][k]: directive d's k-th code suppressed something.
    let mut used: Vec<Vec<bool>> = directives
        .iter()
        .map(|d| vec![false; d.codes.len()])
        .collect();
    let mut kept = Vec::with_capacity(diagnostics.len());
    let mut suppressed = 0;
    for diag in diagnostics {
        let mut hit = false;
        for (d, flags) in directives.iter().zip(used.iter_mut()) {
            if d.error.is_some() {
                continue;
            }
            let covers = match d.scope {
                Scope::File => true,
                Scope::Line(l) => l == diag.span.line,
            };
            if !covers {
                continue;
            }
            for (k, code) in d.codes.iter().enumerate() {
                if code
                    .rule
                    .is_some_and(|r| r.code == diag.code && !rules::is_engine_rule(r.code))
                {
                    flags[k] = true;
                    hit = true;
                }
            }
        }
        if hit {
            suppressed += 1;
        } else {
            kept.push(diag);
        }
    }
    for (d, flags) in directives.iter().zip(&used) {
        report_directive(source, d, flags, rules, &mut kept);
    }
    Applied {
        diagnostics: kept,
        suppressed,
    }
}

fn report_directive(
    source: &SourceFile,
    d: &Directive,
    used: &[bool],
    rules: &RuleSet,
    out: &mut Vec<Diagnostic>,
) {
    let text = source.text.as_str();
    let directive_text = &text[d.start..d.end];
    if let Some(err) = &d.error {
        if rules.contains(INVALID_SUPPRESSION.code) {
            out.push(engine_diagnostic(
                source,
                &INVALID_SUPPRESSION,
                (d.start, d.end),
                format!("this suppression comment cannot be read: {err}"),
                "write `// warplint: ignore[WL001] reason` (this line or the next) or \
                 `// warplint: ignore-file[WL001] reason`"
                    .to_owned(),
                None,
            ));
        }
        return;
    }
    let mut bad = false;
    for code in &d.codes {
        let problem = match code.rule {
            None => Some(format!("no rule has the code or name `{}`", code.text)),
            Some(r) if rules::is_engine_rule(r.code) => Some(format!(
                "`{}` ({}) cannot be suppressed by a comment; turn it off with `ignore` \
                 in the config instead",
                r.code, r.name
            )),
            Some(_) => None,
        };
        if let Some(message) = problem {
            bad = true;
            if rules.contains(INVALID_SUPPRESSION.code) {
                out.push(engine_diagnostic(
                    source,
                    &INVALID_SUPPRESSION,
                    (code.start, code.end),
                    message,
                    "`warplint rules` lists every code and name".to_owned(),
                    None,
                ));
            }
        }
    }
    if d.reason.is_none() && rules.contains(SUPPRESSION_WITHOUT_REASON.code) {
        out.push(engine_diagnostic(
            source,
            &SUPPRESSION_WITHOUT_REASON,
            (d.start, d.end),
            format!("`{directive_text}` does not say why the finding is not a bug"),
            format!("add the reason after the bracket: `{directive_text} <why this is safe>`"),
            None,
        ));
    }
    // Codes that are real, running rules and suppressed nothing.
    let unused: Vec<usize> = d
        .codes
        .iter()
        .enumerate()
        .filter(|(k, c)| {
            !used[*k]
                && c.rule
                    .is_some_and(|r| !rules::is_engine_rule(r.code) && rules.contains(r.code))
        })
        .map(|(k, _)| k)
        .collect();
    if unused.is_empty() || !rules.contains(UNUSED_SUPPRESSION.code) {
        return;
    }
    let where_ = match d.scope {
        Scope::File => "in this file".to_owned(),
        Scope::Line(l) => format!("on line {l}"),
    };
    let all_unused = unused.len() == d.codes.len() && !bad;
    if all_unused {
        let names: Vec<String> = d
            .codes
            .iter()
            .map(|c| format!("`{}`", c.rule.map_or(c.text.as_str(), |r| r.code)))
            .collect();
        out.push(engine_diagnostic(
            source,
            &UNUSED_SUPPRESSION,
            (d.start, d.end),
            format!(
                "unused suppression: no {} diagnostic {where_}",
                names.join(" or ")
            ),
            "remove the comment; it no longer hides anything".to_owned(),
            Some(Fix {
                message: "remove the suppression comment".to_owned(),
                applicability: Applicability::Safe,
                edits: vec![remove_comment(text, d)],
                fallback: None,
            }),
        ));
        return;
    }
    let mut removed = vec![false; d.codes.len()];
    for &k in &unused {
        removed[k] = true;
    }
    for k in unused {
        let c = &d.codes[k];
        let code = c.rule.map_or(c.text.as_str(), |r| r.code);
        out.push(engine_diagnostic(
            source,
            &UNUSED_SUPPRESSION,
            (c.start, c.end),
            format!("unused suppression: no `{code}` diagnostic {where_}"),
            format!("remove `{}` from the list", c.text),
            Some(Fix {
                message: format!("remove `{}` from the suppression", c.text),
                applicability: Applicability::Safe,
                edits: vec![remove_code(d, k, &removed)],
                fallback: None,
            }),
        ));
    }
}

/// Delete a whole directive comment: its line when it is alone there,
/// otherwise the comment and the blanks before it.
fn remove_comment(text: &str, d: &Directive) -> Edit {
    let c = d.comment;
    if d.own_line {
        let start = text[..c.start].rfind('\n').map_or(0, |p| p + 1);
        let end = text[c.end..]
            .find('\n')
            .map_or(text.len(), |p| c.end + p + 1);
        return Edit {
            start_byte: start,
            end_byte: end,
            replacement: String::new(),
        };
    }
    let start =
        c.start - (text[..c.start].len() - text[..c.start].trim_end_matches([' ', '\t']).len());
    Edit {
        start_byte: start,
        end_byte: c.end,
        replacement: String::new(),
    }
}

/// Delete code `k` and one adjacent separator from the directive's list,
/// when the codes flagged in `removed` (never all of them) go too. A code
/// followed by a kept one takes the separator after it; one in the trailing
/// run of removed codes takes the separator before it. So the edits for
/// different codes never overlap, and applying any of them leaves a
/// well-formed list.
fn remove_code(d: &Directive, k: usize, removed: &[bool]) -> Edit {
    let kept_after = removed[k + 1..].iter().any(|r| !r);
    let (start, end) = if kept_after {
        (d.codes[k].start, d.codes[k + 1].start)
    } else if k > 0 {
        (d.codes[k - 1].end, d.codes[k].end)
    } else {
        (d.codes[k].start, d.codes[k].end)
    };
    Edit {
        start_byte: start,
        end_byte: end,
        replacement: String::new(),
    }
}

fn engine_diagnostic(
    source: &SourceFile,
    meta: &'static RuleMeta,
    (start, end): (usize, usize),
    message: String,
    help: String,
    fix: Option<Fix>,
) -> Diagnostic {
    Diagnostic {
        code: meta.code,
        name: meta.name,
        severity: meta.severity,
        path: source.path.clone(),
        span: source.span(start, end),
        message,
        help: Some(help),
        labels: Vec::new(),
        // A fact about the comments, not a claim about warp behaviour.
        confirmation: Confirmation {
            status: Status::Confirmed,
            reason: Some("decided from the suppression comments alone".to_owned()),
            evidence: None,
            proof: None,
            witness: None,
        },
        fix,
        fix_withheld: None,
        fingerprint: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comment_texts(text: &str) -> Vec<&str> {
        comments(text)
            .into_iter()
            .map(|c| &text[c.start..c.end])
            .collect()
    }

    #[test]
    fn the_lexer_skips_literals() {
        let src = r#"
const char *a = "// not a comment";   // real 1
char q = '"'; /* real 2 */ char r = '\'';
auto s = R"x(/* not a comment )" // still not)x"; // real 3
int big = 1'000'000; // real 4
#define M(v) __shfl(v, 0) // real 5
const char *u = u8R"(//no)"; /* real
6 */
"#;
        assert_eq!(
            comment_texts(src),
            [
                "// real 1",
                "/* real 2 */",
                "// real 3",
                "// real 4",
                "// real 5",
                "/* real\n6 */"
            ]
        );
    }

    #[test]
    fn lexing_is_linear_on_hostile_input() {
        // Quadratic rescanning here would take minutes.
        let mut src = "1".to_owned();
        src.push_str(&"'1".repeat(500_000));
        src.push_str(" // end\n");
        src.push_str(&"R".repeat(500_000));
        src.push_str("\"x\" // end2\n");
        src.push_str(&"\"".repeat(100_001));
        assert_eq!(comment_texts(&src), ["// end", "// end2"]);
    }

    #[test]
    fn broken_literals_end_at_the_line() {
        let src = "#error don't do this\nint x; // seen\n\"unterminated\n// seen too\n";
        assert_eq!(comment_texts(src), ["// seen", "// seen too"]);
        // A line splice continues a // comment.
        assert_eq!(
            comment_texts("// a \\\n b\nc // d"),
            ["// a \\\n b", "// d"]
        );
        // Unterminated comments and raw strings end at the end of input.
        assert_eq!(comment_texts("x /* open"), ["/* open"]);
        assert!(comment_texts("R\"d( // )d").is_empty());
    }

    fn parse_all(text: &str) -> Vec<Directive> {
        directives(&SourceFile::new("t.cu", text.as_bytes()))
    }

    #[test]
    fn directives_parse_codes_reason_and_scope() {
        let ds = parse_all(
            "int a; // warplint: ignore[WL001, legacy-warp-primitive] old toolkit\n\
             // warplint: ignore-file[WL001]\n\
             /* warplint:ignore[WL999] - why */\n\
             // warplint: ignore WL001\n\
             const char *s = \"// warplint: ignore[WL001] x\";\n\
             // see warplint: ignore[WL001] (not at the start)\n",
        );
        assert_eq!(ds.len(), 4, "{ds:#?}");
        assert_eq!(ds[0].scope, Scope::Line(1));
        assert!(!ds[0].own_line);
        assert_eq!(ds[0].codes.len(), 2);
        assert_eq!(ds[0].codes[1].text, "legacy-warp-primitive");
        assert_eq!(ds[0].codes[1].rule.map(|r| r.code), Some("WL001"));
        assert_eq!(ds[0].reason.as_deref(), Some("old toolkit"));
        assert_eq!(ds[1].scope, Scope::File);
        assert_eq!(ds[1].reason, None);
        assert_eq!(
            ds[2].scope,
            Scope::Line(4),
            "own-line block comment covers the next line"
        );
        assert!(ds[2].codes[0].rule.is_none());
        assert_eq!(ds[2].reason.as_deref(), Some("why"));
        assert!(ds[3].error.is_some());
    }

    #[test]
    fn removing_codes_never_overlaps_and_leaves_a_valid_list() {
        let text = "// warplint: ignore[WL001, legacy-warp-primitive,WL001] r\n";
        let d = parse_all(text).remove(0);
        // Every proper subset of the three codes.
        for mask in 1..7u32 {
            let removed: Vec<bool> = (0..3).map(|k| mask >> k & 1 == 1).collect();
            let edits: Vec<Edit> = (0..3)
                .filter(|&k| removed[k])
                .map(|k| remove_code(&d, k, &removed))
                .collect();
            for (i, a) in edits.iter().enumerate() {
                for b in &edits[i + 1..] {
                    assert!(
                        a.end_byte <= b.start_byte || b.end_byte <= a.start_byte,
                        "{removed:?}: {a:?} overlaps {b:?}"
                    );
                }
            }
            let mut out = text.to_owned();
            let mut es = edits.clone();
            es.sort_by_key(|e| std::cmp::Reverse(e.start_byte));
            for e in es {
                out.replace_range(e.start_byte..e.end_byte, &e.replacement);
            }
            let left = parse_all(&out).remove(0);
            let want: Vec<&str> = ["WL001", "legacy-warp-primitive", "WL001"]
                .iter()
                .zip(&removed)
                .filter(|(_, r)| !**r)
                .map(|(c, _)| *c)
                .collect();
            let got: Vec<&str> = left.codes.iter().map(|c| c.text.as_str()).collect();
            assert_eq!(got, want, "{removed:?}: {out}");
            assert!(left.error.is_none() && left.reason.is_some(), "{out}");
        }
    }
}
