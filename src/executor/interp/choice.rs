//! Values a run chooses so that a comparison splits the warp, and what a
//! choice binds.
//!
//! `v > thr` where `thr` is a uniform unknown and `v` differs between the
//! lanes: the run picks `thr` among the lanes' values. A run is one
//! concrete execution, so the choice is made for what the compared
//! expression is computed from (`params.n` in `params.n / 2 > i`, through
//! `+ - * / << >>` and negation with known operands), and every later read
//! of it in the same call sees that value: the next loop test compares
//! with the same bound instead of choosing a new one. Where it cannot be
//! carried back (`rows * params.n`, both unknown) but the expression can
//! only have one value in the call (it reads parameters and locals that
//! are never written, see [`FixedNames`]), the expression keeps the value.
//!
//! A name nothing in view declares (a macro this configuration leaves
//! undefined) has one value for the whole run, whatever call reads it.
//!
//! A whole-warp run (`RunConfig::whole_warp`) makes the opposite choice: a
//! value past every lane's, so that `row < params.rows` holds in every
//! lane. A claim that lanes call a primitive outside their mask needs a
//! run in which those lanes get there.

use super::*;

/// One operation between a compared expression and the unknown it is
/// computed from, with its known operand.
#[derive(Clone, Copy)]
enum Step {
    Binary {
        op: BinOp,
        known: i64,
        unknown_left: bool,
    },
    Neg,
}

/// What a compared expression is computed from.
enum Leaf {
    /// A local or parameter of the call.
    Var(String),
    /// A field path (`params.fusion.hidden`) of a local or parameter that
    /// the function never writes: one value for the whole call.
    Field(String),
    /// A name nothing in view declares and the function never writes (a
    /// macro the configuration leaves undefined, a constant of a header
    /// not found): one value for the whole run, like a template value.
    Global(String),
}

/// Steps followed from a compared expression down to its unknown; deeper
/// expressions are left to a plain choice.
const MAX_STEPS: usize = 8;

/// Comparisons of a call remembered as not splittable by one name.
const MAX_NO_SPLIT: usize = 64;

/// The names of a function that hold one value for a whole call: its
/// parameters and the locals it declares once, outside every loop, with
/// an initializer and no later write (not the object's state fields,
/// which member calls change); and the field paths it writes.
pub(super) struct FixedNames {
    vars: rustc_hash::FxHashSet<String>,
    written: Vec<String>,
}

impl FixedNames {
    fn of(f: &Function) -> FixedNames {
        let written = written_paths(f);
        let mut vars: rustc_hash::FxHashSet<String> =
            f.params.iter().map(|p| p.name.clone()).collect();
        if !f.has_labels {
            let once = f.unwritten_locals();
            let mut outside_loops: Vec<&str> = Vec::new();
            let mut work: Vec<StmtId> = f.body.clone();
            while let Some(id) = work.pop() {
                match &f.stmt(id).kind {
                    StmtKind::Decl { name, .. } if once.contains_key(name.as_str()) => {
                        outside_loops.push(name)
                    }
                    StmtKind::If {
                        then_branch,
                        else_branch,
                        ..
                    } => work.extend(then_branch.iter().chain(else_branch).copied()),
                    StmtKind::Block(list) => work.extend(list.iter().copied()),
                    StmtKind::Switch { cases, .. } => {
                        work.extend(cases.iter().flat_map(|c| c.body.iter().copied()))
                    }
                    _ => {}
                }
            }
            vars.extend(outside_loops.into_iter().map(str::to_owned));
        }
        vars.retain(|v| !f.state_fields.contains(v) && written.binary_search(v).is_err());
        FixedNames { vars, written }
    }
}

impl<'m> Machine<'m> {
    /// `v > thr` where `thr` is a uniform unknown and `v` differs between
    /// the lanes: pick `thr` among the lanes' values so that the warp splits
    /// (any other value splits it the same way or not at all), bind what it
    /// is computed from when the value can be carried back there (see the
    /// module docs), and note the choice. A whole-warp run
    /// (`RunConfig::whole_warp`) picks a value past every lane's instead,
    /// for a uniform compared value too.
    pub(super) fn split_uniform_unknown(
        &mut self,
        act: &mut Activation<'m>,
        op: BinOp,
        a: (ExprId, &mut Lanes),
        b: (ExprId, &mut Lanes),
        m: u32,
    ) {
        let uniform_unknown =
            |v: &Lanes| lanes_of(m).all(|l| matches!(v[l], Val::Unknown { varying: false }));
        let known = |v: &Lanes| lanes_of(m).all(|l| matches!(v[l], Val::Int(_) | Val::Float(_)));
        let ((ue, uv), (ke, kv), unknown_left) = if uniform_unknown(a.1) && known(b.1) {
            (a, b, true)
        } else if uniform_unknown(b.1) && known(a.1) {
            (b, a, false)
        } else {
            return self.split_inside(act, op, a, b, true, m);
        };
        let mut distinct: Vec<Val> = Vec::new();
        for l in lanes_of(m) {
            if !distinct.contains(&kv[l]) && distinct.len() < 32 {
                distinct.push(kv[l]);
            }
        }
        let whole = self.cfg.whole_warp;
        if distinct.len() < 2 && !whole {
            return self.split_inside(act, op, (ue, uv), (ke, kv), unknown_left, m);
        }
        let key = |v: &Val| match v {
            Val::Int(i) => *i as f64,
            Val::Float(f) => *f,
            _ => 0.0,
        };
        distinct.sort_by(|x, y| key(x).total_cmp(&key(y)));
        let n = distinct.len();
        let traced = self.trace_leaf(act, ue, m);
        let keep_expr = traced.is_none() && self.fixed_expr(act, ue, 0);
        // A whole-warp run takes the value past every lane's (a bound
        // larger than every index), held for the rest of the call: a value
        // the run cannot hold (a call's result) would pass every later
        // test too, a loop's included, and is left to a guess.
        if whole && traced.is_none() && !keep_expr {
            return;
        }
        let past = [match distinct[n - 1] {
            Val::Int(i) => Val::Int(i.saturating_add(1)),
            Val::Float(x) => Val::Float(x + 1.0),
            v => v,
        }];
        let splitting = [distinct[n / 2], distinct[(n - 1) / 2], distinct[0]];
        let candidates: &[Val] = if whole { &past } else { &splitting };
        // Whether `c` gives the run what it wants: lanes that split (in a
        // whole-warp run, lanes that all go the same way).
        let wanted = |c: Val| {
            let mut t = 0u32;
            for l in lanes_of(m) {
                let r = if unknown_left {
                    binary(op, c, kv[l])
                } else {
                    binary(op, kv[l], c)
                };
                if r.truth() == Some(true) {
                    t |= 1 << l;
                }
            }
            if whole {
                t == 0 || t == m
            } else {
                t != 0 && t != m
            }
        };
        // The first candidate wanted, carried back to the leaf where some
        // candidate can be; else a choice for the expression alone.
        let mut choice: Option<(Val, Option<Val>)> = None;
        for c in candidates.iter().copied().filter(|&c| wanted(c)) {
            let Some((_, steps)) = &traced else {
                choice = Some((c, None));
                break;
            };
            if let Some(leaf_value) = carry_back(c, steps) {
                let value = carry_forward(leaf_value, steps);
                if wanted(value) {
                    choice = Some((value, Some(leaf_value)));
                    break;
                }
            }
            choice.get_or_insert((c, None));
        }
        let Some((value, leaf_value)) = choice else {
            return self.split_inside(act, op, (ue, uv), (ke, kv), unknown_left, m);
        };
        for l in lanes_of(m) {
            uv[l] = value;
        }
        let (name, shown) = match (traced, leaf_value) {
            (Some((leaf, _)), Some(v)) => {
                self.note_bound_input(act, &leaf, v);
                let name = match leaf {
                    Leaf::Var(name) => {
                        self.bind_var(act, ue, &name, v, m);
                        name
                    }
                    Leaf::Field(path) => {
                        act.fields.insert(path.clone(), v);
                        path
                    }
                    Leaf::Global(name) => {
                        self.globals.insert(name.clone(), v);
                        name
                    }
                };
                (name, v)
            }
            _ => {
                if keep_expr {
                    act.chosen.push((ue, value));
                }
                (self.cond_text(act.f.expr(ue).span), value)
            }
        };
        let shown = match shown {
            Val::Int(i) => i.to_string(),
            Val::Float(x) => x.to_string(),
            _ => "?".to_owned(),
        };
        let why = if whole {
            "chosen past every lane's value"
        } else {
            "chosen so that the lanes split"
        };
        self.note_chosen(|| format!("{name} = {shown} ({why})"));
    }

    /// A value chosen for an input of the root (see
    /// [`crate::executor::trace::Trace::bound_inputs`]), or for a local
    /// that is a copy of one (`int n = p.n;`, never written): the input
    /// takes the value. Other locals and the names of a callee are not
    /// inputs a run can start from; a [`Leaf::Global`] is one wherever it
    /// is read.
    fn note_bound_input(&mut self, act: &Activation<'m>, leaf: &Leaf, v: Val) {
        let Val::Int(v) = v else { return };
        if self.depth != 0 && !matches!(leaf, Leaf::Global(_)) {
            return;
        }
        let f = act.f;
        let is_input = |path: &str| match path.split_once('.') {
            Some((root, _)) => f.params.iter().any(|p| p.name == root),
            None => {
                f.params.iter().any(|p| p.name == path && p.is_integral)
                    || f.compile_time_values().any(|t| t == path)
            }
        };
        let input = match leaf {
            Leaf::Var(name) | Leaf::Field(name) if is_input(name) => Some(name.clone()),
            Leaf::Var(name) => self
                .one_definition
                .entry(self.current_fn)
                .or_insert_with(|| f.unwritten_locals())
                .get(name.as_str())
                .and_then(|&init| f.access_path(init))
                .map(|(_, path)| path)
                .filter(|path| is_input(path)),
            Leaf::Field(_) => None,
            // Read in any call of the run: a replay gives it as an input.
            Leaf::Global(name) => Some(name.clone()),
        };
        if let Some(name) = input
            && self.trace.bound_inputs.len() < crate::executor::trace::MAX_GUESSES
            && !self.trace.bound_inputs.iter().any(|(n, _)| *n == name)
        {
            self.trace.bound_inputs.push((name, v));
        }
    }

    /// The local `name` takes `v` in the lanes compared (the others may
    /// hold something else: another arm's assignment).
    fn bind_var(&mut self, act: &mut Activation<'m>, at: ExprId, name: &str, v: Val, m: u32) {
        self.note_guess(act, at, name);
        if let Some(vals) = act.vars.get_mut(name) {
            for l in lanes_of(m) {
                vals[l] = v;
            }
        }
    }

    /// A local the run could not compute holds what its one definition
    /// gives, which need not take the value chosen for it (a bound rounded
    /// up to a multiple of `blockDim.x` is never 16): then the split is a
    /// guess.
    fn note_guess(&mut self, act: &Activation<'m>, at: ExprId, name: &str) {
        let f = act.f;
        let defs = self
            .one_definition
            .entry(self.current_fn)
            .or_insert_with(|| f.unwritten_locals());
        if defs
            .get(name)
            .is_some_and(|&init| !takes_any_value(f, defs, init, 0))
        {
            let span = f.expr(at).span;
            // Every lane reads the chosen value.
            self.note_split_guess(u32::MAX, self.line(span), name);
        }
    }

    /// `threadIdx.x + p.off > 5`, `(lane ^ p.key) == 3`, `lane % p.k == 0`:
    /// a comparison of values that differ between lanes, which reads one
    /// name that is still unknown and has one value for the whole call (a
    /// [`FixedNames`] variable or a fixed field path). Try a few values for
    /// that name, in order, and keep the first under which the warp splits:
    /// bound for the rest of the call, and named in the witness.
    fn split_inside(
        &mut self,
        act: &mut Activation<'m>,
        op: BinOp,
        x: (ExprId, &mut Lanes),
        y: (ExprId, &mut Lanes),
        x_left: bool,
        m: u32,
    ) {
        // The comparison as written: `a op b`.
        let ((ae, av), (be, bv)) = if x_left { (x, y) } else { (y, x) };
        /// Small values first: the witness shows the one kept.
        const TRIES: [i64; 16] = [1, 2, 3, 4, 5, 7, 8, 16, 17, 31, 32, 33, 0, -1, 64, 100];
        // A whole-warp run splits nothing.
        if lanes_of(m).all(|l| binary(op, av[l], bv[l]).truth().is_some())
            || act.no_split.contains(&ae)
            || self.cfg.whole_warp
        {
            return;
        }
        let mut leaves: Vec<Leaf> = Vec::new();
        let single = self.unknown_names(act, ae, m, 0, &mut leaves)
            && self.unknown_names(act, be, m, 0, &mut leaves)
            && leaves.len() == 1;
        let Some(leaf) = leaves.pop().filter(|_| single) else {
            if act.no_split.len() < MAX_NO_SPLIT {
                act.no_split.push(ae);
            }
            return;
        };
        let saved = match &leaf {
            Leaf::Var(name) => act.vars.get(name).copied(),
            Leaf::Field(_) | Leaf::Global(_) => None,
        };
        for c in TRIES.map(Val::Int) {
            match &leaf {
                Leaf::Var(name) => {
                    act.vars.insert(name.clone(), [c; 32]);
                }
                Leaf::Field(path) => {
                    act.fields.insert(path.clone(), c);
                }
                Leaf::Global(name) => {
                    self.globals.insert(name.clone(), c);
                }
            }
            let a2 = self.eval(act, ae, m);
            let b2 = self.eval(act, be, m);
            let mut t = 0u32;
            let mut decided = true;
            for l in lanes_of(m) {
                match binary(op, a2[l], b2[l]).truth() {
                    Some(true) => t |= 1 << l,
                    Some(false) => {}
                    None => decided = false,
                }
            }
            if decided && t != 0 && t != m {
                *av = a2;
                *bv = b2;
                self.note_bound_input(act, &leaf, c);
                let name = match leaf {
                    Leaf::Var(name) => {
                        self.note_guess(act, ae, &name);
                        name
                    }
                    Leaf::Field(path) | Leaf::Global(path) => path,
                };
                let shown = c.as_int().unwrap_or_default();
                self.note_chosen(|| format!("{name} = {shown} (chosen so that the lanes split)"));
                return;
            }
        }
        match (&leaf, saved) {
            (Leaf::Var(name), Some(old)) => {
                act.vars.insert(name.clone(), old);
            }
            (Leaf::Var(name), None) => {
                act.vars.remove(name);
            }
            (Leaf::Field(path), _) => {
                act.fields.remove(path);
            }
            (Leaf::Global(name), _) => {
                self.globals.remove(name);
            }
        }
        if act.no_split.len() < MAX_NO_SPLIT {
            act.no_split.push(ae);
        }
    }

    /// Adds to `leaves` the names `e` reads that are unknown, the same in
    /// every lane and one value per call; `false` where `e` reads anything
    /// else that is not known (memory, a call, a lane-varying unknown, a
    /// name that may change) or nests too deep.
    fn unknown_names(
        &mut self,
        act: &Activation<'m>,
        e: ExprId,
        m: u32,
        depth: usize,
        leaves: &mut Vec<Leaf>,
    ) -> bool {
        if depth > MAX_STEPS {
            return false;
        }
        let f = act.f;
        let uniform_unknown =
            |v: &Lanes| lanes_of(m).all(|l| matches!(v[l], Val::Unknown { varying: false }));
        let known = |v: &Lanes| lanes_of(m).all(|l| matches!(v[l], Val::Int(_) | Val::Float(_)));
        let push = |leaf: Leaf, leaves: &mut Vec<Leaf>| {
            let same = |l: &Leaf| match (l, &leaf) {
                (Leaf::Var(x), Leaf::Var(y))
                | (Leaf::Field(x), Leaf::Field(y))
                | (Leaf::Global(x), Leaf::Global(y)) => x == y,
                _ => false,
            };
            if !leaves.iter().any(same) {
                leaves.push(leaf);
            }
            true
        };
        match &f.expr(e).kind {
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Builtin(_) => true,
            ExprKind::Var(name) => {
                if self.shared_scalars.contains_key(name) {
                    return false;
                }
                match act.vars.get(name) {
                    Some(v) if known(v) => true,
                    Some(v) if uniform_unknown(v) => {
                        self.fixed_names(act).vars.contains(name)
                            && push(Leaf::Var(name.clone()), leaves)
                    }
                    Some(_) => false,
                    None if self.undeclared(act, name) => push(Leaf::Global(name.clone()), leaves),
                    None => {
                        self.module.constants.contains_key(name)
                            || self.cfg.inputs.contains_key(name)
                            || self.globals.contains_key(name)
                    }
                }
            }
            ExprKind::Member(..) => {
                let Some((root, path)) = self.fixed_field_path(act, e) else {
                    return false;
                };
                if act.fields.contains_key(&path) {
                    return true;
                }
                act.vars.get(root).is_some_and(uniform_unknown) && push(Leaf::Field(path), leaves)
            }
            ExprKind::Unary(op, a) => {
                matches!(op, UnOp::Neg | UnOp::Not | UnOp::BitNot)
                    && self.unknown_names(act, *a, m, depth + 1, leaves)
            }
            ExprKind::Binary(_, a, b) => {
                self.unknown_names(act, *a, m, depth + 1, leaves)
                    && self.unknown_names(act, *b, m, depth + 1, leaves)
            }
            _ => false,
        }
    }

    /// What `e` is computed from, and the steps down to it; `None` where
    /// a step is not invertible, an operand is not a known integer, or the
    /// leaf is neither a local nor a fixed field path.
    fn trace_leaf(
        &mut self,
        act: &mut Activation<'m>,
        mut e: ExprId,
        m: u32,
    ) -> Option<(Leaf, Vec<Step>)> {
        let f = act.f;
        let mut steps: Vec<Step> = Vec::new();
        while steps.len() <= MAX_STEPS {
            match &f.expr(e).kind {
                ExprKind::Var(name) if self.undeclared(act, name) => {
                    return Some((Leaf::Global(name.clone()), steps));
                }
                ExprKind::Var(name) => {
                    return (act.vars.contains_key(name)
                        && !self.shared_scalars.contains_key(name))
                    .then(|| (Leaf::Var(name.clone()), steps));
                }
                ExprKind::Member(..) => {
                    return self
                        .fixed_field_path(act, e)
                        .map(|(_, p)| (Leaf::Field(p), steps));
                }
                ExprKind::Unary(UnOp::Neg, a) => {
                    steps.push(Step::Neg);
                    e = *a;
                }
                ExprKind::Binary(op, a, b)
                    if matches!(
                        op,
                        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Shl | BinOp::Shr
                    ) =>
                {
                    let (known, inner, unknown_left) =
                        if let Some(k) = self.known_operand(act, *b, m) {
                            (k, *a, true)
                        } else {
                            (self.known_operand(act, *a, m)?, *b, false)
                        };
                    steps.push(Step::Binary {
                        op: *op,
                        known,
                        unknown_left,
                    });
                    e = inner;
                }
                _ => return None,
            }
        }
        None
    }

    /// The value of `e` when it is the same integer in every lane of `m`
    /// and evaluating it again reads no memory and changes nothing.
    fn known_operand(&mut self, act: &mut Activation<'m>, e: ExprId, m: u32) -> Option<i64> {
        if !pure(act.f, e, 0) {
            return None;
        }
        let v = self.eval(act, e, m);
        let first = v[lanes_of(m).next()?].as_int()?;
        lanes_of(m)
            .all(|l| v[l].as_int() == Some(first))
            .then_some(first)
    }

    /// The function's [`FixedNames`], computed on first use.
    fn fixed_names(&mut self, act: &Activation<'m>) -> &FixedNames {
        let f = act.f;
        self.fixed_names
            .entry(act.fidx)
            .or_insert_with(|| FixedNames::of(f))
    }

    /// `name` is a [`Leaf::Global`] still unknown to the run: no local,
    /// parameter, file-scope variable, constant or input of the run, and
    /// the function never writes it. Not in a member (a bare name may be a
    /// field of the object) nor in a lambda (a captured local).
    fn undeclared(&mut self, act: &Activation<'m>, name: &str) -> bool {
        act.f.class.is_none()
            && act.f.kind != FnKind::Lambda
            && !self.module.globals.contains(name)
            && !act.vars.contains_key(name)
            && !self.shared_scalars.contains_key(name)
            && !self.globals.contains_key(name)
            && !self.cfg.inputs.contains_key(name)
            && self.module.constant(act.f, name).is_none()
            && self
                .fixed_names(act)
                .written
                .binary_search_by(|w| w.as_str().cmp(name))
                .is_err()
    }

    /// `p.a.b` as (`p`, its path), where `p` is one of the function's
    /// [`FixedNames`] and holds no pointer, and the function writes no
    /// part of the path nor takes its address: a read of it gives the same
    /// value for the whole call.
    fn fixed_field_path(&mut self, act: &Activation<'m>, e: ExprId) -> Option<(&'m str, String)> {
        let (root, path) = field_path(act.f, e)?;
        if act.vars.get(root)?.iter().any(|v| matches!(v, Val::Ptr(_))) {
            return None;
        }
        let fixed = self.fixed_names(act);
        (fixed.vars.contains(root) && !fixed.written.iter().any(|w| overlaps(w, &path)))
            .then_some((root, path))
    }

    /// Whether `e` has one value for the whole call: it reads only
    /// constants, built-in variables, [`FixedNames`] and their fixed field
    /// paths, loads nothing and calls only getters on those paths.
    fn fixed_expr(&mut self, act: &Activation<'m>, e: ExprId, depth: usize) -> bool {
        if depth > MAX_STEPS {
            return false;
        }
        let f = act.f;
        match &f.expr(e).kind {
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Builtin(_) => true,
            ExprKind::Var(name) => {
                self.fixed_names(act).vars.contains(name) || self.undeclared(act, name)
            }
            ExprKind::Member(..) => self.fixed_field_path(act, e).is_some(),
            ExprKind::Unary(op, a) => {
                matches!(op, UnOp::Neg | UnOp::Not | UnOp::BitNot)
                    && self.fixed_expr(act, *a, depth + 1)
            }
            ExprKind::Binary(_, a, b) => {
                self.fixed_expr(act, *a, depth + 1) && self.fixed_expr(act, *b, depth + 1)
            }
            // A getter without arguments on an object the call never
            // writes: `params.problem_size.row()`.
            ExprKind::Call(c) => {
                c.args.is_empty()
                    && c.receiver.is_some_and(|r| {
                        matches!(f.expr(r).kind, ExprKind::Member(..))
                            && self.fixed_field_path(act, r).is_some()
                    })
            }
            _ => false,
        }
    }
}

/// Whether evaluating `e` in lanes that would not have reads no memory,
/// calls nothing and writes nothing: constants, built-in variables, locals,
/// fields of locals that hold no pointer, and operators over them.
pub(super) fn plain_value(machine: &Machine, act: &Activation, e: ExprId) -> bool {
    let f = act.f;
    let mut work = vec![(e, 0usize)];
    while let Some((e, depth)) = work.pop() {
        if depth > MAX_STEPS {
            return false;
        }
        match &f.expr(e).kind {
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Builtin(_) => {}
            ExprKind::Var(name) if !machine.shared_scalars.contains_key(name) => {}
            ExprKind::Member(..) => {
                let holds_value = field_path(f, e)
                    .and_then(|(root, _)| act.vars.get(root))
                    .is_some_and(|v| !v.iter().any(|x| matches!(x, Val::Ptr(_))));
                if !holds_value {
                    return false;
                }
            }
            ExprKind::Unary(UnOp::Neg | UnOp::Not | UnOp::BitNot, a) => {
                work.push((*a, depth + 1));
            }
            ExprKind::Binary(_, a, b) => {
                work.push((*a, depth + 1));
                work.push((*b, depth + 1));
            }
            ExprKind::Ternary(c, a, b) => {
                work.extend([(*c, depth + 1), (*a, depth + 1), (*b, depth + 1)]);
            }
            _ => return false,
        }
    }
    true
}

/// `p.a.b` → (`p`, "p.a.b"), for a chain of members on a variable.
pub(super) fn field_path(f: &Function, e: ExprId) -> Option<(&str, String)> {
    f.access_path(e)
        .filter(|(root, path)| path.len() > root.len())
}

/// The field paths the function may change (`p` for the whole variable):
/// targets of assignments and updates, and what it takes the address of.
/// A write through an element or a pointee of a field (`p.out[i] = …`)
/// changes no field path; one through the variable itself (`p[i]`, `*p`)
/// may change all of them.
/// Sorted, one entry per path.
fn written_paths(f: &Function) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in &f.exprs {
        let target = match &e.kind {
            ExprKind::Assign { lhs, .. } => *lhs,
            ExprKind::Update { target, .. } => *target,
            ExprKind::Unary(UnOp::AddrOf, a) => *a,
            _ => continue,
        };
        // Walk to the variable, keeping the member chain below the last
        // element or pointee step.
        let mut fields: Vec<&str> = Vec::new();
        let mut through_element = false;
        let mut e = target;
        for _ in 0..=4 * MAX_STEPS {
            match &f.expr(e).kind {
                ExprKind::Member(base, field) => {
                    fields.push(field);
                    e = *base;
                }
                ExprKind::Index(base, _) | ExprKind::Unary(UnOp::Deref, base) => {
                    fields.clear();
                    through_element = true;
                    e = *base;
                }
                ExprKind::Var(root) => {
                    if through_element && !fields.is_empty() {
                        break;
                    }
                    let mut path = root.clone();
                    for field in fields.iter().rev() {
                        path.push('.');
                        path.push_str(field);
                    }
                    out.push(path);
                    break;
                }
                _ => break,
            }
        }
    }
    // One entry per path (a kernel writes `acc` in thousands of places),
    // sorted for lookups.
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether writing the path `w` may change the path `p`: one is the
/// other or lies inside it.
fn overlaps(w: &str, p: &str) -> bool {
    let inside = |a: &str, b: &str| a.strip_prefix(b).is_some_and(|r| r.starts_with('.'));
    w == p || inside(p, w) || inside(w, p)
}

/// An expression that evaluating again reads no memory, calls nothing
/// and writes nothing.
fn pure(f: &Function, e: ExprId, depth: usize) -> bool {
    if depth > MAX_STEPS {
        return false;
    }
    match &f.expr(e).kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Var(_) | ExprKind::Builtin(_) => true,
        ExprKind::Unary(op, a) => {
            matches!(op, UnOp::Neg | UnOp::Not | UnOp::BitNot) && pure(f, *a, depth + 1)
        }
        ExprKind::Binary(_, a, b) => pure(f, *a, depth + 1) && pure(f, *b, depth + 1),
        _ => false,
    }
}

/// The value the leaf must hold for the compared expression to be `c`
/// (rounded where an operation drops bits); `None` where a step has no
/// inverse.
fn carry_back(c: Val, steps: &[Step]) -> Option<Val> {
    if steps.is_empty() {
        return Some(c);
    }
    let mut v = c.as_int()?;
    for step in steps {
        v = match *step {
            Step::Neg => v.checked_neg()?,
            Step::Binary {
                op,
                known: k,
                unknown_left,
            } => match (op, unknown_left) {
                (BinOp::Add, _) => v.checked_sub(k)?,
                (BinOp::Sub, true) => v.checked_add(k)?,
                (BinOp::Sub, false) => k.checked_sub(v)?,
                (BinOp::Mul, _) if k != 0 => v / k,
                (BinOp::Div, true) if k != 0 => v.checked_mul(k)?,
                (BinOp::Shl, true) if (0..63).contains(&k) => v >> k,
                (BinOp::Shr, true) if (0..32).contains(&k) => v.checked_mul(1 << k)?,
                _ => return None,
            },
        };
    }
    Some(Val::Int(v))
}

/// The compared expression's value when the leaf holds `v`.
fn carry_forward(mut v: Val, steps: &[Step]) -> Val {
    for step in steps.iter().rev() {
        v = match *step {
            Step::Neg => unary(UnOp::Neg, v),
            Step::Binary {
                op,
                known,
                unknown_left: true,
            } => binary(op, v, Val::Int(known)),
            Step::Binary { op, known, .. } => binary(op, Val::Int(known), v),
        };
    }
    v
}
