//! WL005 `shuffle-width-not-power-of-two`: a constant shuffle width outside
//! {1, 2, 4, 8, 16, 32}.
//!
//! A width that is a class template's parameter (`template <int W> struct
//! S { … __shfl_down_sync(m, v, o, W) … }`) is checked where a call names
//! an instance (`S<6> s; s.sum(v)`, `S<6>::sum(v)`), as a function
//! template's is at its instantiation.

use super::Class;
use super::warp::{CallSite, call_sites, code};
use super::{Finding, Rule, RuleContext, RuleMeta};
use crate::diagnostic::Severity;
use crate::ir::{ExprId, Module, Primitive};

const WIDTHS: [i64; 6] = [1, 2, 4, 8, 16, 32];
const HELP: &str = "use 1, 2, 4, 8, 16 or 32; for other group sizes, shuffle within the next power of two and mask the extra lanes";

pub struct ShuffleWidthNotPowerOfTwo;

pub static META: RuleMeta = RuleMeta {
    code: "WL005",
    name: "shuffle-width-not-power-of-two",
    severity: Severity::Error,
    summary: "Shuffle width that is not a power of two no larger than 32",
    has_fix: false,
    page: include_str!("../../rules/WL005-shuffle-width-not-power-of-two.md"),
    checks_linked_functions: true,
};

impl Rule for ShuffleWidthNotPowerOfTwo {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &RuleContext, out: &mut Vec<Finding>) {
        for site in call_sites(cx.module, cx.facts) {
            let Some(p @ Primitive::Shfl(_)) = site.prim else {
                out.extend(instance_width(cx, &site));
                continue;
            };
            let Some(&w) = site.call.args.get(3) else {
                continue;
            };
            let Some(width) = crate::ir::fold::eval_const(site.f, w, &cx.module.constants) else {
                continue;
            };
            if WIDTHS.contains(&width) {
                continue;
            }
            let (start, end) = site.span();
            let wspan = site.f.expr(w).span;
            out.push(Finding {
                rule: &META,
                start,
                end,
                message: format!(
                    "`{}` has width {width}, which is not a power of two up to 32: the lanes it groups are \
                     undefined",
                    site.written_name(cx.source_of(site.function), p)
                ),
                help: Some(HELP.to_owned()),
                labels: vec![(wspan.0, wspan.1, "this width".to_owned())],
                fix: None,
                claim: Some(site.claim(&[Class::BadWidth])),
            });
        }
    }
}

/// A call of a class template's member on an instance the call names,
/// where a shuffle of the member has a width the instance's arguments make
/// not a power of two: the finding is at the call, and the executor's run
/// of the caller through it decides.
fn instance_width(cx: &RuleContext, site: &CallSite) -> Option<Finding> {
    let module: &Module = cx.module;
    let g = crate::dataflow::callee(module, site.call)?;
    let member = &module.functions[g];
    let bound = super::warp::instance_values(module, site.f, site.call, g);
    if bound.is_empty() {
        return None;
    }
    let written = site.f.instance_args(site.call)?;
    let lookup = |n: &str| {
        (bound.iter().find(|(b, _)| *b == n))
            .map(|(_, v)| *v)
            .or_else(|| module.constants.get(n).copied())
    };
    let (prim, width) = member.own_calls().find_map(|(_, call)| {
        let p @ Primitive::Shfl(_) =
            Primitive::from_call(&call.name, call.scope.as_deref(), call.receiver.is_some())?
        else {
            return None;
        };
        let w: ExprId = *call.args.get(3)?;
        // A constant width is the member's own finding.
        if crate::ir::fold::eval_const(member, w, &module.constants).is_some() {
            return None;
        }
        let width = crate::ir::fold::eval(member, w, &lookup, 0)?;
        (!WIDTHS.contains(&width)).then_some((p, width))
    })?;
    let instance = format!("{}<{}>", member.class.as_deref()?, written.join(", "));
    let (start, end) = site.span();
    Some(Finding {
        rule: &META,
        start,
        end,
        message: format!(
            "{} of {} runs `{}` with width {width}, which is not a power of two up to 32: the \
             lanes it groups are undefined",
            code(&site.call.name, 40),
            code(&instance, 40),
            prim.display_name()
        ),
        help: Some(HELP.to_owned()),
        labels: Vec::new(),
        fix: None,
        claim: Some(site.claim(&[Class::BadWidth])),
    })
}
