//! Value operations and the library functions with known meaning.

use super::*;

/// Pick a lane partition for branch outcomes the executor cannot compute.
pub(super) fn partition(seed: u32, lane: u32) -> bool {
    match seed % 4 {
        0 => lane < 16,
        1 => lane.is_multiple_of(2),
        2 => lane < 20,
        _ => lane != 0,
    }
}

pub(super) fn unknown_of(vals: &[Val]) -> Val {
    if let Some(u) = vals.iter().find(|v| matches!(v, Val::Undef(_))) {
        *u
    } else if vals
        .iter()
        .any(|v| matches!(v, Val::Unknown { varying: true }))
    {
        Val::UNKNOWN_VARYING
    } else {
        Val::UNKNOWN_UNIFORM
    }
}

pub(super) fn unary(op: UnOp, a: Val) -> Val {
    match (op, a) {
        (UnOp::Neg, Val::Int(v)) => Val::Int(v.wrapping_neg()),
        (UnOp::Neg, Val::Float(v)) => Val::Float(-v),
        (UnOp::Not, v) if v.truth().is_some() => Val::Int(!v.truth().unwrap_or(false) as i64),
        (UnOp::BitNot, Val::Int(v)) => Val::Int(bit_not(v)),
        (_, v) => unknown_of(&[v]),
    }
}

pub(super) fn binary(op: BinOp, a: Val, b: Val) -> Val {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => apply_binop(op, x, y)
            .map(Val::Int)
            .unwrap_or(Val::UNKNOWN_VARYING),
        (Val::Ptr(p), Val::Int(n)) if matches!(op, BinOp::Add | BinOp::Sub) => {
            let d = if op == BinOp::Add { n } else { -n };
            Val::Ptr(Ptr {
                offset: p.offset.saturating_add(d),
                ..p
            })
        }
        (Val::Int(n), Val::Ptr(p)) if op == BinOp::Add => Val::Ptr(Ptr {
            offset: p.offset.saturating_add(n),
            ..p
        }),
        (Val::Float(_), _) | (_, Val::Float(_)) if a.is_known() && b.is_known() => {
            let x = match a {
                Val::Float(f) => f,
                Val::Int(i) => i as f64,
                _ => return Val::UNKNOWN_VARYING,
            };
            let y = match b {
                Val::Float(f) => f,
                Val::Int(i) => i as f64,
                _ => return Val::UNKNOWN_VARYING,
            };
            match op {
                BinOp::Add => Val::Float(x + y),
                BinOp::Sub => Val::Float(x - y),
                BinOp::Mul => Val::Float(x * y),
                BinOp::Div => Val::Float(x / y),
                BinOp::Lt => Val::Int((x < y) as i64),
                BinOp::Le => Val::Int((x <= y) as i64),
                BinOp::Gt => Val::Int((x > y) as i64),
                BinOp::Ge => Val::Int((x >= y) as i64),
                BinOp::Eq => Val::Int((x == y) as i64),
                BinOp::Ne => Val::Int((x != y) as i64),
                _ => Val::UNKNOWN_VARYING,
            }
        }
        _ => unknown_of(&[a, b]),
    }
}

/// Library functions with known meaning.
pub(super) fn builtin_call(name: &str, args: &[Lanes], m: u32, seed: u32) -> Option<Lanes> {
    let mut out = [Val::UNKNOWN_VARYING; 32];
    let arg = |i: usize, l: usize| args.get(i).map(|a| a[l]).unwrap_or(Val::UNKNOWN_VARYING);
    let int1 = |f: &dyn Fn(i64) -> i64, out: &mut Lanes| {
        for l in lanes_of(m) {
            out[l] = match arg(0, l).as_int() {
                Some(v) => Val::Int(f(v)),
                None => unknown_of(&[arg(0, l)]),
            };
        }
    };
    match name {
        "__popc" | "__popcll" => int1(&|v| (v as u64 & 0xffff_ffff).count_ones() as i64, &mut out),
        "__ffs" => int1(
            &|v| {
                let v = v as u32;
                if v == 0 {
                    0
                } else {
                    v.trailing_zeros() as i64 + 1
                }
            },
            &mut out,
        ),
        "__clz" => int1(&|v| (v as u32).leading_zeros() as i64, &mut out),
        "__brev" => int1(&|v| (v as u32).reverse_bits() as i64, &mut out),
        "abs" => int1(&|v| v.wrapping_abs(), &mut out),
        // `cuda::is_power_of_two`, C++20 `has_single_bit`: CUB picks a
        // logical warp's mask layout with them.
        "is_power_of_two" | "has_single_bit" => int1(
            &|v| i64::from(v > 0 && (v as u64).is_power_of_two()),
            &mut out,
        ),
        "min" | "max" | "umin" | "umax" | "fminf" | "fmaxf" => {
            for l in lanes_of(m) {
                out[l] = match (arg(0, l).as_int(), arg(1, l).as_int()) {
                    (Some(a), Some(b)) => Val::Int(if name.contains("min") {
                        a.min(b)
                    } else {
                        a.max(b)
                    }),
                    _ => unknown_of(&[arg(0, l), arg(1, l)]),
                };
            }
        }
        // The lanes running `cg::coalesced_threads()` together: the mask
        // its group holds; the group's members pass it on as it is.
        crate::ir::primitives::COALESCED_LANES => {
            for l in lanes_of(m) {
                out[l] = Val::Int(i64::from(m));
            }
        }
        crate::ir::primitives::COALESCED_MASK => {
            for l in lanes_of(m) {
                out[l] = arg(0, l);
            }
        }
        // `__fns(mask, base, offset)`: the lane of the `offset`-th set bit
        // of `mask` from `base` on, upwards for offset > 0 and downwards
        // for offset < 0 (0xffffffff where there is none). A coalesced
        // group's `shfl(v, r)` reads the lane of rank r, its `shfl_down(v,
        // d)` the member `d` ranks above.
        "__fns" => {
            for l in lanes_of(m) {
                out[l] = match (arg(0, l).as_int(), arg(1, l).as_int(), arg(2, l).as_int()) {
                    (Some(mask), Some(base), Some(offset))
                        if offset != 0 && (0..32).contains(&base) && offset.abs() <= 32 =>
                    {
                        let is_set = |b: &i64| (mask as u32) >> b & 1 == 1;
                        let nth = (offset.unsigned_abs() - 1) as usize;
                        let found = if offset > 0 {
                            (base..32).filter(is_set).nth(nth)
                        } else {
                            (0..=base).rev().filter(is_set).nth(nth)
                        };
                        Val::Int(found.map_or(0xffff_ffff, i64::from))
                    }
                    _ => unknown_of(&[arg(0, l), arg(1, l), arg(2, l)]),
                };
            }
        }
        n if crate::dataflow::cached_load(n) => {
            for l in lanes_of(m) {
                out[l] = match arg(0, l) {
                    Val::Ptr(p) => memory_contents(p.space, p.offset, seed),
                    v => unknown_of(&[v]),
                };
            }
        }
        n if n.starts_with("atomic") => {}
        "printf"
        | "assert"
        | "__trap"
        | "__nanosleep"
        | "__threadfence"
        | "__threadfence_block" => {
            out = [Val::Int(0); 32];
        }
        _ => return None,
    }
    Some(out)
}
