//! Stage 6: the abstract warp executor.
//!
//! It interprets a function's IR for the lanes of a warp (see `interp.rs`),
//! over a bounded set of runs (block shape, inputs, branch partitions,
//! schedules), and turns what it saw into observations (`check.rs`) that
//! confirm or refute the rules' findings with a witness (`confirm.rs`).

mod asserted;
pub mod check;
pub mod confirm;
pub mod interp;
pub mod trace;
pub mod value;

pub use confirm::confirm_findings;
