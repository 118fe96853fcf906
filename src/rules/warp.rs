//! Helpers shared by the warp rules: iterating primitive calls with their
//! reaching context, describing guards, and building claims.

use super::Claim;
use super::Class;
use crate::dataflow::{self, Context, Facts, GuardKind, Level};
use crate::ir::primitives::{COALESCED_MASK, ptx_spelling};
use crate::ir::{
    Call, Deducing, ExprId, ExprKind, Function, GroupArg, Module, Primitive, StmtId, StmtKind,
    call_scope,
};
use crate::source::SourceFile;

/// A call in device code with what the dataflow knows about it.
pub struct CallSite<'m> {
    pub function: usize,
    pub f: &'m Function,
    pub expr: ExprId,
    pub call: &'m Call,
    pub prim: Option<Primitive>,
    pub context: Context,
}

pub fn call_sites<'m>(module: &'m Module, facts: &Facts) -> Vec<CallSite<'m>> {
    let mut out = Vec::new();
    for (fi, f) in module.functions.iter().enumerate() {
        for (expr, call) in f.own_calls() {
            let Some(context) = facts.functions[fi].call_context.get(&expr).cloned() else {
                continue; // e.g. a parameter's default value
            };
            out.push(CallSite {
                function: fi,
                f,
                expr,
                call,
                prim: Primitive::from_call(
                    &call.name,
                    call.scope.as_deref(),
                    call.receiver.is_some(),
                ),
                context,
            });
        }
    }
    out
}

impl CallSite<'_> {
    pub fn span(&self) -> (usize, usize) {
        self.f.expr(self.expr).span
    }

    /// The callee as the code spells it, for messages: `tile.shfl_down`
    /// and `cg::reduce` (group operations lowered to the primitive they
    /// stand for), `__reduce_add_sync`. The primitive's own name where the
    /// text is not a plain name: a macro's expansion, inline PTX.
    pub fn written_name(&self, src: &SourceFile, p: Primitive) -> String {
        written_callee(src, self.f, self.expr, p)
    }

    /// The mask argument's expression, for masked primitives.
    pub fn mask_arg(&self) -> Option<ExprId> {
        match self.prim {
            Some(p) if p.is_masked() => self.call.args.first().copied(),
            _ => None,
        }
    }

    /// How the mask reads in source (`0xffffffff`, `FULL_MASK`, default).
    pub fn mask_text(&self, src: &SourceFile) -> String {
        match self.mask_arg() {
            Some(m) => {
                let (s, e) = self.f.expr(m).span;
                if self.call.via_macro.is_some() {
                    "(from a macro)".to_owned()
                } else {
                    code(src.text.get(s..e).unwrap_or("?").trim(), 24)
                }
            }
            None => "`0xffffffff` (the default)".to_owned(),
        }
    }

    /// "all 32 lanes" or "the lanes in `m`", for messages.
    pub fn mask_phrase(&self, src: &SourceFile, module: &Module) -> String {
        if const_mask(self, module) == Some(0xffff_ffff) {
            "all 32 lanes".to_owned()
        } else {
            format!("the lanes in {}", self.mask_text(src))
        }
    }

    /// Whether the code itself shows lanes (`min` = `Level::Varying`) or
    /// threads (`Level::Warp`) diverging before this call: some guard at
    /// that level varies because of thread indices, lane ids or shuffles,
    /// not only because of inputs the analysis knows nothing about.
    pub fn divergence_shown(&self, facts: &Facts, module: &Module, min: Level) -> bool {
        self.context
            .guards
            .iter()
            .any(|g| g.level >= min && facts.shown_level(module, self.function, g) >= min)
    }

    /// [`CallSite::divergence_shown`] whatever the block's width: not only
    /// where its rows are narrower than a warp. For a block barrier
    /// (`min` = `Level::Warp`), whole warps leaving the kernel split
    /// nothing (`Context::block_divergent`), as rows of whole warps do.
    fn divergence_shown_whole_rows(&self, facts: &Facts, module: &Module, min: Level) -> bool {
        let warps_exit = GuardKind::EarlyExit { ends_threads: true };
        (self.context.guards.iter()).any(|g| {
            let whole = facts.shown_level_whole_rows(module, self.function, g);
            g.level >= min
                && whole >= min
                && !(min == Level::Warp && whole == Level::Warp && g.kind == warps_exit)
        })
    }

    /// A claim that rests on the guards above `min`: speculative when only
    /// unknown inputs make them vary (shown only if a run confirms it),
    /// and resting on an assumed shape where only rows narrower than a
    /// warp do.
    pub fn guarded_claim(
        &self,
        classes: &'static [Class],
        facts: &Facts,
        module: &Module,
        min: Level,
    ) -> Claim {
        let shown = self.divergence_shown(facts, module, min);
        Claim {
            speculative: !shown,
            narrow_rows_only: shown && !self.divergence_shown_whole_rows(facts, module, min),
            ..self.claim(classes)
        }
    }

    pub fn claim(&self, classes: &'static [Class]) -> Claim {
        Claim {
            function: self.function,
            sites: vec![self.expr],
            classes,
            schedule_dependent: false,
            speculative: false,
            narrow_rows_only: false,
            unseen_callers: None,
            lane_proof: None,
        }
    }
}

/// `i < n` (line 9): a guard's source on one line, cut to keep messages
/// short (the labels show it whole).
pub fn guard_text(src: &SourceFile, span: (usize, usize)) -> String {
    let text = src.snippet(span, usize::MAX);
    format!("{} (line {})", code(&text, 32), src.line_col(span.0).0)
}

/// Source text in backticks for a message, cut to `max` bytes with `…`:
/// messages stay under 160 characters whatever the code looks like.
pub fn code(text: &str, max: usize) -> String {
    if text.len() > max {
        format!("`{}…`", &text[..text.floor_char_boundary(max - 1)])
    } else {
        format!("`{text}`")
    }
}

/// How a message names the function a call runs: its name as code, the
/// object whose `operator()` it is (`sum`, `WarpSum()`), or "the lambda
/// called here" for one called where it is written.
pub fn callee_text(src: &SourceFile, site: &CallSite) -> String {
    let call = site.call;
    if call.target.is_some() && call.name == crate::ir::INLINE_LAMBDA {
        return "the lambda called here".to_owned();
    }
    match call
        .receiver
        .filter(|_| call.name == crate::ir::CALL_OPERATOR)
    {
        Some(r) if call.via_macro.is_none() => code(&src.snippet(site.f.expr(r).span, 40), 40),
        // An instance the call names by its template's defaults
        // (`group_sum(v)` runs `group_sum<16>`): as written. A scoped
        // call keeps its innermost scope (`NamedBarrier::sync`).
        _ => {
            let name = if call.template_args.is_empty() {
                call.name.split('<').next().unwrap_or(&call.name)
            } else {
                &call.name
            };
            match call_scope(call) {
                Some(scope) => code(&format!("{scope}::{name}"), 40),
                None => code(name, 40),
            }
        }
    }
}

/// "where `i < n` (line 9) holds" and similar: which lanes reach a point,
/// naming the innermost guard only (messages stay one short sentence; the
/// labels show every guard).
pub fn reach_text(src: &SourceFile, ctx: &Context, min: Level) -> String {
    let guards: Vec<_> = ctx.guards.iter().filter(|g| g.level >= min).collect();
    let Some(g) = guards.last() else {
        return "some lanes".to_owned();
    };
    let t = guard_text(src, g.span);
    let mut s = match g.kind {
        GuardKind::Branch { negated: false } => format!("where {t} holds"),
        GuardKind::Branch { negated: true } => format!("where {t} fails"),
        GuardKind::Case { value: Some(v) } => {
            let case = format!("case {}:", src.snippet(v, usize::MAX));
            format!("entering {} of the switch on {t}", code(&case, 32))
        }
        GuardKind::Case { value: None } => format!("entering `default:` of the switch on {t}"),
        GuardKind::EarlyExit { .. } => format!("that did not leave at {t}"),
        GuardKind::Loop => format!("still looping on {t}"),
    };
    if guards.len() > 1 {
        s.push_str(" (among others)");
    }
    s
}

/// Secondary labels for the guards that make a point divergent.
pub fn guard_labels(ctx: &Context, min: Level) -> Vec<(usize, usize, String)> {
    let guards: Vec<_> = ctx.guards.iter().filter(|g| g.level >= min).collect();
    let skip = guards.len().saturating_sub(3);
    guards
        .into_iter()
        .skip(skip)
        .map(|g| {
            let msg = match g.kind {
                GuardKind::Branch { .. } | GuardKind::Case { .. } if g.level == Level::Varying => {
                    "lanes of a warp diverge here"
                }
                GuardKind::Branch { .. } | GuardKind::Case { .. } => {
                    "threads of the block diverge here"
                }
                GuardKind::EarlyExit { .. } => "some lanes leave here",
                GuardKind::Loop => "lanes stop looping at different times",
            };
            (g.span.0, g.span.1, msg.to_owned())
        })
        .collect()
}

/// The primitive call at `expr` of `f` as the code spells its callee
/// (`g.sync`, `cg::reduce`, `__syncthreads`), `src` being `f`'s file; the
/// opcode of a warp collective in inline PTX (`elect.sync`); the
/// primitive's own name where the text is not a plain name: a macro's
/// expansion.
fn written_callee(src: &SourceFile, f: &Function, expr: ExprId, p: Primitive) -> String {
    if let Some(opcode) = ptx_collective(f, expr) {
        return opcode.to_owned();
    }
    let (start, end) = f.expr(expr).span;
    let text = src.text.get(start..end).unwrap_or("");
    let callee = text.split('(').next().unwrap_or("").trim();
    // A name, scoped or a member (`cg::reduce`, `tile.shfl_down`).
    let plain = (callee.bytes().next()).is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && (callee.bytes()).all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':'))
        && !matches!(callee, "asm" | "__asm" | "__asm__");
    let from_macro = matches!(&f.expr(expr).kind, ExprKind::Call(c) if c.via_macro.is_some());
    if !from_macro && text.contains('(') && plain {
        callee.to_owned()
    } else if let Some(inst) = ptx_instruction(text).filter(|_| !from_macro) {
        inst.to_owned()
    } else {
        p.display_name().to_owned()
    }
}

/// The opcode of the PTX warp collective whose check `expr` is.
fn ptx_collective(f: &Function, expr: ExprId) -> Option<&'static str> {
    match &f.expr(expr).kind {
        ExprKind::Call(c) => ptx_spelling(&c.name),
        _ => None,
    }
}

/// The instruction an `asm("bar.sync 1, 128;" …)` statement's text holds,
/// without its `;` (the template's first string, if it is one short line).
fn ptx_instruction(text: &str) -> Option<&str> {
    let head = text.split('(').next()?.split_whitespace().next()?;
    if !matches!(head, "asm" | "__asm" | "__asm__") {
        return None;
    }
    let (_, rest) = text.split_once('"')?;
    let (inst, _) = rest.split_once('"')?;
    let inst = inst.trim().trim_end_matches(';').trim();
    (!inst.is_empty() && inst.len() <= 40 && !inst.contains(['\\', ';'])).then_some(inst)
}

/// The first primitive (matching `pred`) a call of `g` runs: in `g`'s own
/// body, else in the functions it calls, breadth first (the first
/// [`FULL_MASK_SEARCH`] reached), so that a helper handing its group on
/// (`scratch_sum_twice(g, …)` → `scratch_sum(g, …)`) names the barrier
/// it ends at. (function, call expression, primitive).
fn first_primitive_run(
    module: &Module,
    g: usize,
    pred: &dyn Fn(Primitive) -> bool,
) -> Option<(usize, ExprId, Primitive)> {
    called_breadth_first(module, g).into_iter().find_map(|fi| {
        module.functions[fi].own_calls().find_map(|(e, c)| {
            Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some())
                .filter(|&p| pred(p))
                .map(|p| (fi, e, p))
        })
    })
}

/// `g` and the functions its calls run, breadth first, the first
/// [`FULL_MASK_SEARCH`] of them: where the rules look for the primitives
/// a call of `g` runs.
fn called_breadth_first(module: &Module, g: usize) -> Vec<usize> {
    let mut seen = vec![g];
    let mut next = 0;
    while next < seen.len() && next < FULL_MASK_SEARCH {
        let f = &module.functions[seen[next]];
        next += 1;
        for (_, c) in f.own_calls() {
            if Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some()).is_none()
                && let Some(h) = dataflow::callee(module, c)
                && !seen.contains(&h)
            {
                seen.push(h);
            }
        }
    }
    seen.truncate(FULL_MASK_SEARCH);
    seen
}

/// How a call of `g` from `caller` names the first primitive (matching
/// `pred`) it runs, for a message (`g.sync()`, `__syncthreads()`; `None`
/// where none is found), and a label on that primitive. A label is a span
/// of the caller's file, so a primitive in another file (an included
/// header) gets none; `source_of` gives each function's file.
pub fn first_primitive<'s>(
    module: &Module,
    source_of: &dyn Fn(usize) -> &'s SourceFile,
    caller: usize,
    g: usize,
    pred: &dyn Fn(Primitive) -> bool,
) -> (Option<String>, Option<(usize, usize, String)>) {
    let Some((fi, e, p)) = first_primitive_run(module, g, pred) else {
        return (None, None);
    };
    let f = &module.functions[fi];
    let written = written_callee(source_of(fi), f, e, p);
    let label = (f.file == module.functions[caller].file).then(|| {
        let (start, end) = f.expr(e).span;
        (start, end, format!("`{written}` inside {}", f.shown_name()))
    });
    // A PTX instruction (`bar.sync %0, %1`, `elect.sync`) is no call.
    let shown = if written.contains(' ') || ptx_collective(f, e).is_some() {
        format!("`{written}`")
    } else {
        format!("`{written}()`")
    };
    (Some(shown), label)
}

/// Functions a call-level claim looks through for a full mask (see
/// [`runs_full_mask`]): the callee and what it calls, breadth first.
const FULL_MASK_SEARCH: usize = 16;

/// Does `g`, or a function it calls (the first [`FULL_MASK_SEARCH`]
/// reached), run a masked warp primitive whose mask the code writes as the
/// whole warp: a constant `0xffffffff` (a literal, a constant, a macro) or
/// `__syncwarp()`'s default? A call from divergent code into a function
/// whose masks are computed (`WarpMask<LogicalWarp>(warp_id)`, a
/// parameter) is not direct evidence: such masks usually name just the
/// sub-warp that calls.
pub fn runs_full_mask(module: &Module, caller: &Function, call: &Call, g: usize) -> bool {
    let full = |f: &Function, e: ExprId| {
        crate::ir::fold::eval_const(f, e, &module.constants)
            .is_some_and(|v| v as u32 == 0xffff_ffff)
    };
    // The callee's class parameters as this call's instance writes them:
    // `Reducer<float, 32>(s).Sum(v)` makes `0xffffffffu >> (32 - Lanes)`
    // the whole warp (not where the class has several specifiers: which
    // one the instance is may be a guess).
    let bound = instance_values(module, caller, call, g);
    let full_in_instance = |f: &Function, c: &Call| {
        let lookup = |n: &str| {
            (bound.iter().find(|(b, _)| *b == n).map(|(_, v)| *v))
                .or_else(|| module.constants.get(n).copied())
        };
        !bound.is_empty()
            && (c.args.first())
                .and_then(|&m| crate::ir::fold::eval(f, m, &lookup, 0))
                .is_some_and(|v| v as u32 == 0xffff_ffff)
    };
    // Else a mask parameter (`unsigned mask = 0xffffffff`): what this call
    // passes for it in the callee itself, its default elsewhere.
    let full_parameter = |f: &Function, c: &Call, top: bool| {
        let Some(ExprKind::Var(v)) = c.args.first().map(|&m| &f.expr(m).kind) else {
            return false;
        };
        let Some(i) = f.params.iter().position(|p| p.name == *v) else {
            return false;
        };
        match call.args.get(i).filter(|_| top) {
            Some(&a) => full(caller, a),
            None => f.params[i].default.is_some_and(|d| full(f, d)),
        }
    };
    (called_breadth_first(module, g).into_iter().enumerate()).any(|(k, fi)| {
        let f = &module.functions[fi];
        let top = k == 0;
        f.own_calls().any(|(_, c)| {
            Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some()).is_some_and(
                |p| {
                    p.is_masked()
                        && (call_const_mask(module, f, c, p) == Some(0xffff_ffff)
                            || full_parameter(f, c, top)
                            || (top && full_in_instance(f, c)))
                },
            )
        })
    })
}

/// The integer values `call`'s written instance gives callee `g`'s class
/// parameters (`Lanes = 32` for `Reducer<float, 32>(s).Sum(v)`): literals
/// and constants, where `g`'s class has one specifier in the module.
pub(super) fn instance_values<'m>(
    module: &'m Module,
    caller: &Function,
    call: &Call,
    g: usize,
) -> Vec<(&'m str, i64)> {
    let callee = &module.functions[g];
    let Some(written) = (!callee.class_params.is_empty())
        .then(|| caller.instance_args(call))
        .flatten()
    else {
        return Vec::new();
    };
    if !module.only_class(call, g) {
        return Vec::new();
    }
    (callee.class_params.iter())
        .filter_map(|p| Some((p.name.as_str(), module.written_int(p.arg(&written)?)?)))
        .collect()
}

/// Is the mask argument derived from `__activemask()` (and not a
/// `__match_*_sync` group)?
pub fn activemask_mask(site: &CallSite, facts: &Facts) -> bool {
    let Some(m) = site.mask_arg() else {
        return false;
    };
    let ff = &facts.functions[site.function];
    let from_am = dataflow::mentions_call(site.f, m, &["__activemask"])
        || dataflow::mentions_var(site.f, m, &ff.activemask_vars);
    let from_group = dataflow::mentions_call(site.f, m, &["__match_any_sync", "__match_all_sync"])
        || dataflow::mentions_var(site.f, m, &ff.group_vars);
    from_am && !from_group
}

/// The mask as a constant, if it folds.
pub fn const_mask(site: &CallSite, module: &Module) -> Option<u32> {
    site.prim
        .and_then(|p| call_const_mask(module, site.f, site.call, p))
}

/// The mask a masked primitive's call in `f` passes, as a constant if it
/// folds; `__syncwarp()`'s default names every lane.
fn call_const_mask(module: &Module, f: &Function, c: &Call, p: Primitive) -> Option<u32> {
    if !p.is_masked() {
        return None;
    }
    match c.args.first() {
        Some(&m) => crate::ir::fold::eval_const(f, m, &module.constants).map(|v| v as u32),
        None if p == Primitive::Syncwarp => Some(0xffff_ffff),
        None => None,
    }
}

/// Whether the site's mask is a coalesced group's, as its members pass it
/// (`COALESCED_MASK`): the lanes that formed the group.
pub fn group_held_mask(site: &CallSite) -> bool {
    site.mask_arg()
        .is_some_and(|m| dataflow::mentions_call(site.f, m, &[COALESCED_MASK]))
}

/// Per function, the statement declaring each local once (`None`: more
/// than once), read by [`coalesced_where_formed`]; built once per
/// function, so the work per call site does not grow with its length.
#[derive(Default)]
pub struct Formations<'m> {
    of: rustc_hash::FxHashMap<usize, rustc_hash::FxHashMap<&'m str, Option<StmtId>>>,
}

impl<'m> Formations<'m> {
    fn declaration(&mut self, function: usize, f: &'m Function, name: &str) -> Option<StmtId> {
        let decls = self.of.entry(function).or_insert_with(|| {
            let mut decls: rustc_hash::FxHashMap<&str, Option<StmtId>> = Default::default();
            for (i, s) in f.stmts.iter().enumerate() {
                if let StmtKind::Decl {
                    name,
                    init: Some(_),
                    ..
                } = &s.kind
                {
                    decls
                        .entry(name.as_str())
                        .and_modify(|d| *d = None)
                        .or_insert(Some(i as StmtId));
                }
            }
            decls
        });
        decls.get(name).copied().flatten()
    }
}

/// Whether the site's mask is a coalesced group's (`COALESCED_MASK` of
/// the variable `cg::coalesced_threads()` or a partition initialised)
/// and no lane-varying guard has split the lanes since the group was
/// formed: the group is (some of) the lanes that were together there,
/// every one of them gets here, and none that is not in it does.
pub fn coalesced_where_formed<'m>(
    site: &CallSite<'m>,
    facts: &Facts,
    formations: &mut Formations<'m>,
) -> bool {
    let f = site.f;
    let held = site.mask_arg().and_then(|m| match &f.expr(m).kind {
        ExprKind::Call(c) if c.name == COALESCED_MASK => c.args.first().copied(),
        _ => None,
    });
    let Some(ExprKind::Var(group)) = held.map(|h| &f.expr(h).kind) else {
        return false;
    };
    formed_unsplit(site, group, facts, formations)
}

/// Whether local `group` of the site's function was formed where no
/// lane-varying guard the site is under had yet split the lanes.
fn formed_unsplit<'m>(
    site: &CallSite<'m>,
    group: &str,
    facts: &Facts,
    formations: &mut Formations<'m>,
) -> bool {
    let Some(at) = formations.declaration(site.function, site.f, group) else {
        return false;
    };
    let Some(there) = facts.functions[site.function].stmt_context.get(&at) else {
        return false;
    };
    (site.context.guards.iter())
        .filter(|g| g.level == Level::Varying)
        .all(|g| (there.guards.iter()).any(|h| h.span == g.span && h.kind == g.kind))
}

/// [`coalesced_where_formed`] for a call of helper `g`: every warp
/// primitive `g` runs is a member of a coalesced group it takes as a
/// parameter (none in the functions it calls), and the call passes each
/// such parameter a coalesced group formed with no lane-varying guard
/// since (`cg::coalesced_threads()` inside the branch, then
/// `scratch_sum(active, …)`): the helper's masks are the lanes here.
pub fn coalesced_passed_where_formed<'m>(
    site: &CallSite<'m>,
    module: &Module,
    facts: &Facts,
    formations: &mut Formations<'m>,
    g: usize,
) -> bool {
    let callee = &module.functions[g];
    let mut members = 0;
    for (_, c) in callee.own_calls() {
        match Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some()) {
            Some(p) if p.is_masked() => {
                let held = c.args.first().and_then(|&m| match &callee.expr(m).kind {
                    ExprKind::Call(h) if h.name == COALESCED_MASK => h.args.first().copied(),
                    _ => None,
                });
                let Some(ExprKind::Var(param)) = held.map(|h| &callee.expr(h).kind) else {
                    return false;
                };
                // Arguments bind to the parameters callers pass (not fields).
                let Some(at) = callee.passed_params().position(|p| p.name == *param) else {
                    return false;
                };
                let passed = site.call.args.get(at).filter(|&&a| {
                    (site.f.deducing_arguments.iter())
                        .any(|(e, d)| *e == a && *d == Deducing::Group(GroupArg::Coalesced))
                });
                let Some(ExprKind::Var(group)) = passed.map(|&a| &site.f.expr(a).kind) else {
                    return false;
                };
                if !formed_unsplit(site, group, facts, formations) {
                    return false;
                }
                members += 1;
            }
            Some(_) => {}
            None => {
                if dataflow::callee(module, c).is_some_and(|h| facts.uses_warp_primitives[h]) {
                    return false;
                }
            }
        }
    }
    members > 0
}

/// Can the executor know this call's mask? True for literals, macros,
/// constants, defaults and values computed in the function; false when the
/// mask comes from a member, an unknown global, or a parameter the caller
/// supplies (then the call sites are judged instead).
pub fn mask_is_modelled(site: &CallSite, module: &Module, facts: &Facts) -> bool {
    let Some(m) = site.mask_arg() else {
        return true;
    };
    let f = site.f;
    let declared = &facts.functions[site.function].declared;
    !dataflow::any_subexpr(f, m, &mut |k| match k {
        // Members and methods of objects the IR does not model.
        ExprKind::Member(..) => true,
        ExprKind::Call(c) if c.receiver.is_some() => true,
        ExprKind::Var(v) => {
            let param = f.params.iter().find(|p| p.name == *v);
            match param {
                Some(p) => p.default.is_none() && f.kind != crate::ir::FnKind::Kernel,
                None => {
                    !declared.contains(v.as_str())
                        && !module.constants.contains_key(v)
                        && !f.template_values.contains(v)
                }
            }
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::runs_full_mask;
    use crate::ir::{ExprKind, Module};
    use crate::source::SourceFile;

    fn lower(src: &str) -> Module {
        let parsed = crate::frontend::parse(SourceFile::new("t.cu", src.as_bytes())).unwrap();
        crate::ir::lower_file(&parsed, &Default::default())
    }

    /// Whether the kernel `k`'s call of `name` runs a full-mask primitive.
    fn full_through(m: &Module, name: &str) -> bool {
        let k = m.functions.iter().position(|f| f.name == "k").unwrap();
        let f = &m.functions[k];
        let call = (f.exprs.iter())
            .find_map(|e| match &e.kind {
                ExprKind::Call(c) if c.name == name => Some(&**c),
                _ => None,
            })
            .unwrap();
        runs_full_mask(m, f, call, m.callee(call).unwrap())
    }

    #[test]
    fn a_call_runs_a_full_mask_only_where_the_code_writes_one() {
        let m = lower(
            "#define FULL 0xffffffffu\n\
             __device__ float lit(float v) { return __shfl_xor_sync(FULL, v, 1); }\n\
             __device__ float dflt(float v, unsigned m = 0xffffffffu) { return __shfl_xor_sync(m, v, 1); }\n\
             __device__ float deeper(float v) { return lit(v); }\n\
             __device__ unsigned group(int w) { return 0xffu << (8 * w); }\n\
             __device__ float computed(float v, int w) { return __shfl_xor_sync(group(w), v, 1); }\n\
             __device__ void fence() { __syncwarp(); }\n\
             __global__ void k(float* p) {\n\
               float v = p[threadIdx.x];\n\
               v = lit(v); v = dflt(v); v = deeper(v);\n\
               v = computed(v, threadIdx.x / 8); fence();\n\
               p[threadIdx.x] = v;\n\
             }\n",
        );
        assert!(full_through(&m, "lit"));
        assert!(
            full_through(&m, "dflt"),
            "the parameter's default is the full warp"
        );
        assert!(full_through(&m, "deeper"), "through a call");
        assert!(full_through(&m, "fence"), "__syncwarp() names every lane");
        assert!(!full_through(&m, "computed"), "a mask the code computes");
    }

    #[test]
    fn a_mask_the_call_passes_is_read_at_the_call() {
        let m = lower(
            "__device__ float pass(float v, unsigned m) { return __shfl_xor_sync(m, v, 1); }\n\
             __device__ float half(float v) { return pass(v, 0xffffu); }\n\
             __global__ void k(float* p) { p[0] = pass(p[0], 0xffffffffu) + half(p[1]); }\n",
        );
        assert!(full_through(&m, "pass"));
        assert!(!full_through(&m, "half"));
    }

    #[test]
    fn a_class_parameter_takes_the_instance_the_call_writes() {
        let called_with = |lanes: u32| {
            lower(&format!(
                "template <int Lanes> struct Part {{\n\
                   static __device__ float run(float v) {{\n\
                     return __shfl_sync(0xffffffffu >> (32 - Lanes), v, 0, Lanes); }}\n\
                 }};\n\
                 __global__ void k(float* p) {{ p[0] = Part<{lanes}>::run(p[0]); }}\n"
            ))
        };
        assert!(full_through(&called_with(32), "run"));
        assert!(
            !full_through(&called_with(16), "run"),
            "16 lanes: a narrower mask"
        );
    }
}
