//! The stages stay linear on deep and long inputs, checked by counting work,
//! not by clocks: a 1,000-deep expression, a 5,000-statement function and a
//! 500-deep `if` chain go through the whole pipeline, and the uniformity
//! analysis combines each expression at most once per pass.
//!
//! Before expression levels were memoized, a `?:` / `&&` / `/ 32` chain of
//! depth d cost about 2^d evaluations (a binary node re-evaluated its
//! operand), so the 1,000-deep case never finished.

use warplint::dataflow::MAX_PASSES;
use warplint::fuzzing::{check_and_render, counted_bound, generate};

/// Run on a thread with the stack the engine's workers have
/// (`engine::WORKER_STACK_BYTES`), as every check does: the test harness's
/// 2 MiB threads leave a 1,000-deep expression's debug-build frames less
/// than 3% to spare, which measures the compiler's frame sizes, not the
/// work this test bounds.
fn bounded(src: &str) -> warplint::dataflow::FlowStats {
    let src = src.to_owned();
    std::thread::Builder::new()
        .stack_size(warplint::engine::WORKER_STACK_BYTES)
        .spawn(move || {
            let stats = counted_bound(src.as_bytes());
            check_and_render(src.as_bytes());
            stats
        })
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn deep_expressions_cost_linear_work() {
    for ops in [
        &[0u8][..],
        &[1],
        &[2],
        &[3],
        &[4],
        &[5],
        &[6],
        &[0, 1, 2, 3, 4, 5, 6],
    ] {
        for depth in [10, 60, 199, 1000] {
            let stats = bounded(&generate::deep_expression(depth, ops));
            assert!(stats.exprs > 0, "nothing lowered at depth {depth}");
            assert!(
                stats.evaluations <= u64::from(MAX_PASSES + 2) * stats.exprs as u64,
                "depth {depth}, ops {ops:?}: {stats:?}"
            );
        }
    }
}

#[test]
fn an_expression_below_the_lowering_depth_is_analysed_whole() {
    // 60 levels (about 180 deep in syntax) stay below the lowering's depth
    // limit, so every level is an expression of its own, and the work per
    // expression stays the same as at 20.
    let small = bounded(&generate::deep_expression(20, &[5, 0]));
    let large = bounded(&generate::deep_expression(60, &[5, 0]));
    assert!(large.exprs > 2 * small.exprs, "{small:?} {large:?}");
    let per_expr = |s: warplint::dataflow::FlowStats| s.evaluations as f64 / s.exprs as f64;
    assert!(
        per_expr(large) <= per_expr(small) * 1.5 + 1.0,
        "{small:?} {large:?}"
    );
}

#[test]
fn a_long_function_costs_linear_work() {
    let stats = bounded(&generate::long_function(5000));
    assert!(stats.stmts >= 5000, "{stats:?}");
    assert!(!stats.gave_up, "{stats:?}");
}

#[test]
fn a_deep_if_chain_costs_linear_work() {
    let stats = bounded(&generate::deep_if_chain(500));
    assert!(stats.stmts >= 500, "{stats:?}");
}

#[test]
fn fuzzer_shaped_inputs_stay_bounded() {
    // A few byte strings as the `deep` fuzz target would get them.
    for data in [
        &b"\x00\x03\xe8\x01\x02\x03\x04"[..],
        b"\x01\x01\x00",
        b"\x02\x07\xd0",
        b"\x00\x00\x40\x05\x05\x05\x00",
        b"",
    ] {
        let src = generate::from_bytes(data);
        bounded(&src);
    }
}

/// `WARPLINT_WRITE_GENERATED=DIR cargo test --test linear_time` writes the
/// generated inputs to DIR, to time any `warplint` binary on them.
#[test]
fn generated_inputs_can_be_written_out() {
    let Some(dir) = std::env::var_os("WARPLINT_WRITE_GENERATED") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut inputs = vec![
        (
            "long_function_5000.cu".to_owned(),
            generate::long_function(5000),
        ),
        ("if_chain_500.cu".to_owned(), generate::deep_if_chain(500)),
    ];
    for op in 0..7u8 {
        for depth in [20, 40, 1000] {
            inputs.push((
                format!("expr_op{op}_depth{depth}.cu"),
                generate::deep_expression(depth, &[op]),
            ));
        }
    }
    for (name, src) in inputs {
        std::fs::write(dir.join(name), src).unwrap();
    }
}
