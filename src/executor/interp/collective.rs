//! The collectives: what a warp primitive does for the lanes that execute
//! it together, and the event it leaves in the trace.

use super::*;
use crate::ir::primitives::{NamedBarrier, SyncthreadsMode};

impl Machine<'_> {
    pub(super) fn collective(
        &mut self,
        prim: Primitive,
        name: &'static str,
        args: &[Lanes],
        m: u32,
        span: ByteSpan,
    ) -> Lanes {
        let mut out = [Val::UNKNOWN_VARYING; 32];
        let line = self.line(span);
        if prim == Primitive::Activemask {
            for l in lanes_of(m) {
                let group = match self.cfg.schedule {
                    Schedule::Converged => m,
                    Schedule::Split(n) => {
                        let n = n.clamp(1, 32);
                        let base = (l as u32 / n) * n;
                        let seg = if n == 32 {
                            FULL
                        } else {
                            ((1u32 << n) - 1) << base
                        };
                        m & seg
                    }
                };
                out[l] = Val::Int(group as i64);
            }
            return out;
        }
        let mut masks = [None; 32];
        if prim.is_masked() {
            for l in lanes_of(m) {
                masks[l] = match args.first() {
                    Some(a) => a[l].as_int().map(|v| v as u32),
                    // `__syncwarp()` defaults to the full mask.
                    None if prim == Primitive::Syncwarp => Some(FULL),
                    None => None,
                };
            }
        } else {
            for l in lanes_of(m) {
                masks[l] = Some(self.present);
            }
        }
        let mut whereabouts: Vec<(u32, usize, &'static str)> = Vec::new();
        let absent = self.present & !m;
        for l in lanes_of(absent) {
            let w = self.whereabouts[l].unwrap_or((line, "never got here"));
            match whereabouts.iter().position(|s| (s.1, s.2) == w) {
                Some(i) => whereabouts[i].0 |= 1 << l,
                None => whereabouts.push((1u32 << l, w.0, w.1)),
            }
        }
        let mut event = Collective {
            prim,
            name,
            chain: self.chain.clone(),
            line,
            time: self.time,
            active: m,
            masks,
            exited: self.exited,
            present: self.present,
            regions: self.regions.clone(),
            whereabouts,
            width: None,
            reads: Vec::new(),
            barrier: None,
        };
        let participates = |l: usize| masks[l].is_some_and(|mk| mk >> l & 1 == 1);
        let event_index = self.trace.collectives.len() as u32;
        match prim {
            Primitive::Shfl(mode) => {
                let width = args
                    .get(3)
                    .map(|w| w[lanes_of(m).next().unwrap_or(0)].as_int())
                    .unwrap_or(Some(32));
                event.width = width;
                let srcs: Vec<Option<i64>> = lanes_of(m)
                    .map(|l| args.get(2).and_then(|a| a[l].as_int()))
                    .collect();
                let uniform_src = lanes_of(m).all(|l| {
                    matches!(
                        args.get(2).map(|a| a[l]),
                        Some(Val::Unknown { varying: false })
                    )
                });
                let w = width
                    .filter(|w| [1, 2, 4, 8, 16, 32].contains(w))
                    .unwrap_or(0) as u32;
                // One source lane for the whole warp: with width 32 every
                // lane reads that lane's value (the source lane its own),
                // so an unknown value read is the same in every lane. A
                // narrower width reads that lane of each segment: one
                // value per segment, not per warp.
                let broadcast = mode == ShflMode::Idx
                    && w == 32
                    && srcs.iter().all(|s| s.is_some() && *s == srcs[0]);
                let uniform_src = uniform_src && w == 32;
                for l in lanes_of(m) {
                    let var = args.get(1).map(|a| a[l]).unwrap_or(Val::UNKNOWN_VARYING);
                    if w == 0 {
                        out[l] = Val::Undef(event_index);
                        continue;
                    }
                    let lane = l as u32;
                    let base = lane & !(w - 1);
                    let arg = args.get(2).and_then(|a| a[l].as_int());
                    let src = match (mode, arg) {
                        (_, None) => None,
                        (ShflMode::Idx, Some(s)) => Some(base + (s.rem_euclid(w as i64)) as u32),
                        (ShflMode::Up, Some(d)) => {
                            let d = d.clamp(0, 64) as u32;
                            Some(if lane - base >= d { lane - d } else { lane })
                        }
                        (ShflMode::Down, Some(d)) => {
                            let d = d.clamp(0, 64) as u32;
                            Some(if lane - base + d < w { lane + d } else { lane })
                        }
                        (ShflMode::Xor, Some(x)) => {
                            let s = lane ^ (x as u32 & 31);
                            Some(if s & !(w - 1) == base { s } else { lane })
                        }
                    };
                    out[l] = match src {
                        // One unknown source lane for everyone: same value.
                        None if mode == ShflMode::Idx && uniform_src => Val::UNKNOWN_UNIFORM,
                        None => Val::UNKNOWN_VARYING,
                        Some(s) if s == lane => match var {
                            Val::Unknown { .. } if broadcast => Val::UNKNOWN_UNIFORM,
                            v => v,
                        },
                        Some(s) => {
                            event.reads.push((lane, s));
                            let in_mask = masks[l].is_some_and(|mk| mk >> s & 1 == 1);
                            if !in_mask || self.exited >> s & 1 == 1 || self.present >> s & 1 == 0 {
                                Val::Undef(event_index)
                            } else if m >> s & 1 == 1 {
                                match args.get(1).map(|a| a[s as usize]) {
                                    // Every lane reading one lane's unknown
                                    // value reads the same value.
                                    Some(Val::Unknown { .. }) if broadcast => Val::UNKNOWN_UNIFORM,
                                    Some(v) => v,
                                    None => Val::UNKNOWN_VARYING,
                                }
                            } else {
                                // The source is alive but elsewhere: it may
                                // meet this shuffle from a sibling arm.
                                Val::UNKNOWN_VARYING
                            }
                        }
                    };
                }
            }
            Primitive::Vote(mode) => {
                for l in lanes_of(m) {
                    let group = masks[l].unwrap_or(m) & m;
                    let preds: Vec<Option<bool>> = lanes_of(group)
                        .map(|k| args.get(1).and_then(|a| a[k].truth()))
                        .collect();
                    out[l] = if preds.iter().any(|p| p.is_none()) || !participates(l) {
                        Val::UNKNOWN_UNIFORM
                    } else {
                        match mode {
                            VoteMode::Ballot => {
                                let mut b = 0u32;
                                for (k, p) in lanes_of(group).zip(&preds) {
                                    if *p == Some(true) {
                                        b |= 1 << k;
                                    }
                                }
                                Val::Int(b as i64)
                            }
                            VoteMode::Any => Val::Int(preds.contains(&Some(true)) as i64),
                            VoteMode::All => {
                                Val::Int(preds.iter().all(|p| *p == Some(true)) as i64)
                            }
                            VoteMode::Uni => Val::Int(
                                (preds.iter().all(|p| *p == Some(true))
                                    || preds.iter().all(|p| *p == Some(false)))
                                    as i64,
                            ),
                        }
                    };
                }
            }
            Primitive::Match { all } => {
                // Lanes that pass one mask get one answer from
                // `__match_all_sync`, even when it is not known.
                let one_mask = lanes_of(m).all(|l| {
                    masks[l].is_some() && masks[l] == masks[lanes_of(m).next().unwrap_or(0)]
                });
                for l in lanes_of(m) {
                    let group = masks[l].unwrap_or(m) & m;
                    let me = args.get(1).map(|a| a[l]).unwrap_or(Val::UNKNOWN_VARYING);
                    let vals = |k: usize| args.get(1).map(|a| a[k]);
                    if all
                        && one_mask
                        && lanes_of(group).any(|k| !vals(k).is_some_and(|v| v.is_known()))
                    {
                        out[l] = Val::UNKNOWN_UNIFORM;
                        continue;
                    }
                    if !me.is_known() {
                        continue;
                    }
                    let same: u32 = lanes_of(group)
                        .filter(|&k| args.get(1).map(|a| a[k]) == Some(me))
                        .fold(0, |acc, k| acc | 1 << k);
                    out[l] = Val::Int(if all {
                        if same == group { group } else { 0 }
                    } else {
                        same
                    } as i64);
                }
            }
            Primitive::Reduce(op) => {
                for l in lanes_of(m) {
                    let group = masks[l].unwrap_or(m) & m;
                    let mut acc: Option<i64> = None;
                    let mut known = true;
                    for k in lanes_of(group) {
                        match args.get(1).and_then(|a| a[k].as_int()) {
                            Some(v) => {
                                acc = Some(match (acc, op) {
                                    (None, _) => v,
                                    (Some(a), ReduceOp::Add) => a.wrapping_add(v),
                                    (Some(a), ReduceOp::Min) => a.min(v),
                                    (Some(a), ReduceOp::Max) => a.max(v),
                                    (Some(a), ReduceOp::And) => a & v,
                                    (Some(a), ReduceOp::Or) => a | v,
                                    (Some(a), ReduceOp::Xor) => a ^ v,
                                })
                            }
                            None => known = false,
                        }
                    }
                    out[l] = match (known, acc) {
                        (true, Some(v)) => Val::Int(v),
                        _ => Val::UNKNOWN_UNIFORM,
                    };
                }
            }
            Primitive::Syncwarp => {
                let named = event.named().unwrap_or(m);
                self.trace.barriers.push(Barrier {
                    time: self.time,
                    participants: named & m,
                });
                out = [Val::Int(0); 32];
            }
            Primitive::Syncthreads(mode) => {
                if let SyncthreadsMode::Named(_) = mode {
                    let one = |k: usize| {
                        let a = args.get(k)?;
                        let first = a[lanes_of(m).next()?].as_int()?;
                        lanes_of(m)
                            .all(|l| a[l].as_int() == Some(first))
                            .then_some(first)
                    };
                    event.barrier = one(0).zip(one(1));
                }
                // An arrive orders nothing for the arriving lanes' later
                // accesses.
                if !matches!(
                    mode,
                    SyncthreadsMode::Named(NamedBarrier { arrive: true, .. })
                ) {
                    self.trace.barriers.push(Barrier {
                        time: self.time,
                        participants: m,
                    });
                }
                let preds: Vec<Option<bool>> = lanes_of(m)
                    .map(|k| args.first().and_then(|a| a[k].truth()))
                    .collect();
                let v = match mode {
                    SyncthreadsMode::Plain
                    | SyncthreadsMode::Cluster
                    | SyncthreadsMode::Grid
                    | SyncthreadsMode::Named(_) => Val::Int(0),
                    _ if preds.iter().any(|p| p.is_none()) => Val::UNKNOWN_UNIFORM,
                    SyncthreadsMode::Count => Val::UNKNOWN_UNIFORM,
                    SyncthreadsMode::And | SyncthreadsMode::Or => Val::UNKNOWN_UNIFORM,
                };
                out = [v; 32];
            }
            // Only its meeting is checked: the template's outputs are
            // lowered apart (`ir::lower::asm`), so its value is never read.
            Primitive::Elect | Primitive::Activemask => {}
        }
        self.time += 1;
        self.trace.collectives.push(event);
        out
    }
}

/// The value of an inline-PTX `shfl.sync.idx.b32` (`ASM_BROADCAST(a, b, c,
/// m)`): lane `b` of `a` within the lane's segment. Its rendezvous is not
/// judged (the rules do not claim anything of it); only the value is
/// modelled. With width 32 and one source lane, every lane reads one value.
pub(super) fn asm_broadcast(args: &[Lanes], m: u32) -> Lanes {
    let mut out = [Val::UNKNOWN_VARYING; 32];
    let at = |i: usize, l: usize| args.get(i).map(|a| a[l]);
    // PTX `c`: segment mask in bits 8-12, clamp in bits 0-4.
    let first = lanes_of(m).next().unwrap_or(0);
    let (seg_mask, clamp) = match at(2, first).and_then(|c| c.as_int()) {
        Some(c) if lanes_of(m).all(|l| at(2, l) == Some(Val::Int(c))) => {
            (((c >> 8) & 0x1f) as u32, (c & 0x1f) as u32)
        }
        _ => return out,
    };
    let whole_warp = seg_mask == 0 && clamp == 0x1f;
    let srcs: Vec<Option<i64>> = lanes_of(m)
        .map(|l| at(1, l).and_then(|v| v.as_int()))
        .collect();
    let one_src = srcs.iter().all(|s| s.is_some() && *s == srcs[0]);
    let uniform_unknown_src = lanes_of(m).all(|l| at(1, l) == Some(Val::UNKNOWN_UNIFORM));
    for l in lanes_of(m) {
        let lane = l as u32;
        out[l] = match at(1, l).and_then(|v| v.as_int()) {
            None if whole_warp && uniform_unknown_src => Val::UNKNOWN_UNIFORM,
            None => Val::UNKNOWN_VARYING,
            Some(b) => {
                // PTX: the source lane keeps the segment bits of the reader.
                let min_lane = lane & seg_mask;
                let src = min_lane | (b as u32 & 0x1f & !seg_mask);
                if src > (min_lane | (clamp & !seg_mask)) {
                    // Past the clamp: the lane keeps its own value.
                    at(0, l).unwrap_or(Val::UNKNOWN_VARYING)
                } else if m >> src & 1 == 0 {
                    Val::UNKNOWN_VARYING
                } else {
                    match at(0, src as usize) {
                        Some(Val::Unknown { .. }) if whole_warp && one_src => Val::UNKNOWN_UNIFORM,
                        Some(v) => v,
                        None => Val::UNKNOWN_VARYING,
                    }
                }
            }
        };
    }
    out
}
