//! Confirmation: plan runs for the functions that hold findings, execute
//! them, and decide each finding: confirmed (a run consistent with what the
//! code states shows it; with a witness), refuted (only with a proof: every
//! run the launch admits was executed exactly), or undecided (with the
//! reason).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeMap;

use super::check::{Class, Observation, observe};
use super::interp::{Allowance, Machine, RunConfig, Schedule};
use super::trace::{Site, Trace};
use crate::budgets::Budgets;
use crate::diagnostic::{
    Confirmation, Evidence, Launch, Proof, Witness, WitnessEvent, lanes_phrase,
};
use crate::ir::{ExprId, ExprKind, FnKind, Module};
pub use crate::rules::Claim;
use crate::source::SourceFile;

/// The executor's verdict on one finding, plus a detail for the message.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub confirmation: Confirmation,
    pub detail: Option<String>,
    /// The calls, from the run's root, to the operation whose run showed
    /// the finding (`(function, call)` pairs); empty where none did.
    pub via: Vec<crate::executor::trace::Site>,
}

pub struct ExecOptions {
    pub block_dim: Option<[u32; 3]>,
    pub budgets: Budgets,
}

#[derive(Clone)]
struct Setup {
    launch: Launch,
    /// Which of the launch shapes the code admits this setup runs (index
    /// into the shapes `setups_for` tried).
    shape: usize,
    /// The shape is stated (a launch site or the user), not assumed.
    stated: bool,
    /// Its width (x extent) is stated, even where the shape is not.
    width_stated: bool,
    /// Inputs named for the witness.
    inputs: BTreeMap<String, i64>,
    cfg: RunConfig,
}

struct RunResult {
    setup_index: usize,
    warp: u32,
    schedule: Schedule,
    observations: Vec<Observation>,
    trace: Trace,
}

/// Decide every claim. `None` claims get `None` verdicts.
/// What the executor spent on one file.
#[derive(Debug, Clone, Default)]
pub struct ExecCost {
    /// Warp executions run.
    pub runs: usize,
    /// Interpreter steps over the whole file.
    pub steps: u64,
    /// Root functions not explored because the file's budget ran out.
    pub skipped_roots: usize,
    /// The most expensive function: its name, total interpreter steps and
    /// wall time over all its runs.
    pub worst: Option<(String, u64, std::time::Duration)>,
}

pub fn confirm_findings(
    module: &Module,
    source: &SourceFile,
    claims: &[Option<Claim>],
    opts: &ExecOptions,
) -> (Vec<Option<Verdict>>, ExecCost) {
    let mut cost = ExecCost::default();
    let callees = direct_callees(module);
    let reached_by = kernels_reaching(module, &callees);
    let mut callers: Option<Vec<Vec<usize>>> = None;
    // root function → indices of claims it covers
    let mut by_root: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, c) in claims.iter().enumerate() {
        let Some(c) = c else { continue };
        let mut roots: Vec<usize> = reached_by[c.function].clone();
        // No kernel reaches it: run it from its outermost callers, whose
        // calls state its arguments (a helper only called for the block's
        // last, partial warp is not run on a full one), else by itself.
        if roots.is_empty() {
            let callers = callers.get_or_insert_with(|| direct_callers(&callees));
            roots = outermost_callers(callers, c.function);
        }
        if roots.is_empty() {
            roots.push(c.function);
        }
        for r in roots {
            by_root.entry(r).or_default().push(i);
        }
    }
    // The file's step budget is spent in root order: each root may use what
    // the roots before it left, and its runs stop where that runs out, so
    // the cut is counted (never timed) and the same on every machine.
    // Roots with only speculative claims draw on their own share of it.
    let file_budget: std::sync::Arc<str> = format!(
        "the executor's budget for this file ({} steps)",
        opts.budgets.max_file_steps
    )
    .into();
    let speculative_budget: std::sync::Arc<str> = format!(
        "the executor's budget for speculative candidates in this file ({} steps)",
        opts.budgets.max_speculative_steps
    )
    .into();
    let function_budget: std::sync::Arc<str> = format!(
        "the executor's budget for one function's speculative candidates ({} steps)",
        opts.budgets.max_speculative_function_steps
    )
    .into();
    let mut explored: Vec<RootOutcome> = Vec::new();
    // The class instances the module writes, on a member root's first ask.
    let written = std::cell::OnceCell::new();
    let (mut spent, mut speculative_spent) = (0u64, 0u64);
    // Claim → why one of its roots was not run (a budget left it no steps).
    let mut starved: HashMap<usize, std::sync::Arc<str>> = HashMap::default();
    for (root, idxs) in by_root {
        let file_left = opts.budgets.max_file_steps.saturating_sub(spent);
        let speculative = all_speculative(claims, &idxs);
        let speculative_left = opts
            .budgets
            .max_speculative_steps
            .saturating_sub(speculative_spent);
        // A root of speculative candidates stops at the first of the three
        // budgets to run out, and its undecided findings name that one.
        let budgets = [
            (file_left, &file_budget),
            (speculative_left, &speculative_budget),
            (
                opts.budgets.max_speculative_function_steps,
                &function_budget,
            ),
        ];
        let (steps, budget) = if speculative {
            budgets
                .into_iter()
                .min_by_key(|b| b.0)
                .unwrap_or(budgets[0])
        } else {
            budgets[0]
        };
        let allowance = Allowance {
            steps,
            budget: std::sync::Arc::clone(budget),
        };
        if allowance.steps == 0 {
            cost.skipped_roots += 1;
            let why: std::sync::Arc<str> = if speculative && opts.budgets.max_speculative_steps == 0
            {
                "speculative candidates are not run (`max-speculative-steps` is 0)".into()
            } else if speculative && opts.budgets.max_speculative_function_steps == 0 {
                "speculative candidates are not run (`max-speculative-function-steps` is 0)".into()
            } else {
                format!("{} was spent on earlier functions", allowance.budget).into()
            };
            for &i in &idxs {
                starved.insert(i, std::sync::Arc::clone(&why));
            }
            continue;
        }
        let o = explore_root(
            module, source, claims, root, &idxs, opts, &allowance, &written,
        );
        spent += o.steps;
        if speculative {
            speculative_spent += o.steps;
        }
        explored.push(o);
    }
    let mut found: Vec<Option<(Observation, String, Witness)>> = vec![None; claims.len()];
    let mut reached: Vec<bool> = vec![false; claims.len()];
    let mut quiet_to_the_end: Vec<bool> = vec![false; claims.len()];
    let mut incomplete: Vec<Option<String>> = vec![None; claims.len()];
    let mut split_guess: Vec<Option<String>> = vec![None; claims.len()];
    let mut runs_done: Vec<usize> = vec![0; claims.len()];
    // Per claim: roots explored, roots whose runs prove it absent, and the
    // first reason a root's runs were not a proof.
    let mut roots_seen: Vec<usize> = vec![0; claims.len()];
    let mut roots_proven: Vec<Vec<String>> = vec![Vec::new(); claims.len()];
    let mut not_exact: Vec<Option<String>> = vec![None; claims.len()];
    // Shapes: a finding shown under some admitted shapes but not others.
    let mut shape_gap: Vec<Option<String>> = vec![None; claims.len()];
    for outcome in explored {
        cost.runs += outcome.runs;
        cost.steps += outcome.steps;
        if cost.worst.as_ref().is_none_or(|w| outcome.steps > w.1) {
            cost.worst = Some((
                module.functions[outcome.root].name.clone(),
                outcome.steps,
                outcome.elapsed,
            ));
        }
        for (ci, state) in outcome.claims {
            roots_seen[ci] += 1;
            match state.proof {
                Some(p) => roots_proven[ci].push(p),
                None => {
                    if not_exact[ci].is_none() {
                        not_exact[ci] = state.not_exact;
                    }
                }
            }
            if state.found.is_some() && shape_gap[ci].is_none() {
                shape_gap[ci] = state.shape_gap;
            }
            if found[ci].is_none() {
                found[ci] = state.found;
            }
            reached[ci] |= state.reached;
            quiet_to_the_end[ci] |= state.quiet_to_the_end;
            if incomplete[ci].is_none() {
                incomplete[ci] = state.incomplete;
            }
            if split_guess[ci].is_none() {
                split_guess[ci] = state.split_guess;
            }
            runs_done[ci] += state.runs;
        }
    }

    for (&ci, why) in &starved {
        if found[ci].is_none() && incomplete[ci].is_none() {
            incomplete[ci] = Some(why.to_string());
        }
    }
    let verdicts = claims
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let claim = c.as_ref()?;
            let mut evidence = if claim.speculative {
                Evidence::Speculative
            } else if claim.narrow_rows_only {
                Evidence::ShapeDependent
            } else {
                Evidence::Direct
            };
            Some(match found[i].take() {
                Some((obs, setup, w)) => match shape_gap[i].take() {
                    // Shown under one assumed shape, not under another the
                    // code admits: the bug depends on an assumption.
                    Some(gap) => Verdict {
                        via: obs.chain.clone(),
                        detail: None,
                        confirmation: Confirmation {
                            witness: Some(w),
                            ..Confirmation::undecided(
                                format!("{} ({setup}), {gap}", obs.detail),
                                Evidence::ShapeDependent,
                            )
                        },
                    },
                    None => Verdict {
                        via: obs.chain.clone(),
                        detail: Some(format!("{} ({setup})", obs.detail)),
                        confirmation: Confirmation::confirmed(w),
                    },
                },
                // A function callable from code the tool cannot see: the
                // visible callers prove nothing about the others.
                None if claim.unseen_callers.is_some() => Verdict {
                    via: Vec::new(),
                    detail: None,
                    confirmation: Confirmation::undecided(
                        claim.unseen_callers.clone().unwrap_or_default(),
                        Evidence::Direct,
                    ),
                },
                // Shown lane by lane: a proof where the launch states whole
                // warps, and shape-dependent where it does not.
                // (A stated shape of partial warps leaves it to the runs.)
                None if claim.lane_proof.is_some()
                    && let stated = full_warps_stated(module, claim.function, opts)
                    && stated != Err(true) =>
                {
                    let proof = claim.lane_proof.clone().unwrap_or_default();
                    match stated {
                        Ok(shape) => Verdict {
                            via: Vec::new(),
                            detail: None,
                            confirmation: Confirmation::refuted(
                                Proof::ReachingLanes,
                                format!("{proof}; the block's x extent is a multiple of 32 ({shape}), so each warp is 32 consecutive threadIdx.x"),
                            ),
                        },
                        Err(_) => Verdict {
                            via: Vec::new(),
                            detail: None,
                            confirmation: Confirmation::undecided(
                                format!("{proof}, if each warp is 32 consecutive threadIdx.x; nothing states that the block's x extent is a multiple of 32"),
                                Evidence::ShapeDependent,
                            ),
                        },
                    }
                }
                None if !starved.contains_key(&i)
                    && roots_seen[i] > 0
                    && roots_proven[i].len() == roots_seen[i] =>
                {
                    Verdict {
                        via: Vec::new(),
                        detail: None,
                        confirmation: Confirmation::refuted(
                            Proof::ExhaustiveRuns,
                            format!(
                                "every run the code admits was executed exactly ({}; every warp of the block, no chosen input, no guessed branch) and none shows the problem",
                                roots_proven[i].join("; ")
                            ),
                        ),
                    }
                }
                None => {
                    let why_not_proof = not_exact[i]
                        .clone()
                        .unwrap_or_else(|| "the runs are not the only ones the code admits".to_owned());
                    let reason = if let Some(why) = split_guess[i].take() {
                        // Not contested: a run did show it, on a guess.
                        why
                    } else if let Some(why) = starved.get(&i)
                        && !reached[i]
                    {
                        format!("no run was built: {why}")
                    } else if !reached[i] {
                        match &incomplete[i] {
                            Some(why) => format!("no run reached it: {why} before this point"),
                            None => format!(
                                "no run the executor built reached it; not a proof, because {why_not_proof}"
                            ),
                        }
                    } else if let Some(why) = &incomplete[i] {
                        // Runs cut short say nothing; one that ran to its
                        // end, with lanes missing at the site's primitive,
                        // contests the evidence.
                        if quiet_to_the_end[i] && evidence == Evidence::Direct {
                            evidence = Evidence::Contested;
                            format!(
                                "runs that reached it with lanes of the warp missing and ran to their end did not show the problem; others were cut short ({why})"
                            )
                        } else {
                            format!("no run showed the problem, and {why}")
                        }
                    } else {
                        // Runs reached the site and none showed it: the
                        // static evidence stands, but is contested.
                        if evidence == Evidence::Direct {
                            evidence = Evidence::Contested;
                        }
                        format!(
                            "{} warp execution(s) did not show the problem; not a proof, because {why_not_proof}",
                            runs_done[i]
                        )
                    };
                    Verdict {
                        via: Vec::new(),
                        detail: None,
                        confirmation: Confirmation::undecided(reason, evidence),
                    }
                }
            })
        })
        .collect();
    (verdicts, cost)
}

/// Are all of these claims speculative candidates (kept only if a run
/// confirms them)?
fn all_speculative(claims: &[Option<Claim>], idxs: &[usize]) -> bool {
    idxs.iter()
        .all(|&i| claims[i].as_ref().is_none_or(|c| c.speculative))
}

/// What exploring one root function found for its claims.
struct RootOutcome {
    root: usize,
    runs: usize,
    steps: u64,
    elapsed: std::time::Duration,
    claims: Vec<(usize, ClaimState)>,
}

#[derive(Default)]
struct ClaimState {
    found: Option<(Observation, String, Witness)>,
    reached: bool,
    /// A run that ran to its end executed the site's primitive with lanes
    /// of the warp missing (the divergence the claim is about) and showed
    /// nothing.
    quiet_to_the_end: bool,
    incomplete: Option<String>,
    runs: usize,
    /// Set when an exact setup covered every run of this root and did not
    /// show the problem: what the proof rests on.
    proof: Option<String>,
    /// Why no setup of this root was exact.
    not_exact: Option<String>,
    /// Set when a run showed the problem only by splitting the warp on a
    /// guess (see `Trace::split_guess`): why that run does not confirm.
    split_guess: Option<String>,
    /// Shapes (by index) under which the problem showed.
    shown_in: u8,
    /// Shapes under which a run reached the site and showed nothing, not
    /// even on a guessed split: only those can say the problem depends on
    /// the shape.
    quiet_in: u8,
    /// A run showed the problem under a stated shape, or one whose rows
    /// are whole warps (the block's width a multiple of 32).
    shown_in_whole_rows: bool,
    /// Blocks whose exact runs did not show the problem.
    exact_blocks: HashSet<u32>,
    /// Some of those runs read `blockIdx`/`gridDim`.
    reads_block: bool,
    /// Set when the problem showed under an assumed shape but not under
    /// another admitted one: says which.
    shape_gap: Option<String>,
    /// Seeded runs rerun on unknown memory (see `MAX_UNSEEDED_TRIES`).
    unseeded_tries: u8,
}

/// Whole-warp setups per block shape (see [`RunConfig::whole_warp`]).
const WHOLE_WARP_SETUPS: usize = 4;

#[allow(clippy::too_many_arguments)]
fn explore_root<'m>(
    module: &'m Module,
    source: &SourceFile,
    claims: &[Option<Claim>],
    root: usize,
    idxs: &[usize],
    opts: &ExecOptions,
    allowance: &Allowance,
    written: &std::cell::OnceCell<WrittenInstances<'m>>,
) -> RootOutcome {
    let mut state: BTreeMap<usize, ClaimState> =
        idxs.iter().map(|&i| (i, ClaimState::default())).collect();
    let mut runs = 0usize;

    let started = std::time::Instant::now();
    let mut root_steps = 0u64;
    let mut setups = setups_for(module, root, opts, written);
    // A claim that lanes call outside their mask is shown only by a run
    // in which they arrive: after the runs that split the warp, the first
    // setups of each shape again (their inputs differ) with the warp kept
    // whole.
    if idxs
        .iter()
        .any(|&i| (claims[i].as_ref()).is_some_and(|c| c.classes.contains(&Class::CallerNotInMask)))
    {
        let mut whole: Vec<Setup> = Vec::new();
        for s in &setups {
            if whole.iter().filter(|w| w.shape == s.shape).count() < WHOLE_WARP_SETUPS {
                let mut w = s.clone();
                w.cfg.whole_warp = true;
                whole.push(w);
            }
        }
        setups.extend(whole);
    }
    let shapes = setups.iter().map(|s| s.shape + 1).max().unwrap_or(1).min(8);
    let grid_stated = module.functions[root].kind == FnKind::Kernel
        && module
            .launches
            .iter()
            .any(|l| l.kernel == module.functions[root].name && l.grid_dim.is_some());
    let wants_schedules = idxs
        .iter()
        .any(|&i| claims[i].as_ref().is_some_and(|c| c.schedule_dependent));
    // Only a claim about a named barrier's count asks for the arrivals of
    // the block's warps to be added up.
    let wants_counts = idxs
        .iter()
        .any(|&i| (claims[i].as_ref()).is_some_and(|c| c.classes.contains(&Class::BarrierCount)));
    let mut deterministic_done: HashSet<String> = HashSet::default();
    let mut blocks_seen: HashSet<(usize, u32)> = HashSet::default();
    // Set when the file's step budget ran out during this root's runs.
    let mut out_of_budget = false;
    // Shapes (by index) with a setup whose runs all ran: a finding is
    // shape-dependent only if a shape that ran did not show it, never
    // because the budget ran out before a shape was tried.
    let mut shapes_run = 0u16;
    // Speculative candidates (on every shared-memory statement, every
    // narrowed mask) are shown only when a run confirms them. Each warp
    // of the block runs in the first setup; in the later ones, as for
    // other findings from the third on, the first and the last. Every
    // speculative confirmation on testdata and the corpora came from the
    // first warp.
    let speculative_only = all_speculative(claims, idxs);
    for (si, setup) in setups.iter().enumerate() {
        if out_of_budget {
            break;
        }
        // A setup equal to an earlier one that had no branch to guess
        // would run the same way again (the same block shape included: a
        // shape never run proves nothing about it).
        let key = format!(
            "{:?}|{:?}|{:?}|{}|{}|{}",
            setup.inputs,
            setup.cfg.block_dim,
            setup.cfg.block_idx,
            setup.cfg.seed % 2,
            setup.cfg.symbolic,
            setup.cfg.whole_warp
        );
        if deterministic_done.contains(&key) {
            continue;
        }
        // Every warp the first time a block is run under a shape, and in
        // the first two setups (the first, where every finding is
        // speculative); otherwise the first and last warp. (A shape whose
        // runs skipped the warps that reach a site could not say whether
        // the problem depends on the shape.)
        let fresh_block = blocks_seen.insert((setup.shape, setup.cfg.block_idx[0]));
        let every_warp = si < if speculative_only { 1 } else { 2 } || fresh_block;
        let warps = warps_for(module, root, &setup.cfg, every_warp);
        let mut per_warp: Vec<RunResult> = Vec::new();
        for &w in &warps {
            if out_of_budget {
                break;
            }
            let schedules: &[Schedule] = if wants_schedules {
                &[Schedule::Converged, Schedule::Split(1), Schedule::Split(8)]
            } else {
                &[Schedule::Converged]
            };
            for &sched in schedules {
                if root_steps >= allowance.steps {
                    out_of_budget = true;
                    break;
                }
                let mut cfg = setup.cfg.clone();
                cfg.warp = w;
                cfg.schedule = sched;
                cfg.allowance = allowance.after(root_steps);
                let run = run_consistent(module, source, root, cfg);
                runs += run.runs;
                root_steps += run.steps;
                per_warp.push(RunResult {
                    setup_index: si,
                    warp: w,
                    schedule: sched,
                    observations: run.observations,
                    trace: run.trace,
                });
            }
        }
        if per_warp.iter().all(|r| r.trace.assumptions.is_empty()) {
            deterministic_done.insert(key);
        }
        let all_warps = warps.len() as u32 == warp_count(&setup.cfg);
        let budget_note = format!("{} ran out", allowance.budget);
        let inexact = if out_of_budget {
            Some(budget_note.clone())
        } else {
            inexact_reason(module, root, setup, all_warps, &per_warp)
        };
        let mut extra = cross_warp_barriers(&per_warp);
        // Whether a named barrier's count is met depends on how many warps
        // the block has: only a shape the code states (a launch, the user,
        // or the block its `__launch_bounds__` is written for) decides it,
        // not one assumed (`x` of 32, 16 or 8 where a launch states only y
        // and z).
        let block_threads: u32 = setup.cfg.block_dim.iter().product();
        let shape_stated =
            setup.stated || module.functions[root].launch_bounds == Some(block_threads);
        if wants_counts && all_warps && !out_of_budget && shape_stated {
            extra.extend(named_barrier_counts(&per_warp));
        }
        extra.extend(schedule_differences(&per_warp, idxs, claims));
        for (i, obs) in extra {
            per_warp[i].observations.push(obs);
        }
        let indexes: Vec<RunIndex> = per_warp.iter().map(RunIndex::of).collect();
        for &ci in idxs {
            let Some(claim) = &claims[ci] else { continue };
            let Some(st) = state.get_mut(&ci) else {
                continue;
            };
            let shown_before = st.shown_in;
            if out_of_budget {
                st.incomplete.get_or_insert_with(|| budget_note.clone());
            }
            // A whole-warp run is for the claims that lanes call outside
            // their mask; the others are judged on the runs that split.
            if setup.cfg.whole_warp && !claim.classes.contains(&Class::CallerNotInMask) {
                continue;
            }
            for (r, index) in per_warp.iter().zip(&indexes) {
                st.runs += 1;
                let at = |s: &ExprId| (claim.function, *s);
                let reached_here = claim
                    .sites
                    .iter()
                    .any(|s| r.trace.reached.contains(&at(s)) || index.accessed.contains(&at(s)));
                let shown = index.shown(r, claim);
                if reached_here {
                    st.reached = true;
                    if shown.is_empty() {
                        st.quiet_in |= 1 << setup.shape;
                        st.quiet_to_the_end |= r.trace.incomplete.is_none()
                            && !out_of_budget
                            && claim.sites.iter().any(|s| index.missed.contains(&at(s)));
                    }
                }
                if let Some(why) = &r.trace.incomplete {
                    st.incomplete.get_or_insert(why.clone());
                }
                if st.found.is_some() && st.shown_in >> setup.shape & 1 == 1 {
                    continue;
                }
                // A speculative claim (nothing the code shows makes its
                // lanes differ) is not confirmed by a run that guessed how
                // the lanes split on a value it does not know: that run is
                // an assumption, not something the code states.
                if claim.speculative && r.trace.assumptions.iter().any(|a| a.1 != 0) {
                    continue;
                }
                // Nor is any claim confirmed by a run that split the warp by
                // a guess: the partition (every other lane, the first 16) is
                // the executor's, and the value may even be uniform (a warp
                // index through a width it could not compute). The claim
                // stays undecided on its static evidence, saying so.
                // (A guess after the operation, in lanes the observation
                // does not follow, leaves it standing: lanes that took the
                // branch to the call split again later.)
                let first_shown = shown.first();
                let clean = shown.iter().copied().find(|o| !o.rests_on(&r.trace));
                if let Some((line, text)) = &r.trace.split_guess
                    && first_shown.is_some()
                    && clean.is_none()
                {
                    st.split_guess.get_or_insert_with(|| {
                        format!(
                            "the only run that showed it split the warp by a guess at line {line} (`{text}`: a value the executor could not compute), which nothing in the code states"
                        )
                    });
                    continue;
                }
                if let Some(o) = clean {
                    let s = &setups[r.setup_index];
                    // A race between addresses computed from data the plan
                    // picked (memory the run never wrote, a chosen input) may
                    // rest on values the code rules out: ranks that are a
                    // permutation by contract, a width the launch passes as
                    // `blockDim.x` picked as 1. A speculative race must show
                    // again with that data unknown, so that its addresses
                    // come from the code. (Branches on loaded data are
                    // another matter: any data is consistent with the code.)
                    if claim.speculative && o.class == Class::SharedRace && r.trace.guessed_data {
                        if st.unseeded_tries >= MAX_UNSEEDED_TRIES {
                            continue;
                        }
                        st.unseeded_tries += 1;
                        let mut cfg = s.cfg.clone();
                        cfg.warp = r.warp;
                        cfg.schedule = r.schedule;
                        cfg.symbolic = true;
                        for name in &s.cfg.chosen_inputs {
                            cfg.inputs.remove(name);
                        }
                        cfg.allowance = allowance.after(root_steps);
                        let (shown, steps) =
                            shows_on_unknown_memory(module, source, root, &cfg, claim);
                        runs += 1;
                        root_steps += steps;
                        if !shown {
                            continue;
                        }
                    }
                    st.shown_in |= 1 << s.shape;
                    if st.found.is_none() {
                        let mut w = witness(s, r, o);
                        w.without_caller = !module.runs_as_kernel(&module.functions[root]);
                        st.found = Some((o.clone(), setup_text(s, r.warp), w));
                    }
                    st.shown_in_whole_rows |=
                        s.width_stated || s.launch.block_dim[0].is_multiple_of(32);
                }
            }
            let shown_here = st.shown_in != shown_before;
            match (&inexact, claim.schedule_dependent) {
                (None, false) if !shown_here && st.proof.is_none() => {
                    // A run that read blockIdx stands for its block only:
                    // every block of a stated grid must have had one.
                    let reads_block = per_warp.iter().any(|r| r.trace.reads_block);
                    st.exact_blocks.insert(setup.cfg.block_idx[0]);
                    st.reads_block |= reads_block;
                    let grid = setup.cfg.grid_dim;
                    let covered = !st.reads_block
                        || (grid_stated
                            && grid[1] == 1
                            && grid[2] == 1
                            && st.exact_blocks.len() as u32 == grid[0]);
                    if covered {
                        let [x, y, z] = setup.launch.block_dim;
                        st.proof = Some(format!(
                            "blockDim = ({x}, {y}, {z}) from the {}{}",
                            setup.launch.source,
                            if st.reads_block {
                                format!(", each of the grid's {} block(s)", grid[0])
                            } else {
                                String::new()
                            }
                        ));
                    } else {
                        st.not_exact.get_or_insert_with(|| {
                            "the runs read blockIdx, and not every block of a stated grid was run"
                                .to_owned()
                        });
                    }
                }
                (None, true) => {
                    st.not_exact.get_or_insert_with(|| {
                        "`__activemask()` depends on a schedule the executor only samples"
                            .to_owned()
                    });
                }
                (Some(why), _) => {
                    st.not_exact.get_or_insert_with(|| why.clone());
                }
                _ => {}
            }
        }
        if !out_of_budget {
            shapes_run |= 1 << setup.shape.min(15);
        }
        let all_shapes = (1u16 << shapes) - 1;
        let all_found = state
            .values()
            .all(|c| c.found.is_some() && u16::from(c.shown_in) == all_shapes);
        if all_found {
            break;
        }
    }
    for (ci, st) in &mut state {
        // The code shows the divergence only in rows narrower than a warp,
        // and only an assumed shape of such rows showed it.
        let narrow_rows_only = claims[*ci].as_ref().is_some_and(|c| c.narrow_rows_only);
        if narrow_rows_only && st.found.is_some() && !st.shown_in_whole_rows {
            st.shape_gap = Some(WHOLE_ROWS_GAP.to_owned());
            st.proof = None;
        }
    }
    if shapes > 1 {
        for st in state.values_mut() {
            if st.found.is_none() {
                continue;
            }
            // A shape whose runs never reached the site (another guess
            // took them elsewhere) says nothing about it.
            if let Some(missing) = (0..shapes).find(|k| {
                st.shown_in >> k & 1 == 0 && st.quiet_in >> k & 1 == 1 && shapes_run >> k & 1 == 1
            }) {
                let shape = setups
                    .iter()
                    .find(|s| s.shape == missing)
                    .map(|s| s.launch.block_dim)
                    .unwrap_or([0; 3]);
                st.shape_gap = Some(format!(
                    "but not with blockDim = ({}, {}, {}), which the code also admits: no launch site states the shape",
                    shape[0], shape[1], shape[2]
                ));
                // A bug the other shape does not show is no proof either.
                st.proof = None;
            }
        }
    }
    RootOutcome {
        root,
        runs,
        steps: root_steps,
        elapsed: started.elapsed(),
        claims: state.into_iter().collect(),
    }
}

/// Why a problem shown with rows narrower than a warp is not confirmed,
/// where no launch states the block's width.
const WHOLE_ROWS_GAP: &str = "but not with a block width that is a multiple of 32, which the code \
     also admits: no launch site states the width, and only narrower rows split a warp here";

/// For each function, the functions it can call (itself included).
/// For each function, the kernels that can reach it through calls.
/// The module functions each function calls.
fn direct_callees(module: &Module) -> Vec<Vec<usize>> {
    module
        .functions
        .iter()
        .map(|f| {
            f.exprs
                .iter()
                .filter_map(|e| match &e.kind {
                    ExprKind::Call(c) => module.callee(c),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

/// The module functions that call each function.
fn direct_callers(callees: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); callees.len()];
    for (g, called) in callees.iter().enumerate() {
        for &h in called {
            if h != g && !callers[h].contains(&g) {
                callers[h].push(g);
            }
        }
    }
    callers
}

/// The functions without callers from which `f` is reached through
/// others (not `f` itself; empty when nothing calls `f`, or only a cycle).
fn outermost_callers(callers: &[Vec<usize>], f: usize) -> Vec<usize> {
    let mut seen = HashSet::from_iter([f]);
    let mut stack = vec![f];
    let mut out = Vec::new();
    while let Some(g) = stack.pop() {
        if g != f && callers[g].is_empty() {
            out.push(g);
        }
        for &h in &callers[g] {
            if seen.insert(h) {
                stack.push(h);
            }
        }
    }
    out.sort_unstable();
    out
}

fn kernels_reaching(module: &Module, direct: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut reached_by: Vec<Vec<usize>> = vec![Vec::new(); module.functions.len()];
    for (k, f) in module.functions.iter().enumerate() {
        if f.kind != FnKind::Kernel {
            continue;
        }
        let mut seen = HashSet::from_iter([k]);
        let mut stack = vec![k];
        while let Some(g) = stack.pop() {
            reached_by[g].push(k);
            for &h in &direct[g] {
                if seen.insert(h) {
                    stack.push(h);
                }
            }
        }
    }
    reached_by
}

/// Which flags (`if constexpr` names read as truth values, see
/// [`candidates_for`]) setup `r` flips from their first value, one bit per
/// flag: none, then all, then every pattern in turn. Cycling them as the
/// other inputs are cycled would keep neighbouring flags in lockstep, so
/// that `if constexpr (A || B || C) return;` returned in every setup.
fn flag_pattern(r: usize) -> u64 {
    match r {
        0 => 0,
        1 => u64::MAX,
        r => (r - 1) as u64,
    }
}

/// Values tried for an integer input nobody fixed: not a multiple of 32,
/// large enough for every lane, tiny, and just past a warp.
const CANDIDATES: [i64; 4] = [20, 100, 1, 33];

/// Sizes tried for `sizeof(T)`: those of the scalar and vector types a
/// template is instantiated with (a size past 16 would make the usual
/// `16 / sizeof(T)` vector width zero, which the code rules out).
const TYPE_SIZES: [i64; 5] = [4, 2, 1, 8, 16];

/// The values a free input of `f` is tried with: only those its
/// `static_assert`s admit (`stated`, see `ir::asserts`).
fn candidates_for(
    module: &Module,
    f: &crate::ir::Function,
    name: &str,
    stated: &HashMap<String, crate::ir::asserts::Stated>,
    written: &WrittenInstances,
) -> Vec<i64> {
    use crate::ir::asserts::Stated;
    match stated.get(name) {
        Some(Stated::Value(k)) => return vec![*k],
        Some(Stated::MultipleOf(m)) => {
            let m = *m;
            let mut out: Vec<i64> = unconstrained_candidates(module, f, name)
                .into_iter()
                .filter(|v| *v > 0 && v % m == 0)
                .collect();
            for v in [m, 3 * m, 2 * m] {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
            return out;
        }
        None => {}
    }
    if let Some(values) = stated_class_values(module, f, name, written) {
        return values;
    }
    unconstrained_candidates(module, f, name)
}

/// Every class instance the module writes, by class (the name before
/// its template arguments): the written type (`GroupSum<8>`) and the class
/// of the function writing it. Objects, temporaries (`GroupSum<8>()`) and
/// scoped calls (`GroupSum<32>::sum(v)`). Built once per file, on the
/// first ask ([`stated_class_values`]).
#[derive(Default)]
struct WrittenInstances<'m> {
    by_class: HashMap<&'m str, Vec<(Option<&'m str>, &'m str)>>,
}

impl<'m> WrittenInstances<'m> {
    fn of(module: &'m Module) -> Self {
        let mut out = WrittenInstances::default();
        for g in &module.functions {
            let scopes = (g.own_calls()).filter_map(|(_, c)| c.scope.as_deref());
            for written in g
                .constructions
                .iter()
                .map(|c| c.written.as_str())
                .chain(scopes)
            {
                let (_, last) = crate::ir::split_scope(written);
                let class = last.split('<').next().unwrap_or(last).trim();
                (out.by_class.entry(class).or_default()).push((g.class.as_deref(), last));
            }
        }
        out
    }
}

/// A class template's value, as the unit states it: where the module
/// writes the member's class with template arguments
/// ([`WrittenInstances`]) and each gives the value as an integer, those
/// values are the ones a run of the member without a caller takes (a
/// value no instance has is no run the code makes). `None` where the unit
/// writes none, or one it cannot read (`GroupSum<LANES>` in another
/// template): any value then. Its own members write it with its own names
/// (`Segments<LANES>()`): not instances. Not exact: a class of the same
/// name in another namespace counts too.
fn stated_class_values(
    module: &Module,
    f: &crate::ir::Function,
    name: &str,
    written: &WrittenInstances,
) -> Option<Vec<i64>> {
    let class = f.class.as_deref()?;
    let param = f.class_params.iter().find(|p| p.name == name)?;
    let mut values: Vec<i64> = Vec::new();
    for &(_, last) in (written.by_class.get(class)?.iter()).filter(|(by, _)| *by != Some(class)) {
        let args = crate::ir::template_args(last)?;
        let v = module.written_int(param.arg(&args)?)?;
        if !values.contains(&v) {
            values.push(v);
        }
    }
    (!values.is_empty()).then_some(values)
}

fn unconstrained_candidates(module: &Module, f: &crate::ir::Function, name: &str) -> Vec<i64> {
    let constants = &module.constants;
    if f.type_sizes.iter().any(|t| t == name) {
        return TYPE_SIZES.to_vec();
    }
    if f.flag_values.iter().any(|t| t == name) {
        return vec![1, 0];
    }
    // A tile's size (`thread_block_tile<N>`, here or in a callee the value
    // is passed to): no other size compiles.
    if is_logical_warp_width(f, name, constants)
        || f.tile_sizes.iter().any(|t| t == name)
        || sizes_a_callees_tile(module, f, name)
    {
        return LOGICAL_WARP_WIDTHS.to_vec();
    }
    // A class's or namespace's constant (`Mma_tile::MMAS_M`): in tile code
    // a count of fragments, stages or steps, whose loops nest, as is the
    // extent of a range a `for` walks. Small values run them whole within
    // the iteration budget; sizes like 100 would not.
    let pool: &[i64] = if name.contains("::") || crate::ir::is_range_extent(name) {
        &SCOPED_CONSTANTS
    } else {
        &CANDIDATES
    };
    let mut out: Vec<i64> = pool.to_vec();
    let compared_where_passed = (passed_on(module, f, name).into_iter())
        .flat_map(|(g, as_named)| compared_constants(&module.functions[g], &as_named, constants));
    for v in compared_constants(f, name, constants)
        .into_iter()
        .chain(divided_constants(f, name, constants))
        .chain(compared_where_passed)
    {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// Values tried for a scoped compile-time name (see `unconstrained_candidates`).
const SCOPED_CONSTANTS: [i64; 4] = [2, 1, 4, 3];

/// Widths tried for a logical warp: the powers of two up to a warp, all
/// the code admits (CUB's `static_assert`s, the mask layouts of
/// `WarpMask`); `20` or `33` would be runs no launch can make.
const LOGICAL_WARP_WIDTHS: [i64; 6] = [16, 1, 32, 8, 4, 2];

/// Whether the input `name` is a logical warp's width: the code asks
/// whether it is the whole warp (`LogicalWarpThreads == warp_threads`,
/// `W != 32`, `W == warpSize`).
fn is_logical_warp_width(
    f: &crate::ir::Function,
    name: &str,
    constants: &HashMap<String, i64>,
) -> bool {
    f.exprs.iter().any(|e| {
        let ExprKind::Binary(crate::ir::BinOp::Eq | crate::ir::BinOp::Ne, a, b) = &e.kind else {
            return false;
        };
        [(*a, *b), (*b, *a)].into_iter().any(|(x, y)| {
            matches!(&f.expr(x).kind, ExprKind::Var(v) if v == name)
                && crate::ir::fold::eval_const(f, y, constants) == Some(32)
        })
    })
}

/// Does `f` pass `name` as the template value that sizes a callee's tile
/// (`computeCount<kGroup>(…)` whose `thread_block_tile<kGroup>` is the
/// tile)? One call deep.
fn sizes_a_callees_tile(module: &Module, f: &crate::ir::Function, name: &str) -> bool {
    f.exprs.iter().any(|e| {
        let ExprKind::Call(c) = &e.kind else {
            return false;
        };
        let Some(k) = c.template_args.iter().position(|a| a.trim() == name) else {
            return false;
        };
        let Some(g) = module.callee(c) else {
            return false;
        };
        let g = &module.functions[g];
        (g.template_values.get(k)).is_some_and(|v| g.tile_sizes.contains(v))
    })
}

/// Replays of one run whose choices of root inputs keep changing.
const MAX_REPLAYS: usize = 3;

/// A run and what it shows, with what it cost.
struct ConsistentRun {
    trace: Trace,
    observations: Vec<Observation>,
    steps: u64,
    runs: usize,
}

/// Run `cfg` so that what it shows is a run of the code. A run that chose
/// a root input so that the lanes split (`params.n = 16`) had decided
/// everything before the choice without it, and an earlier guard on the
/// same input (`if (params.n % 128 != 0) return;`, an `assert`) may rule
/// the value out. Such a run stands only as replayed from the start with
/// its choices as inputs; a replay that chooses more is replayed again, up
/// to [`MAX_REPLAYS`] times, and one still choosing then shows nothing.
fn run_consistent(
    module: &Module,
    source: &SourceFile,
    root: usize,
    mut cfg: RunConfig,
) -> ConsistentRun {
    let mut steps = 0;
    let mut runs = 0;
    let mut notes: Vec<String> = Vec::new();
    loop {
        let mut m = Machine::new(module, &cfg, source);
        m.run_root(root);
        runs += 1;
        steps += m.trace.steps;
        let run_steps = m.trace.steps;
        let mut observations = observations_of(&mut m, cfg.schedule);
        let mut trace = m.trace;
        let bound: Vec<(String, i64)> = std::mem::take(&mut trace.bound_inputs)
            .into_iter()
            .filter(|(name, _)| !cfg.inputs.contains_key(name))
            .collect();
        // What earlier runs chose is what this one was given.
        for n in notes.drain(..).rev() {
            if !trace.chosen.contains(&n) {
                trace.chosen.insert(0, n);
            }
        }
        let done = bound.is_empty() || observations.is_empty();
        if done || runs > MAX_REPLAYS {
            if !done {
                observations.clear();
                trace.incomplete.get_or_insert_with(|| {
                    "each replay of a run chose another input so that the lanes split".to_owned()
                });
            }
            return ConsistentRun {
                trace,
                observations,
                steps,
                runs,
            };
        }
        notes = trace.chosen;
        for (name, v) in bound {
            cfg.inputs.insert(name.clone(), v);
            cfg.chosen_inputs.insert(name);
        }
        cfg.allowance = cfg.allowance.after(run_steps);
    }
}

/// Reruns of a seeded run, per speculative claim and root, with the memory
/// it read left unknown (see `shows_on_unknown_memory`).
const MAX_UNSEEDED_TRIES: u8 = 2;

/// What a finished run shows: the trace's problems (judged on the
/// converged schedule only; nothing when a thread trapped and the grid
/// aborted) and the legacy primitives it executed.
fn observations_of(m: &mut Machine, sched: Schedule) -> Vec<Observation> {
    let mut observations = if m.trace.trapped || sched != Schedule::Converged {
        Vec::new()
    } else {
        let (obs, cut) = observe(&m.trace, m.present());
        if let Some(why) = cut {
            m.trace.incomplete.get_or_insert(why);
        }
        obs
    };
    observations.extend(legacy_observations(m));
    observations
}

/// Whether observation `o` is the problem `claim` proposes, at its sites.
/// A run's observations and shared-memory accesses by the sites on their
/// call paths: each claim looks up its own sites instead of scanning the
/// whole record of every run (quadratic in a kernel with thousands of
/// findings).
struct RunIndex {
    /// Site → indices of the observations whose chain holds it.
    observations: HashMap<Site, Vec<usize>>,
    /// Sites on the chain of some access.
    accessed: HashSet<Site>,
    /// Sites on the chain of a primitive some lanes of the warp missed
    /// (exited, or elsewhere).
    missed: HashSet<Site>,
}

impl RunIndex {
    fn of(r: &RunResult) -> RunIndex {
        let mut observations: HashMap<Site, Vec<usize>> = HashMap::default();
        for (i, o) in r.observations.iter().enumerate() {
            for site in &o.chain {
                let at = observations.entry(*site).or_default();
                if at.last() != Some(&i) {
                    at.push(i);
                }
            }
        }
        let accessed = (r.trace.accesses.iter())
            .flat_map(|a| a.chain.iter().copied())
            .collect();
        let missed = (r.trace.collectives.iter())
            .filter(|c| c.active != c.present)
            .flat_map(|c| c.chain.iter().copied())
            .collect();
        RunIndex {
            observations,
            accessed,
            missed,
        }
    }

    /// The observations of `r` that show `claim`, in the run's order
    /// ([`shows`]: the index holds those on the claim's sites, so only
    /// their class is left to check).
    fn shown<'r>(&self, r: &'r RunResult, claim: &Claim) -> Vec<&'r Observation> {
        let mut at: Vec<usize> = (claim.sites.iter())
            .filter_map(|s| self.observations.get(&(claim.function, *s)))
            .flatten()
            .copied()
            .collect();
        at.sort_unstable();
        at.dedup();
        at.into_iter()
            .map(|i| &r.observations[i])
            .filter(|o| claim.classes.contains(&o.class))
            .collect()
    }
}

fn shows(claim: &Claim, o: &Observation) -> bool {
    claim.classes.contains(&o.class)
        && o.chain
            .iter()
            .any(|(f, e)| *f == claim.function && claim.sites.contains(e))
}

/// Run `cfg` (symbolic: memory nobody wrote and inputs no one states read
/// as unknown) and say
/// whether it shows `claim` without guessing how lanes split; with the
/// steps it took.
fn shows_on_unknown_memory(
    module: &Module,
    source: &SourceFile,
    root: usize,
    cfg: &RunConfig,
    claim: &Claim,
) -> (bool, u64) {
    let mut m = Machine::new(module, cfg, source);
    m.run_root(root);
    let observations = observations_of(&mut m, cfg.schedule);
    let guessed = m.trace.assumptions.iter().any(|a| a.1 != 0);
    let shown = !guessed && observations.iter().any(|o| shows(claim, o));
    (shown, m.trace.steps)
}

fn setups_for<'m>(
    module: &'m Module,
    root: usize,
    opts: &ExecOptions,
    written: &std::cell::OnceCell<WrittenInstances<'m>>,
) -> Vec<Setup> {
    let written = written.get_or_init(|| WrittenInstances::of(module));
    let f = &module.functions[root];
    let site = if f.kind == FnKind::Kernel {
        module
            .launches
            .iter()
            .find(|l| l.kernel == f.name && l.block_dim.is_some())
            .or_else(|| module.launches.iter().find(|l| l.kernel == f.name))
    } else {
        None
    };
    let AdmittedShapes {
        shapes,
        source,
        exact: stated,
        width_stated,
    } = admitted_shapes(module, root, site, opts);
    let mut fixed: HashMap<String, i64> = HashMap::default();
    if let Some(s) = site {
        for (name, v) in f
            .template_values
            .iter()
            .zip(f.stated_values(&s.template_args))
        {
            if let Some(v) = v {
                fixed.insert(name.clone(), v);
            }
        }
        for (p, v) in f.params.iter().zip(&s.args) {
            if p.is_integral
                && let Some(v) = v
            {
                fixed.insert(p.name.clone(), *v);
            }
        }
    }
    // An instance's bound template values: no longer read by the body,
    // given so that the witness names the instance.
    for (name, v) in &f.bound_values {
        fixed.insert(name.clone(), *v);
    }
    // What the code's `static_assert`s state: a stated value is no choice.
    let asserted = crate::ir::asserts::template_facts(module, f);
    for (name, s) in &asserted {
        if let crate::ir::asserts::Stated::Value(k) = s {
            fixed.entry(name.clone()).or_insert(*k);
        }
    }
    // Parameters the launch passes its own block extent: set per shape.
    let mut block_params: Vec<(String, usize)> = site
        .map(|s| {
            f.params
                .iter()
                .zip(&s.block_dim_args)
                .filter(|(p, d)| p.is_integral && d.is_some())
                .map(|(p, d)| (p.name.clone(), d.unwrap_or(0) as usize))
                .collect()
        })
        .unwrap_or_default();
    // Template values the code states are the block's extents (the
    // arguments of a row-major thread-index helper, `dataflow::extents`):
    // equal to the extents of each shape run, never picked apart from them.
    for (d, name) in crate::dataflow::extents::stated_extents(module, f) {
        if !fixed.contains_key(&name) && !block_params.iter().any(|(n, _)| *n == name) {
            let i = match d {
                crate::ir::Dim::X => 0,
                crate::ir::Dim::Y => 1,
                crate::ir::Dim::Z => 2,
            };
            block_params.push((name, i));
        }
    }
    for (name, _) in &block_params {
        fixed.insert(name.clone(), 0);
    }
    let free: Vec<&str> = f
        .params
        .iter()
        .filter(|p| p.is_integral && p.default.is_none() && !fixed.contains_key(&p.name))
        .map(|p| p.name.as_str())
        .chain(
            f.compile_time_values()
                .filter(|t| !fixed.contains_key(*t) && module.constant(f, t).is_none())
                .map(|t| t.as_str()),
        )
        .collect();
    let standalone = !module.runs_as_kernel(f);
    // One setup per candidate value (inputs cycle through their pools);
    // with no free input, two setups cover both memory fills, and a helper
    // without a caller gets four seeds for the branches it cannot compute.
    // Each pool reads the whole function (the constants each input is
    // compared with): built once, not once per setup.
    let pools: Vec<Vec<i64>> = free
        .iter()
        .map(|name| candidates_for(module, f, name, &asserted, written))
        .collect();
    // Each two-valued flag's bit in [`flag_pattern`], in order.
    let mut flags = 0u32;
    let flag_bits: Vec<Option<u32>> = (free.iter().zip(&pools))
        .map(|(name, pool)| {
            (pool.len() == 2 && f.flag_values.iter().any(|t| t == name)).then(|| {
                flags += 1;
                (flags - 1) % 64
            })
        })
        .collect();
    let pool_len = pools.iter().map(Vec::len).max().unwrap_or(0);
    let wanted = if standalone {
        pool_len.max(4)
    } else {
        pool_len.max(2)
    };
    let count = (opts.budgets.max_forks.max(1) as usize).min(wanted);
    // Blocks to try: the last block of a grid is often the partial one.
    let grid_dim = site.and_then(|s| s.grid_dim).unwrap_or([4, 1, 1]);
    let gx = grid_dim[0];
    let blocks: Vec<u32> = if site.and_then(|s| s.grid_dim).is_none() {
        vec![0]
    } else if gx <= 4 {
        (0..gx).collect()
    } else {
        vec![0, gx - 1, 1, gx - 2]
    };
    let count = count.max(blocks.len()) + if stated { blocks.len() } else { 0 };
    let chosen_inputs: rustc_hash::FxHashSet<String> =
        free.iter().map(|n| (*n).to_owned()).collect();
    // The assertions' reads, and the pools to mend them from.
    let asserted = super::asserted::Asserted::of(module, f, &free).map(|a| {
        let pools: HashMap<&str, &[i64]> = (free.iter().zip(&pools))
            .map(|(n, p)| (*n, p.as_slice()))
            .collect();
        (a, pools)
    });
    let mut out = Vec::new();
    for (shape, &block_dim) in shapes.iter().enumerate() {
        // Other admitted shapes get a few setups each.
        let n = if shape == 0 { count } else { count.min(4) };
        for r in 0..n {
            let mut inputs = fixed.clone();
            for (name, d) in &block_params {
                inputs.insert(name.clone(), i64::from(block_dim[*d]));
            }
            let flags = flag_pattern(r);
            for (k, (name, pool)) in free.iter().zip(&pools).enumerate() {
                let v = match flag_bits[k] {
                    Some(bit) => pool[((flags >> bit) & 1) as usize],
                    None => pool[(r + k) % pool.len()],
                };
                inputs.insert((*name).to_owned(), v);
            }
            if let Some((a, pools)) = &asserted
                && !a.admits(&inputs)
            {
                // Values no instantiation compiles with: mended, or no run.
                let Some(mended) = a.mend(&inputs, pools, r) else {
                    continue;
                };
                inputs.extend(mended);
            }
            let shown: BTreeMap<String, i64> =
                inputs.iter().map(|(k, v)| (k.clone(), *v)).collect();
            out.push(Setup {
                launch: Launch {
                    block_dim,
                    source: source.clone(),
                },
                shape,
                stated,
                width_stated,
                inputs: shown,
                cfg: RunConfig {
                    block_dim,
                    block_idx: [blocks[r % blocks.len()], 0, 0],
                    grid_dim,
                    warp: 0,
                    inputs,
                    schedule: Schedule::Converged,
                    seed: r as u32,
                    budgets: opts.budgets,
                    // Each run is given what its root has left.
                    allowance: Allowance::default(),
                    chosen_inputs: chosen_inputs.clone(),
                    // With a stated shape, the first setup of each block
                    // keeps memory symbolic: the one that can be exact.
                    symbolic: stated && shape == 0 && r < blocks.len(),
                    whole_warp: false,
                },
            });
        }
    }
    out
}

/// The block shapes to run: the launch site's, else `__launch_bounds__`'s
/// size, else the configured one, else assumed. A kernel that reads
/// `threadIdx.y`/`.z` has a 2-D block whose x extent nothing states, so
/// several are tried (a finding that shows in only some is undecided).
/// Returns the shapes, where they come from, and whether they are stated
/// exactly (a launch site or the user), which a proof needs.
fn admitted_shapes(
    module: &Module,
    root: usize,
    site: Option<&crate::ir::LaunchSite>,
    opts: &ExecOptions,
) -> AdmittedShapes {
    let f = &module.functions[root];
    if let Some(s) = site
        && let Some(b) = s.block_dim
    {
        return AdmittedShapes {
            shapes: vec![b],
            source: format!("launch at {}", launch_place(module, f, &[s.line])),
            exact: true,
            width_stated: true,
        };
    }
    // A kernel class that states its block shape (`get_block_shape()`):
    // the shape its launches use. Not exact (the launch is not seen), so
    // no proof rests on it.
    if let Some(class) = &f.class
        && let Some((shape, line)) = module.class_block_shapes.get(class)
    {
        return AdmittedShapes {
            shapes: vec![*shape],
            source: format!("`get_block_shape()` of `{class}` (line {line})"),
            exact: false,
            width_stated: true,
        };
    }
    let bounds = f.launch_bounds;
    if bounds.is_none()
        && let Some(b) = opts.block_dim
    {
        return AdmittedShapes {
            shapes: vec![b],
            source: "configured block-dim (--block-dim or warplint.toml)".to_owned(),
            exact: true,
            width_stated: true,
        };
    }
    // Extents every launch of the kernel (or of its class) states (launch
    // contracts, possibly from another file): the shapes keep them, and
    // assume only the others. Not exact (other launches may exist outside
    // the run).
    if let Some(class) = f.launch_name()
        && let Some(stated) = module.launch_extents.get(class)
        && stated.iter().any(Option::is_some)
    {
        let widths: Vec<u32> = match stated[0] {
            Some(x) => vec![x],
            None => vec![32, 16, 8],
        };
        let shapes = widths
            .iter()
            .map(|&x| {
                let z = stated[2].unwrap_or(1);
                let y = stated[1].unwrap_or_else(|| (256 / (x * z).max(1)).clamp(1, 64));
                [x, y, z]
            })
            .filter(|s| s.iter().product::<u32>() <= 1024)
            .collect::<Vec<_>>();
        if !shapes.is_empty() {
            let text = stated
                .iter()
                .zip(["x", "y", "z"])
                .filter_map(|(e, d)| e.map(|v| format!("{d} = {v}")))
                .collect::<Vec<_>>()
                .join(", ");
            return AdmittedShapes {
                shapes,
                source: format!(
                    "launches of `{class}` in the checked files ({text}; other extents assumed)"
                ),
                exact: false,
                width_stated: stated[0].is_some(),
            };
        }
    }
    let total = bounds.unwrap_or(0);
    if reads_thread_y(module, root) {
        let threads = if total >= 64 { total } else { 256 };
        let shapes = [16u32, 32, 8]
            .iter()
            .map(|&x| [x, (threads / x).clamp(2, 64), 1])
            .collect();
        let source = match bounds {
            Some(_) => {
                "__launch_bounds__ (a 2-D block: the kernel reads threadIdx.y; x extent assumed)"
            }
            None => ASSUMED_2D,
        };
        return AdmittedShapes {
            shapes,
            source: source.to_owned(),
            exact: false,
            width_stated: false,
        };
    }
    let (shape, source) = match bounds {
        Some(lb) => ([lb, 1, 1], "__launch_bounds__".to_owned()),
        None => ([128, 1, 1], ASSUMED.to_owned()),
    };
    AdmittedShapes {
        shapes: vec![shape],
        source,
        exact: false,
        width_stated: false,
    }
}

/// The launch shapes the code admits for a root, and where they come from.
struct AdmittedShapes {
    shapes: Vec<[u32; 3]>,
    /// Where they come from, for the witness.
    source: String,
    /// The shape is stated (a launch site or the user), not assumed: runs
    /// under it can prove.
    exact: bool,
    /// The block's width (x extent) is stated by the code or the user,
    /// even where the shape is not exact (a kernel class's
    /// `get_block_shape()`, launch contracts).
    width_stated: bool,
}

/// Where launch sites of `f` are, as a witness names them: `line 8` in
/// the kernel's own file, `src/run.cu:8` for a header's kernel (the
/// finding is shown at the header).
fn launch_place(module: &Module, f: &crate::ir::Function, lines: &[usize]) -> String {
    let lines: Vec<String> = lines.iter().map(usize::to_string).collect();
    match f.file {
        0 => format!("line {}", lines.join(", ")),
        _ => format!("{}:{}", module.path, lines.join(", ")),
    }
}

/// Where the code states that kernel `function`'s block has an x extent
/// that is a multiple of 32 (whole warps of consecutive `threadIdx.x`):
/// every launch site that gives a shape, else the configured block-dim (a
/// kernel class's shape and `__launch_bounds__` are no statement: see the
/// body). `Err(true)` when the code states a shape that is not one,
/// `Err(false)` when nothing states it.
fn full_warps_stated(module: &Module, function: usize, opts: &ExecOptions) -> Result<String, bool> {
    let f = &module.functions[function];
    if !f.is_kernel() {
        return Err(false);
    }
    let sites: Vec<_> = module
        .launches
        .iter()
        .filter(|l| l.kernel == f.name)
        .collect();
    let known: Vec<_> = sites
        .iter()
        .filter_map(|l| l.block_dim.map(|b| (b, l.line)))
        .collect();
    if known.iter().any(|(b, _)| b[0] % 32 != 0) {
        return Err(true);
    }
    if !known.is_empty() && known.len() == sites.len() {
        let lines: Vec<usize> = known.iter().map(|(_, l)| *l).collect();
        return Ok(format!("launch at {}", launch_place(module, f, &lines)));
    }
    // A kernel class's `get_block_shape()` and `__launch_bounds__` say what
    // a launch may use (the bound is a maximum), not what every launch
    // uses: a shape from them is no proof, whole warps or not.
    if let Some(class) = &f.class
        && let Some((shape, _)) = module.class_block_shapes.get(class)
    {
        return Err(shape[0] % 32 != 0);
    }
    if let Some(lb) = f.launch_bounds {
        return Err(lb % 32 != 0);
    }
    match opts.block_dim {
        Some(b) if b[0] % 32 == 0 => Ok("configured block-dim".to_owned()),
        Some(_) => Err(true),
        None => Err(false),
    }
}

/// Whether the root or a function it calls reads `threadIdx.y` or `.z`.
/// A row-major thread-index helper (`extents::row_major`, CUB's
/// `RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)`) does not count:
/// it linearizes whatever shape the block has, a 1-D one included, and a
/// CUB collective's constructor calls it with `BLOCK_DIM_Y = 1`.
fn reads_thread_y(module: &Module, root: usize) -> bool {
    use crate::ir::{Builtin, Dim};
    let mut seen = HashSet::from_iter([root]);
    let mut stack = vec![root];
    while let Some(g) = stack.pop() {
        if g != root && crate::dataflow::extents::row_major(&module.functions[g]).is_some() {
            continue;
        }
        for e in &module.functions[g].exprs {
            match &e.kind {
                ExprKind::Builtin(Builtin::ThreadIdx(Dim::Y | Dim::Z))
                    if !crate::ir::is_synthesized(e.span) =>
                {
                    return true;
                }
                ExprKind::Call(c) => {
                    if let Some(h) = module.callee(c)
                        && seen.insert(h)
                    {
                        stack.push(h);
                    }
                }
                _ => {}
            }
        }
    }
    false
}

/// Warps in a block of `cfg`'s shape.
fn warp_count(cfg: &RunConfig) -> u32 {
    cfg.block_dim.iter().product::<u32>().div_ceil(32).max(1)
}

/// Why the runs of one setup are not the only runs the code admits, or
/// `None` when they are (then not showing a problem is a proof).
fn inexact_reason(
    module: &Module,
    root: usize,
    setup: &Setup,
    all_warps: bool,
    runs: &[RunResult],
) -> Option<String> {
    if !module.runs_as_kernel(&module.functions[root]) {
        return Some("the function was run without a caller, on unknown arguments".to_owned());
    }
    if !setup.stated {
        return Some(format!(
            "no launch site states the block shape (it was {})",
            setup.launch.source
        ));
    }
    if !all_warps {
        return Some("only some warps of the block were run".to_owned());
    }
    for r in runs {
        if let Some((line, _, text)) = r.trace.assumptions.first() {
            return Some(format!(
                "the branch on `{text}` (line {line}) depends on values the executor does not know"
            ));
        }
        if let Some(c) = r.trace.chosen.first() {
            return Some(format!("the runs depend on a chosen value: {c}"));
        }
        if let Some(why) = &r.trace.incomplete {
            return Some(why.clone());
        }
    }
    None
}

/// Constants an input is compared with, and their neighbours: `n < 64`
/// suggests 63, 64 and 65.
fn compared_constants(
    f: &crate::ir::Function,
    name: &str,
    consts: &HashMap<String, i64>,
) -> Vec<i64> {
    use crate::ir::BinOp::*;
    let mut out = Vec::new();
    for e in &f.exprs {
        if let ExprKind::Binary(Lt | Le | Gt | Ge | Eq | Ne, a, b) = &e.kind {
            for (x, y) in [(*a, *b), (*b, *a)] {
                if matches!(&f.expr(x).kind, ExprKind::Var(v) if v == name)
                    && let Some(c) = crate::ir::fold::eval_const(f, y, consts)
                {
                    for v in [c - 1, c, c + 1] {
                        if v >= 0 && !out.contains(&v) && !CANDIDATES.contains(&v) {
                            out.push(v);
                        }
                    }
                }
            }
        }
        if out.len() >= 6 {
            break;
        }
    }
    out
}

/// Functions searched for where a compile-time value is passed on (see
/// [`passed_on`]).
const PASSED_ON_SEARCH: usize = 16;

/// The functions `f`'s compile-time value `name` reaches as one of their
/// own, under the name it has there: a function template's argument
/// (`step<N>(v)`) or the instance a member runs on (`Store<Mode>().run()`,
/// `Part<N>::run(v)`), and on from there (the first [`PASSED_ON_SEARCH`]
/// reached, breadth first). The constants a callee compares it with
/// (`if constexpr (Mode == 3)`) are values a run of `f` must try: the
/// caller's own body may never compare it.
fn passed_on(module: &Module, f: &crate::ir::Function, name: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut next = 0;
    loop {
        let (from, as_named) = match next {
            0 => (f, name.to_owned()),
            _ => match out.get(next - 1) {
                Some((g, n)) => (&module.functions[*g], n.clone()),
                None => break,
            },
        };
        next += 1;
        let as_named = as_named.as_str();
        for (_, c) in from.own_calls() {
            if out.len() >= PASSED_ON_SEARCH {
                return out;
            }
            // Only a call that writes the name among its template or
            // instance arguments is resolved (most calls write neither).
            let written = from.instance_args(c).unwrap_or_default();
            if !(written.iter().copied())
                .chain(c.template_args.iter().map(String::as_str))
                .any(|a| a.trim() == as_named)
            {
                continue;
            }
            let Some(g) = module.callee(c) else {
                continue;
            };
            let callee = &module.functions[g];
            let by_class = (callee.class_params.iter())
                .filter(|p| written.get(p.at).map(|a| a.trim()) == Some(as_named))
                .map(|p| &p.name);
            let by_template = (callee
                .template_values
                .iter()
                .zip(&callee.template_positions))
            .filter(|(_, at)| c.template_args.get(**at).map(|a| a.trim()) == Some(as_named))
            .map(|(n, _)| n);
            for n in by_class.chain(by_template) {
                if !out.iter().any(|(h, m)| *h == g && m == n) {
                    out.push((g, n.clone()));
                }
            }
        }
    }
    out
}

/// Values that keep `name / k` (or `name >> s`) at one and at four where
/// the code divides it, directly or through a local initialised from it:
/// a tile extent below the divisor makes the count zero, and no run enters
/// the loop it bounds (`kIterations = kWarpSize / 8` with `kWarpSize =
/// kReduceKForA ? WarpShape::kM : WarpShape::kN`).
fn divided_constants(
    f: &crate::ir::Function,
    name: &str,
    consts: &HashMap<String, i64>,
) -> Vec<i64> {
    use crate::ir::BinOp::*;
    // A local whose initializer is the name, or picks it in a ternary arm.
    let names_it = |e: crate::ir::ExprId| {
        let mut stack = vec![e];
        let mut budget = 16;
        while let Some(e) = stack.pop() {
            budget -= 1;
            if budget == 0 {
                return false;
            }
            match &f.expr(e).kind {
                ExprKind::Var(v) if v == name => return true,
                ExprKind::Ternary(_, a, b) => stack.extend([*a, *b]),
                _ => {}
            }
        }
        false
    };
    let mut aliases: Vec<&str> = vec![name];
    for st in &f.stmts {
        if let crate::ir::StmtKind::Decl {
            name: local,
            init: Some(init),
            dims,
            ..
        } = &st.kind
            && dims.is_empty()
            && names_it(*init)
            && !aliases.contains(&local.as_str())
        {
            aliases.push(local);
        }
    }
    let mut out = Vec::new();
    for e in &f.exprs {
        let ExprKind::Binary(op @ (Div | Shr), a, b) = &e.kind else {
            continue;
        };
        if !matches!(&f.expr(*a).kind, ExprKind::Var(v) if aliases.contains(&v.as_str())) {
            continue;
        }
        let Some(c) = crate::ir::fold::eval_const(f, *b, consts) else {
            continue;
        };
        let divisor = match op {
            Div if (2..=1 << 16).contains(&c) => c,
            Shr if (1..=16).contains(&c) => 1 << c,
            _ => continue,
        };
        for v in [divisor * 4, divisor] {
            if !out.contains(&v) {
                out.push(v);
            }
        }
        if out.len() >= 4 {
            break;
        }
    }
    out
}

/// Warps to run: every warp of a small block when `all` (warp-dependent
/// branches and block barriers show there), otherwise only the first and
/// the last (possibly partial) warp.
fn warps_for(module: &Module, root: usize, cfg: &RunConfig, all: bool) -> Vec<u32> {
    // A member of a class that launches run as the block's work (launch
    // contracts) has warps like a kernel's.
    let f = &module.functions[root];
    let launched = f
        .launch_name()
        .is_some_and(|c| module.launch_extents.contains_key(c));
    if f.kind != FnKind::Kernel && !launched {
        return vec![0];
    }
    let threads: u32 = cfg.block_dim.iter().product();
    let n = threads.div_ceil(32).max(1);
    if !all {
        return if n > 1 { vec![0, n - 1] } else { vec![0] };
    }
    if n <= 8 {
        (0..n).collect()
    } else {
        vec![0, 1, n - 1]
    }
}

/// The launch source when nothing in the file gives the block shape.
pub const ASSUMED: &str = "assumed: no launch site, taken as a multiple of 32";

/// The same for a kernel that reads `threadIdx.y`: its block is 2-D.
pub const ASSUMED_2D: &str =
    "assumed: no launch site; the kernel reads threadIdx.y, so a 2-D block of unknown x extent";

fn setup_text(s: &Setup, warp: u32) -> String {
    let block = s.cfg.block_idx[0];
    let [x, y, z] = s.launch.block_dim;
    let mut parts = vec![if s.launch.source == ASSUMED {
        format!(
            "blockDim = ({x}, {y}, {z}) assumed (no launch site; any multiple of 32 behaves alike)"
        )
    } else if s.launch.source == ASSUMED_2D {
        format!(
            "blockDim = ({x}, {y}, {z}) assumed (no launch site; the kernel reads threadIdx.y, so the block is 2-D and its x extent is an assumption)"
        )
    } else {
        format!("blockDim = ({x}, {y}, {z}) from the {}", s.launch.source)
    }];
    parts.extend(s.inputs.iter().map(|(k, v)| format!("{k} = {v}")));
    if block != 0 {
        parts.push(format!("blockIdx.x = {block}"));
    }
    parts.push(format!("warp {warp}"));
    parts.join(", ")
}

fn witness(s: &Setup, r: &RunResult, o: &Observation) -> Witness {
    let mut summary = format!("{}: {}", setup_text(s, r.warp), o.detail);
    if !r.trace.chosen.is_empty() {
        summary.push_str(&format!("; chosen: {}", r.trace.chosen.join(", ")));
    }
    // Say which branch outcomes the run had to choose: the witness holds
    // only if those lanes can really go that way.
    let mut events: Vec<WitnessEvent> = r
        .trace
        .assumptions
        .iter()
        .filter(|a| a.1 != 0)
        .take(4)
        .map(|(line, lanes, text)| WitnessEvent {
            lanes: *lanes,
            line: *line,
            what: format!(
                "lanes where `{text}` holds: they take the branch (its value is not known, so the run splits the warp here)"
            ),
        })
        .collect();
    events.extend(o.events.iter().cloned());
    Witness {
        summary,
        launch: s.launch.clone(),
        inputs: s.inputs.clone(),
        warp: r.warp,
        schedule: Some(match r.schedule {
            Schedule::Converged => {
                "converged: divergent arms one after the other (SIMT order)".to_owned()
            }
            Schedule::Split(n) => format!("split: the scheduler runs groups of {n} lane(s) apart"),
        }),
        events,
        without_caller: false,
    }
}

fn legacy_observations(m: &Machine) -> Vec<Observation> {
    m.legacy
        .iter()
        .map(|(chain, active, alive, line)| {
            let divergent = active != alive;
            let detail = if divergent {
                format!(
                    "{} {} it while {} {} elsewhere, and without a mask nothing makes them meet (it also does not compile for sm_70 or later)",
                    lanes_phrase(*active),
                    if active.count_ones() == 1 { "reaches" } else { "reach" },
                    lanes_phrase(alive & !active),
                    if (alive & !active).count_ones() == 1 { "is" } else { "are" }
                )
            } else {
                "every lane reaches it together, but it does not compile for sm_70 or later".to_owned()
            };
            Observation::over_whole_run(
                Class::Legacy { divergent },
                chain.clone(),
                *line,
                detail,
                vec![WitnessEvent { lanes: *active, line: *line, what: "call the maskless primitive".into() }],
            )
        })
        .collect()
}

/// The runs of a converged schedule, with their indexes: one per warp.
fn converged_runs(runs: &[RunResult]) -> Vec<(usize, &RunResult)> {
    runs.iter()
        .enumerate()
        .filter(|(_, r)| r.schedule == Schedule::Converged)
        .collect()
}

/// `__syncthreads()` reached by some warps of the block and not others.
fn cross_warp_barriers(runs: &[RunResult]) -> Vec<(usize, Observation)> {
    let converged = converged_runs(runs);
    let seqs: Vec<Vec<&super::trace::Collective>> = converged
        .iter()
        .map(|(_, r)| {
            r.trace
                .collectives
                .iter()
                .filter(
                    |c| matches!(c.prim, crate::ir::Primitive::Syncthreads(m) if m.is_block_wide()),
                )
                .collect()
        })
        .collect();
    let longest = seqs.iter().map(|s| s.len()).max().unwrap_or(0);
    // A warp all of whose threads returned from the kernel takes no part
    // in the barriers after its exit (a barrier waits for the threads that
    // have not exited); lanes of a warp that exit are judged within it.
    // So does a warp whose run stopped early (a budget ran out, a thread
    // trapped) past the barriers it reached: where it would have gone next
    // is not known. (Budgets are per root: the last warps of a block get
    // the fewest steps, and their runs stop first.)
    let gone: Vec<bool> = converged
        .iter()
        .map(|(_, r)| {
            r.trace.incomplete.is_some()
                || r.trace.present != 0 && r.trace.returned_lanes == r.trace.present
        })
        .collect();
    for k in 0..longest {
        let key = |s: &Vec<&super::trace::Collective>| s.get(k).map(|c| c.chain.clone());
        let counts = |i: usize| !gone[i] || seqs[i].len() > k;
        let Some(first) = (0..seqs.len()).find(|&i| counts(i)).map(|i| key(&seqs[i])) else {
            continue;
        };
        if (0..seqs.len()).all(|i| !counts(i) || key(&seqs[i]) == first) {
            continue;
        }
        // Warps that wait at barrier k vs warps that never get there.
        let Some((holder, ev)) = seqs
            .iter()
            .enumerate()
            .find_map(|(i, s)| s.get(k).map(|c| (i, *c)))
        else {
            continue;
        };
        let waiting: Vec<u32> = seqs
            .iter()
            .enumerate()
            .filter(|(_, s)| key(s) == Some(ev.chain.clone()))
            .map(|(i, _)| converged[i].1.warp)
            .collect();
        let missing: Vec<u32> = seqs
            .iter()
            .enumerate()
            .filter(|(i, s)| counts(*i) && key(s) != Some(ev.chain.clone()))
            .map(|(i, _)| converged[i].1.warp)
            .collect();
        let list = |v: &[u32]| {
            v.iter()
                .map(|w| w.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let obs = Observation::over_whole_run(
            Class::DivergentBarrier,
            ev.chain.clone(),
            ev.line,
            format!(
                "warps {} wait here but warps {} of the block never reach it",
                list(&waiting),
                list(&missing)
            ),
            vec![WitnessEvent {
                lanes: ev.active,
                line: ev.line,
                what: format!("warps {} wait at __syncthreads()", list(&waiting)),
            }],
        );
        return vec![(converged[holder].0, obs)];
    }
    Vec::new()
}

/// Named barriers whose thread count is more than all the arrivals of the
/// block's warps make up: the barrier never completes, and the warps that
/// wait at it hang (an H200 did). Where every arrival waits (no `arrive`),
/// the arrivals must also fill whole phases of the count: the warps left in
/// a last phase that never fills hang too. Each arrival of a warp counts
/// its 32 threads (a warp arrives as a whole, PTX ISA). Decided only over runs of
/// every warp of the block, each complete and without a guessed branch,
/// where every named barrier's id and count are known: any other arrival
/// could be at the barrier.
fn named_barrier_counts(runs: &[RunResult]) -> Vec<(usize, Observation)> {
    use crate::ir::Primitive;
    use crate::ir::primitives::{NamedBarrier, SyncthreadsMode};
    let converged = converged_runs(runs);
    let exact = |r: &RunResult| {
        r.trace.incomplete.is_none() && r.trace.guesses.is_empty() && !r.trace.guesses_overflow
    };
    if !converged.iter().all(|(_, r)| exact(r)) {
        return Vec::new();
    }
    // Per barrier id: its count (`None` once two arrivals disagree), the
    // warp arrivals, the warps, the first wait (run, event).
    struct Tally<'r> {
        count: Option<i64>,
        arrivals: u64,
        all_wait: bool,
        warps: Vec<u32>,
        wait: Option<(usize, &'r super::trace::Collective)>,
    }
    let mut ids: BTreeMap<i64, Tally> = BTreeMap::new();
    for &(i, r) in &converged {
        for c in &r.trace.collectives {
            let Primitive::Syncthreads(SyncthreadsMode::Named(NamedBarrier { arrive, .. })) =
                c.prim
            else {
                continue;
            };
            let Some((id, count)) = c.barrier else {
                return Vec::new();
            };
            let t = ids.entry(id).or_insert(Tally {
                count: Some(count),
                arrivals: 0,
                all_wait: true,
                warps: Vec::new(),
                wait: None,
            });
            if t.count != Some(count) {
                t.count = None;
            }
            t.arrivals += 1;
            t.all_wait &= !arrive;
            if !t.warps.contains(&r.warp) {
                t.warps.push(r.warp);
            }
            if !arrive && t.wait.is_none() {
                t.wait = Some((i, c));
            }
        }
    }
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut out = Vec::new();
    for (id, t) in ids {
        let (Some(count), Some((i, ev))) = (t.count, t.wait) else {
            continue;
        };
        let arriving = t.arrivals.saturating_mul(32);
        if count <= 0 || count % 32 != 0 {
            continue;
        }
        let count_u = count as u64;
        let why = if arriving < count_u {
            "it never completes, and the warps waiting at it hang".to_owned()
        } else if t.all_wait && arriving % count_u != 0 {
            format!(
                "they fill {} and leave {} threads waiting in one that never fills",
                plural(arriving / count_u, "phase", "phases"),
                arriving % count_u
            )
        } else {
            continue;
        };
        let warps = t
            .warps
            .iter()
            .map(|w| w.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let who = if t.warps.len() == 1 {
            format!("warp {warps} makes")
        } else {
            format!("warps {warps} make")
        };
        let name = ev.prim.display_name();
        out.push((
            i,
            Observation::over_whole_run(
                Class::BarrierCount,
                ev.chain.clone(),
                ev.line,
                format!(
                    "{who} {} at barrier {id} ({arriving} threads), and its count is {count}: {why}",
                    plural(t.arrivals, "arrival", "arrivals"),
                ),
                vec![WitnessEvent {
                    lanes: ev.active,
                    line: ev.line,
                    what: format!("wait at {name} {id}, {count}"),
                }],
            ),
        ));
    }
    out
}

/// Activemask claims: do converged and split schedules observe different
/// results? Atomics' returned values are unknown in every schedule, so
/// opportunistic code that only aggregates them compares equal.
fn schedule_differences(
    runs: &[RunResult],
    idxs: &[usize],
    claims: &[Option<Claim>],
) -> Vec<(usize, Observation)> {
    let mut out = Vec::new();
    for (ci_pos, r) in runs.iter().enumerate() {
        if r.schedule != Schedule::Converged {
            continue;
        }
        for other in runs
            .iter()
            .filter(|o| o.warp == r.warp && o.schedule != Schedule::Converged)
        {
            let diff = first_difference(&r.trace, &other.trace);
            let Some(what) = diff else { continue };
            for &ci in idxs {
                let Some(c) = &claims[ci] else { continue };
                if !c.schedule_dependent {
                    continue;
                }
                let site = c.sites.first().copied().unwrap_or(0);
                if !r.trace.reached.contains(&(c.function, site)) {
                    continue;
                }
                let line = r
                    .trace
                    .collectives
                    .iter()
                    .find(|e| e.chain.last() == Some(&(c.function, site)))
                    .map(|e| e.line)
                    .unwrap_or(0);
                let Schedule::Split(n) = other.schedule else {
                    continue;
                };
                out.push((ci_pos, Observation::over_whole_run(
                    Class::ScheduleDependent,
                    vec![(c.function, site)],
                    line,
                    format!(
                        "the result depends on the schedule: {what} when the warp runs converged, but not when the scheduler splits it into groups of {n}"
                    ),
                    vec![WitnessEvent { lanes: 0xffff_ffff, line, what: format!("__activemask() may return only the caller's group of {n}") }],
                )));
            }
            break;
        }
    }
    out
}

fn first_difference(a: &Trace, b: &Trace) -> Option<String> {
    use super::value::Val;
    let same = |x: &Val, y: &Val| match (x, y) {
        (Val::Unknown { .. }, Val::Unknown { .. }) | (Val::Undef(_), Val::Undef(_)) => true,
        (Val::Undef(_), _) | (_, Val::Undef(_)) => false,
        _ => x == y,
    };
    let keys: std::collections::BTreeSet<_> = a.global.keys().chain(b.global.keys()).collect();
    for k in keys {
        match (a.global.get(k), b.global.get(k)) {
            (Some(x), Some(y)) if same(x, y) => {}
            (x, y) => {
                let show = |v: Option<&Val>| match v {
                    Some(Val::Int(i)) => i.to_string(),
                    Some(Val::Float(f)) => f.to_string(),
                    Some(Val::Undef(_)) => "undefined".into(),
                    Some(_) => "unknown".into(),
                    None => "unwritten".into(),
                };
                return Some(format!(
                    "element {} of output {} is {} vs {}",
                    k.1,
                    match k.0 {
                        super::value::Space::Global(i) => i,
                        super::value::Space::Shared(i) | super::value::Space::Local(i) => i,
                    },
                    show(x),
                    show(y)
                ));
            }
        }
    }
    for (l, (x, y)) in a.returned.iter().zip(&b.returned).enumerate() {
        if !same(x, y) {
            return Some(format!("lane {l} returns a different value"));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::executor::trace::Collective;
    use crate::ir::Primitive;
    use crate::ir::primitives::SyncthreadsMode;

    /// A converged run of `warp` that waited at `barriers` `__syncthreads()`
    /// (each at its own site), stopped early when `cut`.
    fn run(warp: u32, barriers: usize, cut: bool) -> RunResult {
        let mut trace = Trace {
            present: u32::MAX,
            incomplete: cut.then(|| "a budget ran out".to_owned()),
            ..Trace::default()
        };
        for i in 0..barriers {
            trace.collectives.push(Collective {
                prim: Primitive::Syncthreads(SyncthreadsMode::Plain),
                chain: vec![(0, i as crate::ir::ExprId)],
                name: "bar.sync",
                line: 10 + i,
                time: i as u64,
                active: u32::MAX,
                masks: [None; 32],
                exited: 0,
                present: u32::MAX,
                regions: Vec::new(),
                whereabouts: Vec::new(),
                width: None,
                reads: Vec::new(),
                barrier: None,
            });
        }
        RunResult {
            setup_index: 0,
            warp,
            schedule: Schedule::Converged,
            observations: Vec::new(),
            trace,
        }
    }

    #[test]
    fn a_warp_that_stops_short_of_a_barrier_misses_it() {
        let found = cross_warp_barriers(&[run(0, 3, false), run(1, 1, false)]);
        assert_eq!(found.len(), 1);
        assert!(
            found[0]
                .1
                .detail
                .contains("warps 1 of the block never reach it")
        );
    }

    #[test]
    fn a_run_cut_by_a_budget_is_no_evidence_past_its_end() {
        // The last warps of a block get what is left of the root's step
        // budget: their runs stop first, though they would go on.
        assert!(cross_warp_barriers(&[run(0, 3, false), run(1, 1, true)]).is_empty());
        assert!(cross_warp_barriers(&[run(0, 1, true), run(1, 3, false)]).is_empty());
    }

    /// A converged run of `warp` that waits once at named barrier `id`
    /// with `count` (`None`: the run does not know them), or arrives there.
    fn named(warp: u32, barrier: Option<(i64, i64)>, arrive: bool) -> RunResult {
        use crate::ir::primitives::NamedBarrier;
        let mut r = run(warp, 1, false);
        let c = &mut r.trace.collectives[0];
        c.prim = Primitive::Syncthreads(SyncthreadsMode::Named(NamedBarrier {
            aligned: true,
            arrive,
        }));
        c.barrier = barrier;
        r
    }

    #[test]
    fn a_named_barrier_counting_more_threads_than_arrive_never_completes() {
        let found = named_barrier_counts(&[
            named(0, Some((1, 128)), false),
            named(1, Some((1, 128)), false),
        ]);
        assert_eq!(found.len(), 1);
        assert!(
            found[0]
                .1
                .detail
                .contains("(64 threads), and its count is 128: it never")
        );
        // Three warps waiting at a count of two: the third waits alone.
        let found = named_barrier_counts(&[
            named(0, Some((1, 64)), false),
            named(1, Some((1, 64)), false),
            named(2, Some((1, 64)), false),
        ]);
        assert_eq!(found.len(), 1);
        assert!(
            found[0]
                .1
                .detail
                .contains("fill 1 phase and leave 32 threads waiting")
        );
        // The same with the third warp only arriving: its order among the
        // others is not known, so nothing is claimed.
        assert!(
            named_barrier_counts(&[
                named(0, Some((1, 64)), false),
                named(1, Some((1, 64)), false),
                named(2, Some((1, 64)), true),
            ])
            .is_empty()
        );
        // The count met, with one warp only arriving: fine.
        assert!(
            named_barrier_counts(&[
                named(0, Some((1, 64)), false),
                named(1, Some((1, 64)), true)
            ])
            .is_empty()
        );
        // Arrivals alone wait for nothing.
        assert!(named_barrier_counts(&[named(0, Some((1, 128)), true)]).is_empty());
    }

    #[test]
    fn named_barrier_counts_need_every_arrival_known() {
        // A barrier whose id or count a run does not know may be any.
        assert!(
            named_barrier_counts(&[named(0, Some((1, 128)), false), named(1, None, false)])
                .is_empty()
        );
        // A run cut short may still arrive.
        let mut cut = named(1, Some((1, 128)), false);
        cut.trace.incomplete = Some("a budget ran out".to_owned());
        assert!(named_barrier_counts(&[named(0, Some((1, 128)), false), cut]).is_empty());
    }
}
