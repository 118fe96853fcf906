//! The preprocessor configuration, and which regions of a syntax tree are
//! compiled for it.
//!
//! Files are parsed in their configured view (`configure.rs`), where the
//! branches not taken are already blank; this oracle answers the same
//! question for trees that still hold conditionals (macro bodies, callers
//! that parse raw text). It evaluates `#if` conditions abstractly: the
//! toolkit and architecture macros get the configuration's values, every
//! other identifier is unknown, and a region is *dead* only when its
//! condition is false whatever the unknowns are.

use crate::frontend::Field as _;
use tree_sitter::Node;

use super::node_text;

/// The compilation environment regions are judged against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreprocEnv {
    /// `__CUDA_ARCH__` of the configured (lowest) target, e.g. 700 for sm_70.
    pub min_arch: i128,
    /// The toolkit compiled with (config `cuda-version`): `CUDA_VERSION` is
    /// `major * 1000 + minor * 10`, `__CUDACC_VER_MAJOR__` is `major`.
    pub cuda_version: (u32, u32),
    /// `-D NAME[=VALUE]` and config `defines`, in order.
    pub defines: Vec<String>,
}

/// The toolkit assumed when none is configured: a current one.
pub const DEFAULT_CUDA_VERSION: (u32, u32) = (12, 8);

impl Default for PreprocEnv {
    fn default() -> Self {
        PreprocEnv {
            min_arch: 700,
            cuda_version: DEFAULT_CUDA_VERSION,
            defines: Vec::new(),
        }
    }
}

impl PreprocEnv {
    /// `CUDA_VERSION` for this configuration.
    pub fn cuda_version_number(&self) -> i128 {
        i128::from(self.cuda_version.0) * 1000 + i128::from(self.cuda_version.1) * 10
    }
}

/// Parse a `cuda-version` value: `"12.8"` or `"12"`.
pub fn parse_cuda_version(s: &str) -> Option<(u32, u32)> {
    let (major, minor) = match s.trim().split_once('.') {
        Some((a, b)) => (a.parse().ok()?, b.parse().ok()?),
        None => (s.trim().parse().ok()?, 0),
    };
    (1..=99)
        .contains(&major)
        .then_some((major, minor))
        .filter(|_| minor <= 9)
}

/// Answers "is this node in a region the targets never compile?".
pub trait RegionOracle {
    fn is_dead(&self, node: Node, text: &str) -> bool;
}

impl RegionOracle for PreprocEnv {
    fn is_dead(&self, node: Node, text: &str) -> bool {
        let mut child = node;
        // One descent from the root, not a loop of `parent()` (quadratic).
        for anc in super::ancestors(node) {
            let taken = match anc.kind() {
                "preproc_if" | "preproc_elif" => {
                    let cond = anc.field("condition");
                    let in_alternative = anc.field("alternative").is_some_and(|alt| alt == child);
                    match cond {
                        Some(c) if c == child => Tri::Unknown,
                        Some(c) if in_alternative => self.eval(c, text).truthy().not(),
                        Some(c) => self.eval(c, text).truthy(),
                        None => Tri::Unknown,
                    }
                }
                "preproc_ifdef" | "preproc_elifdef" => {
                    let in_alternative = anc.field("alternative").is_some_and(|alt| alt == child);
                    let negated = anc
                        .child(0)
                        .map(|k| node_text(k, text).contains("ndef"))
                        .unwrap_or(false);
                    let defined = anc
                        .field("name")
                        .map(|n| self.defined(node_text(n, text)))
                        .unwrap_or(Tri::Unknown);
                    let cond = if negated { defined.not() } else { defined };
                    if in_alternative { cond.not() } else { cond }
                }
                _ => Tri::Unknown,
            };
            if taken == Tri::False {
                return true;
            }
            child = anc;
        }
        false
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tri {
    True,
    False,
    Unknown,
}

impl Tri {
    fn not(self) -> Tri {
        match self {
            Tri::True => Tri::False,
            Tri::False => Tri::True,
            Tri::Unknown => Tri::Unknown,
        }
    }
}

/// An abstract preprocessor value: an inclusive integer range, or unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Val {
    Range(i128, i128),
    Unknown,
}

impl Val {
    fn exact(v: i128) -> Val {
        Val::Range(v, v)
    }
    fn from_tri(t: Tri) -> Val {
        match t {
            Tri::True => Val::exact(1),
            Tri::False => Val::exact(0),
            Tri::Unknown => Val::Range(0, 1),
        }
    }
    fn truthy(self) -> Tri {
        match self {
            Val::Range(0, 0) => Tri::False,
            Val::Range(lo, hi) if lo > 0 || hi < 0 => Tri::True,
            _ => Tri::Unknown,
        }
    }
}

impl PreprocEnv {
    fn defined(&self, name: &str) -> Tri {
        match name {
            // Regions are judged for the device pass of a modern toolkit.
            "__CUDA_ARCH__"
            | "__CUDACC__"
            | "CUDA_VERSION"
            | "CUDART_VERSION"
            | "__CUDACC_VER_MAJOR__"
            | "__NVCC__" => Tri::True,
            _ => Tri::Unknown,
        }
    }

    fn identifier(&self, name: &str) -> Val {
        match name {
            "CUDA_VERSION" | "CUDART_VERSION" | "__CUDART_API_VERSION" => {
                Val::exact(self.cuda_version_number())
            }
            "__CUDACC_VER_MAJOR__" => Val::exact(i128::from(self.cuda_version.0)),
            "__CUDACC_VER_MINOR__" => Val::exact(i128::from(self.cuda_version.1)),
            "__CUDA_ARCH__" => Val::exact(self.min_arch),
            "true" => Val::exact(1),
            "false" => Val::exact(0),
            _ => Val::Unknown,
        }
    }

    /// Evaluate a `#if` condition. Iterative over an explicit stack, since
    /// conditions come straight from untrusted input.
    fn eval(&self, root: Node, text: &str) -> Val {
        enum Task<'t> {
            Visit(Node<'t>),
            Apply(Node<'t>),
        }
        let mut tasks = vec![Task::Visit(root)];
        let mut values: Vec<Val> = Vec::new();
        while let Some(task) = tasks.pop() {
            if tasks.len() > 10_000 {
                return Val::Unknown;
            }
            match task {
                Task::Visit(n) => match n.kind() {
                    "number_literal" => values.push(parse_int(node_text(n, text))),
                    "identifier" => values.push(self.identifier(node_text(n, text))),
                    "true" => values.push(Val::exact(1)),
                    "false" => values.push(Val::exact(0)),
                    "preproc_defined" => {
                        let name = n.named_child(0).map(|c| node_text(c, text)).unwrap_or("");
                        values.push(Val::from_tri(self.defined(name)));
                    }
                    "parenthesized_expression" => match n.named_child(0) {
                        Some(inner) => tasks.push(Task::Visit(inner)),
                        None => values.push(Val::Unknown),
                    },
                    "unary_expression" | "binary_expression" => {
                        tasks.push(Task::Apply(n));
                        let mut kids: Vec<Node> = Vec::new();
                        let mut c = n.walk();
                        for k in n.named_children(&mut c) {
                            kids.push(k);
                        }
                        for k in kids.into_iter().rev() {
                            tasks.push(Task::Visit(k));
                        }
                    }
                    _ => values.push(Val::Unknown),
                },
                Task::Apply(n) => {
                    let op = n
                        .field("operator")
                        .map(|o| node_text(o, text))
                        .unwrap_or("");
                    let v = if n.kind() == "unary_expression" {
                        let a = values.pop().unwrap_or(Val::Unknown);
                        apply_unary(op, a)
                    } else {
                        let b = values.pop().unwrap_or(Val::Unknown);
                        let a = values.pop().unwrap_or(Val::Unknown);
                        apply_binary(op, a, b)
                    };
                    values.push(v);
                }
            }
        }
        values.pop().unwrap_or(Val::Unknown)
    }
}

fn parse_int(lit: &str) -> Val {
    let digits = lit.trim_end_matches(['u', 'U', 'l', 'L']);
    let parsed = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        i128::from_str_radix(hex, 16).ok()
    } else {
        digits.parse::<i128>().ok()
    };
    parsed.map(Val::exact).unwrap_or(Val::Unknown)
}

fn apply_unary(op: &str, a: Val) -> Val {
    match (op, a) {
        ("!", a) => Val::from_tri(a.truthy().not()),
        ("-", Val::Range(lo, hi)) => Val::Range(-hi, -lo),
        ("+", a) => a,
        _ => Val::Unknown,
    }
}

fn apply_binary(op: &str, a: Val, b: Val) -> Val {
    match op {
        "&&" => Val::from_tri(match (a.truthy(), b.truthy()) {
            (Tri::False, _) | (_, Tri::False) => Tri::False,
            (Tri::True, Tri::True) => Tri::True,
            _ => Tri::Unknown,
        }),
        "||" => Val::from_tri(match (a.truthy(), b.truthy()) {
            (Tri::True, _) | (_, Tri::True) => Tri::True,
            (Tri::False, Tri::False) => Tri::False,
            _ => Tri::Unknown,
        }),
        _ => {
            let (Val::Range(alo, ahi), Val::Range(blo, bhi)) = (a, b) else {
                return Val::Unknown;
            };
            let cmp = |always: bool, never: bool| {
                Val::from_tri(if always {
                    Tri::True
                } else if never {
                    Tri::False
                } else {
                    Tri::Unknown
                })
            };
            match op {
                "<" => cmp(ahi < blo, alo >= bhi),
                "<=" => cmp(ahi <= blo, alo > bhi),
                ">" => cmp(alo > bhi, ahi <= blo),
                ">=" => cmp(alo >= bhi, ahi < blo),
                "==" => cmp(
                    alo == ahi && blo == bhi && alo == blo,
                    ahi < blo || bhi < alo,
                ),
                "!=" => cmp(
                    ahi < blo || bhi < alo,
                    alo == ahi && blo == bhi && alo == blo,
                ),
                "+" => Val::Range(alo.saturating_add(blo), ahi.saturating_add(bhi)),
                "-" => Val::Range(alo.saturating_sub(bhi), ahi.saturating_sub(blo)),
                _ => Val::Unknown,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::{Walk, parse_text, preorder};

    /// Is the first call to `probe()` in `src` in a dead region?
    fn probe_dead(src: &str) -> bool {
        let tree = parse_text(src).unwrap();
        let mut found = None;
        preorder(tree.root_node(), |n| {
            if n.kind() == "call_expression" && node_text(n, src).starts_with("probe") {
                found.get_or_insert(n);
            }
            Walk::Descend
        });
        PreprocEnv::default().is_dead(found.expect("probe call"), src)
    }

    fn in_body(guard: &str) -> String {
        format!("__device__ void f() {{\n{guard}\n  probe();\n#endif\n}}\n")
    }

    #[test]
    fn old_toolkit_and_arch_guards_are_dead() {
        for g in [
            "#if CUDA_VERSION < 9000",
            "#if __CUDACC_VER_MAJOR__ < 9",
            "#if __CUDA_ARCH__ < 700",
            "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 300",
            "#if (CUDART_VERSION < 9000) || (__CUDA_ARCH__ < 700)",
            "#ifndef __CUDA_ARCH__",
        ] {
            assert!(probe_dead(&in_body(g)), "{g}");
        }
    }

    #[test]
    fn modern_or_unknown_guards_stay_live() {
        for g in [
            "#if CUDA_VERSION >= 9000",
            "#if __CUDA_ARCH__ >= 300",
            "#if MY_FLAG < 9000",
            "#ifdef USE_FAST_PATH",
            "#if CUDA_VERSION < 9000 || MY_FLAG",
        ] {
            assert!(!probe_dead(&in_body(g)), "{g}");
        }
    }

    #[test]
    fn else_of_modern_guard_is_dead() {
        let src = "__device__ void f() {\n#if CUDA_VERSION >= 9000\n  ok();\n#else\n  probe();\n#endif\n}\n";
        assert!(probe_dead(src));
        let src = "__device__ void f() {\n#if CUDA_VERSION < 9000\n  old();\n#else\n  probe();\n#endif\n}\n";
        assert!(!probe_dead(src));
        let src = "#if __CUDA_ARCH__ >= 700\n#elif FOO\nvoid g() { probe(); }\n#endif\n";
        assert!(probe_dead(src));
    }
}
