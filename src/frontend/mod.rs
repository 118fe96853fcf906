//! Stage 2: parsing. Turns a [`SourceFile`] into a tree-sitter-cuda syntax tree
//! plus the facts every later stage needs from the raw syntax: where parsing
//! failed, the file's macros, and which preprocessor regions are dead for the
//! targets being checked.
//!
//! Invariant: nothing here recurses over the tree. Walks use [`preorder`],
//! which keeps its position in a `TreeCursor`, so nesting depth costs no stack.

pub mod configure;
pub mod cut;
pub mod gaps;
pub mod host_bodies;
pub mod macros;
pub mod preproc;

use std::cell::RefCell;
use std::ops::ControlFlow;

use tree_sitter::{Node, ParseOptions, Parser, Tree};

use crate::source::{SourceFile, Span};

pub use configure::{ConfiguredView, MacroEffect, MacroEnv, PpConfig, configure};
pub use macros::MacroTable;
pub use preproc::{PreprocEnv, RegionOracle};

pub struct ParsedFile {
    pub source: SourceFile,
    pub tree: Tree,
    /// Outermost ERROR or MISSING regions. Code inside them is not analysed.
    pub error_regions: Vec<Span>,
    pub macros: MacroTable,
    /// Function definitions in the tree, and how many of them hold or sit
    /// in a parse error (see [`count_functions`]).
    pub functions: FunctionCount,
    /// What configuring the file decided (its `text` is empty: the parsed
    /// text is `source.text`). Default for files parsed unconfigured.
    pub view: ConfiguredView,
}

/// How many function definitions a tree has, and how many did not parse.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FunctionCount {
    /// `function_definition` nodes (nested in classes, namespaces and
    /// templates included), plus definitions lost inside ERROR nodes.
    pub total: usize,
    /// Those with an ERROR/MISSING node inside, inside an ERROR node, or
    /// lost in one.
    pub with_parse_errors: usize,
}

thread_local! {
    // One parser per worker thread: creating a parser is cheap but not free,
    // and a parser can be reused across files.
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// The default parse budget, in tree-sitter parser operations (about one per
/// token shifted or node reduced). Measured: real CUB headers cost 0.3–0.4
/// operations per byte (so about 4 MB of such code fits), dense generated
/// kernels 1.3 (about 1.1 MB, 2,800 small kernels), and tree-sitter-cuda
/// runs about 4 million operations per second on one core of the benchmark
/// machine. The whole pipeline costs about 0.45 µs per parse operation on
/// dense kernels (IR, dataflow and rules grow with the code parsed), so a
/// file at this budget takes about a second with the executor's per-file
/// budget included. It is counted, not timed: whether a file is analysed
/// never depends on the machine's speed or load.
pub const DEFAULT_MAX_PARSE_OPERATIONS: u64 = 1_500_000;

/// What a file past the parse budget can do about it.
pub const RAISE_PARSE_BUDGET: &str =
    "split the file or raise `max-operations` under `[parser]` in warplint.toml";

/// Why a file produced no syntax tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotParsed {
    /// Parsing was stopped after this many parser operations.
    BudgetExceeded {
        operations: u64,
        bytes_reached: usize,
    },
    /// The view is past the budget and not even its first top-level
    /// declaration fits it (`cut.rs`): nothing was parsed.
    NothingFits { operations: u64 },
    /// tree-sitter returned no tree (it does not, short of cancellation).
    NoTree,
}

impl std::fmt::Display for NotParsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotParsed::BudgetExceeded {
                operations,
                bytes_reached,
            } => write!(
                f,
                "not analysed: parsing exceeded the budget of {operations} parser operations \
                 (stopped at byte {bytes_reached}); {RAISE_PARSE_BUDGET}"
            ),
            NotParsed::NothingFits { operations } => write!(
                f,
                "not analysed: its first declaration alone is past the parse budget of \
                 {operations} parser operations; {RAISE_PARSE_BUDGET}"
            ),
            NotParsed::NoTree => write!(f, "not analysed: the parser produced no syntax tree"),
        }
    }
}

/// Parse `text` with tree-sitter-cuda on this thread's parser, with the
/// default budget.
pub fn parse_text(text: &str) -> Option<Tree> {
    parse_text_within(text, DEFAULT_MAX_PARSE_OPERATIONS).ok()
}

/// Parse `text`, giving up after `max_operations` parser operations.
pub fn parse_text_within(text: &str, max_operations: u64) -> Result<Tree, NotParsed> {
    // tree-sitter calls the progress callback once per this many operations.
    const OPS_PER_CALLBACK: u64 = 100;
    let bytes = text.as_bytes();
    let mut callbacks = 0u64;
    let mut bytes_reached = 0usize;
    let mut over_budget = false;
    let mut progress = |state: &tree_sitter::ParseState| {
        callbacks += 1;
        bytes_reached = state.current_byte_offset();
        if callbacks.saturating_mul(OPS_PER_CALLBACK) > max_operations {
            over_budget = true;
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let tree = PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let parser = slot.get_or_insert_with(|| {
            let mut p = Parser::new();
            p.set_language(language())
                .expect("tree-sitter-cuda is ABI-compatible with the linked tree-sitter");
            p
        });
        parser.reset();
        // Long blank runs (what configuration removed) are not read.
        let gaps = gaps::blank_gaps(bytes);
        let ranged = !gaps.is_empty()
            && parser
                .set_included_ranges(&gaps::included_ranges(bytes, &gaps))
                .is_ok();
        let mut input = |at: usize, _| bytes.get(at..).unwrap_or(&[]);
        let options = ParseOptions::new().progress_callback(&mut progress);
        let tree = parser.parse_with_options(&mut input, None, Some(options));
        // A cancelled parse leaves state behind for resumption; drop it.
        parser.reset();
        if ranged {
            let _ = parser.set_included_ranges(&[]);
        }
        tree
    });
    match tree {
        Some(tree) => Ok(tree),
        None if over_budget => Err(NotParsed::BudgetExceeded {
            operations: max_operations,
            bytes_reached,
        }),
        None => Err(NotParsed::NoTree),
    }
}

/// Parse a file with the default budget. `None` when it could not be parsed
/// (see [`parse_within`] for the reason).
pub fn parse(source: SourceFile) -> Option<ParsedFile> {
    parse_within(source, DEFAULT_MAX_PARSE_OPERATIONS).ok()
}

/// Parse a file, giving up after `max_operations` parser operations.
pub fn parse_within(source: SourceFile, max_operations: u64) -> Result<ParsedFile, NotParsed> {
    parse_view(source, ConfiguredView::default(), max_operations)
}

fn parse_view(
    source: SourceFile,
    view: ConfiguredView,
    max_operations: u64,
) -> Result<ParsedFile, NotParsed> {
    if view.cut_at == Some(0) {
        return Err(NotParsed::NothingFits {
            operations: max_operations,
        });
    }
    let tree = parse_text_within(&source.text, max_operations)?;
    let error_regions = collect_error_regions(&source, tree.root_node());
    let macros = MacroTable::collect(&source.text, tree.root_node());
    let functions = count_functions(tree.root_node(), &source.text, &view.host_bodies);
    Ok(ParsedFile {
        source,
        tree,
        error_regions,
        macros,
        functions,
        view,
    })
}

/// Parse the configured view of a file (see [`configure`]) for `config`,
/// with a macro environment started from the configuration alone. The
/// parsed file's `source.text` is the view: same length and lines as the
/// input; the input text is returned beside it, for rendering, when the view
/// differs from it.
pub fn parse_configured(
    source: SourceFile,
    config: &PpConfig,
    max_operations: u64,
) -> Result<(ParsedFile, Option<String>), NotParsed> {
    let mut env = MacroEnv::from_config(config);
    parse_configured_in(source, config, &mut env, max_operations)
}

/// [`parse_configured`] starting from `env` (a translation unit's macros
/// so far), which the file's `#define`s and `#undef`s then update.
pub fn parse_configured_in(
    source: SourceFile,
    config: &PpConfig,
    env: &mut MacroEnv,
    max_operations: u64,
) -> Result<(ParsedFile, Option<String>), NotParsed> {
    let max_tokens = usize::try_from(max_operations).unwrap_or(usize::MAX);
    let view = configure::configure_within(source.text.as_bytes(), config, env, max_tokens);
    parse_configured_view(source, view, max_operations)
}

/// Parse `view`, the configured view of `source` (the text as written).
pub fn parse_configured_view(
    source: SourceFile,
    mut view: ConfiguredView,
    max_operations: u64,
) -> Result<(ParsedFile, Option<String>), NotParsed> {
    let text = std::mem::take(&mut view.text);
    let (configured, original) = if text == source.text {
        (source, None)
    } else {
        let lossy = source.lossy;
        let path = source.path.clone();
        (
            SourceFile::from_string(path, text, lossy),
            Some(source.text),
        )
    };
    Ok((parse_view(configured, view, max_operations)?, original))
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

/// Count the function definitions of a tree and those with parse errors.
///
/// A `function_definition` counts as broken when it contains an ERROR or
/// MISSING node or lies inside an ERROR node. A definition the parser lost
/// entirely leaves, inside an ERROR node, a `{…}` block right after a `)`
/// (a parameter list): each such block counts as one broken definition too.
/// One preorder walk, so linear in the tree.
pub fn count_functions(root: Node, text: &str, blanked_bodies: &[usize]) -> FunctionCount {
    let mut count = FunctionCount::default();
    // End bytes of the ERROR nodes enclosing the current node.
    let mut errors: Vec<usize> = Vec::new();
    preorder(root, |node| {
        let start = node.start_byte();
        while errors.last().is_some_and(|&end| start >= end) {
            errors.pop();
        }
        // A host body blanked before parsing was not parsed: not counted.
        let blanked = || {
            node.field("body")
                .is_some_and(|b| blanked_bodies.binary_search(&b.start_byte()).is_ok())
        };
        if node.kind() == "function_definition" && !blanked() {
            count.total += 1;
            if !errors.is_empty() || node.has_error() {
                count.with_parse_errors += 1;
            }
        }
        if node.is_error() {
            let lost = lost_definitions(node, text);
            count.total += lost;
            count.with_parse_errors += lost;
            errors.push(node.end_byte());
        }
        // Expression statements and the lists inside expressions define no
        // function (a local class is a `declaration`; one local to a lambda
        // written in an expression is not counted), and without an error
        // inside they lose none: most of a tree is not walked.
        if !node.has_error() && NO_DEFINITIONS_INSIDE.contains(&node.kind()) {
            Walk::Skip
        } else {
            Walk::Descend
        }
    });
    count
}

/// Node kinds that hold no `function_definition` (see [`count_functions`]).
const NO_DEFINITIONS_INSIDE: &[&str] = &[
    "expression_statement",
    "return_statement",
    "condition_clause",
    "argument_list",
    "parameter_list",
    "initializer_list",
    "string_literal",
    "template_argument_list",
    "gnu_asm_expression",
];

/// Function definitions the parser lost inside `error`: direct children
/// that are a `{…}` block right after a `)` that does not close an
/// `if`/`while`/`for`/`switch`/`catch` condition.
fn lost_definitions(error: Node, text: &str) -> usize {
    let mut lost = 0;
    let mut cursor = error.walk();
    let mut prev: [Option<Node>; 2] = [None, None];
    for child in error.children(&mut cursor) {
        if child.kind() == "compound_statement"
            && let Some(p) = prev[1]
        {
            let closes_paren = node_text(p, text).ends_with(')');
            let statement =
                prev[0].is_some_and(|k| {
                    matches!(
                        node_text(k, text),
                        "if" | "while" | "for" | "switch" | "catch"
                    )
                }) || matches!(p.kind(), "condition_clause" | "parenthesized_expression");
            if closes_paren && !statement {
                lost += 1;
            }
        }
        prev = [prev[1], Some(child)];
    }
    lost
}

/// A node's child by field name, the field's id looked up once per run:
/// tree-sitter's own lookup (`child_by_field_name`) compares the name with
/// every field name of the grammar on each call, a few per cent of the
/// time lowering takes.
pub trait Field<'t> {
    fn field(&self, name: &str) -> Option<Node<'t>>;
}

impl<'t> Field<'t> for Node<'t> {
    fn field(&self, name: &str) -> Option<Node<'t>> {
        field_id(name).and_then(|id| self.child_by_field_id(id))
    }
}

/// The grammar, built once for the parsers and the name tables.
pub fn language() -> &'static tree_sitter::Language {
    static LANGUAGE: std::sync::LazyLock<tree_sitter::Language> =
        std::sync::LazyLock::new(|| tree_sitter_cuda::LANGUAGE.into());
    &LANGUAGE
}

/// `n.kind()` from a table built once: the same name, without the C
/// string's length scan and UTF-8 check `Node::kind` does on every call
/// (a walk over every node of a file asks it for each).
pub fn kind_of(n: Node) -> &'static str {
    static NAMES: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
        let language = language();
        let count = u16::try_from(language.node_kind_count()).unwrap_or(u16::MAX);
        (0..count)
            .map(|id| language.node_kind_for_id(id).unwrap_or(""))
            .collect()
    });
    // Every id a tree of this grammar holds is in the table.
    NAMES.get(usize::from(n.kind_id())).copied().unwrap_or("")
}

fn field_id(name: &str) -> Option<u16> {
    static IDS: std::sync::LazyLock<rustc_hash::FxHashMap<String, u16>> =
        std::sync::LazyLock::new(|| {
            let language = language();
            let count = u16::try_from(language.field_count()).unwrap_or(u16::MAX);
            (1..=count)
                .filter_map(|id| Some((language.field_name_for_id(id)?.to_owned(), id)))
                .collect()
        });
    IDS.get(name).copied()
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
    ancestors(node).iter().any(|n| n.is_error())
}

/// The root of the tree that `node` belongs to.
pub fn root_of(node: Node<'_>) -> Node<'_> {
    let raw = node.into_raw();
    // SAFETY: `raw.tree` is the tree `node` borrows, alive for the node's
    // lifetime; its root node is a node of that same tree, valid as long.
    unsafe { Node::from_raw(tree_sitter::ffi::ts_tree_root_node(raw.tree)) }
}

/// `node`'s ancestors, innermost first, found in one descent from the root.
///
/// Use this instead of a loop over `Node::parent`: tree-sitter finds a
/// parent by descending from the root, so `parent()` costs O(depth) and a
/// loop of them O(depth²) (100,000 nested parentheses took minutes). This
/// costs what one `parent()` call does: O(depth × fan-out), where the root's
/// fan-out is the number of top-level declarations. So asking it (or
/// `parent()`, or `descendant_for_byte_range`) once per finding costs
/// O(findings × declarations) on a flat file of many kernels; such callers
/// should visit their positions in order with one `TreeCursor` instead.
pub fn ancestors(node: Node<'_>) -> Vec<Node<'_>> {
    let mut path = Vec::new();
    let mut cur = root_of(node);
    while cur != node {
        path.push(cur);
        match cur.child_with_descendant(node) {
            Some(next) => cur = next,
            None => break,
        }
    }
    path.reverse();
    path
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
    fn extended_lambdas_parse_in_the_configured_view() {
        let text = "__global__ void k(float *out, int n) {\n\
            auto f = [=] __device__ (int i) { return out[i]; };\n\
            auto g = [&] __host__ __device__ (int i) -> float { return out[i] + f(i); };\n\
            apply([=] __device__ (int i) { out[i] = g(i); }, n);\n\
            float a[4]; a[n] = 0.0f;\n\
        }\n";
        let src = SourceFile::new("l.cu", text.as_bytes());
        let (parsed, _) =
            parse_configured(src, &PpConfig::default(), DEFAULT_MAX_PARSE_OPERATIONS).unwrap();
        assert!(
            parsed.error_regions.is_empty(),
            "{:?}",
            parsed.error_regions
        );
        assert_eq!(parsed.source.text.len(), text.len());
        assert_eq!(parsed.source.text.matches("__device__").count(), 0);
    }

    #[test]
    fn the_parse_budget_stops_big_inputs_deterministically() {
        let text = "__global__ void k(int *p) { p[threadIdx.x] = __shfl_sync(~0u, 1, 0); }\n"
            .repeat(2_000);
        assert!(parse_text_within(&text, DEFAULT_MAX_PARSE_OPERATIONS).is_ok());
        let small = 50_000;
        let first = parse_text_within(&text, small).unwrap_err();
        let NotParsed::BudgetExceeded { bytes_reached, .. } = first else {
            panic!("{first:?}");
        };
        assert!(bytes_reached > 0 && bytes_reached < text.len());
        // Counted, not timed: the same input stops at the same place.
        assert_eq!(parse_text_within(&text, small).unwrap_err(), first);
        assert!(first.to_string().contains("not analysed"));
        // The parser is usable again afterwards.
        assert!(parse_text("int x;").is_some());
    }

    #[test]
    fn ancestors_are_innermost_first_and_cheap_on_deep_trees() {
        let depth = 100_000;
        let text = format!("int x = {}y{};", "(".repeat(depth), ")".repeat(depth));
        let parsed = parse(SourceFile::new("d.cu", text.as_bytes())).unwrap();
        let root = parsed.tree.root_node();
        let at = text.find('y').unwrap();
        let leaf = root.descendant_for_byte_range(at, at + 1).unwrap();
        let t = std::time::Instant::now();
        let chain = ancestors(leaf);
        assert!(!inside_error(leaf));
        assert!(t.elapsed() < std::time::Duration::from_secs(5));
        assert_eq!(chain.last().copied(), Some(root));
        assert_eq!(chain.first().copied(), leaf.parent());
        assert!(chain.len() > depth);
        assert_eq!(root_of(leaf), root);
        assert!(ancestors(root).is_empty());
    }

    /// The fixtures of `testdata/preproc/` are written with constructs
    /// that the configured view rewrites; every function in them must parse
    /// (as written, some do not).
    #[test]
    fn preproc_fixtures_parse_without_errors_in_their_configured_view() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/preproc");
        let mut checked = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().and_then(|e| e.to_str()) != Some("cu") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let source = SourceFile::new(path.display().to_string(), &bytes);
            let (parsed, _) =
                parse_configured(source, &PpConfig::default(), DEFAULT_MAX_PARSE_OPERATIONS)
                    .unwrap();
            assert!(parsed.functions.total > 0, "{}", path.display());
            assert_eq!(
                parsed.functions.with_parse_errors,
                0,
                "{}: {:?}",
                path.display(),
                parsed.error_regions
            );
            checked += 1;
        }
        assert!(checked >= 4);
    }

    #[test]
    fn kind_of_names_every_node_as_kind_does() {
        // Aliased nodes (a `field_identifier`, a `type_identifier`) too.
        let text = "template <int N> struct S { int f(int a) { return a + N; } };
            __global__ void k(int *o) { S<4> s; o[threadIdx.x] = s.f(1); k<<<1, 32>>>(o); }";
        let parsed = parse(SourceFile::new("k.cu", text.as_bytes())).unwrap();
        let mut seen = 0;
        preorder(parsed.tree.root_node(), |n| {
            assert_eq!(kind_of(n), n.kind());
            seen += 1;
            Walk::Descend
        });
        assert!(seen > 50, "{seen}");
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
