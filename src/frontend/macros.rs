//! The file's macro table.
//!
//! tree-sitter sees a macro body as one opaque `preproc_arg` string. We keep
//! each body's text and offset so that rules can parse it as code and report
//! positions in the original file, and so that constant folding can expand
//! object-like macros.

use crate::frontend::Field as _;
use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use tree_sitter::{Node, Tree};

use super::{Walk, node_text, parse_text, preorder};

#[derive(Debug, Clone)]
pub struct Macro {
    pub name: String,
    /// `Some` for function-like macros.
    pub params: Option<Vec<String>>,
    /// The body with line continuations blanked (same length as in the file,
    /// so offsets map one to one).
    pub body: String,
    /// Byte offset of the body in the file.
    pub body_start: usize,
    /// Byte offset of the `#define` itself, for region (dead-code) queries.
    pub define_start: usize,
}

#[derive(Debug, Default)]
pub struct MacroTable {
    pub defs: Vec<Macro>,
    by_name: HashMap<String, usize>,
    /// Macros defined by the headers this file includes (translation
    /// units): consulted after the file's own. Their offsets point into
    /// their headers, so they are never listed in `defs`.
    inherited: Option<Arc<HashMap<String, Arc<Macro>>>>,
}

impl MacroTable {
    pub fn collect(text: &str, root: Node) -> MacroTable {
        let mut table = MacroTable::default();
        preorder(root, |node| match node.kind() {
            "preproc_def" | "preproc_function_def" => {
                if let Some(m) = read_macro(node, text) {
                    table.by_name.insert(m.name.clone(), table.defs.len());
                    table.defs.push(m);
                }
                Walk::Skip
            }
            // Macros are defined at file scope, in preprocessor blocks, and
            // in the bodies of functions (of templates too), classes and
            // statements; expressions never hold one.
            "translation_unit"
            | "preproc_if"
            | "preproc_ifdef"
            | "preproc_else"
            | "preproc_elif"
            | "preproc_elifdef"
            | "linkage_specification"
            | "declaration_list"
            | "namespace_definition"
            | "template_declaration"
            | "class_specifier"
            | "struct_specifier"
            | "field_declaration_list"
            | "compound_statement"
            | "function_definition"
            | "if_statement"
            | "else_clause"
            | "for_statement"
            | "for_range_loop"
            | "while_statement"
            | "do_statement"
            | "switch_statement"
            | "case_statement"
            | "ERROR" => Walk::Descend,
            _ => Walk::Skip,
        });
        table
    }

    /// The last definition of `name` in the file, else the one its
    /// included headers give.
    pub fn get(&self, name: &str) -> Option<&Macro> {
        match self.by_name.get(name) {
            Some(&i) => Some(&self.defs[i]),
            None => self.inherited.as_ref()?.get(name).map(|m| m.as_ref()),
        }
    }

    /// Make the macros of included headers visible to [`MacroTable::get`].
    pub fn inherit(&mut self, macros: Arc<HashMap<String, Arc<Macro>>>) {
        self.inherited = (!macros.is_empty()).then_some(macros);
    }

    pub fn is_empty(&self) -> bool {
        self.defs.is_empty()
    }
}

fn read_macro(node: Node, text: &str) -> Option<Macro> {
    let name = node_text(node.field("name")?, text).to_owned();
    let params = node.field("parameters").map(|p| {
        let mut c = p.walk();
        p.named_children(&mut c)
            .map(|n| node_text(n, text).to_owned())
            .collect()
    });
    let (body, body_start) = match node.field("value") {
        Some(v) => (blank_continuations(node_text(v, text)), v.start_byte()),
        None => (String::new(), node.end_byte()),
    };
    Some(Macro {
        name,
        params,
        body,
        body_start,
        define_start: node.start_byte(),
    })
}

/// Replace backslash-newline pairs with spaces, keeping every byte offset.
fn blank_continuations(body: &str) -> String {
    let mut out = body.as_bytes().to_vec();
    let mut i = 0;
    while i < out.len() {
        if out[i] == b'\\' {
            let mut j = i + 1;
            if out.get(j) == Some(&b'\r') {
                j += 1;
            }
            if out.get(j) == Some(&b'\n') {
                for b in &mut out[i..=j] {
                    *b = b' ';
                }
                i = j;
            }
        }
        i += 1;
    }
    // Only ASCII bytes were replaced by ASCII, so this stays valid UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// A macro body parsed as the body of a function, with a mapping back to the
/// file: `file_offset(tree_offset)`.
pub struct ParsedBody {
    pub tree: Tree,
    pub text: String,
    prefix: usize,
    body_start: usize,
}

const BODY_PREFIX: &str = "void __warplint_macro_body__() {\n";

impl ParsedBody {
    pub fn parse(m: &Macro) -> Option<ParsedBody> {
        let text = format!("{BODY_PREFIX}{}\n;}}\n", m.body);
        let tree = parse_text(&text)?;
        Some(ParsedBody {
            tree,
            text,
            prefix: BODY_PREFIX.len(),
            body_start: m.body_start,
        })
    }

    /// Map an offset in the parsed text to an offset in the original file.
    /// Offsets in the synthetic wrapper clamp to the body's ends.
    pub fn file_offset(&self, offset: usize) -> usize {
        self.body_start + offset.saturating_sub(self.prefix)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collects_object_and_function_like_macros() {
        let src = "#define FULL 0xffffffffu\n#define SHFL(v, l) \\\n  __shfl(v, l)\nint x;\n";
        let tree = parse_text(src).unwrap();
        let t = MacroTable::collect(src, tree.root_node());
        assert_eq!(t.get("FULL").unwrap().body.trim(), "0xffffffffu");
        let m = t.get("SHFL").unwrap();
        assert_eq!(
            m.params.as_deref(),
            Some(&["v".to_owned(), "l".to_owned()][..])
        );
        let body_pos = m.body.find("__shfl").unwrap();
        assert_eq!(&src[m.body_start + body_pos..][..6], "__shfl");
        let parsed = ParsedBody::parse(m).unwrap();
        let at = parsed.text.find("__shfl").unwrap();
        assert_eq!(parsed.file_offset(at), m.body_start + body_pos);
    }

    #[test]
    fn collects_macros_defined_in_template_and_statement_bodies() {
        let src = "template <int N> __device__ void f(int *h) {
#define TAKE h[4]
                     if (N) {
#define GIVE h[5]
  }
}
                   struct S {
#define INNER 3
};
";
        let tree = parse_text(src).unwrap();
        let t = MacroTable::collect(src, tree.root_node());
        for name in ["TAKE", "GIVE", "INNER"] {
            assert!(t.get(name).is_some(), "{name} not collected");
        }
    }
}
