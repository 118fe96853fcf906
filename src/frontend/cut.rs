//! A view too large for the parse budget is cut, not dropped.
//!
//! tree-sitter-cuda runs 3.55 to 5.4 parser operations per code token on
//! real code (54 files over 150 KB of cccl, CuPy, CUTLASS and FlashInfer:
//! CUB headers, CuTe atoms, generated attention kernels), so a view with
//! more tokens than the budget over 3.5 cannot be parsed within it. Rather
//! than parsing until the budget runs out (a second spent on a file then
//! reported as not analysed), such a view keeps a prefix of whole
//! top-level declarations holding at most a 12th of the budget in tokens,
//! and the rest is blanked. A generated kernel of thousands of lines costs
//! far more per token than the files that fit whole: at a 12th, the
//! slowest cut file of the corpora (FlashInfer's `alphamoe_nvfp4_sm100.cu`,
//! 3.5 MB) takes 0.54 s, and 11 of FlashInfer's 12 generated sampling
//! files (`cake_sampling_kernels_part*.cuh`, 4 MB, kernels of 45,000 to
//! 130,000 tokens) are analysed up to a cut after their first kernels; at
//! an 8th the slowest takes 0.67 s; at a 24th, 11 of the 12 sampling
//! files were not analysed at all. The namespaces and
//! `extern "C"` blocks still open at the cut keep their closing braces, so
//! the prefix parses as it did in the whole file; the blanked tail is one
//! gap the parser skips ([`super::gaps`]). The file is reported as
//! analysed only up to the cut, or as not analysed when not even its first
//! declaration fits.
//!
//! A cut falls after a `;` or a `}` whose enclosing braces are all
//! namespaces or linkage blocks: never inside a class, a function or an
//! initializer. Braces that do not balance leave the view whole (it then
//! fails the budget as before).

use super::configure::{CodeTok, TokKind};
use super::host_bodies::TRAILING;

/// Fewer parser operations per ten tokens than any real file measured: a
/// view with more tokens than ten times the budget over this cannot be
/// parsed within it.
pub const MIN_OPS_PER_TEN_TOKENS: u64 = 35;

/// The budget over this is the most tokens a cut view keeps.
pub const PREFIX_OPS_PER_TOKEN: u64 = 12;

/// Where a view is cut: its kept prefix ends at `at`; `closers` are the
/// offsets of the `}` that close the scopes still open there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cut {
    pub at: usize,
    pub closers: Vec<usize>,
}

/// The cut of a view whose code tokens are `toks` (tokens a pass blanked
/// are skipped: their first byte is now a space), for a parse budget of
/// `max_operations`; `None` when the view may fit whole, or has no place
/// to cut.
pub(super) fn plan(out: &[u8], toks: &[CodeTok], max_operations: u64) -> Option<Cut> {
    let fits = |tokens: usize| {
        (tokens as u64).saturating_mul(MIN_OPS_PER_TEN_TOKENS) / 10 <= max_operations
    };
    // Nearly every view fits before its blanked tokens are even set apart.
    if fits(toks.len()) {
        return None;
    }
    let live: Vec<&CodeTok> = toks.iter().filter(|t| out[t.start] != b' ').collect();
    if fits(live.len()) {
        return None;
    }
    let keep = usize::try_from(max_operations / PREFIX_OPS_PER_TOKEN).unwrap_or(usize::MAX);
    let text = |t: &CodeTok| &out[t.start..t.end];
    let is = |t: &CodeTok, s: &[u8]| t.kind == TokKind::Punct && text(t) == s;
    // Open braces: (token index, whether a cut may fall inside, whether
    // a cut may fall right after its `}`).
    let mut open: Vec<(usize, bool, bool)> = Vec::new();
    // The last place to cut within `keep` tokens: (token index after which
    // to cut, the open transparent braces there).
    let mut best: Option<(usize, Vec<usize>)> = None;
    let mut declaration_start = 0usize;
    for (i, t) in live.iter().enumerate() {
        if i >= keep {
            break;
        }
        let boundary = if is(t, b"{") {
            let decl = &live[declaration_start..i];
            let transparent = open.iter().all(|&(_, tr, _)| tr) && opens_namespace(decl, out);
            // A namespace or a function body ends at its `}`; a class, an
            // enum or an initializer at the `;` after it.
            let ends_at_brace = transparent || after_parameters(decl, out);
            open.push((i, transparent, ends_at_brace));
            declaration_start = i + 1;
            false
        } else if is(t, b"}") {
            let (_, _, ends_at_brace) = open.pop()?;
            declaration_start = i + 1;
            ends_at_brace
        } else if is(t, b";") {
            declaration_start = i + 1;
            true
        } else {
            false
        };
        if boundary && open.iter().all(|&(_, tr, _)| tr) {
            best = Some((i, open.iter().map(|&(k, _, _)| k).collect()));
        }
    }
    // No declaration ends within the prefix: nothing of the view fits, and
    // parsing it whole would only run out of budget.
    let Some((last, still_open)) = best else {
        return Some(Cut {
            at: 0,
            closers: Vec::new(),
        });
    };
    // The `}` matching each brace still open at the cut.
    let closers = matching_closers(&live, out, &still_open)?;
    Some(Cut {
        at: live[last].end,
        closers,
    })
}

/// Does a declaration with these tokens before its `{` open a namespace or
/// a linkage block (`extern "C"`)?
fn opens_namespace(decl: &[&CodeTok], out: &[u8]) -> bool {
    let text = |t: &CodeTok| &out[t.start..t.end];
    decl.iter().any(|t| text(t) == b"namespace")
        || matches!(decl, [e, l] if text(e) == b"extern" && l.kind == TokKind::Literal)
}

/// Is a `{` after these declaration tokens a function's body: after its
/// parameter list, past the qualifiers that may follow one
/// ([`TRAILING`], as host bodies are found)?
fn after_parameters(decl: &[&CodeTok], out: &[u8]) -> bool {
    let text = |t: &CodeTok| &out[t.start..t.end];
    decl.iter()
        .rev()
        .find(|t| !TRAILING.contains(&text(t)))
        .is_some_and(|t| t.kind == TokKind::Punct && text(t) == b")")
}

/// Offsets of the `}` closing the braces at token indices `opens` (in
/// order, innermost last); `None` if one is unclosed. One pass for all of
/// them, to the end of the view: a namespace spans the whole file, past the
/// 8,192 tokens `configure`'s `matching_brace` looks at.
fn matching_closers(live: &[&CodeTok], out: &[u8], opens: &[usize]) -> Option<Vec<usize>> {
    let mut closers = Vec::with_capacity(opens.len());
    let mut depth_of: Vec<usize> = Vec::new();
    let Some(&from) = opens.first() else {
        return Some(closers);
    };
    for (i, t) in live.iter().enumerate().skip(from) {
        if t.kind != TokKind::Punct {
            continue;
        }
        match &out[t.start..t.end] {
            b"{" => depth_of.push(i),
            b"}" => {
                let o = depth_of.pop()?;
                if opens.contains(&o) {
                    closers.push(t.start);
                }
            }
            _ => {}
        }
    }
    // Innermost closes first; the caller needs them ascending.
    (closers.len() == opens.len()).then_some(closers)
}

/// Blank `out` from the cut on, except the closing braces it keeps.
pub(super) fn apply(out: &mut [u8], cut: &Cut) {
    for (i, b) in out.iter_mut().enumerate().skip(cut.at) {
        if *b != b'\n' && *b != b'\r' && !cut.closers.contains(&i) {
            *b = b' ';
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::frontend::configure::configure_within;
    use crate::frontend::{MacroEnv, PpConfig};

    /// The view of `src` for a parse budget of `ops` operations.
    fn view(src: &str, ops: usize) -> crate::frontend::configure::ConfiguredView {
        let config = PpConfig::default();
        let mut env = MacroEnv::from_config(&config);
        configure_within(src.as_bytes(), &config, &mut env, ops)
    }

    fn kernels(n: usize) -> String {
        (0..n)
            .map(|i| {
                format!(
                    "__global__ void k{i}(float *p) {{\n  float v = p[threadIdx.x];\n  \
                     v = __shfl_xor_sync(0xffffffff, v, 1);\n  p[threadIdx.x] = v;\n}}\n"
                )
            })
            .collect()
    }

    #[test]
    fn a_view_that_fits_the_budget_is_whole() {
        let src = kernels(10);
        assert_eq!(view(&src, 1_000_000).cut_at, None);
    }

    #[test]
    fn a_view_past_the_budget_keeps_whole_declarations_and_its_namespaces_closers() {
        let src = format!("namespace a {{ namespace b {{\n{}}} }}\n", kernels(200));
        // 200 kernels of 40 tokens after the namespaces' 6: 8,006 tokens,
        // past a budget of 12,000 operations; the prefix keeps at most
        // 12,000 / 12 = 1,000 tokens, so 24 whole kernels.
        let v = view(&src, 12_000);
        let at = v.cut_at.expect("cut");
        assert!(
            src[..at].ends_with('}'),
            "cut after a body: {:?}",
            &src[at - 20..at]
        );
        let keep = 12_000 / super::PREFIX_OPS_PER_TOKEN as usize;
        let kept = src[..at].matches("__global__").count();
        assert_eq!(kept, (keep - 6) / 40);
        // Every later kernel is blank; the namespaces' braces stay.
        assert_eq!(v.text.matches("__global__").count(), kept);
        assert!(v.text.trim_end().ends_with("} }"));
        let tree = crate::frontend::parse_text_within(&v.text, 1_000_000).expect("parses");
        assert!(
            !tree.root_node().has_error(),
            "{}",
            tree.root_node().to_sexp()
        );
    }

    #[test]
    fn a_class_is_never_cut_inside() {
        let members: String = (0..400)
            .map(|i| format!("  __device__ int m{i}(int x) {{ return x + {i}; }}\n"))
            .collect();
        let src = format!("struct Big {{\n{members}}};\n{}", kernels(10));
        let v = view(&src, 12_000);
        // The class alone is past the prefix: nothing fits.
        assert_eq!(v.cut_at, Some(0));
        assert!(v.text.trim().is_empty());
    }
}
