//! warplint: a static analyzer for CUDA warp-level synchronization bugs.
//!
//! The pipeline, one module per stage (see ARCHITECTURE.md):
//! [`discover`] → [`prefilter`] → [`frontend`] → [`ir`] → [`dataflow`] →
//! [`rules`] → [`executor`] → [`suppress`] → [`report`], driven per file by
//! [`engine`]. Each module imports only earlier stages and shared leaf
//! modules (`tests/layering.rs` keeps it so).

/// `eprintln!` that cannot panic: when standard error is a pipe whose
/// reader has gone (`warplint check -v 2>&1 | head -1`), the message is
/// lost and the run goes on to its exit code.
macro_rules! eprintln_quiet {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod baseline;
pub mod budgets;
pub mod cli;
pub mod config;
pub mod dataflow;
pub mod diagnostic;
pub mod discover;
pub mod docs;
pub mod engine;
pub mod executor;
pub mod fix;
pub mod frontend;
#[doc(hidden)]
pub mod fuzzing;
pub mod ir;
pub mod options;
pub mod outcome;
pub mod prefilter;
pub mod report;
pub mod rules;
pub mod server;
pub mod source;
pub mod suppress;
pub mod timing;
pub mod tu;
