//! Levels across the functions of a module.
//!
//! - A kernel's parameters are uniform (every thread gets the launch's
//!   arguments).
//! - A `__device__` function's parameter is as uniform as the arguments its
//!   callers in the module pass (the join over every call site); with no
//!   caller in the module, or a caller on a call cycle, it is unknown, hence
//!   lane-varying.
//! - A lambda's parameters are lane-varying (its callers are not tracked);
//!   the names it captures have the levels of the enclosing function.
//! - A call to a function of the module returns a value as uniform as its
//!   arguments joined with the function's *summary*: the level of what it
//!   returns when every argument is uniform.
//!
//! - A function that broadcasts, votes or reduces (or calls one that
//!   does) also gets a *bound*: its result's level with every argument
//!   varying. A call's level is never above its callee's bound, so
//!   `make_warp_uniform(threadIdx.z)` is warp-uniform.
//!
//! Every function is analysed at most three times (summary, bound for
//! the few that narrow, then real), so the module costs linear time in its
//! size.

use rustc_hash::FxHashMap as HashMap;

use super::{Assume, CalleeLevels, FnFacts, Level, Seed, analyze_function};
use crate::ir::*;

pub(super) fn analyze_all(module: &Module, assume: Assume) -> Vec<FnFacts> {
    let members = state_writers(module);
    let mut state = ClassState::default();
    for (class, writers) in &members {
        let fields = state.entry(class).or_default();
        for (_, written) in writers {
            for x in written {
                fields.insert(x.clone(), Level::Uniform);
            }
        }
    }
    // The call graph, its order and the summaries do not depend on the
    // class state: built once, then each round re-runs only the pass.
    let graph = Graph::new(module, assume);
    // The least fixpoint from "every written field uniform": each round
    // raises at least one field, and levels have three values.
    for _ in 0..MAX_STATE_ROUNDS {
        let facts = graph.analyze(module, assume, &state);
        let next = raised_state(module, &graph, &members, &facts, &state, assume.unknown());
        if next == state {
            return facts;
        }
        state = next;
    }
    for fields in state.values_mut() {
        fields.values_mut().for_each(|l| *l = assume.unknown());
    }
    graph.analyze(module, assume, &state)
}

/// Rounds of the class-state fixpoint before every state field is taken
/// as unknown.
const MAX_STATE_ROUNDS: usize = 4;

/// Per class, the level of each state field (`Function::state_fields`
/// some member writes).
type ClassState<'m> = HashMap<&'m str, HashMap<String, Level>>;

/// Per class, its members that write state fields: (function, the state
/// fields it writes).
fn state_writers(module: &Module) -> HashMap<&str, Vec<(usize, Vec<String>)>> {
    let mut out: HashMap<&str, Vec<(usize, Vec<String>)>> = HashMap::default();
    for (i, f) in module.functions.iter().enumerate() {
        let Some(class) = f.class.as_deref() else {
            continue;
        };
        if f.state_fields.is_empty() {
            continue;
        }
        let mut written: Vec<String> = f
            .writes()
            .filter(|x| f.state_fields.iter().any(|s| s == x))
            .map(str::to_owned)
            .collect();
        written.sort_unstable();
        written.dedup();
        if !written.is_empty() {
            out.entry(class).or_default().push((i, written));
        }
    }
    out
}

/// The class state after one round: each written field at least as
/// varying as what its writers leave in it, joined with how divergent
/// the writer is entered (a write that only some lanes make varies).
fn raised_state<'m>(
    module: &'m Module,
    graph: &Graph,
    members: &HashMap<&'m str, Vec<(usize, Vec<String>)>>,
    facts: &[FnFacts],
    state: &ClassState<'m>,
    unknown: Level,
) -> ClassState<'m> {
    let entry = entry_levels(module, graph, facts, unknown);
    let mut next = state.clone();
    for (class, writers) in members {
        let fields = next.entry(class).or_default();
        for (m, written) in writers {
            for x in written {
                let left = facts[*m].var_level.get(x).copied().unwrap_or(unknown);
                let l = fields.entry(x.clone()).or_insert(Level::Uniform);
                *l = (*l).max(left).max(entry[*m]);
            }
        }
    }
    next
}

/// How divergent each function is entered: the most varying guard over
/// its call sites, through callers of the same class (whose own entry
/// adds); unknown for a member no call in the module reaches.
fn entry_levels(module: &Module, graph: &Graph, facts: &[FnFacts], unknown: Level) -> Vec<Level> {
    let n = module.functions.len();
    let mut sites: Vec<Vec<(usize, Level)>> = vec![Vec::new(); n];
    for (i, cs) in graph.calls.iter().enumerate() {
        for &(g, e) in cs {
            let level = facts[i]
                .call_context
                .get(&e)
                .map_or(unknown, |ctx| ctx.level());
            sites[g].push((i, level));
        }
    }
    let mut entry: Vec<Level> = (0..n)
        .map(|g| {
            let own = sites[g].iter().map(|&(_, l)| l).max();
            own.unwrap_or(unknown)
        })
        .collect();
    // A same-class caller passes its own entry on. A worklist: an entry
    // rises at most twice, and each rise visits the callee's edges once.
    let mut same_class_callees: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (g, s) in sites.iter().enumerate() {
        let class = module.functions[g].class.as_deref();
        for &(i, _) in s {
            if class.is_some() && module.functions[i].class.as_deref() == class && i != g {
                same_class_callees[i].push(g);
            }
        }
    }
    let mut work: Vec<usize> = (0..n).collect();
    while let Some(i) = work.pop() {
        for &g in &same_class_callees[i] {
            if entry[i] > entry[g] {
                entry[g] = entry[i];
                work.push(g);
            }
        }
    }
    entry
}

/// What every round of a module's analysis shares: resolved calls, the
/// analysis order, construction sites and the callees' summaries.
struct Graph<'m> {
    /// calls[i]: (callee, call expression) for every resolved call in i.
    calls: Vec<Vec<(usize, ExprId)>>,
    preds: Vec<Vec<(usize, ExprId)>>,
    lambda_parent: Vec<Option<usize>>,
    /// Lambdas only ever called where the module sees it
    /// ([`direct_lambdas`]).
    direct_lambdas: Vec<bool>,
    built: HashMap<&'m str, Vec<(usize, usize)>>,
    order: Vec<usize>,
    summaries: Vec<Option<Level>>,
    bounds: Bounds,
    /// Functions that reach an aligned tensor instruction.
    converged: super::converged::Table,
}

impl<'m> Graph<'m> {
    fn new(module: &'m Module, assume: Assume) -> Self {
        let n = module.functions.len();
        // calls[i]: (callee, call expression) for every resolved call in i.
        let mut calls: Vec<Vec<(usize, ExprId)>> = vec![Vec::new(); n];
        let mut lambda_parent: Vec<Option<usize>> = vec![None; n];
        for (i, f) in module.functions.iter().enumerate() {
            for (id, e) in f.exprs.iter().enumerate() {
                match &e.kind {
                    ExprKind::Call(c) => {
                        if let Some(g) = module.callee(c) {
                            calls[i].push((g, id as ExprId));
                        }
                    }
                    ExprKind::Lambda(j) if *j < n && *j != i => lambda_parent[*j] = Some(i),
                    _ => {}
                }
            }
        }
        let converged = super::converged::Table::of(module);
        let (summaries, bounds) = summaries(module, &calls, assume, &converged);

        // Callers (and enclosing functions) before callees: Kahn's order; what
        // a cycle leaves comes last, in index order.
        let mut preds: Vec<Vec<(usize, ExprId)>> = vec![Vec::new(); n];
        let mut indegree = vec![0usize; n];
        for (i, cs) in calls.iter().enumerate() {
            for &(g, e) in cs {
                if g != i {
                    preds[g].push((i, e));
                    indegree[g] += 1;
                }
            }
        }
        for (j, p) in lambda_parent.iter().enumerate() {
            if p.is_some() {
                indegree[j] += 1;
            }
        }
        let built = constructions(module);
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        // A member whose fields take constructor arguments comes after the
        // functions that construct its objects.
        for (g, f) in module.functions.iter().enumerate() {
            let sites = f
                .class
                .as_deref()
                .filter(|_| f.params.iter().any(|p| p.ctor_slot.is_some()))
                .and_then(|c| built.get(c));
            for &(i, _) in sites.into_iter().flatten() {
                if i != g {
                    children[i].push(g);
                    indegree[g] += 1;
                }
            }
        }
        for (i, cs) in calls.iter().enumerate() {
            for &(g, _) in cs {
                if g != i {
                    children[i].push(g);
                }
            }
        }
        for (j, p) in lambda_parent.iter().enumerate() {
            if let Some(p) = p {
                children[*p].push(j);
            }
        }
        let mut ready: Vec<usize> = (0..n).filter(|&i| indegree[i] == 0).rev().collect();
        let mut order = Vec::with_capacity(n);
        let mut placed = vec![false; n];
        loop {
            while let Some(i) = ready.pop() {
                if placed[i] {
                    continue;
                }
                placed[i] = true;
                order.push(i);
                for &c in &children[i] {
                    indegree[c] = indegree[c].saturating_sub(1);
                    if indegree[c] == 0 {
                        ready.push(c);
                    }
                }
            }
            match (0..n).find(|&i| !placed[i]) {
                Some(i) => ready.push(i),
                None => break,
            }
        }
        let direct_lambdas = direct_lambdas(module, &lambda_parent, &preds);
        Graph {
            calls,
            preds,
            lambda_parent,
            direct_lambdas,
            built,
            order,
            summaries,
            bounds,
            converged,
        }
    }

    fn analyze(&self, module: &Module, assume: Assume, state: &ClassState) -> Vec<FnFacts> {
        let n = module.functions.len();
        let unknown = assume.unknown();
        let callees = InContext::new(
            module,
            Summaries {
                out: &self.summaries,
                bounds: &self.bounds,
                converged: &self.converged,
            },
            assume,
        );
        let (preds, lambda_parent, built) = (&self.preds, &self.lambda_parent, &self.built);
        let mut facts: Vec<Option<FnFacts>> = (0..n).map(|_| None).collect();
        for &i in &self.order {
            let f = &module.functions[i];
            let entry = module.runs_as_kernel(f);
            // An entry (`runs_as_kernel`, every kernel among them) is
            // called by launches, outside the module; a lambda's callers
            // are all known only where it is never passed on as a value.
            let callers_known = !entry && (f.kind != FnKind::Lambda || self.direct_lambdas[i]);
            let params = match f.kind {
                _ if entry => vec![Level::Uniform; f.params.len()],
                _ if !callers_known => vec![unknown; f.params.len()],
                _ => {
                    let mut levels = param_levels(module, i, &preds[i], &facts, unknown);
                    field_levels(module, i, built, &facts, unknown, &mut levels);
                    levels
                }
            };
            let (aligned_params, shared_params) = if callers_known {
                (
                    aligned_params(module, i, &preds[i], &facts),
                    shared_params(module, i, &preds[i], built, &facts),
                )
            } else {
                (Vec::new(), Vec::new())
            };
            // A lambda sees its enclosing function's names; a member, its
            // class's state.
            let parent = lambda_parent[i].and_then(|p| facts[p].as_ref());
            let captured = (parent.map(|pf| &pf.var_level))
                .or_else(|| f.class.as_deref().and_then(|c| state.get(c)));
            let seed = Seed {
                params,
                aligned_params,
                captured,
                captured_shared: parent.map(|pf| &pf.shared_vars),
                shared_params,
                callees: &callees,
                assume,
            };
            facts[i] = Some(analyze_function(f, module, &seed));
        }
        facts.into_iter().map(|f| f.unwrap_or_default()).collect()
    }
}

/// The lambdas whose every use is a call the module resolves: called
/// where written, or held by locals (`auto body = [&](int i) {…};
/// body(i);`) that are never read as values. A lambda passed to another
/// function, returned or stored may be called where the module cannot see.
fn direct_lambdas(
    module: &Module,
    lambda_parent: &[Option<usize>],
    preds: &[Vec<(usize, ExprId)>],
) -> Vec<bool> {
    let n = module.functions.len();
    let mut escapes = vec![false; n];
    let mut holders: HashMap<(usize, &str), usize> = HashMap::default();
    let lambda_at = |f: &Function, e: ExprId| match f.expr(e).kind {
        ExprKind::Lambda(j) if j < n => Some(j),
        _ => None,
    };
    for (p, f) in module.functions.iter().enumerate() {
        for s in &f.stmts {
            match &s.kind {
                StmtKind::Decl {
                    name,
                    init: Some(e),
                    ..
                } => {
                    if let Some(j) = lambda_at(f, *e) {
                        holders.insert((p, name.as_str()), j);
                    }
                }
                _ => {
                    for e in super::stmt_exprs(s) {
                        if let Some(j) = lambda_at(f, e) {
                            escapes[j] = true;
                        }
                    }
                }
            }
        }
        for e in &f.exprs {
            for c in e.kind.children() {
                if let Some(j) = lambda_at(f, c) {
                    escapes[j] = true;
                }
            }
        }
    }
    // A holder read as a value, in its function or a lambda of it.
    for (i, f) in module.functions.iter().enumerate() {
        let scopes = std::iter::once(i).chain(lambda_parent[i]);
        for p in scopes {
            for e in &f.exprs {
                if let ExprKind::Var(v) = &e.kind
                    && let Some(&j) = holders.get(&(p, v.as_str()))
                {
                    escapes[j] = true;
                }
            }
        }
    }
    (0..n)
        .map(|j| module.functions[j].kind == FnKind::Lambda && !escapes[j] && !preds[j].is_empty())
        .collect()
}

/// Join of the arguments every caller passes; unknown (varying) when no
/// caller in the module is known, or a caller is not analysed yet (cycle).
fn param_levels(
    module: &Module,
    g: usize,
    callers: &[(usize, ExprId)],
    facts: &[Option<FnFacts>],
    unknown: Level,
) -> Vec<Level> {
    let f = &module.functions[g];
    let mut levels = vec![Level::Uniform; f.params.len()];
    if callers.is_empty() {
        return vec![unknown; f.params.len()];
    }
    for &(caller, e) in callers {
        let Some(cf) = facts[caller].as_ref() else {
            return vec![unknown; f.params.len()];
        };
        let ExprKind::Call(c) = &module.functions[caller].expr(e).kind else {
            continue;
        };
        for (k, p) in f.params.iter().enumerate() {
            let arg = match c.args.get(k) {
                Some(a) => cf.expr_levels.get(*a as usize).copied(),
                None if p.default.is_some() => Some(Level::Uniform),
                None => None,
            };
            levels[k] = levels[k].max(arg.unwrap_or(unknown));
        }
    }
    levels
}

/// Per class, where the module constructs its objects: (function,
/// construction).
fn constructions(module: &Module) -> HashMap<&str, Vec<(usize, usize)>> {
    let mut built: HashMap<&str, Vec<(usize, usize)>> = HashMap::default();
    for (i, f) in module.functions.iter().enumerate() {
        for (k, c) in f.constructions.iter().enumerate() {
            built.entry(c.class.as_str()).or_default().push((i, k));
        }
    }
    built
}

/// A field set from a constructor parameter (`worldInfo(worldInfo)`) is
/// as uniform as the arguments every construction of its class in the
/// module passes there. Unknown where the module constructs none, where
/// a construction may call another constructor (a different number of
/// arguments) or passes something that is not a plain value, or where a
/// constructing function is not analysed yet (a cycle).
fn field_levels(
    module: &Module,
    g: usize,
    built: &HashMap<&str, Vec<(usize, usize)>>,
    facts: &[Option<FnFacts>],
    unknown: Level,
    levels: &mut [Level],
) {
    let f = &module.functions[g];
    let Some(sites) = f.class.as_deref().and_then(|c| built.get(c)) else {
        return;
    };
    for (k, p) in f.params.iter().enumerate() {
        let Some(slot) = p.ctor_slot else {
            continue;
        };
        let mut level = Level::Uniform;
        for &(i, c) in sites {
            let arg = module.functions[i].constructions[c].field_argument(slot);
            let at = arg.zip(facts[i].as_ref());
            level = level.max(at.map_or(unknown, |(e, cf)| {
                cf.expr_levels.get(e as usize).copied().unwrap_or(unknown)
            }));
        }
        if let Some(l) = levels.get_mut(k) {
            *l = level;
        }
    }
}

/// The parameters through which a function reaches shared memory: a
/// pointer, array or reference some caller passes a `__shared__` object or
/// a pointer into one (`warp_reduce(sdata, tid)`, `body(storage)`), and a
/// field some construction of
/// its class sets from one (`Scratch s(buf)`). One such caller is enough:
/// this only lets the function's accesses be proposed, and the runs from
/// each caller decide.
fn shared_params(
    module: &Module,
    g: usize,
    callers: &[(usize, ExprId)],
    built: &HashMap<&str, Vec<(usize, usize)>>,
    facts: &[Option<FnFacts>],
) -> Vec<bool> {
    let f = &module.functions[g];
    let names_shared = |caller: usize, arg: ExprId| {
        let (cf, cfn) = (facts[caller].as_ref(), &module.functions[caller]);
        cf.is_some_and(|cf| {
            super::mentions_var(cfn, arg, &cf.shared_vars)
                && !super::mentions_index_load(cfn, arg, &cf.shared_vars)
        })
    };
    let mut out = vec![false; f.params.len()];
    for (k, p) in f.params.iter().enumerate() {
        out[k] = match p.ctor_slot {
            Some(slot) => (f.class.as_deref().and_then(|c| built.get(c)))
                .into_iter()
                .flatten()
                .any(|&(i, c)| {
                    (module.functions[i].constructions[c].field_argument(slot))
                        .is_some_and(|arg| names_shared(i, arg))
                }),
            None if p.is_pointer || p.is_array || p.is_reference => callers.iter().any(
                |&(caller, e)| match &module.functions[caller].expr(e).kind {
                    ExprKind::Call(c) => c.args.get(k).is_some_and(|&a| names_shared(caller, a)),
                    _ => false,
                },
            ),
            None => false,
        };
    }
    out
}

/// The parameters every caller passes a thread index along x plus a
/// warp-aligned offset; none without a known caller.
fn aligned_params(
    module: &Module,
    g: usize,
    callers: &[(usize, ExprId)],
    facts: &[Option<FnFacts>],
) -> Vec<bool> {
    let n = module.functions[g].params.len();
    if callers.is_empty() {
        return Vec::new();
    }
    let mut aligned = vec![true; n];
    for &(caller, e) in callers {
        let (Some(cf), ExprKind::Call(c)) = (
            facts[caller].as_ref(),
            &module.functions[caller].expr(e).kind,
        ) else {
            return Vec::new();
        };
        for (k, a) in aligned.iter_mut().enumerate() {
            *a &= c.args.get(k).is_some_and(|x| cf.aligned_args.contains(x));
        }
    }
    aligned
}

/// Per function, its bound when it has one.
type Bounds = Vec<Option<Level>>;

/// For every function some call resolves to: the level of its result when
/// all its arguments are uniform (`None`: on a call cycle, unknown), and
/// its *bound*: the level of its result whatever its arguments, computed
/// only for functions that broadcast, vote or reduce, or call one whose
/// bound is below varying (`make_warp_uniform(x)` returns lane 0's `x`).
fn summaries(
    module: &Module,
    calls: &[Vec<(usize, ExprId)>],
    assume: Assume,
    converged: &super::converged::Table,
) -> (Vec<Option<Level>>, Bounds) {
    let n = module.functions.len();
    let mut wanted = vec![false; n];
    for cs in calls {
        for &(g, _) in cs {
            wanted[g] = true;
        }
    }
    // Callees first (iterative post-order); a back edge leaves `None`.
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        Open,
        Done,
    }
    let mut state = vec![State::New; n];
    let mut order = Vec::new();
    for root in (0..n).filter(|&i| wanted[i]) {
        if state[root] != State::New {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        state[root] = State::Open;
        while let Some((g, next)) = stack.pop() {
            if let Some(&(h, _)) = calls[g].get(next) {
                stack.push((g, next + 1));
                if state[h] == State::New {
                    state[h] = State::Open;
                    stack.push((h, 0));
                }
            } else {
                state[g] = State::Done;
                order.push(g);
            }
        }
    }
    let mut out: Vec<Option<Level>> = vec![None; n];
    let mut bounds: Bounds = vec![None; n];
    for g in order {
        let f = &module.functions[g];
        if f.kind == FnKind::Lambda {
            continue;
        }
        let run = |params: Level, out: &[Option<Level>], bounds: &Bounds| {
            let seed = Seed {
                params: vec![params; f.params.len()],
                aligned_params: Vec::new(),
                captured: None,
                captured_shared: None,
                shared_params: Vec::new(),
                callees: &Summaries {
                    out,
                    bounds,
                    converged,
                },
                assume,
            };
            let facts = analyze_function(f, module, &seed);
            returned_level(f, &facts)
        };
        out[g] = Some(run(Level::Uniform, &out, &bounds));
        let narrows = calls[g]
            .iter()
            .any(|&(h, _)| bounds[h].is_some_and(|b| b < Level::Varying))
            || f.exprs.iter().any(|e| match &e.kind {
                ExprKind::Call(c) => narrows_any_argument(c),
                _ => false,
            });
        if narrows && out[g] != Some(Level::Varying) {
            bounds[g] = Some(run(Level::Varying, &out, &bounds));
        }
    }
    (out, bounds)
}

/// The callees' summaries: what each returns for uniform arguments, and
/// whatever its arguments.
struct Summaries<'s> {
    out: &'s [Option<Level>],
    bounds: &'s [Option<Level>],
    converged: &'s super::converged::Table,
}

impl CalleeLevels for Summaries<'_> {
    fn returned(&self, g: usize) -> Option<Level> {
        self.out.get(g).copied().flatten()
    }
    fn bound(&self, g: usize) -> Option<Level> {
        self.bounds.get(g).copied().flatten()
    }
    fn converged(&self) -> Option<&super::converged::Table> {
        Some(self.converged)
    }
}

/// The summaries, and what a free function returns given the levels of a
/// call's arguments: one more analysis of the callee per distinct list of
/// levels, with the summaries for its own calls. A helper that returns a
/// status read from shared memory (`smem->valid`) beside a lane's own
/// values (`vecs`) returns a uniform status, though one of its arguments
/// varies. The analyses it runs are counted: together at most the
/// module's size, in expressions.
struct InContext<'m, 's> {
    module: &'m Module,
    summaries: Summaries<'s>,
    assume: Assume,
    memo: std::cell::RefCell<HashMap<(usize, Vec<Level>), Level>>,
    budget: std::cell::Cell<usize>,
}

impl<'m, 's> InContext<'m, 's> {
    fn new(module: &'m Module, summaries: Summaries<'s>, assume: Assume) -> Self {
        InContext {
            module,
            summaries,
            assume,
            memo: Default::default(),
            budget: std::cell::Cell::new(module.functions.iter().map(|f| f.exprs.len()).sum()),
        }
    }
}

impl CalleeLevels for InContext<'_, '_> {
    fn returned(&self, g: usize) -> Option<Level> {
        self.summaries.returned(g)
    }
    fn bound(&self, g: usize) -> Option<Level> {
        self.summaries.bound(g)
    }
    fn converged(&self) -> Option<&super::converged::Table> {
        self.summaries.converged()
    }
    fn in_context(&self, g: usize, args: &[Level]) -> Option<Level> {
        let f = self.module.functions.get(g)?;
        // A member reads its object's state, a lambda its captures: what
        // the arguments alone do not give.
        if f.kind == FnKind::Lambda || f.class.is_some() || f.params.len() != args.len() {
            return None;
        }
        let key = (g, args.to_vec());
        if let Some(level) = self.memo.borrow().get(&key) {
            return Some(*level);
        }
        let cost = f.exprs.len().max(1);
        if self.budget.get() < cost {
            return None;
        }
        self.budget.set(self.budget.get() - cost);
        let seed = Seed {
            params: args.to_vec(),
            aligned_params: Vec::new(),
            captured: None,
            captured_shared: None,
            shared_params: Vec::new(),
            callees: &self.summaries,
            assume: self.assume,
        };
        let level = returned_level(f, &analyze_function(f, self.module, &seed));
        self.memo.borrow_mut().insert(key, level);
        Some(level)
    }
}

/// A call whose value can be the same for a warp whatever its inputs.
fn narrows_any_argument(c: &Call) -> bool {
    use crate::ir::primitives::{ASM_BROADCAST, ShflMode};
    c.name == ASM_BROADCAST
        || matches!(
            Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some()),
            Some(
                Primitive::Shfl(ShflMode::Idx)
                    | Primitive::Vote(_)
                    | Primitive::Reduce(_)
                    | Primitive::Match { all: true }
            )
        )
}

/// What `f` returns: each returned value, joined with the guards that
/// decide which `return` a lane takes.
fn returned_level(f: &Function, facts: &FnFacts) -> Level {
    let mut level = Level::Uniform;
    for (id, s) in f.stmts.iter().enumerate() {
        if let StmtKind::Return(Some(e)) = &s.kind {
            let value = facts
                .expr_levels
                .get(*e as usize)
                .copied()
                .unwrap_or(Level::Varying);
            let guards = facts
                .stmt_context
                .get(&(id as StmtId))
                .map_or(Level::Uniform, |c| c.level());
            level = level.max(value).max(guards);
        }
    }
    level
}
