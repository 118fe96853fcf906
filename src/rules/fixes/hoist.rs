//! WL002's second fix: move a full-mask shuffle out of the one lane-varying
//! `if` it sits in, so that every lane of the warp runs it, and read its
//! value in the branch.
//!
//! The ballot fix (a mask of the lanes that take the branch) is right when
//! a shuffle reads only lanes that take the branch too. Under a data guard
//! (`if (v > thr)`) an xor or down partner may be a lane that does not, and
//! no mask of the branch's lanes makes that read defined: the ballot fix
//! fails its re-lint. Running the shuffle before the branch does make it
//! defined, and each lane in the branch gets its partner's value, as the
//! code meant. The engine offers this fix when the ballot fix fails, and
//! only if its own re-lint passes.

use tree_sitter::Node;

use super::{Planned, has_identifier, is_pure};
use crate::dataflow::GuardKind;
use crate::diagnostic::{Applicability, Edit};
use crate::frontend::{Field as _, Walk, ancestors, node_text, preorder};
use crate::ir::{ExprKind, Primitive};
use crate::rules::{Finding, RuleContext};

pub(super) fn plan_hoist(cx: &RuleContext, f: &Finding) -> Option<Planned> {
    let claim = f.claim.as_ref()?;
    let &site = claim.sites.first()?;
    let func = &cx.module.functions[claim.function];
    let ctx = cx.facts.functions[claim.function].call_context.get(&site)?;
    let ExprKind::Call(ir_call) = &func.expr(site).kind else {
        return None;
    };
    let prim = Primitive::from_call(
        &ir_call.name,
        ir_call.scope.as_deref(),
        ir_call.receiver.is_some(),
    );
    if ir_call.via_macro.is_some() || ir_call.receiver.is_some() {
        return None;
    }
    if !matches!(prim, Some(Primitive::Shfl(_))) {
        return None;
    }
    // One lane-varying guard, and it is an `if` around the call: the `if`
    // itself runs in every lane that reaches the function's other code.
    let guard = super::only_varying_guard(ctx)??;
    let GuardKind::Branch { negated } = guard.kind else {
        return None;
    };
    let text = cx.file.source.text.as_str();
    let call = super::call_node(cx, f.start, f.end)?;
    let (stmt, condition, arm) = super::guarding_if(cx, guard, negated, call)?;
    let value = super::clause_value(condition)?;
    // The condition may not change what the shuffle reads.
    if !is_pure(value, text) || !runs_once_in(arm, call, text) {
        return None;
    }
    let block = stmt.parent()?;
    if block.kind() != "compound_statement" {
        return None;
    }
    let args = call.field("arguments")?;
    let mut c = args.walk();
    let operands: Vec<Node> = args
        .named_children(&mut c)
        .filter(|a| a.kind() != "comment")
        .skip(1)
        .collect();
    let mut names: Vec<&str> = Vec::new();
    for &a in &operands {
        if !readable_anywhere(a, text, &mut names) {
            return None;
        }
    }
    // What the operands read holds the same before the `if` as at the call.
    if changed_before(arm, call, text, &names) {
        return None;
    }
    let line = call.start_position().row + 1;
    let body = text.get(func.span.0..func.span.1).unwrap_or("");
    let mut name = format!("shfl_{line}");
    while has_identifier(body, &name) {
        name.push('_');
    }
    let at = stmt.start_byte();
    let after = super::break_before(text, at);
    let if_line = stmt.start_position().row + 1;
    Some(Planned {
        function: claim.function,
        ballot: None,
        edits: vec![
            Edit {
                start_byte: at,
                end_byte: at,
                replacement: format!("auto {name} = {};{after}", node_text(call, text)),
            },
            Edit {
                start_byte: call.start_byte(),
                end_byte: call.end_byte(),
                replacement: name.clone(),
            },
        ],
        message: format!(
            "run the shuffle before the `if` on line {if_line}, where every lane of the warp \
             does, and use its value `{name}` in the branch"
        ),
        // The operands are now evaluated in lanes that skip the branch.
        applicability: Applicability::Unsafe,
    })
}

/// Whether `call` runs exactly once each time `arm` runs: no loop, branch,
/// `?:`, short-circuit operand or lambda between them.
fn runs_once_in(arm: Node, call: Node, text: &str) -> bool {
    let path = ancestors(call);
    for (i, a) in path.iter().enumerate() {
        if *a == arm {
            return true;
        }
        match a.kind() {
            "for_statement"
            | "for_range_loop"
            | "while_statement"
            | "do_statement"
            | "if_statement"
            | "switch_statement"
            | "case_statement"
            | "conditional_expression"
            | "lambda_expression" => return false,
            "binary_expression" => {
                let op = a.field("operator").map(|o| node_text(o, text));
                let inner = if i == 0 { call } else { path[i - 1] };
                let right = a.field("right").is_some_and(|r| r == inner);
                if right && matches!(op, Some("&&" | "||" | "and" | "or")) {
                    return false;
                }
            }
            _ => {}
        }
    }
    false
}

/// Whether `e` can be evaluated in any lane: names, literals, members of
/// objects, arithmetic and casts (no call, element, dereference or write);
/// adds the names it reads.
fn readable_anywhere<'t>(e: Node<'t>, text: &'t str, names: &mut Vec<&'t str>) -> bool {
    let mut ok = true;
    preorder(e, |n| {
        match n.kind() {
            "identifier" => names.push(node_text(n, text)),
            "field_expression" => {
                let arrow = n
                    .field("operator")
                    .is_some_and(|o| node_text(o, text) == "->");
                ok &= !arrow;
            }
            "unary_expression" => {
                let op = n.field("operator").map(|o| node_text(o, text));
                ok &= matches!(op, Some("-" | "+" | "!" | "~"));
            }
            "number_literal"
            | "true"
            | "false"
            | "parenthesized_expression"
            | "binary_expression"
            | "cast_expression"
            | "type_descriptor"
            | "primitive_type"
            | "type_identifier"
            | "sized_type_specifier"
            | "field_identifier"
            | "qualified_identifier"
            | "namespace_identifier"
            | "sizeof_expression" => {}
            _ if !n.is_named() => {}
            _ => ok = false,
        }
        if ok { Walk::Descend } else { Walk::Skip }
    });
    ok
}

/// Whether `arm`, before `call`, declares or writes one of `names`.
fn changed_before(arm: Node, call: Node, text: &str, names: &[&str]) -> bool {
    let mut changed = false;
    let root_name = |mut n: Node| {
        for _ in 0..64 {
            match n.kind() {
                "field_expression" | "subscript_expression" | "parenthesized_expression" => {
                    match n.named_child(0) {
                        Some(c) => n = c,
                        None => return None,
                    }
                }
                "identifier" => return Some(node_text(n, text)),
                _ => return None,
            }
        }
        None
    };
    preorder(arm, |n| {
        if n.start_byte() >= call.start_byte() {
            return Walk::Skip;
        }
        let target = match n.kind() {
            "assignment_expression" => n.field("left"),
            "update_expression" => n.field("argument"),
            "init_declarator" => n.field("declarator"),
            "declaration" => {
                let mut c = n.walk();
                changed |= n
                    .children_by_field_name("declarator", &mut c)
                    .any(|d| d.kind() == "identifier" && names.contains(&node_text(d, text)));
                None
            }
            "pointer_expression"
                if n.field("operator")
                    .is_some_and(|o| node_text(o, text) == "&") =>
            {
                n.field("argument")
            }
            // A call may change what a reference or pointer argument names.
            "call_expression" => {
                let mut c = n.walk();
                let args: Vec<Node> = n
                    .field("arguments")
                    .map(|a| a.named_children(&mut c).collect())
                    .unwrap_or_default();
                changed |= args
                    .iter()
                    .any(|&a| root_name(a).is_some_and(|r| names.contains(&r)));
                None
            }
            _ => None,
        };
        if let Some(t) = target
            && root_name(t).is_some_and(|r| names.contains(&r))
        {
            changed = true;
        }
        if changed { Walk::Skip } else { Walk::Descend }
    });
    changed
}
