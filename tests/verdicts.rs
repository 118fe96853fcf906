//! The three verdicts mean what they say: every refuted finding carries a
//! proof, every undecided one a reason and its evidence level, every
//! confirmed one a witness; and no finding that testdata marks flips to
//! refuted.

use std::path::PathBuf;

use warplint::diagnostic::{Evidence, MinConfidence, Proof, Status};
use warplint::engine::{Options, check_source};

fn everything() -> Options {
    Options {
        show_refuted: true,
        min_confidence: MinConfidence::All,
        ..Options::default()
    }
}

fn testdata_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("cu" | "cuh")
            ) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// (line, code) of every `// expect:` marker (and `// expect-next-line:`).
fn marked(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for (marker, target) in [("// expect-next-line:", i + 2), ("// expect:", i + 1)] {
            if let Some(pos) = line.find(marker) {
                for code in line[pos + marker.len()..].split(',') {
                    if let Some(code) = code.split_whitespace().next() {
                        out.push((target, code.to_owned()));
                    }
                }
                break;
            }
        }
    }
    out
}

#[test]
fn every_verdict_carries_what_it_claims_on_testdata() {
    let mut problems = Vec::new();
    for path in testdata_files() {
        let bytes = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let rel = path.display().to_string();
        let marked = marked(&text);
        let outcome = check_source(&rel, &bytes, &everything());
        for d in &outcome.diagnostics {
            let c = &d.confirmation;
            let at = format!("{rel}:{} {}", d.span.line, d.code);
            match c.status {
                Status::Refuted => {
                    if c.proof.is_none() || c.reason.as_deref().is_none_or(str::is_empty) {
                        problems.push(format!("{at}: refuted without a proof"));
                    }
                    if marked.contains(&(d.span.line, d.code.to_owned())) {
                        problems.push(format!("{at}: a marked finding is refuted"));
                    }
                }
                Status::Undecided => {
                    if c.evidence.is_none() || c.reason.as_deref().is_none_or(str::is_empty) {
                        problems.push(format!("{at}: undecided without evidence or reason"));
                    }
                    if c.proof.is_some() {
                        problems.push(format!("{at}: undecided with a proof"));
                    }
                }
                Status::Confirmed => {
                    if c.witness.is_none() && c.reason.is_none() {
                        problems.push(format!("{at}: confirmed without a witness"));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

const EXACT: &str = r#"
__global__ void first_warp_broadcast(int *out)
{
    int v = threadIdx.x;
    // Every thread of the 40-thread block passes: a proof, not a guess.
    if (threadIdx.x < 40)
        v = __shfl_sync(0xffffffff, v, 0);
    out[threadIdx.x] = v;
}

int main()
{
    int *out = 0;
    first_warp_broadcast<<<1, 40>>>(out);
    return 0;
}
"#;

#[test]
fn exhaustive_runs_are_a_proof() {
    let d = check_source("exact.cu", EXACT.as_bytes(), &everything()).diagnostics;
    let refuted: Vec<_> = d
        .iter()
        .filter(|d| d.confirmation.status == Status::Refuted)
        .collect();
    assert!(!refuted.is_empty(), "{d:#?}");
    for r in refuted {
        assert_eq!(r.confirmation.proof, Some(Proof::ExhaustiveRuns));
        assert!(
            r.confirmation
                .reason
                .as_ref()
                .unwrap()
                .contains("launch at line")
        );
    }
    // Hidden by default.
    let shown = check_source("exact.cu", EXACT.as_bytes(), &Options::default()).diagnostics;
    assert!(shown.is_empty(), "{shown:#?}");
}

const GUESSED: &str = r#"
__global__ void below_n(const int *in, int *out, int n)
{
    int v = in[threadIdx.x];
    if (threadIdx.x < 32 * n)
        v = __shfl_sync(0xffffffff, v, 0);
    out[threadIdx.x] = v;
}
"#;

#[test]
fn runs_over_chosen_inputs_are_no_proof() {
    let d = check_source("guessed.cu", GUESSED.as_bytes(), &everything()).diagnostics;
    for x in &d {
        assert_ne!(x.confirmation.status, Status::Refuted, "{x:#?}");
        if x.confirmation.status == Status::Undecided {
            assert!(
                matches!(
                    x.confirmation.evidence,
                    Some(Evidence::Direct | Evidence::Contested)
                ),
                "{x:#?}"
            );
            assert!(
                x.confirmation
                    .reason
                    .as_ref()
                    .unwrap()
                    .contains("not a proof"),
                "{x:#?}"
            );
        }
    }
}

const SHAPE: &str = r#"
__global__ void first_row8(const int *in, int *out)
{
    int v = in[threadIdx.y * 8 + threadIdx.x];
    if (threadIdx.y == 0) {
        v += __shfl_down_sync(0xffu, v, 1, 8);
        out[threadIdx.x] = v;
    }
}
"#;

#[test]
fn a_finding_that_depends_on_an_assumed_shape_is_undecided() {
    let all = check_source("shape.cu", SHAPE.as_bytes(), &everything()).diagnostics;
    for x in &all {
        assert_ne!(x.confirmation.status, Status::Confirmed, "{x:#?}");
    }
    let shown = check_source("shape.cu", SHAPE.as_bytes(), &Options::default()).diagnostics;
    assert!(shown.is_empty(), "{shown:#?}");
}

const SLOTS: &str = r#"
__global__ void slot_sum(const float *in, float *out, int n)
{
    int t = threadIdx.x;
    unsigned slot_mask = 0xffu << ((t & 31) - t % 8);
    float v = in[t];
    if (t / 8 < n)
        v += __shfl_xor_sync(slot_mask, v, 4);
    out[t] = v;
}

int main()
{
    slot_sum<<<1, BLOCK>>>(0, 0, 3);
    return 0;
}
"#;

#[test]
fn reaching_lanes_is_a_proof_only_for_whole_warps() {
    // 64 threads: whole warps, each slot mask names the lanes of one slot,
    // which take the branch together.
    let whole = SLOTS.replace("BLOCK", "64");
    let d = check_source("slots.cu", whole.as_bytes(), &everything()).diagnostics;
    let wl002: Vec<_> = d.iter().filter(|d| d.code == "WL002").collect();
    assert!(!wl002.is_empty(), "{d:#?}");
    for r in &wl002 {
        assert_eq!(r.confirmation.status, Status::Refuted, "{r:#?}");
        assert_eq!(r.confirmation.proof, Some(Proof::ReachingLanes));
    }
    // 40 threads: the second warp is partial, so the lane-by-lane values
    // prove nothing.
    let partial = SLOTS.replace("BLOCK", "40");
    let d = check_source("slots.cu", partial.as_bytes(), &everything()).diagnostics;
    for r in d.iter().filter(|d| d.code == "WL002") {
        assert_ne!(r.confirmation.proof, Some(Proof::ReachingLanes), "{r:#?}");
    }
}

/// A cluster's `thread_rank()` is the block's rank in the cluster times
/// the block's threads plus the thread's rank in its block, and the grid's
/// the same over the grid's blocks: a loop bound on either differs between
/// the threads of a block, and a run of the grid's first block (rank 0 in
/// its cluster whatever the cluster's size) confirms it; a loop over the
/// block's index around the same barrier stays clean.
#[test]
fn a_cluster_thread_rank_differs_between_threads_of_a_block() {
    let src = "#include <cooperative_groups.h>\n\
namespace cg = cooperative_groups;\n\
__device__ float row_total(float v) {\n\
    __shared__ float partial[32];\n\
    if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = v;\n\
    __syncthreads();\n\
    return partial[0];\n\
}\n\
__global__ void per_column(float *data, int rows, int width) {\n\
    cg::cluster_group cluster = cg::this_cluster();\n\
    int column = cluster.thread_rank();\n\
    for (int i = blockIdx.x * width + column; i < rows * width; i += gridDim.x * width)\n\
        data[i] = row_total(data[i]);\n\
}\n\
__global__ void per_row(float *data, int rows, int width) {\n\
    cg::cluster_group cluster = cg::this_cluster();\n\
    int column = cluster.thread_rank();\n\
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {\n\
        float total = row_total(column < width ? data[row * width + column] : 0.0f);\n\
        if (column < width) data[row * width + column] = total;\n\
    }\n\
}\n\
__global__ void per_element(float *data, int n) {\n\
    cg::grid_group grid = cg::this_grid();\n\
    for (int i = grid.thread_rank(); i < n; i += grid.num_threads())\n\
        data[i] = row_total(data[i]);\n\
}\n";
    let out = check_source("cluster.cu", src.as_bytes(), &everything());
    let barriers: Vec<_> = out
        .diagnostics
        .iter()
        .filter(|d| d.code == "WL007")
        .collect();
    let lines: Vec<usize> = barriers.iter().map(|d| d.span.line).collect();
    assert_eq!(lines, [13, 26], "{:#?}", out.diagnostics);
    for d in barriers {
        assert_eq!(d.confirmation.status, Status::Confirmed, "{d:#?}");
    }
}

const MEMBER_LAMBDA: &str = r#"
class LaneWindow {
  public:
    __device__ LaneWindow(float *sink, int width) : sink_(sink), width_(width) {}
    __device__ float sum_in_window(float v) {
        if ((threadIdx.x & 31) < width_)
            v += __shfl_xor_sync(0xffffffffu, v, 1);
        return v;
    }
    __device__ void store(float v) {
        auto body = [&](float x) { sink_[threadIdx.x] = sum_in_window(x); };
        body(v);
    }
  private:
    float *sink_;
    int width_;
};
__global__ void half_window(float *out) {
    LaneWindow w(out, 16);
    w.store(out[threadIdx.x]);
}
"#;

#[test]
fn a_lambda_in_a_member_calls_members_on_the_same_object() {
    // `body` calls `sum_in_window` on the object `store` runs on: its
    // `width_` is the 16 the kernel constructed it with, not a value the
    // run had to choose.
    let d = check_source("window.cu", MEMBER_LAMBDA.as_bytes(), &everything()).diagnostics;
    let shfl = (d.iter())
        .find(|x| x.code == "WL002" && x.span.line == 7)
        .expect("the half-window shuffle");
    assert_eq!(shfl.confirmation.status, Status::Confirmed, "{shfl:#?}");
    let w = shfl.confirmation.witness.as_ref().unwrap();
    assert!(!w.summary.contains("width_"), "{}", w.summary);
}

/// A body compiled only where three `if constexpr` flags are all false:
/// the runs must try that combination to reach the shuffle at all.
const FLAGS: &str = r#"
#include <type_traits>
template <typename T, typename W, typename R>
__global__ void scaled_rows(const T *in, const W *w, const R *r, float *out, int n)
{
    if constexpr (std::is_same_v<T, double> || std::is_same_v<W, double> ||
                  std::is_same_v<R, double>) {
        return;
    } else {
        float v = in[threadIdx.x] * w[threadIdx.x] * r[threadIdx.x];
        if (threadIdx.x < n) {
            v += __shfl_down_sync(0xffffffffu, v, 1);
        }
        out[threadIdx.x] = v;
    }
}
"#;

#[test]
fn runs_try_every_if_constexpr_flag_false_together() {
    let d = check_source("flags.cu", FLAGS.as_bytes(), &everything()).diagnostics;
    let shuffle: Vec<_> = d.iter().filter(|x| x.code == "WL002").collect();
    assert_eq!(shuffle.len(), 1, "{d:#?}");
    assert_eq!(shuffle[0].confirmation.status, Status::Confirmed, "{d:#?}");
}
