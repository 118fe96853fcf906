//! WL008 `full-mask-presence-vote`: a device function that asks which lanes
//! of the warp are here (`__ballot_sync(0xffffffff, 1)`, `__popc` of it, a
//! constant `__match_any_sync`), and so expects fewer than 32, while its
//! full mask demands all 32. Called from divergent code, it hangs or
//! returns garbage. The function's callers are mostly outside the file, so
//! a finding is confirmed only when a visible divergent caller shows it and
//! otherwise stays undecided with that assumption; it is never refuted by
//! runs of the callers that happen to be visible (unless the function is
//! `static` in a `.cu` file, where every caller is).
//!
//! With that evidence (the vote, or `__activemask()` / `coalesced_threads()`
//! used as a set of lanes), the other full-mask primitives reached by every
//! lane that enters the function are findings too. Primitives under a
//! lane-varying branch of the function are WL002's, and so is everything in
//! kernels, whose lanes are visible.

use super::Class;
use super::warp::{CallSite, call_sites, const_mask};
use super::{Finding, Rule, RuleContext, RuleMeta};
use crate::dataflow::{self, Facts};
use crate::diagnostic::Severity;
use crate::ir::primitives::{COALESCED_LANES, VoteMode};
use crate::ir::{ExprId, ExprKind, FnKind, Function, Module, Primitive};

pub struct FullMaskPresenceVote;

pub static META: RuleMeta = RuleMeta {
    code: "WL008",
    name: "full-mask-presence-vote",
    severity: Severity::Error,
    summary: "Device function asks which lanes are present with a full-mask vote, so it needs all 32",
    has_fix: false,
    page: include_str!("../../rules/WL008-full-mask-presence-vote.md"),
    checks_linked_functions: true,
};

const CLASSES: &[Class] = &[Class::AbsentLanes, Class::ReadsExited, Class::MaskDisagree];

const FULL: u32 = 0xffff_ffff;

const HELP: &str = "take the mask as a parameter from a caller that computed it with `__ballot_sync` \
before its branch, or aggregate opportunistically: `cg::coalesced_threads()`, or one `__activemask()` \
read used for every collective (`__match_any_sync` when keys differ)";

impl Rule for FullMaskPresenceVote {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &RuleContext, out: &mut Vec<Finding>) {
        let sites = call_sites(cx.module, cx.facts);
        for (fi, f) in cx.module.functions.iter().enumerate() {
            // A linked header function's spans point into its header.
            let src = cx.source_of(fi);
            // A kernel's lanes are visible: WL002 judges its full masks. A
            // lambda passed on as a value has callers the module does not
            // see, so whether its callers are visible cannot be told:
            // precision first, lambdas are skipped.
            if f.kind != FnKind::Device {
                continue;
            }
            // Only code every lane entering the function reaches: under a
            // lane-varying branch of its own, a full mask is WL002's.
            let top: Vec<&CallSite> = sites
                .iter()
                .filter(|s| s.function == fi && !s.context.warp_divergent())
                .collect();
            let votes: Vec<(&CallSite, PresenceVote)> = top
                .iter()
                .filter_map(|s| presence_vote(s, cx.module, cx.facts).map(|v| (*s, v)))
                .collect();
            let lane_set = lane_set_read(f, &cx.facts.functions[fi].activemask_vars);
            if votes.is_empty() && lane_set.is_none() {
                continue;
            }
            let callers = callers_of(fi, &sites, cx.module);
            let unseen = unseen_callers(cx, fi, &callers);
            let caller_labels: Vec<(usize, usize, String)> = callers
                .iter()
                .filter(|c| c.context.warp_divergent())
                .take(2)
                .map(|c| {
                    let (s, e) = c.span();
                    (
                        s,
                        e,
                        format!("`{}` is called here by only some lanes", f.name),
                    )
                })
                .collect();
            let claim = |site: &CallSite| {
                let mut claim = site.claim(CLASSES);
                claim.unseen_callers = unseen.clone();
                claim
            };
            for (site, vote) in &votes {
                let (start, end) = site.span();
                let mut labels = vote.label.iter().cloned().collect::<Vec<_>>();
                labels.extend(caller_labels.iter().cloned());
                out.push(Finding {
                    rule: &META,
                    start,
                    end,
                    message: format!(
                        "`{}` asks which lanes are here, but its full mask{} demands all 32: a divergent caller hangs or gets garbage",
                        src.snippet((start, end), 40),
                        vote.mask_text
                    ),
                    help: Some(HELP.to_owned()),
                    labels,
                    fix: None,
                    claim: Some(claim(site)),
                });
            }
            // The evidence that the author expected a subset of the warp.
            let evidence = votes
                .first()
                .map(|(s, _)| s.span())
                .or(lane_set)
                .unwrap_or((0, 0));
            for site in &top {
                if votes.iter().any(|(v, _)| v.expr == site.expr) {
                    continue;
                }
                let Some(p) = site.prim.filter(|p| p.is_masked()) else {
                    continue;
                };
                if const_mask(site, cx.module) != Some(FULL) {
                    continue;
                }
                let (start, end) = site.span();
                let mut labels = vec![(
                    evidence.0,
                    evidence.1,
                    "here the function asks which lanes are present".to_owned(),
                )];
                labels.extend(caller_labels.iter().cloned());
                out.push(Finding {
                    rule: &META,
                    start,
                    end,
                    message: format!(
                        "`{}` names all 32 lanes, but `{}` expects only some of them (line {}): a divergent caller hangs it",
                        site.written_name(cx.source_of(site.function), p),
                        short_name(&f.name),
                        src.line_col(evidence.0).0
                    ),
                    help: Some(HELP.to_owned()),
                    labels,
                    fix: None,
                    claim: Some(claim(site)),
                });
            }
        }
    }
}

/// A vote whose predicate is the same constant for every lane, over the
/// full mask: it can only tell which lanes are here.
struct PresenceVote {
    /// Where a wrapper's full mask comes from, for the message.
    mask_text: &'static str,
    /// The vote inside a wrapper, when the call is one.
    label: Option<(usize, usize, String)>,
}

/// `__ballot_sync`/`__any_sync`/`__all_sync` with a non-zero constant
/// predicate, or `__match_any_sync` with a constant value, over a mask that
/// folds to 0xffffffff; or a call to a wrapper in this file that passes a
/// constant predicate to such a vote whose mask is, or defaults to, full.
fn presence_vote(site: &CallSite, module: &Module, facts: &Facts) -> Option<PresenceVote> {
    if let Some(p) = site.prim {
        if !is_vote(p) || const_mask(site, module) != Some(FULL) {
            return None;
        }
        let value = *site.call.args.get(1)?;
        let v = crate::ir::fold::eval_const(site.f, value, &module.constants)?;
        if v == 0 && !matches!(p, Primitive::Match { .. }) {
            return None;
        }
        return Some(PresenceVote {
            mask_text: "",
            label: None,
        });
    }
    let g = dataflow::callee(module, site.call)?;
    let w = &module.functions[g];
    if g == site.function || w.kind != FnKind::Device {
        return None;
    }
    // The wrapper's own vote, reached by every lane that enters it.
    w.exprs.iter().enumerate().find_map(|(i, e)| {
        let ExprKind::Call(c) = &e.kind else {
            return None;
        };
        let p = Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some())?;
        if !is_vote(p) {
            return None;
        }
        let ctx = facts.functions[g].call_context.get(&(i as ExprId))?;
        if ctx.warp_divergent() {
            return None;
        }
        let (mask, value) = (*c.args.first()?, *c.args.get(1)?);
        let value_param = param_index(w, value)?;
        let v = crate::ir::fold::eval_const(
            site.f,
            *site.call.args.get(value_param)?,
            &module.constants,
        )?;
        if v == 0 && !matches!(p, Primitive::Match { .. }) {
            return None;
        }
        let (full, from_default) = match param_index(w, mask) {
            Some(k) => match site.call.args.get(k) {
                Some(a) => (
                    crate::ir::fold::eval_const(site.f, *a, &module.constants),
                    false,
                ),
                None => (
                    w.params[k]
                        .default
                        .and_then(|d| crate::ir::fold::eval_const(w, d, &module.constants)),
                    true,
                ),
            },
            None => (
                crate::ir::fold::eval_const(w, mask, &module.constants),
                false,
            ),
        };
        if full.map(|m| m as u32) != Some(FULL) {
            return None;
        }
        let mask_text = if from_default {
            " (a default)"
        } else {
            " (inside the wrapper)"
        };
        Some(PresenceVote {
            mask_text,
            label: Some((
                e.span.0,
                e.span.1,
                if from_default {
                    format!(
                        "the vote inside `{}`: its mask defaults to 0xffffffff",
                        w.name
                    )
                } else {
                    format!("the vote inside `{}`, over the full mask", w.name)
                },
            )),
        })
    })
}

/// The primitives a presence vote is made with: a vote or `__match_any_sync`
/// of one value for every lane returns (or tests) the lanes that are here.
fn is_vote(p: Primitive) -> bool {
    matches!(
        p,
        Primitive::Vote(VoteMode::Ballot | VoteMode::Any | VoteMode::All)
            | Primitive::Match { all: false }
    )
}

/// The parameter `e` names, if it is a bare parameter of `f`.
fn param_index(f: &Function, e: ExprId) -> Option<usize> {
    match &f.expr(e).kind {
        ExprKind::Var(v) => f.params.iter().position(|p| p.name == *v),
        _ => None,
    }
}

/// `__activemask()` (directly or through a variable) used as a set of
/// lanes: as a mask, or counted and searched with `__popc`/`__ffs`/`__fns`;
/// or `coalesced_threads()`. A read compared with a constant (an assertion
/// that the warp is full) is not such a use.
fn lane_set_read(
    f: &Function,
    activemask_vars: &rustc_hash::FxHashSet<String>,
) -> Option<(usize, usize)> {
    f.exprs.iter().find_map(|e| {
        let ExprKind::Call(c) = &e.kind else {
            return None;
        };
        if c.name == COALESCED_LANES {
            return Some(e.span);
        }
        let prim = Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some());
        let args: &[ExprId] = match prim {
            Some(p) if p.is_masked() => &c.args[..c.args.len().min(1)],
            None if matches!(c.name.as_str(), "__popc" | "__ffs" | "__fns") => &c.args,
            _ => return None,
        };
        args.iter()
            .any(|a| {
                dataflow::mentions_call(f, *a, &["__activemask"])
                    || dataflow::mentions_var(f, *a, activemask_vars)
            })
            .then_some(e.span)
    })
}

/// Call sites, anywhere in the file, whose callee is `g`.
fn callers_of<'s, 'm>(
    g: usize,
    sites: &'s [CallSite<'m>],
    module: &Module,
) -> Vec<&'s CallSite<'m>> {
    sites
        .iter()
        .filter(|s| s.prim.is_none() && s.function != g)
        .filter(|s| dataflow::callee(module, s.call) == Some(g))
        .collect()
}

/// The assumption a finding stays undecided under when no run confirms
/// it; `None` when every caller is visible (`static` in a `.cu` file).
fn unseen_callers(cx: &RuleContext, fi: usize, callers: &[&CallSite]) -> Option<String> {
    let (src, f) = (cx.source_of(fi), &cx.module.functions[fi]);
    let is_static = src.text.get(f.span.0..f.name_span.0).is_some_and(|head| {
        head.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .any(|w| w == "static")
    });
    if is_static && src.path.ends_with(".cu") {
        return None;
    }
    let consequence = "a caller from divergent code would leave lanes named in the full mask absent: a hang or a wrong result";
    Some(if callers.is_empty() {
        format!(
            "callers not visible: `{}` has no caller in this file; {consequence}",
            f.name
        )
    } else {
        let list: Vec<String> = callers
            .iter()
            .take(3)
            .map(|c| {
                let line = cx.source_of(c.function).line_col(c.span().0).0;
                format!("`{}` line {line}", c.f.name)
            })
            .collect();
        format!(
            "callers not all visible: the runs from the callers in this file ({}) showed no missing lane, but `{}` can be called from elsewhere; {consequence}",
            list.join(", "),
            f.name
        )
    })
}

/// A function name for a message, shortened so that messages stay short.
fn short_name(name: &str) -> String {
    if name.len() > 32 {
        format!("{}…", &name[..name.floor_char_boundary(29)])
    } else {
        name.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{Options, check_source};

    /// Messages stay under 160 characters whatever the names and text.
    #[test]
    fn messages_are_short() {
        let long = "a_rather_long_helper_name_that_goes_on_and_on_forever";
        let src = format!(
            "__device__ unsigned {long}(int p, unsigned m = 0xffffffff) {{ return __ballot_sync(m, p); }}\n\
             __device__ int {long}_user() {{ unsigned here = __ballot_sync(0xffffffff, 1 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0); \
             unsigned w = {long}(1); return __shfl_sync(0xffffffff, (int)here, 0) + (int)w; }}\n"
        );
        let out = check_source("long.cuh", src.as_bytes(), &Options::default());
        let ours: Vec<_> = out
            .diagnostics
            .iter()
            .filter(|d| d.code == "WL008")
            .collect();
        assert_eq!(ours.len(), 3, "{ours:#?}");
        for d in ours {
            assert!(d.message.chars().count() < 160, "{}", d.message);
        }
    }
}
