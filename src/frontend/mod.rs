//! Stage 2: parsing. Turns a [`SourceFile`] into a tree-sitter-cuda syntax tree
//! plus the facts every later stage needs from the raw syntax: where parsing
//! failed, the file's macros, and which preprocessor regions are dead for the
//! targets being checked.
//!
//! Invariant: nothing here recurses over the tree. Walks use [`preorder`],
//! which keeps its position in a `TreeCursor`, so nesting depth costs no stack.

pub mod includes;
pub mod macros;
pub mod preproc;

use std::cell::RefCell;

use tree_sitter::{Node, Parser, Tree};

use crate::source::{SourceFile, Span};

pub use macros::MacroTable;
pub use preproc::{PreprocEnv, RegionOracle};

pub struct ParsedFile {
    pub source: SourceFile,
    pub tree: Tree,
    /// Outermost ERROR or MISSING regions. Code inside them is not analysed.
    pub error_regions: Vec<Span>,
    pub macros: MacroTable,
}

thread_local! {
    // One parser per worker thread: creating a parser is cheap but not free,
    // and a parser can be reused across files.
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Parse `text` with tree-sitter-cuda on this thread's parser.
pub fn parse_text(text: &str) -> Option<Tree> {
    PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let parser = slot.get_or_insert_with(|| {
            let mut p = Parser::new();
            p.set_language(&tree_sitter_cuda::LANGUAGE.into())
                .expect("tree-sitter-cuda is ABI-compatible with the linked tree-sitter");
            p
        });
        parser.reset();
        parser.parse(text, None)
    })
}

/// Parse a file. Returns `None` only if tree-sitter gives up entirely, which
/// it does not do without a timeout or cancellation flag; callers still treat
/// it as "nothing parsed" rather than unwrap.
pub fn parse(source: SourceFile) -> Option<ParsedFile> {
    let tree = parse_text(&source.text)?;
    let error_regions = collect_error_regions(&source, tree.root_node());
    let macros = MacroTable::collect(&source.text, tree.root_node());
    Some(ParsedFile {
        source,
        tree,
        error_regions,
        macros,
    })
}

fn collect_error_regions(source: &SourceFile, root: Node) -> Vec<Span> {
    let mut regions = Vec::new();
    if !root.has_error() {
        return regions;
    }
    preorder(root, |node| {
        if node.is_error() || node.is_missing() {
            regions.push(source.span(node.start_byte(), node.end_byte()));
            return Walk::Skip;
        }
        if node.has_error() {
            Walk::Descend
        } else {
            Walk::Skip
        }
    });
    regions
}

/// What a [`preorder`] visitor wants next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Walk {
    Descend,
    Skip,
}

/// Visit `root` and its descendants in source order without recursion.
pub fn preorder<'t>(root: Node<'t>, mut visit: impl FnMut(Node<'t>) -> Walk) {
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if visit(node) == Walk::Descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == root {
                return;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

pub fn node_text<'s>(node: Node, text: &'s str) -> &'s str {
    text.get(node.start_byte()..node.end_byte()).unwrap_or("")
}

/// True when `node` lies inside an ERROR node (its shape cannot be trusted).
pub fn inside_error(node: Node) -> bool {
    let mut cur = node.parent();
    while let Some(n) = cur {
        if n.is_error() {
            return true;
        }
        cur = n.parent();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_regions_are_reported_not_fatal() {
        let src = SourceFile::new("e.cu", b"__global__ void k() { int x = ; }\nint ok;\n");
        let parsed = parse(src).unwrap();
        assert!(!parsed.error_regions.is_empty());
        assert_eq!(parsed.error_regions[0].line, 1);
    }

    #[test]
    fn preorder_handles_deep_nesting_without_recursion() {
        let depth = 20_000;
        let text = format!("int x = {}1{};", "(".repeat(depth), ")".repeat(depth));
        let parsed = parse(SourceFile::new("d.cu", text.as_bytes())).unwrap();
        let mut count = 0usize;
        preorder(parsed.tree.root_node(), |_| {
            count += 1;
            Walk::Descend
        });
        assert!(count > depth);
    }
}
