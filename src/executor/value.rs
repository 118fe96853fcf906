//! Abstract values: concrete where known, unknown (with whether it may differ
//! between lanes) otherwise, and `Undef` for what the programming guide
//! calls undefined (a shuffle from a lane that does not take part).

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Val {
    Int(i64),
    Float(f64),
    Ptr(Ptr),
    /// Not known. `varying`: may differ between the lanes of a warp.
    Unknown {
        varying: bool,
    },
    /// Undefined by the programming guide; tainted through arithmetic. The
    /// number is the collective (index in the trace) that produced it, so a
    /// use can be traced back to the read.
    Undef(u32),
}

/// A pointer into modelled memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ptr {
    pub space: Space,
    /// Flat element offset.
    pub offset: i64,
    /// How many array dimensions indexing has consumed (for `s[i][j]`).
    pub level: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Space {
    /// A kernel pointer parameter (by index) or other global memory.
    Global(u16),
    /// A `__shared__` array of the block (by index in the executor).
    Shared(u16),
    /// An array each thread declares for itself (by index in the run).
    Local(u16),
}

impl Val {
    pub const UNKNOWN_UNIFORM: Val = Val::Unknown { varying: false };
    pub const UNKNOWN_VARYING: Val = Val::Unknown { varying: true };

    pub fn as_int(self) -> Option<i64> {
        match self {
            Val::Int(v) => Some(v),
            Val::Float(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e15 => Some(f as i64),
            _ => None,
        }
    }

    /// Truth value: `Some(true/false)` when known.
    pub fn truth(self) -> Option<bool> {
        match self {
            Val::Int(v) => Some(v != 0),
            Val::Float(f) => Some(f != 0.0),
            Val::Ptr(_) => Some(true),
            _ => None,
        }
    }

    pub fn is_known(self) -> bool {
        matches!(self, Val::Int(_) | Val::Float(_) | Val::Ptr(_))
    }
}

/// Deterministic pseudo-random contents for memory nobody wrote: the same
/// address always reads the same value, so runs can be compared.
/// Even seeds fill memory with positive values, odd seeds with small ones
/// around zero, so that data-dependent branches are explored both ways.
pub fn memory_contents(space: Space, offset: i64, seed: u32) -> Val {
    let id = match space {
        Space::Global(i) => i as u64,
        Space::Shared(i) => 0x1000 + i as u64,
        Space::Local(i) => 0x2_0000 + i as u64,
    };
    let mut h = id.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ (offset as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 31;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^= h >> 29;
    h = h.wrapping_add(seed as u64 / 2);
    if seed.is_multiple_of(2) {
        Val::Int((h % 1000) as i64 + 1)
    } else {
        Val::Int((h % 4) as i64 - 1)
    }
}

/// A lane-varying stand-in for an unknown per-lane input (a helper's
/// parameter analysed without a caller).
pub fn lane_input(param: usize, lane: u32, seed: u32) -> Val {
    memory_contents(Space::Global(0x7f00 + param as u16), lane as i64, seed)
}
