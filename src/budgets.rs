//! The counted limits every stage after parsing reads (config `[executor]`).
//! Kept apart from the driver so that stages can take them without
//! importing the engine.

use crate::frontend;

/// Executor limits (config `[executor]`). A finding whose check runs out of
/// budget is reported as undecided, never dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budgets {
    /// Interpreter steps per function and warp schedule.
    pub max_steps: u64,
    /// Iterations of one loop before the executor stops unrolling it.
    pub max_loop_iterations: u32,
    /// Lane partitions and input choices explored per finding.
    pub max_forks: u32,
    /// Depth of `__device__` calls followed.
    pub max_call_depth: u32,
    /// Interpreter steps for a whole file; functions past it are not run
    /// and their findings are undecided. Keeps any one file near a second.
    pub max_file_steps: u64,
    /// The part of `max_file_steps` that functions whose every finding is
    /// a speculative candidate may spend. Such candidates (a WL004 claim
    /// on every shared-memory statement) are shown only when a run
    /// confirms them; without this share one long kernel of them took the
    /// whole file budget, most of the executor's time on FlashInfer. Every
    /// confirmation of an unplanted candidate on the corpora came within
    /// 40,000 steps of its function, but planted narrowed masks
    /// (`tests/seeded_recall.rs`) needed up to 615,000 on FlashInfer.
    pub max_speculative_steps: u64,
    /// The most of that share one function (a root of runs) whose every
    /// finding is speculative may spend. Most such functions confirm
    /// nothing: on FlashInfer 1,700 of them spent 53 s (summed) of the
    /// executor's 55 s, long generated kernels taking the whole share of
    /// their file, and every confirmation there came within 40,000 steps
    /// of its function. Direct evidence (a narrowed mask in a kernel with
    /// no lane-dependent guard) is shown without a run, so planted masks
    /// no longer need the long runs they once did.
    pub max_speculative_function_steps: u64,
    /// tree-sitter parser operations per file; a file that needs more is
    /// reported as not analysed (counted, so it does not depend on load).
    pub max_parse_operations: u64,
    /// Files larger than this are not read or analysed (reported as such).
    /// tree-sitter's offsets are 32-bit, so this must stay below 4 GiB.
    pub max_file_bytes: u64,
    /// Fixes verified per file: each is one re-lint of the file with that
    /// fix applied (`engine`); findings past it offer no fix, and say so.
    pub max_fix_relints: u32,
    /// Functions analysed again, summed over a file's fix re-lints: past
    /// it the remaining fixes are not verified, and not offered. Each
    /// re-lint costs about what the file's own analysis did, so a file
    /// whose unit links many header functions gets fewer of them and no
    /// file spends seconds verifying fixes (the first always runs).
    pub max_fix_relint_functions: usize,
    /// Executor steps, summed over a file's fix re-lints, past which the
    /// remaining fixes are not verified (the first always is). Each re-lint
    /// runs the executor on the whole file again: a file whose long kernels
    /// take its whole step budget gets one. Counting functions alone, 16
    /// re-lints per file spent 155 s (summed over workers) on FlashInfer's
    /// `csrc/fused_moe` at `--min-confidence all`.
    pub max_fix_relint_steps: u64,
    /// Headers larger than this are not parsed for a translation unit
    /// (counted in `includes_cut`): a generated table of several MB (such
    /// as CUTLASS's tensor-core atom lists) costs tens of MB of syntax tree
    /// while it is lowered, which bounds a run's memory.
    pub max_header_bytes: u64,
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets {
            max_steps: 200_000,
            max_loop_iterations: 64,
            max_forks: 16,
            max_call_depth: 8,
            max_file_steps: 1_500_000,
            max_speculative_steps: 750_000,
            max_speculative_function_steps: 50_000,
            max_parse_operations: frontend::DEFAULT_MAX_PARSE_OPERATIONS,
            max_file_bytes: 1 << 30,
            max_fix_relints: 16,
            max_fix_relint_functions: 320,
            max_fix_relint_steps: 1_500_000,
            max_header_bytes: 512 * 1024,
        }
    }
}
