//! What a rule asks the executor to decide: the sites of a finding and the
//! observations that would confirm it. Defined with the rules (which
//! propose claims) so that the executor, a later stage, imports them and
//! not the other way round.

use crate::ir::ExprId;

/// What a finding asks the executor to show.
#[derive(Debug, Clone)]
pub struct Claim {
    /// Index of the function holding the site.
    pub function: usize,
    /// Expressions any of which is the finding's site (a call, or the
    /// shared accesses of a statement).
    pub sites: Vec<ExprId>,
    /// Observations that confirm it.
    pub classes: &'static [Class],
    /// Compare schedules (activemask findings).
    pub schedule_dependent: bool,
    /// Proposed for every candidate rather than from evidence: kept only
    /// when a run reaches it (and reported only when a run shows it).
    pub speculative: bool,
    /// The code shows lanes of a warp diverging on the way only where the
    /// block's rows are narrower than a warp (a guard on `threadIdx.y` in a
    /// kernel whose width no launch states): the evidence rests on an
    /// assumed shape. Confirmed only under a stated shape, or an assumed
    /// one of whole-warp rows.
    pub narrow_rows_only: bool,
    /// The function can be called from code the tool cannot see: when no
    /// run confirms the claim, it stays unverified with this assumption as
    /// the reason, never refuted by the callers that happen to be visible.
    pub unseen_callers: Option<String>,
    /// Shown lane by lane (`dataflow::lanes`): the mask names exactly the
    /// lanes that reach the call, for warps of 32 consecutive
    /// `threadIdx.x`. The executor refutes with it where the launch states
    /// such warps (`Proof::ReachingLanes`).
    pub lane_proof: Option<String>,
}

/// An observation class: what a run saw that confirms a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// Lanes named in the mask are alive but never arrive (WL002).
    AbsentLanes,
    /// A shuffle reads a lane that has exited (WL002).
    ReadsExited,
    /// Converged lanes pass different masks to the same primitive (WL002).
    MaskDisagree,
    /// A shuffle's source lane is not in the mask (WL006).
    SourceOutsideMask,
    /// A lane calls with a mask that leaves itself out (WL006).
    CallerNotInMask,
    /// Shuffle width not a power of two ≤ 32 (WL005).
    BadWidth,
    /// `__syncthreads()` not reached by every thread of the block (WL007).
    DivergentBarrier,
    /// A named barrier's thread count that the run cannot meet: not a
    /// positive multiple of 32, or more threads than ever arrive (WL009).
    BarrierCount,
    /// Two lanes access one shared location unordered, one writes (WL004).
    SharedRace,
    /// Converged and split schedules observe different results (WL003).
    ScheduleDependent,
    /// A legacy maskless primitive executed (WL001).
    Legacy { divergent: bool },
}
