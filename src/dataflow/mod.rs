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

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::OnceLock;

use crate::ir::primitives::SyncthreadsMode;
use crate::ir::*;

mod converged;
mod exchange;
pub mod extents;
mod interprocedural;
pub mod lanes;
mod levels;
pub use levels::cached_load;
mod linear;
mod ranges;
mod residue;
mod slots;

use levels::{Levels, Scope};

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
    /// Inside a `switch` case, entered where the scrutinee (the guard's
    /// span) equals `value` (its span; `None` for `default:`), or from the
    /// case before it falling through.
    Case { value: Option<ByteSpan> },
    /// Some lanes left earlier through `return` (or `break`/`continue`).
    /// `ends_threads`: every exit there is a kernel's `return`, so the
    /// threads that took it have exited.
    EarlyExit { ends_threads: bool },
    /// Inside a loop whose trip count depends on the condition.
    Loop,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guard {
    pub kind: GuardKind,
    /// The condition (or the exit statement for `EarlyExit`).
    pub span: ByteSpan,
    pub level: Level,
    /// The condition is the same in every warp for each lane (see
    /// `Levels::invariant`): what it decides is too.
    pub invariant: bool,
}

/// The guards that decide who reaches a point, outermost first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Context {
    pub guards: Vec<Guard>,
}

impl Context {
    /// The most varying of its guards: how divergent code here is.
    pub fn level(&self) -> Level {
        self.guards
            .iter()
            .map(|g| g.level)
            .max()
            .unwrap_or(Level::Uniform)
    }
    /// Some lanes of a warp may not get here.
    pub fn warp_divergent(&self) -> bool {
        self.guards.iter().any(|g| g.level == Level::Varying)
    }
    /// Some threads of the block may not get here. Whole warps that left
    /// the kernel do not count: a block barrier waits for the threads that
    /// have not exited (background.md), and a warp-uniform exit takes no
    /// warp apart. Lanes of one warp that exit still count.
    pub fn block_divergent(&self) -> bool {
        self.guards.iter().any(|g| {
            g.level >= Level::Warp
                && !(g.level == Level::Warp
                    && g.kind == GuardKind::EarlyExit { ends_threads: true })
        })
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
    /// Variables only ever assigned `threadIdx.x` plus a warp-aligned
    /// offset (`tid`, `gtid`, a grid-stride index), and parameters every
    /// caller passes such a value and the body never writes: `v / 32` is
    /// per warp.
    pub thread_x_vars: HashSet<String>,
    /// Variables the same in every warp for each lane (see
    /// `Levels::invariant`): every definition's value is, under guards
    /// that are. Taken for all the body defines, then narrowed pass by pass.
    pub invariant_vars: HashSet<String>,
    /// Call arguments that are `threadIdx.x` plus a warp-aligned offset
    /// (what makes a callee's parameter one of its `thread_x_vars`).
    pub aligned_args: HashSet<ExprId>,
    /// The level of every expression, by id, under the final variable
    /// levels.
    pub expr_levels: Vec<Level>,
    /// Expressions whose value a warp exchange leaves the same in every
    /// lane (a full xor butterfly, `exchange.rs`): at most warp-varying.
    pub exchange_uniform: HashSet<ExprId>,
    /// Locals declared once with an initializer that folds and never
    /// assigned again (`const int kThreads = WARP_THREADS;`, a class's
    /// static member in a member's prelude): their value everywhere.
    pub local_constants: HashMap<String, i64>,
    /// Locals declared once and never written, and template values, whose
    /// value is a multiple of 32 for every instantiation the code's
    /// `static_assert`s admit (`residue.rs`): `threadIdx.x < kMath` splits
    /// on warp boundaries, and `(threadIdx.x - kBase) / 32` is per warp.
    pub multiples_of_32: HashSet<String>,
    /// Names and field paths the body's opening assertions state a
    /// multiple of (`assert(p.n % blockDim.x == 0)`).
    pub asserted_multiples: HashMap<String, crate::ir::asserts::Divisor>,
    /// Locals declared once with an integer type (`linear.rs`): what
    /// differences whose lane terms cancel are read through.
    pub(crate) int_locals: HashMap<String, linear::IntLocal>,
    /// How many expressions write each variable (assignments, updates,
    /// `&x`): what a block-stride loop's index may be written by.
    pub(crate) writes: HashMap<String, u32>,
    /// Every name the function declares: its locals and parameters.
    pub declared: HashSet<String>,
    /// What the lane-by-lane proof of a mask reads of the function
    /// whatever the call (`lanes.rs`), built at its first call.
    pub(crate) lane_base: OnceLock<lanes::EvalBase>,
    pub stats: FlowStats,
}

/// How much work the analysis of one function did (counted, so tests can
/// bound it without clocks).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct FlowStats {
    /// Expressions in the function.
    pub exprs: usize,
    /// Statements in the function.
    pub stmts: usize,
    /// Program-order passes run (the fixpoint over loop-carried levels).
    pub passes: u32,
    /// Expression levels combined, over all passes (each expression at
    /// most once per pass, plus once for the final table).
    pub evaluations: u64,
    /// Statements visited, over all passes.
    pub stmt_visits: u64,
    /// The fixpoint did not settle within [`MAX_PASSES`]: every variable
    /// was raised to [`Level::Varying`] instead (sound, less precise).
    pub gave_up: bool,
}

/// Passes before the fixpoint gives up and takes every variable as
/// lane-varying. Each pass raises at least one variable, and levels have
/// three values, so real code settles in two or three.
pub const MAX_PASSES: u32 = 8;

/// Restarts of the fixpoint because new thread-index variables were learned
/// (`tid` → `lane = tid & 31` → `slot = warp * 32 + lane` → …): each learns
/// one more link of such a chain, so a generated kernel with a long chain
/// needs one restart per link. Counted apart from [`MAX_PASSES`], which
/// bounds the passes after the last restart; together they bound a
/// function's passes by `(MAX_RESTARTS + 1) * MAX_PASSES`.
pub const MAX_RESTARTS: u32 = 16;

pub struct Facts {
    pub functions: Vec<FnFacts>,
    /// Per function, each guard's level when every unknown input (a
    /// parameter no visible caller passes, an undeclared name, an unknown
    /// call's result) is taken as uniform: how far the code itself *shows*
    /// the divergence, from thread indices, lane ids and shuffles. Keyed by
    /// the guard's span; see [`Facts::shown_level`]. A second run of the
    /// analysis, made only when a rule first asks (most files never do).
    shown: OnceLock<Vec<HashMap<ByteSpan, Level>>>,
    /// The same with the block's rows taken as whole warps where no launch
    /// states its width (`Assume::UniformWholeRows`): what the code shows
    /// whatever the shape. A third run, made when a rule first asks, and
    /// only for a module that reads `threadIdx.y` or `threadIdx.z`
    /// (`None` for the others, whose rows change nothing).
    shown_whole_rows: OnceLock<Option<Vec<HashMap<ByteSpan, Level>>>>,
    /// Functions that (transitively) execute masked warp primitives.
    pub uses_warp_primitives: Vec<bool>,
    /// Functions that (transitively) execute `__syncthreads()` (or another
    /// barrier of the whole block, cluster or grid).
    pub uses_block_barrier: Vec<bool>,
    /// Functions that (transitively) execute an aligned PTX named barrier
    /// with a thread count (`bar.sync 1, 128`).
    pub uses_named_barrier: Vec<bool>,
    /// Functions that (transitively) execute any PTX named barrier with a
    /// thread count (`barrier.arrive %0, %1` too).
    pub uses_any_named_barrier: Vec<bool>,
}

impl Facts {
    /// The level of guard `g` of function `function` as the code shows it
    /// (see `shown`). A divergence that rests only on unknown inputs is a
    /// speculative candidate, not evidence.
    pub fn shown_level(&self, module: &Module, function: usize, g: &Guard) -> Level {
        level_of(self.shown_guard_levels(module), function, g)
    }

    /// The level of guard `g` as the code shows it whatever the block's
    /// width (see `shown_whole_rows`): below [`Facts::shown_level`] where
    /// only rows narrower than a warp make it vary.
    pub fn shown_level_whole_rows(&self, module: &Module, function: usize, g: &Guard) -> Level {
        let levels = self.shown_whole_rows.get_or_init(|| {
            let reads_rows = (module.functions.iter()).any(|f| {
                (f.exprs.iter()).any(|e| {
                    matches!(
                        e.kind,
                        ExprKind::Builtin(Builtin::ThreadIdx(Dim::Y | Dim::Z))
                    )
                })
            });
            reads_rows.then(|| graded_guard_levels(module, Assume::UniformWholeRows))
        });
        match levels {
            Some(levels) => level_of(levels, function, g),
            None => self.shown_level(module, function, g),
        }
    }

    /// The guard levels of every function with unknown inputs taken as
    /// uniform (computed once, on first ask; `module` is the one these
    /// facts were computed for).
    pub fn shown_guard_levels(&self, module: &Module) -> &[HashMap<ByteSpan, Level>] {
        self.shown
            .get_or_init(|| graded_guard_levels(module, Assume::Uniform))
    }

    /// The work of every function's analysis, summed.
    pub fn stats(&self) -> FlowStats {
        let mut t = FlowStats::default();
        for f in &self.functions {
            t.exprs += f.stats.exprs;
            t.stmts += f.stats.stmts;
            t.passes += f.stats.passes;
            t.evaluations += f.stats.evaluations;
            t.stmt_visits += f.stats.stmt_visits;
            t.gave_up |= f.stats.gave_up;
        }
        t
    }
}

/// Guard `g`'s level in one grading (`levels`, per function), at most its
/// level in the sound analysis.
fn level_of(levels: &[HashMap<ByteSpan, Level>], function: usize, g: &Guard) -> Level {
    levels
        .get(function)
        .and_then(|levels| levels.get(&g.span))
        .copied()
        .unwrap_or(Level::Uniform)
        .min(g.level)
}

/// Every function's guard levels under a grading assumption, by span.
fn graded_guard_levels(module: &Module, assume: Assume) -> Vec<HashMap<ByteSpan, Level>> {
    interprocedural::analyze_all(module, assume)
        .into_iter()
        .map(|shown| {
            let mut levels: HashMap<ByteSpan, Level> = HashMap::default();
            for ctx in shown
                .stmt_context
                .values()
                .chain(shown.call_context.values())
            {
                for g in &ctx.guards {
                    let l = levels.entry(g.span).or_insert(Level::Uniform);
                    *l = (*l).max(g.level);
                }
            }
            levels
        })
        .collect()
}

pub fn analyze(module: &Module) -> Facts {
    let functions = interprocedural::analyze_all(module, Assume::Varying);
    // One pass over the calls: which primitives each function executes
    // itself, and who calls whom (each call's callee resolved once).
    let n = module.functions.len();
    let mut direct: Vec<[bool; 4]> = vec![[false; 4]; n];
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, f) in module.functions.iter().enumerate() {
        for (_, c) in f.own_calls() {
            if let Some(p) = Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some())
            {
                let mode = match p {
                    Primitive::Syncthreads(m) => Some(m),
                    _ => None,
                };
                let kinds = [
                    p.is_masked(),
                    mode.is_some_and(SyncthreadsMode::is_block_wide),
                    mode.is_some_and(SyncthreadsMode::is_aligned_named),
                    mode.is_some_and(|m| !m.is_block_wide()),
                ];
                for (has, kind) in direct[i].iter_mut().zip(kinds) {
                    *has |= kind;
                }
            }
            if let Some(g) = module.callee(c) {
                callers[g].push(i);
            }
        }
    }
    let closed = |k: usize| close_over_calls(&callers, direct.iter().map(|d| d[k]).collect());
    Facts {
        functions,
        shown: OnceLock::new(),
        shown_whole_rows: OnceLock::new(),
        uses_warp_primitives: closed(0),
        uses_block_barrier: closed(1),
        uses_named_barrier: closed(2),
        uses_any_named_barrier: closed(3),
    }
}

/// Propagate a per-function property to callers (`callers[g]`: the
/// functions that call `g`; bounded by the number of functions: each
/// function is marked once).
fn close_over_calls(callers: &[Vec<usize>], mut has: Vec<bool>) -> Vec<bool> {
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

/// What the analysis of a function knows of the values its callees
/// return (`None`: not known, taken as varying).
pub(crate) trait CalleeLevels {
    /// Level of what function `g` returns when its arguments are uniform.
    fn returned(&self, g: usize) -> Option<Level>;
    /// Level of what `g` returns whatever its arguments.
    fn bound(&self, g: usize) -> Option<Level>;
    /// Level of what `g` returns given arguments of these levels (a call's
    /// own, in order), where that is worth computing.
    fn in_context(&self, _g: usize, _args: &[Level]) -> Option<Level> {
        None
    }
    /// Which functions reach an aligned tensor instruction
    /// ([`converged`]), where known.
    fn converged(&self) -> Option<&converged::Table> {
        None
    }
}

/// Nothing known of any callee.
pub(crate) struct NoCallees;

impl CalleeLevels for NoCallees {
    fn returned(&self, _: usize) -> Option<Level> {
        None
    }
    fn bound(&self, _: usize) -> Option<Level> {
        None
    }
}

/// What one function's analysis starts from.
pub(crate) struct Seed<'a> {
    /// Level of each parameter, in order.
    pub params: Vec<Level>,
    /// Parameters every caller passes a thread index along x plus a
    /// warp-aligned offset (`helper(v, threadIdx.x)`): `tid / 32` is per
    /// warp in the callee too. Empty: none.
    pub aligned_params: Vec<bool>,
    /// Names visible from an enclosing function (a lambda's captures).
    pub captured: Option<&'a HashMap<String, Level>>,
    /// Those of them that name shared memory (the enclosing function's
    /// `__shared__` arrays and pointers into them).
    pub captured_shared: Option<&'a HashSet<String>>,
    /// Parameters that name shared memory (see
    /// `interprocedural::shared_params`). Empty: none.
    pub shared_params: Vec<bool>,
    /// What the callees return.
    pub callees: &'a dyn CalleeLevels,
    /// Take unknown inputs as uniform (see [`Assume`]).
    pub assume: Assume,
}

/// What an input the analysis knows nothing about is taken to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Assume {
    /// Lane-varying until shown uniform: the sound analysis every rule
    /// and the executor rely on.
    Varying,
    /// Uniform: what the code *shows* to vary (thread indices, lane ids,
    /// shuffles, loads at such addresses). Only grades evidence.
    Uniform,
    /// As `Uniform`, and a block extent no launch states taken as the
    /// benign case too: rows (`threadIdx.y`, `threadIdx.z`) are whole
    /// warps. What the code shows to vary whatever the block's width.
    UniformWholeRows,
}

impl Assume {
    /// The level of something the analysis knows nothing about.
    pub fn unknown(self) -> Level {
        match self {
            Assume::Varying => Level::Varying,
            Assume::Uniform | Assume::UniformWholeRows => Level::Uniform,
        }
    }

    /// Grading evidence (not the sound analysis).
    pub fn grades(self) -> bool {
        self != Assume::Varying
    }
}

/// Expression levels, memoized per pass, with what they need around them.
pub(crate) struct Eval<'a> {
    f: &'a Function,
    module: &'a Module,
    callees: &'a dyn CalleeLevels,
    /// Parameters and locals (they shadow file-scope names).
    declared: HashSet<String>,
    /// Arrays each thread holds its own copy of (`float acc[8];`, not
    /// `__shared__`), whose elements code writes one at a time. Objects
    /// (`Vec<float, 4> v;`) are not: a class's `v[i]` and `v.size` may be
    /// a call and a constant, not the thread's stores.
    local_arrays: HashSet<String>,
    /// `__shared__` scalars and references: reading one by name loads a
    /// value (`int chosen = pick;`).
    cells: HashSet<String>,
    /// Statements that contain an exit, by id.
    exits: Vec<bool>,
    /// Statements that contain a `break`/`continue` leaving them, by id.
    loop_exits: Vec<bool>,
    table: Levels,
    assume: Assume,
    /// Where each local is declared: how many guards and exits were in
    /// force there (the smallest over its declarations). Only the guards
    /// pushed after it can make lanes disagree on its value: every lane
    /// that can read a local ran its declaration, so a uniform assignment
    /// under the same guards is uniform among those lanes.
    decl_depth: HashMap<String, (usize, usize)>,
}

/// The guards and exits in force at a statement.
struct Control<'g> {
    guards: &'g [Guard],
    exits: &'g [Guard],
}

impl Control<'_> {
    /// The level of the control that decides whether `name` is assigned
    /// here, counted from its declaration.
    fn level_for(&self, eval: &Eval, name: &str) -> Level {
        (self.in_force(eval, name).map(|g| g.level))
            .max()
            .unwrap_or(Level::Uniform)
    }

    /// The guards and exits that decide whether `name` is assigned here,
    /// counted from its declaration.
    fn in_force<'c>(&'c self, eval: &Eval, name: &str) -> impl Iterator<Item = &'c Guard> + 'c {
        let (g, x) = eval.decl_depth.get(name).copied().unwrap_or((0, 0));
        let tail = |v: &'c [Guard], from: usize| v.get(from..).unwrap_or(&[]).iter();
        tail(self.guards, g).chain(tail(self.exits, x))
    }

    /// Whether every guard that decides whether `name` is assigned here
    /// (counted from its declaration) is the same in every warp for each
    /// lane.
    fn invariant_for(&self, eval: &Eval, name: &str) -> bool {
        (self.in_force(eval, name)).all(|g| g.invariant || g.level == Level::Uniform)
    }

    fn declare(&self, eval: &mut Eval, name: &str) {
        let here = (self.guards.len(), self.exits.len());
        eval.decl_depth
            .entry(name.to_owned())
            .and_modify(|d| *d = (d.0.min(here.0), d.1.min(here.1)))
            .or_insert(here);
    }
}

impl Eval<'_> {
    /// Run `op` on the expression table with this function's scope.
    fn with_scope<R>(&mut self, facts: &FnFacts, op: impl FnOnce(&mut Levels, &Scope) -> R) -> R {
        let scope = Scope {
            f: self.f,
            module: self.module,
            facts,
            callees: self.callees,
            assume: self.assume,
        };
        op(&mut self.table, &scope)
    }
    fn level(&mut self, facts: &FnFacts, e: ExprId) -> Level {
        self.with_scope(facts, |t, s| t.level(s, e))
    }
    /// `e`'s value where literals, bound template values and the file's
    /// constants decide it. Not the locals' constants: a local (or a
    /// field in a member's prelude) shadows a file constant, and the
    /// prelude's value of a field is not the only one it can hold.
    fn compile_time(&self, e: ExprId) -> Option<i64> {
        let lookup = |n: &str| match self.declared.contains(n) {
            true => None,
            false => self.module.constants.get(n).copied(),
        };
        crate::ir::fold::eval(self.f, e, &lookup, 0)
    }
    fn aligned(&mut self, facts: &FnFacts, e: ExprId) -> bool {
        self.with_scope(facts, |t, s| t.thread_x_aligned(s, e))
    }
    fn invariant(&mut self, facts: &FnFacts, e: ExprId) -> bool {
        self.with_scope(facts, |t, s| t.invariant(s, e))
    }
    fn offset(&mut self, facts: &FnFacts, e: ExprId) -> bool {
        self.with_scope(facts, |t, s| t.warp_aligned_offset(s, e))
    }
    fn stride_loop(
        &mut self,
        facts: &FnFacts,
        var: &str,
        start: ExprId,
        cond: ExprId,
        step: ExprId,
    ) -> Option<Level> {
        self.with_scope(facts, |t, s| t.stride_loop_level(s, var, start, cond, step))
    }
}

/// The locals `f` declares whose declaration `keep` accepts, given
/// whether it is an array, `__shared__`, a pointer and a reference.
fn locals_where<'f>(
    f: &'f Function,
    keep: impl Fn(bool, bool, bool, bool) -> bool + 'f,
) -> impl Iterator<Item = String> + 'f {
    f.stmts.iter().filter_map(move |s| match &s.kind {
        StmtKind::Decl {
            name,
            dims,
            shared,
            is_pointer,
            is_reference,
            ..
        } if keep(!dims.is_empty(), *shared, *is_pointer, *is_reference) => Some(name.clone()),
        _ => None,
    })
}

pub(crate) fn analyze_function(f: &Function, module: &Module, seed: &Seed) -> FnFacts {
    let mut facts = FnFacts {
        exchange_uniform: exchange::butterfly_results(f, module),
        ..FnFacts::default()
    };
    // Every name the function declares starts uniform and rises with what
    // is assigned to it; a name it does not declare is unknown (see
    // `levels::var_entry`) unless the enclosing function knows it.
    if let Some(outer) = seed.captured {
        facts
            .var_level
            .extend(outer.iter().map(|(k, v)| (k.clone(), *v)));
    }
    for s in &f.stmts {
        if let StmtKind::Decl { name, .. } = &s.kind {
            facts.var_level.insert(name.clone(), Level::Uniform);
        }
    }
    for (p, level) in f.params.iter().zip(&seed.params) {
        facts.var_level.insert(p.name.clone(), *level);
    }
    for t in f.compile_time_values() {
        facts.var_level.insert(t.clone(), Level::Uniform);
    }
    let declared = f
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Decl { name, .. } => Some(name.clone()),
            _ => None,
        })
        .chain(f.params.iter().map(|p| p.name.clone()))
        .collect();
    if let Some(outer) = seed.captured_shared {
        let own: &HashSet<String> = &declared;
        facts.shared_vars = outer.difference(own).cloned().collect();
    }
    for (p, _) in (f.params.iter().zip(&seed.shared_params)).filter(|(_, s)| **s) {
        facts.shared_vars.insert(p.name.clone());
    }
    facts.local_constants = local_constants(f, module);
    facts.multiples_of_32 = residue::multiples_of_32(f, module);
    facts.asserted_multiples = crate::ir::asserts::prologue_multiples(f, &module.constants);
    facts.int_locals = linear::int_locals(f);
    facts.writes = slots::write_counts(f);
    let (exits, loop_exits) = exit_flags(f);
    let mut eval = Eval {
        f,
        module,
        callees: seed.callees,
        declared,
        local_arrays: locals_where(f, |array, shared, pointer, _| array && !shared && !pointer)
            .collect(),
        cells: locals_where(f, |array, shared, pointer, reference| {
            !array && !pointer && (shared || reference)
        })
        .chain(
            f.params
                .iter()
                .filter(|p| p.is_reference && !p.is_array)
                .map(|p| p.name.clone()),
        )
        .collect(),
        exits,
        loop_exits,
        table: Levels::new(f),
        assume: seed.assume,
        decl_depth: HashMap::default(),
    };
    let aligned_params: Vec<String> = f
        .params
        .iter()
        .zip(&seed.aligned_params)
        .filter(|(_, a)| **a)
        .map(|(p, _)| p.name.clone())
        .collect();
    // Levels only rise within a pass sequence; a pass that learns new
    // thread-index variables (`tid = threadIdx.x` makes `tid / 32` per
    // warp) starts the levels again from the seed, or `warp = tid / 32`
    // would keep the level it got before `tid` was known.
    let seeded = facts.var_level.clone();
    // Every local is taken to be the same in every warp for each lane until
    // a definition shows otherwise (a greatest fixpoint: `x += v` in a loop
    // reads `x` as what the pass is deciding). Narrowing it only raises
    // levels, as the passes do.
    // Only grading evidence needs it (`levels::Levels::invariant`); the
    // sound analysis keeps every local out.
    let mut all_invariant: HashSet<String> = HashSet::default();
    if seed.assume.grades() {
        all_invariant.extend((f.stmts.iter()).filter_map(|s| match &s.kind {
            StmtKind::Decl { name, .. } if !f.params.iter().any(|p| p.name == *name) => {
                Some(name.clone())
            }
            _ => None,
        }));
    }
    facts.invariant_vars = all_invariant.clone();
    let mut restarts = 0;
    let mut passes_since_restart = 0;
    let mut previous_other_defs: HashSet<String> = HashSet::default();
    loop {
        facts.stats.passes += 1;
        passes_since_restart += 1;
        let before = facts.var_level.clone();
        let before_x = facts.thread_x_vars.clone();
        let before_invariant = facts.invariant_vars.len();
        eval.table.clear();
        // Which guards are in force where depends on this pass's levels
        // (a uniform exit pushes no guard): declarations are placed anew,
        // or a depth from an earlier pass would flip a thread-index
        // variable in and out of `thread_x_vars` and the passes would
        // never settle.
        eval.decl_depth.clear();
        let mut walk_state = WalkState {
            early: true,
            previous_other_defs: std::mem::take(&mut previous_other_defs),
            ..WalkState::default()
        };
        walk(f, &mut eval, &mut facts, &mut walk_state, Record::Levels);
        facts.thread_x_vars = walk_state.thread_x_vars();
        facts.thread_x_vars.extend(
            aligned_params
                .iter()
                .filter(|p| !walk_state.other_defs.contains(*p))
                .cloned(),
        );
        previous_other_defs = std::mem::take(&mut walk_state.other_defs);
        (facts.invariant_vars).retain(|v| !walk_state.variant_defs.contains(v));
        if before == facts.var_level
            && before_x == facts.thread_x_vars
            && before_invariant == facts.invariant_vars.len()
            && !walk_state.learned_early
        {
            // Settled: one more pass under the same levels records the
            // contexts. The table the settled pass filled holds those
            // levels (nothing rose during it), so it is kept.
            facts.stats.passes += 1;
            eval.decl_depth.clear();
            record_contexts(f, &mut eval, &mut facts);
            break;
        }
        let learned = before_x != facts.thread_x_vars;
        if passes_since_restart >= MAX_PASSES && !all_invariant.is_empty() {
            // Not settled with locals narrowing: start again without them,
            // which settles as the analysis did before it had them.
            all_invariant.clear();
            facts.invariant_vars.clear();
            facts.var_level = seeded.clone();
            passes_since_restart = 0;
            continue;
        }
        if passes_since_restart >= MAX_PASSES || (learned && restarts >= MAX_RESTARTS) {
            // Not settled: take the sound top for every variable and record
            // the contexts once more under it.
            facts.stats.gave_up = true;
            facts
                .var_level
                .values_mut()
                .for_each(|l| *l = Level::Varying);
            facts.thread_x_vars.clear();
            facts.invariant_vars.clear();
            eval.table.clear();
            record_contexts(f, &mut eval, &mut facts);
            facts
                .var_level
                .values_mut()
                .for_each(|l| *l = Level::Varying);
            break;
        }
        if learned {
            restarts += 1;
            passes_since_restart = 0;
            facts.var_level = seeded.clone();
            facts.invariant_vars = all_invariant.clone();
        }
    }
    // Giving up raised every variable after the last pass: read anew.
    if facts.stats.gave_up {
        eval.table.clear();
    }
    facts.expr_levels = (0..f.exprs.len() as ExprId)
        .map(|e| eval.level(&facts, e))
        .collect();
    let mut aligned_args = HashSet::default();
    for e in &f.exprs {
        if let ExprKind::Call(c) = &e.kind {
            for &a in &c.args {
                if eval.aligned(&facts, a) {
                    aligned_args.insert(a);
                }
            }
        }
    }
    facts.aligned_args = aligned_args;
    facts.stats.exprs = f.exprs.len();
    facts.stats.stmts = f.stmts.len();
    facts.stats.evaluations = eval.table.evaluations;
    facts.declared = eval.declared;
    facts
}

/// See [`FnFacts::local_constants`]. One pass over the statements and one
/// over the expressions; each initializer is folded once (its depth is
/// bounded by the folder).
fn local_constants(f: &Function, module: &Module) -> HashMap<String, i64> {
    let once = f.unwritten_locals();
    let params: HashSet<&str> = f.params.iter().map(|p| p.name.as_str()).collect();
    let mut out: HashMap<String, i64> = HashMap::default();
    for s in &f.stmts {
        let StmtKind::Decl {
            name,
            init: Some(e),
            is_float: false,
            ..
        } = &s.kind
        else {
            continue;
        };
        if once.get(name.as_str()) != Some(e) || params.contains(name.as_str()) {
            continue;
        }
        let lookup = |n: &str| {
            out.get(n)
                .copied()
                .or_else(|| module.constants.get(n).copied())
        };
        if let Some(v) = crate::ir::fold::eval(f, *e, &lookup, 0) {
            out.insert(name.clone(), v);
        }
    }
    out
}

/// What one pass learns besides levels.
#[derive(Default)]
struct WalkState {
    /// Variables assigned a `threadIdx.x`-aligned value somewhere…
    aligned_defs: HashSet<String>,
    /// …and those assigned anything else somewhere.
    other_defs: HashSet<String>,
    /// Those the previous pass saw assigned something not aligned. A
    /// variable aligned where it is defined, and in none of these, is
    /// taken as a thread index from there on in this pass
    /// ([`WalkState::define`]), not only from the next one.
    previous_other_defs: HashSet<String>,
    /// Whether this pass learns early (level passes do; the pass that
    /// records contexts runs under settled levels and learns nothing).
    early: bool,
    /// Set when this pass took a variable for a thread index before the
    /// pass ended: its levels rest on a set the pass changed, so it does
    /// not settle the fixpoint.
    learned_early: bool,
    /// Variables assigned, somewhere, a value that is not the same in
    /// every warp for each lane, or under a guard that is not.
    variant_defs: HashSet<String>,
}

impl WalkState {
    /// Record a definition of `name`, the same in every warp for each lane
    /// or not. One that is not is learned at once, as thread indices are
    /// ([`WalkState::define`]): chains of locals narrow in one pass.
    fn define_invariant(&mut self, facts: &mut FnFacts, name: &str, invariant: bool) {
        if !invariant {
            self.variant_defs.insert(name.to_owned());
            facts.invariant_vars.remove(name);
        }
    }

    fn thread_x_vars(&self) -> HashSet<String> {
        self.aligned_defs
            .difference(&self.other_defs)
            .cloned()
            .collect()
    }
    /// Record a definition of `name`, aligned to the thread index or not.
    ///
    /// An aligned one is learned at once: a chain `lane = tid & 31; slot =
    /// warp * 32 + lane; …` is learned in one pass, a link per definition,
    /// where learning only at the end of a pass took one restart of the
    /// fixpoint per link (generated kernels have chains of four to six:
    /// most of the dataflow's time on FlashInfer). Later reads in the pass
    /// see the variable as a thread index; earlier ones are read again in
    /// the next pass.
    fn define(&mut self, facts: &mut FnFacts, name: &str, aligned: bool) {
        if aligned {
            self.aligned_defs.insert(name.to_owned());
        } else {
            self.other_defs.insert(name.to_owned());
        }
        if self.early
            && aligned
            && !self.other_defs.contains(name)
            && !self.previous_other_defs.contains(name)
            && !facts.thread_x_vars.contains(name)
        {
            facts.thread_x_vars.insert(name.to_owned());
            self.learned_early = true;
        }
    }
}

/// Whether a pass of [`walk`] records each statement's and call's context:
/// only the last pass does, once the levels have settled (a context is a
/// copy of the guards in force, the costliest part of a pass).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Record {
    Levels,
    Contexts,
}

/// The last pass, under levels that no longer change: it records the
/// contexts.
fn record_contexts(f: &Function, eval: &mut Eval, facts: &mut FnFacts) {
    walk(f, eval, facts, &mut WalkState::default(), Record::Contexts);
}

/// One program-order pass: variable levels and provenance, and with
/// [`Record::Contexts`] the contexts.
fn walk(f: &Function, eval: &mut Eval, facts: &mut FnFacts, ws: &mut WalkState, record: Record) {
    enum Item<'f> {
        List(&'f [StmtId], usize),
        PushGuard(Guard),
        PushExit(Guard),
        PopGuard,
        /// Leaving a loop: drop `break`/`continue` exits recorded inside.
        EndLoop(usize),
        /// Entering an `else`: the exits its `then` recorded from this
        /// length on are set aside (no lane of the `else` took them)…
        HideExits(usize),
        /// …and apply again after the `if`.
        RestoreExits,
        /// Leaving an arm that always leaves: the exits it recorded from
        /// this length on decide nothing after the `if`, which only lanes
        /// that did not take the arm reach.
        DropExits(usize),
    }
    let mut guards: Vec<Guard> = Vec::new();
    // Exits by `return` stay for the rest of the function; exits by
    // break/continue are scoped to their loop (see EndLoop).
    let mut exits: Vec<Guard> = Vec::new();
    let mut hidden: Vec<Vec<Guard>> = Vec::new();
    let mut stack: Vec<Item> = vec![Item::List(&f.body, 0)];
    while let Some(item) = stack.pop() {
        match item {
            Item::PopGuard => {
                guards.pop();
            }
            Item::PushGuard(g) => guards.push(g),
            Item::PushExit(g) => exits.push(g),
            Item::EndLoop(n) => exits.truncate(n),
            Item::HideExits(n) => hidden.push(exits.split_off(n.min(exits.len()))),
            Item::RestoreExits => exits.extend(hidden.pop().unwrap_or_default()),
            Item::DropExits(n) => exits.truncate(n),
            Item::List(list, i) => {
                let Some(&sid) = list.get(i) else { continue };
                stack.push(Item::List(list, i + 1));
                facts.stats.stmt_visits += 1;
                let control = Control {
                    guards: &guards,
                    exits: &exits,
                };
                let stmt = f.stmt(sid);
                if record == Record::Contexts {
                    let ctx = Context {
                        guards: guards.iter().chain(exits.iter()).cloned().collect(),
                    };
                    let mut calls: Vec<(ExprId, Vec<Guard>)> = Vec::new();
                    for_each_call_guarded(f, stmt, eval, facts, &mut |e, extra| {
                        calls.push((e, extra))
                    });
                    for (e, extra) in calls {
                        let mut c = ctx.clone();
                        c.guards.extend(extra);
                        facts.call_context.insert(e, c);
                    }
                    facts.stmt_context.insert(sid, ctx);
                }
                match &stmt.kind {
                    StmtKind::Decl {
                        name,
                        init,
                        shared,
                        is_pointer,
                        is_reference,
                        is_float,
                        int_type,
                        ..
                    } => {
                        if *shared {
                            facts.shared_vars.insert(name.clone());
                            facts.var_level.insert(name.clone(), Level::Uniform);
                        }
                        control.declare(eval, name);
                        if let Some(e) = init {
                            initialize(name, *e, &control, eval, facts, ws);
                            let holds = if *is_pointer || *is_reference {
                                Holds::Address
                            } else if *is_float || *int_type != IntType::Other {
                                Holds::Value
                            } else {
                                Holds::Unknown
                            };
                            provenance(f, name, *e, holds, &eval.cells, facts);
                        }
                    }
                    StmtKind::Expr(e) => assignments(f, *e, &control, eval, facts, ws),
                    StmtKind::If {
                        cond,
                        then_branch,
                        else_branch,
                        constant,
                    } => {
                        // A condition that folds to a compile-time
                        // constant (`if (kExchange)` in an instance that
                        // binds it to 0): no thread runs the other arm,
                        // and nothing in it is a call site.
                        if let Some(v) = eval.compile_time(*cond) {
                            stack.push(Item::List(
                                if v != 0 { then_branch } else { else_branch },
                                0,
                            ));
                            continue;
                        }
                        // `if constexpr`: every thread takes the same arm.
                        let mut level = if *constant {
                            Level::Uniform
                        } else {
                            eval.level(facts, *cond)
                        };
                        if level == Level::Varying
                            && states_converged(f, eval, &[then_branch, else_branch])
                        {
                            level = Level::Warp;
                        }
                        let invariant = *constant || eval.invariant(facts, *cond);
                        let span = f.expr(*cond).span;
                        let exits_here =
                            contains_exit(eval, then_branch) || contains_exit(eval, else_branch);
                        if exits_here && level > Level::Uniform {
                            // Lanes that leave here are missing after the if.
                            // Whole warps leave only if whole warps get
                            // here: no lane-varying guard encloses the if.
                            let ends_threads = f.is_kernel()
                                && guards.iter().all(|g| g.level <= Level::Warp)
                                && !leaves_loop(eval, then_branch)
                                && !leaves_loop(eval, else_branch);
                            stack.push(Item::PushExit(Guard {
                                kind: GuardKind::EarlyExit { ends_threads },
                                span,
                                level,
                                invariant,
                            }));
                        }
                        // An arm that always leaves (ends in `return`,
                        // `break`, `continue`) takes its lanes away: what
                        // its inner exits split, only the arm saw. (The
                        // if's own exit guard above says who left.)
                        let n = exits.len();
                        let then_leaves = always_leaves(f, then_branch);
                        if !then_leaves {
                            stack.push(Item::RestoreExits);
                        }
                        if always_leaves(f, else_branch) {
                            stack.push(Item::DropExits(n));
                        }
                        stack.push(Item::PopGuard);
                        stack.push(Item::List(else_branch, 0));
                        stack.push(Item::PushGuard(Guard {
                            kind: GuardKind::Branch { negated: true },
                            span,
                            level,
                            invariant,
                        }));
                        stack.push(if then_leaves {
                            Item::DropExits(n)
                        } else {
                            Item::HideExits(n)
                        });
                        stack.push(Item::PopGuard);
                        stack.push(Item::List(then_branch, 0));
                        guards.push(Guard {
                            kind: GuardKind::Branch { negated: false },
                            span,
                            level,
                            invariant,
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
                                control.declare(eval, name);
                                initialize(name, *e, &control, eval, facts, ws);
                            } else if let StmtKind::Expr(e) = &f.stmt(*s).kind {
                                assignments(f, *e, &control, eval, facts, ws);
                            }
                        }
                        if let Some(st) = step {
                            assignments(f, *st, &control, eval, facts, ws);
                        }
                        // The trip count is as uniform as the condition
                        // (variables updated in the body feed it through
                        // the fixpoint) and the conditions of the exits.
                        let mut level =
                            cond.map(|c| eval.level(facts, c)).unwrap_or(Level::Uniform);
                        let mut invariant = cond.is_none_or(|c| eval.invariant(facts, c));
                        // `for (i = threadIdx.x; i < n; i += blockDim.x)`
                        // with `n` a multiple of `blockDim.x`: as many
                        // trips in every thread (`slots.rs`); with `n` and
                        // the stride multiples of 32, in every lane of a
                        // warp (`Levels::stride_loop_level`).
                        if level != Level::Uniform
                            && let ([only], Some(c), Some(st)) = (init.as_slice(), cond, step)
                            && let StmtKind::Decl {
                                name,
                                init: Some(start),
                                ..
                            } = &f.stmt(*only).kind
                            && let Some(shape) = eval.stride_loop(facts, name, *start, *c, *st)
                        {
                            level = level.min(shape);
                        }
                        if level == Level::Varying && states_converged(f, eval, &[body]) {
                            level = Level::Warp;
                        }
                        let span = cond.map(|c| f.expr(c).span).unwrap_or(stmt.span);
                        if contains_exit(eval, body) {
                            let exits = exit_level(f, body, eval, facts);
                            level = level.max(exits);
                            // Exits whose conditions are not uniform are
                            // not followed for this.
                            invariant &= exits == Level::Uniform;
                        }
                        stack.push(Item::EndLoop(exits.len()));
                        stack.push(Item::PopGuard);
                        stack.push(Item::List(body, 0));
                        guards.push(Guard {
                            kind: GuardKind::Loop,
                            span,
                            level,
                            invariant,
                        });
                    }
                    StmtKind::Switch { scrutinee, cases } => {
                        let level = eval.level(facts, *scrutinee);
                        let invariant = eval.invariant(facts, *scrutinee);
                        let span = f.expr(*scrutinee).span;
                        for c in cases.iter().rev() {
                            stack.push(Item::PopGuard);
                            stack.push(Item::List(&c.body, 0));
                            stack.push(Item::PushGuard(Guard {
                                kind: GuardKind::Case {
                                    value: c.value.map(|v| f.expr(v).span),
                                },
                                span,
                                level,
                                invariant,
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

/// An arm (or loop body) that always reaches an aligned tensor instruction
/// states that the whole warp gets there together (`converged.rs`): the
/// condition deciding it is warp-uniform, as an assertion would say.
fn states_converged(f: &Function, eval: &Eval, arms: &[&Vec<StmtId>]) -> bool {
    let Some(table) = eval.callees.converged() else {
        return false;
    };
    arms.iter()
        .any(|arm| table.list(eval.module, f, arm, &|e| eval.compile_time(e)))
}

fn raise(levels: &mut HashMap<String, Level>, name: &str, lvl: Level) {
    let e = levels.entry(name.to_owned()).or_insert(Level::Uniform);
    if lvl > *e {
        *e = lvl;
    }
}

/// Record assignment effects of expression `e` evaluated under control `ctl`.
/// `name`, just declared where `control` holds, takes initializer `e`:
/// its level (the initializer's, at least the guards'), whether it stays
/// block-aligned, and whether it is lane-invariant.
fn initialize(
    name: &str,
    e: ExprId,
    control: &Control,
    eval: &mut Eval,
    facts: &mut FnFacts,
    ws: &mut WalkState,
) {
    let ctl = control.level_for(eval, name);
    let lvl = eval.level(facts, e).max(ctl);
    raise(&mut facts.var_level, name, lvl);
    let aligned = ctl == Level::Uniform && eval.aligned(facts, e);
    ws.define(facts, name, aligned);
    let invariant = eval.invariant(facts, e) && control.invariant_for(eval, name);
    ws.define_invariant(facts, name, invariant);
}

fn assignments(
    f: &Function,
    e: ExprId,
    control: &Control,
    eval: &mut Eval,
    facts: &mut FnFacts,
    ws: &mut WalkState,
) {
    // Each node of the tree once; the cap only matters for shared nodes.
    let mut stack = vec![e];
    let mut budget = f.exprs.len();
    while let Some(id) = stack.pop() {
        if budget == 0 {
            break;
        }
        budget -= 1;
        match &f.expr(id).kind {
            ExprKind::Assign { op, lhs, rhs } => {
                if let ExprKind::Var(name) = &f.expr(*lhs).kind {
                    let ctl = control.level_for(eval, name);
                    // A shared scalar or a file-scope variable is one
                    // location for the whole block: every thread reads the
                    // same value, whoever wrote it.
                    let one_location = facts.shared_vars.contains(name)
                        || (eval.module.globals.contains(name) && !eval.declared.contains(name));
                    let lvl = if one_location {
                        Level::Uniform
                    } else {
                        eval.level(facts, *rhs).max(ctl)
                    };
                    raise(&mut facts.var_level, name, lvl);
                    // `i = tid` and `i += blockDim.x * gridDim.x` keep `i`
                    // aligned to the thread index; anything else does not.
                    let aligned = ctl == Level::Uniform
                        && match op {
                            None => eval.aligned(facts, *rhs),
                            Some(BinOp::Add | BinOp::Sub) => eval.offset(facts, *rhs),
                            Some(_) => false,
                        };
                    ws.define(facts, name, aligned);
                    let invariant = one_location
                        || (eval.invariant(facts, *rhs) && control.invariant_for(eval, name));
                    ws.define_invariant(facts, name, invariant);
                    provenance(f, name, *rhs, Holds::Unknown, &eval.cells, facts);
                } else if let Some((name, indices)) = local_element(f, *lhs, &eval.local_arrays) {
                    // `acc[i] = v`: the thread's own copy holds what it
                    // stored, where the index says.
                    let lvl = eval
                        .level(facts, *rhs)
                        .max(indices_level(eval, facts, &indices))
                        .max(control.level_for(eval, name));
                    raise(&mut facts.var_level, name, lvl);
                    let invariant = eval.invariant(facts, *rhs)
                        && indices.iter().all(|&i| eval.invariant(facts, i))
                        && control.invariant_for(eval, name);
                    ws.define_invariant(facts, name, invariant);
                } else if let Some(root) = f.store_root(*lhs)
                    && root.part
                    && root.indices.is_empty()
                    && f.object_locals.iter().any(|n| n == root.name)
                {
                    // `frag.ne = 4 + 4 * (tid % 2)`: the thread's own object
                    // (`Function::object_locals`) now holds a lane-varying
                    // field. (An element, `v[i] =
                    // …`, may be the class's `operator[]`: not followed.)
                    let name = root.name;
                    let lvl = eval.level(facts, *rhs).max(control.level_for(eval, name));
                    raise(&mut facts.var_level, name, lvl);
                    let invariant =
                        eval.invariant(facts, *rhs) && control.invariant_for(eval, name);
                    ws.define_invariant(facts, name, invariant);
                }
                stack.push(*rhs);
            }
            ExprKind::Update { target, .. } => {
                if let ExprKind::Var(name) = &f.expr(*target).kind {
                    let ctl = control.level_for(eval, name);
                    raise(&mut facts.var_level, name, ctl);
                    ws.define(facts, name, false);
                    let invariant = control.invariant_for(eval, name);
                    ws.define_invariant(facts, name, invariant);
                } else if let Some((name, indices)) = local_element(f, *target, &eval.local_arrays)
                {
                    let lvl =
                        indices_level(eval, facts, &indices).max(control.level_for(eval, name));
                    raise(&mut facts.var_level, name, lvl);
                    let invariant = indices.iter().all(|&i| eval.invariant(facts, i))
                        && control.invariant_for(eval, name);
                    ws.define_invariant(facts, name, invariant);
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

/// `a[i][j]` or `a[i].x` whose root is one of `locals`: the root's name
/// and the index expressions on the way.
fn local_element<'f>(
    f: &'f Function,
    e: ExprId,
    locals: &HashSet<String>,
) -> Option<(&'f str, Vec<ExprId>)> {
    let root = f.store_root(e)?;
    locals
        .contains(root.name)
        .then_some((root.name, root.indices))
}

fn indices_level(eval: &mut Eval, facts: &FnFacts, indices: &[ExprId]) -> Level {
    indices
        .iter()
        .map(|i| eval.level(facts, *i))
        .max()
        .unwrap_or(Level::Uniform)
}

/// What a declared name holds, as its declaration says.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Holds {
    /// A pointer or a reference: it may name shared memory.
    Address,
    /// A built-in number: loaded from shared memory, the thread's own
    /// copy (computed from a shared address, as PTX code keeps one, it
    /// still names shared memory).
    Value,
    /// `auto` or a class: as its initializer looks.
    Unknown,
}

fn provenance(
    f: &Function,
    name: &str,
    e: ExprId,
    holds: Holds,
    cells: &HashSet<String>,
    facts: &mut FnFacts,
) {
    if mentions_call(f, e, &["__match_any_sync", "__match_all_sync"])
        || mentions_var(f, e, &facts.group_vars)
    {
        facts.group_vars.insert(name.to_owned());
    } else if mentions_call(f, e, &["__activemask"]) || mentions_var(f, e, &facts.activemask_vars) {
        facts.activemask_vars.insert(name.to_owned());
    }
    // `float *row = tile[w]` and `int& pick = storage.pick` name shared
    // memory; `float x = s[i]` and `int x = storage.pick` are values loaded
    // from it, which the thread may then change alone.
    let shared_name =
        |x: ExprId| matches!(&f.expr(x).kind, ExprKind::Var(v) if facts.shared_vars.contains(v));
    // A number is loaded from any element or field (`s.rows[i].len`), or
    // from a shared scalar read by name.
    let number_loaded = holds == Holds::Value
        && match &f.expr(e).kind {
            ExprKind::Var(v) => cells.contains(v) && facts.shared_vars.contains(v),
            _ => f
                .store_root(e)
                .is_some_and(|r| r.part && facts.shared_vars.contains(r.name)),
        };
    let loaded = number_loaded
        || mentions_index_load(f, e, &facts.shared_vars)
        || matches!(&f.expr(e).kind, ExprKind::Member(b, _) if shared_name(*b));
    let names_shared = holds == Holds::Address || !loaded;
    if names_shared && mentions_var(f, e, &facts.shared_vars) {
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
    k.children()
}

/// Every call expression directly inside statement `s`, with the guards
/// that conditional evaluation adds inside the expression (`c ? a : b`,
/// `x && f()`). Guards are kept as a tree of parent links, so the walk is
/// linear in the expression's size; a call's chain is copied only for it.
fn for_each_call_guarded(
    f: &Function,
    s: &Stmt,
    eval: &mut Eval,
    facts: &FnFacts,
    visit: &mut dyn FnMut(ExprId, Vec<Guard>),
) {
    // (guard, index of the enclosing guard in `chain`)
    let mut chain: Vec<(Guard, Option<usize>)> = Vec::new();
    let push = |chain: &mut Vec<(Guard, Option<usize>)>,
                eval: &mut Eval,
                c: ExprId,
                negated: bool,
                parent: Option<usize>| {
        chain.push((
            Guard {
                kind: GuardKind::Branch { negated },
                span: f.expr(c).span,
                level: eval.level(facts, c),
                invariant: eval.invariant(facts, c),
            },
            parent,
        ));
        Some(chain.len() - 1)
    };
    for r in stmt_exprs(s) {
        let mut stack: Vec<(ExprId, Option<usize>)> = vec![(r, None)];
        let mut budget = f.exprs.len();
        while let Some((id, gs)) = stack.pop() {
            if budget == 0 {
                break;
            }
            budget -= 1;
            let k = &f.expr(id).kind;
            if matches!(k, ExprKind::Call(c) if !crate::ir::primitives::is_asm_value(&c.name)) {
                let mut guards = Vec::new();
                let mut at = gs;
                while let Some(i) = at {
                    guards.push(chain[i].0.clone());
                    at = chain[i].1;
                }
                guards.reverse();
                visit(id, guards);
            }
            match k {
                ExprKind::Ternary(c, a, b) => {
                    stack.push((*c, gs));
                    let ga = push(&mut chain, eval, *c, false, gs);
                    stack.push((*a, ga));
                    let gb = push(&mut chain, eval, *c, true, gs);
                    stack.push((*b, gb));
                }
                ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                    stack.push((*a, gs));
                    let gb = push(&mut chain, eval, *a, *op == BinOp::Or, gs);
                    stack.push((*b, gb));
                }
                _ => {
                    for c in children(k) {
                        stack.push((c, gs));
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
        StmtKind::Return(Some(e)) | StmtKind::Assume(e) => vec![*e],
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
    // A tree has at most `exprs.len()` nodes; the cap only stops shared
    // nodes from being walked twice over.
    let mut stack: Vec<ExprId> = roots.to_vec();
    let mut seen = 0;
    while let Some(id) = stack.pop() {
        seen += 1;
        if seen > f.exprs.len() + roots.len() {
            return;
        }
        let k = &f.expr(id).kind;
        if visit(id, k) {
            return;
        }
        stack.extend(children(k));
    }
}

/// For every statement: does it contain `return` (or break/continue)
/// anywhere, and does it contain a break/continue that leaves it?
/// Computed once per function, children before parents.
fn exit_flags(f: &Function) -> (Vec<bool>, Vec<bool>) {
    // A branch that traps aborts the grid: its exits are nobody's.
    let live = |list: &Vec<StmtId>| -> Vec<StmtId> {
        if aborts(f, list) {
            Vec::new()
        } else {
            list.clone()
        }
    };
    let nested = |s: StmtId| -> Vec<StmtId> {
        match &f.stmt(s).kind {
            StmtKind::If {
                then_branch,
                else_branch,
                ..
            } => live(then_branch)
                .into_iter()
                .chain(live(else_branch))
                .collect(),
            StmtKind::Block(b) => live(b),
            StmtKind::Loop { body, .. } => body.clone(),
            StmtKind::Switch { cases, .. } => {
                cases.iter().flat_map(|c| c.body.iter().copied()).collect()
            }
            _ => Vec::new(),
        }
    };
    // Per statement: (returns, breaks, continues) that leave it. A `break`
    // inside a nested loop or switch is that construct's own, and a
    // `continue` inside a nested loop; `return` leaves every level.
    let mut flag: Vec<Option<(bool, bool, bool)>> = vec![None; f.stmts.len()];
    for root in 0..f.stmts.len() as StmtId {
        let mut stack = vec![(root, false)];
        while let Some((s, expanded)) = stack.pop() {
            if flag[s as usize].is_some() {
                continue;
            }
            let kids = nested(s);
            if !expanded {
                stack.push((s, true));
                stack.extend(
                    kids.iter()
                        .filter(|k| flag[**k as usize].is_none())
                        .map(|k| (*k, false)),
                );
                continue;
            }
            let kind = &f.stmt(s).kind;
            let mut out = (
                matches!(kind, StmtKind::Return(_)),
                matches!(kind, StmtKind::Break),
                matches!(kind, StmtKind::Continue),
            );
            for k in &kids {
                // A child still unset sits on a cycle (malformed IR): say yes.
                let (r, b, c) = flag[*k as usize].unwrap_or((true, true, true));
                out = (out.0 || r, out.1 || b, out.2 || c);
            }
            match kind {
                StmtKind::Loop { .. } => out = (out.0, false, false),
                StmtKind::Switch { .. } => out.1 = false,
                _ => {}
            }
            flag[s as usize] = Some(out);
        }
    }
    let exits = flag
        .iter()
        .map(|b| b.is_none_or(|(r, b, c)| r || b || c))
        .collect();
    let loop_exits = flag
        .iter()
        .map(|b| b.is_none_or(|(_, b, c)| b || c))
        .collect();
    (exits, loop_exits)
}

/// Does a statement list leave an enclosing loop (`break`/`continue`)?
/// Such lanes stay alive, unlike those that return from a kernel.
fn leaves_loop(eval: &Eval, list: &[StmtId]) -> bool {
    !aborts(eval.f, list) && list.iter().any(|s| eval.loop_exits[*s as usize])
}

/// Does a statement list contain `return` (or break/continue) anywhere?
/// Not if it traps: lanes that get there abort the whole grid.
fn contains_exit(eval: &Eval, list: &[StmtId]) -> bool {
    !aborts(eval.f, list) && list.iter().any(|s| eval.exits[*s as usize])
}

/// Does every path through `list` leave it by `return`, `break`,
/// `continue` or a trap? Its last statement does, or is a block that
/// does, or an `if` whose arms both do (walked without recursion).
fn always_leaves(f: &Function, list: &[StmtId]) -> bool {
    let mut work: Vec<&[StmtId]> = vec![list];
    while let Some(l) = work.pop() {
        let Some(&last) = l.last() else {
            return false;
        };
        match &f.stmt(last).kind {
            StmtKind::Return(_) | StmtKind::Break | StmtKind::Continue | StmtKind::Abort => {}
            StmtKind::Block(inner) => work.push(inner),
            StmtKind::If {
                then_branch,
                else_branch,
                ..
            } => {
                work.push(then_branch);
                work.push(else_branch);
            }
            _ => return false,
        }
        if work.len() > f.stmts.len() {
            return false;
        }
    }
    true
}

/// A statement list that traps (`__trap()`, `asm("trap;")`) directly.
fn aborts(f: &Function, list: &[StmtId]) -> bool {
    list.iter()
        .any(|s| matches!(f.stmt(*s).kind, StmtKind::Abort))
}

/// The level of the conditions guarding exits inside a loop body.
fn exit_level(f: &Function, body: &[StmtId], eval: &mut Eval, facts: &FnFacts) -> Level {
    let mut level = Level::Uniform;
    let mut stack: Vec<StmtId> = body.to_vec();
    let mut seen = 0;
    while let Some(s) = stack.pop() {
        seen += 1;
        if seen > f.stmts.len() + body.len() {
            break;
        }
        match &f.stmt(s).kind {
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
                constant,
            } => {
                if !constant
                    && (contains_exit(eval, then_branch) || contains_exit(eval, else_branch))
                {
                    level = level.max(eval.level(facts, *cond));
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

/// The uniformity level of an expression, from the function's final table
/// (`facts` must be the facts of `f`).
pub fn expr_level(f: &Function, e: ExprId, facts: &FnFacts, module: &Module) -> Level {
    if let Some(l) = facts.expr_levels.get(e as usize) {
        return *l;
    }
    // Facts built by hand (tests): compute without callee summaries.
    let scope = Scope {
        f,
        module,
        facts,
        callees: &NoCallees,
        assume: Assume::Varying,
    };
    Levels::new(f).level(&scope, e)
}

/// The uniformity level of a variable of `f` (a name `f` does not know is
/// unknown, hence lane-varying, unless it is a file constant or global).
pub fn var_level(name: &str, facts: &FnFacts, module: &Module) -> Level {
    match facts.var_level.get(name) {
        Some(l) => *l,
        None if module.constants.contains_key(name) || module.globals.contains(name) => {
            Level::Uniform
        }
        None => Level::Varying,
    }
}

/// Names that say a value is per lane or per thread (`lane`, `lane_id`,
/// `tid`, `thread_idx`, …).
pub fn lane_like(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.contains("lane") || n.contains("tid") || n.contains("thread")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The level of local `name` in the first function of `src`.
    fn level_of(src: &str, name: &str) -> Level {
        let source = crate::source::SourceFile::new("t.cu", src.as_bytes());
        let parsed = crate::frontend::parse(source).expect("parses");
        let module = crate::ir::lower_file(&parsed, &crate::frontend::PreprocEnv::default());
        let facts = analyze(&module);
        facts.functions[0].var_level[name]
    }

    /// The level of variable `name` in the function `function` of `src`.
    fn level_in(src: &str, function: &str, name: &str) -> Level {
        let source = crate::source::SourceFile::new("t.cu", src.as_bytes());
        let parsed = crate::frontend::parse(source).expect("parses");
        let module = crate::ir::lower_file(&parsed, &crate::frontend::PreprocEnv::default());
        let facts = analyze(&module);
        let i = module
            .functions
            .iter()
            .position(|f| f.name == function)
            .expect("function");
        facts.functions[i]
            .var_level
            .get(name)
            .copied()
            .unwrap_or(Level::Varying)
    }

    #[test]
    fn class_state_takes_what_members_write_where_they_are_called() {
        // `refill` writes `end` from a per-block value; how `run` calls it
        // decides whether `run` reads it as uniform.
        let src = |call: &str, value: &str| {
            format!(
                "struct Q {{\n  int *p; int end;\n\
                 __device__ Q(int *p) : p(p) {{}}\n\
                 __device__ void refill() {{ end = {value}; }}\n\
                 __device__ void run() {{ {call}; int e = end; p[e] = 0; }}\n}};\n\
                 __global__ void k(int *p) {{ Q q(p); q.run(); }}\n"
            )
        };
        let level = |call: &str, value: &str| level_in(&src(call, value), "run", "e");
        assert_eq!(level("refill()", "blockIdx.x"), Level::Uniform);
        assert_eq!(level("refill()", "threadIdx.x"), Level::Varying);
        // Written by only some lanes: the field differs between lanes.
        assert_eq!(
            level("if (threadIdx.x % 32 < 4) refill()", "blockIdx.x"),
            Level::Varying
        );
        // A member no call reaches may be called from anywhere.
        let uncalled = "struct Q {\n  int *p; int end;\n\
             __device__ Q(int *p) : p(p) {}\n\
             __device__ void refill() { end = blockIdx.x; }\n\
             __device__ void run() { int e = end; p[e] = 0; }\n};\n\
             __global__ void k(int *p) { Q q(p); q.run(); }\n";
        assert_eq!(level_in(uncalled, "run", "e"), Level::Varying);
    }

    #[test]
    fn a_comparison_that_cuts_only_at_block_slots_is_uniform() {
        let level = |bounds: &str, cond: &str| {
            level_of(
                &format!(
                    "__global__ {bounds} void k(int *o, int n) {{
                    const int t = threadIdx.x;
                    const int col = blockIdx.y * 128 + t;
                    bool c = {cond}; o[t] = c; }}"
                ),
                "c",
            )
        };
        let bounded = "__launch_bounds__(128)";
        for cond in [
            "col < 4096",
            "col >= 128 * n",
            "4096 > col",
            "col <= 4095",
            "t < 128",
        ] {
            assert_eq!(level(bounded, cond), Level::Uniform, "{cond}");
        }
        for (bounds, cond) in [
            // A bound that is not a multiple of the tile, or not stated.
            (bounded, "col < 4000"),
            (bounded, "col < n"),
            (bounded, "col <= 4096"),
            // Wider blocks than the tile: a tile is cut inside a block.
            ("__launch_bounds__(256)", "col < 4096"),
            ("", "col < 4096"),
            (bounded, "blockIdx.x * 64 + t < 256"),
            // The thread index enters twice, or subtracted.
            (bounded, "col + t < 4096"),
            (bounded, "128 * blockIdx.y - t < 4096"),
        ] {
            assert_ne!(level(bounds, cond), Level::Uniform, "{bounds} {cond}");
        }
    }

    #[test]
    fn a_block_stride_loop_over_a_multiple_of_the_stride_is_uniform() {
        // The loop's level is what a variable assigned in its body gets.
        let level = |bound: &str, step: &str| {
            level_of(
                &format!(
                    "__global__ void f(int *o, int n) {{
                    const int m = ((n + blockDim.x - 1) / blockDim.x) * blockDim.x;
                    int seen = 0;
                    for (int i = threadIdx.x; i < {bound}; {step}) seen = 1;
                    o[0] = seen; }}"
                ),
                "seen",
            )
        };
        assert_eq!(level("m", "i += blockDim.x"), Level::Uniform);
        assert_eq!(level("4 * blockDim.x", "i += blockDim.x"), Level::Uniform);
        assert_eq!(level("n", "i += blockDim.x"), Level::Varying);
        // Any stride of whole blocks: `t + 2kB < mB` holds for every
        // thread `t < B` of the block or for none.
        assert_eq!(level("m", "i += 2 * blockDim.x"), Level::Uniform);
        assert_eq!(level("m", "i += blockDim.x * gridDim.x"), Level::Uniform);
        assert_eq!(level("m", "i += blockDim.x / 2"), Level::Varying);
        assert_eq!(level("m", "i += blockDim.x, i += 1"), Level::Varying);
    }

    #[test]
    fn a_difference_whose_lane_terms_cancel_is_per_warp() {
        let head = "__global__ void k(const int *t, int *o) {
            const int lane = threadIdx.x % 32;
            int tile = t[blockIdx.x];
            int half = __shfl_sync(0xffffffff, lane / 16, 0);
            int row = half % 2 * 32 + lane;";
        let level = |body: &str| level_of(&format!("{head} {body} o[lane] = d; }}"), "d");
        assert_eq!(
            level("int in_req = tile * 128 + row; int d = in_req - row;"),
            Level::Warp
        );
        assert_eq!(
            level("int in_req = (tile << 7) + 3 * threadIdx.x; int d = in_req - threadIdx.x * 3;"),
            Level::Uniform
        );
        // The lane terms differ.
        assert_eq!(
            level("int in_req = tile * 128 + row; int d = in_req - lane * 2;"),
            Level::Varying
        );
        // A byte keeps the sum modulo 256 only; a cast may narrow it; a
        // 64-bit or `auto` local, or one written again, is not read.
        for body in [
            "unsigned char in_req = tile * 128 + lane * 16; int d = in_req - lane * 16;",
            "int in_req = (unsigned char)(tile * 128 + lane * 16); int d = in_req - lane * 16;",
            "long in_req = tile * 128 + row; int d = in_req - row;",
            "int in_req = tile * 128 + lane * 5L; int d = in_req - lane * 5L;",
            "auto in_req = tile * 128 + row; int d = in_req - row;",
            "int in_req = tile * 128 + row; in_req += lane; int d = in_req - row;",
        ] {
            assert_eq!(level(body), Level::Varying, "{body}");
        }
    }

    #[test]
    fn a_lane_index_inside_a_loop_with_an_early_return_settles() {
        // The early return's guard exists only once `start` is known to
        // vary by warp; `lane` must stay a thread-index variable across
        // passes, or the fixpoint oscillates and gives up (all varying).
        let src = "__device__ bool walk(int first, int count, int end, int *o) {
            int start = first;
            int total = __shfl_sync(0xffffffff, end, 31);
            while (total <= end) {
                start += 32;
                if (start > count) return false;
                int lane = threadIdx.x % 32;
                o[lane] = start + lane;
                for (int i = 1; i < 32; i <<= 1) {
                    int v = __shfl_up_sync(0xffffffff, o[lane], i);
                    if (lane >= i) o[lane] += v;
                }
                total += __shfl_sync(0xffffffff, o[lane], 31);
            }
            return true;
        }";
        let source = crate::source::SourceFile::new("t.cu", src.as_bytes());
        let parsed = crate::frontend::parse(source).expect("parses");
        let module = crate::ir::lower_file(&parsed, &crate::frontend::PreprocEnv::default());
        let facts = analyze(&module);
        let f = &facts.functions[0];
        assert!(!f.stats.gave_up, "{:?}", f.stats);
        assert!(f.thread_x_vars.contains("lane"));
        // Only `lane >= i` varies within a warp; the loop and the return
        // are per warp.
        let varying: Vec<&str> = facts.shown_guard_levels(&module)[0]
            .iter()
            .filter(|(_, l)| **l == Level::Varying)
            .map(|(span, _)| &src[span.0..span.1])
            .collect();
        assert_eq!(varying, ["lane >= i"]);
    }

    #[test]
    fn a_chain_of_thread_index_variables_is_learned_in_one_pass() {
        // Each link is a thread index only once the one before it is; the
        // warp of the last is per warp. Learned a link per pass, this took
        // a restart per link (eight passes); learned where each is defined,
        // one pass learns them all, and after one restart (levels read
        // before a link was known start again) two settle and record.
        let src = "__global__ void k(int *o) {
            int t0 = threadIdx.x;
            int t1 = t0 + 32;
            int t2 = t1 + 64;
            int t3 = t2 - 32;
            int t4 = t3 + 128;
            int w = t4 / 32;
            o[w] = 0;
        }";
        let source = crate::source::SourceFile::new("t.cu", src.as_bytes());
        let parsed = crate::frontend::parse(source).expect("parses");
        let module = crate::ir::lower_file(&parsed, &crate::frontend::PreprocEnv::default());
        let f = &analyze(&module).functions[0];
        assert_eq!(f.var_level["w"], Level::Warp);
        for t in ["t0", "t1", "t2", "t3", "t4"] {
            assert!(f.thread_x_vars.contains(t), "{t}");
        }
        assert!(!f.stats.gave_up);
        assert!(f.stats.passes <= 4, "{:?}", f.stats);
    }

    #[test]
    fn a_thread_index_redefined_later_is_not_learned_early() {
        // `t` is aligned where it is declared, and the loop reassigns it
        // with a load, which its next iteration's `t / 32` reads: not a
        // thread index, so `w` varies. (The early learning takes `t` for
        // one in the first pass; the definition after the read undoes it.)
        let src = "__global__ void k(int *o, int *p) {
            int t = threadIdx.x;
            for (int i = 0; i < 4; i++) {
                int w = t / 32;
                o[w] = 0;
                t = p[t];
            }
        }";
        assert_eq!(level_of(src, "w"), Level::Varying);
    }

    #[test]
    fn a_local_declared_under_a_varying_branch_is_uniform_among_its_lanes() {
        let src = "__global__ void k(int *o, int n) {
            if (threadIdx.x < n) {
                for (int off = 16; off > 0; off >>= 1) o[off] = 0;
            }
        }";
        assert_eq!(level_of(src, "off"), Level::Uniform);
    }

    #[test]
    fn a_local_assigned_under_a_branch_after_its_declaration_varies() {
        let src = "__global__ void k(int *o, int n) {
            int s = 0;
            if (threadIdx.x < n) s = 1;
            o[0] = s;
        }";
        assert_eq!(level_of(src, "s"), Level::Varying);
    }

    #[test]
    fn a_local_declared_in_a_loop_and_assigned_after_a_varying_continue_varies() {
        let src = "__global__ void k(int *o, int n) {
            int acc = 0;
            for (int i = 0; i < n; ++i) {
                if (threadIdx.x == i) continue;
                acc += 1;
            }
            o[0] = acc;
        }";
        assert_eq!(level_of(src, "acc"), Level::Varying);
        assert_eq!(level_of(src, "i"), Level::Uniform);
    }
}
