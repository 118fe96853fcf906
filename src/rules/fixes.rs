//! Fix inference: for each finding of WL001–WL004, the edit that puts the
//! right mask (or barrier) in place, computed from what the dataflow knows
//! about which lanes reach the call. The engine runs it after the executor
//! (inside `engine::check_source`), so the CLI's `--fix`, `--diff` and the language
//! server's code actions all see the same edits.
//!
//! The mask is inferred, never assumed: a call every lane of the warp
//! reaches gets `0xffffffff`; a call under one lane-varying `if (c)` (or
//! after one lane-varying early `return`) gets
//! `unsigned mask = __ballot_sync(0xffffffff, c);` placed before that
//! statement, where every lane still runs. Anything else gets no mask fix.

use crate::frontend::Field as _;
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;

mod hoist;

use tree_sitter::Node;

use super::{Finding, RuleContext, legacy_replacement};
use crate::dataflow::{Context, Guard, GuardKind, Level, any_subexpr};
use crate::diagnostic::{Applicability, Edit, Fix};
use crate::frontend::{Walk, ancestors, node_text, preorder};
use crate::ir::{ExprKind, Function, Module, Primitive, StmtKind};

/// Set `fix` on every finding that has one (replacing what the rule
/// proposed on its own). `confirmed[i]`: the executor confirmed finding `i`.
pub fn attach(cx: &RuleContext, findings: &mut [Finding], confirmed: &[bool]) {
    let text = cx.file.source.text.as_str();
    let mut planned: Vec<Option<Planned>> = Vec::with_capacity(findings.len());
    // WL002's second choice, offered where the first fails its re-lint
    // (`engine::verify_fixes`): the shuffle moved before its branch.
    let mut hoisted: Vec<Option<Planned>> = Vec::with_capacity(findings.len());
    for (i, f) in findings.iter().enumerate() {
        let confirmed = confirmed.get(i).copied().unwrap_or(false);
        let first = plan(cx, f, confirmed);
        let mut second = (f.rule.code == "WL002")
            .then(|| hoist::plan_hoist(cx, f))
            .flatten();
        if first.is_none() {
            planned.push(second.take());
        } else {
            planned.push(first);
        }
        hoisted.push(second);
    }
    // Ballots are named once per function: `mask` when a function needs
    // one and has no `mask` of its own, `mask_LINE` otherwise.
    let mut points: HashMap<usize, BTreeMap<usize, usize>> = HashMap::default();
    for p in planned.iter().flatten() {
        if let Some(b) = &p.ballot {
            points.entry(p.function).or_default().insert(b.at, b.line);
        }
    }
    for ((f, p), second) in findings.iter_mut().zip(planned).zip(hoisted) {
        let Some(p) = p else { continue };
        let name = p.ballot.as_ref().map(|b| {
            let func = &cx.module.functions[p.function];
            let body = text.get(func.span.0..func.span.1).unwrap_or("");
            let alone = points.get(&p.function).is_some_and(|m| m.len() == 1);
            let mut name = if alone && !has_identifier(body, "mask") {
                "mask".to_owned()
            } else {
                format!("mask_{}", b.line)
            };
            while name != "mask" && has_identifier(body, &name) {
                name.push('_');
            }
            name
        });
        let mut edits = Vec::new();
        if let (Some(b), Some(name)) = (&p.ballot, &name) {
            edits.push(Edit {
                start_byte: b.at,
                end_byte: b.at,
                replacement: format!(
                    "unsigned {name} = __ballot_sync(0xffffffff, {});{}",
                    b.cond, b.after
                ),
            });
        }
        let mask = name.as_deref().unwrap_or("0xffffffff");
        for e in p.edits {
            edits.push(Edit {
                start_byte: e.start_byte,
                end_byte: e.end_byte,
                replacement: e.replacement.replace(MASK, mask),
            });
        }
        f.fix = Some(Fix {
            message: p.message.replace(MASK, mask),
            applicability: p.applicability,
            edits,
            fallback: second.map(|s| {
                Box::new(Fix {
                    message: s.message,
                    applicability: s.applicability,
                    edits: s.edits,
                    fallback: None,
                })
            }),
        });
    }
}

/// Stands for the mask's name until ballots are named.
const MASK: &str = "\u{0}MASK\u{0}";

struct Planned {
    function: usize,
    ballot: Option<Ballot>,
    /// Edits that may mention [`MASK`].
    edits: Vec<Edit>,
    message: String,
    applicability: Applicability,
}

/// `unsigned NAME = __ballot_sync(0xffffffff, cond);` inserted at `at`.
#[derive(Clone)]
struct Ballot {
    at: usize,
    line: usize,
    cond: String,
    /// What follows the inserted statement: a newline and the indentation.
    after: String,
}

/// Which lanes reach a call, as a mask the fix can write.
struct Reach {
    ballot: Option<Ballot>,
    /// Every lane that can reach it is known to: a kernel, full warps, a
    /// condition without side effects.
    proven: bool,
}

fn plan(cx: &RuleContext, f: &Finding, confirmed: bool) -> Option<Planned> {
    // Edits are offsets into this file's text: a finding inside a header's
    // function (reported at the header) has no fix here.
    let function = f.claim.as_ref()?.function;
    if cx.module.functions.get(function)?.file != 0 {
        return None;
    }
    match f.rule.code {
        "WL001" => plan_legacy(cx, f, confirmed),
        "WL002" => plan_mask_argument(cx, f, false),
        "WL003" => plan_mask_argument(cx, f, true),
        "WL004" => plan_barriers(cx, f),
        _ => None,
    }
}

/// The `call_expression` spanning exactly `start..end`.
fn call_node<'t>(cx: &'t RuleContext, start: usize, end: usize) -> Option<Node<'t>> {
    let mut n = cx
        .file
        .tree
        .root_node()
        .descendant_for_byte_range(start, end)?;
    // A few steps at most: the smallest node covering the span is the call
    // or one of its first tokens.
    for _ in 0..4 {
        if n.kind() == "call_expression" && n.start_byte() == start && n.end_byte() == end {
            return Some(n);
        }
        n = n.parent()?;
    }
    None
}

fn plan_legacy(cx: &RuleContext, f: &Finding, confirmed: bool) -> Option<Planned> {
    let claim = f.claim.as_ref()?;
    let &site = claim.sites.first()?;
    let ctx = cx.facts.functions[claim.function].call_context.get(&site)?;
    let text = cx.file.source.text.as_str();
    let call = call_node(cx, f.start, f.end)?;
    let callee = call.field("function")?;
    let name = node_text(callee, text).trim_start_matches("::");
    let replacement = legacy_replacement(name)?;
    let args = call.field("arguments")?;
    let reach = reach(cx, claim.function, ctx, call)?;
    let safe = reach.proven && confirmed;
    let has_ballot = reach.ballot.is_some();
    Some(Planned {
        function: claim.function,
        ballot: reach.ballot,
        edits: vec![
            Edit {
                start_byte: callee.start_byte(),
                end_byte: callee.end_byte(),
                replacement: replacement.to_owned(),
            },
            Edit {
                start_byte: args.start_byte() + 1,
                end_byte: args.start_byte() + 1,
                replacement: format!("{MASK}, "),
            },
        ],
        message: if has_ballot {
            format!("use `{replacement}({MASK}, …)` with a ballot of the branch condition")
        } else {
            format!("replace with `{replacement}(0xffffffff, …)`: every lane reaches it")
        },
        applicability: if safe {
            Applicability::Safe
        } else {
            Applicability::Unsafe
        },
    })
}

/// WL002 and WL003: put the lanes that reach the call in its mask argument
/// (for WL003, in place of the `__activemask()` it was given, also when a
/// helper receives it).
fn plan_mask_argument(cx: &RuleContext, f: &Finding, activemask: bool) -> Option<Planned> {
    let claim = f.claim.as_ref()?;
    let &site = claim.sites.first()?;
    let func = &cx.module.functions[claim.function];
    let ff = &cx.facts.functions[claim.function];
    let ctx = ff.call_context.get(&site)?;
    let ExprKind::Call(ir_call) = &func.expr(site).kind else {
        return None;
    };
    if ir_call.via_macro.is_some() {
        return None;
    }
    let prim = Primitive::from_call(
        &ir_call.name,
        ir_call.scope.as_deref(),
        ir_call.receiver.is_some(),
    );
    let call = call_node(cx, f.start, f.end)?;
    let args = call.field("arguments")?;
    // A group's member (`cg::reduce(active, v, op)`, `tile.sync()`) stands
    // for the primitive with the group's mask: its arguments hold no mask
    // to replace.
    let written = node_text(call.field("function")?, cx.file.source.text.as_str());
    if crate::ir::split_scope(written).1.trim() != ir_call.name {
        return None;
    }
    let reach = reach(cx, claim.function, ctx, call)?;
    // Without a ballot the mask is the full warp: right for WL003 in a
    // kernel the whole warp runs, never a fix for WL002.
    if reach.ballot.is_none() && (!activemask || !func.is_kernel()) {
        return None;
    }
    let target = match prim {
        Some(p) if p.is_masked() => {
            let first = ir_call.args.first().map(|&a| func.expr(a).span);
            match first {
                Some(span) => {
                    if activemask && !mentions_activemask(func, ff, ir_call.args[0]) {
                        return None;
                    }
                    Some(span)
                }
                // `__syncwarp()`: the default mask names every lane.
                None if p == Primitive::Syncwarp && !activemask => {
                    let at = args.start_byte() + 1;
                    Some((at, at))
                }
                None => None,
            }
        }
        // A helper handed `__activemask()`.
        None if activemask => ir_call
            .args
            .iter()
            .find(|&&a| mentions_activemask(func, ff, a))
            .map(|&a| func.expr(a).span),
        _ => None,
    }?;
    if target.0 < args.start_byte() || target.1 > args.end_byte() {
        return None; // the argument comes from elsewhere (a macro)
    }
    let what = if activemask {
        "replace `__activemask()` with"
    } else {
        "use as the mask"
    };
    Some(Planned {
        function: claim.function,
        message: if reach.ballot.is_some() {
            format!("{what} `{MASK}`, a ballot of the branch condition taken before the branch")
        } else {
            format!("{what} `0xffffffff`: every lane of the warp reaches it")
        },
        ballot: reach.ballot,
        edits: vec![Edit {
            start_byte: target.0,
            end_byte: target.1,
            replacement: MASK.to_owned(),
        }],
        applicability: Applicability::Unsafe,
    })
}

fn mentions_activemask(func: &Function, ff: &crate::dataflow::FnFacts, e: u32) -> bool {
    crate::dataflow::mentions_call(func, e, &["__activemask"])
        || crate::dataflow::mentions_var(func, e, &ff.activemask_vars)
}

/// The lanes that reach `call`: all of them (no lane-varying guard), or
/// those where one `if` condition holds (or fails), or those that did not
/// take one early `return`. `None` when it is anything else.
fn reach<'t>(cx: &'t RuleContext, function: usize, ctx: &Context, call: Node<'t>) -> Option<Reach> {
    let func = &cx.module.functions[function];
    let full_warps = func.is_kernel() && !partial_warps(cx.module, func);
    let Some(g) = only_varying_guard(ctx)? else {
        return Some(Reach {
            ballot: None,
            proven: full_warps,
        });
    };
    let text = cx.file.source.text.as_str();
    let root = cx.file.tree.root_node();
    let (stmt, cond, negate) = match g.kind {
        GuardKind::Branch { negated } => {
            let (stmt, clause, _) = guarding_if(cx, g, negated, call)?;
            (stmt, clause, negated)
        }
        GuardKind::EarlyExit { .. } => {
            let exit = root.descendant_for_byte_range(g.span.0, g.span.1)?;
            let exit = if exit.kind() == "return_statement" {
                exit
            } else {
                ancestors(exit)
                    .into_iter()
                    .rev()
                    .take(3)
                    .find(|a| a.kind() == "return_statement")?
            };
            let mut up = exit.parent()?;
            if up.kind() == "compound_statement" && up.named_child_count() == 1 {
                up = up.parent()?;
            }
            if up.kind() != "if_statement" || up.field("alternative").is_some() {
                return None;
            }
            // Lanes that stay are those where the condition fails.
            (up, up.field("condition")?, true)
        }
        GuardKind::Loop | GuardKind::Case { .. } => return None,
    };
    // The ballot goes right before `stmt`, in the block that also holds
    // the call: every lane that reaches the block runs it.
    let block = stmt.parent()?;
    if block.kind() != "compound_statement" || !contains(block, call) {
        return None;
    }
    let value = clause_value(cond)?;
    let cond_text = node_text(value, text).trim();
    if !is_pure(value, text) {
        return None; // the ballot would run its side effects twice
    }
    let cond = if negate {
        format!("!({cond_text})")
    } else {
        cond_text.to_owned()
    };
    let at = stmt.start_byte();
    let after = break_before(text, at);
    Some(Reach {
        ballot: Some(Ballot {
            at,
            line: stmt.start_position().row + 1,
            cond,
            after,
        }),
        proven: full_warps,
    })
}

/// The one lane-varying guard among a call's guards: `Some(None)` where
/// there is none, `None` where there are several.
fn only_varying_guard(ctx: &Context) -> Option<Option<&Guard>> {
    let mut varying = ctx.guards.iter().filter(|g| g.level == Level::Varying);
    match (varying.next(), varying.next()) {
        (first, None) => Some(first),
        _ => None,
    }
}

/// The `if` whose condition is the branch guard `g` (not a `?:` or `&&`
/// inside it), its condition clause, and the arm the guard names, which
/// holds `call`.
fn guarding_if<'t>(
    cx: &'t RuleContext,
    g: &Guard,
    negated: bool,
    call: Node<'t>,
) -> Option<(Node<'t>, Node<'t>, Node<'t>)> {
    let node = cx
        .file
        .tree
        .root_node()
        .descendant_for_byte_range(g.span.0, g.span.1)?;
    let stmt = ancestors(node)
        .into_iter()
        .rev()
        .find(|a| a.kind() == "if_statement")?;
    let clause = stmt.field("condition")?;
    if clause.start_byte() > g.span.0 || clause.end_byte() < g.span.1 {
        return None;
    }
    let arm = if negated {
        stmt.field("alternative")?
    } else {
        stmt.field("consequence")?
    };
    contains(arm, call).then_some((stmt, clause, arm))
}

/// What follows a statement inserted at `at`, before the statement
/// there: a line break and that statement's indentation (one space where
/// code precedes it on its line).
fn break_before(text: &str, at: usize) -> String {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent = &text[line_start..at];
    if indent.chars().all(|c| c == ' ' || c == '\t') {
        let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
        format!("{newline}{indent}")
    } else {
        " ".to_owned()
    }
}

/// The expression of `( … )` after `if`, unless it declares something.
fn clause_value(clause: Node) -> Option<Node> {
    if clause.kind() != "condition_clause" {
        return None;
    }
    if clause.field("initializer").is_some() {
        return None;
    }
    let value = clause.field("value")?;
    (!value.kind().contains("declaration")).then_some(value)
}

/// No assignment, increment or call (other than a few pure intrinsics).
fn is_pure(expr: Node, text: &str) -> bool {
    const PURE_CALLS: &[&str] = &["min", "max", "abs", "__popc", "__ldg", "__clz", "__ffs"];
    let mut pure = true;
    preorder(expr, |n| {
        match n.kind() {
            "assignment_expression"
            | "update_expression"
            | "co_await_expression"
            | "new_expression"
            | "delete_expression" => pure = false,
            "call_expression" => {
                pure &= n
                    .field("function")
                    .is_some_and(|c| PURE_CALLS.contains(&node_text(c, text)));
            }
            _ => {}
        }
        if pure { Walk::Descend } else { Walk::Skip }
    });
    pure
}

fn contains(outer: Node, inner: Node) -> bool {
    outer.start_byte() <= inner.start_byte() && inner.end_byte() <= outer.end_byte()
}

/// A kernel launched (or bounded) with a thread count that is not a
/// multiple of 32 has a last warp with lanes that do not exist.
fn partial_warps(module: &Module, f: &Function) -> bool {
    let launched = module
        .launches
        .iter()
        .filter(|l| l.kernel == f.name)
        .filter_map(|l| l.block_dim)
        .map(|d| d.iter().product::<u32>());
    launched.chain(f.launch_bounds).any(|t| t % 32 != 0)
}

fn has_identifier(text: &str, name: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memmem::find_iter(bytes, name.as_bytes()).any(|i| {
        let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let before = i > 0 && ident(bytes[i - 1]);
        let after = bytes.get(i + name.len()).is_some_and(|&b| ident(b));
        !before && !after
    })
}

/// WL004: order the lanes' accesses of one statement with `__syncwarp()`:
/// a read-modify-write `s[a] op= expr` becomes "read into a register,
/// `__syncwarp()`, write, `__syncwarp()`", after a `__syncwarp()` that
/// orders the writes before it (also when the statement before is a race
/// fixed the same way: each fix must be right alone, as the language server
/// applies it, so fixes of consecutive races leave two barriers between
/// them); a statement that only reads
/// shared memory gets a barrier before it, one that only writes it a
/// barrier after it. Only where the whole warp runs the statement.
fn plan_barriers(cx: &RuleContext, f: &Finding) -> Option<Planned> {
    let claim = f.claim.as_ref()?;
    let func = &cx.module.functions[claim.function];
    let ff = &cx.facts.functions[claim.function];
    let (si, stmt) = func
        .stmts
        .iter()
        .enumerate()
        .find(|(_, s)| s.span == (f.start, f.end))?;
    let ctx = ff.stmt_context.get(&(si as u32))?;
    if ctx.warp_divergent() {
        return None; // a full-warp `__syncwarp()` would itself diverge
    }
    let text = cx.file.source.text.as_str();
    let node = cx
        .file
        .tree
        .root_node()
        .descendant_for_byte_range(f.start, f.end)?;
    let node = if node.start_byte() == f.start && node.end_byte() == f.end {
        node
    } else {
        return None;
    };
    let in_block = node
        .parent()
        .is_some_and(|p| p.kind() == "compound_statement");
    let shared = &ff.shared_vars;
    let touches = |e: u32| {
        any_subexpr(func, e, &mut |k| match k {
            ExprKind::Index(b, _) | ExprKind::Unary(crate::ir::UnOp::Deref, b) => any_subexpr(
                func,
                *b,
                &mut |bk| matches!(bk, ExprKind::Var(v) if shared.contains(v)),
            ),
            _ => false,
        })
    };
    let stmt_text = node_text(node, text);
    let (replacement, message) = match &stmt.kind {
        StmtKind::Expr(e) => match &func.expr(*e).kind {
            ExprKind::Assign { lhs, rhs, .. } if touches(*lhs) && touches(*rhs) => {
                let (ls, le) = func.expr(*lhs).span;
                let (rs, re) = func.expr(*rhs).span;
                if !(f.start <= ls && le <= rs && re <= f.end) || stmt_text.contains('\n') {
                    return None;
                }
                let op = text.get(le..rs)?.trim();
                let body = text.get(func.span.0..func.span.1).unwrap_or("");
                let mut tmp = "staged".to_owned();
                while has_identifier(body, &tmp) {
                    tmp.push('_');
                }
                (
                    format!(
                        "{{ __syncwarp(); auto {tmp} = {}; __syncwarp(); {} {op} {tmp}; __syncwarp(); }}",
                        &text[rs..re],
                        &text[ls..le]
                    ),
                    "read into a register, `__syncwarp()`, write, `__syncwarp()`",
                )
            }
            ExprKind::Assign { lhs, .. } if touches(*lhs) => (
                wrap(in_block, &format!("{stmt_text} __syncwarp();")),
                "add `__syncwarp()` after the write",
            ),
            _ if touches(*e) => (
                wrap(in_block, &format!("__syncwarp(); {stmt_text}")),
                "add `__syncwarp()` before the read",
            ),
            _ => return None,
        },
        StmtKind::Decl {
            init: Some(e),
            shared: false,
            ..
        } if touches(*e) && in_block => (
            format!("__syncwarp(); {stmt_text}"),
            "add `__syncwarp()` before the read",
        ),
        _ => return None,
    };
    Some(Planned {
        function: claim.function,
        ballot: None,
        edits: vec![Edit {
            start_byte: f.start,
            end_byte: f.end,
            replacement,
        }],
        message: message.to_owned(),
        applicability: Applicability::Unsafe,
    })
}

/// Two statements where one stood: braces unless already in a block.
fn wrap(in_block: bool, s: &str) -> String {
    if in_block {
        s.to_owned()
    } else {
        format!("{{ {s} }}")
    }
}
