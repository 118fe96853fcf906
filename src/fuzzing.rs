//! What the fuzz targets in `fuzz/` run, in the library so that the
//! seed-corpus replay test (`tests/fuzz_corpus.rs`) runs exactly the same
//! code on every `cargo test`, without a fuzzer.
//!
//! Each function panics when an invariant breaks; that is what the fuzzer
//! reports as a crash.

use crate::engine::{self, FileOutcome, Options, RunResult};
use crate::prefilter;
use crate::report::{self, Format, ReportOptions};

/// Run the whole pipeline on `data` as one `.cu` file, render it in every
/// format, and check the invariants every stage promises.
pub fn check_and_render(data: &[u8]) {
    let opts = Options::default();
    let file = engine::check_source("fuzz/input.cu", data, &opts);
    check_outcome(&file, data);
    let run = RunResult {
        files: vec![file],
        ..RunResult::default()
    };
    for format in [Format::Human, Format::Concise, Format::Json] {
        for color in [false, true] {
            let mut out = Vec::new();
            let opts = ReportOptions {
                format,
                quiet: false,
                color,
                verbose: true,
            };
            report::write(&run, &opts, &mut out).expect("writing to memory cannot fail");
            if format == Format::Json {
                serde_json::from_slice::<serde_json::Value>(&out).expect("the report is JSON");
            }
        }
    }
}

/// Whatever the prefilter skips has no finding when fully analysed.
pub fn prefilter_is_sound(data: &[u8]) {
    if prefilter::has_warp_code(data) {
        return;
    }
    let full = engine::check_source_unfiltered("fuzz/input.cu", data, &Options::default());
    assert!(
        full.diagnostics.is_empty(),
        "the prefilter skipped a file with findings: {:#?}",
        full.diagnostics
    );
}

fn check_outcome(file: &FileOutcome, data: &[u8]) {
    assert_eq!(file.bytes, data.len());
    if file.diagnostics.is_empty() {
        return;
    }
    let source = file
        .source
        .as_ref()
        .expect("a file with diagnostics keeps its source for rendering");
    let text = source.text.as_str();
    for d in &file.diagnostics {
        let spans = std::iter::once(&d.span).chain(d.labels.iter().map(|l| &l.span));
        for span in spans {
            assert!(span.start <= span.end && span.end <= text.len(), "{span:?}");
            assert!(span.line >= 1 && span.line <= span.end_line, "{span:?}");
            assert!(span.column >= 1 && span.end_column >= 1, "{span:?}");
        }
        if let Some(fix) = &d.fix {
            let mut edits: Vec<_> = fix.edits.iter().collect();
            edits.sort_by_key(|e| (e.start_byte, e.end_byte));
            for pair in edits.windows(2) {
                assert!(pair[0].end_byte <= pair[1].start_byte, "overlapping edits");
            }
            for e in edits {
                assert!(e.start_byte <= e.end_byte && e.end_byte <= text.len());
                assert!(text.is_char_boundary(e.start_byte) && text.is_char_boundary(e.end_byte));
            }
        }
    }
}

/// Inputs that stress the depth and length of what the stages walk: deep
/// expressions, long functions, deep `if` chains. The `deep` fuzz target
/// and `tests/linear_time.rs` run them and check [`counted_bound`]: these
/// shapes made the old uniformity analysis exponential in expression
/// depth.
pub mod generate {
    /// One of the shapes, chosen and varied by `data` (a fuzzer's bytes).
    pub fn from_bytes(data: &[u8]) -> String {
        let pick = |i: usize| data.get(i).copied().unwrap_or(0) as usize;
        let size = 1 + (pick(1) << 8 | pick(2)) % 2000;
        match pick(0) % 3 {
            0 => deep_expression(size, &data[data.len().min(3)..]),
            1 => long_function(size * 3),
            _ => deep_if_chain(size / 4 + 1),
        }
    }

    /// A kernel whose one expression nests `depth` levels of `?:`, `&&`,
    /// `||`, calls, shuffles and arithmetic on lane-varying values (`ops`
    /// picks the operator at each level, cycling).
    pub fn deep_expression(depth: usize, ops: &[u8]) -> String {
        let mut e = String::from("(int)threadIdx.x");
        for i in 0..depth {
            let op = if ops.is_empty() {
                i
            } else {
                ops[i % ops.len()] as usize
            };
            e = match op % 7 {
                0 => format!("({e} > {i} ? {e2} : v)", e2 = "threadIdx.x"),
                1 => format!("(v && ({e}))"),
                2 => format!("(({e}) || lane < 3)"),
                3 => format!("helper({e}, v)"),
                4 => format!("__shfl_xor_sync(0xffffffffu, {e}, 1)"),
                5 => format!("(({e}) / 32 + v)"),
                _ => format!("(({e}) + threadIdx.x * {i})"),
            };
        }
        format!(
            "__device__ int helper(int a, int b) {{ return a + b; }}\n\
             __global__ void deep(int *out, int v) {{\n  int lane = threadIdx.x & 31;\n  \
             int r = {e};\n  if (r) {{ r = __shfl_sync(0xffffffffu, r, 0); }}\n  \
             out[threadIdx.x] = r;\n}}\n"
        )
    }

    /// A kernel of `n` statements: declarations chained on each other,
    /// branches on lane-varying values, shuffles and barriers.
    pub fn long_function(n: usize) -> String {
        let mut body = String::from("  int x0 = threadIdx.x;\n");
        for i in 1..n {
            let p = i - 1;
            body.push_str(&match i % 5 {
                0 => format!("  int x{i} = x{p} + v;\n"),
                1 => format!("  int x{i} = __shfl_down_sync(0xffffffffu, x{p}, 1);\n"),
                2 => format!("  int x{i} = x{p}; if (x{p} > {i}) x{i} = x{p} / 32;\n"),
                3 => format!("  int x{i} = x{p}; for (int k = 0; k < v; ++k) x{i} += k;\n"),
                _ => format!("  int x{i} = x{p} * 2; __syncthreads();\n"),
            });
        }
        format!(
            "__global__ void long_fn(int *out, int v) {{\n{body}  out[threadIdx.x] = x{};\n}}\n",
            n - 1
        )
    }

    /// A kernel with `depth` nested `if`s, alternating lane-varying and
    /// uniform conditions, with a full-mask shuffle and an early return at
    /// the bottom.
    pub fn deep_if_chain(depth: usize) -> String {
        let mut open = String::new();
        for i in 0..depth {
            if i % 2 == 0 {
                open.push_str(&format!("if (threadIdx.x > {i}) {{\n"));
            } else {
                open.push_str(&format!("if (v > {i}) {{ if (v == 7) return;\n"));
            }
        }
        format!(
            "__global__ void chain(int *out, int v) {{\n  int r = threadIdx.x;\n{open}\
             r = __shfl_sync(0xffffffffu, r, 0);\n{close}  out[threadIdx.x] = r;\n}}\n",
            close = "}\n".repeat(depth)
        )
    }
}

/// Run the stages up to dataflow on `data` and check that the uniformity
/// analysis did counted, linear work: every function's expressions are
/// combined at most once per pass (plus once for the final table), and its
/// statements visited once per pass. Returns the totals.
pub fn counted_bound(data: &[u8]) -> crate::dataflow::FlowStats {
    let source = crate::source::SourceFile::new("fuzz/input.cu", data);
    let Ok(parsed) =
        crate::frontend::parse_within(source, Options::default().budgets.max_parse_operations)
    else {
        return crate::dataflow::FlowStats::default();
    };
    let module = crate::ir::lower_file(&parsed, &Options::default().env);
    let facts = crate::dataflow::analyze(&module);
    for (f, ff) in module.functions.iter().zip(&facts.functions) {
        let s = ff.stats;
        assert!(
            // The settling pass and the pass that records contexts.
            s.passes <= crate::dataflow::MAX_PASSES + 2,
            "`{}`: {} passes",
            f.name,
            s.passes
        );
        let tables = u64::from(s.passes) + 1;
        assert!(
            s.evaluations <= tables * s.exprs as u64,
            "`{}`: {} expression evaluations for {} expressions in {} passes",
            f.name,
            s.evaluations,
            s.exprs,
            s.passes
        );
        assert!(
            s.stmt_visits <= tables * s.stmts as u64,
            "`{}`: {} statement visits for {} statements",
            f.name,
            s.stmt_visits,
            s.stmts
        );
    }
    facts.stats()
}
