//! From a trace to observations: the places where a run breaks the
//! programming guide's rules for warp collectives, barriers and shared
//! memory. Each observation carries the lanes and events of its witness.

use rustc_hash::FxHashMap as HashMap;

use super::trace::{Collective, Site, Trace};
use crate::diagnostic::{WitnessEvent, lane_ranges, lanes_phrase};
use crate::ir::Primitive;
use crate::ir::primitives::SyncthreadsMode;
pub use crate::rules::Class;

#[derive(Debug, Clone)]
pub struct Observation {
    pub class: Class,
    /// The run's clock at the operation observed.
    pub time: u64,
    /// Lanes whose path after `time` the observation rests on (lanes said
    /// never to arrive must not arrive later either); what was true at
    /// `time` itself rests on nothing after it.
    pub after: u32,
    /// Call path to the offending operation; a finding matches when its
    /// site is on it.
    pub chain: Vec<Site>,
    pub line: usize,
    /// One-line account, e.g. "lanes 20–31 never arrive".
    pub detail: String,
    pub events: Vec<WitnessEvent>,
}

impl Observation {
    /// An observation judged over the whole run, or across the runs of a
    /// setup, not at one operation: it rests on every guess a run made.
    pub fn over_whole_run(
        class: Class,
        chain: Vec<Site>,
        line: usize,
        detail: String,
        events: Vec<WitnessEvent>,
    ) -> Observation {
        Observation {
            class,
            time: u64::MAX,
            after: u32::MAX,
            chain,
            line,
            detail,
            events,
        }
    }
}

const FULL: u32 = 0xffff_ffff;

/// Pair comparisons and barrier visits the shared-memory race check may
/// make on one trace; past it the check stops and the run is incomplete.
pub const MAX_RACE_CHECK_WORK: u64 = 4_000_000;

/// The observations of one trace, and why the check stopped early (a run
/// whose check stopped proves nothing: the caller marks it incomplete).
/// Linear in the trace: collectives are paired through a hash of their
/// region paths, barriers are found by binary search.
pub fn observe(trace: &Trace, present: u32) -> (Vec<Observation>, Option<String>) {
    let mut out = Vec::new();
    // Pairing sibling arms needs the region index; most traces have no
    // absent lane.
    let any_absent = trace.collectives.iter().any(|e| {
        e.named()
            .is_some_and(|named| named & present & !e.active & !e.exited != 0)
    });
    let pairing = if any_absent {
        Some(Pairing::new(&trace.collectives))
    } else {
        None
    };
    for (i, e) in trace.collectives.iter().enumerate() {
        match e.prim {
            // Lanes of a warp may meet an unaligned one (`barrier.sync`)
            // from different places, or leave them waiting until they exit.
            Primitive::Syncthreads(SyncthreadsMode::Named(form)) => {
                if form.aligned {
                    barrier_divergence(e, present, &mut out)
                }
                barrier_count(e, &mut out);
            }
            Primitive::Syncthreads(_) => barrier_divergence(e, present, &mut out),
            Primitive::Activemask => {}
            _ => {
                if let Some(p) = &pairing {
                    absent_lanes(p, i, e, present, &mut out);
                }
                lane_checks(e, trace.used_undef.contains(&(i as u32)), &mut out);
            }
        }
    }
    let cut = shared_races(trace, &mut out);
    (out, cut)
}

fn event(lanes: u32, line: usize, what: impl Into<String>) -> WitnessEvent {
    WitnessEvent {
        lanes,
        line,
        what: what.into(),
    }
}

fn arrival(e: &Collective) -> WitnessEvent {
    let mask = e
        .uniform_mask()
        .map(|m| format!(" with mask 0x{m:08x}"))
        .unwrap_or_default();
    event(e.active, e.line, format!("call {}{}", e.name, mask))
}

/// Where a collective's partners from sibling arms may be: rendezvous
/// class, mask, the region path above the branch (interned), the branch
/// instance, and the collective's ordinal among those of its class and
/// mask in its arm.
type PartnerKey = (u8, u32, u32, u32, u32);

/// Collectives indexed for pairing sibling arms: two collectives pair when
/// they have the same class and uniform mask, their region paths first
/// differ at depth `d` in the arm of one branch instance, and each is the
/// same ordinal among the collectives of its class and mask in its arm.
/// Built in one pass (time linear in the collectives times their depth).
struct Pairing {
    /// Per collective and depth: its ordinal among the collectives of its
    /// class and mask in that arm.
    ordinals: Vec<Vec<u32>>,
    /// Per collective: the interned id of its region path above each depth.
    prefixes: Vec<Vec<u32>>,
    /// Partners by key: (arm, active lanes, collective index).
    partners: HashMap<PartnerKey, Vec<(u16, u32, usize)>>,
}

impl Observation {
    /// Whether the observation rests on one of the run's guesses: one made
    /// before it, or after it in lanes whose later path it rests on.
    pub fn rests_on(&self, trace: &Trace) -> bool {
        trace.guesses_overflow
            || trace
                .guesses
                .iter()
                .any(|&(time, lanes)| time <= self.time || lanes & self.after != 0)
    }
}

impl Pairing {
    fn new(events: &[Collective]) -> Pairing {
        // Region path prefixes interned: id 0 is the empty path.
        let mut ids: HashMap<(u32, (u32, u16)), u32> = HashMap::default();
        let mut counts: HashMap<(u8, Option<u32>, u32), u32> = HashMap::default();
        let mut partners: HashMap<PartnerKey, Vec<(u16, u32, usize)>> = HashMap::default();
        let mut ordinals = Vec::with_capacity(events.len());
        let mut prefixes = Vec::with_capacity(events.len());
        for (i, e) in events.iter().enumerate() {
            let class = e.prim.rendezvous_class();
            let mask = e.uniform_mask();
            let mut above = 0u32;
            let mut ords = Vec::with_capacity(e.regions.len());
            let mut pres = Vec::with_capacity(e.regions.len());
            for &region in &e.regions {
                let next = ids.len() as u32 + 1;
                let upto = *ids.entry((above, region)).or_insert(next);
                let c = counts.entry((class, mask, upto)).or_insert(0);
                let ord = *c;
                *c += 1;
                if let Some(m) = mask {
                    partners
                        .entry((class, m, above, region.0, ord))
                        .or_default()
                        .push((region.1, e.active, i));
                }
                ords.push(ord);
                pres.push(above);
                above = upto;
            }
            ordinals.push(ords);
            prefixes.push(pres);
        }
        Pairing {
            ordinals,
            prefixes,
            partners,
        }
    }

    /// Lanes arriving at a partner of collective `i` from a sibling arm.
    fn covered(&self, i: usize, e: &Collective) -> u32 {
        let Some(mask) = e.uniform_mask() else {
            return 0;
        };
        let class = e.prim.rendezvous_class();
        let mut covered = 0u32;
        for (d, &(instance, arm)) in e.regions.iter().enumerate() {
            let key = (
                class,
                mask,
                self.prefixes[i][d],
                instance,
                self.ordinals[i][d],
            );
            for &(other_arm, active, j) in self.partners.get(&key).into_iter().flatten() {
                if j != i && other_arm != arm && active & e.active == 0 {
                    covered |= active;
                }
            }
        }
        covered
    }
}

/// Lanes of the mask that are alive, not here, and not arriving at the
/// same kind of primitive with the same mask from a sibling arm of a
/// branch both are still inside (the pairing Volta+ allows).
fn absent_lanes(
    pairing: &Pairing,
    i: usize,
    e: &Collective,
    present: u32,
    out: &mut Vec<Observation>,
) {
    let Some(named) = e.named() else { return };
    let absent = named & present & !e.active & !e.exited;
    if absent == 0 {
        return;
    }
    let covered = pairing.covered(i, e);
    let missing = absent & !covered;
    if missing == 0 {
        return;
    }
    let mut events = vec![arrival(e)];
    for (lanes, line, what) in &e.whereabouts {
        if lanes & missing != 0 {
            events.push(event(lanes & missing, *line, *what));
        }
    }
    // Tiles: each lane passes its own tile's mask, and their union is no
    // mask anyone wrote.
    let named_in = match e.uniform_mask() {
        Some(mask) => format!("mask 0x{mask:08x}"),
        None => format!("the masks of the lanes that arrive ({})", distinct_masks(e)),
    };
    out.push(Observation {
        class: Class::AbsentLanes,
        time: e.time,
        after: missing,
        chain: e.chain.clone(),
        line: e.line,
        detail: format!(
            "{} {} named in {named_in} but never {}",
            lanes_phrase(missing),
            if missing.count_ones() == 1 {
                "is"
            } else {
                "are"
            },
            if missing.count_ones() == 1 {
                "arrives"
            } else {
                "arrive"
            }
        ),
        events,
    });
}

/// The masks the arriving lanes pass, in lane order: `0x000000ff,
/// 0x0000ff00, …` (at most four, then an ellipsis).
fn distinct_masks(e: &Collective) -> String {
    let mut seen: Vec<u32> = Vec::new();
    for lane in (0..32).filter(|l| e.active >> l & 1 == 1) {
        if let Some(m) = e.masks[lane]
            && !seen.contains(&m)
        {
            seen.push(m);
        }
    }
    let mut text: Vec<String> = seen.iter().take(4).map(|m| format!("0x{m:08x}")).collect();
    if seen.len() > 4 {
        text.push("…".to_owned());
    }
    text.join(", ")
}

/// `used`: the undefined values this collective produced reached memory, a
/// return value or a branch (an undefined read that is discarded is fine).
fn lane_checks(e: &Collective, used: bool, out: &mut Vec<Observation>) {
    // The caller must be in its own mask.
    let mut outside = 0u32;
    for lane in 0..32 {
        if e.active >> lane & 1 == 1
            && let Some(m) = e.masks[lane as usize]
            && m >> lane & 1 == 0
        {
            outside |= 1 << lane;
        }
    }
    if outside != 0 {
        let mask = e
            .uniform_mask()
            .map(|m| format!("0x{m:08x}"))
            .unwrap_or("its mask".into());
        out.push(Observation {
            class: Class::CallerNotInMask,
            time: e.time,
            after: 0,
            chain: e.chain.clone(),
            line: e.line,
            detail: format!(
                "{} {} it with mask {mask}, which leaves {} out",
                lanes_phrase(outside),
                if outside.count_ones() == 1 {
                    "calls"
                } else {
                    "call"
                },
                if outside.count_ones() == 1 {
                    "it"
                } else {
                    "them"
                }
            ),
            events: vec![
                arrival(e),
                event(outside, e.line, "call it without being in the mask"),
            ],
        });
    }
    // Shuffle sources.
    let mut outside_src: Vec<(u32, u32)> = Vec::new();
    let mut exited_src: Vec<(u32, u32)> = Vec::new();
    for &(reader, src) in e.reads.iter().filter(|_| used) {
        let Some(m) = e.masks[reader as usize] else {
            continue;
        };
        if m >> reader & 1 == 0 {
            continue; // already reported as caller-not-in-mask
        }
        if m >> src & 1 == 0 {
            outside_src.push((reader, src));
        } else if e.exited >> src & 1 == 1 || e.present >> src & 1 == 0 {
            exited_src.push((reader, src));
        }
    }
    let readers = |v: &[(u32, u32)]| v.iter().fold(0u32, |a, (r, _)| a | 1 << r);
    let sources = |v: &[(u32, u32)]| v.iter().fold(0u32, |a, (_, s)| a | 1 << s);
    if let Some(&(r, s)) = outside_src.first() {
        out.push(Observation {
            class: Class::SourceOutsideMask,
            time: e.time,
            // Whether the readers use the value is decided later.
            after: readers(&outside_src),
            chain: e.chain.clone(),
            line: e.line,
            detail: format!(
                "lane {r} reads lane {s}, which is not in the mask ({} in all; the value is undefined)",
                lanes_phrase(readers(&outside_src))
            ),
            events: vec![
                arrival(e),
                event(readers(&outside_src), e.line, format!("read lanes {} outside the mask", lane_ranges(sources(&outside_src)))),
            ],
        });
    }
    if let Some(&(r, s)) = exited_src.first() {
        let exit_events: Vec<WitnessEvent> = e
            .whereabouts
            .iter()
            .filter(|(l, _, _)| l & sources(&exited_src) != 0)
            .map(|(l, line, what)| event(*l, *line, *what))
            .collect();
        let mut events = vec![arrival(e)];
        events.extend(exit_events);
        events.push(event(
            readers(&exited_src),
            e.line,
            format!("read exited lanes {}", lane_ranges(sources(&exited_src))),
        ));
        out.push(Observation {
            class: Class::ReadsExited,
            time: e.time,
            after: readers(&exited_src),
            chain: e.chain.clone(),
            line: e.line,
            detail: format!(
                "lane {r} reads lane {s}, which {} ({} read an undefined value)",
                if e.present >> s & 1 == 0 {
                    "does not exist in this partial warp"
                } else {
                    "has exited"
                },
                lanes_phrase(readers(&exited_src))
            ),
            events,
        });
    }
    if let Some(w) = e.width
        && ![1, 2, 4, 8, 16, 32].contains(&w)
    {
        out.push(Observation {
            class: Class::BadWidth,
            time: e.time,
            after: 0,
            chain: e.chain.clone(),
            line: e.line,
            detail: format!(
                "width is {w}, not a power of two no larger than 32; the result is undefined"
            ),
            events: vec![arrival(e)],
        });
    }
    // Converged lanes that name each other but pass different masks.
    // Disjoint groups (each lane passing its own `__match_any_sync` group)
    // are consistent and fine.
    let disagree = (0..32u32).find_map(|l| {
        let ml = e.masks[l as usize].filter(|_| e.active >> l & 1 == 1)?;
        (0..32u32)
            .find(|&k| {
                k != l
                    && e.active >> k & 1 == 1
                    && ml >> k & 1 == 1
                    && e.masks[k as usize].is_some_and(|mk| mk != ml)
            })
            .map(|k| (l, ml, k, e.masks[k as usize].unwrap_or(FULL)))
    });
    if let Some((l, ml, k, mk)) = disagree {
        out.push(Observation {
            class: Class::MaskDisagree,
            time: e.time,
            after: 0,
            chain: e.chain.clone(),
            line: e.line,
            detail: format!(
                "lane {l} passes mask 0x{ml:08x}, which names lane {k}, but lane {k} passes 0x{mk:08x}"
            ),
            events: vec![arrival(e)],
        });
    }
}

/// A barrier not reached by every thread of this warp: a block barrier
/// (exited lanes too, which the guide does not exempt), or an aligned named
/// barrier with a thread count (`bar.sync 1, 128`), which every lane of the
/// warp that has not exited must execute together (PTX ISA, `barrier`:
/// otherwise undefined; a warp left waiting for lanes that never come
/// hangs; which warps take part is the code's choice).
fn barrier_divergence(e: &Collective, present: u32, out: &mut Vec<Observation>) {
    let named = matches!(e.prim, Primitive::Syncthreads(SyncthreadsMode::Named(_)));
    let missing = present & !e.active & if named { !e.exited } else { u32::MAX };
    if missing == 0 {
        return;
    }
    let name = if named {
        e.prim.display_name()
    } else {
        "__syncthreads()"
    };
    let mut events = vec![event(e.active, e.line, format!("wait at {name}"))];
    for (lanes, line, what) in &e.whereabouts {
        if lanes & missing != 0 {
            events.push(event(lanes & missing, *line, *what));
        }
    }
    let exited = missing & e.exited;
    if exited != 0 && !e.whereabouts.iter().any(|(l, _, _)| l & exited != 0) {
        events.push(event(exited, e.line, "exited before the barrier"));
    }
    let detail = if named {
        format!(
            "threads {} of this warp have not exited and are not at it, and {name} waits for them",
            lane_ranges(missing)
        )
    } else {
        format!(
            "threads {} of this warp never reach it",
            lane_ranges(missing)
        )
    };
    out.push(Observation {
        class: Class::DivergentBarrier,
        time: e.time,
        after: missing,
        chain: e.chain.clone(),
        line: e.line,
        detail,
        events,
    });
}

/// A named barrier's thread count must be a positive multiple of the warp
/// size (PTX ISA, `barrier`); a count computed at run time that is not
/// one stopped an H200's kernel with an illegal instruction (a literal
/// one does not assemble).
fn barrier_count(e: &Collective, out: &mut Vec<Observation>) {
    let Some((id, count)) = e.barrier else { return };
    if count > 0 && count % 32 == 0 {
        return;
    }
    let name = e.prim.display_name();
    out.push(Observation {
        class: Class::BarrierCount,
        time: e.time,
        after: 0,
        chain: e.chain.clone(),
        line: e.line,
        detail: format!(
            "barrier {id} is given a count of {count} threads, not a positive multiple of 32: the \
             instruction is illegal"
        ),
        events: vec![event(e.active, e.line, format!("{name} {id}, {count}"))],
    });
}

const MAX_ACCESSES_PER_LOCATION: usize = 256;

/// Unordered conflicting accesses to one shared element by two lanes.
/// Returns why the check stopped early, if it did.
fn shared_races(trace: &Trace, out: &mut Vec<Observation>) -> Option<String> {
    // Per element: its accesses, the lanes among them, and whether one writes.
    let mut by_loc: HashMap<(super::value::Space, i64), (Vec<usize>, u32, bool)> =
        HashMap::default();
    let mut lanes = 0u32;
    for (i, a) in trace.accesses.iter().enumerate() {
        lanes |= 1 << a.lane;
        let (v, loc_lanes, written) = by_loc.entry((a.space, a.offset)).or_default();
        if v.len() < MAX_ACCESSES_PER_LOCATION {
            v.push(i);
            *loc_lanes |= 1 << a.lane;
            *written |= a.write;
        }
    }
    // Barriers come in time order. `covering[k]`: the first barrier at or
    // after `k` that every accessing lane takes part in, so that most
    // pairs are decided by one binary search.
    let bars = &trace.barriers;
    let mut covering = vec![bars.len(); bars.len() + 1];
    for k in (0..bars.len()).rev() {
        covering[k] = if bars[k].participants & lanes == lanes {
            k
        } else {
            covering[k + 1]
        };
    }
    let mut work = 0u64;
    let mut reported: rustc_hash::FxHashSet<Vec<Site>> = rustc_hash::FxHashSet::default();
    let mut locs: Vec<_> = by_loc.into_iter().collect();
    locs.sort_by_key(|(k, _)| *k);
    for (_, (idxs, loc_lanes, written)) in locs {
        // An element only one lane touched, or that nothing wrote, has no
        // conflicting pair; its pairs still count as compared, as they
        // would one by one, so the budget cuts where it did.
        if loc_lanes.count_ones() < 2 || !written {
            let n = idxs.len() as u64;
            work += n * n.saturating_sub(1) / 2;
            continue;
        }
        for (x, &i) in idxs.iter().enumerate() {
            for &j in &idxs[x + 1..] {
                work += 1;
                let (a, b) = (&trace.accesses[i], &trace.accesses[j]);
                if a.lane == b.lane || !(a.write || b.write) {
                    continue;
                }
                // Lanes storing the same value leave the element as any
                // order would (the guide: one of the writes wins); what a
                // read sees is still judged against each write.
                if a.write && b.write && a.stored.is_some() && a.stored == b.stored {
                    continue;
                }
                let (first, second) = if a.time <= b.time { (a, b) } else { (b, a) };
                let both = 1u32 << first.lane | 1u32 << second.lane;
                let start = bars.partition_point(|bar| bar.time <= first.time);
                let ordered =
                    if covering[start] < bars.len() && bars[covering[start]].time < second.time {
                        true
                    } else {
                        // Only barriers some lane skipped lie in between.
                        let mut found = false;
                        for bar in bars[start..]
                            .iter()
                            .take_while(|bar| bar.time < second.time)
                        {
                            work += 1;
                            if bar.participants & both == both {
                                found = true;
                                break;
                            }
                        }
                        found
                    };
                if work > MAX_RACE_CHECK_WORK {
                    return Some(format!(
                        "the shared-memory race check stopped after {MAX_RACE_CHECK_WORK} comparisons"
                    ));
                }
                if ordered {
                    continue;
                }
                // Report at the later access in source order.
                let later = if a.start >= b.start { a } else { b };
                if !reported.insert(later.chain.to_vec()) {
                    continue;
                }
                let kind = |w: bool| if w { "writes" } else { "reads" };
                out.push(Observation::over_whole_run(
                    Class::SharedRace,
                    later.chain.to_vec(),
                    later.line,
                    format!(
                        "lane {} {} shared element {} at line {} and lane {} {} it at line {} with no barrier between them",
                        first.lane, kind(first.write), first.offset, first.line,
                        second.lane, kind(second.write), second.line
                    ),
                    vec![
                        event(1 << first.lane, first.line, format!("{} element {}", kind(first.write), first.offset)),
                        event(1 << second.lane, second.line, format!("{} element {} (no __syncwarp between)", kind(second.write), second.offset)),
                    ],
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::primitives::VoteMode;

    #[test]
    fn an_observation_rests_on_earlier_guesses_and_later_ones_in_its_lanes() {
        let obs = Observation {
            class: Class::AbsentLanes,
            time: 10,
            after: 0xaaaa_aaaa,
            chain: Vec::new(),
            line: 1,
            detail: String::new(),
            events: Vec::new(),
        };
        let with = |guesses: Vec<(u64, u32)>| Trace {
            guesses,
            ..Trace::default()
        };
        assert!(!obs.rests_on(&with(Vec::new())));
        // Later, in the lanes that arrived: what the observation says of
        // the absent lanes still holds.
        assert!(!obs.rests_on(&with(vec![(11, 0x5555_5555)])));
        // Earlier: which lanes arrived may rest on it.
        assert!(obs.rests_on(&with(vec![(9, 0x5555_5555)])));
        // Later, in an absent lane: where it went may rest on it.
        assert!(obs.rests_on(&with(vec![(11, 0x0000_0002)])));
        let overflow = Trace {
            guesses_overflow: true,
            ..Trace::default()
        };
        assert!(obs.rests_on(&overflow));
    }

    /// A small deterministic generator (xorshift), so the test needs no crate.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// Rendezvous class, mask, and region path prefix.
    type OrdinalKey = (u8, Option<u32>, Vec<(u32, u16)>);

    /// The sibling-arm pairing as it was first written: every collective
    /// against every other (quadratic), kept here as the reference.
    fn covered_reference(events: &[Collective], i: usize) -> u32 {
        let ordinals: Vec<Vec<u32>> = {
            let mut counts: HashMap<OrdinalKey, u32> = HashMap::default();
            events
                .iter()
                .map(|e| {
                    (0..e.regions.len())
                        .map(|d| {
                            let key = (
                                e.prim.rendezvous_class(),
                                e.uniform_mask(),
                                e.regions[..=d].to_vec(),
                            );
                            let c = counts.entry(key).or_insert(0);
                            *c += 1;
                            *c - 1
                        })
                        .collect()
                })
                .collect()
        };
        let e = &events[i];
        let mut covered = 0u32;
        for (j, other) in events.iter().enumerate() {
            if j == i
                || other.prim.rendezvous_class() != e.prim.rendezvous_class()
                || other.uniform_mask().is_none()
                || other.uniform_mask() != e.uniform_mask()
                || other.active & e.active != 0
            {
                continue;
            }
            let depth = e
                .regions
                .iter()
                .zip(&other.regions)
                .position(|(a, b)| a != b);
            if let Some(d) = depth
                && e.regions[d].0 == other.regions[d].0
                && ordinals[i].get(d) == ordinals[j].get(d)
            {
                covered |= other.active;
            }
        }
        covered
    }

    fn collective(rng: &mut Rng) -> Collective {
        let prim = if rng.below(2) == 0 {
            Primitive::Syncwarp
        } else {
            Primitive::Vote(VoteMode::Ballot)
        };
        let active = match rng.below(4) {
            0 => 0x0000_ffff,
            1 => 0xffff_0000,
            2 => 0x0000_00ff,
            _ => 1 << rng.below(32),
        };
        let mask = match rng.below(3) {
            0 => Some(FULL),
            1 => Some(0x0000_ffff),
            _ => None,
        };
        let mut masks = [None; 32];
        for (lane, m) in masks.iter_mut().enumerate() {
            if active >> lane & 1 == 1 {
                *m = mask.or(Some(rng.next() as u32));
            }
        }
        // Region paths over a few instances and arms, so that prefixes,
        // instances and ordinals collide often.
        let depth = rng.below(4) as usize;
        let regions = (0..depth)
            .map(|_| (rng.below(3) as u32, rng.below(3) as u16))
            .collect();
        Collective {
            prim,
            chain: Vec::new(),
            name: prim.display_name(),
            line: 1,
            time: 0,
            active,
            masks,
            exited: 0,
            present: FULL,
            regions,
            whereabouts: Vec::new(),
            width: None,
            reads: Vec::new(),
            barrier: None,
        }
    }

    #[test]
    fn pairing_matches_the_quadratic_reference() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut pairs_found = 0;
        for _ in 0..300 {
            let n = 1 + rng.below(40) as usize;
            let events: Vec<Collective> = (0..n).map(|_| collective(&mut rng)).collect();
            let pairing = Pairing::new(&events);
            for (i, e) in events.iter().enumerate() {
                let want = covered_reference(&events, i);
                assert_eq!(pairing.covered(i, e), want, "collective {i} of {events:#?}");
                pairs_found += usize::from(want != 0);
            }
        }
        // The generator must exercise the pairing, not only its absence.
        assert!(pairs_found > 100, "only {pairs_found} paired collectives");
    }

    #[test]
    fn races_match_a_scan_of_every_barrier() {
        use super::super::trace::{Access, Barrier};
        use super::super::value::Space;
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut races = 0;
        for _ in 0..300 {
            let mut trace = Trace::default();
            for t in 0..60u64 {
                if rng.below(4) == 0 {
                    let participants = match rng.below(3) {
                        0 => FULL,
                        1 => 0x0000_ffff,
                        _ => rng.next() as u32,
                    };
                    trace.barriers.push(Barrier {
                        time: t,
                        participants,
                    });
                } else {
                    trace.accesses.push(Access {
                        lane: rng.below(4) as u32,
                        space: Space::Shared(0),
                        offset: rng.below(3) as i64,
                        write: rng.below(2) == 0,
                        stored: None,
                        time: t,
                        chain: vec![(0, t as u32)].into(),
                        line: t as usize,
                        start: t as usize,
                    });
                }
            }
            // The reference: is each conflicting pair ordered by some
            // barrier between them that both lanes take part in?
            let mut want: std::collections::BTreeSet<usize> = Default::default();
            let a = &trace.accesses;
            for x in 0..a.len() {
                for y in x + 1..a.len() {
                    let (p, q) = (&a[x], &a[y]);
                    if p.offset != q.offset || p.lane == q.lane || !(p.write || q.write) {
                        continue;
                    }
                    let both = 1u32 << p.lane | 1u32 << q.lane;
                    let ordered = trace.barriers.iter().any(|b| {
                        b.time > p.time.min(q.time)
                            && b.time < p.time.max(q.time)
                            && b.participants & both == both
                    });
                    if !ordered {
                        // Reported at the later access in source order.
                        want.insert(p.start.max(q.start));
                    }
                }
            }
            let mut out = Vec::new();
            assert!(shared_races(&trace, &mut out).is_none());
            // One observation per later access site of an unordered pair.
            let got: std::collections::BTreeSet<usize> = out.iter().map(|o| o.line).collect();
            assert_eq!(got, want, "{trace:#?}");
            races += out.len();
        }
        assert!(races > 50, "only {races} races");
    }
}
