//! The SIMT interpreter: runs a function for the lanes of one warp in the
//! canonical converged order (divergent arms one after the other, each with
//! its own active mask), recording every collective with the lanes that
//! executed it. Independent thread scheduling is then judged from the trace
//! (see `check.rs`): a lane named in a mask that is not among the arrivals,
//! not exited and not arriving at a matching primitive in a sibling arm can
//! be anywhere else under ITS.
//!
//! Statements run on an explicit work stack; only `__device__` calls recurse,
//! bounded by the call-depth budget.

use rustc_hash::FxHashMap as HashMap;

mod choice;
mod collective;
mod ops;

use ops::{binary, builtin_call, partition, unary, unknown_of};

use super::trace::{Access, Barrier, Collective, Site, Trace};
use super::value::{Ptr, Space, Val, lane_input, memory_contents};
use crate::budgets::Budgets;
use crate::ir::fold::{apply_binop, bit_not};
use crate::ir::primitives::{ReduceOp, ShflMode, VoteMode};
use crate::ir::*;

pub type Lanes = [Val; 32];

/// How `__activemask()` answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schedule {
    /// Every lane that executes together is converged.
    Converged,
    /// The scheduler has split the warp into groups of `n` lanes.
    Split(u32),
}

/// Everything that defines one run.
#[derive(Debug, Clone)]
pub struct RunConfig {
    pub block_dim: [u32; 3],
    pub block_idx: [u32; 3],
    pub grid_dim: [u32; 3],
    pub warp: u32,
    /// Values for integer parameters and template values, by name.
    pub inputs: rustc_hash::FxHashMap<String, i64>,
    pub schedule: Schedule,
    /// Picks outcomes of branches the executor cannot decide.
    pub seed: u32,
    pub budgets: Budgets,
    /// Inputs the plan picked (not fixed by a launch site or a default):
    /// a run that reads one is not exact.
    pub chosen_inputs: rustc_hash::FxHashSet<String>,
    /// Memory nobody wrote reads as an unknown per-lane value instead of
    /// seeded contents, and `blockIdx` reads are recorded instead of
    /// counted as chosen: the setup that can prove a finding absent.
    pub symbolic: bool,
    /// The run that keeps the warp together where a choice can: an unknown
    /// compared with the lanes' values takes a value past every lane's (a
    /// bound larger than every index) instead of one that splits them. A
    /// claim about lanes a mask leaves out needs it: a run that splits the
    /// warp leaves them behind. (A branch on a value that differs between
    /// lanes and that the run cannot compute is still guessed per lane.)
    pub whole_warp: bool,
    /// Steps the file's budget still allows this run; the run stops
    /// there, incomplete, like at `max_steps`.
    pub allowance: Allowance,
}

/// What is left of a budget shared by the runs of a file (the file's own,
/// or the share of it that speculative candidates may spend), and its name
/// for the reason a run gives when it runs out.
#[derive(Debug, Clone, Default)]
pub struct Allowance {
    pub steps: u64,
    /// "the executor's budget for this file (1500000 steps)".
    pub budget: std::sync::Arc<str>,
}

impl Allowance {
    /// What is left of it once `spent` steps have run.
    pub fn after(&self, spent: u64) -> Allowance {
        Allowance {
            steps: self.steps.saturating_sub(spent),
            budget: std::sync::Arc::clone(&self.budget),
        }
    }
}

struct SharedArray {
    dims: Vec<i64>,
    data: HashMap<i64, Val>,
}

/// An array each lane holds its own copy of: lane `l`'s elements are
/// `data[l * elements ..][.. elements]`, so an element's offset names its
/// lane (a lane reads and writes only its own copy).
struct LocalArray {
    dims: Vec<i64>,
    elements: i64,
    data: Vec<Val>,
}

/// Where a shared-memory access happens, as a trace records it.
struct AccessSite {
    /// [`Machine::chain_generation`] when it was computed.
    generation: u64,
    function: usize,
    expr: ExprId,
    /// The call chain down to `expr`.
    chain: std::sync::Arc<[Site]>,
    line: usize,
}

struct Activation<'m> {
    f: &'m Function,
    fidx: usize,
    vars: HashMap<String, Lanes>,
    /// Field paths of unwritten locals and parameters whose value a split
    /// chose (`choice.rs`): later reads in this call see the same value.
    fields: HashMap<String, Val>,
    /// Expressions with one value per call whose value a split chose and
    /// could not carry back to a name (`choice.rs`).
    chosen: Vec<(ExprId, Val)>,
    /// Comparisons (by left operand) no single name's value splits
    /// (`choice::split_inside`): not tried again in this call.
    no_split: Vec<ExprId>,
    returned: u32,
    ret: Lanes,
    loops: Vec<LoopState>,
}

#[derive(Clone, Copy)]
struct LoopState {
    broke: u32,
    continued: u32,
    is_switch: bool,
}

enum Work<'m> {
    Seq {
        list: &'m [StmtId],
        pos: usize,
        mask: u32,
    },
    Loop {
        stmt: StmtId,
        live: u32,
        iter: u32,
        after_body: bool,
    },
    Arm {
        region: u32,
        arm: u16,
        /// Lanes of the other arms, and where they are meanwhile.
        others: u32,
        line: usize,
    },
    EndRegion,
    PopLoop,
}

/// Nesting of expression evaluation (calls into `__device__` functions
/// included) before a run gives up, so the finding is unverified: each
/// level holds per-lane arrays on the native stack (about 20 KiB in a debug
/// build), and worker threads have 2 MiB.
pub const MAX_EVAL_DEPTH: u32 = 64;

/// Elements of thread-local arrays one run models, over all lanes and
/// arrays (6 MB of values); past it, further arrays' elements are unknown.
const MAX_LOCAL_SLOTS: usize = 1 << 18;
/// Elements of one thread-local array the run models (register fragments
/// are far smaller); a larger array, or one whose extent the run cannot
/// compute, holds unknown elements.
const MAX_LOCAL_ELEMENTS: i64 = 256;

pub struct Machine<'m> {
    /// Expressions being evaluated, innermost last (see [`MAX_EVAL_DEPTH`]).
    eval_depth: u32,
    module: &'m Module,
    cfg: &'m RunConfig,
    pub trace: Trace,
    present: u32,
    exited: u32,
    time: u64,
    shared: Vec<SharedArray>,
    /// Arrays a thread declares for itself (`float acc[8];`), by
    /// declaration.
    locals: Vec<LocalArray>,
    local_ids: HashMap<(usize, StmtId), u16>,
    /// What each loop cut by the budget writes (`loop_writes`), by loop.
    loop_writes: HashMap<(usize, StmtId), Vec<(&'m str, bool)>>,
    /// Elements of `locals`, over all lanes (at most `MAX_LOCAL_SLOTS`).
    local_slots: usize,
    regions: Vec<(u32, u16)>,
    next_region: u32,
    whereabouts: [Option<(usize, &'static str)>; 32],
    chain: Vec<Site>,
    /// Bumped whenever `chain` changes, so that [`Self::access_site`] can
    /// tell its memo is still the current chain.
    chain_generation: u64,
    /// The last shared-memory access site: one expression accesses memory
    /// once per lane.
    access_memo: Option<AccessSite>,
    depth: u32,
    source: &'m crate::source::SourceFile,
    abort: bool,
    current_fn: usize,
    /// `__shared__ T name;` scalars, by name → shared array index.
    shared_scalars: HashMap<String, u16>,
    /// Values the run chose for names nothing in view declares
    /// (`choice::Leaf::Global`): one per run, whatever call reads them.
    globals: rustc_hash::FxHashMap<String, Val>,
    /// For a lambda passed to a function whose copy runs it
    /// (`Function::bound_lambdas`): the names of the caller that passed it,
    /// as the lambda sees and writes them while that copy runs.
    closures: HashMap<usize, HashMap<String, Lanes>>,
    /// Legacy (maskless) calls executed: (site chain, active, alive lanes).
    pub legacy: Vec<(Vec<Site>, u32, u32, usize)>,
    /// Names of the root's inputs whose values the plan chose.
    root_inputs: Vec<String>,
    /// Each function's locals with one definition (`unwritten_locals`),
    /// computed when a split first asks.
    one_definition: HashMap<usize, rustc_hash::FxHashMap<&'m str, ExprId>>,
    /// Each function's names with one value per call
    /// (`choice::FixedNames`), computed when a split first asks.
    fixed_names: HashMap<usize, choice::FixedNames>,
}

const FULL: u32 = 0xffff_ffff;

/// Iterations a loop with an unknown condition is assumed to run.
const UNKNOWN_LOOP_TRIPS: u32 = 2;

fn is_comparison(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
    )
}

fn lanes_of(mask: u32) -> impl Iterator<Item = usize> {
    (0..32usize).filter(move |l| mask >> l & 1 == 1)
}

/// The variables the loop `stmt` assigns (the expressions within its
/// span), each with whether it is an element or field (`a[i] = …`) rather
/// than the variable itself.
fn loop_writes(f: &Function, stmt: StmtId) -> Vec<(&str, bool)> {
    let (lo, hi) = f.stmt(stmt).span;
    let mut out: Vec<(&str, bool)> = f
        .exprs
        .iter()
        .filter(|e| e.span.0 >= lo && e.span.1 <= hi)
        .filter_map(|e| match &e.kind {
            ExprKind::Assign { lhs: t, .. } | ExprKind::Update { target: t, .. } => {
                f.store_root(*t)
            }
            _ => None,
        })
        .map(|r| (r.name, r.part))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether `v` may differ between the lanes of `m`: two lanes hold
/// different values, or one holds a lane-varying unknown.
fn differs_between_lanes(v: &Lanes, m: u32) -> bool {
    let first = v[lanes_of(m).next().unwrap_or(0)];
    lanes_of(m).any(|l| v[l] != first || matches!(v[l], Val::Unknown { varying: true }))
}

/// The condition of an `if constexpr` has one value in every thread: where
/// the run does not know it as one value (a trait, an enclosing template's
/// parameter read as an unknown), it is one unknown the run guesses for the
/// whole warp, never a split.
fn one_value_for_all(v: &mut Lanes, m: u32) {
    if differs_between_lanes(v, m) {
        for l in lanes_of(m) {
            v[l] = Val::UNKNOWN_UNIFORM;
        }
    }
}

impl<'m> Machine<'m> {
    pub fn new(
        module: &'m Module,
        cfg: &'m RunConfig,
        source: &'m crate::source::SourceFile,
    ) -> Machine<'m> {
        let threads = cfg.block_dim.iter().product::<u32>().max(1);
        let first = cfg.warp * 32;
        let present = if first >= threads {
            0
        } else if threads - first >= 32 {
            FULL
        } else {
            (1u32 << (threads - first)) - 1
        };
        Machine {
            module,
            cfg,
            trace: Trace::default(),
            present,
            exited: 0,
            time: 0,
            shared: Vec::new(),
            locals: Vec::new(),
            local_ids: HashMap::default(),
            loop_writes: HashMap::default(),
            local_slots: 0,
            regions: Vec::new(),
            next_region: 0,
            whereabouts: Default::default(),
            chain: Vec::new(),
            chain_generation: 0,
            access_memo: None,
            depth: 0,
            source,
            abort: false,
            eval_depth: 0,
            current_fn: 0,
            shared_scalars: HashMap::default(),
            globals: rustc_hash::FxHashMap::default(),
            closures: HashMap::default(),
            legacy: Vec::new(),
            root_inputs: Vec::new(),
            one_definition: HashMap::default(),
            fixed_names: HashMap::default(),
        }
    }

    pub fn present(&self) -> u32 {
        self.present
    }

    /// The line of `span` in the current function's file (a function linked
    /// in from a header has its spans in that header).
    fn line(&self, span: ByteSpan) -> usize {
        match self.module.header_of(self.current_fn) {
            Some(h) => h.line(span.0),
            None => self.source.line(span.0),
        }
    }

    /// Enter a call or collective at `site` (see [`Self::chain_generation`]).
    fn push_site(&mut self, site: Site) {
        self.chain.push(site);
        self.chain_generation += 1;
    }

    fn pop_site(&mut self) {
        self.chain.pop();
        self.chain_generation += 1;
    }

    /// The chain and line of a shared-memory access by expression `e`.
    fn access_site(&mut self, span: ByteSpan, e: ExprId) -> (std::sync::Arc<[Site]>, usize) {
        if let Some(memo) = &self.access_memo
            && memo.generation == self.chain_generation
            && memo.function == self.current_fn
            && memo.expr == e
        {
            return (std::sync::Arc::clone(&memo.chain), memo.line);
        }
        let line = self.line(span);
        let chain: std::sync::Arc<[Site]> = (self.chain.iter().copied())
            .chain(std::iter::once((self.current_fn, e)))
            .collect();
        self.access_memo = Some(AccessSite {
            generation: self.chain_generation,
            function: self.current_fn,
            expr: e,
            chain: std::sync::Arc::clone(&chain),
            line,
        });
        (chain, line)
    }

    fn tick(&mut self) -> bool {
        self.trace.steps += 1;
        if self.trace.steps > self.cfg.budgets.max_steps {
            self.give_up(format!(
                "the executor's step budget ({}) ran out",
                self.cfg.budgets.max_steps
            ));
        } else if self.trace.steps > self.cfg.allowance.steps {
            self.give_up(format!("{} ran out", self.cfg.allowance.budget));
        }
        !self.abort
    }

    fn give_up(&mut self, why: String) {
        self.abort = true;
        self.trace.incomplete.get_or_insert(why);
    }

    /// The run ends here showing nothing: a thread trapped, or the run
    /// broke what the code asserts.
    fn end_unobserved(&mut self, why: String) {
        self.trace.trapped = true;
        self.give_up(why);
    }

    /// Run function `fidx` as the root of a warp.
    pub fn run_root(&mut self, fidx: usize) {
        let f = &self.module.functions[fidx];
        let mask = self.present;
        self.trace.present = mask;
        if mask == 0 {
            return;
        }
        let mut act = self.activation(fidx);
        for (i, p) in f.params.iter().enumerate() {
            let v = self.param_value(f, i, p);
            act.vars.insert(p.name.clone(), v);
        }
        for t in f.compile_time_values() {
            if let Some(&v) = self.cfg.inputs.get(t) {
                act.vars.insert(t.clone(), [Val::Int(v); 32]);
            }
        }
        // Field paths of parameters given as inputs: a replay's chosen
        // values (`confirm::run_consistent`).
        for (path, &v) in &self.cfg.inputs {
            if let Some((root, _)) = path.split_once('.')
                && f.params.iter().any(|p| p.name == root)
            {
                act.fields.insert(path.clone(), Val::Int(v));
            }
        }
        // Chosen inputs are tracked through their names: a run that reads
        // one (see `eval`'s `Var`) is not the only run of its launch.
        self.root_inputs = f
            .params
            .iter()
            .map(|p| p.name.clone())
            .chain(f.compile_time_values().cloned())
            .filter(|n| self.cfg.chosen_inputs.contains(n))
            .collect();
        let returned = self.run_body(&mut act, mask);
        let root_exit = mask & !self.exited;
        if root_exit != 0 {
            self.trace
                .exits
                .push((root_exit, self.line((f.span.1.saturating_sub(1), f.span.1))));
            self.exited |= root_exit;
        }
        for l in lanes_of(mask) {
            self.mark_used(returned[l]);
        }
        self.trace.returned = returned.to_vec();
    }

    /// Parameter `i` of `callee`, a field, on the object `object`: the
    /// construction's argument where the constructor stores it as it is;
    /// the value of its initializer with the argument bound, where that
    /// computes one from the argument and constants (`id + kReserved`,
    /// `Param::ctor_value`) known in every lane; else, computed from the
    /// argument (`isSender ? 0 : k`), an unknown as uniform as the
    /// argument; else what a member run alone takes.
    fn field_value(
        &mut self,
        act: &mut Activation<'m>,
        object: Option<&Construction>,
        callee: usize,
        i: usize,
        m: u32,
    ) -> Lanes {
        let g = &self.module.functions[callee];
        let p = &g.params[i];
        let argument = |slot: CtorSlot| object.and_then(|o| o.field_argument(slot));
        let level_of = p.ctor_slot.and_then(|s| Some((argument(s)?, s.exact)));
        if let Some((e, true)) = level_of {
            return self.eval(act, e, m);
        }
        let value_of = (p.ctor_value.as_ref())
            .and_then(|(name, init, s)| Some((name.clone(), *init, argument(*s)?)));
        // Both name the same argument: it is evaluated once.
        let Some(e) = value_of.as_ref().map(|v| v.2).or(level_of.map(|l| l.0)) else {
            return self.param_value(g, i, p);
        };
        let has_level = level_of.is_some();
        let arg = self.eval(act, e, m);
        if let Some((name, init, _)) = value_of {
            let mut tmp = self.activation(callee);
            tmp.vars.insert(name, arg);
            let v = self.eval(&mut tmp, init, m);
            if lanes_of(m).all(|l| v[l].as_int().is_some()) {
                return v;
            }
        }
        let g = &self.module.functions[callee];
        if !has_level {
            self.param_value(g, i, &g.params[i])
        } else if differs_between_lanes(&arg, m) {
            [Val::UNKNOWN_VARYING; 32]
        } else {
            [Val::UNKNOWN_UNIFORM; 32]
        }
    }

    fn param_value(&self, f: &Function, i: usize, p: &Param) -> Lanes {
        if p.is_pointer {
            return [Val::Ptr(Ptr {
                space: Space::Global(i as u16),
                offset: 0,
                level: 0,
            }); 32];
        }
        if p.is_integral
            && let Some(&v) = self.cfg.inputs.get(&p.name)
        {
            return [Val::Int(v); 32];
        }
        if let Some(d) = p.default
            && let Some(v) = crate::ir::fold::eval_const(f, d, &self.module.constants)
        {
            return [Val::Int(v); 32];
        }
        // A helper analysed without a caller: per-lane data and lane ids
        // differ between lanes; everything else is taken as the same.
        // (Symbolic runs keep them unknown: no proof or confirmation may
        // rest on the values picked.)
        if !self.module.runs_as_kernel(f)
            && !self.cfg.symbolic
            && (p.is_float || crate::dataflow::lane_like(&p.name))
        {
            let mut out = [Val::UNKNOWN_VARYING; 32];
            for (lane, o) in out.iter_mut().enumerate() {
                *o = lane_input(i, lane as u32, self.cfg.seed);
            }
            return out;
        }
        [Val::UNKNOWN_UNIFORM; 32]
    }

    fn activation(&self, fidx: usize) -> Activation<'m> {
        Activation {
            f: &self.module.functions[fidx],
            fidx,
            vars: HashMap::default(),
            fields: HashMap::default(),
            chosen: Vec::new(),
            no_split: Vec::new(),
            returned: 0,
            ret: [Val::UNKNOWN_VARYING; 32],
            loops: Vec::new(),
        }
    }

    /// Lanes of `mask` still executing in the current activation.
    fn live(act: &Activation, mask: u32) -> u32 {
        let mut m = mask & !act.returned;
        for l in act.loops.iter().rev() {
            m &= !(l.broke | l.continued);
            if !l.is_switch {
                break;
            }
        }
        m
    }

    fn run_body(&mut self, act: &mut Activation<'m>, mask: u32) -> Lanes {
        let f = act.f;
        let saved_fn = self.current_fn;
        self.current_fn = act.fidx;
        let out = self.run_body_inner(act, mask, f);
        self.current_fn = saved_fn;
        out
    }

    fn run_body_inner(&mut self, act: &mut Activation<'m>, mask: u32, f: &'m Function) -> Lanes {
        let mut work: Vec<Work<'m>> = vec![Work::Seq {
            list: &f.body,
            pos: 0,
            mask,
        }];
        while let Some(w) = work.pop() {
            if !self.tick() {
                break;
            }
            match w {
                Work::Seq { list, pos, mask } => {
                    let m = Self::live(act, mask) & !self.exited;
                    if pos >= list.len() || m == 0 {
                        continue;
                    }
                    work.push(Work::Seq {
                        list,
                        pos: pos + 1,
                        mask,
                    });
                    self.exec_stmt(act, list[pos], m, &mut work);
                }
                Work::Loop {
                    stmt,
                    live,
                    iter,
                    after_body,
                } => {
                    let StmtKind::Loop {
                        kind,
                        cond,
                        step,
                        body,
                        ..
                    } = &f.stmt(stmt).kind
                    else {
                        continue;
                    };
                    // Lanes that `continue`d rejoin for the step.
                    if let Some(l) = act.loops.last_mut() {
                        l.continued = 0;
                    }
                    let mut m = live
                        & !act.returned
                        & !act.loops.last().map(|l| l.broke).unwrap_or(0)
                        & !self.exited;
                    if after_body && let Some(s) = step {
                        self.eval(act, *s, m);
                    }
                    if m == 0 {
                        continue;
                    }
                    let check = !(*kind == LoopKind::DoWhile && iter == 0);
                    if check && let Some(c) = cond {
                        let v = self.eval(act, *c, m);
                        // A loop whose condition is not known runs at most
                        // twice: enough to see an iteration after the first,
                        // and bounded without the budget.
                        let t = if iter >= UNKNOWN_LOOP_TRIPS {
                            let known = lanes_of(m).fold(0u32, |acc, l| {
                                if v[l].truth() == Some(true) {
                                    acc | 1 << l
                                } else {
                                    acc
                                }
                            });
                            let unknown = lanes_of(m)
                                .filter(|&l| v[l].truth().is_none())
                                .fold(0u32, |a, l| a | 1 << l);
                            if unknown != 0 {
                                let line = self.line(f.expr(*c).span);
                                let text = self.cond_text(f.expr(*c).span);
                                self.trace.assumptions.push((line, 0, text));
                            }
                            known
                        } else {
                            self.decide(&v, m, f.expr(*c).span)
                        };
                        let left = m & !t;
                        if left != 0 {
                            let line = self.line(f.stmt(stmt).span);
                            self.note_where(left, line, "left the loop");
                        }
                        m = t;
                    }
                    if m == 0 {
                        continue;
                    }
                    // Past the budget only if a lane would run the body
                    // again: a loop that ends on its own after exactly
                    // `max_loop_iterations` trips is complete.
                    if iter >= self.cfg.budgets.max_loop_iterations {
                        self.trace.incomplete.get_or_insert(format!(
                            "a loop at line {} ran past the executor's iteration budget ({})",
                            self.line(f.stmt(stmt).span),
                            self.cfg.budgets.max_loop_iterations
                        ));
                        // The lanes go on after the loop, at some later
                        // iteration the run did not compute: what the loop
                        // writes is unknown there, not its value now.
                        self.forget_loop_writes(act, stmt, m);
                        continue;
                    }
                    work.push(Work::Loop {
                        stmt,
                        live: m,
                        iter: iter + 1,
                        after_body: true,
                    });
                    work.push(Work::Seq {
                        list: body,
                        pos: 0,
                        mask: m,
                    });
                }
                Work::Arm {
                    region,
                    arm,
                    others,
                    line,
                } => {
                    if let Some(top) = self.regions.last_mut()
                        && top.0 == region
                    {
                        top.1 = arm;
                    }
                    let what = if arm == 0 {
                        "skipped the branch (condition false)"
                    } else {
                        "took the branch"
                    };
                    // Lanes that already returned or exited keep saying so.
                    self.note_where(others & !act.returned & !self.exited, line, what);
                }
                Work::EndRegion => {
                    self.regions.pop();
                }
                Work::PopLoop => {
                    act.loops.pop();
                }
            }
        }
        act.ret
    }

    /// An undefined value reached memory, a return value or a branch.
    fn mark_used(&mut self, v: Val) {
        if let Val::Undef(origin) = v {
            self.trace.used_undef.insert(origin);
        }
    }

    fn note_where(&mut self, lanes: u32, line: usize, what: &'static str) {
        for l in lanes_of(lanes) {
            self.whereabouts[l] = Some((line, what));
        }
    }

    fn exec_stmt(
        &mut self,
        act: &mut Activation<'m>,
        id: StmtId,
        m: u32,
        work: &mut Vec<Work<'m>>,
    ) {
        let f = act.f;
        let stmt = f.stmt(id);
        match &stmt.kind {
            StmtKind::Decl {
                name,
                init,
                dims,
                shared,
                ..
            } => {
                if *shared {
                    let dims: Vec<i64> = dims
                        .iter()
                        .map(|d| {
                            d.and_then(|e| self.eval(act, e, m).iter().find_map(|v| v.as_int()))
                                .unwrap_or(i64::MAX / 4)
                        })
                        .collect();
                    let idx = self.shared.len() as u16;
                    let scalar = dims.is_empty();
                    self.shared.push(SharedArray {
                        dims,
                        data: HashMap::default(),
                    });
                    if scalar {
                        // A shared scalar: reads and writes go to memory.
                        self.shared_scalars.insert(name.clone(), idx);
                        return;
                    }
                    let p = Val::Ptr(Ptr {
                        space: Space::Shared(idx),
                        offset: 0,
                        level: 0,
                    });
                    act.vars.insert(name.clone(), [p; 32]);
                    return;
                }
                let mut vals = act
                    .vars
                    .get(name)
                    .copied()
                    .unwrap_or([Val::UNKNOWN_VARYING; 32]);
                if init.is_none()
                    && !dims.is_empty()
                    && let Some((p, elements)) = self.local_array(act, id, dims, m)
                {
                    for l in lanes_of(m) {
                        vals[l] = Val::Ptr(Ptr {
                            offset: l as i64 * elements,
                            ..p
                        });
                    }
                } else if let Some(e) = init {
                    let v = self.eval(act, *e, m);
                    for l in lanes_of(m) {
                        vals[l] = v[l];
                    }
                } else if !dims.is_empty() {
                    for l in lanes_of(m) {
                        vals[l] = Val::UNKNOWN_VARYING;
                    }
                }
                act.vars.insert(name.clone(), vals);
            }
            StmtKind::Expr(e) => {
                self.eval(act, *e, m);
            }
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
                constant,
            } => {
                let mut v = self.eval(act, *cond, m);
                if *constant {
                    one_value_for_all(&mut v, m);
                }
                let t = self.decide(&v, m, f.expr(*cond).span);
                let e = m & !t;
                let line = self.line(stmt.span);
                match (t != 0, e != 0) {
                    (true, false) => work.push(Work::Seq {
                        list: then_branch,
                        pos: 0,
                        mask: t,
                    }),
                    (false, true) => work.push(Work::Seq {
                        list: else_branch,
                        pos: 0,
                        mask: e,
                    }),
                    (false, false) => {}
                    (true, true) => {
                        let region = self.next_region;
                        self.next_region += 1;
                        self.regions.push((region, 0));
                        work.push(Work::EndRegion);
                        work.push(Work::Seq {
                            list: else_branch,
                            pos: 0,
                            mask: e,
                        });
                        work.push(Work::Arm {
                            region,
                            arm: 1,
                            others: t,
                            line,
                        });
                        work.push(Work::Seq {
                            list: then_branch,
                            pos: 0,
                            mask: t,
                        });
                        work.push(Work::Arm {
                            region,
                            arm: 0,
                            others: e,
                            line,
                        });
                    }
                }
            }
            StmtKind::Loop { init, .. } => {
                act.loops.push(LoopState {
                    broke: 0,
                    continued: 0,
                    is_switch: false,
                });
                work.push(Work::PopLoop);
                work.push(Work::Loop {
                    stmt: id,
                    live: m,
                    iter: 0,
                    after_body: false,
                });
                work.push(Work::Seq {
                    list: init,
                    pos: 0,
                    mask: m,
                });
            }
            StmtKind::Switch { scrutinee, cases } => {
                let v = self.eval(act, *scrutinee, m);
                let values: Vec<Option<Lanes>> = cases
                    .iter()
                    .map(|c| c.value.map(|e| self.eval(act, e, m)))
                    .collect();
                let mut entry = vec![0u32; cases.len()];
                let default = cases.iter().position(|c| c.value.is_none());
                for l in lanes_of(m) {
                    let hit = values.iter().position(|cv| match (cv, v[l]) {
                        (Some(cv), sv) => {
                            cv[l].is_known() && sv.is_known() && cv[l].as_int() == sv.as_int()
                        }
                        _ => false,
                    });
                    let unknown = !v[l].is_known();
                    let pick = if unknown {
                        // Unknown scrutinee: spread lanes over the cases.
                        Some((l + self.cfg.seed as usize) % cases.len().max(1))
                    } else {
                        hit.or(default)
                    };
                    if let Some(i) = pick
                        && i < entry.len()
                    {
                        entry[i] |= 1 << l;
                    }
                }
                act.loops.push(LoopState {
                    broke: 0,
                    continued: 0,
                    is_switch: true,
                });
                let region = self.next_region;
                self.next_region += 1;
                let line = self.line(stmt.span);
                let divergent = entry.iter().filter(|&&e| e != 0).count() > 1;
                if divergent {
                    self.regions.push((region, 0));
                }
                // Fall-through: lanes entering at case i run every later case.
                let mut running = 0u32;
                let mut seqs = Vec::new();
                for (i, c) in cases.iter().enumerate() {
                    running |= entry[i];
                    seqs.push((i, running, &c.body));
                }
                work.push(Work::PopLoop);
                if divergent {
                    work.push(Work::EndRegion);
                }
                for (i, mask, body) in seqs.into_iter().rev() {
                    if mask == 0 {
                        continue;
                    }
                    work.push(Work::Seq {
                        list: body,
                        pos: 0,
                        mask,
                    });
                    if divergent {
                        work.push(Work::Arm {
                            region,
                            arm: i as u16,
                            others: m & !mask,
                            line,
                        });
                    }
                }
            }
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    let v = self.eval(act, *e, m);
                    for l in lanes_of(m) {
                        act.ret[l] = v[l];
                    }
                }
                act.returned |= m;
                let line = self.line(stmt.span);
                if self.depth == 0 {
                    self.exited |= m;
                    self.trace.returned_lanes |= m;
                    self.trace.exits.push((m, line));
                    self.note_where(m, line, "exited");
                } else {
                    self.note_where(m, line, "returned from the helper");
                }
            }
            StmtKind::Break => {
                if let Some(l) = act.loops.last_mut() {
                    l.broke |= m;
                }
                let line = self.line(stmt.span);
                self.note_where(m, line, "broke out");
            }
            StmtKind::Continue => {
                // `continue` inside a switch continues the enclosing loop.
                for l in act.loops.iter_mut().rev() {
                    if l.is_switch {
                        l.broke |= m;
                    } else {
                        l.continued |= m;
                        break;
                    }
                }
            }
            StmtKind::Block(list) => work.push(Work::Seq {
                list,
                pos: 0,
                mask: m,
            }),
            StmtKind::Opaque => {}
            // A run the code rules out shows nothing, like one that traps.
            StmtKind::Assume(c) => {
                let v = self.eval(act, *c, m);
                if lanes_of(m).any(|l| v[l].truth() == Some(false)) {
                    let line = self.line(stmt.span);
                    self.end_unobserved(format!("its values fail the assertion at line {line}"));
                }
            }
            // The grid aborts: nothing after this is observed on the GPU,
            // so the run stops here and shows nothing past it.
            StmtKind::Abort => {
                let line = self.line(stmt.span);
                self.end_unobserved(format!("a thread traps at line {line} (the grid aborts)"));
            }
        }
    }

    /// Which lanes of `m` take a branch whose condition evaluated to `v`.
    fn decide(&mut self, v: &Lanes, m: u32, span: ByteSpan) -> u32 {
        for l in lanes_of(m) {
            self.mark_used(v[l]);
        }
        let (t, guessed) = self.guess(v, m);
        if guessed != 0 {
            let line = self.line(span);
            let text = self.cond_text(span);
            if t & guessed != 0 && guessed & !t != 0 {
                self.note_split_guess(guessed, line, &text);
            }
            self.trace.assumptions.push((line, t & guessed, text));
        }
        t
    }

    /// A branch condition as written, on one line and short.
    fn cond_text(&self, span: ByteSpan) -> String {
        // A function from a header has spans into the header's text.
        let source = self
            .module
            .header_of(self.current_fn)
            .map(|h| &**h)
            .unwrap_or(self.source);
        source.snippet(span, 48)
    }

    /// `c ? a : b` where some lanes' `c` is not known and both sides are
    /// plain values (`choice::plain_value`): each lane holds one of them,
    /// unknown where they differ, and the run guesses no branch. `None`
    /// where the run must decide the branch.
    fn select_unknown(
        &mut self,
        act: &mut Activation<'m>,
        (c, cv): (ExprId, &Lanes),
        a: ExprId,
        b: ExprId,
        m: u32,
    ) -> Option<Lanes> {
        if !(lanes_of(m).any(|l| cv[l].truth().is_none())
            && choice::plain_value(self, act, a)
            && choice::plain_value(self, act, b))
        {
            return None;
        }
        let av = self.eval(act, a, m);
        let bv = self.eval(act, b, m);
        let varying = lanes_of(m).any(|l| matches!(cv[l], Val::Unknown { varying: true }))
            || differs_between_lanes(&av, m)
            || differs_between_lanes(&bv, m);
        let mut out = [Val::UNKNOWN_VARYING; 32];
        let mut unknown = 0u32;
        for l in lanes_of(m) {
            self.mark_used(cv[l]);
            out[l] = match cv[l].truth() {
                Some(true) => av[l],
                Some(false) => bv[l],
                None if av[l] == bv[l] => av[l],
                None => {
                    unknown |= 1 << l;
                    Val::Unknown { varying }
                }
            };
        }
        // Still a value the run does not know: no proof rests on
        // this run, and a speculative candidate is held to the
        // same rule as after a branch the seed decided (the lanes
        // it would have taken); but no lanes were split by a guess.
        if unknown != 0 {
            let span = act.f.expr(c).span;
            let (line, text) = (self.line(span), self.cond_text(span));
            let (t, guessed) = self.guess(cv, m);
            self.trace.assumptions.push((line, t & guessed, text));
        }
        Some(out)
    }

    /// Which lanes of `m` a condition valued `v` holds in, where the run's
    /// seed guesses the unknown ones; and those guessed.
    fn guess(&self, v: &Lanes, m: u32) -> (u32, u32) {
        let mut t = 0u32;
        let mut guessed = 0u32;
        let uniform_guess = (self.cfg.seed & 1) == 0;
        for l in lanes_of(m) {
            match v[l].truth() {
                Some(true) => t |= 1 << l,
                Some(false) => {}
                None => {
                    guessed |= 1 << l;
                    let take = match v[l] {
                        Val::Unknown { varying: false } => uniform_guess,
                        _ => partition(self.cfg.seed, l as u32),
                    };
                    if take {
                        t |= 1 << l;
                    }
                }
            }
        }
        (t, guessed)
    }

    /// The run split `lanes` (or chose a value they read) by a guess.
    fn note_split_guess(&mut self, lanes: u32, line: usize, text: &str) {
        if self.trace.split_guess.is_none() {
            self.trace.split_guess = Some((line, text.to_owned()));
        }
        if self.trace.guesses.len() < super::trace::MAX_GUESSES {
            self.trace.guesses.push((self.time, lanes));
        } else {
            self.trace.guesses_overflow = true;
        }
    }

    fn note_chosen(&mut self, what: impl FnOnce() -> String) {
        if self.trace.chosen.len() < 8 {
            let w = what();
            if !self.trace.chosen.contains(&w) {
                self.trace.chosen.push(w);
            }
        }
    }

    // ---- expressions -------------------------------------------------

    fn eval(&mut self, act: &mut Activation<'m>, e: ExprId, m: u32) -> Lanes {
        // Expressions nest up to the lowering's depth limit, and each level
        // here holds per-lane arrays: bound the native stack this uses.
        if self.eval_depth >= MAX_EVAL_DEPTH {
            self.give_up(format!(
                "an expression nests deeper than the executor follows ({MAX_EVAL_DEPTH})"
            ));
            return [Val::UNKNOWN_VARYING; 32];
        }
        self.eval_depth += 1;
        let out = self.eval_node(act, e, m);
        self.eval_depth -= 1;
        out
    }

    fn eval_node(&mut self, act: &mut Activation<'m>, e: ExprId, m: u32) -> Lanes {
        let mut out = [Val::UNKNOWN_VARYING; 32];
        if m == 0 || !self.tick() {
            return out;
        }
        if let Some(&(_, v)) = act.chosen.iter().find(|(c, _)| *c == e) {
            return [v; 32];
        }
        let f = act.f;
        let expr = f.expr(e);
        match &expr.kind {
            ExprKind::Int(v) => out = [Val::Int(*v); 32],
            ExprKind::Float(v) => out = [Val::Float(*v); 32],
            ExprKind::Var(name) => {
                if let Some(&id) = self.shared_scalars.get(name) {
                    let p = Ptr {
                        space: Space::Shared(id),
                        offset: 0,
                        level: 1,
                    };
                    for l in lanes_of(m) {
                        out[l] = self.load(p, l as u32, expr.span, e);
                    }
                } else if let Some(v) = act.vars.get(name) {
                    out = *v;
                    if self.depth == 0 && self.root_inputs.iter().any(|n| n == name) {
                        self.trace.guessed_data = true;
                        let v = out[lanes_of(m).next().unwrap_or(0)];
                        self.note_chosen(|| match v {
                            Val::Int(i) => format!("{name} = {i} (chosen)"),
                            _ => format!("{name} (chosen)"),
                        });
                    }
                } else if let Some(c) = self.module.constant(act.f, name) {
                    out = [Val::Int(c); 32];
                } else if let Some(&c) = self.cfg.inputs.get(name) {
                    self.trace.guessed_data |= self.cfg.chosen_inputs.contains(name);
                    out = [Val::Int(c); 32];
                } else if let Some(&v) = self.globals.get(name) {
                    out = [v; 32];
                } else {
                    out = [Val::UNKNOWN_UNIFORM; 32];
                }
            }
            ExprKind::Builtin(b) => {
                // Other blocks of the grid may take other paths.
                if matches!(
                    b,
                    Builtin::BlockIdx(_)
                        | Builtin::GridDim(_)
                        | Builtin::ClusterBlockRank
                        | Builtin::ClusterRank
                ) {
                    if self.cfg.symbolic {
                        self.trace.reads_block = true;
                    } else {
                        self.note_chosen(|| "blockIdx/gridDim of one block of the grid".to_owned());
                    }
                }
                for l in lanes_of(m) {
                    out[l] = self.builtin(*b, l as u32);
                }
            }
            ExprKind::Unary(op, a) => {
                if *op == UnOp::AddrOf {
                    return self.eval_addr(act, *a, m);
                }
                let av = self.eval(act, *a, m);
                // An address that is not a pointer the run made (a shared
                // window offset, an integer cast): lanes at one address
                // load one value, lanes at different ones may not.
                let one_address = *op == UnOp::Deref && !differs_between_lanes(&av, m);
                for l in lanes_of(m) {
                    out[l] = match op {
                        UnOp::Deref => match av[l] {
                            Val::Ptr(p) => self.load(p, l as u32, expr.span, e),
                            v if one_address => unknown_of(&[v]),
                            _ => Val::UNKNOWN_VARYING,
                        },
                        _ => unary(*op, av[l]),
                    };
                }
            }
            ExprKind::Binary(op, a, b) => match op {
                BinOp::And | BinOp::Or => {
                    let av = self.eval(act, *a, m);
                    let mut need = 0u32;
                    for l in lanes_of(m) {
                        match (op, av[l].truth()) {
                            (BinOp::And, Some(false)) => out[l] = Val::Int(0),
                            (BinOp::Or, Some(true)) => out[l] = Val::Int(1),
                            _ => need |= 1 << l,
                        }
                    }
                    let bv = self.eval(act, *b, need);
                    for l in lanes_of(need) {
                        out[l] = match (av[l].truth(), bv[l].truth()) {
                            (Some(_), Some(y)) => Val::Int(y as i64),
                            (_, Some(false)) if *op == BinOp::And => Val::Int(0),
                            (_, Some(true)) if *op == BinOp::Or => Val::Int(1),
                            _ => unknown_of(&[av[l], bv[l]]),
                        };
                    }
                }
                _ => {
                    let mut av = self.eval(act, *a, m);
                    let mut bv = self.eval(act, *b, m);
                    if is_comparison(*op) {
                        self.split_uniform_unknown(act, *op, (*a, &mut av), (*b, &mut bv), m);
                    }
                    for l in lanes_of(m) {
                        out[l] = binary(*op, av[l], bv[l]);
                    }
                }
            },
            ExprKind::Ternary(c, a, b) => {
                let cv = self.eval(act, *c, m);
                if let Some(out) = self.select_unknown(act, (*c, &cv), *a, *b, m) {
                    return out;
                }
                let t = self.decide(&cv, m, f.expr(*c).span);
                let both = t != 0 && m & !t != 0;
                let line = self.line(f.expr(*c).span);
                if both {
                    self.regions.push((self.next_region, 0));
                    self.next_region += 1;
                    self.note_where(m & !t, line, "took the other side of `?:`");
                }
                let av = self.eval(act, *a, t);
                if both {
                    if let Some(top) = self.regions.last_mut() {
                        top.1 = 1;
                    }
                    self.note_where(t, line, "took the first side of `?:`");
                }
                let bv = self.eval(act, *b, m & !t);
                if both {
                    self.regions.pop();
                }
                for l in lanes_of(m) {
                    out[l] = if t >> l & 1 == 1 { av[l] } else { bv[l] };
                }
            }
            ExprKind::Comma(a, b) => {
                self.eval(act, *a, m);
                out = self.eval(act, *b, m);
            }
            ExprKind::Assign { op, lhs, rhs } => {
                let rv = self.eval(act, *rhs, m);
                let value = match op {
                    None => rv,
                    Some(op) => {
                        let cur = self.eval(act, *lhs, m);
                        let mut v = [Val::UNKNOWN_VARYING; 32];
                        for l in lanes_of(m) {
                            v[l] = binary(*op, cur[l], rv[l]);
                        }
                        v
                    }
                };
                self.store(act, *lhs, m, &value);
                out = value;
            }
            ExprKind::Update {
                increment,
                prefix,
                target,
            } => {
                let cur = self.eval(act, *target, m);
                let mut v = [Val::UNKNOWN_VARYING; 32];
                for l in lanes_of(m) {
                    v[l] = binary(
                        if *increment { BinOp::Add } else { BinOp::Sub },
                        cur[l],
                        Val::Int(1),
                    );
                }
                self.store(act, *target, m, &v);
                out = if *prefix { v } else { cur };
            }
            ExprKind::Index(base, idx) => {
                let bv = self.eval(act, *base, m);
                let iv = self.eval(act, *idx, m);
                for l in lanes_of(m) {
                    out[l] = match (bv[l], iv[l].as_int()) {
                        (Val::Ptr(p), Some(i)) => {
                            let q = self.index_ptr(p, i);
                            if self.is_element(q) {
                                self.load(q, l as u32, expr.span, e)
                            } else {
                                Val::Ptr(q)
                            }
                        }
                        // Something we do not model: as varying as the base
                        // and the index.
                        (b, _) => {
                            if matches!(b, Val::Ptr(_)) {
                                self.note_chosen(|| {
                                    "an address the executor could not compute".to_owned()
                                });
                            }
                            unknown_of(&[b, iv[l]])
                        }
                    };
                }
            }
            ExprKind::Member(base, field) => out = self.member_value(act, e, *base, field, m),
            ExprKind::Call(call) => out = self.call(act, e, call, m),
            // Constructs the IR does not model (`sizeof`, `T{…}`, …) are
            // mostly types and constants: unknown, but not per lane.
            ExprKind::Lambda(_) | ExprKind::Unknown => out = [Val::UNKNOWN_UNIFORM; 32],
        }
        out
    }

    fn eval_addr(&mut self, act: &mut Activation<'m>, e: ExprId, m: u32) -> Lanes {
        let f = act.f;
        let mut out = [Val::UNKNOWN_VARYING; 32];
        if let ExprKind::Index(base, idx) = &f.expr(e).kind {
            let bv = self.eval(act, *base, m);
            let iv = self.eval(act, *idx, m);
            for l in lanes_of(m) {
                if let (Val::Ptr(p), Some(i)) = (bv[l], iv[l].as_int()) {
                    out[l] = Val::Ptr(self.index_ptr(p, i));
                }
            }
        }
        out
    }

    fn builtin(&self, b: Builtin, lane: u32) -> Val {
        let [bx, by, bz] = self.cfg.block_dim;
        let linear = self.cfg.warp * 32 + lane;
        let tx = linear % bx;
        let ty = (linear / bx) % by;
        let tz = linear / (bx * by);
        let pick = |d: Dim, v: [u32; 3]| match d {
            Dim::X => v[0],
            Dim::Y => v[1],
            Dim::Z => v[2],
        };
        Val::Int(match b {
            Builtin::ThreadIdx(d) => pick(d, [tx, ty, tz]) as i64,
            Builtin::BlockIdx(d) => pick(d, self.cfg.block_idx) as i64,
            Builtin::BlockDim(d) => pick(d, [bx, by, bz]) as i64,
            Builtin::GridDim(d) => pick(d, self.cfg.grid_dim) as i64,
            Builtin::WarpSize => 32,
            Builtin::LaneId => lane as i64,
            // The grid's first block is the first of its cluster, in the
            // first cluster, whatever size the launch gives clusters;
            // elsewhere the rank depends on that size, which the run does
            // not know.
            Builtin::ClusterBlockRank | Builtin::ClusterRank => {
                if self.cfg.block_idx != [0, 0, 0] {
                    return Val::UNKNOWN_UNIFORM;
                }
                0
            }
        })
    }

    /// Make what the loop `stmt` writes (locals and the elements of
    /// thread-local arrays) unknown in lanes `m`: values of an iteration
    /// the run never reached.
    fn forget_loop_writes(&mut self, act: &mut Activation<'m>, stmt: StmtId, m: u32) {
        let f = act.f;
        let key = (act.fidx, stmt);
        let writes = self
            .loop_writes
            .remove(&key)
            .unwrap_or_else(|| loop_writes(f, stmt));
        for &(name, element) in &writes {
            if self.shared_scalars.contains_key(name) {
                continue;
            }
            let Some(vals) = act.vars.get_mut(name) else {
                continue;
            };
            for l in lanes_of(m) {
                match vals[l] {
                    Val::Ptr(Ptr {
                        space: Space::Local(id),
                        ..
                    }) if element => {
                        let a = &mut self.locals[id as usize];
                        let start = l * a.elements as usize;
                        let end = (start + a.elements as usize).min(a.data.len());
                        a.data[start..end].fill(Val::UNKNOWN_VARYING);
                    }
                    _ if element => {}
                    _ => vals[l] = Val::UNKNOWN_VARYING,
                }
            }
        }
        self.loop_writes.insert(key, writes);
    }

    /// The array a thread-local declaration `T name[N]…;` makes, the
    /// same one each time the declaration runs again (a loop's body), and
    /// its element count. `None` past `MAX_LOCAL_SLOTS`, or for an array
    /// of more than `MAX_LOCAL_ELEMENTS` or of an extent the run cannot
    /// compute: the elements are then unknown.
    fn local_array(
        &mut self,
        act: &mut Activation<'m>,
        id: StmtId,
        dims: &[Option<ExprId>],
        m: u32,
    ) -> Option<(Ptr, i64)> {
        let key = (act.fidx, id);
        let idx = match self.local_ids.get(&key) {
            Some(&i) => i,
            None if self.locals.len() < u16::MAX as usize => {
                let mut extents = Vec::with_capacity(dims.len());
                let mut elements = 1i64;
                for d in dims {
                    let n = d
                        .and_then(|e| self.eval(act, e, m).iter().find_map(|v| v.as_int()))
                        .filter(|&n| n > 0 && n <= MAX_LOCAL_ELEMENTS)?;
                    elements = elements.saturating_mul(n);
                    extents.push(n);
                }
                let slots = 32 * elements as usize;
                if elements > MAX_LOCAL_ELEMENTS || self.local_slots + slots > MAX_LOCAL_SLOTS {
                    return None;
                }
                self.local_slots += slots;
                let i = self.locals.len() as u16;
                self.locals.push(LocalArray {
                    dims: extents,
                    elements,
                    data: vec![Val::UNKNOWN_VARYING; 32 * elements as usize],
                });
                self.local_ids.insert(key, i);
                i
            }
            None => return None,
        };
        let p = Ptr {
            space: Space::Local(idx),
            offset: 0,
            level: 0,
        };
        Some((p, self.locals[idx as usize].elements))
    }

    /// Where lane `lane`'s element at `p` lies in its array's data:
    /// `None` outside the lane's own copy.
    fn local_slot(&self, id: u16, p: Ptr, lane: u32) -> Option<usize> {
        let a = &self.locals[id as usize];
        (p.offset >= 0 && p.offset / a.elements == lane as i64).then_some(p.offset as usize)
    }

    /// The extents of an array in `space`; none for global memory, which
    /// the run indexes element by element.
    fn dims(&self, space: Space) -> &[i64] {
        match space {
            Space::Shared(id) => &self.shared[id as usize].dims,
            Space::Local(id) => &self.locals[id as usize].dims,
            Space::Global(_) => &[],
        }
    }

    /// The value of `base.field` (expression `e`) in each lane of `m`. Not
    /// inlined: `eval` recurses once per level of an expression, and its
    /// frame must stay small.
    #[inline(never)]
    fn member_value(
        &mut self,
        act: &mut Activation<'m>,
        e: ExprId,
        base: ExprId,
        field: &str,
        m: u32,
    ) -> Lanes {
        let f = act.f;
        let span = f.expr(e).span;
        // A field of a shared element is an access of the element (`s[i]`,
        // the site WL004 proposes).
        let (bv, site) = match self.shared_elements(act, base, m) {
            Some(elements) => (elements, base),
            None => (self.eval(act, base, m), e),
        };
        if let Some(ps) = field_ptrs(&bv, field, m) {
            let mut out = [Val::UNKNOWN_VARYING; 32];
            for l in lanes_of(m) {
                out[l] = self.load(ps[l], l as u32, span, site);
            }
            out
        } else if let Some(&v) = (!act.fields.is_empty())
            .then(|| choice::field_path(f, e))
            .flatten()
            .and_then(|(_, path)| act.fields.get(&path))
        {
            [v; 32]
        } else {
            // A field of a value that differs between lanes (an object
            // built from the lane index) may differ too.
            [Val::Unknown {
                varying: differs_between_lanes(&bv, m),
            }; 32]
        }
    }

    /// `s[i]` in `s[i].x`, where `s` is a name holding a pointer into
    /// shared memory in every lane (a parameter a caller passed a
    /// `__shared__` array of structs): each lane's element, as a pointer
    /// ([`Machine::eval_addr`]), so that its fields are slots of their own.
    /// `None`, having read only the name, otherwise: the index is evaluated
    /// once, here or by the caller.
    fn shared_elements(&mut self, act: &mut Activation<'m>, e: ExprId, m: u32) -> Option<Lanes> {
        let f = act.f;
        let ExprKind::Index(b, i) = &f.expr(e).kind else {
            return None;
        };
        let pure = !crate::dataflow::any_subexpr(f, *i, &mut |k| {
            matches!(
                k,
                ExprKind::Assign { .. } | ExprKind::Update { .. } | ExprKind::Call(_)
            )
        });
        if !matches!(f.expr(*b).kind, ExprKind::Var(_)) || !pure || m == 0 {
            return None;
        }
        let bv = self.eval(act, *b, m);
        let shared = |v: &Val| matches!(v, Val::Ptr(p) if matches!(p.space, Space::Shared(_)));
        lanes_of(m)
            .all(|l| shared(&bv[l]))
            .then(|| self.eval_addr(act, e, m))
    }

    fn index_ptr(&self, p: Ptr, i: i64) -> Ptr {
        let dims = self.dims(p.space);
        let lvl = p.level as usize;
        let stride = if lvl + 1 < dims.len() {
            dims[lvl + 1..]
                .iter()
                .fold(1i64, |a, d| a.saturating_mul(*d))
        } else {
            1
        };
        Ptr {
            space: p.space,
            offset: p.offset.saturating_add(i.saturating_mul(stride)),
            level: p.level.saturating_add(1),
        }
    }

    fn is_element(&self, p: Ptr) -> bool {
        match p.space {
            Space::Global(_) => true,
            _ => p.level as usize >= self.dims(p.space).len().max(1),
        }
    }

    fn load(&mut self, p: Ptr, lane: u32, span: ByteSpan, e: ExprId) -> Val {
        self.record_access(p, lane, None, span, e);
        let written = match p.space {
            Space::Shared(id) => self.shared[id as usize].data.get(&p.offset).copied(),
            Space::Global(_) => self.trace.global.get(&(p.space, p.offset)).copied(),
            // An element the thread never wrote holds no value the code
            // states.
            Space::Local(id) => {
                return self
                    .local_slot(id, p, lane)
                    .map_or(Val::UNKNOWN_VARYING, |i| self.locals[id as usize].data[i]);
            }
        };
        written.unwrap_or_else(|| {
            if self.cfg.symbolic {
                // Any contents: a branch on them is an assumption.
                return Val::UNKNOWN_VARYING;
            }
            // Memory nobody wrote in this run: its contents are an input
            // the plan picks (seeded), so the run is one of many.
            self.trace.guessed_data = true;
            self.note_chosen(|| "contents of memory the run did not write (seeded)".to_owned());
            memory_contents(p.space, p.offset, self.cfg.seed)
        })
    }

    /// `stored`: `Some` for a write, with the value written.
    fn record_access(&mut self, p: Ptr, lane: u32, stored: Option<Val>, span: ByteSpan, e: ExprId) {
        if let Space::Shared(_) = p.space {
            let (chain, line) = self.access_site(span, e);
            self.trace.accesses.push(Access {
                lane,
                space: p.space,
                offset: p.offset,
                write: stored.is_some(),
                stored: stored.filter(|v| matches!(v, Val::Int(_) | Val::Float(_))),
                time: self.time,
                chain,
                line,
                start: span.0,
            });
        }
    }

    fn store(&mut self, act: &mut Activation<'m>, lhs: ExprId, m: u32, value: &Lanes) {
        let f = act.f;
        let lexpr = f.expr(lhs);
        // Reads of the right-hand side happened at `time`; the write is later.
        self.time += 1;
        match &lexpr.kind {
            ExprKind::Var(name) if self.shared_scalars.contains_key(name) => {
                let id = self.shared_scalars[name];
                let p = Ptr {
                    space: Space::Shared(id),
                    offset: 0,
                    level: 1,
                };
                for l in lanes_of(m) {
                    self.write(p, l as u32, value[l], lexpr.span, lhs);
                }
            }
            ExprKind::Var(name) => {
                let entry = act
                    .vars
                    .entry(name.clone())
                    .or_insert([Val::UNKNOWN_VARYING; 32]);
                for l in lanes_of(m) {
                    entry[l] = value[l];
                }
            }
            ExprKind::Index(base, idx) => {
                let bv = self.eval(act, *base, m);
                let iv = self.eval(act, *idx, m);
                for l in lanes_of(m) {
                    match (bv[l], iv[l].as_int()) {
                        (Val::Ptr(p), Some(i)) => {
                            let q = self.index_ptr(p, i);
                            self.write(q, l as u32, value[l], lexpr.span, lhs);
                        }
                        (Val::Ptr(_), None) => self
                            .note_chosen(|| "an address the executor could not compute".to_owned()),
                        _ => {}
                    }
                }
            }
            ExprKind::Unary(UnOp::Deref, p) => {
                let pv = self.eval(act, *p, m);
                for l in lanes_of(m) {
                    if let Val::Ptr(q) = pv[l] {
                        self.write(q, l as u32, value[l], lexpr.span, lhs);
                    }
                }
            }
            ExprKind::Member(base, field) => {
                let (bv, site) = match self.shared_elements(act, *base, m) {
                    Some(elements) => (elements, *base),
                    None => (self.eval(act, *base, m), lhs),
                };
                if let Some(ps) = field_ptrs(&bv, field, m) {
                    for l in lanes_of(m) {
                        self.write(ps[l], l as u32, value[l], lexpr.span, site);
                    }
                }
            }
            _ => {}
        }
        self.time += 1;
    }

    fn write(&mut self, p: Ptr, lane: u32, v: Val, span: ByteSpan, e: ExprId) {
        self.record_access(p, lane, Some(v), span, e);
        self.mark_used(v);
        match p.space {
            Space::Shared(id) => {
                self.shared[id as usize].data.insert(p.offset, v);
            }
            Space::Global(_) => {
                self.trace.global.insert((p.space, p.offset), v);
            }
            Space::Local(id) => {
                if let Some(i) = self.local_slot(id, p, lane) {
                    self.locals[id as usize].data[i] = v;
                }
            }
        }
    }

    // ---- calls ---------------------------------------------------------

    /// The class template's parameters as the instance the call names
    /// states them (`Part<32>::run(v)`, `Part<32> q; q.run(v)`); a member
    /// calling a member of its own object keeps its own. Apart from
    /// [`Machine::call`], whose frame every nested call keeps on the stack.
    #[inline(never)]
    fn bind_class_params(
        &self,
        act: &Activation<'m>,
        call: &Call,
        callee: usize,
        same_object: bool,
        inner: &mut Activation<'m>,
    ) {
        let g = &self.module.functions[callee];
        match (act.f.instance_args(call)).filter(|_| self.module.only_class(call, callee)) {
            Some(written) => {
                for p in &g.class_params {
                    // A default is the class template's own text: read
                    // without the caller's names.
                    let v = match written.get(p.at) {
                        Some(a) => self.instance_value(act, a),
                        None => p
                            .default_for(&written)
                            .and_then(|d| self.module.written_int(d)),
                    };
                    if let Some(v) = v {
                        inner.vars.insert(p.name.clone(), [Val::Int(v); 32]);
                    }
                }
                // A class in a type parameter's place: the names it scopes
                // are that class's members (`Policy::kLanes` of
                // `Agent<FullWarp>` is `FullWarp::kLanes`).
                for (p, at) in &g.class_type_params {
                    let Some(class) = written.get(*at).and_then(|a| class_named(a)) else {
                        continue;
                    };
                    for name in &g.dependent_names {
                        let Some(member) = member_of_param(name, p) else {
                            continue;
                        };
                        let key = format!("{class}::{member}");
                        if let Some(v) = self.module.constant(g, &key) {
                            inner.vars.insert(name.clone(), [Val::Int(v); 32]);
                        }
                    }
                }
            }
            None if same_object => {
                for p in &g.class_params {
                    if let Some(v) = act.vars.get(&p.name) {
                        inner.vars.insert(p.name.clone(), *v);
                    }
                }
                for name in g.class_type_scoped() {
                    if let Some(v) = act.vars.get(name) {
                        inner.vars.insert(name.clone(), *v);
                    }
                }
            }
            None => {}
        }
    }

    /// A class template's argument as a call writes it, where it is one
    /// integer: a literal, a constant, or a compile-time value the caller
    /// holds as one integer for every lane.
    fn instance_value(&self, act: &Activation<'m>, arg: &str) -> Option<i64> {
        if let Some(v) = self.module.written_int(arg) {
            return Some(v);
        }
        let f = act.f;
        let held = act.vars.get(arg)?;
        let is_value = f
            .template_values
            .iter()
            .chain(&f.constant_names)
            .any(|t| t == arg);
        match held[0] {
            Val::Int(v) if is_value && held.iter().all(|x| *x == Val::Int(v)) => Some(v),
            _ => None,
        }
    }

    fn call(&mut self, act: &mut Activation<'m>, e: ExprId, call: &'m Call, m: u32) -> Lanes {
        let f = act.f;
        let site = (act.fidx, e);
        // Unmodelled inline PTX: any value in each lane, whatever its
        // operands (whose only use is the dataflow's account of why).
        if call.name == crate::ir::primitives::ASM_OPAQUE {
            return [Val::UNKNOWN_VARYING; 32];
        }
        let mut args: Vec<Lanes> = Vec::with_capacity(call.args.len());
        for a in &call.args {
            let v = self.eval(act, *a, m);
            args.push(v);
        }
        // A butterfly's result is the value the loop left.
        if call.name == crate::ir::primitives::WARP_REDUCED {
            return args.first().copied().unwrap_or([Val::UNKNOWN_VARYING; 32]);
        }
        // What inline PTX computes from its operands: a value, no call
        // site of its own.
        if crate::ir::primitives::is_asm_value(&call.name) {
            let varying = args.iter().any(|a| differs_between_lanes(a, m));
            return [Val::Unknown { varying }; 32];
        }
        self.trace.reached.insert(site);
        self.time += 1;
        if let Some(prim) =
            Primitive::from_call(&call.name, call.scope.as_deref(), call.receiver.is_some())
        {
            // A mask the run does not know cannot be judged.
            if prim.is_masked()
                && args
                    .first()
                    .is_some_and(|a| lanes_of(m).any(|l| a[l].as_int().is_none()))
            {
                self.note_chosen(|| "a mask the executor could not compute".to_owned());
            }
            self.push_site(site);
            let name = crate::ir::primitives::ptx_spelling(&call.name)
                .unwrap_or_else(|| prim.display_name());
            let out = self.collective(prim, name, &args, m, f.expr(e).span);
            self.pop_site();
            return out;
        }
        if call.name == crate::ir::primitives::ASM_BROADCAST && call.receiver.is_none() {
            return collective::asm_broadcast(&args, m);
        }
        if crate::rules::legacy_replacement(&call.name).is_some()
            && call.receiver.is_none()
            && call.scope.as_deref().is_none_or(str::is_empty)
        {
            let mut chain = self.chain.clone();
            chain.push(site);
            let alive = self.present & !self.exited;
            let line = self.line(f.expr(e).span);
            self.legacy.push((chain, m, alive, line));
            return [Val::UNKNOWN_VARYING; 32];
        }
        if let Some(out) = builtin_call(&call.name, &args, m, self.cfg.seed) {
            if call.name.starts_with("atomic")
                && let Some(Val::Ptr(p)) = args.first().map(|a| a[lanes_of(m).next().unwrap_or(0)])
            {
                // Atomics commute: the final memory is schedule-independent,
                // the value each lane gets back is not.
                for l in lanes_of(m) {
                    if let Some(a) = args.get(1) {
                        self.mark_used(a[l]);
                    }
                }
                let mut total = self
                    .trace
                    .global
                    .get(&(p.space, p.offset))
                    .copied()
                    .unwrap_or(Val::Int(0));
                for l in lanes_of(m) {
                    if let Some(a) = args.get(1) {
                        total = binary(BinOp::Add, total, a[l]);
                    }
                }
                self.trace.global.insert((p.space, p.offset), total);
            }
            return out;
        }
        // A library shape: the same for every thread, and unknown, even
        // where the library's source is at hand (its body computes types,
        // not values the run can follow). Runs pick a small extent (loops
        // over it then run) and say so.
        if crate::ir::library::is_shape_query(call) {
            let v = 2 + i64::from(self.cfg.seed % 3);
            self.trace.guessed_data = true;
            self.note_chosen(|| {
                format!(
                    "`{}<{}>(…)` = {v} (chosen)",
                    call.name,
                    call.template_args.join(", ")
                )
            });
            return [Val::Int(v); 32];
        }
        // A `__device__` function of this file, or a member of an object
        // the caller declared: run it. Of tag-dispatched overloads, the one
        // the tags this run computes select (`Int2Type<(LANES == 32)>()`
        // with the class's `LANES` bound by the call's object).
        let mut tags: Vec<(ExprId, i64)> = Vec::new();
        for &(_, tag) in &call.tags {
            if let crate::ir::Tag::Expr(t) = tag {
                let v = self.eval(act, t, m);
                let mut values = lanes_of(m).map(|l| v[l].as_int());
                if let Some(Some(first)) = values.next()
                    && values.all(|x| x == Some(first))
                {
                    tags.push((t, first));
                }
            }
        }
        let run_tag = |t: ExprId| tags.iter().find(|(x, _)| *x == t).map(|(_, v)| *v);
        if let Some(callee) = self.module.callee_with(call, &run_tag)
            && self.module.functions[callee].params.len() >= call.args.len()
        {
            // A lambda is called only by the function holding it or by a
            // copy made to run it (`Call::target`), so calls of lambdas
            // alone nest no deeper than lambdas do in the source: the
            // depth budget does not count them.
            let lambda = self.module.functions[callee].kind == crate::ir::FnKind::Lambda;
            if !lambda && self.depth >= self.cfg.budgets.max_call_depth {
                self.trace.incomplete.get_or_insert(format!(
                    "calls nested deeper than the executor's budget ({})",
                    self.cfg.budgets.max_call_depth
                ));
                return [Val::UNKNOWN_VARYING; 32];
            }
            let g = &self.module.functions[callee];
            let mut inner = self.activation(callee);
            // A lambda runs with its enclosing function's names as they are
            // now: the caller's, where the caller holds it; those of the
            // function that passed it, where a copy of a callee runs it.
            let closure = lambda && act.f.bound_lambdas.contains(&callee);
            if closure {
                inner.vars = self.closures.get(&callee).cloned().unwrap_or_default();
            } else if lambda {
                inner.vars = act.vars.clone();
            }
            // A copy that runs lambdas: they see this caller's names.
            for &j in &g.bound_lambdas {
                self.closures.insert(j, act.vars.clone());
            }
            let object = call
                .object
                .as_ref()
                .and_then(|o| f.constructions.get(o.construction?));
            // A member calling a member of its own class runs on the same
            // object: its fields and state are the caller's.
            let same_object = call.receiver.is_none()
                && g.class.is_some()
                && g.class == f.class
                && g.class_at == f.class_at;
            for (i, p) in g.params.iter().enumerate() {
                let v = match args.get(i) {
                    Some(v) if !p.of_field => *v,
                    _ if p.of_field && same_object && act.vars.contains_key(&p.name) => {
                        act.vars[&p.name]
                    }
                    _ if p.of_field => self.field_value(act, object, callee, i, m),
                    Some(v) => *v,
                    None => match p.default {
                        Some(d) => {
                            let mut tmp = self.activation(callee);
                            self.eval(&mut tmp, d, m)
                        }
                        None => [Val::UNKNOWN_VARYING; 32],
                    },
                };
                inner.vars.insert(p.name.clone(), v);
            }
            for t in g.template_values.iter().chain(&g.constant_names) {
                if let Some(&v) = self.cfg.inputs.get(t) {
                    inner.vars.insert(t.clone(), [Val::Int(v); 32]);
                }
            }
            if !g.class_params.is_empty() || !g.class_type_params.is_empty() {
                self.bind_class_params(act, call, callee, same_object, &mut inner);
            }
            // The object's state fields: in before the call, out after.
            if same_object {
                for x in &g.state_fields {
                    if let Some(v) = act.vars.get(x) {
                        inner.vars.insert(x.clone(), *v);
                    }
                }
            }
            self.push_site(site);
            let nested = u32::from(!lambda);
            self.depth += nested;
            let ret = self.run_body(&mut inner, m);
            self.depth -= nested;
            self.pop_site();
            if same_object {
                for x in &g.state_fields {
                    if let Some(v) = inner.vars.get(x) {
                        act.vars.insert(x.clone(), *v);
                    }
                }
            }
            // What a lambda capturing by reference wrote of its enclosing
            // function's names (not its own parameters and locals) is that
            // function's: the caller's, or the closure's until the copy
            // that runs it returns.
            if lambda && g.captures_by_reference {
                let outer = if closure {
                    self.closures.entry(callee).or_default()
                } else {
                    &mut act.vars
                };
                write_back(g, &inner.vars, outer);
            }
            for &j in &g.bound_lambdas {
                let l = &self.module.functions[j];
                if l.captures_by_reference
                    && let Some(vars) = self.closures.remove(&j)
                {
                    write_back(l, &vars, &mut act.vars);
                }
            }
            return ret;
        }
        // Unknown function: its result may depend on the lane if its
        // arguments do, or if its name says it is about lanes or threads.
        let lane_named = {
            let n = call.name.to_ascii_lowercase();
            n.contains("lane") || n.contains("tid") || n.contains("thread")
        };
        let varying = lane_named
            || args.iter().any(|a| {
                let first = lanes_of(m).next().map(|l| a[l]);
                lanes_of(m).any(|l| {
                    matches!(a[l], Val::Unknown { varying: true } | Val::Undef(_))
                        || Some(a[l]) != first
                })
            });
        [Val::Unknown { varying }; 32]
    }
}

/// What lambda `l` wrote of its enclosing function's names, from `from`
/// into `into`, where `into` holds them.
fn write_back(l: &Function, from: &HashMap<String, Lanes>, into: &mut HashMap<String, Lanes>) {
    for x in l.outer_writes() {
        if into.contains_key(x)
            && let Some(v) = from.get(x)
        {
            into.insert(x.to_owned(), *v);
        }
    }
}

/// Where `p->field` lives, for each lane of `m`, when every one of them
/// holds a pointer into global memory: a slot of its own per (element,
/// field), so that lanes reading one struct's field read one value and
/// a member's write is what another member reads. Shared structs are
/// modelled in the IR instead (`ir::lower::fields`).
fn field_ptrs(base: &Lanes, field: &str, m: u32) -> Option<[Ptr; 32]> {
    // Far above any element offset a run indexes, and room for a field
    // id under each element.
    const FIELD_BASE: i64 = 1 << 44;
    const FIELD_IDS: i64 = 1 << 20;
    let id = crate::tu::words::hash_word(field.as_bytes()) % FIELD_IDS as u64;
    let mut out = [Ptr {
        space: Space::Global(0),
        offset: 0,
        level: 0,
    }; 32];
    if m == 0 {
        return None;
    }
    for l in lanes_of(m) {
        let Val::Ptr(p) = base[l] else {
            return None;
        };
        if matches!(p.space, Space::Local(_)) {
            return None;
        }
        out[l] = Ptr {
            space: p.space,
            offset: FIELD_BASE
                .saturating_add(p.offset.saturating_mul(FIELD_IDS))
                .saturating_add(id as i64),
            level: p.level,
        };
    }
    Some(out)
}

/// Whether `e` can take any integer value for some choice of the inputs it
/// reads (parameters, loaded memory, fields, unknown calls): `n / 4` and
/// `len - off` can, `((n + b - 1) / b) * b` and `n % 32` cannot. Bounded
/// by depth; past it, no.
fn takes_any_value(
    f: &Function,
    defs: &rustc_hash::FxHashMap<&str, ExprId>,
    e: ExprId,
    depth: usize,
) -> bool {
    if depth > 8 {
        return false;
    }
    let free = |x: ExprId| takes_any_value(f, defs, x, depth + 1);
    let literal = |x: ExprId| matches!(f.expr(x).kind, ExprKind::Int(_));
    match &f.expr(e).kind {
        ExprKind::Var(name) => {
            if f.params.iter().any(|p| &p.name == name) {
                return true;
            }
            match defs.get(name.as_str()) {
                Some(&init) => free(init),
                // Written in several places, or not declared here.
                None => true,
            }
        }
        ExprKind::Member(..) | ExprKind::Index(..) | ExprKind::Unknown => true,
        ExprKind::Unary(UnOp::Deref, _) => true,
        ExprKind::Unary(UnOp::Neg, a) => free(*a),
        ExprKind::Call(c) => {
            Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some()).is_none()
                && !matches!(c.name.as_str(), "min" | "max" | "abs")
        }
        ExprKind::Binary(BinOp::Add | BinOp::Sub, a, b) => free(*a) || free(*b),
        ExprKind::Binary(BinOp::Div | BinOp::Shr, a, _) => free(*a),
        ExprKind::Binary(BinOp::Mul, a, b) => !literal(*a) && !literal(*b) && free(*a) && free(*b),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether local `name`'s one definition, in the first function of
    /// `body`, can take any value.
    fn free(body: &str, name: &str) -> bool {
        let src =
            format!("__device__ void f(const int *p, int n, int m) {{ {body} p[0] = {name}; }}");
        let source = crate::source::SourceFile::new("t.cu", src.as_bytes());
        let parsed = crate::frontend::parse(source).expect("parses");
        let module = crate::ir::lower_file(&parsed, &crate::frontend::PreprocEnv::default());
        let f = &module.functions[0];
        let defs = f.unwritten_locals();
        takes_any_value(f, &defs, defs[name], 0)
    }

    #[test]
    fn a_split_chooses_only_values_a_local_can_take() {
        for (body, name) in [
            ("const int v = n / 4;", "v"),
            ("const int v = p[n] - m;", "v"),
            ("const int v = n * m;", "v"),
            ("const int a = n >> 2; const int v = a + 3;", "v"),
        ] {
            assert!(free(body, name), "{body}");
        }
        for (body, name) in [
            (
                "const int v = ((n + blockDim.x - 1) / blockDim.x) * blockDim.x;",
                "v",
            ),
            ("const int v = n * 4;", "v"),
            ("const int v = n % 32;", "v"),
            ("const int v = n & 7;", "v"),
            ("const int v = n < m;", "v"),
        ] {
            assert!(!free(body, name), "{body}");
        }
    }
}
