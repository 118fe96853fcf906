//! Launches made by function-like macros: the macro's use in a host
//! function is the launch. A macro launches where its body holds `<<<` or a
//! runtime launch (`cudaLaunchKernel…`), or uses a macro that launches
//! (PyTorch extensions' shape: `DISPATCH(…, [&] { LAUNCH(T); })`, `LAUNCH`
//! choosing among `LAUNCH_ONE` uses whose body calls `cudaLaunchKernelEx`).

use rustc_hash::FxHashMap as HashMap;
use tree_sitter::Node;

use super::launch::{CallIndex, Configs, launch_sites};
use super::{LaunchSite, expand_args};
use crate::frontend::configure::{identifiers, launches_in_body};
use crate::frontend::macros::{Macro, MacroTable};
use crate::frontend::{Field as _, Walk, node_text, preorder};

/// Bytes of macro-expanded host code a file's launch macros may make
/// (each host function using one is parsed again with its uses expanded):
/// bounded, so a generated file of many uses stays linear.
pub(super) const MACRO_LAUNCH_BYTES: usize = 1 << 20;

/// How deep macros that launch may use one another: the preprocessor's
/// own bound is its input, ours a small number (vLLM's launchers nest 3).
const MAX_NESTING: usize = 4;

/// Launches written in the body of a function-like macro and made where a
/// host function uses it (`LAUNCH_SOFTMAX(4);` with `#define
/// LAUNCH_SOFTMAX(n) softmax<T, n><<<grid, block>>>(…)`, DeepSpeed's
/// shape), directly or through the macros it uses. The host function is
/// parsed again with each such use replaced by its expansion (arguments as
/// written, nested launching macros expanded too), its rows kept (so a
/// launch's line is its use's line) and its locals in view (`dim3
/// block(256)`, `constexpr int kThreads = 256`); only the launches inside
/// expansions are taken, the others being the file's own. `budget` (bytes,
/// see [`MACRO_LAUNCH_BYTES`]) is shared by a file's host functions.
pub(super) fn macro_launch_sites(
    def: Node,
    text: &str,
    macros: &MacroTable,
    consts: &HashMap<String, i64>,
    budget: &mut usize,
) -> Vec<LaunchSite> {
    let mut launching = Launching::new(macros);
    // Each use: the bytes from the macro's name to its `)`, and what
    // they expand to.
    let mut uses: Vec<(usize, usize, String)> = Vec::new();
    preorder(def, |n| {
        // `LAUNCH(k, 4);` is a call; `LAUNCH(float);` parses as the
        // declaration of a parenthesized `float` of type `LAUNCH`.
        let name = match n.kind() {
            "call_expression" => n.field("function").filter(|f| f.kind() == "identifier"),
            "declaration" => n.field("type").filter(|t| t.kind() == "type_identifier"),
            _ => None,
        };
        if let Some(name) = name
            && let Some(m) = launching.get(node_text(name, text))
            && let Some((args, end)) = call_arguments(text, name.end_byte())
            && end <= n.end_byte()
            && let Some(expansion) = expand_args(m, &args, false)
        {
            let expansion = launching.expand_nested(&expansion, 1, budget);
            uses.push((name.start_byte(), end, expansion));
            return Walk::Skip;
        }
        Walk::Descend
    });
    if uses.is_empty() {
        return Vec::new();
    }
    // The function's text with each use expanded, on the rows it had.
    let row = def.start_position().row;
    let mut snippet = "\n".repeat(row);
    let mut regions: Vec<(usize, usize)> = Vec::new();
    let mut at = def.start_byte();
    for (start, end, expansion) in &uses {
        snippet.push_str(&text[at..*start]);
        let from = snippet.len();
        snippet.extend(expansion.chars().map(|c| if c == '\n' { ' ' } else { c }));
        regions.push((from, snippet.len()));
        let replaced = &text[*start..*end];
        snippet.extend(std::iter::repeat_n('\n', replaced.matches('\n').count()));
        at = *end;
    }
    snippet.push_str(&text[at..def.end_byte()]);
    let cost = snippet.len() - row;
    if cost > *budget {
        *budget = 0;
        return Vec::new();
    }
    *budget -= cost;
    let Some(tree) = crate::frontend::parse_text(&snippet) else {
        return Vec::new();
    };
    let mut launches: Vec<Node> = Vec::new();
    super::collect_launches(tree.root_node(), &snippet, &mut launches);
    launches.retain(|call| (regions.iter()).any(|&(s, e)| (s..e).contains(&call.start_byte())));
    let calls = CallIndex::new(&snippet);
    let configs =
        Configs::gather(tree.root_node(), &launches, &snippet).with_file_constants(consts);
    (launches.iter())
        .flat_map(|&l| launch_sites(l, &snippet, consts, &calls, &configs))
        .collect()
}

/// The file's function-like macros that launch, decided once each.
struct Launching<'m> {
    macros: &'m MacroTable,
    decided: HashMap<String, bool>,
}

impl<'m> Launching<'m> {
    fn new(macros: &'m MacroTable) -> Self {
        Launching {
            macros,
            decided: HashMap::default(),
        }
    }

    /// The function-like macro `name`, where it launches. Bodies that
    /// stringify or paste (`#`) are not expanded.
    fn get(&mut self, name: &str) -> Option<&'m Macro> {
        let macros = self.macros;
        let m = macros.get(name)?;
        (self.launches(m, 0)).then_some(m)
    }

    fn launches(&mut self, m: &Macro, depth: usize) -> bool {
        if m.params.is_none() || m.body.contains('#') {
            return false;
        }
        if let Some(&known) = self.decided.get(&m.name) {
            return known;
        }
        // Not yet decided: a cycle through `m` (or one too deep) adds no
        // launch of its own.
        self.decided.insert(m.name.clone(), false);
        let macros = self.macros;
        let verdict = launches_in_body(&m.body)
            || (depth < MAX_NESTING
                && identifiers(m.body.as_bytes()).into_iter().any(|(a, b)| {
                    (m.body.get(a..b).and_then(|id| macros.get(id)))
                        .is_some_and(|inner| self.launches(inner, depth + 1))
                }));
        self.decided.insert(m.name.clone(), verdict);
        verdict
    }

    /// `text` (an expansion) with the uses of launching macros in it
    /// expanded in turn, to [`MAX_NESTING`]; each expansion's bytes are
    /// taken from `budget`, and none is made once it is spent.
    fn expand_nested(&mut self, text: &str, depth: usize, budget: &mut usize) -> String {
        if depth >= MAX_NESTING {
            return text.to_owned();
        }
        let mut out = String::with_capacity(text.len());
        let mut copied = 0;
        for (start, end) in identifiers(text.as_bytes()) {
            // Names inside an argument list already expanded.
            if start < copied {
                continue;
            }
            let Some(m) = self.get(&text[start..end]) else {
                continue;
            };
            let Some((args, past)) = call_arguments(text, end) else {
                continue;
            };
            let Some(expansion) = expand_args(m, &args, false) else {
                continue;
            };
            if expansion.len() > *budget {
                *budget = 0;
                break;
            }
            *budget -= expansion.len();
            out.push_str(&text[copied..start]);
            out.push_str(&self.expand_nested(&expansion, depth + 1, budget));
            copied = past;
        }
        out.push_str(&text[copied..]);
        out
    }
}

/// The end of the literal opening at `at` (past its closing quote).
fn skip_literal(bytes: &[u8], at: usize) -> usize {
    let quote = bytes[at];
    let mut i = at + 1;
    while i < bytes.len() && bytes[i] != quote {
        i += if bytes[i] == b'\\' { 2 } else { 1 };
    }
    (i + 1).min(bytes.len())
}

/// The arguments of a macro call whose name ends at `at`: split at commas
/// outside parentheses, as the preprocessor splits them, and the offset
/// past the closing `)`. `None` where no `(` follows.
fn call_arguments(text: &str, at: usize) -> Option<(Vec<&str>, usize)> {
    let bytes = text.as_bytes();
    let mut i = at;
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    if bytes.get(i) != Some(&b'(') {
        return None;
    }
    let mut args = Vec::new();
    let mut depth = 0usize;
    let mut arg_start = i + 1;
    i += 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'\'' => {
                i = skip_literal(bytes, i);
                continue;
            }
            b'(' => depth += 1,
            b')' if depth == 0 => {
                let last = text[arg_start..i].trim();
                if !(args.is_empty() && last.is_empty()) {
                    args.push(last);
                }
                return Some((args, i + 1));
            }
            b')' => depth -= 1,
            b',' if depth == 0 => {
                args.push(text[arg_start..i].trim());
                arg_start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(src: &str) -> MacroTable {
        let tree = crate::frontend::parse_text(src).expect("parses");
        MacroTable::collect(src, tree.root_node())
    }

    #[test]
    fn macros_launch_directly_or_through_the_macros_they_use() {
        let t = table(
            "#define ONE(T) cudaLaunchKernelEx(&cfg, k<T>, p)\n\
             #define TWO(T) do { if (h) { ONE(half); } else { ONE(T); } } while (0)\n\
             #define CHEVRONS(n) k<n><<<g, b>>>(p)\n\
             #define LOOP_A(x) LOOP_B(x)\n#define LOOP_B(x) LOOP_A(x)\n\
             #define PLAIN(x) ((x) + 1)\n#define STR(x) #x ONE(x)\n",
        );
        let mut l = Launching::new(&t);
        for name in ["ONE", "TWO", "CHEVRONS"] {
            assert!(l.get(name).is_some(), "{name}");
        }
        for name in ["LOOP_A", "LOOP_B", "PLAIN", "STR", "UNKNOWN"] {
            assert!(l.get(name).is_none(), "{name}");
        }
    }

    #[test]
    fn nested_uses_are_expanded_within_the_budget() {
        let t = table(
            "#define ONE(T) launch_ex(k<T>, (1, 2))\n\
             #define TWO(T) ONE(T); ONE(\"(,\")\n\
             #define ONE_RT(T) cudaLaunchKernel(k<T>, g, b, a, 0, 0)\n",
        );
        let mut l = Launching::new(&t);
        // ONE does not launch: it stays as written.
        let mut budget = 1 << 10;
        assert_eq!(l.expand_nested("TWO(float)", 1, &mut budget), "TWO(float)");
        let mut budget = 1 << 10;
        assert_eq!(
            l.expand_nested("x; ONE_RT( int ) y", 1, &mut budget),
            "x; cudaLaunchKernel(k<int>, g, b, a, 0, 0) y"
        );
        let mut budget = 4;
        assert_eq!(
            l.expand_nested("ONE_RT(int)", 1, &mut budget),
            "ONE_RT(int)"
        );
        assert_eq!(budget, 0);
        assert_eq!(
            call_arguments("M(a, f(b, c), \"x,)\")", 1),
            Some((vec!["a", "f(b, c)", "\"x,)\""], 20))
        );
        assert_eq!(call_arguments("M()", 1), Some((vec![], 3)));
        assert_eq!(call_arguments("M x", 1), None);
        assert_eq!(call_arguments("M(a, (b", 1), None);
    }
}
