//! How long the language server takes to re-lint a large document: times
//! `engine::check_source` (what the server's lint worker runs after a
//! didChange) on a generated 5,000-line `.cu` file full of warp primitives.
//!
//! cargo run --release --example relint_timing [LINES] [RUNS] [SAVE_AS]
//!
//! SAVE_AS, when given, receives the generated source (for timing the
//! server end to end).

use std::time::{Duration, Instant};

use warplint::engine::{self, Options};

/// One ~50-line block of device code: modern and legacy warp primitives,
/// divergent branches, loops, a macro and a kernel with a launch bound.
fn block(i: usize) -> String {
    format!(
        r#"// ---- block {i} ----
#define WARP_REDUCE_{i}(v) __shfl_down(v, 1)
__device__ float reduce_sum_{i}(float v) {{
    for (int offset = 16; offset > 0; offset >>= 1) {{
        v += __shfl_down_sync(0xffffffff, v, offset);
    }}
    return v;
}}

__device__ int legacy_vote_{i}(int pred) {{
    unsigned b = __ballot(pred);
    int any = __any(pred);
    return __popc(b) + any;
}}

__device__ float legacy_scan_{i}(float v, int lane) {{
    for (int d = 1; d < 32; d *= 2) {{
        float up = __shfl_up(v, d);
        if (lane >= d) v += up;
    }}
    return WARP_REDUCE_{i}(v);
}}

__global__ void __launch_bounds__(256) kernel_{i}(const float *in, float *out, int n) {{
    __shared__ float s[256];
    int tid = threadIdx.x;
    int lane = tid & 31;
    float v = tid < n ? in[blockIdx.x * blockDim.x + tid] : 0.0f;
    unsigned mask = __ballot_sync(0xffffffff, tid < n);
    if (tid < n) {{
        v = __shfl_xor_sync(mask, v, 1);
        v += __shfl_sync(mask, v, 0);
    }}
    s[tid] = v;
    __syncthreads();
    if (tid < 32) {{
        float r = s[tid] + s[tid + 32];
        __syncwarp();
        r = reduce_sum_{i}(r);
        if (lane == 0) out[blockIdx.x] = r + legacy_scan_{i}(r, lane) + legacy_vote_{i}(r > 0);
    }}
    __syncwarp();
}}
"#
    )
}

fn main() {
    let mut args = std::env::args().skip(1);
    let lines: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5000);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let mut text = String::new();
    let mut i = 0;
    while text.lines().count() < lines {
        text.push_str(&block(i));
        i += 1;
    }
    if let Some(path) = args.next() {
        std::fs::write(&path, &text).expect("write the generated source");
    }
    let opts = Options::default();
    let warm = engine::check_source("gen.cu", text.as_bytes(), &opts);
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            let outcome = engine::check_source("gen.cu", text.as_bytes(), &opts);
            let t = start.elapsed();
            assert_eq!(outcome.diagnostics.len(), warm.diagnostics.len());
            t
        })
        .collect();
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{} lines, {} bytes, {} diagnostics, {} parse-error regions; {runs} runs: min {:.2} ms, median {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        text.lines().count(),
        text.len(),
        warm.diagnostics.len(),
        warm.parse_error_regions.len(),
        ms(times[0]),
        ms(times[runs / 2]),
        ms(times[(runs * 95 / 100).min(runs - 1)]),
        ms(times[runs - 1]),
    );
}
