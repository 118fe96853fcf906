//! From a trace to observations: the places where a run breaks the
//! programming guide's rules for warp collectives, barriers and shared
//! memory. Each observation carries the lanes and events of its witness.

use rustc_hash::FxHashMap as HashMap;

use super::trace::{Collective, Site, Trace};
use crate::diagnostic::{WitnessEvent, lane_ranges, lanes_phrase};
use crate::ir::Primitive;
pub use crate::rules::Class;

#[derive(Debug, Clone)]
pub struct Observation {
    pub class: Class,
    /// Call path to the offending operation; a finding matches when its
    /// site is on it.
    pub chain: Vec<Site>,
    pub line: usize,
    /// One-line account, e.g. "lanes 20–31 never arrive".
    pub detail: String,
    pub events: Vec<WitnessEvent>,
}

const FULL: u32 = 0xffff_ffff;

pub fn observe(trace: &Trace, present: u32) -> Vec<Observation> {
    let mut out = Vec::new();
    // Pairing sibling arms needs ordinals; most traces have no absent lane.
    let any_absent = trace.collectives.iter().any(|e| {
        e.named()
            .is_some_and(|named| named & present & !e.active & !e.exited != 0)
    });
    let ordinals = if any_absent {
        ordinals(&trace.collectives)
    } else {
        Vec::new()
    };
    for (i, e) in trace.collectives.iter().enumerate() {
        match e.prim {
            Primitive::Syncthreads(_) => barrier_divergence(e, present, &mut out),
            Primitive::Activemask => {}
            _ => {
                absent_lanes(trace, i, e, present, &ordinals, &mut out);
                lane_checks(e, trace.used_undef.contains(&(i as u32)), &mut out);
            }
        }
    }
    shared_races(trace, &mut out);
    out
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
    event(
        e.active,
        e.line,
        format!("call {}{}", e.prim.display_name(), mask),
    )
}

/// Rendezvous class, mask, and region path prefix.
type OrdinalKey = (u8, Option<u32>, Vec<(u32, u16)>);

/// For each event, its index among earlier events of the same class and
/// mask at each depth of its region path (for pairing sibling arms).
fn ordinals(events: &[Collective]) -> Vec<Vec<u32>> {
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
}

/// Lanes of the mask that are alive, not here, and not arriving at the
/// same kind of primitive with the same mask from a sibling arm of a
/// branch both are still inside (the pairing Volta+ allows).
fn absent_lanes(
    trace: &Trace,
    i: usize,
    e: &Collective,
    present: u32,
    ordinals: &[Vec<u32>],
    out: &mut Vec<Observation>,
) {
    let Some(named) = e.named() else { return };
    let absent = named & present & !e.active & !e.exited;
    if absent == 0 {
        return;
    }
    let mut covered = 0u32;
    for (j, other) in trace.collectives.iter().enumerate() {
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
    let mask = e.uniform_mask().unwrap_or(named);
    out.push(Observation {
        class: Class::AbsentLanes,
        chain: e.chain.clone(),
        line: e.line,
        detail: format!(
            "{} {} named in mask 0x{mask:08x} but never {}",
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
            chain: e.chain.clone(),
            line: e.line,
            detail: format!(
                "lane {l} passes mask 0x{ml:08x}, which names lane {k}, but lane {k} passes 0x{mk:08x}"
            ),
            events: vec![arrival(e)],
        });
    }
}

fn barrier_divergence(e: &Collective, present: u32, out: &mut Vec<Observation>) {
    let missing = present & !e.active;
    if missing == 0 {
        return;
    }
    let mut events = vec![event(e.active, e.line, "wait at __syncthreads()")];
    for (lanes, line, what) in &e.whereabouts {
        if lanes & missing != 0 {
            events.push(event(lanes & missing, *line, *what));
        }
    }
    let exited = missing & e.exited;
    if exited != 0 && !e.whereabouts.iter().any(|(l, _, _)| l & exited != 0) {
        events.push(event(exited, e.line, "exited before the barrier"));
    }
    out.push(Observation {
        class: Class::DivergentBarrier,
        chain: e.chain.clone(),
        line: e.line,
        detail: format!(
            "threads {} of this warp never reach it",
            lane_ranges(missing)
        ),
        events,
    });
}

const MAX_ACCESSES_PER_LOCATION: usize = 256;

fn shared_races(trace: &Trace, out: &mut Vec<Observation>) {
    let mut by_loc: HashMap<(super::value::Space, i64), Vec<usize>> = HashMap::default();
    for (i, a) in trace.accesses.iter().enumerate() {
        let v = by_loc.entry((a.space, a.offset)).or_default();
        if v.len() < MAX_ACCESSES_PER_LOCATION {
            v.push(i);
        }
    }
    let mut reported: rustc_hash::FxHashSet<Vec<Site>> = rustc_hash::FxHashSet::default();
    let mut locs: Vec<_> = by_loc.into_iter().collect();
    locs.sort_by_key(|(k, _)| *k);
    for (_, idxs) in locs {
        for (x, &i) in idxs.iter().enumerate() {
            for &j in &idxs[x + 1..] {
                let (a, b) = (&trace.accesses[i], &trace.accesses[j]);
                if a.lane == b.lane || !(a.write || b.write) {
                    continue;
                }
                let (first, second) = if a.time <= b.time { (a, b) } else { (b, a) };
                let ordered = trace.barriers.iter().any(|bar| {
                    bar.time > first.time
                        && bar.time < second.time
                        && bar.participants >> first.lane & 1 == 1
                        && bar.participants >> second.lane & 1 == 1
                });
                if ordered {
                    continue;
                }
                // Report at the later access in source order.
                let later = if a.start >= b.start { a } else { b };
                if !reported.insert(later.chain.clone()) {
                    continue;
                }
                let kind = |w: bool| if w { "writes" } else { "reads" };
                out.push(Observation {
                    class: Class::SharedRace,
                    chain: later.chain.clone(),
                    line: later.line,
                    detail: format!(
                        "lane {} {} shared element {} at line {} and lane {} {} it at line {} with no barrier between them",
                        first.lane, kind(first.write), first.offset, first.line,
                        second.lane, kind(second.write), second.line
                    ),
                    events: vec![
                        event(1 << first.lane, first.line, format!("{} element {}", kind(first.write), first.offset)),
                        event(1 << second.lane, second.line, format!("{} element {} (no __syncwarp between)", kind(second.write), second.offset)),
                    ],
                });
            }
        }
    }
}
