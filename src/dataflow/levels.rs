//! Uniformity of expressions, computed once per expression.
//!
//! [`Levels`] memoizes, per expression id, its [`Level`], whether it is a
//! thread index along x plus a warp-aligned offset (so that `e / 32` is the
//! same for a whole warp), and its constant value. Each expression is
//! combined from its children's entries exactly once per table, with an
//! explicit post-order stack, so evaluating every expression of a function
//! costs time linear in the number of expressions, whatever their depth.
//!
//! The rules are sound: an expression is lane-varying unless shown uniform.
//! Unknown expressions, names the function does not declare (and that are
//! neither file constants nor file-scope variables), lambdas and calls to
//! functions outside the module whose purity is not known are
//! [`Level::Varying`]. A load is as uniform as its address: `p[blockIdx.x]`,
//! `*p`, `obj.field` with a uniform `p` / `obj` read one location for all
//! lanes.

use super::{FnFacts, Level, linear, ranges, slots};
use crate::ir::primitives::{
    ASM_BROADCAST, ASM_VALUE, ASM_WARP_VALUE, PTX_WHOLE_WARP, ShflMode, WARP_REDUCED,
    full_butterfly,
};
use crate::ir::*;

/// What the table knows about one expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    level: Level,
    /// `threadIdx.x + k` with `k` the same for a whole warp and a multiple
    /// of 32 (or of `blockDim.x`, which the executor takes as a multiple of
    /// 32 unless a launch says otherwise): `e / 32`, `e >> 5` and `e < 64`
    /// split on warp boundaries.
    thread_x_aligned: bool,
    /// The folded value, when constant.
    constant: Option<i64>,
    /// A multiple of the block width or of 32 that is the same for a whole
    /// warp: `blockIdx.x * blockDim.x`, `threadIdx.y * blockDim.x`, `64`.
    warp_aligned_offset: bool,
    /// `threadIdx.y` / `threadIdx.z`: the same for a warp when the block
    /// width is a multiple of 32.
    row_index: bool,
    /// A multiple of 32 whatever its value (`64`, `32 * w`, `w << 5`):
    /// with a warp-uniform level, `tid < e` splits on warp boundaries.
    mult32: bool,
    /// The same in every warp for each lane: a function of the lane
    /// (`threadIdx.x % 32`, `lane_idx`) and of what the whole block shares
    /// (see [`Levels::invariant`]).
    invariant: bool,
}

/// Memoized levels of one function's expressions under one set of
/// variable levels.
pub struct Levels {
    memo: Vec<Option<Entry>>,
    /// Expressions combined so far (each at most once per table).
    pub evaluations: u64,
    /// Steps left for reading differences as linear forms (`linear.rs`),
    /// in proportion to the function's size.
    form_steps: usize,
    /// Differences being read inside the reading of another.
    form_nesting: u8,
}

/// Differences read inside the reading of another: deeper ones stay as
/// `combine` left them.
const MAX_FORM_NESTING: u8 = 2;

/// Form steps per expression of the function (plus a floor).
fn form_budget(f: &Function) -> usize {
    form_budget_of(f.exprs.len())
}

fn form_budget_of(exprs: usize) -> usize {
    8 * exprs + 256
}

/// Whether every warp lies within one value of `threadIdx` along `d` (a row
/// or slice of the block): the launches state extents below `d` whose
/// product is a multiple of 32. Grading evidence under
/// `Assume::UniformWholeRows`, an extent no launch states is taken as the
/// benign case: a guard on `threadIdx.y` alone does not show lanes of a
/// warp diverging whatever the block's width, since it may be 32.
fn rows_fill_warps(s: &Scope, d: usize) -> bool {
    if s.module.warps_within_index(s.f, d) {
        return true;
    }
    s.assume == super::Assume::UniformWholeRows
        && d > 0
        && (0..d.min(3)).any(|e| s.module.stated_extent(s.f, e).is_none())
}

/// Callbacks for what an expression table needs from outside it.
pub struct Scope<'a> {
    pub f: &'a Function,
    pub module: &'a Module,
    pub facts: &'a FnFacts,
    /// What the callees return.
    pub callees: &'a dyn super::CalleeLevels,
    pub assume: super::Assume,
}

impl Scope<'_> {
    /// The level of something the analysis knows nothing about.
    fn unknown(&self) -> Level {
        self.assume.unknown()
    }
}

impl Levels {
    pub fn new(f: &Function) -> Levels {
        Levels {
            memo: vec![None; f.exprs.len()],
            evaluations: 0,
            form_steps: form_budget(f),
            form_nesting: 0,
        }
    }

    /// Forget every entry (the variable levels changed).
    pub fn clear(&mut self) {
        self.memo.iter_mut().for_each(|m| *m = None);
        self.form_steps = form_budget_of(self.memo.len());
    }

    pub fn level(&mut self, s: &Scope, e: ExprId) -> Level {
        self.entry(s, e).level
    }

    /// Whether `e` is the same in every warp of the block for each lane:
    /// built from the lane index (`threadIdx.x % 32`, `threadIdx.x & 31`,
    /// `%laneid`) and block-uniform values, by arithmetic, loads, warp
    /// primitives and calls that add no variation of their own, under
    /// guards of the same kind. A warp-uniform value that is also this is
    /// uniform over the block: a grouped GEMM's scheduler computes one
    /// prefix sum per warp over its lanes and broadcasts it, alike in
    /// every warp. (Lanes are `threadIdx.x % 32`: a block whose rows are
    /// not a multiple or a divisor of 32 wide would break it, as it breaks
    /// `thread_x_aligned`.)
    pub fn invariant(&mut self, s: &Scope, e: ExprId) -> bool {
        self.entry(s, e).invariant
    }

    pub fn thread_x_aligned(&mut self, s: &Scope, e: ExprId) -> bool {
        self.entry(s, e).thread_x_aligned
    }

    pub fn warp_aligned_offset(&mut self, s: &Scope, e: ExprId) -> bool {
        self.entry(s, e).warp_aligned_offset
    }

    /// The level of a stride loop's trip count, where its shape decides
    /// it: `Uniform` for a block-stride loop every thread runs as often
    /// ([`slots::stride_loop_is_block_uniform`]), `Warp` for
    /// `for (i = threadIdx.x + k; i < n; i += m)` with `k`, `n` and `m`
    /// multiples of 32 the same for a whole warp. Lane `l` of the warp
    /// whose slots start at `b` (a multiple of 32) stays while
    /// `b + j·m + l < n`; `b + j·m` and `n` are multiples of 32, so that
    /// holds for every `l < 32` or for none: a bound that is a multiple of
    /// 32 but not of the stride leaves whole warps behind, never part of
    /// one. `var` is written nowhere else.
    pub fn stride_loop_level(
        &mut self,
        s: &Scope,
        var: &str,
        start: ExprId,
        cond: ExprId,
        step: ExprId,
    ) -> Option<Level> {
        let (bound, stride) = slots::stride_loop_parts(s.f, var, cond, step)?;
        let forms = &mut Forms { table: self, s };
        if slots::stride_loop_is_block_uniform(forms, var, start, bound, stride) {
            return Some(Level::Uniform);
        }
        if s.facts.writes.get(var).copied().unwrap_or(0) != 1 {
            return None;
        }
        (self.entry(s, start).thread_x_aligned
            && self.entry(s, bound).whole_warps()
            && self.entry(s, stride).whole_warps())
        .then_some(Level::Warp)
    }

    fn entry(&mut self, s: &Scope, e: ExprId) -> Entry {
        if let Some(Some(m)) = self.memo.get(e as usize) {
            return *m;
        }
        // Post-order over the children that have no entry yet.
        let mut stack: Vec<(ExprId, bool)> = vec![(e, false)];
        while let Some((id, expanded)) = stack.pop() {
            if self.memo[id as usize].is_some() {
                continue;
            }
            let kind = &s.f.expr(id).kind;
            if !expanded {
                stack.push((id, true));
                for c in super::children(kind) {
                    if self.memo[c as usize].is_none() {
                        stack.push((c, false));
                    }
                }
                continue;
            }
            let mut entry = self.combine(s, kind);
            if entry.level == Level::Varying && s.facts.exchange_uniform.contains(&id) {
                entry.level = Level::Warp;
            }
            // Grading evidence, one value per warp that is the same in every
            // warp is the block's (see `invariant`). The sound analysis keeps
            // the warp level, and does not work the fact out.
            let grading = s.assume.grades();
            entry.invariant =
                entry.level == Level::Uniform || (grading && self.invariant_of(s, kind, &entry));
            if grading && entry.level == Level::Warp && entry.invariant {
                entry.level = Level::Uniform;
            }
            // `(tile * 128 + row) - row`, and `t < hi + tid` with `t`
            // counting from `lo + tid`: the lane terms cancel.
            if entry.level == Level::Varying
                && let ExprKind::Binary(op, a, b) = kind
                && self.form_nesting < MAX_FORM_NESTING
            {
                self.form_nesting += 1;
                let level = linear::cancelled_level(&mut Forms { table: self, s }, *op, *a, *b);
                self.form_nesting -= 1;
                if let Some(level) = level {
                    entry = Entry::plain(level);
                }
            }
            // `blockIdx.y * 128 + threadIdx.x < 2688` with at most 128
            // threads a block: the block is cut only at its boundaries. And
            // `(warp & 1) * 32 + lane < 64`: every lane decides alike.
            if entry.level != Level::Uniform
                && let ExprKind::Binary(
                    op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne),
                    a,
                    b,
                ) = kind
                && self.form_nesting < MAX_FORM_NESTING
            {
                self.form_nesting += 1;
                let mut forms = Forms { table: self, s };
                let ordered = !matches!(op, BinOp::Eq | BinOp::Ne);
                let uniform = (ordered
                    && slots::comparison_is_block_uniform(&mut forms, *op, *a, *b))
                    || ranges::comparison_is_constant(&mut forms, *op, *a, *b);
                self.form_nesting -= 1;
                if uniform {
                    entry = Entry::plain(Level::Uniform);
                }
            }
            self.evaluations += 1;
            self.memo[id as usize] = Some(entry);
        }
        self.memo[e as usize].expect("the root was combined last")
    }

    /// Whether an expression whose children have their entries is the same
    /// in every warp for each lane (see [`Levels::invariant`]); its own
    /// entry so far is `entry`.
    fn invariant_of(&self, s: &Scope, kind: &ExprKind, entry: &Entry) -> bool {
        let all = |ids: &mut dyn Iterator<Item = ExprId>| {
            let mut ok = true;
            for c in ids {
                ok &= self.get(c).invariant;
            }
            ok
        };
        match kind {
            ExprKind::Var(_) => entry.invariant,
            ExprKind::Builtin(b) => matches!(b, Builtin::LaneId | Builtin::WarpSize),
            ExprKind::Lambda(_) | ExprKind::Unknown => false,
            ExprKind::Binary(op, a, b) => {
                let (a, b) = (self.get(*a), self.get(*b));
                // `tid % k` and `tid & (k - 1)` for k dividing 32: the lane.
                let divides_32 = |k: Option<i64>| k.is_some_and(|k| k > 0 && 32 % k == 0);
                let lane = match op {
                    BinOp::Rem => a.thread_x_aligned && divides_32(b.constant),
                    BinOp::BitAnd => {
                        (a.thread_x_aligned && divides_32(b.constant.map(|m| m + 1)))
                            || (b.thread_x_aligned && divides_32(a.constant.map(|m| m + 1)))
                    }
                    _ => false,
                };
                lane || (a.invariant && b.invariant)
            }
            ExprKind::Call(c) => {
                let args = &mut c.args.iter().chain(c.receiver.iter()).copied();
                match Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some()) {
                    // Which lanes are active differs from warp to warp.
                    Some(Primitive::Activemask) => return false,
                    Some(_) => return all(args),
                    None => {}
                }
                // A callee that returns a uniform value for uniform
                // arguments adds no variation of its own.
                let adds_none = match s.module.callee(c) {
                    Some(g) => {
                        super::extents::row_major(&s.module.functions[g]).is_none()
                            && s.callees.returned(g) == Some(Level::Uniform)
                    }
                    None => {
                        s.assume.grades()
                            || (c.receiver.is_none()
                                && (follows_arguments(&c.name) || c.name == ASM_VALUE))
                    }
                };
                adds_none && all(args)
            }
            other => all(&mut super::children(other).into_iter()),
        }
    }

    /// The child's entry; it was combined before its parent.
    fn get(&self, c: ExprId) -> Entry {
        self.memo[c as usize].unwrap_or(Entry::plain(Level::Varying))
    }

    fn combine(&self, s: &Scope, kind: &ExprKind) -> Entry {
        let plain = Entry::plain;
        let konst = Entry::constant;
        match kind {
            ExprKind::Int(v) => konst(*v),
            ExprKind::Float(_) => plain(Level::Uniform),
            ExprKind::Var(name) => var_entry(s, name),
            ExprKind::Builtin(b) => match b {
                Builtin::ThreadIdx(Dim::X) => Entry {
                    thread_x_aligned: true,
                    ..plain(Level::Varying)
                },
                // A dimension every launch of the class gives extent 1
                // (`Module::launch_extents`): its index is 0 in every thread.
                Builtin::ThreadIdx(d) if s.module.stated_extent(s.f, *d as usize) == Some(1) => {
                    konst(0)
                }
                // Rows (or slices) whole warps fill: every warp lies in one,
                // so its index is the same across the warp.
                Builtin::ThreadIdx(d) if rows_fill_warps(s, *d as usize) => Entry {
                    row_index: true,
                    ..plain(Level::Warp)
                },
                Builtin::ThreadIdx(_) => Entry {
                    row_index: true,
                    ..plain(Level::Varying)
                },
                Builtin::LaneId => plain(Level::Varying),
                Builtin::BlockDim(Dim::X) => Entry {
                    warp_aligned_offset: true,
                    ..plain(Level::Uniform)
                },
                Builtin::WarpSize => konst(32),
                _ => plain(Level::Uniform),
            },
            ExprKind::Unary(op, a) => {
                let a = self.get(*a);
                let constant = a.constant.and_then(|v| match op {
                    UnOp::Neg => Some(v.wrapping_neg()),
                    UnOp::Not => Some((v == 0) as i64),
                    UnOp::BitNot => Some(crate::ir::fold::bit_not(v)),
                    _ => None,
                });
                // `*p` loads from the address `p`: uniform if `p` is.
                Entry {
                    constant,
                    ..plain(a.level)
                }
            }
            // A field of an object every lane shares is one location.
            ExprKind::Member(a, _) => plain(self.get(*a).level),
            ExprKind::Update { target, .. } => plain(self.get(*target).level),
            ExprKind::Binary(op, a, b) => self.binary(*op, self.get(*a), self.get(*b)),
            ExprKind::Assign { op, lhs, rhs } => {
                let r = self.get(*rhs);
                match op {
                    None => r,
                    Some(_) => plain(r.level.max(self.get(*lhs).level)),
                }
            }
            ExprKind::Ternary(c, a, b) => {
                let (c, a, b) = (self.get(*c), self.get(*a), self.get(*b));
                // A constant condition selects one arm, as the compiler does
                // (`(1) ? warp == 0 : tid == 0` is the warp test).
                match c.constant {
                    Some(0) => b,
                    Some(_) => a,
                    None => plain(c.level.max(a.level).max(b.level)),
                }
            }
            ExprKind::Comma(_, b) => plain(self.get(*b).level),
            // A load at `a[b]` is as uniform as its address.
            ExprKind::Index(a, b) => plain(self.get(*a).level.max(self.get(*b).level)),
            // The row-major thread index of the block's stated extents:
            // the linear index warps are cut from (see `extents`).
            ExprKind::Call(c)
                if s.module.callee(c).is_some_and(|g| {
                    super::extents::row_major(&s.module.functions[g])
                        .is_some_and(|rm| super::extents::row_major_call(s.f, c, rm))
                }) =>
            {
                Entry {
                    thread_x_aligned: true,
                    ..plain(Level::Varying)
                }
            }
            ExprKind::Call(c) => plain(self.call(s, c)),
            // A closure value: its captures are not tracked.
            ExprKind::Lambda(_) | ExprKind::Unknown => plain(s.unknown()),
        }
    }

    fn binary(&self, op: BinOp, a: Entry, b: Entry) -> Entry {
        let constant = match (a.constant, b.constant) {
            (Some(x), Some(y)) => crate::ir::fold::apply_binop(op, x, y),
            _ => None,
        };
        let level = a.level.max(b.level);
        // `threadIdx.x + k`: still aligned when `k` is a warp-uniform
        // multiple of 32 or of the block width (`threadIdx.x - kBase` with
        // `kBase` a multiple of 32 in every instantiation).
        let offset = |y: Entry| {
            y.warp_aligned_offset
                || (y.level == Level::Uniform && y.constant.is_some_and(|k| k % 32 == 0))
                || (y.level <= Level::Warp && y.mult32)
        };
        // Reducing modulo a multiple of 32 keeps each warp's 32 lanes
        // together: `(tid % 256) / 32` and `(tid & 255) >> 5` are per warp.
        let warp_modulus = |k: Option<i64>| k.is_some_and(|k| k > 0 && k % 32 == 0);
        let low_bits =
            |k: Option<i64>| k.is_some_and(|k| k > 0 && (k + 1) % 32 == 0 && k & (k + 1) == 0);
        let thread_x_aligned = match op {
            BinOp::Add => (a.thread_x_aligned && offset(b)) || (b.thread_x_aligned && offset(a)),
            BinOp::Sub => a.thread_x_aligned && offset(b),
            BinOp::Rem => a.thread_x_aligned && warp_modulus(b.constant),
            BinOp::BitAnd => {
                (a.thread_x_aligned && low_bits(b.constant))
                    || (b.thread_x_aligned && low_bits(a.constant))
            }
            _ => false,
        };
        // The block width times something the same for a warp.
        let row_factor = |y: Entry| y.level <= Level::Warp || y.row_index;
        // A warp-uniform value times a multiple of 32 (`warp * 32`,
        // `warp << 5`): `warp * 32 + lane` is a thread slot whose 32 lanes
        // are one warp's.
        let times_32 = |y: Entry, k: Option<i64>| {
            y.level <= Level::Warp && k.is_some_and(|k| k != 0 && k % 32 == 0)
        };
        let warp_aligned_offset = match op {
            BinOp::Mul => {
                (a.warp_aligned_offset && row_factor(b))
                    || (b.warp_aligned_offset && row_factor(a))
                    || times_32(a, b.constant)
                    || times_32(b, a.constant)
            }
            BinOp::Shl => {
                a.level <= Level::Warp && b.constant.is_some_and(|k| (5..32).contains(&k))
            }
            BinOp::Add => offset(a) && offset(b),
            _ => false,
        };
        // Splits on warp boundaries: tid / 32, tid >> 5, tid < 64.
        let splits_on_warps = a.thread_x_aligned
            && b.constant.is_some_and(|k| match op {
                BinOp::Div => k > 0 && k % 32 == 0,
                BinOp::Shr => k >= 5,
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                    k % 32 == 0 || (matches!(op, BinOp::Le | BinOp::Gt) && (k + 1) % 32 == 0)
                }
                _ => false,
            });
        // `tid < 32 * w` and `tid >= 32 * w` (w the same for the warp) cut
        // at a warp boundary whatever w is; `<=` and `>` cut after lane
        // 32·w, inside a warp, so only these two (and their mirrors).
        let splits_on_warps = splits_on_warps
            || (a.thread_x_aligned && b.whole_warps() && matches!(op, BinOp::Lt | BinOp::Ge))
            || (b.thread_x_aligned && a.whole_warps() && matches!(op, BinOp::Gt | BinOp::Le));
        let mult32 = match op {
            BinOp::Mul => a.mult32 || b.mult32,
            BinOp::Add | BinOp::Sub => a.mult32 && b.mult32,
            BinOp::Shl => b.constant.is_some_and(|k| (5..63).contains(&k)),
            _ => constant.is_some_and(|k| k % 32 == 0),
        } || constant.is_some_and(|k| k % 32 == 0);
        Entry {
            level: if splits_on_warps && level == Level::Varying {
                Level::Warp
            } else {
                level
            },
            thread_x_aligned,
            constant,
            warp_aligned_offset,
            row_index: false,
            mult32,
            // Set once the entry is complete (`Levels::invariant_of`).
            invariant: false,
        }
    }

    fn call(&self, s: &Scope, c: &Call) -> Level {
        let args = || {
            c.args
                .iter()
                .chain(c.receiver.iter())
                .map(|a| self.get(*a).level)
                .max()
                .unwrap_or(Level::Uniform)
        };
        // Every lane's copy of a uniform value is that value: whichever
        // lane a shuffle reads, the result is the same for the block.
        let exchanged =
            |value: Option<&ExprId>| value.is_some_and(|v| self.get(*v).level == Level::Uniform);
        match Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some()) {
            Some(Primitive::Shfl(_)) if exchanged(c.args.get(1)) => Level::Uniform,
            None if c.name == ASM_BROADCAST
                && c.receiver.is_none()
                && exchanged(c.args.first()) =>
            {
                Level::Uniform
            }
            Some(Primitive::Vote(_)) | Some(Primitive::Reduce(_)) => Level::Warp,
            None if c.name == ASM_WARP_VALUE && c.receiver.is_none() => Level::Warp.max(args()),
            // Every lane reading one uniform source lane reads one value,
            // over the whole warp only with width 32 (a narrower width
            // reads that lane of each segment).
            Some(Primitive::Shfl(ShflMode::Idx))
                if c.args
                    .get(2)
                    .is_some_and(|src| self.get(*src).level <= Level::Warp)
                    && c.args
                        .get(3)
                        .is_none_or(|w| self.get(*w).constant == Some(32)) =>
            {
                Level::Warp
            }
            // The group's mask if every lane passed the same value, else 0:
            // one answer for the lanes that call it together with one mask.
            Some(Primitive::Match { all: true }) => c
                .args
                .first()
                .map_or(Level::Varying, |m| self.get(*m).level.max(Level::Warp)),
            Some(Primitive::Match { .. })
            | Some(Primitive::Shfl(_))
            | Some(Primitive::Activemask)
            | Some(Primitive::Elect) => Level::Varying,
            Some(Primitive::Syncwarp) | Some(Primitive::Syncthreads(_)) => Level::Uniform,
            // Inline-PTX `shfl.sync.idx` over the whole warp from one
            // source lane: one value for the warp.
            None if c.name == ASM_BROADCAST && c.receiver.is_none() => {
                let uniform_src = c
                    .args
                    .get(1)
                    .is_some_and(|a| self.get(*a).level <= Level::Warp);
                let whole_warp = c
                    .args
                    .get(2)
                    .is_some_and(|a| self.get(*a).constant == Some(PTX_WHOLE_WARP));
                if uniform_src && whole_warp {
                    Level::Warp
                } else {
                    Level::Varying
                }
            }
            // Before the callee: CuTe's own definition, where a header
            // supplies it, reads as a function of its (lane-varying)
            // argument, but a partition's shape is every thread's.
            None if crate::ir::library::is_shape_query(c) => Level::Uniform,
            // After a butterfly loop: one value per warp where it is full.
            None if c.name == WARP_REDUCED && c.receiver.is_none() => {
                let value = c
                    .args
                    .first()
                    .map_or(Level::Varying, |v| self.get(*v).level);
                let konst = |k: usize| c.args.get(k).and_then(|a| self.get(*a).constant);
                if full_butterfly(konst(1), konst(2), konst(3)) {
                    value.min(Level::Warp)
                } else {
                    value
                }
            }
            None => match s.module.callee(c) {
                Some(g) => {
                    let returned = s.callees.returned(g);
                    let with_args = match returned {
                        Some(r) => r.max(args()),
                        None => s.unknown().max(args()),
                    };
                    // What it returns whatever the arguments (a helper
                    // that broadcasts its argument from lane 0).
                    let bound = s.callees.bound(g).unwrap_or(Level::Varying);
                    // What it returns given these arguments, where they
                    // raised it (a status read from shared memory beside
                    // a lane's own values).
                    let in_context = match returned {
                        Some(r) if r < with_args && bound > r && c.receiver.is_none() => {
                            let levels: Vec<Level> =
                                c.args.iter().map(|a| self.get(*a).level).collect();
                            s.callees.in_context(g, &levels)
                        }
                        _ => None,
                    };
                    with_args
                        .min(bound)
                        .min(in_context.unwrap_or(Level::Varying))
                }
                None if c.receiver.is_none()
                    && (follows_arguments(&c.name) || c.name == ASM_VALUE) =>
                {
                    args()
                }
                None => s.unknown().max(args()),
            },
        }
    }
}

/// The level table as the leaves of linear forms.
struct Forms<'t, 's, 'a> {
    table: &'t mut Levels,
    s: &'s Scope<'a>,
}

impl linear::Leaves for Forms<'_, '_, '_> {
    fn f(&self) -> &Function {
        self.s.f
    }
    fn locals(&self) -> &rustc_hash::FxHashMap<String, linear::IntLocal> {
        &self.s.facts.int_locals
    }
    fn level(&mut self, e: ExprId) -> Level {
        self.table.entry(self.s, e).level
    }
    fn var_level(&self, name: &str) -> Level {
        var_entry(self.s, name).level
    }
    fn step(&mut self) -> bool {
        self.table.form_steps = self.table.form_steps.saturating_sub(1);
        self.table.form_steps > 0
    }
}

impl slots::SlotLeaves for Forms<'_, '_, '_> {
    fn constant(&self, name: &str) -> Option<i64> {
        let facts = &self.s.facts;
        if facts
            .var_level
            .get(name)
            .is_some_and(|l| *l != Level::Uniform)
        {
            return None;
        }
        facts
            .local_constants
            .get(name)
            .or_else(|| self.s.module.constants.get(name))
            .copied()
    }
    fn writes(&self, name: &str) -> u32 {
        self.s.facts.writes.get(name).copied().unwrap_or(0)
    }
    fn block_width(&self) -> Option<u32> {
        self.s.module.block_width(self.s.f)
    }
    fn asserted_multiple(&self, path: &str) -> Option<crate::ir::asserts::Divisor> {
        self.s.facts.asserted_multiples.get(path).copied()
    }
    fn block_width_at_most(&self) -> Option<u32> {
        let bounds = self.s.f.launch_bounds;
        let stated = self.s.module.stated_extent(self.s.f, 0);
        match (bounds, stated) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// A name read as a value.
fn var_entry(s: &Scope, name: &str) -> Entry {
    let level = if let Some(l) = s.facts.var_level.get(name) {
        *l
    } else if let Some(v) = s.module.constants.get(name) {
        return Entry::constant(*v);
    } else if s.module.globals.contains(name) || s.f.scoped_names.contains(name) {
        // One location for every thread: a file-scope variable, or a name
        // read through a scope (`Traits::kWarps`), which C++ makes a static
        // member, a namespace-scope variable or an enumerator.
        Level::Uniform
    } else {
        // Not declared here, not a file constant or global: unknown.
        s.unknown()
    };
    Entry {
        thread_x_aligned: level == Level::Varying && s.facts.thread_x_vars.contains(name),
        invariant: level == Level::Uniform || s.facts.invariant_vars.contains(name),
        // Grading evidence, a template value is what its default states
        // (`kBase = 0`): a divergence that needs `kBase % 32 != 0` rests on
        // an instantiation the code does not show.
        mult32: s.facts.multiples_of_32.contains(name)
            || (s.assume.grades()
                && s.f
                    .template_defaults
                    .iter()
                    .any(|(t, v)| t == name && v % 32 == 0)),
        constant: match level {
            Level::Uniform => s
                .facts
                .local_constants
                .get(name)
                .or_else(|| s.module.constants.get(name))
                .copied(),
            _ => None,
        },
        ..Entry::plain(level)
    }
}

impl Entry {
    /// A multiple of 32 the same for a whole warp: `tid < e` cuts at a warp
    /// boundary, and a stride of `e` keeps a warp's lanes together.
    fn whole_warps(&self) -> bool {
        self.mult32 && self.level <= Level::Warp
    }

    fn plain(level: Level) -> Entry {
        Entry {
            level,
            thread_x_aligned: false,
            constant: None,
            warp_aligned_offset: false,
            row_index: false,
            mult32: false,
            invariant: level == Level::Uniform,
        }
    }
    fn constant(v: i64) -> Entry {
        Entry {
            constant: Some(v),
            mult32: v % 32 == 0,
            ..Entry::plain(Level::Uniform)
        }
    }
}

/// Library calls whose value is as uniform as their arguments: pure
/// functions and the cache-hinted loads.
pub fn follows_arguments(name: &str) -> bool {
    pure_function(name) || cached_load(name) || name == crate::ir::primitives::COALESCED_MASK
}

/// The cache-hinted loads (`__ldg(&p[i])`, `__ldcg`, …): like `p[i]`, as
/// uniform as the address they read.
pub fn cached_load(name: &str) -> bool {
    matches!(
        name,
        "__ldg" | "__ldca" | "__ldcg" | "__ldcs" | "__ldlu" | "__ldcv"
    )
}

/// Library functions whose result depends only on their arguments.
pub fn pure_function(name: &str) -> bool {
    const PURE: &[&str] = &[
        "min",
        "max",
        "abs",
        "fabs",
        "fabsf",
        "sqrt",
        "sqrtf",
        "rsqrt",
        "rsqrtf",
        "exp",
        "expf",
        "exp2",
        "exp2f",
        "log",
        "logf",
        "log2",
        "log2f",
        "pow",
        "powf",
        "floor",
        "floorf",
        "ceil",
        "ceilf",
        "fmin",
        "fminf",
        "fmax",
        "fmaxf",
        "fma",
        "fmaf",
        "tanh",
        "tanhf",
        "sin",
        "sinf",
        "cos",
        "cosf",
        "__expf",
        "__logf",
        "__fdividef",
        "__popc",
        "__popcll",
        "__clz",
        "__clzll",
        "__ffs",
        "__ffsll",
        "__fns",
        "__brev",
        "__float2int_rn",
        "__int2float_rn",
        "__float2half",
        "__half2float",
        "__float2bfloat16",
        "__bfloat162float",
        "__umulhi",
        "__mul24",
        "__umul24",
        "static_cast",
        "reinterpret_cast",
        "const_cast",
        "ceil_div",
        "div_up",
        "make_int2",
        "make_float2",
        "make_float4",
        "make_int4",
        "make_uint2",
        "make_uint4",
        "sizeof",
        "alignof",
    ];
    PURE.contains(&name) || name.starts_with("std::")
}
