//! Runs the code's `static_assert`s admit.
//!
//! An instantiation whose assertion fails does not compile, so a setup
//! whose chosen compile-time values break one (`THREADS_PER_ROW =
//! NUM_EXPERTS / VPT` that is not a power of two dividing the warp) is a
//! run no launch makes: it can neither show nor contest a finding. Such a
//! setup is mended: the values the assertions read are searched again,
//! from their pools widened with the powers of two such assertions usually
//! ask for, by a backtracking search with a step budget. A setup no search
//! mends is dropped.

use rustc_hash::FxHashMap as HashMap;

use crate::dataflow::{any_subexpr, walk_subexprs};
use crate::ir::{BinOp, ExprId, ExprKind, Function, Module, StmtKind};

/// Sizes an assertion over widths and counts usually asks for.
const POWERS_OF_TWO: [i64; 6] = [8, 4, 2, 16, 32, 1];

/// Assertion checks one search may make: a bound on the product of the
/// pools, which the assertions usually prune long before.
const MAX_SEARCH_STEPS: usize = 2048;

/// Most names one search assigns (the assertions rarely read more).
const MAX_SEARCHED_NAMES: usize = 8;

/// A function's top-level `static_assert`s, with what they read.
pub(super) struct Asserted<'m> {
    module: &'m Module,
    f: &'m Function,
    /// Constant locals of the body the assertions read (directly or
    /// through each other), in declaration order: name and initializer.
    derived: Vec<(&'m str, ExprId)>,
    /// The chosen inputs the assertions read, in the order searched.
    names: Vec<String>,
}

impl<'m> Asserted<'m> {
    /// `None` where no assertion reads a chosen input.
    pub(super) fn of(module: &'m Module, f: &'m Function, chosen: &[&str]) -> Option<Self> {
        if f.asserts.is_empty() {
            return None;
        }
        let locals = f.unwritten_locals();
        // The names the assertions read, through the locals they read:
        // each local's initializer is walked once, when first read.
        let mut read: Vec<&str> = Vec::new();
        let mut roots: Vec<ExprId> = f.asserts.clone();
        while !roots.is_empty() {
            let mut inits: Vec<ExprId> = Vec::new();
            walk_subexprs(f, &roots, &mut |e, _| {
                if let ExprKind::Var(name) = &f.expr(e).kind
                    && !read.contains(&name.as_str())
                {
                    read.push(name);
                    inits.extend(locals.get(name.as_str()));
                }
                false
            });
            roots = inits;
        }
        let derived: Vec<(&str, ExprId)> = f
            .body
            .iter()
            .filter_map(|&s| match &f.stmt(s).kind {
                StmtKind::Decl {
                    name,
                    init: Some(init),
                    ..
                } if read.contains(&name.as_str()) && locals.contains_key(name.as_str()) => {
                    Some((name.as_str(), *init))
                }
                _ => None,
            })
            .collect();
        let names: Vec<String> = chosen
            .iter()
            .filter(|n| read.contains(n))
            .take(MAX_SEARCHED_NAMES)
            .map(|n| (*n).to_owned())
            .collect();
        (!names.is_empty()).then_some(Asserted {
            module,
            f,
            derived,
            names,
        })
    }

    /// Whether no assertion is false with these inputs (one that cannot
    /// be evaluated is no evidence either way).
    pub(super) fn admits(&self, inputs: &HashMap<String, i64>) -> bool {
        let mut known: HashMap<&str, i64> = HashMap::default();
        let lookup = |known: &HashMap<&str, i64>, name: &str| {
            inputs
                .get(name)
                .or_else(|| known.get(name))
                .copied()
                .or_else(|| self.module.constant(self.f, name))
        };
        for &(name, init) in &self.derived {
            if self.divides_by_zero(init, &|n| lookup(&known, n)) {
                return false;
            }
            if let Some(v) = crate::ir::fold::eval(self.f, init, &|n| lookup(&known, n), 0) {
                known.insert(name, v);
            }
        }
        self.f.asserts.iter().all(|&a| {
            let lookup = |n: &str| lookup(&known, n);
            !self.divides_by_zero(a, &lookup)
                && crate::ir::fold::eval(self.f, a, &lookup, 0) != Some(0)
        })
    }

    /// Whether `e` divides by a value that is zero (`BYTES / sizeof(T)`
    /// of 0 as a divisor): a constant expression that does not compile.
    fn divides_by_zero(&self, e: ExprId, lookup: &dyn Fn(&str) -> Option<i64>) -> bool {
        any_subexpr(self.f, e, &mut |k| {
            matches!(k, ExprKind::Binary(BinOp::Div | BinOp::Rem, _, d)
                if crate::ir::fold::eval(self.f, *d, lookup, 0) == Some(0))
        })
    }

    /// Values for the asserted names that, with the rest of `inputs`,
    /// keep every assertion: each name tries its pool, then the powers of
    /// two, starting `rotation` values in (so that setups differ). `None`
    /// where the search finds none within its budget.
    pub(super) fn mend(
        &self,
        inputs: &HashMap<String, i64>,
        pools: &HashMap<&str, &[i64]>,
        rotation: usize,
    ) -> Option<Vec<(String, i64)>> {
        let values: Vec<Vec<i64>> = self
            .names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let mut vs: Vec<i64> = pools
                    .get(n.as_str())
                    .map(|p| p.to_vec())
                    .unwrap_or_default();
                for v in POWERS_OF_TWO {
                    if !vs.contains(&v) {
                        vs.push(v);
                    }
                }
                // Each name its own offset, as setups cycle their pools.
                let k = (rotation + i) % vs.len();
                vs.rotate_left(k);
                vs
            })
            .collect();
        let mut trial = inputs.clone();
        for n in &self.names {
            trial.remove(n);
        }
        // Depth-first over the names in order; `at[d]` is the index of the
        // value name `d` holds.
        let mut at: Vec<usize> = Vec::with_capacity(self.names.len());
        let mut steps = 0usize;
        loop {
            let d = at.len();
            if d == self.names.len() {
                return Some(
                    self.names
                        .iter()
                        .cloned()
                        .zip(at.iter().enumerate().map(|(i, &k)| values[i][k]))
                        .collect(),
                );
            }
            at.push(0);
            // Advance to the next value that keeps the assertions,
            // backtracking when a name runs out of values.
            loop {
                let d = at.len() - 1;
                if at[d] == values[d].len() {
                    at.pop();
                    trial.remove(&self.names[d]);
                    *at.last_mut()? += 1;
                    continue;
                }
                steps += 1;
                if steps > MAX_SEARCH_STEPS {
                    return None;
                }
                trial.insert(self.names[d].clone(), values[d][at[d]]);
                if self.admits(&trial) {
                    break;
                }
                at[d] += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(src: &str) -> Module {
        let source = crate::source::SourceFile::new("t.cu", src.as_bytes());
        let parsed = crate::frontend::parse(source).expect("parses");
        crate::ir::lower_file(&parsed, &crate::frontend::PreprocEnv::default())
    }

    fn inputs(values: &[(&str, i64)]) -> HashMap<String, i64> {
        values.iter().map(|(n, v)| ((*n).to_owned(), *v)).collect()
    }

    const ROWS: &str = "template <int kPer, int kItems>
        __global__ void k(float *p) {
          constexpr int kLanes = kItems / kPer;
          static_assert(32 % kLanes == 0, \"divides the warp\");
          p[threadIdx.x] = kLanes;
        }";

    #[test]
    fn a_setup_is_admitted_only_where_the_assertions_hold() {
        let m = module(ROWS);
        let a = Asserted::of(&m, &m.functions[0], &["kPer", "kItems"]).expect("asserted");
        assert!(a.admits(&inputs(&[("kPer", 2), ("kItems", 16)])));
        // 20 / 20 is 1, which divides 32; 100 / 20 is 5, which does not.
        assert!(a.admits(&inputs(&[("kPer", 20), ("kItems", 20)])));
        assert!(!a.admits(&inputs(&[("kPer", 20), ("kItems", 100)])));
        // 1 / 20 is 0: `32 % 0` does not compile.
        assert!(!a.admits(&inputs(&[("kPer", 20), ("kItems", 1)])));
        // An input the assertions do not read leaves them unknown: admitted.
        assert!(a.admits(&inputs(&[("kPer", 20)])));
    }

    #[test]
    fn a_broken_setup_is_mended_with_values_that_keep_the_assertions() {
        let m = module(ROWS);
        let a = Asserted::of(&m, &m.functions[0], &["kPer", "kItems"]).expect("asserted");
        let pools: HashMap<&str, &[i64]> =
            [("kPer", &[20i64, 100][..]), ("kItems", &[100i64, 33][..])]
                .into_iter()
                .collect();
        let broken = inputs(&[("kPer", 20), ("kItems", 100)]);
        for rotation in 0..4 {
            let mut mended = broken.clone();
            mended.extend(a.mend(&broken, &pools, rotation).expect("mended"));
            assert!(a.admits(&mended), "{mended:?}");
        }
    }

    #[test]
    fn the_search_stops_at_its_budget() {
        // One solution, a = b = c = d = 39, the last of 40^4 the search
        // would reach: past its budget, so it gives up instead.
        let m = module(
            "template <int a, int b, int c, int d>
             __global__ void k(float *p) {
               static_assert(a + b + c + d == 156, \"only 39s\");
               p[threadIdx.x] = a;
             }",
        );
        let names = ["a", "b", "c", "d"];
        let a = Asserted::of(&m, &m.functions[0], &names).expect("asserted");
        let pool: Vec<i64> = (0..40).collect();
        let pools: HashMap<&str, &[i64]> = names.iter().map(|n| (*n, pool.as_slice())).collect();
        assert_eq!(a.mend(&inputs(&[("a", 0)]), &pools, 0), None);
    }

    #[test]
    fn a_function_without_assertions_on_chosen_values_has_none_to_keep() {
        let m = module("__global__ void k(float *p, int n) { p[threadIdx.x] = n; }");
        assert!(Asserted::of(&m, &m.functions[0], &["n"]).is_none());
        let m = module(ROWS);
        assert!(Asserted::of(&m, &m.functions[0], &["unrelated"]).is_none());
    }
}
