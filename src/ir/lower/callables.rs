//! Lambdas and function objects passed as arguments: `for_each_lane(n,
//! [=] __device__ (int i) { … })`, `apply(v, body)` with `auto body =
//! [&](…) { … };`, or `apply(v, WarpSum())`, where the callee calls its
//! parameter (`body(i)`). Each such call gets a copy of the callee in which
//! the parameter's calls run that lambda, or the object's class's
//! `operator()` (`Call::target`), so what reaches the callee's calls
//! reaches their warp code. The copy lists the lambdas it runs
//! (`Function::bound_lambdas`): their names are the passing caller's, which
//! the executor keeps for them while the copy runs. A function object's
//! fields are not carried: its `operator()` reads them as unknown.

use rustc_hash::FxHashMap as HashMap;

use crate::ir::{CALL_OPERATOR, ExprId, ExprKind, FnKind, Function, Module, StmtKind};

/// Copies made per module: each is a whole function, and a file whose
/// helpers take many lambdas must not grow without bound.
const MAX_COPIES: usize = 64;

/// What a call passes to parameters its callee calls: (parameter index,
/// the function those calls run) pairs.
type Binds = Vec<(usize, usize)>;

/// What each argument of a call in `f` passes, for the parameters `g`
/// calls: a lambda, or the `operator()` of an object's class.
fn passed_callables(
    module: &Module,
    f: &Function,
    holders: &HashMap<&str, usize>,
    args: &[ExprId],
    g: &Function,
) -> Binds {
    let mut out = Vec::new();
    for (k, &a) in args.iter().enumerate() {
        let Some(p) = g.params.get(k) else {
            continue;
        };
        let calls = parameter_calls(g, &p.name);
        let Some(&first) = calls.first() else {
            continue;
        };
        let lambda = match &f.expr(a).kind {
            ExprKind::Lambda(j) => Some(*j),
            ExprKind::Var(v) => holders.get(v.as_str()).copied(),
            _ => None,
        };
        let target = lambda.or_else(|| {
            let &(_, c) = f.passed_objects.iter().find(|(e, _)| *e == a)?;
            call_operator(module, &f.constructions[c].class, g, first)
        });
        if let Some(j) = target {
            out.push((k, j));
        }
    }
    out
}

/// The `operator()` of `class` that the parameter call `at` of `g` runs:
/// one taking that many arguments (counting defaults). Several classes of
/// the name, or none: `None`.
fn call_operator(module: &Module, class: &str, g: &Function, at: ExprId) -> Option<usize> {
    let ExprKind::Call(call) = &g.expr(at).kind else {
        return None;
    };
    let n = call.args.len();
    let mut found = (module.by_name.get(CALL_OPERATOR).into_iter().flatten())
        .copied()
        .filter(|&i| {
            let h = &module.functions[i];
            let required = h.params.iter().filter(|p| p.default.is_none()).count();
            h.class.as_deref() == Some(class) && (required..=h.params.len()).contains(&n)
        });
    let first = found.next()?;
    let same_class = |i: usize| module.functions[i].class_at == module.functions[first].class_at;
    found.all(same_class).then_some(first)
}

/// The calls of parameter `name` in `g` (`name(…)`, lowered as its
/// `operator()`).
fn parameter_calls(g: &Function, name: &str) -> Vec<ExprId> {
    (g.own_calls())
        .filter(|(_, c)| {
            c.name == CALL_OPERATOR
                && c.target.is_none()
                && c.receiver
                    .is_some_and(|r| matches!(&g.expr(r).kind, ExprKind::Var(v) if v == name))
        })
        .map(|(e, _)| e)
        .collect()
}

/// Give every call that passes lambdas to a function calling them its own
/// copy of that function (one per function and set of lambdas).
pub fn bind_callables(module: &mut Module) {
    let n = module.functions.len();
    // (caller, call, callee, what it passes)
    let mut work: Vec<(usize, ExprId, usize, Binds)> = Vec::new();
    for (p, f) in module.functions.iter().enumerate() {
        if f.passed_objects.is_empty()
            && !f
                .exprs
                .iter()
                .any(|e| matches!(e.kind, ExprKind::Lambda(_)))
        {
            continue;
        }
        let mut holders: HashMap<&str, usize> = HashMap::default();
        for s in &f.stmts {
            if let StmtKind::Decl {
                name,
                init: Some(e),
                ..
            } = &s.kind
                && let ExprKind::Lambda(j) = f.expr(*e).kind
                && j < n
            {
                holders.insert(name.as_str(), j);
            }
        }
        for (e, call) in f.own_calls() {
            if call.target.is_some() {
                continue;
            }
            let Some(g) = module.callee(call) else {
                continue;
            };
            let gf = &module.functions[g];
            if g == p || gf.kind == FnKind::Lambda {
                continue;
            }
            let binds = passed_callables(module, f, &holders, &call.args, gf);
            if !binds.is_empty() {
                work.push((p, e, g, binds));
            }
        }
    }
    let mut made: HashMap<(usize, Binds), usize> = HashMap::default();
    for (p, e, g, binds) in work {
        let copy = match made.get(&(g, binds.clone())) {
            Some(&c) => c,
            None if made.len() < MAX_COPIES => {
                let mut copy = module.functions[g].clone();
                for &(k, j) in &binds {
                    let name = copy.params[k].name.clone();
                    for c in parameter_calls(&copy, &name) {
                        if let ExprKind::Call(call) = &mut copy.exprs[c as usize].kind {
                            call.target = Some(j);
                        }
                    }
                    if module.functions[j].kind == FnKind::Lambda {
                        copy.bound_lambdas.push(j);
                    }
                }
                module.functions.push(copy);
                let c = module.functions.len() - 1;
                made.insert((g, binds), c);
                c
            }
            None => continue,
        };
        if let ExprKind::Call(call) = &mut module.functions[p].exprs[e as usize].kind {
            call.target = Some(copy);
        }
    }
}
