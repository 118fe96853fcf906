//! Launch contracts: the block extents host code states for a kernel class,
//! gathered from every file of a run before any file is analysed. CUTLASS
//! launches a kernel class from another header than the one defining it
//! (`device/x.h` builds `dim3(threads, 1, 1)` and launches
//! `Kernel<kernel::X><<<grid, block>>>`), so the class's own file never
//! sees the shape its launches use.
//!
//! An extent is stated for a class only where every launch of it in the
//! run states the same value ([`merge`]); one launch that does not know it
//! (a block computed at run time) leaves it unstated. A class passed as
//! the template argument of a launched kernel is taken to run under that
//! launch's block. A kernel launched through `cudaLaunchKernelEx(&cfg, k,
//! …)` gets the block its local `cfg` holds there (`cfg.blockDim = …`, or
//! the aggregate initializer's second member); one through
//! `cudaLaunchKernel(k, grid, block, …)` (or the cooperative form) gets
//! its `block` argument. Files without `<<<`, `cudaLaunch` or
//! `template __global__` are not parsed.
//!
//! The same pass records the integer template arguments of each
//! `<<<…>>>` launch and each explicit instantiation (`template __global__
//! void k<4>(int*);`) of a kernel template ([`Instances`]): a kernel
//! template in a header is analysed as the instances the run launches or
//! lists.

use rustc_hash::FxHashMap as HashMap;

use crate::frontend::configure::configure_keeping_host_bodies;
use crate::frontend::{MacroEnv, PpConfig};
use crate::ir::TemplateArg;
use crate::ir::lower::Extents;

/// Class or kernel name → the extents all its launches state.
pub type Contracts = HashMap<String, Extents>;

/// Kernel template name → the integer template arguments of each of its
/// `<<<…>>>` launches and explicit instantiations in the run (distinct;
/// `None` where not stated).
/// A kernel with a launch that states none of them, or with more than
/// [`MAX_INSTANCES`] distinct lists, is left out.
pub type Instances = HashMap<String, Vec<Vec<TemplateArg>>>;

/// The most distinct launched instances kept for one kernel template.
pub const MAX_INSTANCES: usize = 8;

/// The launches one file states (empty without `<<<`, a runtime launch,
/// `cudaLaunch…`, or an explicit instantiation of a kernel template): block
/// extents per name, and kernel template instances.
/// Read from the view `config` compiles: a launch in a branch it does not
/// take (`#if 0`, a HIP-only path) states nothing.
pub fn of_file(
    bytes: &[u8],
    config: &PpConfig,
    max_parse_operations: u64,
) -> crate::ir::lower::StatedLaunches {
    if !crate::prefilter::mentions_launch(bytes)
        && !crate::prefilter::mentions_kernel_instantiation(bytes)
    {
        return Default::default();
    }
    let max_tokens = usize::try_from(max_parse_operations).unwrap_or(usize::MAX);
    let mut env = MacroEnv::from_config(config);
    let view = configure_keeping_host_bodies(bytes, config, &mut env, max_tokens);
    crate::ir::lower::stated_launches(&view.text, max_parse_operations)
}

/// Join the run's launched instances (see [`Instances`]).
pub fn merge_instances(
    launches: impl IntoIterator<Item = (String, Vec<TemplateArg>)>,
) -> Instances {
    let mut out: Instances = HashMap::default();
    let mut refused: rustc_hash::FxHashSet<String> = rustc_hash::FxHashSet::default();
    for (name, args) in launches {
        if refused.contains(&name) {
            continue;
        }
        if args.iter().all(|a| *a == TemplateArg::Unknown) {
            out.remove(&name);
            refused.insert(name);
            continue;
        }
        let lists = out.entry(name.clone()).or_default();
        if !lists.contains(&args) {
            lists.push(args);
        }
        if lists.len() > MAX_INSTANCES {
            out.remove(&name);
            refused.insert(name);
        }
    }
    out
}

/// Join launches: an extent stays stated only where every launch of the
/// name states the same one.
pub fn merge(launches: impl IntoIterator<Item = (String, Extents)>) -> Contracts {
    let mut out: Contracts = HashMap::default();
    for (name, e) in launches {
        match out.get_mut(&name) {
            None => {
                out.insert(name, e);
            }
            Some(have) => {
                for d in 0..3 {
                    if have[d] != e[d] {
                        have[d] = None;
                    }
                }
            }
        }
    }
    out.retain(|_, e| e.iter().any(Option::is_some));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contracts(text: &str) -> Contracts {
        merge(of_file(text.as_bytes(), &PpConfig::default(), 10_000_000).0)
    }

    #[test]
    fn launches_in_branches_the_configuration_skips_state_nothing() {
        let src = "__global__ void k(int *p);\n\
                   void run(int *p) {\n\
                   #if 0\n  k<<<1, 48>>>(p);\n#else\n  k<<<1, 64>>>(p);\n#endif\n}\n\
                   #ifdef __HIP_PLATFORM_AMD__\nvoid hip(int *p) { k<<<1, 100>>>(p); }\n#endif\n";
        assert_eq!(contracts(src).get("k"), Some(&[Some(64), Some(1), Some(1)]));
    }

    #[test]
    fn launched_instances_join_across_launches() {
        use TemplateArg::{Class, Int, Unknown};
        let (_, instances) = of_file(
            "template <int S, bool F>\nvoid run(int *p) { k<S, F><<<1, 256>>>(p); }\n\
             template <class P>\nvoid relay(int *p) { by_policy<P, 2><<<1, 64>>>(p); }\n\
             void host(int *p) {\n  run<4, true>(p);\n  run<1, false>(p);\n\
             other<8><<<1, 32>>>(p);\n  by_policy<cfg::Wide, 1><<<1, 64>>>(p);\n}\n"
                .as_bytes(),
            &PpConfig::default(),
            10_000_000,
        );
        let run = merge_instances(instances.clone());
        assert_eq!(
            run.get("k"),
            Some(&vec![vec![Int(4), Int(1)], vec![Int(1), Int(0)]])
        );
        assert_eq!(run.get("other"), Some(&vec![vec![Int(8)]]));
        // A class by its own name; a host template's type parameter names
        // none.
        assert_eq!(
            run.get("by_policy"),
            Some(&vec![
                vec![Unknown, Int(2)],
                vec![Class("Wide".to_owned()), Int(1)]
            ])
        );
        // One launch that states nothing leaves the kernel out.
        let unknown = instances
            .into_iter()
            .chain([("other".to_owned(), vec![Unknown])]);
        assert_eq!(merge_instances(unknown).get("other"), None);
    }

    #[test]
    fn runtime_launches_state_their_instances() {
        use TemplateArg::{Class, Int};
        let (_, instances) = of_file(
            "template <int N>\nvoid relay(int *p) {\n  cudaLaunchConfig_t c = {};\n\
             cudaLaunchKernelEx(&c, fwd<N>, p);\n}\n\
             void host(int *p, void **args) {\n  cudaLaunchConfig_t cfg = {};\n\
             cudaLaunchKernelEx(&cfg, ns::ex<16>, p);\n  auto k = held<lib::Half>;\n\
             cudaLaunchKernelEx(&cfg, k, p);\n\
             cudaLaunchKernel((const void *)plain<8>, dim3(1), dim3(32), args, 0, 0);\n\
             relay<4>(p);\n}\n"
                .as_bytes(),
            &PpConfig::default(),
            10_000_000,
        );
        let run = merge_instances(instances);
        assert_eq!(run.get("ex"), Some(&vec![vec![Int(16)]]));
        assert_eq!(run.get("held"), Some(&vec![vec![Class("Half".to_owned())]]));
        assert_eq!(run.get("plain"), Some(&vec![vec![Int(8)]]));
        assert_eq!(run.get("fwd"), Some(&vec![vec![Int(4)]]));
    }

    #[test]
    fn a_class_launched_through_a_wrapper_gets_the_block_its_launcher_builds() {
        let c = contracts(
            "struct Launcher {\n  dim3 block;\n  Launcher(int n) : block(0, 0, 0) {\n\
             int ty = 1;\n    block = dim3(n, ty, 1);\n  }\n\
             void run() {\n    using Op = kernel::Reduce<float, 4>;\n\
             Kernel<Op><<<4, block, 0>>>(1);\n  }\n};\n",
        );
        assert_eq!(c.get("Reduce"), Some(&[None, Some(1), Some(1)]));
    }

    #[test]
    fn an_extent_written_again_or_launched_otherwise_is_not_stated() {
        let c = contracts(
            "void run(int n) {\n  int ty = 1;\n  ty = n;\n\
             Kernel<Reduce><<<4, dim3(32, ty)>>>(1);\n}\n",
        );
        assert_eq!(c.get("Reduce"), Some(&[Some(32), None, Some(1)]));
        let c = contracts(
            "void run(int n) {\n  Kernel<Reduce><<<4, dim3(32, 1)>>>(1);\n\
             Kernel<Reduce><<<4, dim3(32, 2)>>>(1);\n}\n",
        );
        assert_eq!(c.get("Reduce"), Some(&[Some(32), None, Some(1)]));
        let c = contracts(
            "void run(int n) {\n  dim3 b(32, 1);\n  b.y = n;\n\
             Kernel<Reduce><<<4, b>>>(1);\n}\n",
        );
        assert_eq!(c.get("Reduce"), None);
        // A block passed in says nothing, whatever other locals of that
        // name hold.
        let c = contracts(
            "void other() {\n  dim3 b(32, 1);\n}\n\
             void run(dim3 b) {\n  Kernel<Reduce><<<4, b>>>(1);\n}\n",
        );
        assert_eq!(c.get("Reduce"), None);
    }

    #[test]
    fn a_template_parameter_passed_to_the_wrapper_is_no_class() {
        let c = contracts(
            "template <typename Params>\nstruct Run {\n  void go(Params p) {\n\
             using Op = kernel::Reduce<4>;\n    ns::Kernel<Op, Params><<<4, dim3(32, 1)>>>(p);\n\
             }\n};\n",
        );
        assert_eq!(c.get("Params"), None);
        assert_eq!(c.get("Reduce"), Some(&[Some(32), Some(1), Some(1)]));
        assert_eq!(c.get("Kernel"), Some(&[Some(32), Some(1), Some(1)]));
    }

    #[test]
    fn a_launch_ex_states_the_block_its_config_is_given() {
        let c = contracts(
            "void run(Params p, cudaStream_t s) {\n  cudaLaunchConfig_t cfg;\n\
             cfg.gridDim = dim3(p.n, 2);\n  cfg.blockDim = dim3(32, 4);\n\
             cfg.stream = s;\n  cudaLaunchKernelEx(&cfg, rows_kernel<float, 4>, p);\n}\n",
        );
        assert_eq!(c.get("rows_kernel"), Some(&[Some(32), Some(4), Some(1)]));
        // `warpSize` is 32 in host code; a template value is not known.
        let c = contracts(
            "template <int W>\nvoid run(Params p) {\n  cudaLaunchConfig_t cfg = {0};\n\
             cfg.blockDim = dim3(warpSize, W);\n\
             CHECK(cudaLaunchKernelEx(&cfg, &ns::rows_kernel<W>, p));\n}\n",
        );
        assert_eq!(c.get("rows_kernel"), Some(&[Some(32), None, Some(1)]));
    }

    #[test]
    fn a_launch_ex_follows_a_local_holding_the_kernel() {
        let c = contracts(
            "void run(Params p) {\n  auto launch = [&]<int N>() {\n\
             auto func = rows_kernel<float, N>;\n    cudaLaunchConfig_t config;\n\
             config.blockDim = dim3(64, 2);\n    cudaLaunchKernelEx(&config, func, p);\n\
             };\n  launch.template operator()<4>();\n}\n",
        );
        assert_eq!(c.get("rows_kernel"), Some(&[Some(64), Some(2), Some(1)]));
        assert_eq!(c.get("func"), None);
        // The aggregate initializer's second member is the block.
        let c = contracts(
            "void run(Params p, cudaStream_t s) {\n  dim3 grid(8), block(128);\n\
             cudaLaunchConfig_t config = {grid, block, 0, s, nullptr, 0};\n\
             cudaLaunchKernelEx(&config, rows_kernel, p);\n}\n",
        );
        assert_eq!(c.get("rows_kernel"), Some(&[Some(128), Some(1), Some(1)]));
    }

    #[test]
    fn a_launch_ex_block_written_one_extent_at_a_time() {
        let c = contracts(
            "void run(Params p) {\n  cudaLaunchConfig_t cfg;\n\
             cfg.blockDim.x = 64;\n  cudaLaunchKernelEx(&cfg, rows_kernel, p);\n}\n",
        );
        assert_eq!(c.get("rows_kernel"), Some(&[Some(64), Some(1), Some(1)]));
        // Written in a branch, the extent may also be the one before.
        let c = contracts(
            "void run(Params p, bool wide) {\n  cudaLaunchConfig_t cfg;\n\
             cfg.blockDim = dim3(32, 4);\n  if (wide) cfg.blockDim.y = 8;\n\
             cudaLaunchKernelEx(&cfg, rows_kernel, p);\n}\n",
        );
        assert_eq!(c.get("rows_kernel"), Some(&[Some(32), None, Some(1)]));
    }

    #[test]
    fn a_launch_ex_block_that_disagrees_or_escapes_is_not_stated() {
        // Two launches of the kernel with different blocks.
        let c = contracts(
            "void run(Params p) {\n  cudaLaunchConfig_t a;\n  a.blockDim = dim3(32, 4);\n\
             cudaLaunchKernelEx(&a, rows_kernel, p);\n  cudaLaunchConfig_t b;\n\
             b.blockDim = dim3(64, 4);\n  cudaLaunchKernelEx(&b, rows_kernel, p);\n}\n",
        );
        assert_eq!(c.get("rows_kernel"), Some(&[None, Some(4), Some(1)]));
        // Written in a loop the launch is in: either value.
        let c = contracts(
            "void run(Params p) {\n  cudaLaunchConfig_t cfg;\n\
             cfg.blockDim = dim3(32, 4);\n  for (int i = 0; i < 2; ++i) {\n\
             cudaLaunchKernelEx(&cfg, rows_kernel, p);\n    cfg.blockDim = dim3(32, 2);\n  }\n}\n",
        );
        assert_eq!(c.get("rows_kernel"), Some(&[Some(32), None, Some(1)]));
        // A block not evaluated, or a config handed to a helper.
        let c = contracts(
            "void run(Params p, int n) {\n  cudaLaunchConfig_t cfg;\n\
             cfg.blockDim = dim3(n, n);\n  cudaLaunchKernelEx(&cfg, rows_kernel, p);\n}\n",
        );
        assert_eq!(c.get("rows_kernel"), Some(&[None, None, Some(1)]));
        let c = contracts(
            "void run(Params p) {\n  cudaLaunchConfig_t cfg;\n\
             cfg.blockDim = dim3(32, 4);\n  tune(&cfg);\n\
             cudaLaunchKernelEx(&cfg, rows_kernel, p);\n}\n",
        );
        assert_eq!(c.get("rows_kernel"), None);
    }

    #[test]
    fn a_launch_with_the_block_as_argument_joins_the_others() {
        let c = contracts(
            "void run(Params p, void **args) {\n  dim3 block(64, 2);\n\
             cudaLaunchCooperativeKernel((void *)rows_kernel, dim3(8), block, args, 0, 0);\n}\n",
        );
        assert_eq!(c.get("rows_kernel"), Some(&[Some(64), Some(2), Some(1)]));
        let c = contracts(
            "void run(Params p, void **args) {\n  cudaLaunchConfig_t cfg;\n\
             cfg.blockDim = dim3(32, 2);\n  cudaLaunchKernelEx(&cfg, rows_kernel, p);\n\
             cudaLaunchKernel(&rows_kernel, dim3(8), dim3(64, 2), args, 0, 0);\n}\n",
        );
        assert_eq!(c.get("rows_kernel"), Some(&[None, Some(2), Some(1)]));
    }

    #[test]
    fn a_launch_ex_config_given_as_a_parameter_states_nothing() {
        let c = contracts(
            "void other() {\n  cudaLaunchConfig_t cfg;\n  cfg.blockDim = dim3(32, 4);\n}\n\
             void run(cudaLaunchConfig_t cfg, Params p) {\n\
             cudaLaunchKernelEx(&cfg, rows_kernel, p);\n}\n\
             void direct(Params p) {\n  cudaLaunchConfig_t cfg;\n\
             cfg.blockDim = dim3(32, 4);\n  cudaLaunchKernelEx(&cfg, rows_kernel, p);\n}\n",
        );
        assert_eq!(c.get("rows_kernel"), None);
        // Nor does a kernel the function is given.
        let c = contracts(
            "template <typename K>\nvoid run(K kernel, Params p) {\n  cudaLaunchConfig_t cfg;\n\
             cfg.blockDim = dim3(32, 4);\n  cudaLaunchKernelEx(&cfg, kernel, p);\n}\n",
        );
        assert!(c.is_empty());
    }

    #[test]
    fn a_block_from_a_getter_of_file_constants_is_stated() {
        let c = contracts(
            "constexpr int kLanes = 32;\nstruct Shape {\n  static constexpr int kRows = 4;\n\
             static dim3 block() { return dim3(kLanes * 2, Shape::kRows); }\n};\n\
             void run(float *d) {\n  dim3 b = Shape::block();\n  rows_kernel<<<1, b>>>(d);\n\
             cols_kernel<<<1, Shape::block()>>>(d);\n}\n",
        );
        assert_eq!(c.get("rows_kernel"), Some(&[Some(64), Some(4), Some(1)]));
        assert_eq!(c.get("cols_kernel"), Some(&[Some(64), Some(4), Some(1)]));
        // A constant the file gives twice, or a getter that takes
        // arguments, states nothing.
        let c = contracts(
            "namespace a { constexpr int kRows = 4; }\nnamespace b { constexpr int kRows = 8; }\n\
             dim3 block() { return dim3(32, kRows); }\n\
             dim3 wide(int n) { return dim3(n, 1); }\n\
             void run(float *d) {\n  rows_kernel<<<1, block()>>>(d);\n\
             cols_kernel<<<1, wide(64)>>>(d);\n}\n",
        );
        assert_eq!(c.get("rows_kernel"), Some(&[Some(32), None, Some(1)]));
        assert_eq!(c.get("cols_kernel"), None);
    }
}
