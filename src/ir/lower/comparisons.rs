//! `i < size<0>(t)`: a comparison tree-sitter reads as a template call.
//!
//! With a number as the template argument, tree-sitter-cuda parses
//! `i < size<0>(t)` as `i<size < 0>(t)`: a call of a template `i` whose
//! argument is `size < 0`. The loop `for (int i = 0; i < size<0>(t); ++i)`,
//! CuTe's usual shape, then bounds `i` by an unknown call, lane-varying,
//! and every shuffle inside looks divergent. C++ reads it as the compiler
//! does only where `i` is a variable (a variable is never a template): that
//! is when it is re-read here, as `i < size<0>(t)`.
//!
//! An arithmetic operator after the call binds tighter than `<`, so
//! `i < size<0>(t) - 1`, which parses as `(i<size < 0>(t)) - 1`, is
//! re-read as `i < (size<0>(t) - 1)` (the left spine of such operators).

use super::*;

/// A misread comparison: `var < callee<template_args>(…)`.
pub(super) struct MisreadLess<'t> {
    var: Node<'t>,
    callee: Node<'t>,
    template_args: Vec<String>,
}

/// Operators that bind tighter than `<`.
fn binds_tighter_than_less(op: &str) -> bool {
    matches!(op, "+" | "-" | "*" | "/" | "%" | "<<" | ">>")
}

impl FnBuilder<'_> {
    /// `call` as a misread comparison, if it is one: its function is a
    /// template `v<a < b, …>` whose name `v` is a variable in scope and
    /// whose first argument compares a name with something.
    fn misread_less<'t>(&self, call: Node<'t>, text: &str) -> Option<MisreadLess<'t>> {
        let f = call.field("function")?;
        if f.kind() != "template_function" {
            return None;
        }
        let var = f.field("name")?;
        if var.kind() != "identifier" || !self.variables.contains(node_text(var, text)) {
            return None;
        }
        let list = f.field("arguments")?;
        let mut c = list.walk();
        let mut args = list.named_children(&mut c);
        let first = args.next()?;
        if first.kind() != "binary_expression"
            || first.field("operator").map(|o| node_text(o, text)) != Some("<")
        {
            return None;
        }
        let callee = first.field("left")?;
        if !matches!(callee.kind(), "identifier" | "qualified_identifier") {
            return None;
        }
        let mut template_args = vec![node_text(first.field("right")?, text).to_owned()];
        template_args.extend(args.map(|a| node_text(a, text).to_owned()));
        Some(MisreadLess {
            var,
            callee,
            template_args,
        })
    }

    /// `n`, a misread call (`var < call`), or a binary expression of
    /// operators tighter than `<` lowered along its left spine in one pass:
    /// where the spine's leftmost operand is a misread call, the whole is
    /// `var < (call op … op …)`. The spine's inner nodes are never lowered
    /// on their own, so it is walked once (a long sum stays linear).
    /// `None` for any other expression.
    pub(super) fn lower_left_spine(
        &mut self,
        n: Node,
        text: &str,
        depth: usize,
        site: Option<ByteSpan>,
    ) -> Option<ExprId> {
        let op_of = |b: Node| b.field("operator").map(|o| node_text(o, text));
        // The spine, outermost first; bounded like any expression.
        let mut spine = Vec::new();
        let mut at = n;
        while at.kind() == "binary_expression"
            && op_of(at).is_some_and(binds_tighter_than_less)
            && spine.len() <= MAX_EXPR_DEPTH
        {
            spine.push(at);
            at = at.field("left")?;
        }
        let misread = (at.kind() == "call_expression")
            .then(|| self.misread_less(at, text))
            .flatten();
        if misread.is_none() && spine.is_empty() {
            return None;
        }
        // The depths the spine's nodes would have lowered one by one.
        let leaf_depth = depth + spine.len();
        let (var, mut acc) = match misread {
            Some(m) => {
                let var = self.lower_expr(m.var, text, leaf_depth + 1, site);
                let call_span = match site {
                    Some(s) => s,
                    None => (m.callee.start_byte(), at.end_byte()),
                };
                let call = self.lower_call_of(
                    at,
                    Some(m.callee),
                    m.template_args,
                    text,
                    leaf_depth + 1,
                    site,
                    call_span,
                );
                (Some(var), call)
            }
            None => (None, self.lower_expr(at, text, leaf_depth, site)),
        };
        for (k, b) in spine.iter().enumerate().rev() {
            let op = binop(op_of(*b)?)?;
            let span = self.span(*b, site);
            let r = self.lower_opt(b.field("right"), text, depth + k + 1, site, span);
            // Re-read, the operation starts at the call, not at `var`.
            let span = match (var, site) {
                (Some(_), None) => (self.f.expr(acc).span.0, b.end_byte()),
                _ => span,
            };
            acc = self.expr(ExprKind::Binary(op, acc, r), span);
        }
        Some(match var {
            Some(v) => {
                let span = self.span(n, site);
                self.expr(ExprKind::Binary(BinOp::Lt, v, acc), span)
            }
            None => acc,
        })
    }
}
