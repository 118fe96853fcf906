//! Range-based `for` loops, lowered as the counted loops they are:
//! `for (T x : range) body` is
//! `for (i = 0; i < extent; ++i) { T x = range[i]; body }`.
//!
//! Every thread walks a range of the same extent: device code iterates
//! arrays and fixed-size containers, never per-thread containers. The
//! extent is a local array's first dimension where the function declares
//! one with a constant extent (`float acc[4]`), else a value of the whole
//! grid, `extent(range)`, that a run picks as it picks a template value
//! (none, one or several iterations). The element is a copy: a write
//! through `T &x` does not reach the range.

use tree_sitter::Node;

use super::{Dest, FnBuilder, declarator_name, type_is_float};
use crate::frontend::{Field as _, node_text};
use crate::ir::*;

impl FnBuilder<'_> {
    /// The loop statement, pushed to `dest`, with the element's
    /// declaration opening its body; the caller lowers the body after it.
    pub(super) fn lower_range_for(
        &mut self,
        n: Node,
        text: &str,
        dest: Dest,
        site: Option<ByteSpan>,
    ) -> StmtId {
        let span = self.span(n, site);
        let range_node = n.field("right");
        let range = match range_node {
            Some(r) => self.lower_expr(r, text, 0, site),
            None => self.expr(ExprKind::Unknown, span),
        };
        let range_span = self.f.expr(range).span;
        // Not a name the code can write: no declaration shadows it.
        let index = format!("range@{}", n.start_byte());
        let zero = self.expr(ExprKind::Int(0), span);
        let init = self.stmt(
            StmtKind::local(index.clone(), Some(zero), false, false, IntType::Int32),
            span,
        );
        let extent = self.range_extent(range, range_node, text, range_span);
        let counter = self.expr(ExprKind::Var(index.clone()), span);
        let cond = self.expr(ExprKind::Binary(BinOp::Lt, counter, extent), range_span);
        let stepped = self.expr(ExprKind::Var(index.clone()), span);
        let step = self.expr(
            ExprKind::Update {
                target: stepped,
                increment: true,
                prefix: true,
            },
            span,
        );
        let id = self.stmt(
            StmtKind::Loop {
                kind: LoopKind::For,
                init: vec![init],
                cond: Some(cond),
                step: Some(step),
                body: Vec::new(),
            },
            span,
        );
        self.push_to(dest, id);
        // The element: `range[i]`, under the declared name.
        let declared = n.field("declarator").and_then(|d| declarator_name(d, text));
        if let Some((name, is_pointer, _)) = declared {
            let at = self.expr(ExprKind::Var(index), span);
            let element = self.expr(ExprKind::Index(range, at), span);
            self.variables.insert(name.clone());
            self.arrays.remove(&name);
            self.lambda_vars.remove(&name);
            self.objects.remove(&name);
            let is_float = type_is_float(n, text);
            let decl = self.stmt(
                StmtKind::local(name, Some(element), is_pointer, is_float, IntType::Other),
                span,
            );
            self.push_to(Dest::LoopBody(id), decl);
        }
        id
    }

    /// A local array's constant first dimension, else the grid-wide value
    /// `extent(range)`.
    fn range_extent(
        &mut self,
        range: ExprId,
        range_node: Option<Node>,
        text: &str,
        at: ByteSpan,
    ) -> ExprId {
        if let ExprKind::Var(array) = &self.f.expr(range).kind {
            let dim = (self.f.stmts.iter().rev()).find_map(|s| match &s.kind {
                StmtKind::Decl { name, dims, .. } if name == array => Some(dims.first().copied()),
                _ => None,
            });
            let constant = dim
                .flatten()
                .flatten()
                .and_then(|d| match &self.f.expr(d).kind {
                    ExprKind::Int(k) => Some(ExprKind::Int(*k)),
                    ExprKind::Var(c) if self.constants.contains_key(c) => {
                        Some(ExprKind::Var(c.clone()))
                    }
                    _ => None,
                });
            if let Some(kind) = constant {
                return self.expr(kind, at);
            }
        }
        let written: String = range_node
            .map(|r| node_text(r, text).split_whitespace().collect())
            .unwrap_or_default();
        let name = range_extent_name(&written);
        if !self.f.constant_names.contains(&name) {
            self.f.constant_names.push(name.clone());
        }
        self.expr(ExprKind::Var(name), at)
    }
}
