//! Code actions for warplint's own diagnostics: insert a suppression
//! comment, or apply the diagnostic's fix.
//!
//! Everything comes from the `data` the server attached when it published
//! the diagnostic, and only while the document is still at the version that
//! data was computed for: stale ranges would edit the wrong text.

use std::collections::{BTreeSet, HashMap};

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, DocumentChanges, OneOf,
    OptionalVersionedTextDocumentIdentifier, Position, Range, TextDocumentEdit, TextEdit, Uri,
    WorkspaceEdit,
};

use super::convert::{DiagnosticData, LineIndex};

/// The document the request is about, as the server has it now.
pub struct ActionDoc<'a> {
    pub uri: &'a Uri,
    pub text: &'a str,
    pub index: &'a LineIndex,
    pub version: i32,
    /// The client applies `documentChanges` (versioned edits).
    pub document_changes: bool,
}

pub fn code_actions(params: &CodeActionParams, doc: &ActionDoc) -> Vec<CodeActionOrCommand> {
    if let Some(only) = &params.context.only {
        // A requested kind matches its sub-kinds: `quickfix` or `` (all).
        let wanted = only.iter().any(|k| {
            let k = k.as_str();
            k.is_empty() || CodeActionKind::QUICKFIX.as_str().starts_with(k)
        });
        if !wanted {
            return Vec::new();
        }
    }
    let mut fixes = Vec::new();
    let mut suppressions = Vec::new();
    let mut suppressed: BTreeSet<(u32, String)> = BTreeSet::new();
    for d in &params.context.diagnostics {
        if d.source.as_deref() != Some("warplint") {
            continue;
        }
        let Some(lsp_types::NumberOrString::String(code)) = &d.code else {
            continue;
        };
        let Some(data) = d
            .data
            .clone()
            .and_then(|v| serde_json::from_value::<DiagnosticData>(v).ok())
        else {
            continue;
        };
        if data.version != doc.version {
            continue;
        }
        if let Some(fix) = &data.fix
            && !fix.edits.is_empty()
        {
            let safe = fix.applicability == "safe";
            let title = if safe {
                format!("Fix {code}: {}", fix.message)
            } else {
                format!(
                    "Unsafe fix for {code}: {} (changes behaviour unless its assumption holds; review it)",
                    fix.message
                )
            };
            fixes.push(action(title, d.clone(), edit(doc, fix.edits.clone()), safe));
        }
        let line = d.range.start.line;
        if suppressed.insert((line, code.clone()))
            && let Some(insert) = suppression_edit(doc, line as usize, code)
        {
            suppressions.push(action(
                format!("Suppress {code} on this line (`// warplint: ignore[{code}]`)"),
                d.clone(),
                edit(doc, vec![insert]),
                false,
            ));
        }
    }
    fixes.into_iter().chain(suppressions).collect()
}

/// `// warplint: ignore[CODE]` on its own line above `line`, indented like
/// it. The reason is left for the user to write after the comment (warplint
/// warns about suppressions without one). `None` when the line above ends
/// in `\` (inside a multi-line macro), where an inserted line comment would
/// cut the directive in two.
pub fn suppression_edit(doc: &ActionDoc, line: usize, code: &str) -> Option<TextEdit> {
    if line >= doc.index.line_count() {
        return None;
    }
    let continued = |l: usize| {
        let (s, e) = doc.index.line_range(doc.text, l);
        doc.text[s..e].trim_end().ends_with('\\')
    };
    if line > 0 && continued(line - 1) {
        return None;
    }
    let (s, e) = doc.index.line_range(doc.text, line);
    let content = &doc.text[s..e];
    let indent = &content[..content.len() - content.trim_start().len()];
    let newline = if doc.text.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let at = Position::new(line as u32, 0);
    Some(TextEdit {
        range: Range::new(at, at),
        new_text: format!("{indent}// warplint: ignore[{code}]{newline}"),
    })
}

fn edit(doc: &ActionDoc, edits: Vec<TextEdit>) -> WorkspaceEdit {
    if doc.document_changes {
        WorkspaceEdit {
            document_changes: Some(DocumentChanges::Edits(vec![TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier {
                    uri: doc.uri.clone(),
                    version: Some(doc.version),
                },
                edits: edits.into_iter().map(OneOf::Left).collect(),
            }])),
            ..WorkspaceEdit::default()
        }
    } else {
        WorkspaceEdit::new(HashMap::from([(doc.uri.clone(), edits)]))
    }
}

fn action(
    title: String,
    diagnostic: lsp_types::Diagnostic,
    edit: WorkspaceEdit,
    preferred: bool,
) -> CodeActionOrCommand {
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostic]),
        edit: Some(edit),
        is_preferred: preferred.then_some(true),
        ..CodeAction::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::convert::{self, DocView, Encoding};

    const SRC: &str =
        "__device__ float f(float v) {\n    v += __shfl_down(v, 1);\n    return v;\n}\n";

    fn published(text: &str, version: i32, enc: Encoding) -> Vec<lsp_types::Diagnostic> {
        let outcome = crate::engine::check_source("k.cu", text.as_bytes(), &Default::default());
        let uri: Uri = "file:///k.cu".parse().unwrap();
        let index = LineIndex::new(text);
        let view = DocView {
            uri: &uri,
            text,
            index: &index,
            version,
            encoding: enc,
            rules_base_url: "https://example.org/",
        };
        outcome
            .diagnostics
            .iter()
            .map(|d| convert::to_lsp(d, outcome.source.as_deref(), &view))
            .collect()
    }

    fn request(
        diags: Vec<lsp_types::Diagnostic>,
        only: Option<Vec<CodeActionKind>>,
    ) -> CodeActionParams {
        serde_json::from_value(serde_json::json!({
            "textDocument": {"uri": "file:///k.cu"},
            "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}},
            "context": {"diagnostics": diags, "only": only},
        }))
        .unwrap()
    }

    fn titles(actions: &[CodeActionOrCommand]) -> Vec<String> {
        actions
            .iter()
            .map(|a| match a {
                CodeActionOrCommand::CodeAction(a) => a.title.clone(),
                CodeActionOrCommand::Command(c) => c.title.clone(),
            })
            .collect()
    }

    /// Apply one action's edits to `text` (edits refer to the original text).
    fn apply(text: &str, action: &CodeActionOrCommand, enc: Encoding) -> String {
        let CodeActionOrCommand::CodeAction(a) = action else {
            panic!("command")
        };
        let we = a.edit.as_ref().unwrap();
        let edits: Vec<TextEdit> = match &we.document_changes {
            Some(DocumentChanges::Edits(e)) => e[0]
                .edits
                .iter()
                .map(|e| match e {
                    OneOf::Left(t) => t.clone(),
                    OneOf::Right(a) => a.text_edit.clone(),
                })
                .collect(),
            _ => we
                .changes
                .as_ref()
                .unwrap()
                .values()
                .next()
                .unwrap()
                .clone(),
        };
        let index = LineIndex::new(text);
        let mut spans: Vec<(usize, usize, String)> = edits
            .iter()
            .map(|e| {
                (
                    index.offset(text, e.range.start, enc),
                    index.offset(text, e.range.end, enc),
                    e.new_text.clone(),
                )
            })
            .collect();
        spans.sort_by_key(|s| std::cmp::Reverse(s.0));
        let mut out = text.to_owned();
        for (s, e, t) in spans {
            out.replace_range(s..e, &t);
        }
        out
    }

    fn doc<'a>(uri: &'a Uri, text: &'a str, index: &'a LineIndex, version: i32) -> ActionDoc<'a> {
        ActionDoc {
            uri,
            text,
            index,
            version,
            document_changes: true,
        }
    }

    #[test]
    fn offers_unsafe_fix_and_suppression_that_both_apply_cleanly() {
        let uri: Uri = "file:///k.cu".parse().unwrap();
        let index = LineIndex::new(SRC);
        let diags = published(SRC, 3, Encoding::Utf16);
        assert_eq!(diags.len(), 1);
        let actions = code_actions(&request(diags, None), &doc(&uri, SRC, &index, 3));
        let t = titles(&actions);
        assert_eq!(t.len(), 2, "{t:?}");
        assert!(
            t[0].starts_with("Unsafe fix for WL001: replace with `__shfl_down_sync"),
            "{t:?}"
        );
        assert!(t[1].starts_with("Suppress WL001"), "{t:?}");

        let fixed = apply(SRC, &actions[0], Encoding::Utf16);
        assert!(
            fixed.contains("v += __shfl_down_sync(0xffffffff, v, 1);"),
            "{fixed}"
        );
        assert!(
            crate::engine::check_source("k.cu", fixed.as_bytes(), &Default::default())
                .diagnostics
                .is_empty()
        );

        let suppressed = apply(SRC, &actions[1], Encoding::Utf16);
        assert!(
            suppressed.contains("{\n    // warplint: ignore[WL001]\n    v += __shfl_down(v, 1);"),
            "{suppressed}"
        );
    }

    #[test]
    fn stale_data_and_foreign_diagnostics_give_no_actions() {
        let uri: Uri = "file:///k.cu".parse().unwrap();
        let index = LineIndex::new(SRC);
        let mut diags = published(SRC, 3, Encoding::Utf16);
        // Version 4 is newer than what the data was computed for.
        assert!(code_actions(&request(diags.clone(), None), &doc(&uri, SRC, &index, 4)).is_empty());
        diags[0].source = Some("clangd".into());
        assert!(code_actions(&request(diags.clone(), None), &doc(&uri, SRC, &index, 3)).is_empty());
        diags[0].source = Some("warplint".into());
        diags[0].data = Some(serde_json::json!({"garbage": [1, 2]}));
        assert!(code_actions(&request(diags, None), &doc(&uri, SRC, &index, 3)).is_empty());
    }

    #[test]
    fn only_filters_by_kind() {
        let uri: Uri = "file:///k.cu".parse().unwrap();
        let index = LineIndex::new(SRC);
        let diags = published(SRC, 1, Encoding::Utf16);
        let d = doc(&uri, SRC, &index, 1);
        let source_only = request(diags.clone(), Some(vec![CodeActionKind::SOURCE]));
        assert!(code_actions(&source_only, &d).is_empty());
        let quickfix = request(diags, Some(vec![CodeActionKind::QUICKFIX]));
        assert_eq!(code_actions(&quickfix, &d).len(), 2);
    }

    #[test]
    fn fix_edits_are_right_in_utf16_after_astral_characters() {
        let text = "__device__ int g(int v) { /* 😀😀 */ return __shfl(v, 0); }\n";
        let uri: Uri = "file:///k.cu".parse().unwrap();
        let index = LineIndex::new(text);
        let diags = published(text, 1, Encoding::Utf16);
        let mut req = request(diags, None);
        req.range = Range::default();
        let actions = code_actions(&req, &doc(&uri, text, &index, 1));
        let fixed = apply(text, &actions[0], Encoding::Utf16);
        assert!(
            fixed.contains("/* 😀😀 */ return __shfl_sync(0xffffffff, v, 0); }"),
            "{fixed}"
        );
        // Plain `changes` for clients without versioned edits.
        let mut plain = doc(&uri, text, &index, 1);
        plain.document_changes = false;
        let actions = code_actions(&req, &plain);
        assert_eq!(apply(text, &actions[0], Encoding::Utf16), fixed);
    }

    #[test]
    fn suppression_keeps_crlf_and_refuses_macro_continuations() {
        let uri: Uri = "file:///k.cu".parse().unwrap();
        let text = "int a;\r\n\tint b;\r\n";
        let index = LineIndex::new(text);
        let e = suppression_edit(&doc(&uri, text, &index, 1), 1, "WL002").unwrap();
        assert_eq!(e.new_text, "\t// warplint: ignore[WL002]\r\n");
        assert_eq!(e.range.start, Position::new(1, 0));

        let mac = "#define R(v) \\\n    __shfl(v, 0)\n";
        let index = LineIndex::new(mac);
        assert!(suppression_edit(&doc(&uri, mac, &index, 1), 1, "WL001").is_none());
        // Above the `#define` line itself is fine.
        assert!(suppression_edit(&doc(&uri, mac, &index, 1), 0, "WL001").is_some());
        assert!(suppression_edit(&doc(&uri, mac, &index, 1), 9, "WL001").is_none());
    }

    /// The editor's quick fix and `warplint check --fix` write the same
    /// text: both take the diagnostic's edits from `rules::fixes`.
    #[test]
    fn code_action_text_equals_the_cli_fix() {
        let text = "__global__ void k(int *out, int n) {\n    int lane = threadIdx.x & 31;\n    int v = out[lane];\n    if (lane < 16) {\n        v += __shfl_xor(v, 1);\n    }\n    out[lane] = v;\n}\n";
        let uri: Uri = "file:///k.cu".parse().unwrap();
        let index = LineIndex::new(text);
        let diags = published(text, 1, Encoding::Utf16);
        let actions = code_actions(&request(diags, None), &doc(&uri, text, &index, 1));
        assert!(
            titles(&actions)[0].starts_with("Fix WL001: use `__shfl_xor_sync(mask, …)`"),
            "{:?}",
            titles(&actions)
        );
        let from_editor = apply(text, &actions[0], Encoding::Utf16);
        let opts = crate::engine::Options::default();
        let outcome = crate::engine::check_source("k.cu", text.as_bytes(), &opts);
        let from_cli = crate::fix::fix_text("k.cu", text, &outcome, &opts, false).unwrap();
        assert_eq!(from_editor, from_cli.fixed);
        assert!(
            from_cli
                .fixed
                .contains("    unsigned mask = __ballot_sync(0xffffffff, lane < 16);\n    if (lane < 16) {\n        v += __shfl_xor_sync(mask, v, 1);"),
            "{}",
            from_cli.fixed
        );
        assert!(
            from_cli.after.diagnostics.is_empty(),
            "{:?}",
            from_cli.after.diagnostics
        );
    }
}
