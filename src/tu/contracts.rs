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
//! launch's block. Files without `<<<` are not parsed.

use std::collections::HashMap;

use crate::ir::lower::Extents;

/// Class or kernel name → the extents all its launches state.
pub type Contracts = HashMap<String, Extents>;

/// The launches one file states (empty without `<<<`).
pub fn of_file(bytes: &[u8], max_parse_operations: u64) -> Vec<(String, Extents)> {
    if !bytes.windows(3).any(|w| w == b"<<<") {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(bytes);
    crate::ir::lower::stated_block_extents(&text, max_parse_operations)
}

/// Join launches: an extent stays stated only where every launch of the
/// name states the same one.
pub fn merge(launches: impl IntoIterator<Item = (String, Extents)>) -> Contracts {
    let mut out: Contracts = HashMap::new();
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
        merge(of_file(text.as_bytes(), 10_000_000))
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
}
