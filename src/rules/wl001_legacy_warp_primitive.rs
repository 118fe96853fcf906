//! WL001 `legacy-warp-primitive`: the maskless CUDA < 9 warp intrinsics.
//!
//! The rule works from token occurrences rather than a full tree walk: it
//! finds each legacy name in the text and asks the tree what is there. That
//! makes strings and comments fall out for free and keeps the rule cheap.

use crate::frontend::Field as _;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use memchr::memmem;
use tree_sitter::Node;

use super::Claim;
use super::Class;
use super::{Finding, Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::frontend::macros::ParsedBody;
use crate::frontend::{RegionOracle, Walk, node_text, preorder};
use crate::ir::ExprKind;

pub struct LegacyWarpPrimitive;

pub static META: RuleMeta = RuleMeta {
    code: "WL001",
    name: "legacy-warp-primitive",
    severity: Severity::Error,
    summary: "Maskless pre-CUDA-9 warp primitive (__shfl, __ballot, __any, …)",
    has_fix: true,
    page: include_str!("../../rules/WL001-legacy-warp-primitive.md"),
    checks_linked_functions: false,
};

/// Legacy name, its `_sync` replacement, and the replacement's parameters.
pub const LEGACY: &[(&str, &str, &str)] = &[
    ("__shfl", "__shfl_sync", "mask, var, srcLane"),
    ("__shfl_up", "__shfl_up_sync", "mask, var, delta"),
    ("__shfl_down", "__shfl_down_sync", "mask, var, delta"),
    ("__shfl_xor", "__shfl_xor_sync", "mask, var, laneMask"),
    ("__ballot", "__ballot_sync", "mask, predicate"),
    ("__any", "__any_sync", "mask, predicate"),
    ("__all", "__all_sync", "mask, predicate"),
];

pub fn legacy_entry(name: &str) -> Option<&'static (&'static str, &'static str, &'static str)> {
    LEGACY.iter().find(|(n, _, _)| *n == name)
}

impl Rule for LegacyWarpPrimitive {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &RuleContext, out: &mut Vec<Finding>) {
        let text = cx.file.source.text.as_str();
        let hits = legacy_occurrences(text);
        if hits.is_empty() {
            return;
        }
        let root = cx.file.tree.root_node();
        let shims = shim_names(cx);
        let calls = legacy_calls_by_span(cx);
        let mut macro_bodies_seen = HashSet::default();
        for (pos, name) in hits {
            if shims.contains(name) {
                continue;
            }
            let Some(node) = root.descendant_for_byte_range(pos, pos + name.len()) else {
                continue;
            };
            if node.kind() == "preproc_arg" {
                if macro_bodies_seen.insert(node.start_byte()) {
                    check_macro_body(cx, node, &shims, out);
                }
                continue;
            }
            if let Some(call) = legacy_call(node)
                && !cx.env.is_dead(call, text)
                && !in_portability_dispatch(cx, call.start_byte(), name)
            {
                let mut f = finding(call, node, name, None, |o| o);
                f.claim = ir_claim(&calls, call.start_byte(), call.end_byte());
                out.push(f);
            }
        }
    }
}

/// A legacy call in a branch that the configuration did not decide (it was
/// taken by the rule for unknown conditions) while a sibling branch calls
/// the `_sync` form of the same primitive: a portability dispatch, whose
/// legacy side the configuration does not prove compiled.
fn in_portability_dispatch(cx: &RuleContext, offset: usize, legacy: &str) -> bool {
    legacy_entry(legacy)
        .is_some_and(|(_, sync, _)| cx.file.view.in_undecided_dispatch(offset, sync))
}

/// Byte offsets of every whole-word legacy name in `text`.
fn legacy_occurrences(text: &str) -> Vec<(usize, &'static str)> {
    let bytes = text.as_bytes();
    let mut hits = Vec::new();
    for &(name, _, _) in LEGACY {
        for pos in memmem::find_iter(bytes, name.as_bytes()) {
            let before = pos.checked_sub(1).map(|i| bytes[i]);
            let after = bytes.get(pos + name.len()).copied();
            if !before.is_some_and(is_ident_byte) && !after.is_some_and(is_ident_byte) {
                hits.push((pos, name));
            }
        }
    }
    hits.sort_unstable();
    hits
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// If `ident` is the callee of a plain (or `::`-qualified) call, the call.
/// Member calls and calls qualified by another namespace are other functions.
fn legacy_call(ident: Node) -> Option<Node> {
    if ident.kind() != "identifier" {
        return None;
    }
    let mut callee = ident;
    let parent = ident.parent()?;
    if parent.kind() == "qualified_identifier" {
        if parent.field("scope").is_some() {
            return None;
        }
        callee = parent;
    }
    let call = callee.parent()?;
    if call.kind() == "call_expression" && call.field("function") == Some(callee) {
        // `::__shfl` is global; `x.__any` or `ns::__any` never reach here.
        Some(call)
    } else {
        None
    }
}

/// Legacy names the file itself defines or declares (a compatibility shim
/// such as `__device__ unsigned __ballot(int p) { return __ballot_sync(…); }`
/// or `#define __any(p) __any_sync(0xffffffff, p)`): calls to them are calls
/// to the shim, not to the removed intrinsic.
fn shim_names(cx: &RuleContext) -> HashSet<&'static str> {
    let text = cx.file.source.text.as_str();
    let mut names = HashSet::default();
    for m in &cx.file.macros.defs {
        if let Some(entry) = legacy_entry(&m.name) {
            names.insert(entry.0);
        }
    }
    preorder(cx.file.tree.root_node(), |n| match n.kind() {
        "function_declarator" => {
            if let Some(d) = n.field("declarator")
                && let Some(entry) = legacy_entry(node_text(d, text))
                && !cx.env.is_dead(n, text)
            {
                names.insert(entry.0);
            }
            Walk::Skip
        }
        // Function declarators sit under declarations and definitions at
        // namespace scope; statement bodies cannot declare them usefully.
        "compound_statement" | "preproc_arg" | "comment" | "string_literal" => Walk::Skip,
        _ => Walk::Descend,
    });
    names
}

fn check_macro_body(
    cx: &RuleContext,
    arg: Node,
    shims: &HashSet<&'static str>,
    out: &mut Vec<Finding>,
) {
    let text = cx.file.source.text.as_str();
    let Some(def) = arg.parent() else { return };
    if cx.env.is_dead(def, text) {
        return;
    }
    let Some(m) = cx
        .file
        .macros
        .defs
        .iter()
        .find(|m| m.define_start == def.start_byte())
    else {
        return;
    };
    if legacy_entry(&m.name).is_some() {
        return; // a shim that (re)defines the legacy name itself
    }
    let dispatched = |name: &str| in_portability_dispatch(cx, m.define_start, name);
    let Some(body) = ParsedBody::parse(m) else {
        return;
    };
    let root = body.tree.root_node();
    for (pos, name) in legacy_occurrences(&body.text) {
        if shims.contains(name) {
            continue;
        }
        let Some(node) = root.descendant_for_byte_range(pos, pos + name.len()) else {
            continue;
        };
        if let Some(call) = legacy_call(node)
            && !dispatched(name)
        {
            out.push(finding(call, node, name, Some(&m.name), |o| {
                body.file_offset(o)
            }));
        }
    }
}

/// The IR call at this span, so the executor can say whether lanes reach
/// it together or apart.
fn ir_claim(
    calls: &HashMap<(usize, usize), (usize, u32)>,
    start: usize,
    end: usize,
) -> Option<Claim> {
    let &(fi, ei) = calls.get(&(start, end))?;
    Some(Claim {
        function: fi,
        sites: vec![ei],
        classes: &[
            Class::Legacy { divergent: true },
            Class::Legacy { divergent: false },
        ],
        schedule_dependent: false,
        speculative: false,
        narrow_rows_only: false,
        unseen_callers: None,
        lane_proof: None,
    })
}

/// Legacy calls in the IR, by span, so each finding finds its call at once.
fn legacy_calls_by_span(cx: &RuleContext) -> HashMap<(usize, usize), (usize, u32)> {
    let mut out = HashMap::default();
    // The file's own functions: a linked header function's spans point
    // into its header.
    for (fi, f) in cx
        .module
        .functions
        .iter()
        .enumerate()
        .filter(|(_, f)| f.file == 0)
    {
        for (ei, e) in f.exprs.iter().enumerate() {
            if let ExprKind::Call(c) = &e.kind
                && legacy_entry(&c.name).is_some()
            {
                out.entry(e.span).or_insert((fi, ei as u32));
            }
        }
    }
    out
}

fn finding(
    call: Node,
    callee: Node,
    name: &'static str,
    in_macro: Option<&str>,
    to_file: impl Fn(usize) -> usize,
) -> Finding {
    let (_, replacement, params) = legacy_entry(name).expect("name comes from LEGACY");
    let place = match in_macro {
        Some(m) => format!(" (in the body of macro {})", super::warp::code(m, 32)),
        None => String::new(),
    };
    let mut edits = vec![Edit {
        start_byte: to_file(callee.start_byte()),
        end_byte: to_file(callee.end_byte()),
        replacement: (*replacement).to_owned(),
    }];
    if let Some(args) = call.field("arguments") {
        let open = to_file(args.start_byte()) + 1;
        edits.push(Edit {
            start_byte: open,
            end_byte: open,
            replacement: "0xffffffff, ".to_owned(),
        });
    }
    Finding {
        rule: &META,
        start: to_file(call.start_byte()),
        end: to_file(call.end_byte()),
        message: format!(
            "`{name}` is a legacy warp primitive{place}: it takes no mask and does not compile for sm_70 or later"
        ),
        help: Some(format!(
            "use `{replacement}({params})`, where `mask` is the set of lanes that reach \
             this call; compute it with `__ballot_sync(0xffffffff, cond)` before any \
             divergent branch, and use 0xffffffff only if all 32 lanes always get here"
        )),
        labels: Vec::new(),
        claim: None,
        fix: Some(Fix {
            message: format!("replace with `{replacement}(0xffffffff, …)`"),
            // Only right when every lane of the warp reaches the call.
            applicability: Applicability::Unsafe,
            edits,
            fallback: None,
        }),
    }
}
