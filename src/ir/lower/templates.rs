//! Function templates instantiated with the constant arguments their call
//! sites give (`group_sum<6>(v)`, `step<N - 1>(v)` inside an instance).
//!
//! An instance is a copy of the template with each bound template value
//! replaced by its integer; the integer, and every call whose arguments it
//! reaches, carry the call site's span, so a finding about the value is
//! reported at the instantiation. The call is renamed to the
//! instance (`group_sum<6>`), so the dataflow and the executor follow it;
//! a template whose every call names an instance is not analysed by
//! itself ([`Function::runs_as_instances`]): a run would pick its values
//! freely, where the code states them. Bounded: [`MAX_PER_TEMPLATE`]
//! instances of one template, [`MAX_PER_MODULE`] in all, so recursive
//! steps stop.
//!
//! A type parameter's class binds the names it scopes: in
//! `reduce<FullWarp>`, `Policy::kLanes` reads `FullWarp::kLanes`, the
//! unit's constant wherever the unit defines it (still a free value of the
//! instance where it does not), and no longer a value a run may pick.

use rustc_hash::FxHashMap as HashMap;

use crate::ir::*;

pub const MAX_PER_TEMPLATE: usize = 8;
pub const MAX_PER_MODULE: usize = 64;

/// What one call, launch or explicit instantiation states for a template:
/// the integer of each of its values, the class of each of its
/// [`Function::type_params`] (`None`: not stated), and the group each of
/// its [`Function::group_params`] is given (by parameter index; a call
/// only).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Stated {
    values: Vec<Option<i64>>,
    classes: Vec<Option<String>>,
    groups: Vec<(usize, GroupArg)>,
}

impl Stated {
    /// As a launch's or explicit instantiation's arguments state them.
    fn of_args(f: &Function, args: &[TemplateArg]) -> Stated {
        Stated {
            values: f.stated_values(args),
            classes: (f.type_params.iter())
                .map(|&(_, at)| args.get(at).and_then(TemplateArg::class).map(str::to_owned))
                .collect(),
            groups: Vec::new(),
        }
    }

    /// Each of `params` (a template's [`Function::type_params`]) that a
    /// class is stated for, with the class.
    fn classes_for<'s>(&'s self, params: &'s [(String, usize)]) -> Vec<(&'s str, &'s str)> {
        (params.iter().zip(&self.classes))
            .filter_map(|((p, _), c)| Some((p.as_str(), c.as_deref()?)))
            .collect()
    }

    fn states_nothing(&self) -> bool {
        self.values.iter().all(Option::is_none)
            && self.classes.iter().all(Option::is_none)
            && self.groups.is_empty()
    }
}

/// Names a pass makes compile-time values ([`Function::constant_names`]):
/// each as written, the flags among them (read as a truth value: bare,
/// negated, joined by `&&`/`||`), and the expressions renamed to them.
#[derive(Default)]
struct Picked {
    names: Vec<String>,
    flags: Vec<String>,
    renamed: Vec<(ExprId, String)>,
}

impl Picked {
    fn pick(&mut self, e: ExprId, name: &str, written: bool, truth: bool) {
        if written {
            self.renamed.push((e, name.to_owned()));
        }
        if !self.names.iter().any(|n| n == name) {
            self.names.push(name.to_owned());
        }
        if truth && !self.flags.iter().any(|n| n == name) {
            self.flags.push(name.to_owned());
        }
    }

    fn apply(self, f: &mut Function) {
        for (e, name) in self.renamed {
            f.exprs[e as usize].kind = ExprKind::Var(name);
        }
        for n in self.names {
            if !f.constant_names.contains(&n) {
                f.constant_names.push(n);
            }
        }
        for n in self.flags {
            if !f.flag_values.contains(&n) {
                f.flag_values.push(n);
            }
        }
    }
}

/// Visit each name the conditions `roots` read, with whether it is read as
/// a truth value; `visit` returns further expressions to read (what
/// initialises a local). Through calls' arguments only if `through_calls`.
/// Each expression is read at most once.
fn read_conditions<'f>(
    f: &'f Function,
    roots: Vec<(ExprId, bool)>,
    through_calls: bool,
    mut visit: impl FnMut(ExprId, &'f str, bool) -> Vec<ExprId>,
) {
    let mut seen = vec![false; f.exprs.len()];
    // In the roots' order, each read through before the next: the names'
    // order is the order runs pick their values in.
    let mut stack = roots;
    stack.reverse();
    while let Some((e, truth)) = stack.pop() {
        if std::mem::replace(&mut seen[e as usize], true) {
            continue;
        }
        match &f.expr(e).kind {
            ExprKind::Var(n) => stack.extend(visit(e, n, truth).into_iter().map(|i| (i, false))),
            ExprKind::Unary(UnOp::Not, a) => stack.push((*a, truth)),
            ExprKind::Binary(BinOp::And | BinOp::Or, a, b) => {
                stack.push((*a, truth));
                stack.push((*b, truth));
            }
            ExprKind::Call(_) if !through_calls => {}
            other => stack.extend(other.children().into_iter().map(|c| (c, false))),
        }
    }
}

/// Give `f` the names its `if constexpr` conditions read that it neither
/// declares nor knows as constants ([`Function::constant_names`]): a
/// constant expression reads only values of the instantiation. A name the
/// condition tests as a truth value is a flag, tried both ways. A
/// qualified name (`qualified`: expression and text as written) is named
/// as written, `std::is_same_v<T,float>`, so that two traits stay two
/// values and a witness names the one it chose.
pub(super) fn name_constant_conditions(
    f: &mut Function,
    constants: &HashMap<String, i64>,
    qualified: &[(ExprId, String)],
) {
    let roots: Vec<(ExprId, bool)> = f
        .stmts
        .iter()
        .filter_map(|s| match s.kind {
            StmtKind::If {
                cond,
                constant: true,
                ..
            } => Some((cond, true)),
            _ => None,
        })
        .collect();
    if roots.is_empty() {
        return;
    }
    let mut known: rustc_hash::FxHashSet<&str> =
        f.compile_time_values().map(String::as_str).collect();
    known.extend(f.params.iter().map(|p| p.name.as_str()));
    for s in &f.stmts {
        if let StmtKind::Decl { name, .. } = &s.kind {
            known.insert(name);
        }
    }
    let written: HashMap<ExprId, &str> = qualified.iter().map(|(e, w)| (*e, w.as_str())).collect();
    let mut picked = Picked::default();
    read_conditions(f, roots, true, |e, n, truth| {
        if !known.contains(n) && !constants.contains_key(n) {
            match written.get(&e) {
                Some(w) => picked.pick(e, w, true, truth),
                None => picked.pick(e, n, false, truth),
            }
        }
        Vec::new()
    });
    picked.apply(f);
}

/// The names among `qualified` (expression, as written) that a template
/// parameter's type scopes: `Tile::kRows` with `Tile` a type parameter of
/// a template around `def`, or a type alias of the class template `def`
/// is written in (`using Mma_tile = …;`). Each is a value of the
/// instantiation, free as the template's own values are. A name written
/// with template arguments (`Log2<N>::VALUE`) is a function of other values
/// and is not among them, nor is a namespace's (`detail::warp_threads`):
/// their values are the library's, not the instantiation's; nor is a
/// name of the class itself, one of its bases or an alias of one
/// (`own_scopes`), whose constants the member's prelude declares.
pub(super) fn dependent_names(
    def: tree_sitter::Node,
    text: &str,
    qualified: &[(ExprId, String)],
    own_scopes: &[&str],
) -> Vec<(ExprId, String)> {
    let mut verdicts: HashMap<&str, bool> = HashMap::default();
    qualified
        .iter()
        .filter(|(_, w)| {
            if w.contains('<') {
                return false;
            }
            let Some((scope, _)) = w.split_once("::") else {
                return false;
            };
            if own_scopes.contains(&scope) {
                return false;
            }
            *verdicts.entry(scope).or_insert_with(|| {
                super::sizes::is_template_type_param(def, text, scope)
                    || class_template_alias(def, text, scope)
            })
        })
        .cloned()
        .collect()
}

/// The type parameters of the template `def` opens with that scope one of
/// `dependent` ([`Function::type_params`]), at their positions, counted
/// as [`super::non_type_params`] counts them.
pub(super) fn scoping_type_params(
    def: tree_sitter::Node,
    text: &str,
    dependent: &[String],
) -> Vec<(String, usize)> {
    let Some(params) = super::opening_template_params(def) else {
        return Vec::new();
    };
    scoping(super::type_params_of(params, text), dependent)
}

/// Those of `params` that scope one of `dependent` (`Policy` of
/// `Policy::kLanes`).
pub(super) fn scoping(params: Vec<(String, usize)>, dependent: &[String]) -> Vec<(String, usize)> {
    let scopes = |p: &str| (dependent.iter()).any(|d| member_of_param(d, p).is_some());
    params.into_iter().filter(|(p, _)| scopes(p)).collect()
}

/// Whether `name` is a type alias (`using name = …;`, `typedef … name;`)
/// declared in the body of a class template that encloses `def`: one walk
/// up, a declaring class body first, then a template above it.
pub(super) fn class_template_alias(def: tree_sitter::Node, text: &str, name: &str) -> bool {
    use crate::frontend::{Field as _, node_text};
    let declares = |body: tree_sitter::Node| {
        let mut c = body.walk();
        body.named_children(&mut c).any(|m| match m.kind() {
            "alias_declaration" => m.field("name").is_some_and(|k| node_text(k, text) == name),
            "type_definition" => m
                .field("declarator")
                .is_some_and(|k| node_text(k, text) == name),
            _ => false,
        })
    };
    let mut declared_below = false;
    let mut at = def.parent();
    while let Some(n) = at {
        match n.kind() {
            "field_declaration_list" if !declared_below => declared_below = declares(n),
            "template_declaration" if declared_below => return true,
            _ => {}
        }
        at = n.parent();
    }
    false
}

/// Give `f`, as compile-time values ([`Function::constant_names`]), the
/// qualified names of unknown value its branch and loop conditions read
/// (those [`dependent_names`] keeps):
/// `Mma_tile::MMAS_M` in `mi < Mma_tile::MMAS_M * 2`, directly or through
/// a local or class constant initialised from one (`enum { MMAS_M =
/// Mma_tile::MMAS_M };`). A qualified name in an expression names a static
/// member, an enumerator or a namespace's variable: one value for every
/// thread of the grid. A run picks it, as it picks a template's own values,
/// rather than guessing which way the branch goes. Every use of such a
/// name, in a condition or not, is named as written, so `Traits::kN` and
/// `Other::kN` stay two values, and a `kN` the file or the unit defines
/// (another class's member of that name) is not its value
/// ([`Function::dependent_names`]).
pub(super) fn name_dependent_values(f: &mut Function, qualified: &[(ExprId, String)]) {
    if qualified.is_empty() {
        return;
    }
    let written: HashMap<ExprId, &str> = qualified.iter().map(|(e, w)| (*e, w.as_str())).collect();
    let mut inits: HashMap<&str, Vec<ExprId>> = HashMap::default();
    for s in &f.stmts {
        if let StmtKind::Decl {
            name,
            init: Some(e),
            ..
        } = &s.kind
        {
            inits.entry(name.as_str()).or_default().push(*e);
        }
    }
    let mut roots: Vec<(ExprId, bool)> = Vec::new();
    for s in &f.stmts {
        match &s.kind {
            StmtKind::If { cond, .. }
            | StmtKind::Loop {
                cond: Some(cond), ..
            } => roots.push((*cond, true)),
            StmtKind::Switch { scrutinee, .. } => roots.push((*scrutinee, false)),
            _ => {}
        }
    }
    for e in &f.exprs {
        if let ExprKind::Ternary(c, _, _) = e.kind {
            roots.push((c, true));
        }
    }
    let mut followed: rustc_hash::FxHashSet<&str> = Default::default();
    let mut picked = Picked::default();
    // A call's result is not the name's value; its arguments are another
    // function's business.
    read_conditions(f, roots, false, |e, n, truth| match written.get(&e) {
        // Renamed below with every other use, not by `Picked`.
        Some(w) => {
            picked.pick(e, w, false, truth);
            Vec::new()
        }
        // A local or class constant: what initialises it.
        None if followed.insert(n) => inits.get(n).cloned().unwrap_or_default(),
        None => Vec::new(),
    });
    picked.apply(f);
    // Every use, in a condition or not, reads the same value, unknown
    // unless a run picked it: not the unit's constant of the last segment
    // (`Index3::kLanes`, 0, would make `__shfl_sync(mask, v, 0,
    // Tile::kLanes)` a width-0 shuffle). A scoped name: one value for
    // every thread.
    for (e, w) in qualified {
        if let ExprKind::Var(name) = &f.exprs[*e as usize].kind
            && name != w
        {
            f.exprs[*e as usize].kind = ExprKind::Var(w.clone());
        }
        f.scoped_names.insert(w.clone());
        if !f.dependent_names.contains(w) {
            f.dependent_names.push(w.clone());
        }
    }
}

pub(super) fn instantiate(fns: &mut Vec<Function>, constants: &HashMap<String, i64>) {
    let mut templates: HashMap<String, usize> = HashMap::default();
    for (i, f) in fns.iter().enumerate() {
        if f.kind != FnKind::Lambda && f.is_template_like() {
            templates.entry(f.name.clone()).or_insert(i);
        }
    }
    if templates.is_empty() && !fns.iter().any(is_generic_lambda) {
        return;
    }
    let mut bindings: Vec<HashMap<String, i64>> = vec![HashMap::default(); fns.len()];
    // Instances by name (`instance_name`): this pass's, and those an
    // earlier pass made (the pass runs again once launches have made
    // kernel instances), which are the same functions.
    let mut instances: HashMap<String, usize> = (fns.iter().enumerate())
        .filter(|(_, f)| f.name.contains('<'))
        .map(|(i, f)| (f.name.clone(), i))
        .collect();
    let mut made = 0usize;
    let mut per_template: HashMap<usize, usize> = HashMap::default();
    let mut queue: Vec<usize> = (0..fns.len()).rev().collect();
    while let Some(fi) = queue.pop() {
        let calls: Vec<(ExprId, usize, Stated, Option<ByteSpan>)> = fns[fi]
            .exprs
            .iter()
            .enumerate()
            .filter_map(|(id, e)| {
                let ExprKind::Call(c) = &e.kind else {
                    return None;
                };
                // A library's model comes before its source (a CuTe shape
                // query is known by its name).
                if crate::ir::library::is_shape_query(c) {
                    return None;
                }
                // A generic lambda (`[](auto g, float v) { … }`) is known
                // by its index: its calls name the variable holding it.
                let t = match c.target {
                    Some(l) if fns.get(l).is_some_and(is_generic_lambda) => l,
                    _ => *templates.get(&c.name)?,
                };
                let lookup = |s: &str| bindings[fi].get(s).or_else(|| constants.get(s)).copied();
                let deduced = Deduced::by_arguments(&fns[fi], c, &fns[t]);
                let stated = match c.receiver {
                    None => stated_by_call(&fns[t], &c.template_args, &deduced, &lookup)?,
                    // A member called on an object (`summer.run(block, v)`):
                    // only its own class's, and only for the groups it
                    // passes (a member template's values and classes stay
                    // the object's to bind, `Module::callee`).
                    Some(_) => {
                        let class = &c.object.as_ref()?.class;
                        if fns[t].class.as_deref() != Some(class.as_str())
                            || deduced.groups.is_empty()
                        {
                            return None;
                        }
                        Stated {
                            values: vec![None; fns[t].template_values.len()],
                            classes: vec![None; fns[t].type_params.len()],
                            groups: deduced.groups,
                        }
                    }
                };
                // A finding about the values is reported at the call,
                // where the call is in the template's file.
                let site = (fns[fi].file == fns[t].file).then_some(e.span);
                Some((id as ExprId, t, stated, site))
            })
            .collect();
        for (id, t, stated, span) in calls {
            let name = instance_name(&fns[t], &stated);
            let at = match instances.get(&name) {
                Some(&at) => at,
                None => {
                    let count = per_template.entry(t).or_default();
                    if *count >= MAX_PER_TEMPLATE || made >= MAX_PER_MODULE {
                        continue;
                    }
                    *count += 1;
                    made += 1;
                    let (inst, b) = make_instance(&fns[t], &stated, span);
                    fns.push(inst);
                    bindings.push(b);
                    queue.push(fns.len() - 1);
                    instances.insert(name.clone(), fns.len() - 1);
                    fns.len() - 1
                }
            };
            if let ExprKind::Call(c) = &mut fns[fi].exprs[id as usize].kind {
                // A lambda's call keeps the name it is called by.
                match c.target {
                    Some(_) => c.target = Some(at),
                    None => c.name = name,
                }
            }
        }
    }
    mark_run_as_instances(fns, templates.values().copied());
}

/// A lambda with a parameter of type `auto` that may hold a group: its
/// calls make instances, as a template's do.
fn is_generic_lambda(f: &Function) -> bool {
    f.kind == FnKind::Lambda && !f.group_params.is_empty()
}

/// Mark each of `templates` that has an instance and no call left naming
/// it ([`Function::runs_as_instances`]). A member call is not renamed, so
/// one naming the template keeps it analysed.
fn mark_run_as_instances(fns: &mut [Function], templates: impl Iterator<Item = usize>) {
    let called: rustc_hash::FxHashSet<&str> = (fns.iter())
        .flat_map(|f| f.exprs.iter())
        .filter_map(|e| match &e.kind {
            ExprKind::Call(c) => Some(c.name.as_str()),
            _ => None,
        })
        .collect();
    // The templates that have an instance (`pick<Full>` of `pick`).
    let instanced: rustc_hash::FxHashSet<&str> = (fns.iter())
        .filter_map(|f| f.name.split_once('<').map(|(base, _)| base))
        .collect();
    let marked: Vec<usize> = templates
        .filter(|&t| {
            let name = fns[t].name.as_str();
            !called.contains(name) && instanced.contains(name)
        })
        .collect();
    for t in marked {
        fns[t].runs_as_instances = true;
    }
}

/// What a call states for template `t`: its values ([`values_of_call`];
/// one the caller does not know, its own template value, stays unbound)
/// and the class it names for each type parameter (`None`: deduced,
/// defaulted or not a class). `None` where the call states nothing.
fn stated_by_call(
    t: &Function,
    written: &[String],
    deduced: &Deduced,
    lookup: &dyn Fn(&str) -> Option<i64>,
) -> Option<Stated> {
    let values = match t.template_values.is_empty() {
        true => Vec::new(),
        false => values_of_call(t, written, &deduced.values, lookup)?,
    };
    let classes = (t.type_params.iter())
        .map(|(param, at)| match written.get(*at) {
            Some(w) => crate::ir::class_named(w).map(str::to_owned),
            None => (deduced.classes.iter())
                .find(|(p, _)| p == param)
                .map(|(_, class)| class.clone()),
        })
        .collect();
    let groups = deduced.groups.clone();
    let stated = Stated {
        values,
        classes,
        groups,
    };
    (!stated.states_nothing()).then_some(stated)
}

/// What a call's arguments deduce for template `t`: `N` of a
/// `thread_block_tile<N>` parameter given a tile whose size the caller
/// knows, a type parameter's class given an object of that class, and the
/// group a generic group parameter holds given a block or a tile.
#[derive(Default)]
struct Deduced<'t> {
    values: Vec<(&'t str, i64)>,
    classes: Vec<(&'t str, String)>,
    groups: Vec<(usize, GroupArg)>,
}

impl<'t> Deduced<'t> {
    fn by_arguments(caller: &Function, c: &Call, t: &'t Function) -> Self {
        let mut out = Deduced::default();
        let given = |at: usize| {
            let arg = c.args.get(at)?;
            let (_, d) = caller.deducing_arguments.iter().find(|(e, _)| e == arg)?;
            Some(d)
        };
        for &at in &t.group_params {
            // (A tile of a size the caller has yet to bind is no group.)
            if let Some(Deducing::Group(g)) = given(at)
                && !matches!(g, GroupArg::TileOf(_))
            {
                out.groups.push((at, *g));
            }
        }
        for (at, param) in &t.deduced_params {
            match given(*at) {
                Some(Deducing::Group(GroupArg::Tile(size)))
                    if t.template_values.contains(param) =>
                {
                    out.values.push((param.as_str(), i64::from(*size)))
                }
                Some(Deducing::Class(class)) if t.type_params.iter().any(|(p, _)| p == param) => {
                    out.classes.push((param.as_str(), class.clone()))
                }
                _ => {}
            }
        }
        out
    }
}

/// The value a call gives each of template `t`'s values: its template
/// argument at the value's position, folded, else what its arguments
/// deduce (`deduced`: a tile's size), else the template's default
/// (`group_sum(v)` of `template <int W = 16>`). `None` where one has
/// neither. Where the positions are not known, the integral arguments, in
/// order, bind the values (type arguments do not fold), and all must be
/// written.
fn values_of_call(
    t: &Function,
    written: &[String],
    deduced: &[(&str, i64)],
    lookup: &dyn Fn(&str) -> Option<i64>,
) -> Option<Vec<Option<i64>>> {
    if t.template_positions.len() != t.template_values.len() {
        let vals: Vec<Option<i64>> = (written.iter())
            .filter_map(|a| eval_text(a, lookup, 0))
            .map(Some)
            .collect();
        return (!written.is_empty() && vals.len() == t.template_values.len()).then_some(vals);
    }
    // `fold<CS, kBins>` inside a template of `CS`: `NumBins` is known,
    // `CS` stays the instance's template value.
    let vals: Vec<Option<i64>> = (t.template_values.iter().zip(&t.template_positions))
        .map(|(name, &at)| match written.get(at) {
            Some(a) => eval_text(a, lookup, 0),
            None => (deduced.iter().find(|(d, _)| d == name).map(|(_, v)| *v))
                .or_else(|| t.template_default(name)),
        })
        .collect();
    vals.iter().any(Option::is_some).then_some(vals)
}

/// Kernel templates analysed as the instances the file launches: where
/// every launch of a kernel template states some of its integer template
/// arguments (`k<4, true><<<…>>>`, also through a host template, see
/// `launch::launch_sites`), the kernel is replaced by one instance per
/// distinct set of stated values, with those values bound; the others
/// stay template values. The launch sites are renamed to their instance,
/// so each runs with its own launch's shape and arguments. The file's
/// explicit instantiations (`template __global__ void k<4>(int*);`,
/// `explicit`: kernel name and template arguments) state instances too,
/// run without a launch. A launch that states none of them, or more than
/// [`MAX_PER_TEMPLATE`] distinct sets, leaves the template as it is. The
/// instances keep the template's spans: findings land on the template's
/// lines (`rules` merges equal ones).
pub(super) fn instantiate_launched(
    module: &mut Module,
    explicit: &[(String, Vec<TemplateArg>)],
) -> bool {
    let mut budget = MAX_PER_MODULE;
    let mut changed = false;
    for k in 0..module.functions.len() {
        let f = &module.functions[k];
        if !is_kernel_template(f) {
            continue;
        }
        let sites: Vec<usize> = (0..module.launches.len())
            .filter(|&i| module.launches[i].kernel == f.name)
            .collect();
        // Per site: the stated value of each template value; then per
        // explicit instantiation.
        let mut stated: Vec<Stated> = sites
            .iter()
            .map(|&i| Stated::of_args(f, &module.launches[i].template_args))
            .collect();
        stated.extend(
            explicit
                .iter()
                .filter(|(kernel, _)| *kernel == f.name)
                .map(|(_, args)| Stated::of_args(f, args)),
        );
        let Some((distinct, names)) = instantiate_kernel(module, k, &stated, &mut budget) else {
            continue;
        };
        changed = true;
        for (&site, vals) in sites.iter().zip(&stated) {
            if let Some(n) = distinct.iter().position(|d| d == vals) {
                module.launches[site].kernel = names[n].clone();
            }
        }
    }
    changed
}

/// Kernel templates the file does not launch, analysed as the instances
/// the run's other files launch (`tu::contracts::Instances`: per kernel,
/// the template arguments of every launch in the run), as
/// [`instantiate_launched`] does for the file's own launches. Not exact:
/// launches outside the run are not seen.
pub fn instantiate_from_run(module: &mut Module, run: &HashMap<String, Vec<Vec<TemplateArg>>>) {
    let mut budget = MAX_PER_MODULE;
    let mut changed = false;
    for k in 0..module.functions.len() {
        let f = &module.functions[k];
        if !is_kernel_template(f) || module.launches.iter().any(|l| l.kernel == f.name) {
            continue;
        }
        let Some(launched) = run.get(&f.name) else {
            continue;
        };
        // An instance naming a class is the launching unit's to analyse:
        // that unit sees the class (`tu::Unit::link` links the kernel
        // there), this one may not.
        let (by_class, stated): (Vec<Stated>, Vec<Stated>) = (launched.iter())
            .map(|a| Stated::of_args(f, a))
            .partition(|s| s.classes.iter().any(Option::is_some));
        if stated.is_empty() {
            module.functions[k].runs_as_instances = !by_class.is_empty();
            continue;
        }
        changed |= instantiate_kernel(module, k, &stated, &mut budget).is_some();
    }
    // Most files launch no header's template: no index to rebuild.
    if changed {
        // The instances' calls may now deduce what the template's could
        // not (a tile of the size an instance binds).
        instantiate(&mut module.functions, &module.constants);
        module.index_functions();
    }
}

/// Header templates the file launches (`keep_step<Quarter><<<…>>>` of a
/// linked kernel) or calls with template arguments (`tile_sum<16>(tile,
/// v)` of a linked helper): instances, as [`instantiate_launched`] and
/// [`instantiate`] make for the file's own templates at lowering, now
/// that the unit's constants (a policy class's members) are known. Calls
/// and launches already renamed to an instance are not templates' any
/// more.
pub fn instantiate_linked(module: &mut Module) {
    if !(module.functions.iter()).any(|f| f.file != 0 && f.is_template_like()) {
        return;
    }
    let before = module.functions.len();
    let launched = instantiate_launched(module, &[]);
    instantiate(&mut module.functions, &module.constants);
    if launched || module.functions.len() != before {
        module.index_functions();
    }
}

/// A kernel template not yet instantiated, whose template values all come
/// from its own parameter list.
fn is_kernel_template(f: &Function) -> bool {
    f.kind == FnKind::Kernel
        && (!f.template_values.is_empty() || !f.type_params.is_empty())
        && f.template_positions.len() == f.template_values.len()
        && !f.name.contains('<')
}

/// Replace kernel `k` by one instance per distinct set of `stated` values
/// (the first in place: lambdas and other indices stay valid). `None`,
/// and nothing changed, where a launch states none of the values or the
/// sets are too many. Returns the distinct sets and their instances'
/// names.
fn instantiate_kernel(
    module: &mut Module,
    k: usize,
    stated: &[Stated],
    budget: &mut usize,
) -> Option<(Vec<Stated>, Vec<String>)> {
    if stated.is_empty() || stated.iter().any(Stated::states_nothing) {
        return None;
    }
    let mut distinct: Vec<Stated> = Vec::new();
    for v in stated {
        if !distinct.contains(v) {
            distinct.push(v.clone());
        }
    }
    if distinct.len() > MAX_PER_TEMPLATE || distinct.len() > *budget {
        return None;
    }
    *budget -= distinct.len();
    let template = module.functions[k].clone();
    let mut names = Vec::new();
    for (n, vals) in distinct.iter().enumerate() {
        let inst = bind_values(&template, vals);
        names.push(inst.name.clone());
        if n == 0 {
            module.functions[k] = inst;
        } else {
            module.functions.push(inst);
        }
    }
    Some((distinct, names))
}

/// `t` with the values stated bound to their integers and the names a
/// stated class binds renamed to its members (spans kept), named as the
/// instance (`k<4, ?>`, `reduce<FullWarp>`).
fn bind_values(t: &Function, stated: &Stated) -> Function {
    let mut f = t.clone();
    f.name = instance_name(t, stated);
    let b: HashMap<&str, i64> = t
        .template_values
        .iter()
        .zip(&stated.values)
        .filter_map(|(n, v)| Some((n.as_str(), (*v)?)))
        .collect();
    for e in &mut f.exprs {
        if let ExprKind::Var(v) = &e.kind
            && let Some(&x) = b.get(v.as_str())
        {
            e.kind = ExprKind::Int(x);
        }
    }
    f.template_positions = t
        .template_values
        .iter()
        .zip(&t.template_positions)
        .filter(|(n, _)| !b.contains_key(n.as_str()))
        .map(|(_, p)| *p)
        .collect();
    f.bound_values = t
        .template_values
        .iter()
        .filter_map(|n| Some((n.clone(), *b.get(n.as_str())?)))
        .collect();
    f.template_values.retain(|v| !b.contains_key(v.as_str()));
    bind_template_tiles(&mut f, &t.template_values, &b);
    settle_tags(&mut f);
    f.flag_values.retain(|v| !b.contains_key(v.as_str()));
    f.tile_sizes.retain(|v| !b.contains_key(v.as_str()));
    f.template_defaults
        .retain(|(v, _)| !b.contains_key(v.as_str()));
    bind_classes(&mut f, stated);
    bind_groups(&mut f, &stated.groups);
    f
}

/// The tags an instance's values decide (`Int2Type<(LANES == 32)>()` in
/// `sum<32>`): a value from now on, so the callee is found without a run.
fn settle_tags(f: &mut Function) {
    let mut settled: Vec<(usize, usize, i64)> = Vec::new();
    for (i, e) in f.exprs.iter().enumerate() {
        let ExprKind::Call(c) = &e.kind else { continue };
        for (k, &(_, tag)) in c.tags.iter().enumerate() {
            if let Tag::Expr(t) = tag
                && let Some(v) = crate::ir::fold::eval(f, t, &|_| None, 0)
            {
                settled.push((i, k, v));
            }
        }
    }
    for (i, k, v) in settled {
        if let ExprKind::Call(c) = &mut f.exprs[i].kind {
            c.tags[k].1 = Tag::Value(v);
        }
    }
}

/// A tile of a template size passed as an argument
/// (`shuffle_sum(tile, v)` with `tile = cg::tiled_partition<Lanes>(…)`)
/// deduces a tile of the size this instance binds; one whose size stays
/// unbound keeps its value's new index (`values` are the template's, the
/// instance keeps those `bound` does not hold).
fn bind_template_tiles(f: &mut Function, values: &[String], bound: &HashMap<&str, i64>) {
    let kept = &f.template_values;
    f.deducing_arguments.retain_mut(|(_, d)| {
        let Deducing::Group(GroupArg::TileOf(i)) = d else {
            return true;
        };
        let Some(name) = values.get(usize::from(*i)) else {
            return false;
        };
        let now = match bound.get(name.as_str()) {
            Some(&n @ (1 | 2 | 4 | 8 | 16 | 32)) => GroupArg::Tile(n as u32),
            Some(_) => return false,
            None => match kept.iter().position(|v| v == name) {
                Some(k) => GroupArg::TileOf(k as u8),
                None => return false,
            },
        };
        *d = Deducing::Group(now);
        true
    });
}

/// Lower the calls on each generic group parameter that `groups` binds
/// (`g.sync()`, `g.shfl_down(v, 1)`, `cg::sync(g)`) as that group's
/// members, as the lowering does for a group it knows
/// (`coop::Emit::member_call`); an argument passing the parameter on
/// deduces the same group for the callee. Each call is rewritten in
/// place, so statements keep their expressions.
fn bind_groups(f: &mut Function, groups: &[(usize, GroupArg)]) {
    if groups.is_empty() {
        return;
    }
    let bound: Vec<(&str, GroupArg)> = (groups.iter())
        .filter_map(|&(at, g)| Some((f.params.get(at)?.name.as_str(), g)))
        .collect();
    let group_of = |exprs: &[Expr], e: ExprId| match &exprs[e as usize].kind {
        ExprKind::Var(v) => bound.iter().find(|(n, _)| n == v).map(|&(_, g)| g),
        _ => None,
    };
    let mut rewrites: Vec<(ExprId, GroupArg, ExprId)> = Vec::new();
    let mut passed: Vec<(ExprId, GroupArg)> = Vec::new();
    for (id, e) in f.exprs.iter().enumerate() {
        let ExprKind::Call(c) = &e.kind else { continue };
        let on = match c.receiver {
            Some(r) => group_of(&f.exprs, r).map(|g| (g, r)),
            None if super::coop::is_free_group_call(c) => {
                (c.args.first()).and_then(|&a| Some((group_of(&f.exprs, a)?, a)))
            }
            None => None,
        };
        match on {
            Some((g, group)) => rewrites.push((id as ExprId, g, group)),
            None => {
                passed.extend((c.args.iter()).filter_map(|&a| Some((a, group_of(&f.exprs, a)?))))
            }
        }
    }
    for (id, g, group) in rewrites {
        let ExprKind::Call(c) = &f.exprs[id as usize].kind else {
            continue;
        };
        let method = c.name.clone();
        let args: Vec<ExprId> = match c.receiver {
            Some(_) => c.args.clone(),
            None => c.args[1..].to_vec(),
        };
        let (span, gspan) = (f.exprs[id as usize].span, f.exprs[group as usize].span);
        let ExprKind::Var(param) = &f.exprs[group as usize].kind else {
            continue;
        };
        let Some(members) = super::coop::Members::of_arg(g, param) else {
            continue;
        };
        if !super::coop::handles_members(&members, &method) {
            continue;
        }
        let Some(root) =
            super::coop::Emit(&mut f.exprs).member_call(&members, &method, &args, span, gspan)
        else {
            continue;
        };
        // The member's expression replaces the call, not beside it.
        if root as usize + 1 == f.exprs.len()
            && let Some(e) = f.exprs.pop()
        {
            f.exprs[id as usize].kind = e.kind;
        }
    }
    for (arg, g) in passed {
        if !f.deducing_arguments.iter().any(|(e, _)| *e == arg) {
            f.deducing_arguments.push((arg, Deducing::Group(g)));
        }
    }
    f.group_params
        .retain(|at| !groups.iter().any(|(b, _)| b == at));
    // A type parameter naming a bound group is no longer the instance's.
    let named: Vec<String> = (f.deduced_params.iter())
        .filter(|(at, _)| groups.iter().any(|(b, _)| b == at))
        .map(|(_, n)| n.clone())
        .collect();
    f.type_params.retain(|(p, _)| !named.contains(p));
}

/// Rename each name a stated class binds (`Policy::kLanes` with `Policy`
/// stated `FullWarp`) to the class's member, everywhere the function
/// holds it: the unit's `FullWarp::kLanes` gives its value.
fn bind_classes(f: &mut Function, stated: &Stated) {
    let params = f.type_params.clone();
    let classes = stated.classes_for(&params);
    if classes.is_empty() {
        return;
    }
    let renamed = |n: &str| -> Option<String> {
        (classes.iter()).find_map(|(p, class)| Some(format!("{class}::{}", member_of_param(n, p)?)))
    };
    for e in &mut f.exprs {
        if let ExprKind::Var(v) = &mut e.kind
            && let Some(r) = renamed(v)
        {
            *v = r;
        }
    }
    // A member of a named class now, read as the file would read
    // `FullWarp::kLanes` written out (and linked from the header defining
    // the class): no longer a value a run may pick.
    let bound = |n: &String| classes.iter().any(|(p, _)| member_of_param(n, p).is_some());
    f.dependent_names.retain(|n| !bound(n));
    f.constant_names.retain(|n| !bound(n));
    f.flag_values.retain(|n| !bound(n));
    f.scoped_names = (f.scoped_names.iter())
        .map(|n| renamed(n).unwrap_or_else(|| n.clone()))
        .collect();
    f.type_params
        .retain(|(p, _)| !classes.iter().any(|(bound, _)| bound == p));
}

/// An instance's name: the template's, with what is stated at each
/// position (`?` where nothing is): `k<4, ?>`, `reduce<FullWarp>`.
fn instance_name(t: &Function, stated: &Stated) -> String {
    let mut parts: Vec<(usize, String)> = Vec::new();
    let positions_known = t.template_positions.len() == t.template_values.len();
    for (i, v) in stated.values.iter().enumerate() {
        let at = if positions_known {
            t.template_positions[i]
        } else {
            i
        };
        parts.push((at, v.map_or("?".to_owned(), |v| v.to_string())));
    }
    for ((_, at), c) in t.type_params.iter().zip(&stated.classes) {
        parts.push((*at, c.clone().unwrap_or_else(|| "?".to_owned())));
    }
    parts.sort_by_key(|(at, _)| *at);
    // Groups after the template's own arguments: a `thread_group`
    // parameter's has no template position.
    let groups = stated.groups.iter().map(|(_, g)| g.type_name());
    let written: Vec<String> = parts.into_iter().map(|(_, p)| p).chain(groups).collect();
    format!("{}<{}>", t.name, written.join(", "))
}

/// The instance a call states (every template value bound), with the
/// integers it binds: what the instance's own calls read.
fn make_instance(
    t: &Function,
    stated: &Stated,
    site: Option<ByteSpan>,
) -> (Function, HashMap<String, i64>) {
    // Name by name: a value the call leaves unstated stays unbound (not
    // the next stated one).
    let b: HashMap<String, i64> = (t.template_values.iter())
        .zip(&stated.values)
        .filter_map(|(n, v)| Some((n.clone(), (*v)?)))
        .collect();
    // The names a stated class binds.
    let classes = stated.classes_for(&t.type_params);
    let by_class: Vec<String> = (t.dependent_names.iter())
        .filter(|n| classes.iter().any(|(p, _)| member_of_param(n, p).is_some()))
        .cloned()
        .collect();
    let bound: Vec<String> = b.keys().cloned().chain(by_class).collect();
    // Calls whose arguments the instantiation decides, and the values
    // themselves, are reported at the call site.
    let at_site: Vec<usize> = (0..t.exprs.len())
        .filter(|&i| match &t.exprs[i].kind {
            ExprKind::Call(c) => c.args.iter().any(|&a| mentions_values(t, a, &bound)),
            ExprKind::Var(v) => bound.contains(v),
            _ => false,
        })
        .collect();
    let mut f = bind_values(t, stated);
    if let Some(site) = site {
        for i in at_site {
            f.exprs[i].span = site;
        }
    }
    (f, b)
}

/// Does expression `e` read one of `names`? (Explicit stack, bounded.)
fn mentions_values(f: &Function, e: ExprId, names: &[String]) -> bool {
    let mut stack = vec![e];
    let mut seen = 0;
    while let Some(id) = stack.pop() {
        seen += 1;
        if seen > 4096 {
            return false;
        }
        match &f.expr(id).kind {
            ExprKind::Var(v) if names.contains(v) => return true,
            ExprKind::Unary(_, a) | ExprKind::Member(a, _) => stack.push(*a),
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) | ExprKind::Comma(a, b) => {
                stack.extend([*a, *b])
            }
            ExprKind::Ternary(a, b, c) => stack.extend([*a, *b, *c]),
            ExprKind::Call(c) => stack.extend(c.args.iter().copied()),
            _ => {}
        }
    }
    false
}

/// Fold a template argument's text: an integer, a bound name, or one binary
/// operation of those (`N - 1`, `W / 2`, `(N >> 1)`).
pub(super) fn eval_text(
    s: &str,
    lookup: &dyn Fn(&str) -> Option<i64>,
    depth: usize,
) -> Option<i64> {
    let s = s.trim();
    if depth > 8 || s.is_empty() {
        return None;
    }
    if let Some(inner) = s.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
        return eval_text(inner, lookup, depth + 1);
    }
    if let Some(v) = super::parse_int_literal(s) {
        return Some(v);
    }
    if s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return lookup(s);
    }
    for ops in [&["+", "-"][..], &["*", "/", "%"], &["<<", ">>"]] {
        // The last top-level operator of this precedence (left-assoc).
        let bytes = s.as_bytes();
        let mut depth_p = 0i32;
        let mut best: Option<(usize, &str)> = None;
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'(' => depth_p += 1,
                b')' => depth_p -= 1,
                _ if depth_p == 0 && i > 0 => {
                    for op in ops {
                        // Bytes, not `str`: `i` may be inside a character.
                        if bytes[i..].starts_with(op.as_bytes())
                            && !(op.len() == 1 && matches!(bytes.get(i + 1), Some(b'<' | b'>')))
                            && !(op.len() == 1 && matches!(bytes[i - 1], b'<' | b'>'))
                        {
                            best = Some((i, op));
                        }
                    }
                }
                _ => {}
            }
            i += 1;
        }
        if let Some((i, op)) = best {
            let a = eval_text(&s[..i], lookup, depth + 1)?;
            let b = eval_text(&s[i + op.len()..], lookup, depth + 1)?;
            return match op {
                "+" => a.checked_add(b),
                "-" => a.checked_sub(b),
                "*" => a.checked_mul(b),
                "/" => a.checked_div(b),
                "%" => a.checked_rem(b),
                "<<" => (0..63).contains(&b).then(|| a.wrapping_shl(b as u32)),
                _ => (0..63).contains(&b).then(|| a >> b),
            };
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::eval_text;

    #[test]
    fn instances_follow_call_sites_and_stop_at_the_budget() {
        use crate::frontend::{PreprocEnv, parse};
        use crate::source::SourceFile;
        let src = "template <int W> __device__ int g(int v) { return __shfl_xor_sync(0xffffffffu, v, 1, W); }\n\
                   template <int N> __device__ int up(int v) { return up<N + 1>(__shfl_down_sync(0xffffffffu, v, N)); }\n\
                   __global__ void k(int *p) { p[0] = g<6>(p[1]) + g<6>(p[2]) + g<8>(p[3]) + up<1>(p[4]); }\n";
        let parsed = parse(SourceFile::new("t.cu", src.as_bytes())).unwrap();
        let m = crate::ir::lower_file(&parsed, &PreprocEnv::default());
        let names: Vec<&str> = m.functions.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names.iter().filter(|n| n.starts_with("g<")).count(),
            2,
            "{names:?}"
        );
        assert_eq!(
            names.iter().filter(|n| n.starts_with("up<")).count(),
            super::MAX_PER_TEMPLATE
        );
        let six = m.function("g<6>").unwrap();
        assert!(six.template_values.is_empty());
        assert!(
            six.exprs
                .iter()
                .any(|e| matches!(e.kind, crate::ir::ExprKind::Int(6)))
        );
    }

    #[test]
    fn a_kernel_template_is_analysed_as_the_instances_its_launches_state() {
        use crate::frontend::{PreprocEnv, parse_configured};
        use crate::source::SourceFile;
        let lower = |src: &str| {
            let source = SourceFile::new("t.cu", src.as_bytes());
            let env = PreprocEnv::default();
            let (parsed, _) = parse_configured(source, &env, 1_000_000).expect("parses");
            crate::ir::lower_file(&parsed, &env)
        };
        // Through a host template: each call naming its arguments is an
        // instance; a value the call does not state stays a template value.
        let m = lower(
            "template <int S, bool F, int H>
__global__ void k(int *p) {
             if constexpr (F) { p[threadIdx.x / (256 / S)] = H; }
}
             template <int S, bool F, int H = 0>
void run(int *p) { k<S, F, H><<<1, 256>>>(p); }
             template <int H>
void outer(int *p) { run<4, true, H>(p); }
             void host(int *p) {
  run<1, false>(p);
  run<4, true>(p);
}
",
        );
        let mut names: Vec<&str> = m.functions.iter().map(|f| f.name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["k<1, 0, 0>", "k<4, 1, 0>", "k<4, 1, ?>"]);
        let partial = m.function("k<4, 1, ?>").unwrap();
        assert_eq!(partial.template_values, ["H"]);
        assert_eq!(partial.template_positions, [2]);
        assert!(partial.flag_values.is_empty());
        let mut launched: Vec<&str> = m.launches.iter().map(|l| l.kernel.as_str()).collect();
        launched.sort_unstable();
        assert_eq!(launched, ["k<1, 0, 0>", "k<4, 1, 0>", "k<4, 1, ?>"]);
        // A launcher's parameter given as the block or an argument takes
        // its value in each instantiation.
        let m = lower(
            "template <int T>\n__global__ void k(int *p, int n) { p[threadIdx.x % T] = n; }\n\
             template <int T>\nvoid run(int *p) { k<T><<<1, T>>>(p, T); }\n\
             void host(int *p) {\n  run<64>(p);\n}\n",
        );
        assert_eq!(m.launches.len(), 1);
        assert_eq!(m.launches[0].block_dim, Some([64, 1, 1]));
        assert_eq!(m.launches[0].args, [None, Some(64)]);
        // A launcher also called with deduced arguments, or a launch that
        // states none of the values, leaves the template as it is.
        let m = lower(
            "template <int S>
__global__ void k(int *p) { p[threadIdx.x / S] = 0; }
             template <int S>
void run(int *p, int s) { k<S><<<1, 256>>>(p); }
             void host(int *p) {
  run<4>(p, 0);
  run(p, 0);
}
",
        );
        assert!(m.function("k").is_some(), "{:?}", m.launches);
        assert!(m.function("k<4>").is_none());
    }

    #[test]
    fn a_class_argument_binds_the_members_its_type_parameter_scopes() {
        use crate::frontend::{PreprocEnv, parse};
        use crate::source::SourceFile;
        let src = "struct Half { static constexpr int kLanes = 16; };\n\
                   template <class P> __device__ int pick(int v) {\n\
                   if ((threadIdx.x & 31) < P::kLanes) v = __shfl_xor_sync(0xffffffffu, v, 1);\n\
                   return v; }\n\
                   template <class P> __global__ void k(int *p) { if (threadIdx.x < P::kLanes) p[0] = 1; }\n\
                   __global__ void use(int *p) { p[0] = pick<Half>(p[1]); }\n\
                   void host(int *p) { k<Half><<<1, 32>>>(p); }\n";
        let parsed = parse(SourceFile::new("t.cu", src.as_bytes())).unwrap();
        let m = crate::ir::lower_file(&parsed, &PreprocEnv::default());
        let reads = |f: &crate::ir::Function, name: &str| {
            f.exprs
                .iter()
                .any(|e| matches!(&e.kind, crate::ir::ExprKind::Var(v) if v == name))
        };
        let pick = m.function("pick").unwrap();
        assert_eq!(pick.type_params, [("P".to_owned(), 0)]);
        assert!(pick.runs_as_instances, "every call names an instance");
        let half = m.function("pick<Half>").unwrap();
        assert!(reads(half, "Half::kLanes") && !reads(half, "P::kLanes"));
        assert!(half.dependent_names.is_empty() && half.constant_names.is_empty());
        assert_eq!(m.constant(half, "Half::kLanes"), Some(16));
        // The launch names the kernel's instance, in place of the template.
        assert_eq!(m.launches[0].kernel, "k<Half>");
        assert!(m.function("k").is_none());
        assert!(reads(m.function("k<Half>").unwrap(), "Half::kLanes"));
    }

    #[test]
    fn folds_template_argument_text() {
        let look = |s: &str| (s == "N").then_some(6);
        assert_eq!(eval_text("6", &look, 0), Some(6));
        assert_eq!(eval_text("N - 1", &look, 0), Some(5));
        assert_eq!(eval_text("(N >> 1)", &look, 0), Some(3));
        assert_eq!(eval_text("2 * N + 1", &look, 0), Some(13));
        assert_eq!(eval_text("float", &look, 0), None);
        assert_eq!(eval_text("M", &look, 0), None);
    }

    #[test]
    fn a_kernel_instance_reuses_the_helper_instance_an_earlier_pass_made() {
        use crate::frontend::{PreprocEnv, parse};
        use crate::source::SourceFile;
        // `tile_total<thread_block_tile<16>>` is made for the plain kernel
        // when lowering, and asked for again by `k<16>`'s call once the
        // launch has made that instance.
        let src = "template <class G> __device__ float tile_total(const G &g, float v) { return g.shfl_down(v, 1); }\n\
                   __global__ void plain(float *p) { auto t = cg::tiled_partition<16>(cg::this_thread_block()); p[0] = tile_total(t, p[1]); }\n\
                   template <int W> __global__ void k(float *p) { auto t = cg::tiled_partition<W>(cg::this_thread_block()); p[0] = tile_total(t, p[1]); }\n\
                   void host(float *p) { k<16><<<1, 64>>>(p); }\n";
        let parsed = parse(SourceFile::new("t.cu", src.as_bytes())).unwrap();
        let m = crate::ir::lower_file(&parsed, &PreprocEnv::default());
        let names: Vec<&str> = m.functions.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            (names.iter())
                .filter(|n| **n == "tile_total<thread_block_tile<16>>")
                .count(),
            1,
            "{names:?}"
        );
        // And `k<16>`'s call runs it.
        let k = m.function("k<16>").expect("the launched instance");
        let runs_it = k.own_calls().any(|(_, c)| {
            m.callee(c)
                .is_some_and(|g| m.functions[g].name == "tile_total<thread_block_tile<16>>")
        });
        assert!(runs_it, "{names:?}");
    }
}
