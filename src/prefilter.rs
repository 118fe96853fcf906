//! The byte prefilter: decide, before parsing, whether a file can hold
//! anything a rule looks at. Parsing dominates the cost of a lint run, and in
//! a real tree most headers contain no warp-level code at all.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;

/// Tokens without which no rule can fire. Every rule's trigger must contain
/// one of these as a substring; `tests::every_rule_trigger_passes` guards it.
const WARP_TOKENS: &[&str] = &[
    "__shfl",
    "__ballot",
    "__any",
    "__all",
    "_sync",
    "__syncthreads",
    "__activemask",
    "__shared__",
    "sync(",
];

/// Markers that make a `.h`/`.cpp`-style file CUDA source.
const CUDA_MARKERS: &[&str] = &[
    "__global__",
    "__device__",
    "__shared__",
    "<<<",
    "threadIdx",
    "__syncthreads",
    "__CUDA_ARCH__",
    "__shfl",
    "__ballot",
    "cooperative_groups",
];

static WARP: LazyLock<AhoCorasick> =
    LazyLock::new(|| AhoCorasick::new(WARP_TOKENS).expect("static patterns"));
static CUDA: LazyLock<AhoCorasick> =
    LazyLock::new(|| AhoCorasick::new(CUDA_MARKERS).expect("static patterns"));

/// True when the file may hold warp-relevant code and must be parsed.
pub fn has_warp_tokens(bytes: &[u8]) -> bool {
    WARP.is_match(bytes)
}

/// True when a file of a non-CUDA extension contains CUDA constructs.
pub fn looks_like_cuda(bytes: &[u8]) -> bool {
    CUDA.is_match(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_trigger_passes() {
        for trigger in [
            "__shfl(v, 0)",
            "__ballot(p)",
            "__any(p)",
            "__all(p)",
            "__shfl_down_sync(m, v, 1)",
            "__syncwarp()",
            "__syncthreads()",
            "__activemask()",
            "__shared__ float s[32];",
            "cg::sync(block)",
        ] {
            assert!(has_warp_tokens(trigger.as_bytes()), "{trigger}");
        }
        assert!(!has_warp_tokens(b"int main() { return 0; }"));
    }

    #[test]
    fn sniffs_cuda_in_headers() {
        assert!(looks_like_cuda(b"__device__ int f();"));
        assert!(!looks_like_cuda(b"int f();"));
    }
}
