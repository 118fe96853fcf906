//! Stage 4: dataflow over the kernel IR.
//!
//! - **Constants** come folded from lowering (`Module::constants`, macros,
//!   `constexpr`, enumerators) and [`crate::ir::fold`].
//! - **Uniformity**: which values may differ between the lanes of a warp
//!   ([`Level::Varying`]), only between warps ([`Level::Warp`]: the warp id,
//!   `threadIdx.x < 64`, ballot results), or not at all.
//! - **Reaching conditions**: for every call and statement, the branch
//!   conditions and early exits that decide which lanes get there
//!   ([`Context`]), used by the rules to propose findings and by messages to
//!   explain them. The executor computes the concrete lane sets.
//! - **Mask provenance**: which variables hold `__activemask()` or a
//!   `__match_*_sync` group.

use std::collections::{HashMap, HashSet};

use crate::ir::*;

/// How much a value may vary across the threads of a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Same for every thread of the block.
    Uniform,
    /// Same within a warp, may differ between warps.
    Warp,
    /// May differ between the lanes of a warp.
    Varying,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuardKind {
    /// Inside a branch taken when the condition holds (`negated`: fails).
    Branch { negated: bool },
    /// Some lanes left earlier through `return` (or `break`/`continue`).
    EarlyExit,
    /// Inside a loop whose trip count depends on the condition.
    Loop,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guard {
    pub kind: GuardKind,
    /// The condition (or the exit statement for `EarlyExit`).
    pub span: ByteSpan,
    pub level: Level,
}

/// The guards that decide who reaches a point, outermost first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Context {
    pub guards: Vec<Guard>,
}

impl Context {
    /// Some lanes of a warp may not get here.
    pub fn warp_divergent(&self) -> bool {
        self.guards.iter().any(|g| g.level == Level::Varying)
    }
    /// Some threads of the block may not get here.
    pub fn block_divergent(&self) -> bool {
        self.guards.iter().any(|g| g.level >= Level::Warp)
    }
    pub fn first_varying(&self, min: Level) -> Option<&Guard> {
        self.guards.iter().rev().find(|g| g.level >= min)
    }
}

/// Facts about one function.
#[derive(Debug, Default)]
pub struct FnFacts {
    pub var_level: HashMap<String, Level>,
    /// Context of every call expression.
    pub call_context: HashMap<ExprId, Context>,
    /// Context of every statement.
    pub stmt_context: HashMap<StmtId, Context>,
    /// Variables holding `__activemask()` (directly or computed from it).
    pub activemask_vars: HashSet<String>,
    /// Variables holding a `__match_*_sync` group mask.
    pub group_vars: HashSet<String>,
    /// `__shared__` arrays and pointers derived from them.
    pub shared_vars: HashSet<String>,
}

pub struct Facts {
    pub functions: Vec<FnFacts>,
    /// Functions that (transitively) execute masked warp primitives.
    pub uses_warp_primitives: Vec<bool>,
    /// Functions that (transitively) execute `__syncthreads()`.
    pub uses_block_barrier: Vec<bool>,
}

pub fn analyze(module: &Module) -> Facts {
    let functions: Vec<FnFacts> = module
        .functions
        .iter()
        .map(|f| analyze_function(f, module))
        .collect();
    let direct = |pred: &dyn Fn(Primitive) -> bool| -> Vec<bool> {
        module
            .functions
            .iter()
            .map(|f| {
                f.exprs.iter().any(|e| match &e.kind {
                    ExprKind::Call(c) => {
                        Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some())
                            .is_some_and(pred)
                    }
                    _ => false,
                })
            })
            .collect()
    };
    let uses_warp_primitives = close_over_calls(module, direct(&|p| p.is_masked()));
    let uses_block_barrier =
        close_over_calls(module, direct(&|p| matches!(p, Primitive::Syncthreads(_))));
    Facts {
        functions,
        uses_warp_primitives,
        uses_block_barrier,
    }
}

/// Propagate a per-function property to callers (bounded by the number of
/// functions: each pass either changes something or stops).
fn close_over_calls(module: &Module, mut has: Vec<bool>) -> Vec<bool> {
    // callers[g] = functions that call g; then a worklist marks callers.
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); module.functions.len()];
    for (i, f) in module.functions.iter().enumerate() {
        for e in &f.exprs {
            if let ExprKind::Call(c) = &e.kind
                && let Some(g) = module.callee(c)
            {
                callers[g].push(i);
            }
        }
    }
    let mut work: Vec<usize> = (0..has.len()).filter(|&i| has[i]).collect();
    while let Some(g) = work.pop() {
        for &caller in &callers[g] {
            if !has[caller] {
                has[caller] = true;
                work.push(caller);
            }
        }
    }
    has
}

/// The callee of a call expression, if it is a function of the module.
pub fn callee(module: &Module, call: &Call) -> Option<usize> {
    module.callee(call)
}

fn analyze_function(f: &Function, module: &Module) -> FnFacts {
    let mut facts = FnFacts::default();
    for p in &f.params {
        // Kernel arguments are the same for every thread. A helper's
        // parameters are judged at its call sites; on its own, only lane
        // ids and per-lane data are taken to vary.
        let varying =
            f.kind != FnKind::Kernel && !p.is_pointer && (p.is_float || lane_like(&p.name));
        let level = if varying {
            Level::Varying
        } else {
            Level::Uniform
        };
        facts.var_level.insert(p.name.clone(), level);
    }
    for t in &f.template_values {
        facts.var_level.insert(t.clone(), Level::Uniform);
    }
    // Levels only rise, so this settles within a few passes.
    for _ in 0..8 {
        let before = facts.var_level.clone();
        walk(f, module, &mut facts);
        if before == facts.var_level {
            break;
        }
    }
    facts
}

/// One program-order pass: contexts, variable levels, provenance.
fn walk(f: &Function, module: &Module, facts: &mut FnFacts) {
    enum Item<'f> {
        List(&'f [StmtId], usize),
        PushGuard(Guard),
        PushExit(Guard),
        PopGuard,
        /// Leaving a loop: drop `break`/`continue` exits recorded inside.
        EndLoop(usize),
    }
    let mut guards: Vec<Guard> = Vec::new();
    // Exits by `return` stay for the rest of the function; exits by
    // break/continue are scoped to their loop (see EndLoop).
    let mut exits: Vec<Guard> = Vec::new();
    let mut stack: Vec<Item> = vec![Item::List(&f.body, 0)];
    while let Some(item) = stack.pop() {
        match item {
            Item::PopGuard => {
                guards.pop();
            }
            Item::PushGuard(g) => guards.push(g),
            Item::PushExit(g) => exits.push(g),
            Item::EndLoop(n) => exits.truncate(n),
            Item::List(list, i) => {
                let Some(&sid) = list.get(i) else { continue };
                stack.push(Item::List(list, i + 1));
                let ctx = Context {
                    guards: guards.iter().chain(exits.iter()).cloned().collect(),
                };
                let ctl = ctx
                    .guards
                    .iter()
                    .map(|g| g.level)
                    .max()
                    .unwrap_or(Level::Uniform);
                let stmt = f.stmt(sid);
                let mut calls: Vec<(ExprId, Vec<Guard>)> = Vec::new();
                for_each_call_guarded(f, stmt, facts, module, &mut |e, extra| {
                    calls.push((e, extra.to_vec()))
                });
                for (e, extra) in calls {
                    let mut c = ctx.clone();
                    c.guards.extend(extra);
                    facts.call_context.insert(e, c);
                }
                facts.stmt_context.insert(sid, ctx.clone());
                match &stmt.kind {
                    StmtKind::Decl {
                        name,
                        init,
                        shared,
                        is_pointer,
                        ..
                    } => {
                        if *shared {
                            facts.shared_vars.insert(name.clone());
                            facts.var_level.insert(name.clone(), Level::Uniform);
                        }
                        if let Some(e) = init {
                            let lvl = expr_level(f, *e, facts, module).max(ctl);
                            raise(&mut facts.var_level, name, lvl);
                            provenance(f, name, *e, *is_pointer, facts);
                        }
                    }
                    StmtKind::Expr(e) => assignments(f, *e, ctl, facts, module),
                    StmtKind::If {
                        cond,
                        then_branch,
                        else_branch,
                    } => {
                        let level = expr_level(f, *cond, facts, module);
                        let span = f.expr(*cond).span;
                        let exits_here =
                            contains_exit(f, then_branch) || contains_exit(f, else_branch);
                        if exits_here && level > Level::Uniform {
                            // Lanes that leave here are missing after the if.
                            stack.push(Item::PushExit(Guard {
                                kind: GuardKind::EarlyExit,
                                span,
                                level,
                            }));
                        }
                        stack.push(Item::PopGuard);
                        stack.push(Item::List(else_branch, 0));
                        stack.push(Item::PushGuard(Guard {
                            kind: GuardKind::Branch { negated: true },
                            span,
                            level,
                        }));
                        stack.push(Item::PopGuard);
                        stack.push(Item::List(then_branch, 0));
                        guards.push(Guard {
                            kind: GuardKind::Branch { negated: false },
                            span,
                            level,
                        });
                    }
                    StmtKind::Loop {
                        init,
                        cond,
                        step,
                        body,
                        ..
                    } => {
                        for s in init {
                            if let StmtKind::Decl {
                                name,
                                init: Some(e),
                                ..
                            } = &f.stmt(*s).kind
                            {
                                let lvl = expr_level(f, *e, facts, module).max(ctl);
                                raise(&mut facts.var_level, name, lvl);
                            } else if let StmtKind::Expr(e) = &f.stmt(*s).kind {
                                assignments(f, *e, ctl, facts, module);
                            }
                        }
                        let mut level = cond
                            .map(|c| expr_level(f, c, facts, module))
                            .unwrap_or(Level::Uniform);
                        if let Some(st) = step {
                            assignments(f, *st, ctl, facts, module);
                        }
                        // Variables updated in the body feed the condition.
                        level = level.max(
                            cond.map(|c| expr_level(f, c, facts, module))
                                .unwrap_or(Level::Uniform),
                        );
                        let span = cond.map(|c| f.expr(c).span).unwrap_or(stmt.span);
                        if contains_exit(f, body) {
                            level = level.max(exit_level(f, body, facts, module));
                        }
                        stack.push(Item::EndLoop(exits.len()));
                        stack.push(Item::PopGuard);
                        stack.push(Item::List(body, 0));
                        guards.push(Guard {
                            kind: GuardKind::Loop,
                            span,
                            level,
                        });
                    }
                    StmtKind::Switch { scrutinee, cases } => {
                        let level = expr_level(f, *scrutinee, facts, module);
                        let span = f.expr(*scrutinee).span;
                        for c in cases.iter().rev() {
                            stack.push(Item::PopGuard);
                            stack.push(Item::List(&c.body, 0));
                            stack.push(Item::PushGuard(Guard {
                                kind: GuardKind::Branch { negated: false },
                                span,
                                level,
                            }));
                        }
                    }
                    StmtKind::Block(list) => stack.push(Item::List(list, 0)),
                    _ => {}
                }
            }
        }
    }
}

fn raise(levels: &mut HashMap<String, Level>, name: &str, lvl: Level) {
    let e = levels.entry(name.to_owned()).or_insert(Level::Uniform);
    if lvl > *e {
        *e = lvl;
    }
}

/// Record assignment effects of expression `e` evaluated under control `ctl`.
fn assignments(f: &Function, e: ExprId, ctl: Level, facts: &mut FnFacts, module: &Module) {
    let mut stack = vec![e];
    let mut guard = 0;
    while let Some(id) = stack.pop() {
        guard += 1;
        if guard > 4096 {
            break;
        }
        match &f.expr(id).kind {
            ExprKind::Assign { lhs, rhs, .. } => {
                if let ExprKind::Var(name) = &f.expr(*lhs).kind {
                    // A shared scalar is one location for the whole block:
                    // every thread reads the same value, whoever wrote it.
                    let lvl = if facts.shared_vars.contains(name) {
                        Level::Uniform
                    } else {
                        expr_level(f, *rhs, facts, module).max(ctl)
                    };
                    raise(&mut facts.var_level, name, lvl);
                    provenance(f, name, *rhs, false, facts);
                }
                stack.push(*rhs);
            }
            ExprKind::Update { target, .. } => {
                if let ExprKind::Var(name) = &f.expr(*target).kind {
                    raise(&mut facts.var_level, name, ctl);
                }
            }
            ExprKind::Comma(a, b) => {
                stack.push(*a);
                stack.push(*b);
            }
            ExprKind::Call(c) => stack.extend(c.args.iter().copied()),
            _ => {}
        }
    }
}

fn provenance(f: &Function, name: &str, e: ExprId, is_pointer: bool, facts: &mut FnFacts) {
    if mentions_call(f, e, &["__match_any_sync", "__match_all_sync"])
        || mentions_var(f, e, &facts.group_vars)
    {
        facts.group_vars.insert(name.to_owned());
    } else if mentions_call(f, e, &["__activemask"]) || mentions_var(f, e, &facts.activemask_vars) {
        facts.activemask_vars.insert(name.to_owned());
    }
    // `float *row = tile[w]` points into shared memory; `float x = s[i]` is
    // a value loaded from it.
    if mentions_var(f, e, &facts.shared_vars)
        && (is_pointer || !mentions_index_load(f, e, &facts.shared_vars))
    {
        facts.shared_vars.insert(name.to_owned());
    }
}

/// `e` is `s[...]` (a load of a shared element), not a pointer into `s`.
fn mentions_index_load(f: &Function, e: ExprId, vars: &HashSet<String>) -> bool {
    matches!(&f.expr(e).kind, ExprKind::Index(b, _) if matches!(&f.expr(*b).kind, ExprKind::Var(v) if vars.contains(v)))
}

pub fn mentions_call(f: &Function, e: ExprId, names: &[&str]) -> bool {
    any_subexpr(
        f,
        e,
        &mut |k| matches!(k, ExprKind::Call(c) if names.contains(&c.name.as_str())),
    )
}

pub fn mentions_var(f: &Function, e: ExprId, vars: &HashSet<String>) -> bool {
    !vars.is_empty()
        && any_subexpr(
            f,
            e,
            &mut |k| matches!(k, ExprKind::Var(v) if vars.contains(v)),
        )
}

/// Does any subexpression of `e` satisfy `pred`? (Explicit stack.)
pub fn any_subexpr(f: &Function, e: ExprId, pred: &mut dyn FnMut(&ExprKind) -> bool) -> bool {
    let mut found = false;
    walk_subexprs(f, &[e], &mut |_, k| {
        found = pred(k);
        found
    });
    found
}

pub fn children(k: &ExprKind) -> Vec<ExprId> {
    match k {
        ExprKind::Unary(_, a) | ExprKind::Member(a, _) => vec![*a],
        ExprKind::Update { target, .. } => vec![*target],
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) | ExprKind::Comma(a, b) => vec![*a, *b],
        ExprKind::Assign { lhs, rhs, .. } => vec![*lhs, *rhs],
        ExprKind::Ternary(a, b, c) => vec![*a, *b, *c],
        ExprKind::Call(c) => c.args.iter().copied().chain(c.receiver).collect(),
        _ => Vec::new(),
    }
}

/// Every call expression directly inside statement `s`, with the guards
/// that conditional evaluation adds inside the expression (`c ? a : b`,
/// `x && f()`).
fn for_each_call_guarded(
    f: &Function,
    s: &Stmt,
    facts: &FnFacts,
    module: &Module,
    visit: &mut dyn FnMut(ExprId, &[Guard]),
) {
    let roots = stmt_exprs(s);
    let guard = |c: ExprId, negated: bool| Guard {
        kind: GuardKind::Branch { negated },
        span: f.expr(c).span,
        level: expr_level(f, c, facts, module),
    };
    for r in roots {
        let mut stack: Vec<(ExprId, Vec<Guard>)> = vec![(r, Vec::new())];
        let mut seen = 0;
        while let Some((id, gs)) = stack.pop() {
            seen += 1;
            if seen > 4096 {
                break;
            }
            let k = &f.expr(id).kind;
            if matches!(k, ExprKind::Call(_)) {
                visit(id, &gs);
            }
            match k {
                ExprKind::Ternary(c, a, b) => {
                    stack.push((*c, gs.clone()));
                    let mut ga = gs.clone();
                    ga.push(guard(*c, false));
                    stack.push((*a, ga));
                    let mut gb = gs;
                    gb.push(guard(*c, true));
                    stack.push((*b, gb));
                }
                ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                    stack.push((*a, gs.clone()));
                    let mut gb = gs;
                    gb.push(guard(*a, *op == BinOp::Or));
                    stack.push((*b, gb));
                }
                _ => {
                    for c in children(k) {
                        stack.push((c, gs.clone()));
                    }
                }
            }
        }
    }
}

/// The expressions a statement evaluates itself (not those of nested
/// statements).
pub fn stmt_exprs(s: &Stmt) -> Vec<ExprId> {
    match &s.kind {
        StmtKind::Decl { init, dims, .. } => init
            .iter()
            .copied()
            .chain(dims.iter().flatten().copied())
            .collect(),
        StmtKind::Expr(e) => vec![*e],
        StmtKind::If { cond, .. } => vec![*cond],
        StmtKind::Loop { cond, step, .. } => cond.iter().chain(step.iter()).copied().collect(),
        StmtKind::Switch { scrutinee, .. } => vec![*scrutinee],
        StmtKind::Return(Some(e)) => vec![*e],
        _ => Vec::new(),
    }
}

/// Visit `roots` and all their subexpressions (explicit stack, bounded);
/// stop early when `visit` returns true.
pub fn walk_subexprs(
    f: &Function,
    roots: &[ExprId],
    visit: &mut dyn FnMut(ExprId, &ExprKind) -> bool,
) {
    let mut stack: Vec<ExprId> = roots.to_vec();
    let mut seen = 0;
    while let Some(id) = stack.pop() {
        seen += 1;
        if seen > 4096 {
            return;
        }
        let k = &f.expr(id).kind;
        if visit(id, k) {
            return;
        }
        stack.extend(children(k));
    }
}

/// Does a statement list contain `return` (or break/continue) anywhere?
fn contains_exit(f: &Function, list: &[StmtId]) -> bool {
    let mut stack: Vec<StmtId> = list.to_vec();
    let mut seen = 0;
    while let Some(s) = stack.pop() {
        seen += 1;
        if seen > 100_000 {
            return true;
        }
        match &f.stmt(s).kind {
            StmtKind::Return(_) | StmtKind::Break | StmtKind::Continue => return true,
            StmtKind::If {
                then_branch,
                else_branch,
                ..
            } => {
                stack.extend(then_branch);
                stack.extend(else_branch);
            }
            StmtKind::Block(b) => stack.extend(b),
            // Breaks inside nested loops/switches are theirs; returns are not,
            // but a nested loop with a return is rare enough to include.
            StmtKind::Loop { body, .. } => stack.extend(body),
            StmtKind::Switch { cases, .. } => {
                for c in cases {
                    stack.extend(&c.body);
                }
            }
            _ => {}
        }
    }
    false
}

/// The level of the conditions guarding exits inside a loop body.
fn exit_level(f: &Function, body: &[StmtId], facts: &FnFacts, module: &Module) -> Level {
    let mut level = Level::Uniform;
    let mut stack: Vec<StmtId> = body.to_vec();
    let mut seen = 0;
    while let Some(s) = stack.pop() {
        seen += 1;
        if seen > 100_000 {
            break;
        }
        match &f.stmt(s).kind {
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                if contains_exit(f, then_branch) || contains_exit(f, else_branch) {
                    level = level.max(expr_level(f, *cond, facts, module));
                }
                stack.extend(then_branch);
                stack.extend(else_branch);
            }
            StmtKind::Block(b) => stack.extend(b),
            _ => {}
        }
    }
    level
}

/// The uniformity level of an expression.
pub fn expr_level(f: &Function, e: ExprId, facts: &FnFacts, module: &Module) -> Level {
    level_rec(f, e, facts, module, 0)
}

fn is_const(f: &Function, e: ExprId, module: &Module) -> Option<i64> {
    crate::ir::fold::eval_const(f, e, &module.constants)
}

fn level_rec(f: &Function, e: ExprId, facts: &FnFacts, module: &Module, depth: usize) -> Level {
    if depth > 64 {
        return Level::Varying;
    }
    let d = depth + 1;
    let lv = |x: ExprId| level_rec(f, x, facts, module, d);
    match &f.expr(e).kind {
        ExprKind::Int(_) | ExprKind::Float(_) => Level::Uniform,
        ExprKind::Var(name) => facts.var_level.get(name).copied().unwrap_or(Level::Uniform),
        ExprKind::Builtin(b) => match b {
            Builtin::ThreadIdx(_) | Builtin::LaneId => Level::Varying,
            _ => Level::Uniform,
        },
        ExprKind::Unary(_, a) | ExprKind::Member(a, _) => lv(*a),
        ExprKind::Update { target, .. } => lv(*target),
        ExprKind::Binary(op, a, b) => {
            let (la, lb) = (lv(*a), lv(*b));
            let max = la.max(lb);
            if max == Level::Varying {
                // Splits on warp boundaries: tid / 32, tid >> 5, tid < 64.
                let warp_split = |x: ExprId, c: ExprId| {
                    lv(x) == Level::Varying
                        && mentions_thread_x(f, x)
                        && is_const(f, c, module).is_some_and(|k| match op {
                            BinOp::Div => k > 0 && k % 32 == 0,
                            BinOp::Shr => k >= 5,
                            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                                k % 32 == 0
                                    || (matches!(op, BinOp::Le | BinOp::Gt) && (k + 1) % 32 == 0)
                            }
                            _ => false,
                        })
                };
                if warp_split(*a, *b) {
                    return Level::Warp;
                }
            }
            max
        }
        ExprKind::Assign { rhs, .. } => lv(*rhs),
        ExprKind::Ternary(a, b, c) => lv(*a).max(lv(*b)).max(lv(*c)),
        ExprKind::Comma(_, b) => lv(*b),
        ExprKind::Index(a, b) => lv(*a).max(lv(*b)),
        ExprKind::Call(c) => {
            match Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some()) {
                Some(Primitive::Vote(_)) | Some(Primitive::Reduce(_)) => Level::Warp,
                // Every lane reading one uniform source lane reads one value.
                Some(Primitive::Shfl(crate::ir::primitives::ShflMode::Idx))
                    if c.args.get(2).is_some_and(|src| lv(*src) <= Level::Warp) =>
                {
                    Level::Warp
                }
                Some(Primitive::Match { .. })
                | Some(Primitive::Shfl(_))
                | Some(Primitive::Activemask) => Level::Varying,
                Some(Primitive::Syncwarp) | Some(Primitive::Syncthreads(_)) => Level::Uniform,
                None => {
                    let n = c.name.to_ascii_lowercase();
                    if n.contains("lane")
                        || n.contains("tid")
                        || n.contains("thread")
                        || n.starts_with("atomic")
                    {
                        Level::Varying
                    } else {
                        c.args
                            .iter()
                            .map(|a| lv(*a))
                            .max()
                            .unwrap_or(Level::Uniform)
                    }
                }
            }
        }
        ExprKind::Lambda(_) | ExprKind::Unknown => Level::Uniform,
    }
}

fn mentions_thread_x(f: &Function, e: ExprId) -> bool {
    any_subexpr(f, e, &mut |k| {
        matches!(k, ExprKind::Builtin(Builtin::ThreadIdx(Dim::X))) || matches!(k, ExprKind::Var(_))
    })
}

/// Names that say a value is per lane or per thread (`lane`, `lane_id`,
/// `tid`, `thread_idx`, …).
pub fn lane_like(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.contains("lane") || n.contains("tid") || n.contains("thread")
}
