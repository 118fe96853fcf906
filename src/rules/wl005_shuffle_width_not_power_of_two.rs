//! WL005 `shuffle-width-not-power-of-two`: a constant shuffle width outside
//! {1, 2, 4, 8, 16, 32}.

use super::Class;
use super::warp::call_sites;
use super::{Finding, Rule, RuleContext, RuleMeta};
use crate::diagnostic::Severity;
use crate::ir::Primitive;

pub struct ShuffleWidthNotPowerOfTwo;

pub static META: RuleMeta = RuleMeta {
    code: "WL005",
    name: "shuffle-width-not-power-of-two",
    severity: Severity::Error,
    summary: "Shuffle width that is not a power of two no larger than 32",
    has_fix: false,
    page: include_str!("../../rules/WL005-shuffle-width-not-power-of-two.md"),
};

impl Rule for ShuffleWidthNotPowerOfTwo {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &RuleContext, out: &mut Vec<Finding>) {
        for site in call_sites(cx.module, cx.facts) {
            let Some(p @ Primitive::Shfl(_)) = site.prim else {
                continue;
            };
            let Some(&w) = site.call.args.get(3) else {
                continue;
            };
            let Some(width) = crate::ir::fold::eval_const(site.f, w, &cx.module.constants) else {
                continue;
            };
            if [1, 2, 4, 8, 16, 32].contains(&width) {
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
                help: Some("use 1, 2, 4, 8, 16 or 32; for other group sizes, shuffle within the next power of two and mask the extra lanes".to_owned()),
                labels: vec![(wspan.0, wspan.1, "this width".to_owned())],
                fix: None,
                claim: Some(site.claim(&[Class::BadWidth])),
            });
        }
    }
}
