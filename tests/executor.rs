//! The abstract warp executor through the engine: verdicts, witnesses,
//! budgets, and robustness on deep or endless code.

use warplint::diagnostic::Status;
use warplint::engine::{Budgets, Options, check_source};

fn check(src: &str, opts: &Options) -> Vec<warplint::diagnostic::Diagnostic> {
    check_source("k.cu", src.as_bytes(), opts).diagnostics
}

const TAIL_SUM: &str = "__global__ void k(const float *in, float *out, int n) {
    int i = threadIdx.x;
    if (i < n) {
        float v = in[i];
        v += __shfl_down_sync(0xffffffff, v, 1);
        out[i] = v;
    }
}
";

#[test]
fn witness_names_inputs_lanes_and_launch() {
    let d = check(TAIL_SUM, &Options::default());
    assert_eq!(d.len(), 1, "{d:#?}");
    let c = &d[0].confirmation;
    assert_eq!(c.status, Status::Confirmed);
    let w = c.witness.as_ref().unwrap();
    assert_eq!(w.inputs.get("n"), Some(&20));
    assert_eq!(w.launch.source, warplint::executor::confirm::ASSUMED);
    assert!(w.summary.contains("lanes 20–31"), "{}", w.summary);
    assert!(w.events.iter().any(|e| e.lanes == 0x000f_ffff));
    assert!(w.summary.contains("never arrive"), "{}", w.summary);
    // The message is one sentence; the run lives in the witness.
    assert!(!d[0].message.contains("blockDim"), "{}", d[0].message);
    assert!(d[0].message.contains("i < n"), "{}", d[0].message);
}

#[test]
fn unproven_absence_is_undecided_not_refuted() {
    // The ballot mask is right for every `n`, but the runs only tried some
    // values of `n`: that is no proof, so the finding is undecided (contested
    // evidence), hidden by default and never called refuted.
    let ok = "__global__ void k(const float *in, float *out, int n) {
        int i = threadIdx.x;
        unsigned m = __ballot_sync(0xffffffff, i < n);
        if (i < n) out[i] = __shfl_sync(m, in[i], 0);
    }";
    assert!(check(ok, &Options::default()).is_empty());
    let opts = Options {
        show_refuted: true,
        min_confidence: warplint::diagnostic::MinConfidence::All,
        ..Options::default()
    };
    let d = check(ok, &opts);
    assert!(!d.is_empty());
    for x in &d {
        assert_eq!(x.confirmation.status, Status::Undecided, "{x:#?}");
        // Contested (WL002) or speculative (WL006 candidates): not direct.
        assert!(
            matches!(
                x.confirmation.evidence,
                Some(
                    warplint::diagnostic::Evidence::Contested
                        | warplint::diagnostic::Evidence::Speculative
                )
            ),
            "{x:#?}"
        );
        assert!(
            x.confirmation
                .reason
                .as_deref()
                .unwrap_or("")
                .contains("not a proof"),
            "{x:#?}"
        );
    }
}

#[test]
fn exhausted_budget_is_undecided_and_lowered_to_a_warning() {
    let opts = Options {
        budgets: Budgets {
            max_steps: 5,
            ..Budgets::default()
        },
        ..Options::default()
    };
    let d = check(TAIL_SUM, &opts);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].confirmation.status, Status::Undecided);
    assert_eq!(d[0].severity, warplint::diagnostic::Severity::Warning);
    assert!(
        d[0].confirmation
            .reason
            .as_deref()
            .unwrap()
            .contains("step budget")
    );
}

#[test]
fn endless_loops_end_within_the_budget() {
    let src = "__global__ void k(int *d) {
        int lane = threadIdx.x & 31;
        while (true) { d[lane] += 1; }
        if (lane < 16) d[0] = __shfl_sync(0xffffffff, d[lane], 0);
    }";
    let start = std::time::Instant::now();
    let d = check(src, &Options::default());
    assert!(start.elapsed().as_secs() < 5);
    assert_eq!(d.len(), 1);
    assert_ne!(d[0].confirmation.status, Status::Refuted);
}

#[test]
fn thousands_of_nested_divergent_ifs_do_not_overflow() {
    let depth = 3000;
    let src = format!(
        "__global__ void k(int *d, int n) {{ int lane = threadIdx.x & 31; {} d[lane] = __shfl_sync(0xffffffff, d[lane], 0); {} }}",
        "if (lane < 30) {".repeat(depth),
        "}".repeat(depth)
    );
    let d = check(&src, &Options::default());
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].confirmation.status, Status::Confirmed);
}

#[test]
fn legacy_primitive_witness_depends_on_divergence() {
    let summary = |d: &warplint::diagnostic::Diagnostic| {
        d.confirmation.witness.as_ref().unwrap().summary.clone()
    };
    let convergent = check(
        "__global__ void k(int *d) { d[0] = __shfl(d[1], 0); }",
        &Options::default(),
    );
    assert!(summary(&convergent[0]).contains("every lane reaches it together"));
    let divergent = check(
        "__global__ void k(int *d) { if ((threadIdx.x & 31) < 8) d[0] = __shfl(d[1], 0); }",
        &Options::default(),
    );
    assert!(
        summary(&divergent[0]).contains("lanes 0–7 reach it while lanes 8–31 are elsewhere"),
        "{}",
        summary(&divergent[0])
    );
}

#[test]
fn activemask_schedules_are_compared() {
    let partial = "__global__ void k(const int *in, int *out, int n) {
        if (threadIdx.x < n) {
            int s = __reduce_add_sync(__activemask(), in[threadIdx.x]);
            if (threadIdx.x == 0) out[0] = s;
        }
    }";
    let d = check(partial, &Options::default());
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, "WL003");
    let w = d[0].confirmation.witness.as_ref().unwrap();
    assert!(
        w.summary.contains("depends on the schedule"),
        "{}",
        w.summary
    );
}

fn all_findings() -> Options {
    Options {
        show_refuted: true,
        min_confidence: warplint::diagnostic::MinConfidence::All,
        ..Options::default()
    }
}

#[test]
fn broadcast_gives_the_source_lane_its_own_value_as_everyone_else() {
    // Lane 0's atomic result is broadcast from lane 0 (a source lane the
    // dataflow cannot show uniform): every lane, lane 0 included, holds
    // the same unknown value, so `claim > 3` cannot split the warp.
    let src = "__global__ void k(int *out, int *ctr) {
        int lane = threadIdx.x & 31;
        int src = threadIdx.x - threadIdx.x % 32;
        int claim = 0;
        if (lane == 0) claim = atomicAdd(ctr, 1);
        claim = __shfl_sync(0xffffffff, claim, src);
        if (claim > 3) {
            out[threadIdx.x] = __shfl_xor_sync(0xffffffff, lane, 1);
        }
    }";
    let d = check(src, &all_findings());
    for x in &d {
        assert_ne!(x.confirmation.status, Status::Confirmed, "{x:#?}");
    }
}

#[test]
fn narrow_broadcast_is_one_value_per_segment() {
    // Width 16: lanes 0-15 read lane 0 (0), lanes 16-31 lane 16 (48). The
    // values differ, so the branch splits the warp: a real WL002.
    let src = "__global__ void k(int *out) {
        int v = (threadIdx.x & 31) * 3;
        int b = __shfl_sync(0xffffffff, v, 0, 16);
        if (b > 40) {
            out[threadIdx.x] = __shfl_xor_sync(0xffffffff, v, 1);
        }
    }";
    let d = check(src, &all_findings());
    assert!(
        d.iter()
            .any(|x| x.code == "WL002" && x.confirmation.status == Status::Confirmed),
        "{d:#?}"
    );
}

#[test]
fn speculative_candidates_leave_the_file_budget_to_real_evidence() {
    // The first kernel only has speculative WL004 candidates (each lane
    // writes its own slot), and each warp's run of it takes the whole
    // per-run budget (200,000 steps): four warps spend more than the file
    // budget of this test. The second kernel has a barrier under a
    // lane-dependent guard. The candidates draw on their own share of the
    // file budget, so the barrier's run is still built and confirms it.
    let src = "__global__ void fill(float *out) {
    __shared__ float s[128];
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++)
            for (int k = 0; k < 64; k++)
                s[threadIdx.x] += out[i * j + k];
    out[threadIdx.x] = s[threadIdx.x];
}
__global__ void half(float *out) {
    if (threadIdx.x < 16) {
        __syncthreads();
    }
    out[threadIdx.x] = 0.0f;
}
";
    let budgets = |speculative: u64, function: u64| Options {
        budgets: Budgets {
            max_file_steps: 600_000,
            max_speculative_steps: speculative,
            max_speculative_function_steps: function,
            ..Budgets::default()
        },
        ..all_findings()
    };
    // The file's share alone (no cap for one function).
    let file = |speculative: u64| budgets(speculative, u64::MAX);
    let barrier = |d: &[warplint::diagnostic::Diagnostic]| {
        let b = d.iter().find(|d| d.code == "WL007").expect("WL007");
        (b.confirmation.status, format!("{b:#?}"))
    };
    let d = check(src, &file(300_000));
    let (status, shown) = barrier(&d);
    assert_eq!(status, Status::Confirmed, "{shown}");
    let speculative: Vec<_> = d.iter().filter(|d| d.code == "WL004").collect();
    assert!(!speculative.is_empty());
    for c in speculative {
        assert_eq!(c.confirmation.status, Status::Undecided);
        assert!(
            c.confirmation
                .reason
                .as_deref()
                .is_some_and(|r| r.contains("speculative candidates")),
            "{c:#?}"
        );
    }
    // With the share as large as the file budget, the long kernel takes it
    // all and the barrier is never run: what the share is for.
    let (status, shown) = barrier(&check(src, &file(600_000)));
    assert_eq!(status, Status::Undecided, "{shown}");
    // A share as large as the file budget, but one function may spend no
    // more than 50,000 steps of it: the barrier is run again, and the
    // candidates name the budget that stopped them.
    let d = check(src, &budgets(600_000, 50_000));
    assert_eq!(barrier(&d).0, Status::Confirmed);
    for c in d.iter().filter(|d| d.code == "WL004") {
        assert_eq!(c.confirmation.status, Status::Undecided);
        assert!(
            c.confirmation.reason.as_deref().is_some_and(|r| r.contains(
                "the executor's budget for one function's speculative candidates (50000 steps)"
            )),
            "{c:#?}"
        );
    }
    // With no share, the candidates are never run, and say so.
    let d = check(src, &file(0));
    assert_eq!(barrier(&d).0, Status::Confirmed);
    for c in d.iter().filter(|d| d.code == "WL004") {
        assert_eq!(
            c.confirmation.reason.as_deref(),
            Some(
                "no run was built: speculative candidates are not run \
                 (`max-speculative-steps` is 0)"
            ),
        );
    }
}

/// The chosen values the witness lists, as `name = value` pairs.
fn chosen_splits(summary: &str) -> Vec<(String, String)> {
    summary
        .split(", ")
        .filter_map(|part| part.strip_suffix(" (chosen so that the lanes split)"))
        .filter_map(|c| {
            let (name, value) = c.rsplit_once(" = ")?;
            let name = name.rsplit(": ").next().unwrap_or(name);
            Some((name.to_owned(), value.to_owned()))
        })
        .collect()
}

#[test]
fn a_chosen_bound_keeps_its_value_for_the_whole_run() {
    // A grid-stride loop on a field of a by-value parameter: each loop
    // test compares with the same `p.n`. The run chose a new value at
    // every test (`p.n / 2 = 16`, then 520, 1028, …), which is no one
    // run; the choice now goes back to the field the bound reads, once.
    let src = "struct P { int n; float *out; };
__global__ void k(P p) {
    for (int i = threadIdx.x + blockDim.x * blockIdx.x; i < p.n / 2;
         i += blockDim.x * gridDim.x) {
        p.out[i] = 1.0f;
        __syncthreads();
    }
}
";
    let d = check(src, &Options::default());
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].confirmation.status, Status::Confirmed, "{:#?}", d[0]);
    let summary = &d[0].confirmation.witness.as_ref().unwrap().summary;
    assert_eq!(
        chosen_splits(summary),
        [("p.n".to_owned(), "32".to_owned())],
        "{summary}"
    );
}

#[test]
fn a_bound_over_two_unknowns_keeps_its_chosen_value() {
    // `rows * p.n` cannot be carried back to one name, but it reads only a
    // local written once and a field never written: it is one value for
    // the call, so the loop's later tests do not choose again.
    let src = "struct P { int n; int m; float *out; };
__global__ void k(P p) {
    int rows = p.m / 3;
    for (int i = threadIdx.x; i < rows * p.n; i += blockDim.x) {
        p.out[i] = 1.0f;
        __syncthreads();
    }
}
";
    let d = check(src, &Options::default());
    assert_eq!(d.len(), 1, "{d:#?}");
    let summary = &d[0].confirmation.witness.as_ref().unwrap().summary;
    let chosen = chosen_splits(summary);
    assert_eq!(chosen.len(), 1, "{summary}");
    assert_eq!(chosen[0].0, "rows * p.n", "{summary}");
}

#[test]
fn a_field_the_function_writes_is_chosen_where_it_is_compared() {
    // `p.n` changes inside the loop, so it is not one value for the call:
    // no choice is carried to later reads, and each loop test chooses for
    // itself (the run does not model the store to a by-value field).
    let src = "struct P { int n; float *out; };
__global__ void k(P p) {
    for (int i = threadIdx.x; i < p.n; i += blockDim.x) {
        p.out[i] = 1.0f;
        __syncthreads();
        p.n = p.n - 1;
    }
}
";
    let d = check(src, &Options::default());
    assert_eq!(d.len(), 1, "{d:#?}");
    let summary = &d[0].confirmation.witness.as_ref().unwrap().summary;
    let chosen = chosen_splits(summary);
    assert!(chosen.len() > 1, "{summary}");
    assert!(chosen.iter().all(|(name, _)| name == "p.n"), "{summary}");
}

#[test]
fn an_unknown_inside_a_lane_varying_guard_is_chosen_to_split_the_warp() {
    // Each guard reads one unknown that is the same in every lane (a field
    // of a by-value parameter) next to the lane index. No input choice
    // reached it (the field is no integral parameter) and the guard
    // evaluated to one unknown for the whole warp, so every run took it
    // in all lanes or none and the findings stayed undecided. Now a value
    // of the field that splits the warp is tried and named.
    let guards = [
        ("(int)threadIdx.x + p.u > 5", "p.u = 1"),
        ("((threadIdx.x & 7) ^ p.u) == 3", "p.u = 1"),
        ("threadIdx.x % p.u == 0", "p.u = 2"),
    ];
    for (guard, chosen) in guards {
        let src = format!(
            "struct P {{ int u; }};
__global__ void k(P p, float *out) {{
    float v = out[threadIdx.x];
    if ({guard}) {{
        v += __shfl_xor_sync(0xffffffff, v, 1);
    }}
    out[threadIdx.x] = v;
}}
void host(P p, float *out) {{ k<<<1, 32>>>(p, out); }}
"
        );
        let d = check(&src, &Options::default());
        assert_eq!(d.len(), 1, "{guard}: {d:#?}");
        assert_eq!(
            d[0].confirmation.status,
            Status::Confirmed,
            "{guard}: {:#?}",
            d[0]
        );
        let summary = &d[0].confirmation.witness.as_ref().unwrap().summary;
        assert!(
            summary.contains(&format!("{chosen} (chosen so that the lanes split)")),
            "{guard}: {summary}"
        );
    }
}

#[test]
fn a_chosen_local_its_definition_cannot_hold_confirms_nothing() {
    // `off` is a multiple of 64 whatever `p.u` is: choosing `off = 1` to
    // split the warp is no run the code admits, so the finding stays
    // undecided and its reason names the guess.
    let src = "struct P { int u; };
__global__ void k(P p, float *out) {
    int off = p.u * 64;
    float v = out[threadIdx.x];
    if ((int)threadIdx.x + off > 5) {
        v += __shfl_xor_sync(0xffffffff, v, 1);
    }
    out[threadIdx.x] = v;
}
void host(P p, float *out) { k<<<1, 32>>>(p, out); }
";
    let d = check(src, &Options::default());
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].confirmation.status, Status::Undecided, "{:#?}", d[0]);
}

#[test]
fn a_max_of_unknown_values_is_no_guess() {
    // `v = other > v ? other : v` after a legacy shuffle (whose result the
    // run does not know): each lane holds one of two plain values, so the
    // run needs no guess of which, and the finding it shows at the
    // shuffle stands (it was undecided: "split the warp by a guess").
    let src = "__device__ float butterfly_max(float v) {
    for (int mask = 16; mask > 0; mask /= 2) {
        float other = __shfl_xor(v, mask);
        v = other > v ? other : v;
    }
    return v;
}
__global__ void k(float *out) { out[threadIdx.x] = butterfly_max(out[threadIdx.x]); }
";
    let d = check(src, &Options::default());
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].code, "WL001");
    assert_eq!(d[0].confirmation.status, Status::Confirmed, "{:#?}", d[0]);
}

#[test]
fn a_field_of_an_object_built_from_the_lane_index_differs_between_lanes() {
    // `Packed p{threadIdx.x}`: the run held `p` as the lane index and read
    // `p.value` as one unknown for the whole warp, so no run split it and
    // the finding was hidden as contested. A field of a value that differs
    // between lanes differs too: the guard splits the warp (by a guess,
    // since the field's value is not modelled) and the finding is shown on
    // its direct evidence.
    let src = "struct Packed { int value; };
__global__ void k(float *out) {
    Packed p{(int)threadIdx.x};
    float v = out[threadIdx.x];
    if (p.value > 3) {
        v += __shfl_xor_sync(0xffffffff, v, 1);
    }
    out[threadIdx.x] = v;
}
void run(float *o) { k<<<1, 32>>>(o); }
";
    let d = check(src, &Options::default());
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].confirmation.status, Status::Undecided, "{:#?}", d[0]);
    assert_eq!(
        d[0].confirmation.evidence,
        Some(warplint::diagnostic::Evidence::Direct),
        "{:#?}",
        d[0]
    );
}

/// A grid-stride loop with a block barrier on a by-value parameter's
/// field, after `guard` (a statement at the top of the kernel).
fn strided_barrier_after(guard: &str) -> String {
    format!(
        "struct P {{ int n; float *out; }};
__global__ void __launch_bounds__(128) k(P p) {{
    {guard}
    for (int i = threadIdx.x + blockDim.x * blockIdx.x; i < p.n;
         i += blockDim.x * gridDim.x) {{
        p.out[i] = 1.0f;
        __syncthreads();
    }}
}}
void launch(P p) {{ k<<<(p.n + 127) / 128, 128>>>(p); }}
"
    )
}

#[test]
fn a_chosen_input_an_earlier_guard_rules_out_confirms_nothing() {
    // The run chooses `p.n` where the loop test splits the block, after it
    // passed the guard without knowing `p.n`: replayed with the choice as
    // an input from the start, the guard returns, so no run of the code
    // shows the barrier divided.
    let status = |guard: &str| {
        let d = check(&strided_barrier_after(guard), &Options::default());
        assert_eq!(d.len(), 1, "{d:#?}");
        d[0].confirmation.status
    };
    assert_ne!(status("if (p.n % 128 != 0) return;"), Status::Confirmed);
    // The same through a local copy of the input that the loop reads: the
    // value chosen for the copy is the input's.
    let copied = strided_barrier_after("const int n = p.n; if (n % 128 != 0) return;")
        .replace("i < p.n;", "i < n;");
    let d = check(&copied, &Options::default());
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_ne!(d[0].confirmation.status, Status::Confirmed, "{:#?}", d[0]);
    // Look-alike: a guard the chosen value passes; the replay confirms,
    // and the witness still says how the value was chosen.
    let d = check(
        &strided_barrier_after("if (p.n < 0) return;"),
        &Options::default(),
    );
    assert_eq!(d[0].confirmation.status, Status::Confirmed, "{:#?}", d[0]);
    let summary = &d[0].confirmation.witness.as_ref().unwrap().summary;
    assert_eq!(chosen_splits(summary).len(), 1, "{summary}");
    assert_eq!(chosen_splits(summary)[0].0, "p.n", "{summary}");
}

#[test]
fn assertions_are_what_the_code_states() {
    // `assert` and `__builtin_assume` rule out the runs that break them:
    // `p.n` a multiple of the block's 128 threads splits no block. Where
    // they open the body, the dataflow reads the loop as block-uniform and
    // nothing is proposed; after a branch, the runs that break them show
    // nothing.
    for assumption in [
        "assert(p.n % 128 == 0);",
        "__builtin_assume(p.n % 128 == 0);",
    ] {
        let d = check(&strided_barrier_after(assumption), &Options::default());
        assert!(d.is_empty(), "{assumption}: {d:#?}");
        let guard = format!("if (p.out == nullptr) return; {assumption}");
        let d = check(&strided_barrier_after(&guard), &Options::default());
        assert_eq!(d.len(), 1, "{d:#?}");
        assert_ne!(
            d[0].confirmation.status,
            Status::Confirmed,
            "{guard}: {:#?}",
            d[0]
        );
    }
    // An assertion the chosen value keeps leaves the finding confirmed,
    // one whose condition the run cannot compute rules nothing out, and
    // `assert(false)` (an unsupported build's `#else`) states no fact.
    for guard in [
        "assert(p.n > 0);",
        "assert(p.out != nullptr);",
        "assert(false);",
    ] {
        let d = check(&strided_barrier_after(guard), &Options::default());
        assert_eq!(
            d[0].confirmation.status,
            Status::Confirmed,
            "{guard}: {:#?}",
            d[0]
        );
    }
}
