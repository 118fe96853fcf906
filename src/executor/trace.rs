//! What one run of the executor records: collective arrivals, barriers,
//! shared-memory accesses, exits, and the observable results.

use std::collections::BTreeMap;

use super::value::{Space, Val};
use crate::ir::{ExprId, Primitive};

/// Guesses a trace records one by one (see [`Trace::guesses`]).
pub const MAX_GUESSES: usize = 256;

/// A call site: (function index in the module, call expression).
pub type Site = (usize, ExprId);

/// One execution of a collective by the lanes converged on it (SIMT order).
#[derive(Debug, Clone)]
pub struct Collective {
    pub prim: Primitive,
    /// The primitive as the code wrote it (`__shfl_down_sync`, or
    /// `shfl.sync.down` in inline PTX), for witnesses.
    pub name: &'static str,
    /// Call path from the run's root function to the primitive.
    pub chain: Vec<Site>,
    pub line: usize,
    pub time: u64,
    /// Lanes executing it together.
    pub active: u32,
    /// The mask each active lane passed (`None`: not known).
    pub masks: [Option<u32>; 32],
    /// Lanes that had exited the kernel before it.
    pub exited: u32,
    /// Lanes that exist in this warp (a partial last warp has fewer).
    pub present: u32,
    /// Open divergent regions: (instance, arm), outermost first.
    pub regions: Vec<(u32, u16)>,
    /// For each lane not active, where it was (line, what) at the time.
    pub whereabouts: Vec<(u32, usize, &'static str)>,
    /// Shuffle width, when constant.
    pub width: Option<i64>,
    /// Shuffle reads: (reader lane, source lane).
    pub reads: Vec<(u32, u32)>,
    /// A named barrier's id and thread count, when every active lane
    /// passed the same known values.
    pub barrier: Option<(i64, i64)>,
}

impl Collective {
    /// The union of the masks the active lanes passed, if all are known.
    pub fn named(&self) -> Option<u32> {
        let mut m = 0;
        for lane in 0..32 {
            if self.active >> lane & 1 == 1 {
                m |= self.masks[lane as usize]?;
            }
        }
        Some(m)
    }

    /// The mask, when every active lane passed the same one.
    pub fn uniform_mask(&self) -> Option<u32> {
        let mut out = None;
        for lane in 0..32 {
            if self.active >> lane & 1 == 1 {
                let m = self.masks[lane as usize]?;
                match out {
                    None => out = Some(m),
                    Some(o) if o != m => return None,
                    _ => {}
                }
            }
        }
        out
    }
}

#[derive(Debug, Clone)]
pub struct Access {
    pub lane: u32,
    pub space: Space,
    pub offset: i64,
    pub write: bool,
    /// A write's value where the run knows it (an integer or a float).
    pub stored: Option<super::value::Val>,
    pub time: u64,
    /// Shared by the accesses of one expression's evaluation (all its lanes).
    pub chain: std::sync::Arc<[Site]>,
    pub line: usize,
    /// Byte span of the access expression (for ordering by source).
    pub start: usize,
}

#[derive(Debug, Clone)]
pub struct Barrier {
    pub time: u64,
    /// Lanes the barrier orders with each other.
    pub participants: u32,
}

#[derive(Debug, Clone, Default)]
pub struct Trace {
    pub collectives: Vec<Collective>,
    pub accesses: Vec<Access>,
    pub barriers: Vec<Barrier>,
    /// Exits from the kernel: (lanes, line).
    pub exits: Vec<(u32, usize)>,
    /// Lanes that left the kernel through a `return` (not its end).
    pub returned_lanes: u32,
    /// The lanes of the warp that exist (a last warp may be partial).
    pub present: u32,
    /// Final contents of global memory written by the run.
    pub global: BTreeMap<(Space, i64), Val>,
    /// Per-lane return value of the root function.
    pub returned: Vec<Val>,
    /// Branches whose outcome the executor had to choose: (line, lanes
    /// taken, the condition as written).
    pub assumptions: Vec<(usize, u32, String)>,
    /// The first branch where the run split the warp's lanes by a guess
    /// (a lane-varying value it could not compute): (line, condition).
    /// Nothing in the code says the lanes can split that way.
    pub split_guess: Option<(usize, String)>,
    /// Every such guess: when (the run's clock) and which lanes it split
    /// or gave a chosen value; at most [`MAX_GUESSES`], then
    /// `guesses_overflow`. An observation made before a guess, whose lanes
    /// the guess did not touch, does not rest on it
    /// (`check::Observation::rests_on`).
    pub guesses: Vec<(u64, u32)>,
    pub guesses_overflow: bool,
    /// Values the run chose rather than read from the code: an input picked
    /// from the candidates, memory nobody wrote, an unknown uniform value
    /// chosen to split the warp. A run with none of them (and no
    /// assumption) is exact: it is the only run of its launch.
    pub chosen: Vec<String>,
    /// Inputs of the root (an integral parameter, a compile-time value, a
    /// field path of a parameter) the run chose so that the lanes split,
    /// after it had decided what came before without them: the run stands
    /// only once replayed with them as inputs (`confirm::run_consistent`).
    pub bound_inputs: Vec<(String, i64)>,
    /// The run read data the plan picked rather than the code: memory it
    /// had not written (seeded contents) or an input chosen from the
    /// candidates.
    pub guessed_data: bool,
    /// The run read `blockIdx` or `gridDim` (symbolic setups only): it
    /// stands for its own block, not the grid.
    pub reads_block: bool,
    /// Call sites executed (for "was this finding's site reached?").
    pub reached: rustc_hash::FxHashSet<Site>,
    /// A thread trapped: the grid aborted, so the run shows nothing.
    pub trapped: bool,
    /// Set when a budget ran out or a construct was not modelled.
    pub incomplete: Option<String>,
    pub steps: u64,
    /// Collectives whose undefined results were used (stored, returned or
    /// branched on).
    pub used_undef: rustc_hash::FxHashSet<u32>,
}
