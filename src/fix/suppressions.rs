//! `--add-suppressions REASON`: a `// warplint: ignore[CODE] REASON`
//! comment above each line with findings (see `crate::suppress` for the
//! syntax), so that a legacy tree can adopt warplint and fix later.

use std::collections::{BTreeMap, BTreeSet};

use super::apply_edits;
use crate::diagnostic::{Diagnostic, Edit};
use crate::rules::is_engine_rule;

const DIRECTIVE: &str = "// warplint: ignore[";

/// `text` with suppression comments for `diagnostics` (engine codes, which
/// comments cannot silence, are left out). An existing directive alone on
/// the line above is extended rather than stacked (a second comment would
/// leave the first covering the wrong line). Returns the new text, how many
/// findings it covers, and notes (`:LINE: why`) for lines it could not.
pub fn add(text: &str, diagnostics: &[Diagnostic], reason: &str) -> (String, usize, Vec<String>) {
    let reason = reason.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut by_line: BTreeMap<usize, BTreeSet<&str>> = BTreeMap::new();
    let mut covered: BTreeMap<usize, usize> = BTreeMap::new();
    for d in diagnostics.iter().filter(|d| !is_engine_rule(d.code)) {
        by_line.entry(d.span.line).or_default().insert(d.code);
        *covered.entry(d.span.line).or_default() += 1;
    }
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line_text = |l: usize| -> &str {
        let s = starts[l - 1];
        let e = starts.get(l).map_or(text.len(), |&n| n - 1);
        text[s..e].trim_end_matches('\r')
    };
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let mut edits = Vec::new();
    let mut notes = Vec::new();
    let mut count = 0;
    for (line, codes) in by_line {
        if line == 0 || line > starts.len() {
            continue;
        }
        let above = (line > 1).then(|| line_text(line - 1));
        if above.is_some_and(|a| a.trim_end().ends_with('\\')) {
            notes.push(format!(
                "{line}: not suppressed: the line continues a macro, where a comment line would cut it"
            ));
            continue;
        }
        let codes: Vec<&str> = codes.into_iter().collect();
        match above.map(str::trim_start) {
            Some(a) if a.starts_with(DIRECTIVE) => {
                let listed = &a[DIRECTIVE.len()..a.find(']').unwrap_or(DIRECTIVE.len())];
                let new: Vec<&str> = codes
                    .iter()
                    .copied()
                    .filter(|c| !listed.split(',').any(|l| l.trim() == *c))
                    .collect();
                if !new.is_empty() {
                    let at = starts[line - 2]
                        + line_text(line - 1).find(DIRECTIVE).unwrap_or(0)
                        + DIRECTIVE.len();
                    edits.push(Edit {
                        start_byte: at,
                        end_byte: at,
                        replacement: format!("{}, ", new.join(", ")),
                    });
                }
            }
            _ => {
                let content = line_text(line);
                let indent = &content[..content.len() - content.trim_start().len()];
                let at = starts[line - 1];
                edits.push(Edit {
                    start_byte: at,
                    end_byte: at,
                    replacement: format!(
                        "{indent}{DIRECTIVE}{}] {reason}{newline}",
                        codes.join(", ")
                    ),
                });
            }
        }
        count += covered[&line];
    }
    let fixed = apply_edits(text, &edits).unwrap_or_else(|| text.to_owned());
    (fixed, count, notes)
}
