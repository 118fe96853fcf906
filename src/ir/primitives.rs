//! The warp- and block-level primitives warplint models, by name.

/// The name an inline-PTX `shfl.sync.idx.b32 d, a, b, c, m;` lowers to:
/// `ASM_BROADCAST(a, b, c, m)`, lane `b` of `a` with PTX clamp/segment
/// operand `c` (`0x1f`: the whole warp) and member mask `m`. Not a
/// `Primitive` (rules do not check it); the dataflow and the executor know
/// its value.
pub const ASM_BROADCAST: &str = "__warplint_asm_shfl_idx";

/// The name an inline-PTX template of pure arithmetic (`cvt`, `fma`,
/// `setp`/`selp`, …) lowers to, per output: `ASM_VALUE(inputs…)`, as
/// uniform as its inputs.
pub const ASM_VALUE: &str = "__warplint_asm_value";

/// The name inline PTX of warp votes and reductions (`redux.sync`,
/// `vote.sync`, with pure arithmetic around them) lowers to, per output:
/// `ASM_WARP_VALUE(inputs…)`, one value for the lanes of a warp at least.
pub const ASM_WARP_VALUE: &str = "__warplint_asm_warp_value";

/// The name any other inline PTX with outputs lowers to, per output:
/// `ASM_OPAQUE(inputs…)`, a value that may differ in every lane whatever
/// the inputs (a shared-memory load, `mbarrier.try_wait`, `%%clock`).
pub const ASM_OPAQUE: &str = "__warplint_asm_opaque";

/// `ALIGNED_OP()`, written where inline PTX runs a tensor instruction with
/// the `.aligned` qualifier (`mma.sync.aligned`, `ldmatrix.sync.aligned`,
/// `wmma.*`, `wgmma.*`): every lane of the warp must execute it together,
/// which states that the conditions around it are warp-uniform
/// (`dataflow/converged.rs`). No value, no effect in a run.
pub const ALIGNED_OP: &str = "__warplint_aligned";

/// `WARP_REDUCED(v, kind, bound, width)`, written after a loop that xor
/// butterflies `v` (`lower/butterfly.rs`): `v`, one value per warp where
/// `kind`, `bound` and `width` fold to all five offsets over 32 lanes.
pub const WARP_REDUCED: &str = "__warplint_warp_reduced";

/// Whether `WARP_REDUCED`'s arguments fold to a full butterfly: the
/// counter halving from `bound` in 16..=31 (`kind` 0) or doubling from 1
/// below `bound` in 17..=32 (`kind` 1), with width 32.
pub fn full_butterfly(kind: Option<i64>, bound: Option<i64>, width: Option<i64>) -> bool {
    width == Some(32)
        && match (kind, bound) {
            (Some(0), Some(b)) => (16..=31).contains(&b),
            (Some(1), Some(b)) => (17..=32).contains(&b),
            _ => false,
        }
}

/// Whether a call is one of the values lowering writes for inline PTX
/// (`ASM_VALUE`, `ASM_WARP_VALUE`, `ASM_OPAQUE`) or a butterfly loop
/// (`WARP_REDUCED`): an expression, not a call anything reports or
/// follows.
pub fn is_asm_value(name: &str) -> bool {
    matches!(name, ASM_VALUE | ASM_WARP_VALUE | ASM_OPAQUE | WARP_REDUCED)
}

/// The name `cg::coalesced_threads()` lowers to: the mask of the lanes
/// that run it together, which a coalesced group holds from then on (its
/// members take it as their mask, through [`COALESCED_MASK`]).
pub const COALESCED_LANES: &str = "__warplint_coalesced_lanes";

/// `COALESCED_MASK(g)`: the mask coalesced group `g` holds (its value),
/// as its members pass it to the `_sync` primitive they stand for. Marks
/// the mask as a group's: the lanes that were together when the group was
/// formed, which usually are the lanes that reach its members.
pub const COALESCED_MASK: &str = "__warplint_coalesced_mask";

/// The name a thread block cluster's `sync()` (`cluster.sync()`,
/// `cg::sync(cluster)`) lowers to: a barrier every non-exited thread of
/// the cluster's blocks must reach, so within a block it is a block
/// barrier ([`SyncthreadsMode::Cluster`]).
pub const CLUSTER_SYNC: &str = "__warplint_cluster_sync";

/// The name the grid's `sync()` (`grid.sync()`, `cg::sync(grid)`, in a
/// cooperative launch) lowers to: a barrier for every thread of the grid,
/// so within a block a block barrier ([`SyncthreadsMode::Grid`]).
pub const GRID_SYNC: &str = "__warplint_grid_sync";

/// The names inline PTX's counted named barriers lower to (`bar.sync 1,
/// 128;`, `barrier.arrive %0, %1;`, …): `NAME(id, count)`, by form
/// (`aligned`: `bar` or `.aligned`; `arrive`: arrives without waiting).
/// A barrier with a thread count is not the block's: only the warps that
/// take part arrive, each as a whole; but every thread waits there for the
/// threads of its own warp that have not exited (PTX ISA, `barrier`).
/// See [`SyncthreadsMode::Named`].
pub const NAMED_BARRIERS: [(NamedBarrier, &str, &str); 4] = [
    (
        NamedBarrier::form(true, false),
        "__warplint_bar_sync",
        "bar.sync",
    ),
    (
        NamedBarrier::form(false, false),
        "__warplint_barrier_sync",
        "barrier.sync",
    ),
    (
        NamedBarrier::form(true, true),
        "__warplint_bar_arrive",
        "bar.arrive",
    ),
    (
        NamedBarrier::form(false, true),
        "__warplint_barrier_arrive",
        "barrier.arrive",
    ),
];

impl NamedBarrier {
    const fn form(aligned: bool, arrive: bool) -> NamedBarrier {
        NamedBarrier { aligned, arrive }
    }

    /// Its row of [`NAMED_BARRIERS`]: (form, name lowered to, as PTX writes it).
    fn row(self) -> &'static (NamedBarrier, &'static str, &'static str) {
        let i = usize::from(!self.aligned) + 2 * usize::from(self.arrive);
        &NAMED_BARRIERS[i]
    }

    /// The name a counted named barrier of this form lowers to.
    pub fn lowered_name(self) -> &'static str {
        self.row().1
    }
}

/// The warp collectives of inline PTX, by the intrinsic each is
/// (`shfl.sync.down.b32 d|p, a, b, c, m;` is `__shfl_down_sync(m, a, b,
/// w)`): the name its check lowers to, and the opcode as PTX spells it.
/// Each lowers to `NAME(membermask, operands…)`, argument for argument as
/// its intrinsic, so the warp rules check its mask as theirs. Its outputs
/// are lowered apart (`ASM_VALUE` and the rest): these calls only meet.
pub const PTX_COLLECTIVES: [(Primitive, &str, &str); 18] = [
    (
        Primitive::Shfl(ShflMode::Idx),
        "__warplint_ptx_shfl_idx",
        "shfl.sync.idx",
    ),
    (
        Primitive::Shfl(ShflMode::Up),
        "__warplint_ptx_shfl_up",
        "shfl.sync.up",
    ),
    (
        Primitive::Shfl(ShflMode::Down),
        "__warplint_ptx_shfl_down",
        "shfl.sync.down",
    ),
    (
        Primitive::Shfl(ShflMode::Xor),
        "__warplint_ptx_shfl_bfly",
        "shfl.sync.bfly",
    ),
    (
        Primitive::Vote(VoteMode::Ballot),
        "__warplint_ptx_vote_ballot",
        "vote.sync.ballot",
    ),
    (
        Primitive::Vote(VoteMode::Any),
        "__warplint_ptx_vote_any",
        "vote.sync.any",
    ),
    (
        Primitive::Vote(VoteMode::All),
        "__warplint_ptx_vote_all",
        "vote.sync.all",
    ),
    (
        Primitive::Vote(VoteMode::Uni),
        "__warplint_ptx_vote_uni",
        "vote.sync.uni",
    ),
    (
        Primitive::Match { all: false },
        "__warplint_ptx_match_any",
        "match.any.sync",
    ),
    (
        Primitive::Match { all: true },
        "__warplint_ptx_match_all",
        "match.all.sync",
    ),
    (
        Primitive::Reduce(ReduceOp::Add),
        "__warplint_ptx_redux_add",
        "redux.sync.add",
    ),
    (
        Primitive::Reduce(ReduceOp::Min),
        "__warplint_ptx_redux_min",
        "redux.sync.min",
    ),
    (
        Primitive::Reduce(ReduceOp::Max),
        "__warplint_ptx_redux_max",
        "redux.sync.max",
    ),
    (
        Primitive::Reduce(ReduceOp::And),
        "__warplint_ptx_redux_and",
        "redux.sync.and",
    ),
    (
        Primitive::Reduce(ReduceOp::Or),
        "__warplint_ptx_redux_or",
        "redux.sync.or",
    ),
    (
        Primitive::Reduce(ReduceOp::Xor),
        "__warplint_ptx_redux_xor",
        "redux.sync.xor",
    ),
    (
        Primitive::Syncwarp,
        "__warplint_ptx_bar_warp_sync",
        "bar.warp.sync",
    ),
    (Primitive::Elect, "__warplint_ptx_elect_sync", "elect.sync"),
];

/// The opcode a PTX collective's check was lowered from, as PTX spells it
/// (`shfl.sync.down`); `None` for any other call.
pub fn ptx_spelling(name: &str) -> Option<&'static str> {
    ptx_row(name).map(|row| row.2)
}

/// The row of [`PTX_COLLECTIVES`] whose check `name` is.
fn ptx_row(name: &str) -> Option<&'static (Primitive, &'static str, &'static str)> {
    (name.starts_with("__warplint_ptx_"))
        .then(|| PTX_COLLECTIVES.iter().find(|row| row.1 == name))
        .flatten()
}

/// PTX's `c` operand of `shfl.sync` for width 32: no segment mask, clamp 31.
pub const PTX_WHOLE_WARP: i64 = 0x1f;

/// A call the executor treats as a collective (or as lane-identity).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Primitive {
    /// `__shfl_sync` family: (mask, var, lane/delta/laneMask, width).
    Shfl(ShflMode),
    /// `__ballot_sync`, `__any_sync`, `__all_sync`, `__uni_sync`.
    Vote(VoteMode),
    /// `__match_any_sync`, `__match_all_sync`.
    Match { all: bool },
    /// `__reduce_{add,min,max,and,or,xor}_sync`.
    Reduce(ReduceOp),
    /// `__syncwarp(mask = 0xffffffff)`.
    Syncwarp,
    /// `__syncthreads()` and `_count`/`_and`/`_or` (and a block's
    /// `sync()`, lowered to it).
    Syncthreads(SyncthreadsMode),
    /// `__activemask()`.
    Activemask,
    /// PTX `elect.sync d|p, membermask;` (sm_90): one lane of the mask is
    /// elected; every lane named in the mask waits there for the others,
    /// as at a `_sync` primitive, and one outside it is undefined.
    Elect,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShflMode {
    Idx,
    Up,
    Down,
    Xor,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VoteMode {
    Ballot,
    Any,
    All,
    Uni,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReduceOp {
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncthreadsMode {
    Plain,
    Count,
    And,
    Or,
    /// A thread block cluster's barrier ([`CLUSTER_SYNC`]).
    Cluster,
    /// The grid's barrier ([`GRID_SYNC`]).
    Grid,
    /// A PTX named barrier with a thread count ([`NAMED_BARRIERS`]): the
    /// warps that take part are the code's choice, so only lanes of one
    /// warp that do not arrive together are a fault (on an H200 such a
    /// warp hung, and compute-sanitizer's synccheck reports a `bar.sync`
    /// whose warp arrives split: `testdata/hardware/named_barrier_*`).
    Named(NamedBarrier),
}

/// The form of a counted named barrier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NamedBarrier {
    /// `bar.*` or `barrier.*.aligned`: every thread of the warp executes
    /// the same instruction. Without it (`barrier.sync`), lanes of a warp
    /// may arrive at it from sibling arms.
    pub aligned: bool,
    /// `*.arrive`: the thread arrives and goes on; it orders nothing for
    /// its own later accesses.
    pub arrive: bool,
}

impl SyncthreadsMode {
    /// A barrier every non-exited thread of the block (or more) must reach.
    pub fn is_block_wide(self) -> bool {
        !matches!(self, SyncthreadsMode::Named(_))
    }

    /// An aligned named barrier: every live lane of a warp that takes part
    /// must execute it together (WL007 checks it one warp at a time).
    pub fn is_aligned_named(self) -> bool {
        matches!(
            self,
            SyncthreadsMode::Named(NamedBarrier { aligned: true, .. })
        )
    }
}

impl Primitive {
    /// Classify a free-function call by name (`scope` is the `ns::` part).
    pub fn from_call(name: &str, scope: Option<&str>, has_receiver: bool) -> Option<Primitive> {
        // Group members (`tile.sync()`) and `cg::` functions are resolved
        // by the lowering, which knows each group's kind: a block's sync
        // becomes `__syncthreads()`, a tile's `__syncwarp(tile mask)`; what
        // stays a scoped or member call is not a primitive.
        if has_receiver || scope.is_some_and(|s| !s.is_empty()) {
            return None;
        }
        Some(match name {
            "__shfl_sync" => Primitive::Shfl(ShflMode::Idx),
            "__shfl_up_sync" => Primitive::Shfl(ShflMode::Up),
            "__shfl_down_sync" => Primitive::Shfl(ShflMode::Down),
            "__shfl_xor_sync" => Primitive::Shfl(ShflMode::Xor),
            "__ballot_sync" => Primitive::Vote(VoteMode::Ballot),
            "__any_sync" => Primitive::Vote(VoteMode::Any),
            "__all_sync" => Primitive::Vote(VoteMode::All),
            "__uni_sync" => Primitive::Vote(VoteMode::Uni),
            "__match_any_sync" => Primitive::Match { all: false },
            "__match_all_sync" => Primitive::Match { all: true },
            "__reduce_add_sync" => Primitive::Reduce(ReduceOp::Add),
            "__reduce_min_sync" => Primitive::Reduce(ReduceOp::Min),
            "__reduce_max_sync" => Primitive::Reduce(ReduceOp::Max),
            "__reduce_and_sync" => Primitive::Reduce(ReduceOp::And),
            "__reduce_or_sync" => Primitive::Reduce(ReduceOp::Or),
            "__reduce_xor_sync" => Primitive::Reduce(ReduceOp::Xor),
            "__syncwarp" => Primitive::Syncwarp,
            "__syncthreads" => Primitive::Syncthreads(SyncthreadsMode::Plain),
            "__syncthreads_count" => Primitive::Syncthreads(SyncthreadsMode::Count),
            "__syncthreads_and" => Primitive::Syncthreads(SyncthreadsMode::And),
            "__syncthreads_or" => Primitive::Syncthreads(SyncthreadsMode::Or),
            CLUSTER_SYNC => Primitive::Syncthreads(SyncthreadsMode::Cluster),
            GRID_SYNC => Primitive::Syncthreads(SyncthreadsMode::Grid),
            "__activemask" => Primitive::Activemask,
            _ if name.starts_with("__warplint_ptx_") => ptx_row(name)?.0,
            _ => {
                let (form, _, _) = NAMED_BARRIERS.iter().find(|(_, n, _)| *n == name)?;
                Primitive::Syncthreads(SyncthreadsMode::Named(*form))
            }
        })
    }

    /// Warp-scoped primitives that take a mask as their first argument.
    pub fn is_masked(self) -> bool {
        matches!(
            self,
            Primitive::Shfl(_)
                | Primitive::Vote(_)
                | Primitive::Match { .. }
                | Primitive::Reduce(_)
                | Primitive::Syncwarp
                | Primitive::Elect
        )
    }

    /// A key that two arrivals must share to meet in one collective.
    pub fn rendezvous_class(self) -> u8 {
        match self {
            Primitive::Shfl(_) => 1,
            Primitive::Vote(_) => 2,
            Primitive::Match { .. } => 3,
            Primitive::Reduce(_) => 4,
            Primitive::Syncwarp => 5,
            // Lanes of a warp meet at a named barrier from sibling arms.
            Primitive::Syncthreads(SyncthreadsMode::Named(_)) => 7,
            Primitive::Syncthreads(_) => 6,
            Primitive::Elect => 8,
            Primitive::Activemask => 0,
        }
    }

    pub fn display_name(self) -> &'static str {
        match self {
            Primitive::Shfl(ShflMode::Idx) => "__shfl_sync",
            Primitive::Shfl(ShflMode::Up) => "__shfl_up_sync",
            Primitive::Shfl(ShflMode::Down) => "__shfl_down_sync",
            Primitive::Shfl(ShflMode::Xor) => "__shfl_xor_sync",
            Primitive::Vote(VoteMode::Ballot) => "__ballot_sync",
            Primitive::Vote(VoteMode::Any) => "__any_sync",
            Primitive::Vote(VoteMode::All) => "__all_sync",
            Primitive::Vote(VoteMode::Uni) => "__uni_sync",
            Primitive::Match { all: false } => "__match_any_sync",
            Primitive::Match { all: true } => "__match_all_sync",
            Primitive::Reduce(_) => "__reduce_*_sync",
            Primitive::Syncwarp => "__syncwarp",
            Primitive::Syncthreads(SyncthreadsMode::Cluster) => "cluster.sync",
            Primitive::Syncthreads(SyncthreadsMode::Grid) => "grid.sync",
            Primitive::Syncthreads(SyncthreadsMode::Named(f)) => f.row().2,
            Primitive::Syncthreads(_) => "__syncthreads",
            Primitive::Activemask => "__activemask",
            Primitive::Elect => "elect.sync",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_named_barrier_form_finds_its_own_row() {
        for row in &NAMED_BARRIERS {
            assert_eq!(row.0.row(), row);
            let call = Primitive::from_call(row.1, None, false);
            assert_eq!(
                call,
                Some(Primitive::Syncthreads(SyncthreadsMode::Named(row.0)))
            );
            assert_eq!(call.map(Primitive::display_name), Some(row.2));
        }
    }

    #[test]
    fn each_ptx_collective_is_its_intrinsic() {
        for (prim, name, spelling) in &PTX_COLLECTIVES {
            assert_eq!(Primitive::from_call(name, None, false), Some(*prim));
            assert_eq!(ptx_spelling(name), Some(*spelling));
            assert!(prim.is_masked(), "{spelling} takes a member mask");
        }
        assert_eq!(ptx_spelling("__shfl_down_sync"), None);
        // The prefilter, which comes before the IR and keeps its own list
        // of opcodes, passes a file whose only warp code is any of them.
        for (_, _, spelling) in &PTX_COLLECTIVES {
            let file = format!("asm volatile(\"{spelling}.b32 %0, %1, 0xffffffff;\");");
            assert!(
                crate::prefilter::has_warp_code(file.as_bytes()),
                "{spelling}"
            );
        }
        assert_eq!(
            Primitive::from_call("__warplint_ptx_nothing", None, false),
            None
        );
    }
}
