//! Lowering: tree-sitter-cuda syntax → [`Module`].
//!
//! Statements are lowered with an explicit work list (10,000 nested blocks
//! cost heap, not stack). Expressions recurse, but only to
//! [`MAX_EXPR_DEPTH`]; anything deeper becomes `Unknown`.
//!
//! Function-like macros used as calls are expanded at their use site (their
//! body is re-parsed with the arguments substituted), so primitives and masks
//! hidden in macros are seen. Expanded code carries the use site's span.

use crate::frontend::Field as _;
use rustc_hash::FxHashMap as HashMap;

use tree_sitter::{Node, Tree};

mod asm;
mod butterfly;
mod callables;
mod classes;
mod comparisons;
mod constants;
mod coop;
mod fields;
mod launch;
mod macro_launch;
mod range_for;
mod sizes;
mod tags;
mod templates;

use tags::tag_of_type;

use super::*;
use crate::frontend::macros::Macro;
use crate::frontend::{
    ParsedFile, PreprocEnv, RegionOracle, Walk, node_text, parse_text, preorder,
};
pub use callables::bind_callables;
use constants::fold_constants;
use launch::launch_sites;
pub use launch::{Extents, StatedLaunches, stated_launches};
pub use templates::{instantiate_from_run, instantiate_linked};

pub const MAX_EXPR_DEPTH: usize = 200;
const MAX_MACRO_DEPTH: usize = 4;
/// Blocks governed by macro uses, nested (`LOOP(i, n) { LOOP(j, m) { … } }`):
/// each level lowers its block from within the use's lowering.
const MAX_GOVERNED_DEPTH: usize = 16;

/// Lower every device function, kernel and device lambda in the file, and
/// collect its launch sites and file-level constants.
pub fn lower_file(file: &ParsedFile, env: &PreprocEnv) -> Module {
    let text = file.source.text.as_str();
    let root = file.tree.root_node();
    let mut module = Module {
        path: file.source.path.clone(),
        ..Module::default()
    };
    let mut defs: Vec<(Node, Vec<String>, Option<std::sync::Arc<str>>)> = Vec::new();
    // The namespaces open at the node being visited: (end byte, name).
    // Shared: every function and call of a namespace holds the same text.
    let mut namespaces: Vec<(usize, std::sync::Arc<str>)> = Vec::new();
    let mut launches: Vec<Node> = Vec::new();
    let mut hosts: Vec<Node> = Vec::new();
    let mut shape_getters: Vec<Node> = Vec::new();
    let mut explicit_instances: Vec<Node> = Vec::new();
    let mut const_decls: Vec<Node> = Vec::new();
    let mut classes = classes::Classes::default();
    let mut scopes = constants::Scopes::default();
    let mut aliases = FileAliases::default();
    // `using namespace cute;` anywhere in the file: its unscoped shape
    // queries (`size(t)`) are CuTe's.
    let mut cute_unscoped = false;
    preorder(root, |n| match n.kind() {
        "function_definition" => {
            if !env.is_dead(n, text) {
                if constants::constant_getter(n, text).is_some() {
                    const_decls.push(n);
                }
                let tparams = template_values_for(n, text);
                if is_device_code(n, text) {
                    namespaces.retain(|&(end, _)| end > n.start_byte());
                    let namespace = namespaces
                        .last()
                        .map(|(_, name)| std::sync::Arc::clone(name));
                    defs.push((n, tparams, namespace));
                } else {
                    // Host code: only its launch sites and stated block
                    // shapes matter.
                    collect_launches(n, text, &mut launches);
                    hosts.push(n);
                    if launch::is_block_shape_getter(n, text) {
                        shape_getters.push(n);
                    }
                }
            }
            Walk::Skip
        }
        "declaration" => {
            if is_const_decl(n, text) && !env.is_dead(n, text) {
                const_decls.push(n);
            }
            global_names(n, text, &mut module.globals);
            Walk::Skip
        }
        "enumerator_list" => {
            const_decls.push(n);
            Walk::Skip
        }
        "template_instantiation" => {
            if !env.is_dead(n, text) {
                explicit_instances.push(n);
            }
            Walk::Skip
        }
        "class_specifier" | "struct_specifier" => {
            scopes.note_class(n, text);
            namespaces.retain(|&(end, _)| end > n.start_byte());
            let namespace = namespaces.last().map(|(_, name)| &**name);
            if let Some((name, info)) = classes::collect_class(n, text, namespace) {
                classes.insert(name, info);
            }
            Walk::Descend
        }
        "enum_specifier" => {
            scopes.note_enum(n, text);
            Walk::Descend
        }
        "using_declaration" => {
            cute_unscoped |= library::names_cute_namespace(node_text(n, text));
            Walk::Skip
        }
        "alias_declaration" | "type_definition" => {
            if !env.is_dead(n, text) && at_namespace_scope(n) {
                aliases.note(declared_aliases(n, text));
            }
            // `typedef struct { … } Pair;` declares a class too.
            Walk::Descend
        }
        "namespace_definition" => {
            namespaces.retain(|&(end, _)| end > n.start_byte());
            let name = n
                .field("name")
                .map_or("", |m| last_segment(node_text(m, text)));
            namespaces.push((n.end_byte(), name.into()));
            Walk::Descend
        }
        // `static constexpr int HALF = 16;` in a class: a file constant.
        "field_declaration" => {
            if is_const_decl(n, text) && n.field("default_value").is_some() {
                const_decls.push(n);
            }
            // Error recovery can put whole definitions inside one.
            Walk::Descend
        }
        "comment" | "string_literal" | "preproc_def" | "preproc_function_def" => Walk::Skip,
        _ => Walk::Descend,
    });

    let constants = fold_constants(file, &const_decls, &scopes);
    let file_aliases = aliases.into_map();
    let mut cx = Lowerer {
        file,
        env,
        text,
        constants: &constants,
        classes: &classes,
        file_aliases: &file_aliases,
        cute_unscoped,
        module_fns: Vec::new(),
    };
    for (def, tparams, namespace) in defs {
        let lambdas = cx.module_fns.len();
        if let Some(mut f) = cx.lower_function(def, tparams, namespace.as_deref()) {
            if f.class.is_none() {
                mark_free_calls(&mut f);
            }
            if let Some(home) = &namespace {
                set_call_home(&mut f, home);
                for l in &mut cx.module_fns[lambdas..] {
                    set_call_home(l, home);
                }
            }
            f.namespace = namespace;
            cx.module_fns.push(f);
        }
    }
    let mut functions = cx.module_fns;
    for f in &mut functions {
        fields::model_shared_struct_fields(f);
    }
    templates::instantiate(&mut functions, &constants);
    module.functions = functions;
    module.constants = constants;
    module.index_functions();
    let calls = launch::CallIndex::new(text);
    let configs = launch::Configs::gather(root, &launches, text);
    for l in launches {
        module
            .launches
            .extend(launch_sites(l, text, &module.constants, &calls, &configs));
    }
    let mut budget = macro_launch::MACRO_LAUNCH_BYTES;
    for h in hosts {
        let sites =
            macro_launch::macro_launch_sites(h, text, &file.macros, &module.constants, &mut budget);
        module.launches.extend(sites);
    }
    let explicit: Vec<(String, Vec<TemplateArg>)> = explicit_instances
        .into_iter()
        .filter_map(|n| launch::explicit_instantiation(n, text, &module.constants))
        .collect();
    if templates::instantiate_launched(&mut module, &explicit) {
        // The kernel instances' calls may now deduce what the template's
        // could not (a tile of the size an instance binds).
        templates::instantiate(&mut module.functions, &module.constants);
    }
    module.index_functions();
    for g in shape_getters {
        if let (Some(class), Some(shape)) = (
            classes::class_of(g, text),
            launch::returned_dim3(g, text, &module.constants),
        ) {
            let line = file.source.line_col(g.start_byte()).0;
            module
                .class_block_shapes
                .entry(class)
                .or_insert((shape, line));
        }
    }
    module
}

/// Mark `f`'s calls as written in a free function.
fn mark_free_calls(f: &mut Function) {
    for e in &mut f.exprs {
        if let ExprKind::Call(c) = &mut e.kind {
            c.from_free_function = true;
        }
    }
}

/// Give `f`'s free calls (scoped or not) the namespace they are written in.
fn set_call_home(f: &mut Function, home: &std::sync::Arc<str>) {
    for e in &mut f.exprs {
        if let ExprKind::Call(c) = &mut e.kind
            && c.receiver.is_none()
        {
            c.home = Some(std::sync::Arc::clone(home));
        }
    }
}

/// Is this function compiled for the device? Either a `__device__` /
/// `__global__` keyword, an attribute macro that says so (`_CCCL_DEVICE`,
/// `HOST_DEVICE`, …: projects hide the keywords behind macros), or a body
/// that uses device-only constructs (a function that calls
/// `__shfl_down_sync` or reads `threadIdx` only compiles for the device).
fn is_device_code(def: Node, text: &str) -> bool {
    device_kind(def, text).is_some()
}

fn device_kind(def: Node, text: &str) -> Option<FnKind> {
    let body_start = def
        .field("body")
        .map(|b| b.start_byte())
        .unwrap_or(def.end_byte());
    let decl_start = def
        .field("declarator")
        .map(|d| d.start_byte())
        .unwrap_or(body_start);
    use crate::frontend::host_bodies::{
        DEVICE_ONLY_TEXT, DEVICE_SPECIFIER_TEXT, KERNEL_SPECIFIER_TEXT,
    };
    let prefix = text.get(def.start_byte()..decl_start).unwrap_or("");
    if KERNEL_SPECIFIER_TEXT.iter().any(|t| prefix.contains(t)) {
        return Some(FnKind::Kernel);
    }
    if DEVICE_SPECIFIER_TEXT.iter().any(|t| prefix.contains(t)) {
        return Some(FnKind::Device);
    }
    let body = text.get(body_start..def.end_byte()).unwrap_or("");
    if DEVICE_ONLY_TEXT.iter().any(|t| body.contains(t)) {
        return Some(FnKind::Device);
    }
    None
}

fn find_child<'t>(n: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut c = n.walk();
    n.children(&mut c).find(|k| k.kind() == kind)
}

fn template_values_for(def: Node, text: &str) -> Vec<String> {
    match def.parent() {
        Some(parent) if parent.kind() == "template_declaration" => template_params(parent, text),
        _ => Vec::new(),
    }
}

/// The non-type parameters of a `template_declaration` (`template <int N>`).
fn template_params(decl: Node, text: &str) -> Vec<String> {
    template_params_where(decl, text, |_| true)
}

/// The parameter list of the template a definition opens with
/// (`template <int N, typename T>` before it).
pub(super) fn opening_template_params(def: Node) -> Option<Node> {
    def.parent()
        .filter(|p| p.kind() == "template_declaration")
        .and_then(|p| p.field("parameters"))
}

/// The positions of the non-type parameters in the template a definition
/// opens with, type parameters counted.
fn template_positions_for(def: Node, text: &str) -> Vec<usize> {
    let params = opening_template_params(def);
    let list = params.map(|p| non_type_params(p, text)).unwrap_or_default();
    list.into_iter().map(|(i, ..)| i).collect()
}

/// The parameters of a template parameter list whose kind is one of
/// `kinds`, each with its position among all of them.
fn positioned_params<'t>(params: Node<'t>, kinds: &[&str]) -> Vec<(usize, Node<'t>)> {
    let mut c = params.walk();
    (params.named_children(&mut c))
        .filter(|p| p.kind() != "comment")
        .enumerate()
        .filter(|(_, p)| kinds.contains(&p.kind()))
        .collect()
}

/// The name a type parameter declares (`Policy` of `class Policy = Full`).
pub(super) fn type_param_name<'t>(p: Node<'t>, text: &'t str) -> Option<&'t str> {
    let name = p.field("name").or_else(|| {
        let mut c = p.walk();
        p.named_children(&mut c)
            .find(|k| k.kind() == "type_identifier")
    })?;
    Some(node_text(name, text))
}

/// The type parameters of a template parameter list, at their positions
/// (type and non-type parameters counted alike).
pub(super) fn type_params_of(params: Node, text: &str) -> Vec<(String, usize)> {
    let kinds = [
        "type_parameter_declaration",
        "optional_type_parameter_declaration",
    ];
    (positioned_params(params, &kinds).into_iter())
        .filter_map(|(at, p)| Some((type_param_name(p, text)?.to_owned(), at)))
        .collect()
}

/// The non-type parameters of a template parameter list, each with its
/// position among all of them, type parameters counted, and its default as
/// written.
pub(super) fn non_type_params(params: Node, text: &str) -> Vec<(usize, String, Option<String>)> {
    let kinds = ["parameter_declaration", "optional_parameter_declaration"];
    (positioned_params(params, &kinds).into_iter())
        .filter_map(|(i, p)| {
            let name = node_text(p.field("declarator")?, text).to_owned();
            let default = p
                .field("default_value")
                .map(|d| node_text(d, text).to_owned());
            Some((i, name, default))
        })
        .collect()
}

/// The `bool` non-type parameters of the template a definition opens with.
fn flag_params_for(def: Node, text: &str) -> Vec<String> {
    match def.parent() {
        Some(parent) if parent.kind() == "template_declaration" => {
            template_params_where(parent, text, |ty| ty == "bool")
        }
        _ => Vec::new(),
    }
}

/// The integer defaults of the template a definition opens with
/// (`template <int W, int kBase = 0>` → `kBase = 0`). Not those the
/// function's parameter types name (`Vec<N> v`): a call deduces them.
/// The integer defaults of a template's values that its parameters do not
/// deduce: literals, and the file's constants (`int width = WARP_SIZE`).
fn template_defaults_for(
    def: Node,
    text: &str,
    constants: &HashMap<String, i64>,
) -> Vec<(String, i64)> {
    let Some(params) = opening_template_params(def) else {
        return Vec::new();
    };
    let parameter_types = def
        .field("declarator")
        .and_then(find_function_declarator)
        .and_then(|d| d.field("parameters"))
        .map_or("", |p| node_text(p, text));
    let mut c = params.walk();
    params
        .named_children(&mut c)
        .filter(|p| p.kind() == "optional_parameter_declaration")
        .filter_map(|p| {
            let name = node_text(p.field("declarator")?, text);
            let written = node_text(p.field("default_value")?, text).trim();
            let value = parse_int_literal(written).or_else(|| constants.get(written).copied())?;
            let deduced = parameter_types
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|w| w == name);
            (!deduced).then(|| (name.to_owned(), value))
        })
        .collect()
}

fn template_params_where(decl: Node, text: &str, keep_type: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    let Some(params) = decl.field("parameters") else {
        return out;
    };
    let mut c = params.walk();
    for p in params.named_children(&mut c) {
        let ty = p.field("type").map(|t| node_text(t, text));
        if matches!(
            p.kind(),
            "parameter_declaration" | "optional_parameter_declaration"
        ) && keep_type(ty.unwrap_or(""))
            && let Some(d) = p.field("declarator")
        {
            out.push(node_text(d, text).to_owned());
        }
    }
    out
}

fn is_const_decl(n: Node, text: &str) -> bool {
    let mut c = n.walk();
    n.children(&mut c).any(|k| {
        k.kind() == "type_qualifier" && matches!(node_text(k, text), "const" | "constexpr")
    })
}

/// The variable a condition's declaration declares (`k` of `if (int k =
/// p[i])`).
fn condition_variable(d: Node, text: &str) -> Option<String> {
    let name = d.field("declarator").filter(|n| n.kind() == "identifier")?;
    d.field("value")?;
    Some(node_text(name, text).to_owned())
}

/// The variables a file-scope declaration declares (not functions).
fn global_names(n: Node, text: &str, out: &mut rustc_hash::FxHashSet<String>) {
    let mut c = n.walk();
    for mut d in n.children_by_field_name("declarator", &mut c) {
        // Through `*p`, `a[4]`, `x = 1` to the name; a bounded chain.
        for _ in 0..16 {
            match d.kind() {
                "identifier" => {
                    out.insert(node_text(d, text).to_owned());
                    break;
                }
                "function_declarator" => break,
                _ => match d.field("declarator") {
                    Some(inner) => d = inner,
                    None => break,
                },
            }
        }
    }
}

/// The elements of an array's initializer list, `{16, 8, 4, 2, 1}`: none
/// for anything else, a nested list, or more than 64 elements.
fn array_elements(value: Node) -> Vec<Node> {
    if value.kind() != "initializer_list" || value.named_child_count() > 64 {
        return Vec::new();
    }
    let mut c = value.walk();
    let elements: Vec<Node> = (value.named_children(&mut c))
        .filter(|e| e.kind() != "comment")
        .collect();
    match elements.iter().any(|e| e.kind() == "initializer_list") {
        true => Vec::new(),
        false => elements,
    }
}

/// The one named child of `n` that is not a comment, where it has one.
fn sole_named_child(n: Node) -> Option<Node> {
    let mut c = n.walk();
    let mut kids = n.named_children(&mut c).filter(|k| k.kind() != "comment");
    let only = kids.next()?;
    kids.next().is_none().then_some(only)
}

fn collect_launches<'t>(root: Node<'t>, text: &str, out: &mut Vec<Node<'t>>) {
    preorder(root, |n| {
        out.extend(launch::launch_call(n, text));
        Walk::Descend
    });
}

impl Lowerer<'_> {
    /// `Traits<6>::kWidth`, or `T6::kWidth` with `using T6 = Traits<6>;`:
    /// a static member of a class template instance the file defines, its
    /// value for those arguments (`Classes::instance_static`).
    fn fold_instance_statics(&self, b: &mut FnBuilder) {
        for (id, written) in &b.qualified {
            let (Some(scope), member) = crate::ir::split_scope(written) else {
                continue;
            };
            let instance = match b.alias(scope.trim()) {
                Some(w) => w.clone(),
                None => scope.split_whitespace().collect(),
            };
            if !instance.contains('<') {
                continue;
            }
            let e = &mut b.f.exprs[*id as usize];
            if !matches!(&e.kind, ExprKind::Var(n) if n == last_segment(written)) {
                continue;
            }
            if let Some(v) =
                self.classes
                    .instance_static(&instance, member.trim(), self.constants, self.text)
            {
                e.kind = ExprKind::Int(v);
            }
        }
    }
}

struct Lowerer<'a> {
    file: &'a ParsedFile,
    env: &'a PreprocEnv,
    text: &'a str,
    constants: &'a HashMap<String, i64>,
    classes: &'a classes::Classes<'a>,
    file_aliases: &'a HashMap<String, String>,
    cute_unscoped: bool,
    module_fns: Vec<Function>,
}

/// Where a lowered statement goes.
#[derive(Clone, Copy)]
enum Dest {
    Body,
    Then(StmtId),
    Else(StmtId),
    LoopBody(StmtId),
    LoopInit(StmtId),
    Block(StmtId),
    Case(StmtId, usize),
}

/// Per-function lowering state. Source text is passed to each method rather
/// than stored, because macro expansions are lowered from their own text.
struct FnBuilder<'a> {
    file: &'a ParsedFile,
    env: &'a PreprocEnv,
    f: Function,
    /// Depth of macro expansion in progress; > 0 means spans are overridden
    /// with the use site.
    macro_depth: usize,
    /// The lambdas lowered so far (nested ones before the lambda holding
    /// them). Every lambda index of a function and its lambdas, however
    /// nested, indexes the outermost function's list: a lambda's own list
    /// starts at its `lambda_base` there, so a lambda calling one its
    /// enclosing function declared names it by the same index.
    lambdas: Vec<Function>,
    lambda_base: usize,
    /// File constants, for template and tile sizes.
    constants: &'a HashMap<String, i64>,
    /// Cooperative-group objects in scope, by name.
    groups: HashMap<String, coop::Group>,
    /// The file's classes, and the class each variable in scope is
    /// declared with (objects, pointers and references alike): `t.ne`
    /// reads `tile::ne` when `t` is a `tile<…>` and `ne` a static member
    /// of `tile`.
    classes: &'a classes::Classes<'a>,
    var_classes: HashMap<String, String>,
    /// Objects declared by value so far, by name: their construction
    /// (an index into `f.constructions`), for calls of their members.
    objects: HashMap<String, usize>,
    /// Type aliases the body declared so far (`using WS = WarpSum<float,
    /// 32>;`, `typedef … WS;`): name → the aliased type as written,
    /// without spaces. An object or a scoped call through one names that
    /// type, as CUB's documented `typedef cub::WarpReduce<int, 16>
    /// WarpReduce;` does.
    aliases: HashMap<String, String>,
    /// Those the file declares at namespace scope (see
    /// [`file_aliases`]), read after the body's and the class's own.
    file_aliases: &'a HashMap<String, String>,
    /// `using namespace cute;` is in force: an unscoped `size(t)` is
    /// CuTe's shape query ([`library::is_shape_query`]).
    cute_unscoped: bool,
    /// Names read through a scope (`Traits::value`), lowered to their last
    /// segment: (expression, the name as written).
    qualified: Vec<(ExprId, String)>,
    /// Names declared as variables so far (parameters, locals, and for a
    /// lambda its enclosing function's): never a template's name.
    variables: rustc_hash::FxHashSet<String>,
    /// Those declared as arrays (`int v[4];`, `KeyT (&keys)[N]`): an
    /// argument naming one tells overloads apart (see [`Call::array_args`]).
    arrays: rustc_hash::FxHashSet<String>,
    /// Locals initialised with a lambda (`auto body = [&](int i) { … };`),
    /// also the enclosing function's for a lambda: name → the lambda's
    /// index (see `lambdas`). A call of the name runs it.
    lambda_vars: HashMap<String, usize>,
    /// The type parameters in scope: of the template the function opens
    /// with and of its class's templates. A type scoped by one
    /// (`typename Traits::Reducer`) is a member type that no class of the
    /// file is known to be.
    type_params: Vec<String>,
    /// Bytes of macro expansion this function (and its lambdas) may still
    /// parse and lower: nested macros fan out, and each expansion is
    /// re-parsed, so this keeps lowering linear. Past it, a use is left
    /// unexpanded and recorded as unsupported (the executor says so).
    expansion_budget: std::rc::Rc<std::cell::Cell<usize>>,
    /// Blocks a macro use before them governs (`IF_LANE(0) { … }` parsed
    /// as a statement missing its `;`, then a block): lowered with the
    /// use, skipped where the body's statements reach them.
    governed_blocks: rustc_hash::FxHashSet<usize>,
    /// Governed blocks being lowered, nested (at most [`MAX_GOVERNED_DEPTH`]).
    governed_depth: usize,
}

/// Bytes of macro expansions lowered per function (see
/// `FnBuilder::expansion_budget`).
pub const MAX_EXPANSION_BYTES: usize = 256 * 1024;

fn expansion_budget() -> std::rc::Rc<std::cell::Cell<usize>> {
    std::rc::Rc::new(std::cell::Cell::new(MAX_EXPANSION_BYTES))
}

impl<'a> Lowerer<'a> {
    fn lower_function(
        &mut self,
        def: Node,
        template_values: Vec<String>,
        namespace: Option<&str>,
    ) -> Option<Function> {
        let text = self.text;
        let kind = device_kind(def, text)?;
        let decl = find_function_declarator(def.field("declarator")?)?;
        let name_node = decl.field("declarator")?;
        let name = defined_name(node_text(name_node, text)).to_owned();
        let launch_bounds = {
            find_child(def, "launch_bounds")
                .and_then(|lb| lb.named_child(0))
                .and_then(|n| {
                    // A literal, or a constant of the file (`kThreads`).
                    let bound = node_text(n, text).trim();
                    parse_int_literal(bound).or_else(|| self.constants.get(bound).copied())
                })
                .and_then(|v| u32::try_from(v).ok())
                // A block has 1 to 1024 threads: another bound states none.
                .filter(|v| (1..=1024).contains(v))
        };
        let body = def.field("body")?;
        let mut f = empty_function();
        f.name = name;
        f.kind = kind;
        f.template_values = template_values;
        f.template_positions = template_positions_for(def, text);
        f.flag_values = flag_params_for(def, text);
        f.template_defaults = template_defaults_for(def, text, self.constants);
        f.launch_bounds = launch_bounds;
        f.span = (def.start_byte(), def.end_byte());
        f.name_span = (name_node.start_byte(), name_node.end_byte());
        let mut b = FnBuilder {
            file: self.file,
            env: self.env,
            f,
            macro_depth: 0,
            lambdas: Vec::new(),
            lambda_base: 0,
            constants: self.constants,
            groups: HashMap::default(),
            classes: self.classes,
            var_classes: HashMap::default(),
            objects: HashMap::default(),
            aliases: HashMap::default(),
            file_aliases: self.file_aliases,
            cute_unscoped: self.cute_unscoped,
            expansion_budget: expansion_budget(),
            governed_blocks: Default::default(),
            governed_depth: 0,
            qualified: Vec::new(),
            variables: Default::default(),
            arrays: Default::default(),
            lambda_vars: HashMap::default(),
            type_params: (opening_template_params(def).into_iter())
                .flat_map(|p| type_params_of(p, text))
                .map(|(t, _)| t)
                .collect(),
        };
        if let Some(params) = decl.field("parameters") {
            b.lower_params(params, text);
        }
        let member = classes::member_of(def, text);
        let info =
            (member.as_ref()).and_then(|m| self.classes.of_member(m, namespace, self.constants));
        if let Some(info) = info
            && member.as_ref().is_some_and(|m| m.class != b.f.name)
        {
            let start = b.f.exprs.len() as ExprId;
            b.member_prelude(info, self.classes, text);
            b.f.prelude = start..b.f.exprs.len() as ExprId;
        }
        if let Some(info) = info {
            b.type_params.extend(info.type_params.iter().cloned());
            b.f.class_params = info.instance_params.clone();
            for (name, written) in &info.aliases {
                b.add_alias(name.clone(), written.clone());
            }
        }
        b.f.class = member.map(|m| m.class);
        b.f.class_at = info.map(|i| i.start);
        b.lower_stmts(body, text, Dest::Body, None);
        self.place_objects(&mut b.f, namespace);
        templates::name_constant_conditions(&mut b.f, self.constants, &b.qualified);
        // The class and its bases: their constants are in the prelude (not
        // free values), and `Base::kGroup` names the prelude's `kGroup`.
        let class = b.f.class.clone();
        let own_scopes: Vec<&str> = class
            .as_deref()
            .into_iter()
            .chain(
                info.into_iter()
                    .flat_map(|i| i.bases.iter().chain(&i.base_aliases).map(String::as_str)),
            )
            .collect();
        let dependent = templates::dependent_names(def, text, &b.qualified, &own_scopes);
        templates::name_dependent_values(&mut b.f, &dependent);
        b.f.type_params = templates::scoping_type_params(def, text, &b.f.dependent_names);
        let f = &mut b.f;
        // A parameter typed by any of the template's type parameters may
        // hold a group (`template <class Group> f(Group g)`): its argument
        // decides.
        if let Some(params) = opening_template_params(def) {
            let generic = type_params_of(params, text);
            f.group_params.extend(
                (f.deduced_params.iter())
                    .filter(|(_, n)| generic.iter().any(|(t, _)| t == n))
                    .map(|(at, _)| *at),
            );
            f.group_params.sort_unstable();
        }
        f.deduced_params.retain(|(_, n)| {
            f.template_values.contains(n) || f.type_params.iter().any(|(t, _)| t == n)
        });
        if let Some(info) = info {
            let types = info.instance_types.clone();
            b.f.class_type_params = templates::scoping(types, &b.f.dependent_names);
        }
        b.read_class_constants(&own_scopes);
        self.fold_instance_statics(&mut b);
        b.keep_scoped_names_apart(&own_scopes);
        // A lambda may read or write what it names whenever it is called.
        let named_by_lambdas: rustc_hash::FxHashSet<String> = b
            .lambdas
            .iter()
            .flat_map(|l| l.exprs.iter())
            .filter_map(|e| match &e.kind {
                ExprKind::Var(name) => Some(name.clone()),
                _ => None,
            })
            .collect();
        butterfly::mark_loop_butterflies(&mut b.f);
        super::scopes::rename_shadowed(&mut b.f, &named_by_lambdas);
        b.close_lambdas(self.module_fns.len());
        self.module_fns.append(&mut b.lambdas);
        Some(b.f)
    }
}

impl Lowerer<'_> {
    /// A call on an object `f` declares by value calls a member of the
    /// object's own class, of several of one name (`Reducer<32> whole;`
    /// is not `Reducer<16>`; `by_block::Tile t;` is not `by_lane::Tile`).
    fn place_objects(&self, f: &mut Function, namespace: Option<&str>) {
        let at: Vec<Option<usize>> = (f.constructions.iter())
            .map(|c| {
                self.classes
                    .of_object(&c.class, &c.written, namespace, self.constants)
            })
            .collect();
        for e in &mut f.exprs {
            let ExprKind::Call(c) = &mut e.kind else {
                continue;
            };
            if let Some(o) = &mut c.object
                && let Some(k) = o.construction
            {
                o.class_at = at.get(k).copied().flatten();
            }
            // A static member called through a class template's instance
            // (`Reducer<32>::sum(v)`): that instance's class, where the
            // file has several of the name; the call then resolves like a
            // member's call within its class.
            if c.receiver.is_none()
                && c.object.is_none()
                && let Some(scope) = c.scope.as_deref()
                && let (_, innermost) = crate::ir::split_scope(scope)
                && innermost.contains('<')
            {
                let written: String = innermost.split_whitespace().collect();
                let class = last_segment(&written).to_owned();
                if let Some(start) = self.classes.of_scope(&class, &written, self.constants) {
                    c.object = Some(ObjectRef {
                        class,
                        class_at: Some(start),
                        construction: None,
                    });
                }
            }
        }
    }
}

/// `LIB_STATIC_ASSERT(cond, "why")` whose definition this lowering does
/// not see (a header's macro): by the naming convention every library
/// follows, a `static_assert` of its first argument.
fn unexpanded_static_assert<'t>(call: Node<'t>, text: &str) -> Option<Node<'t>> {
    let f = call.field("function")?;
    if f.kind() != "identifier" || !node_text(f, text).ends_with("_STATIC_ASSERT") {
        return None;
    }
    let args = call.field("arguments")?;
    (0..args.named_child_count())
        .filter_map(|i| args.named_child(i as u32))
        .find(|a| a.kind() != "comment")
}

fn find_function_declarator(mut d: Node) -> Option<Node> {
    for _ in 0..16 {
        if d.kind() == "function_declarator" {
            return Some(d);
        }
        d = d.field("declarator")?;
    }
    None
}

/// The name a function definition declares: `sum` of `Reducer<T>::sum`
/// (a member of a class template defined out of the class), `k` of
/// `ns::k<4>` (a specialization); the scope's template arguments may hold
/// `::` too (`Wrap<tags::Wide>::run`).
fn defined_name(declarator: &str) -> &str {
    last_segment(crate::ir::split_scope(declarator).1)
}

fn last_segment(name: &str) -> &str {
    let name = name.split('<').next().unwrap_or(name);
    let last = name.rsplit("::").next().unwrap_or(name).trim();
    // `this->template Store<…>(…)` names `Store`; `(min)(a, b)` (written
    // so that no `min` macro expands) names `min`.
    let mut bare = last
        .strip_prefix("template")
        .filter(|rest| rest.starts_with(char::is_whitespace))
        .unwrap_or(last)
        .trim();
    if name.trim_start().starts_with('(') {
        bare = bare.trim_start_matches('(').trim_end_matches(')').trim();
    }
    if is_identifier(bare) { bare } else { last }
}

/// A C++ identifier (ASCII letters, digits and `_`, not starting with a
/// digit).
pub fn is_identifier(s: &str) -> bool {
    s.bytes()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && s.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

pub fn parse_int_literal(lit: &str) -> Option<i64> {
    let t = lit.trim().replace('\'', "");
    let digits = t.trim_end_matches(['u', 'U', 'l', 'L']);
    let v = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        u64::from_str_radix(hex, 16).ok()? as i64
    } else if let Some(bin) = digits
        .strip_prefix("0b")
        .or_else(|| digits.strip_prefix("0B"))
    {
        u64::from_str_radix(bin, 2).ok()? as i64
    } else if digits.len() > 1 && digits.starts_with('0') {
        i64::from_str_radix(&digits[1..], 8).ok()?
    } else {
        digits.parse::<i64>().ok()?
    };
    Some(v)
}

/// `T& name` or `T (&name)[N]`: the declarator declares a reference.
fn declares_reference(mut d: Node) -> bool {
    for _ in 0..32 {
        match d.kind() {
            "reference_declarator" => return true,
            "init_declarator"
            | "parenthesized_declarator"
            | "attributed_declarator"
            | "array_declarator"
            | "pointer_declarator" => match d.field("declarator").or_else(|| d.named_child(0)) {
                Some(inner) => d = inner,
                None => return false,
            },
            _ => return false,
        }
    }
    false
}

/// The declared name, whether it is a pointer, and its array dimensions.
type Declared<'t> = (String, bool, Vec<Option<Node<'t>>>);

fn declarator_name<'t>(mut d: Node<'t>, text: &str) -> Option<Declared<'t>> {
    let mut is_pointer = false;
    let mut dims = Vec::new();
    for _ in 0..32 {
        match d.kind() {
            "identifier" | "field_identifier" => {
                dims.reverse();
                return Some((node_text(d, text).to_owned(), is_pointer, dims));
            }
            "pointer_declarator" | "reference_declarator" => {
                is_pointer |= d.kind() == "pointer_declarator";
                d = d
                    .field("declarator")
                    .or_else(|| d.named_child(d.named_child_count().saturating_sub(1) as u32))?;
            }
            "array_declarator" => {
                dims.push(d.field("size"));
                d = d.field("declarator")?;
            }
            "init_declarator" | "parenthesized_declarator" | "attributed_declarator" => {
                d = d.field("declarator").or_else(|| d.named_child(0))?;
            }
            _ => return None,
        }
    }
    None
}

fn type_is_float(decl: Node, text: &str) -> bool {
    decl.field("type")
        .map(|t| {
            let s = node_text(t, text);
            s.contains("float")
                || s.contains("double")
                || s.contains("half")
                || s.contains("bfloat")
        })
        .unwrap_or(false)
}

/// The class a declaration's type names (`ns::Comm<true>` gives `Comm`);
/// `None` for built-in types, `auto` and anything that is not a class name.
/// A name, a field of one, a literal or `this` (parenthesized, or its
/// address): a constructor argument lowered without any call in it.
fn is_plain_value(n: Node) -> bool {
    let mut plain = true;
    preorder(n, |k| {
        if !matches!(
            k.kind(),
            "identifier"
                | "field_expression"
                | "field_identifier"
                | "number_literal"
                | "true"
                | "false"
                | "this"
                | "parenthesized_expression"
                | "pointer_expression"
        ) && k.is_named()
        {
            plain = false;
            return Walk::Skip;
        }
        Walk::Descend
    });
    plain
}

impl FnBuilder<'_> {
    /// The class a declaration (a parameter's or a local's) names, through
    /// the aliases in scope; `None` for a dependent or built-in type.
    fn declared_class(&self, decl: Node, text: &str) -> Option<String> {
        let written = object_class(decl, text)?;
        match self.alias(written) {
            Some(w) if self.is_dependent_type(w) => None,
            Some(w) => Some(last_segment(w).to_owned()),
            None => Some(written.to_owned()),
        }
    }
}

fn object_class<'t>(decl: Node, text: &'t str) -> Option<&'t str> {
    let t = decl.field("type")?;
    let name = match t.kind() {
        "type_identifier" => t,
        "template_type" => t.field("name")?,
        "qualified_identifier" => {
            let mut n = t;
            while let Some(inner) = n.field("name") {
                if n.kind() != "qualified_identifier" {
                    break;
                }
                n = inner;
            }
            match n.kind() {
                "template_type" => n.field("name")?,
                "type_identifier" => n,
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(node_text(name, text))
}

/// The type aliases a file declares at namespace scope (`using WarpSumT =
/// WarpSum<float, 32>;` before its kernels): one target per name; a name
/// given two different targets (in two namespaces, two `#if` arms) names
/// none.
#[derive(Default)]
struct FileAliases {
    targets: HashMap<String, String>,
    ambiguous: rustc_hash::FxHashSet<String>,
}

impl FileAliases {
    fn note(&mut self, declared: Vec<(String, String)>) {
        for (name, written) in declared {
            if self.ambiguous.contains(&name) {
                continue;
            }
            match self.targets.get(&name) {
                Some(w) if *w != written => {
                    self.targets.remove(&name);
                    self.ambiguous.insert(name);
                }
                Some(_) => {}
                None => {
                    self.targets.insert(name, written);
                }
            }
        }
    }

    /// The targets, each alias of an alias resolved one step.
    fn into_map(self) -> HashMap<String, String> {
        let mut out = self.targets.clone();
        for w in out.values_mut() {
            if let Some(t) = self.targets.get(w.as_str()) {
                w.clone_from(t);
            }
        }
        out
    }
}

/// Whether `n` is declared at namespace scope: not in a class, a function
/// or a template (an alias template's target has parameters to bind).
fn at_namespace_scope(n: Node) -> bool {
    let mut p = n.parent();
    while let Some(a) = p {
        match a.kind() {
            "translation_unit" => return true,
            "field_declaration_list"
            | "compound_statement"
            | "template_declaration"
            | "function_definition" => return false,
            _ => p = a.parent(),
        }
    }
    false
}

/// The type aliases a `typedef` or `using` declaration `n` declares: (name,
/// the aliased type as written, without spaces).
pub(super) fn declared_aliases(n: Node, text: &str) -> Vec<(String, String)> {
    let Some(ty) = n.field("type") else {
        return Vec::new();
    };
    let mut names = Vec::new();
    match n.kind() {
        "alias_declaration" => names.extend(n.field("name")),
        "type_definition" => {
            let mut c = n.walk();
            names.extend(n.children_by_field_name("declarator", &mut c));
        }
        _ => return Vec::new(),
    }
    let written: String = node_text(ty, text).split_whitespace().collect();
    names
        .into_iter()
        .filter(|d| d.kind() == "type_identifier")
        .map(|d| (node_text(d, text).to_owned(), written.clone()))
        .collect()
}

/// The integer width of a declaration's type (`IntType::Other` for
/// anything else, `auto` and typedefs included).
pub(super) fn int_type(decl: Node, text: &str) -> IntType {
    const INT32: &[&str] = &["int", "unsigned", "signed", "int32_t", "uint32_t", "uint"];
    const NARROW: &[&str] = &[
        "char", "short", "bool", "int8_t", "int16_t", "uint8_t", "uint16_t",
    ];
    let Some(t) = decl.field("type") else {
        return IntType::Other;
    };
    let s = node_text(t, text);
    let words: Vec<&str> = s
        .rsplit("::")
        .next()
        .unwrap_or(s)
        .split_whitespace()
        .collect();
    if words.is_empty()
        || words
            .iter()
            .any(|w| !INT32.contains(w) && !NARROW.contains(w))
    {
        IntType::Other
    } else if words.iter().any(|w| NARROW.contains(w)) {
        IntType::Narrow
    } else if words
        .iter()
        .any(|w| matches!(*w, "unsigned" | "uint32_t" | "uint"))
    {
        IntType::Uint32
    } else {
        IntType::Int32
    }
}

fn type_is_integral(decl: Node, text: &str) -> bool {
    decl.field("type")
        .is_some_and(|t| type_text_is_integral(node_text(t, text)))
}

/// The most elements of one brace initializer lowered for their effects.
const MAX_INITIALIZER_EFFECTS: usize = 32;

/// The integer limits of `<cstdint>`/`<climits>`, which warp masks are
/// written with (`__ballot_sync(UINT32_MAX, p)`): standard macros whose
/// headers a check rarely sees.
fn standard_limit(name: &str) -> Option<i64> {
    Some(match name {
        "UINT32_MAX" | "UINT_MAX" => i64::from(u32::MAX),
        "INT32_MAX" | "INT_MAX" => i64::from(i32::MAX),
        "INT32_MIN" | "INT_MIN" => i64::from(i32::MIN),
        "UINT16_MAX" | "USHRT_MAX" => i64::from(u16::MAX),
        "UINT8_MAX" | "UCHAR_MAX" => i64::from(u8::MAX),
        "INT64_MAX" | "LLONG_MAX" => i64::MAX,
        _ => return None,
    })
}

/// `unsigned long`, `std::uint32_t`, `size_t`…: a built-in integer type.
fn type_text_is_integral(s: &str) -> bool {
    const INTEGRAL: &[&str] = &[
        "int",
        "unsigned",
        "signed",
        "long",
        "short",
        "char",
        "bool",
        "size_t",
        "ptrdiff_t",
        "int8_t",
        "int16_t",
        "int32_t",
        "int64_t",
        "uint8_t",
        "uint16_t",
        "uint32_t",
        "uint64_t",
        "uint",
        "dim_t",
        "index_t",
    ];
    let s = s.trim();
    let last = s.rsplit("::").next().unwrap_or(s);
    !last.trim().is_empty() && last.split_whitespace().all(|w| INTEGRAL.contains(&w))
}

fn span_of(n: Node) -> ByteSpan {
    (n.start_byte(), n.end_byte())
}

impl FnBuilder<'_> {
    /// `HAS_VALUES::value` where the function also declares a local or
    /// parameter `value`: the scoped name keeps its written form, so the
    /// local's level and value never stand for it. A name scoped by the
    /// function's own class or one of its bases (`own_scopes`) is the
    /// member its prelude declares.
    fn keep_scoped_names_apart(&mut self, own_scopes: &[&str]) {
        if self.qualified.is_empty() {
            return;
        }
        let declared: rustc_hash::FxHashSet<String> = self
            .f
            .stmts
            .iter()
            .filter_map(|s| match &s.kind {
                StmtKind::Decl { name, .. } => Some(name.clone()),
                _ => None,
            })
            .chain(self.f.params.iter().map(|p| p.name.clone()))
            .collect();
        for (id, written) in std::mem::take(&mut self.qualified) {
            let scope = written.rsplit_once("::").map_or("", |(s, _)| s);
            if own_scopes.contains(&last_segment(scope)) {
                continue;
            }
            let e = &mut self.f.exprs[id as usize];
            if let ExprKind::Var(name) = &e.kind
                && declared.contains(name)
            {
                e.kind = ExprKind::Var(written.clone());
                self.f.scoped_names.insert(written);
            }
        }
    }

    /// `Wide::kLanes`: a class's static constant is that class's value,
    /// not that of whichever class of the unit last defined a `kLanes`
    /// (the unit's constants hold one value per bare name). Where the file
    /// folds `Wide::kLanes` the read names that key; otherwise it keeps
    /// the bare name and is listed in `Function::class_constants`, for a
    /// translation unit whose header defines the class
    /// (`Module::settle_class_constants`). Dependent names (renamed
    /// already) and the function's own class and bases (the prelude's)
    /// are left alone.
    fn read_class_constants(&mut self, own_scopes: &[&str]) {
        for (id, written) in &self.qualified {
            let Some((scope, key)) = constants::class_key(written) else {
                continue;
            };
            let last = last_segment(written);
            let e = &mut self.f.exprs[*id as usize];
            if own_scopes.contains(&scope) || !matches!(&e.kind, ExprKind::Var(n) if n == last) {
                continue;
            }
            if self.constants.contains_key(&key) {
                e.kind = ExprKind::Var(key.clone());
                self.f.scoped_names.insert(key);
            } else {
                self.f.class_constants.push((*id, key));
            }
        }
    }

    fn expr(&mut self, kind: ExprKind, span: ByteSpan) -> ExprId {
        self.f.exprs.push(Expr { kind, span });
        (self.f.exprs.len() - 1) as ExprId
    }

    fn stmt(&mut self, kind: StmtKind, span: ByteSpan) -> StmtId {
        self.f.stmts.push(Stmt { kind, span });
        (self.f.stmts.len() - 1) as StmtId
    }

    /// The span to record: the node's own, or the macro use site's.
    fn span(&self, n: Node, site: Option<ByteSpan>) -> ByteSpan {
        site.unwrap_or_else(|| span_of(n))
    }

    fn lower_params(&mut self, params: Node, text: &str) {
        let mut c = params.walk();
        let list: Vec<Node> = params.named_children(&mut c).collect();
        for p in list {
            if !matches!(
                p.kind(),
                "parameter_declaration" | "optional_parameter_declaration"
            ) {
                continue;
            }
            // An unnamed parameter (`f(Tag, int n)`, `float *`) still takes
            // its argument: without its slot, the arguments after it would
            // bind the wrong parameters. `f(void)` has none.
            let declarator = p.field("declarator");
            let (name, is_pointer, dims) = match declarator.and_then(|d| declarator_name(d, text)) {
                Some(declared) => declared,
                None if declarator.is_none()
                    && p.field("type")
                        .is_some_and(|t| node_text(t, text) == "void") =>
                {
                    continue;
                }
                None => (
                    format!("(unnamed parameter {})", self.f.params.len()),
                    declarator.is_some_and(|d| d.kind().contains("pointer")),
                    Vec::new(),
                ),
            };
            self.note_group(&name, p, None, text);
            let at = self.f.params.len();
            if let Some(coop::Group::TileOf(i)) = self.groups.get(&name)
                && let Some(value) = self.f.template_values.get(usize::from(*i))
            {
                self.f.deduced_params.push((at, value.clone()));
            } else if let Some(t) = p.field("type").filter(|t| t.kind() == "type_identifier") {
                // Kept where it names a type parameter (known once the
                // body is lowered, `lower_function`).
                self.f
                    .deduced_params
                    .push((at, node_text(t, text).to_owned()));
            }
            // `cg::thread_group g`, or a generic lambda's `auto g`.
            if p.field("type").is_some_and(|t| {
                coop::is_type_erased(node_text(t, text))
                    || (self.f.kind == FnKind::Lambda && t.kind() == "placeholder_type_specifier")
            }) {
                self.f.group_params.push(at);
            }
            self.variables.insert(name.clone());
            if !dims.is_empty() {
                self.arrays.insert(name.clone());
            }
            match self.declared_class(p, text) {
                Some(c) => self.var_classes.insert(name.clone(), c),
                None => self.var_classes.remove(&name),
            };
            let default = p
                .field("default_value")
                .map(|v| self.lower_expr(v, text, 0, None));
            self.f.params.push(Param {
                name,
                default,
                is_pointer: is_pointer || !dims.is_empty(),
                is_reference: declarator.is_some_and(declares_reference),
                is_float: type_is_float(p, text),
                is_integral: type_is_integral(p, text) && !is_pointer && dims.is_empty(),
                int_type: if is_pointer || !dims.is_empty() {
                    IntType::Other
                } else {
                    int_type(p, text)
                },
                is_array: !dims.is_empty(),
                of_field: false,
                ctor_slot: None,
                ctor_value: None,
                tag: tag_of_type(
                    p.field("type").map_or("", |t| node_text(t, text)),
                    self.constants,
                ),
                span: span_of(p),
            });
        }
    }

    fn push_to(&mut self, dest: Dest, id: StmtId) {
        let list = match dest {
            Dest::Body => &mut self.f.body,
            Dest::Then(s)
            | Dest::Else(s)
            | Dest::LoopBody(s)
            | Dest::LoopInit(s)
            | Dest::Block(s)
            | Dest::Case(s, _) => match (&mut self.f.stmts[s as usize].kind, dest) {
                (StmtKind::If { then_branch, .. }, Dest::Then(_)) => then_branch,
                (StmtKind::If { else_branch, .. }, Dest::Else(_)) => else_branch,
                (StmtKind::Loop { body, .. }, Dest::LoopBody(_)) => body,
                (StmtKind::Loop { init, .. }, Dest::LoopInit(_)) => init,
                (StmtKind::Block(b), Dest::Block(_)) => b,
                (StmtKind::Switch { cases, .. }, Dest::Case(_, i)) => &mut cases[i].body,
                _ => return,
            },
        };
        list.push(id);
    }

    /// Lower `container`'s statements (a compound statement's children, or
    /// `container` itself otherwise) into `dest`, with an explicit work list.
    /// `site` overrides every span (macro expansions).
    fn lower_stmts(&mut self, container: Node, text: &str, dest: Dest, site: Option<ByteSpan>) {
        let mut work: Vec<(Node, Dest)> = Vec::new();
        if container.kind() == "compound_statement" && matches!(dest, Dest::Body) {
            push_children(container, dest, &mut work);
        } else {
            work.push((container, dest));
        }
        while let Some((n, dest)) = work.pop() {
            self.lower_one(n, text, dest, site, &mut work);
        }
    }

    fn lower_one<'t>(
        &mut self,
        n: Node<'t>,
        text: &str,
        dest: Dest,
        site: Option<ByteSpan>,
        work: &mut Vec<(Node<'t>, Dest)>,
    ) {
        let span = self.span(n, site);
        match n.kind() {
            "type_definition" | "alias_declaration" => self.note_alias(n, text),
            "using_declaration" => {
                self.cute_unscoped |= library::names_cute_namespace(node_text(n, text));
            }
            "comment"
            | "preproc_include"
            | "preproc_def"
            | "preproc_function_def"
            | "preproc_call"
            | "namespace_alias_definition" => {}
            // What every instantiation satisfies: kept for the facts it
            // states about template values (`ir::asserts`), never run.
            // Only at the top of the body: one inside a branch (`if
            // constexpr`) holds only where that branch is instantiated.
            "static_assert_declaration" => {
                if matches!(dest, Dest::Body)
                    && let Some(c) = n.field("condition")
                {
                    let e = self.lower_expr(c, text, 0, site);
                    self.f.asserts.push(e);
                }
            }
            "compound_statement" if self.governed_blocks.remove(&n.id()) => {}
            "compound_statement" => {
                let id = self.stmt(StmtKind::Block(Vec::new()), span);
                self.push_to(dest, id);
                push_children(n, Dest::Block(id), work);
            }
            "preproc_if" | "preproc_ifdef" | "preproc_elif" | "preproc_elifdef"
            | "preproc_else" => {
                // Lower the first branch the targets may compile; lowering
                // two live alternatives in sequence would run both.
                let cond = n.field("condition");
                let name = n.field("name");
                let alt = n.field("alternative");
                let mut c = n.walk();
                let body: Vec<Node> = n
                    .named_children(&mut c)
                    .filter(|k| Some(*k) != cond && Some(*k) != name && Some(*k) != alt)
                    .collect();
                let body_live = match body.first() {
                    Some(first) => !self.env.is_dead(*first, text),
                    None => n.kind() != "preproc_else",
                };
                if body_live {
                    for k in body.into_iter().rev() {
                        work.push((k, dest));
                    }
                } else if let Some(a) = alt {
                    work.push((a, dest));
                }
            }
            "declaration" => self.lower_declaration(n, text, dest, site),
            "expression_statement" => {
                let Some(e) = n.named_child(0) else { return };
                // Before macro expansion: a header's `assert` expands to a
                // call of the runtime's failure handler.
                // `assert(false)` states no fact: it marks a path the build
                // does not support (an `#else` for older architectures)
                // and is nothing under `NDEBUG`; it stays a plain call.
                if let Some(c) = assumed_condition(e, text) {
                    let c = self.lower_expr(c, text, 0, site);
                    if crate::ir::fold::eval_const(&self.f, c, self.constants) != Some(0) {
                        let id = self.stmt(StmtKind::Assume(c), span);
                        self.push_to(dest, id);
                        return;
                    }
                }
                if e.kind() == "call_expression"
                    && let Some(block) = governed_block(n)
                    && let (Some(name), Some(list)) = (e.field("function"), e.field("arguments"))
                    && self.expand_block_macro(name, list, block, text, dest, site)
                {
                    self.governed_blocks.insert(block.id());
                    return;
                }
                if e.kind() == "call_expression" && self.expand_statement_macro(e, text, dest) {
                    return;
                }
                if let Some(cond) = unexpanded_static_assert(e, text) {
                    if matches!(dest, Dest::Body) {
                        let id = self.lower_expr(cond, text, 0, site);
                        self.f.asserts.push(id);
                    }
                    return;
                }
                if let Some((name, init)) = self.misparsed_tile_decl(e, text, site) {
                    let id = self.stmt(
                        StmtKind::local(name, init, false, false, IntType::Other),
                        span,
                    );
                    self.push_to(dest, id);
                    return;
                }
                if is_trap(e, text) {
                    let id = self.stmt(StmtKind::Abort, span);
                    self.push_to(dest, id);
                    return;
                }
                let id_e = self.lower_expr(e, text, 0, site);
                let id = self.stmt(StmtKind::Expr(id_e), span);
                self.push_to(dest, id);
            }
            "if_statement" => {
                let cond = match n.field("condition") {
                    Some(c) => self.lower_declaring_condition(c, text, dest, site, work),
                    None => self.expr(ExprKind::Unknown, span),
                };
                let mut c = n.walk();
                let constant = n.children(&mut c).any(|k| k.kind() == "constexpr");
                let id = self.stmt(
                    StmtKind::If {
                        cond,
                        then_branch: Vec::new(),
                        else_branch: Vec::new(),
                        constant,
                    },
                    span,
                );
                self.push_to(dest, id);
                if let Some(alt) = n.field("alternative") {
                    let inner = if alt.kind() == "else_clause" {
                        alt.named_child(0)
                    } else {
                        Some(alt)
                    };
                    if let Some(inner) = inner {
                        work.push((inner, Dest::Else(id)));
                    }
                }
                if let Some(cons) = n.field("consequence") {
                    work.push((cons, Dest::Then(id)));
                }
            }
            "for_statement" => {
                // The initializer is lowered after the condition (from the
                // work list), but its variables are in scope there.
                if let Some(init) = n.field("initializer")
                    && init.kind() == "declaration"
                {
                    let mut c = init.walk();
                    for d in init.children_by_field_name("declarator", &mut c) {
                        if let Some((name, ..)) = declarator_name(d, text) {
                            self.variables.insert(name);
                        }
                    }
                }
                let cond = n
                    .field("condition")
                    .map(|c| self.lower_expr(c, text, 0, site));
                let step = n.field("update").map(|c| self.lower_expr(c, text, 0, site));
                let id = self.stmt(
                    StmtKind::Loop {
                        kind: LoopKind::For,
                        init: Vec::new(),
                        cond,
                        step,
                        body: Vec::new(),
                    },
                    span,
                );
                self.push_to(dest, id);
                if let Some(body) = n.field("body") {
                    work.push((body, Dest::LoopBody(id)));
                }
                if let Some(init) = n.field("initializer") {
                    if init.kind() == "declaration" {
                        work.push((init, Dest::LoopInit(id)));
                    } else {
                        let e = self.lower_expr(init, text, 0, site);
                        let s = self.stmt(StmtKind::Expr(e), self.span(init, site));
                        self.push_to(Dest::LoopInit(id), s);
                    }
                }
            }
            "for_range_loop" => {
                let id = self.lower_range_for(n, text, dest, site);
                if let Some(body) = n.field("body") {
                    work.push((body, Dest::LoopBody(id)));
                }
            }
            "while_statement" | "do_statement" => {
                let cond = n
                    .field("condition")
                    .map(|c| self.lower_condition(c, text, site));
                let kind = if n.kind() == "do_statement" {
                    LoopKind::DoWhile
                } else {
                    LoopKind::While
                };
                let id = self.stmt(
                    StmtKind::Loop {
                        kind,
                        init: Vec::new(),
                        cond,
                        step: None,
                        body: Vec::new(),
                    },
                    span,
                );
                self.push_to(dest, id);
                if let Some(body) = n.field("body") {
                    work.push((body, Dest::LoopBody(id)));
                }
            }
            "switch_statement" => {
                let scrutinee = match n.field("condition") {
                    Some(c) => self.lower_declaring_condition(c, text, dest, site, work),
                    None => self.expr(ExprKind::Unknown, span),
                };
                let Some(body) = n.field("body") else {
                    return;
                };
                let mut c = body.walk();
                let case_nodes: Vec<Node> = body
                    .named_children(&mut c)
                    .filter(|k| k.kind() == "case_statement")
                    .collect();
                let mut cases = Vec::new();
                for cn in &case_nodes {
                    let value = cn.field("value").map(|v| self.lower_expr(v, text, 0, site));
                    cases.push(Case {
                        value,
                        body: Vec::new(),
                        span: self.span(*cn, site),
                    });
                }
                let id = self.stmt(StmtKind::Switch { scrutinee, cases }, span);
                self.push_to(dest, id);
                for (i, cn) in case_nodes.iter().enumerate().rev() {
                    let value = cn.field("value");
                    let mut cc = cn.walk();
                    let stmts: Vec<Node> = cn
                        .named_children(&mut cc)
                        .filter(|k| Some(*k) != value)
                        .collect();
                    for s in stmts.into_iter().rev() {
                        work.push((s, Dest::Case(id, i)));
                    }
                }
            }
            "return_statement" => {
                let e = n.named_child(0).map(|e| self.lower_expr(e, text, 0, site));
                let id = self.stmt(StmtKind::Return(e), span);
                self.push_to(dest, id);
            }
            "break_statement" => {
                let id = self.stmt(StmtKind::Break, span);
                self.push_to(dest, id);
            }
            "continue_statement" => {
                let id = self.stmt(StmtKind::Continue, span);
                self.push_to(dest, id);
            }
            "labeled_statement" => {
                self.f.has_labels = true;
                if let Some(s) = n.named_child(n.named_child_count().saturating_sub(1) as u32) {
                    work.push((s, dest));
                }
            }
            _ => {
                if n.kind() == "function_definition"
                    && n.field("type").is_none()
                    && let (Some(decl), Some(block)) = (n.field("declarator"), n.field("body"))
                    && decl.kind() == "function_declarator"
                    && let (Some(name), Some(list)) =
                        (decl.field("declarator"), decl.field("parameters"))
                    && self.expand_block_macro(name, list, block, text, dest, site)
                {
                    return;
                }
                self.f.unsupported.push(span);
                let id = self.stmt(StmtKind::Opaque, span);
                self.push_to(dest, id);
            }
        }
    }

    /// `CUDA_KERNEL_LOOP(i, n) { … }`: a use of a function-like macro that
    /// expands to a loop or `if` header, followed by the block it governs.
    /// It parses as a function definition nested in a body (`name` and its
    /// parameter list `list`), or as a call missing its `;` before the
    /// block. Lower the expansion's header (spans at the use site) with
    /// `block` as written as its body. False, and nothing lowered, where
    /// the macro is not known or its expansion is not one such header.
    fn expand_block_macro(
        &mut self,
        name: Node,
        list: Node,
        block: Node,
        text: &str,
        dest: Dest,
        site: Option<ByteSpan>,
    ) -> bool {
        if self.governed_depth >= MAX_GOVERNED_DEPTH {
            return false;
        }
        let Some(m) = self.macro_named(name, text) else {
            return false;
        };
        // As the preprocessor does: no parentheses added (the loop
        // variable of `CUDA_KERNEL_LOOP(i, n)` is declared by its name).
        let Some(expansion) = expand_args(&m, &macro_args(list, text), false) else {
            return false;
        };
        let call_site = match site {
            Some(s) => s,
            None => (name.start_byte(), list.end_byte()),
        };
        let Some((wrapped, tree)) = self.parse_expansion(&format!("{expansion} {{}}\n"), call_site)
        else {
            return false;
        };
        let Some(body) = expansion_body(&tree) else {
            return false;
        };
        // Exactly the header, governing the empty block put after it.
        let header = match body.named_child(0) {
            Some(h) if body.named_child_count() == 1 => h,
            _ => return false,
        };
        let governed = match header.kind() {
            "for_statement" | "while_statement" => header.field("body"),
            "if_statement" if header.field("alternative").is_none() => header.field("consequence"),
            _ => None,
        };
        if governed.is_none_or(|g| g.kind() != "compound_statement" || g.named_child_count() > 0) {
            return false;
        }
        let first_stmt = self.f.stmts.len() as StmtId;
        let first_expr = self.f.exprs.len();
        self.macro_depth += 1;
        self.lower_stmts(header, &wrapped, dest, Some(call_site));
        self.tag_macro_calls(first_expr, &m.name);
        self.macro_depth -= 1;
        // The header's statement is the first the lowering made (its
        // condition is lowered before it, its initializer after).
        let inner = match self.f.stmts.get(first_stmt as usize).map(|s| &s.kind) {
            Some(StmtKind::Loop { .. }) => Dest::LoopBody(first_stmt),
            Some(StmtKind::If { .. }) => Dest::Then(first_stmt),
            _ => dest,
        };
        self.governed_depth += 1;
        self.lower_stmts(block, text, inner, site);
        self.governed_depth -= 1;
        true
    }

    fn lower_condition(&mut self, c: Node, text: &str, site: Option<ByteSpan>) -> ExprId {
        let inner = match c.kind() {
            "condition_clause" => c.field("value").or_else(|| c.named_child(0)),
            "parenthesized_expression" => c.named_child(0),
            _ => Some(c),
        };
        match inner {
            Some(e) if e.kind() != "declaration" => self.lower_expr(e, text, 0, site),
            // `if (int k = p[i])`: the variable, declared just before
            // (`lower_condition_declarations`).
            Some(d) if let Some(name) = condition_variable(d, text) => {
                let span = self.span(d, site);
                self.expr(ExprKind::Var(name), span)
            }
            _ => self.expr(ExprKind::Unknown, self.span(c, site)),
        }
    }

    /// An `if` or `switch` condition, with what it declares lowered
    /// before the statement in the same list (the names are in scope only
    /// in it, and a later declaration of the same name is renamed apart):
    /// the C++17 initializer (`if (int l = tid & 31; l < 16)`) and a
    /// declaration condition (`if (int k = p[i])`). Not for loops, whose
    /// condition runs again on every trip.
    fn lower_declaring_condition<'t>(
        &mut self,
        c: Node<'t>,
        text: &str,
        dest: Dest,
        site: Option<ByteSpan>,
        work: &mut Vec<(Node<'t>, Dest)>,
    ) -> ExprId {
        self.lower_condition_declarations(c, text, dest, site, work);
        self.lower_condition(c, text, site)
    }

    fn lower_condition_declarations<'t>(
        &mut self,
        c: Node<'t>,
        text: &str,
        dest: Dest,
        site: Option<ByteSpan>,
        work: &mut Vec<(Node<'t>, Dest)>,
    ) {
        if c.kind() != "condition_clause" {
            return;
        }
        if let Some(init) = c.field("initializer") {
            let mut k = init.walk();
            let parts: Vec<Node> = init.named_children(&mut k).collect();
            for part in parts {
                self.lower_one(part, text, dest, site, work);
            }
        }
        if let Some(d) = c.field("value")
            && d.kind() == "declaration"
            && condition_variable(d, text).is_some()
        {
            self.lower_declaration(d, text, dest, site);
        }
    }

    /// The constructor arguments of an object's declarator `d` (see
    /// [`Construction::args`]). `T obj(a, b)` parses as a function's
    /// declaration whose parameter types are the argument names.
    fn construction_args(
        &mut self,
        d: Node,
        text: &str,
        site: Option<ByteSpan>,
    ) -> Option<Vec<Option<ExprId>>> {
        let list = match d.kind() {
            "identifier" => return Some(Vec::new()),
            "init_declarator" => d
                .field("value")
                .filter(|v| matches!(v.kind(), "argument_list" | "initializer_list"))?,
            "function_declarator" => d.field("parameters")?,
            _ => return None,
        };
        let mut c = list.walk();
        let items: Vec<Node> = list.named_children(&mut c).collect();
        let mut args = Vec::with_capacity(items.len());
        for a in items {
            let arg = if a.kind() == "parameter_declaration" {
                a.field("type")
                    .filter(|t| t.kind() == "type_identifier" && a.field("declarator").is_none())
                    .map(|t| {
                        let name = node_text(t, text).to_owned();
                        self.expr(ExprKind::Var(name), self.span(t, site))
                    })
            } else if is_plain_value(a) {
                Some(self.lower_expr(a, text, 0, site))
            } else {
                None
            };
            args.push(arg);
        }
        Some(args)
    }

    /// Record a type alias the body declares (see [`FnBuilder::aliases`]).
    fn note_alias(&mut self, n: Node, text: &str) {
        for (name, written) in declared_aliases(n, text) {
            self.add_alias(name, written);
        }
    }

    /// `typename Traits::Reducer` (as an alias's target is written, without
    /// spaces) where `Traits` is a type parameter in scope: a member type of
    /// it. No class of the file is known to be it, not even one of the same
    /// name: the traits may name any specialization of that template, or
    /// another class. (`typename ns::Tile<…>` names a namespace's class.)
    fn is_dependent_type(&self, written: &str) -> bool {
        let w = written.strip_prefix("typename").unwrap_or(written);
        let Some((first, _)) = w.split_once("::") else {
            return false;
        };
        let first = first.split('<').next().unwrap_or(first);
        self.type_params.iter().any(|t| t == first)
    }

    /// An alias of an alias names what that one names.
    fn add_alias(&mut self, name: String, written: String) {
        let written = self.alias(&written).cloned().unwrap_or(written);
        self.aliases.insert(name, written);
    }

    /// The type alias `name` names, if the body, the member's class or the
    /// file declares one (the innermost first).
    fn alias(&self, name: &str) -> Option<&String> {
        self.aliases
            .get(name)
            .or_else(|| self.file_aliases.get(name))
    }

    /// What an argument lets the callee deduce: a group whose kind the
    /// text fixes (a block, a tile of known size: a name holding one, or
    /// `cg::this_thread_block()` passed directly), or the class of an
    /// object declared by value (`HalfTag tag;`) or written as a temporary
    /// (`HalfTag{}`).
    fn deducing(&self, arg: Node, text: &str) -> Option<Deducing> {
        if let Some(group) = self.group_of_init(arg, text) {
            return group.passed().map(Deducing::Group);
        }
        let class = match arg.kind() {
            "identifier" => {
                let k = *self.objects.get(node_text(arg, text))?;
                &self.f.constructions.get(k)?.written
            }
            "compound_literal_expression" => node_text(arg.field("type")?, text),
            _ => return None,
        };
        crate::ir::class_named(class).map(|c| Deducing::Class(c.to_owned()))
    }

    /// The construction of the object an argument passes: one this
    /// function declared by value (not a lambda), or a temporary
    /// (`WarpSum()`). See `Function::passed_objects`.
    fn passed_object(&mut self, arg: Node, lowered: ExprId, text: &str) -> Option<usize> {
        match arg.kind() {
            "identifier" => {
                let name = node_text(arg, text);
                (!self.lambda_vars.contains_key(name))
                    .then(|| self.objects.get(name).copied())
                    .flatten()
            }
            "call_expression" => self.temporary(arg, lowered, text),
            _ => None,
        }
    }

    /// `WarpReduce(temp).Sum(v)`: a member called on a temporary that the
    /// receiver `obj` (lowered as `lowered`) constructs, CUB's documented
    /// form. Its class is the one an alias names, or the type the call
    /// writes; its construction takes the call's plain arguments, as a
    /// declared object's does.
    fn temporary(&mut self, obj: Node, lowered: ExprId, text: &str) -> Option<usize> {
        let fun = obj
            .field("function")
            .filter(|_| obj.kind() == "call_expression")?;
        if !matches!(
            fun.kind(),
            "identifier" | "template_function" | "qualified_identifier"
        ) {
            return None;
        }
        let as_written: String = node_text(fun, text).split_whitespace().collect();
        let written = self.alias(&as_written).cloned().unwrap_or(as_written);
        if self.is_dependent_type(&written) {
            return None;
        }
        let class = split_scope(&written).1.split('<').next()?.trim().to_owned();
        if !is_identifier(&class) {
            return None;
        }
        let ExprKind::Call(call) = &self.f.expr(lowered).kind else {
            return None;
        };
        let list = obj.field("arguments")?;
        let mut c = list.walk();
        let nodes = list
            .named_children(&mut c)
            .filter(|k| k.kind() != "comment");
        let args = nodes
            .zip(&call.args)
            .map(|(node, &id)| is_plain_value(node).then_some(id))
            .collect();
        self.f.constructions.push(Construction {
            class,
            written,
            args: Some(args),
        });
        Some(self.f.constructions.len() - 1)
    }

    fn lower_declaration(&mut self, n: Node, text: &str, dest: Dest, site: Option<ByteSpan>) {
        let mut shared = false;
        let mut c = n.walk();
        for k in n.children(&mut c) {
            if k.kind() == "type_qualifier" && node_text(k, text).contains("__shared__") {
                shared = true;
            }
        }
        let is_float = type_is_float(n, text);
        let int_type = int_type(n, text);
        // An object of an alias's type is of the aliased class.
        let aliased = object_class(n, text).and_then(|c| self.alias(c)).cloned();
        let class = self.declared_class(n, text);
        let mut c = n.walk();
        let decls: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
        for d in decls {
            // An object of a class, `T obj(args)` included (which parses
            // as a function's declaration), but not a pointer or reference.
            let object = matches!(
                d.kind(),
                "identifier" | "init_declarator" | "function_declarator"
            );
            let built = class.as_ref().filter(|_| object && !shared).map(|class| {
                let args = self.construction_args(d, text, site);
                let written = aliased.clone().unwrap_or_else(|| {
                    n.field("type").map_or(String::new(), |t| {
                        node_text(t, text).split_whitespace().collect()
                    })
                });
                self.f.constructions.push(Construction {
                    class: class.clone(),
                    written,
                    args,
                });
                self.f.constructions.len() - 1
            });
            let declared = declarator_name(d, text);
            // `T obj(a, b)` declares no variable, but names an object.
            let object_name = match &declared {
                Some((name, ..)) => Some(name.clone()),
                None => d
                    .field("declarator")
                    .filter(|n| d.kind() == "function_declarator" && n.kind() == "identifier")
                    .map(|n| node_text(n, text).to_owned()),
            };
            if let Some(name) = object_name {
                match built {
                    Some(k) => self.objects.insert(name, k),
                    None => self.objects.remove(&name),
                };
            }
            let Some((name, is_pointer, dim_nodes)) = declared else {
                self.lower_structured_binding(d, text, dest, site);
                continue;
            };
            match &class {
                Some(c) => self.var_classes.insert(name.clone(), c.clone()),
                None => self.var_classes.remove(&name),
            };
            // By value: not a pointer, a reference or an array.
            let by_value = object && !is_pointer && dim_nodes.is_empty() && !declares_reference(d);
            if class.is_some() && by_value && !shared && !self.f.object_locals.contains(&name) {
                self.f.object_locals.push(name.clone());
            }
            if dim_nodes.is_empty() {
                self.arrays.remove(&name);
            } else {
                self.arrays.insert(name.clone());
            }
            // A condition's declaration (`if (int k = p[i])`) holds its
            // value beside the name.
            let value_of = match d.kind() {
                "init_declarator" => Some(d),
                "identifier" if n.parent().is_some_and(|p| p.kind() == "condition_clause") => {
                    Some(n)
                }
                _ => None,
            };
            let value = value_of.and_then(|v| v.field("value"));
            self.note_group(&name, n, value, text);
            self.variables.insert(name.clone());
            // `int offsets[5] = {16, 8, 4, 2, 1};`: each element is stored
            // after the declaration (a flat list of at most 64).
            let elements = match value {
                Some(v) if !dim_nodes.is_empty() => array_elements(v),
                _ => Vec::new(),
            };
            let init = if !elements.is_empty() {
                None
            } else if value_of.is_some() {
                value.map(|v| {
                    if matches!(v.kind(), "initializer_list" | "argument_list") {
                        // `int x{3}` / `T v(expr)`: one element is the value.
                        match v.named_child(0) {
                            Some(first) if v.named_child_count() == 1 => {
                                self.lower_expr(first, text, 0, site)
                            }
                            _ => self.expr(ExprKind::Unknown, self.span(v, site)),
                        }
                    } else {
                        self.lower_expr(v, text, 0, site)
                    }
                })
            } else {
                None
            };
            match init.map(|i| &self.f.expr(i).kind) {
                Some(ExprKind::Lambda(l)) if !is_pointer && dim_nodes.is_empty() => {
                    self.lambda_vars.insert(name.clone(), *l)
                }
                _ => self.lambda_vars.remove(&name),
            };
            let dims = dim_nodes
                .into_iter()
                .map(|dn| dn.map(|x| self.lower_expr(x, text, 0, site)))
                .collect();
            let name_for_elements = name.clone();
            let id = self.stmt(
                StmtKind::Decl {
                    name,
                    init,
                    dims,
                    shared,
                    is_pointer,
                    is_reference: declares_reference(d),
                    is_float,
                    int_type: if is_pointer { IntType::Other } else { int_type },
                },
                self.span(n, site),
            );
            self.push_to(dest, id);
            for (i, e) in elements.into_iter().enumerate() {
                let at = self.span(e, site);
                let array = self.expr(ExprKind::Var(name_for_elements.clone()), at);
                let index = self.expr(ExprKind::Int(i as i64), at);
                let lhs = self.expr(ExprKind::Index(array, index), at);
                let rhs = self.lower_expr(e, text, 0, site);
                let store = self.expr(ExprKind::Assign { op: None, lhs, rhs }, at);
                let st = self.stmt(StmtKind::Expr(store), at);
                self.push_to(dest, st);
            }
        }
    }

    /// `auto [m, n] = coord;` (also `const auto& [m, n] = …`): the value,
    /// under the declarator's text as its name, and each name a member of
    /// it, as uniform as the value (`coord` of the block, or an element
    /// `p[threadIdx.x]` of the thread). Anything else declares nothing.
    fn lower_structured_binding(
        &mut self,
        d: Node,
        text: &str,
        dest: Dest,
        site: Option<ByteSpan>,
    ) {
        let (Some(value), Some(mut binding)) = (d.field("value"), d.field("declarator")) else {
            return;
        };
        if binding.kind() == "reference_declarator" {
            let Some(inner) = binding.named_child(0) else {
                return;
            };
            binding = inner;
        }
        if binding.kind() != "structured_binding_declarator" {
            return;
        }
        let whole: String = node_text(binding, text).split_whitespace().collect();
        let init = self.lower_expr(value, text, 0, site);
        let span = self.span(d, site);
        let id = self.stmt(
            StmtKind::local(whole.clone(), Some(init), false, false, IntType::Other),
            span,
        );
        self.push_to(dest, id);
        let mut c = binding.walk();
        let names: Vec<Node> = binding
            .named_children(&mut c)
            .filter(|k| k.kind() == "identifier")
            .collect();
        for (k, name_node) in names.into_iter().enumerate() {
            let name = node_text(name_node, text).to_owned();
            let at = self.span(name_node, site);
            let of = self.expr(ExprKind::Var(whole.clone()), at);
            let element = self.expr(ExprKind::Member(of, k.to_string()), at);
            self.variables.insert(name.clone());
            self.lambda_vars.remove(&name);
            self.objects.remove(&name);
            self.var_classes.remove(&name);
            let id = self.stmt(
                StmtKind::local(name, Some(element), false, false, IntType::Other),
                at,
            );
            self.push_to(dest, id);
        }
    }

    fn macro_for_call(&self, call: Node, text: &str) -> Option<Macro> {
        self.macro_named(call.field("function")?, text)
    }

    /// The function-like macro `name` names, where one is known whose use
    /// can be expanded here.
    fn macro_named(&self, name: Node, text: &str) -> Option<Macro> {
        if self.macro_depth >= MAX_MACRO_DEPTH || name.kind() != "identifier" {
            return None;
        }
        let m = self.file.macros.get(node_text(name, text))?;
        if m.params.is_none() || m.body.contains('#') || m.body.trim().is_empty() {
            return None;
        }
        Some(m.clone())
    }

    fn expand(&self, m: &Macro, call: Node, text: &str) -> Option<String> {
        self.expand_with(m, call, text, true)
    }

    /// The expansion; arguments in parentheses when `wrap` (as operands),
    /// as written otherwise (a `static_assert` message must stay a string).
    fn expand_with(&self, m: &Macro, call: Node, text: &str, wrap: bool) -> Option<String> {
        expand_args(m, &macro_args(call.field("arguments")?, text), wrap)
    }

    /// `MACRO(args);` where the macro expands to statements: lower the
    /// expansion in place, every span set to the use site.
    fn expand_statement_macro(&mut self, call: Node, text: &str, dest: Dest) -> bool {
        let Some(m) = self.macro_for_call(call, text) else {
            return false;
        };
        let Some(mut expansion) = self.expand(&m, call, text) else {
            return false;
        };
        // `static_assert((c), ("why"))` does not parse: its message must be
        // a string literal.
        if expansion.trim_start().starts_with("static_assert")
            && let Some(raw) = self.expand_with(&m, call, text, false)
        {
            expansion = raw;
        }
        let Some((wrapped, tree)) = self.parse_expansion(&format!("{expansion}\n;"), span_of(call))
        else {
            return false;
        };
        let Some(body) = expansion_body(&tree) else {
            return false;
        };
        let site = Some(span_of(call));
        self.macro_depth += 1;
        let first_expr = self.f.exprs.len();
        let mut c = body.walk();
        let stmts: Vec<Node> = body.named_children(&mut c).collect();
        for s in stmts {
            self.lower_stmts(s, &wrapped, dest, site);
        }
        self.tag_macro_calls(first_expr, &m.name);
        self.macro_depth -= 1;
        true
    }

    /// Parse `body` as an expression and lower it, spans set to `site`.
    fn lower_macro_expr(
        &mut self,
        body: &str,
        site: ByteSpan,
        depth: usize,
        name: &str,
    ) -> Option<ExprId> {
        let (wrapped, tree) =
            self.parse_expansion(&format!("__warplint_e__ = ({body});\n"), site)?;
        let rhs = expansion_body(&tree)?
            .named_child(0)?
            .named_child(0)?
            .field("right")?;
        self.macro_depth += 1;
        let first_expr = self.f.exprs.len();
        let id = self.lower_expr(rhs, &wrapped, depth + 1, Some(site));
        self.tag_macro_calls(first_expr, name);
        self.macro_depth -= 1;
        Some(id)
    }

    /// `statements` (a macro's expansion) parsed as the body of a function
    /// of their own, the bytes charged to the expansion budget at `site`.
    /// `None` where the budget is spent or the text does not parse without
    /// errors. The text is returned with its tree: nodes read it.
    fn parse_expansion(&mut self, statements: &str, site: ByteSpan) -> Option<(String, Tree)> {
        let wrapped = format!("void __warplint_expansion__() {{\n{statements}}}\n");
        if !self.charge_expansion(wrapped.len(), site) {
            return None;
        }
        let tree = parse_text(&wrapped)?;
        (!tree.root_node().has_error()).then_some((wrapped, tree))
    }

    /// Take `bytes` from the expansion budget; when it is spent, record the
    /// use site as unsupported and say no.
    fn charge_expansion(&mut self, bytes: usize, site: ByteSpan) -> bool {
        let left = self.expansion_budget.get();
        if bytes > left {
            self.expansion_budget.set(0);
            if self.f.unsupported.last() != Some(&site) {
                self.f.unsupported.push(site);
            }
            return false;
        }
        self.expansion_budget.set(left - bytes);
        true
    }

    /// Mark calls created since `first_expr` as coming from macro `name`.
    fn tag_macro_calls(&mut self, first_expr: usize, name: &str) {
        for e in &mut self.f.exprs[first_expr..] {
            if let ExprKind::Call(c) = &mut e.kind {
                c.via_macro.get_or_insert_with(|| name.to_owned());
            }
        }
    }

    fn lower_expr(&mut self, n: Node, text: &str, depth: usize, site: Option<ByteSpan>) -> ExprId {
        let span = self.span(n, site);
        if depth > MAX_EXPR_DEPTH {
            return self.expr(ExprKind::Unknown, span);
        }
        let d = depth + 1;
        let kind = match n.kind() {
            "number_literal" => {
                let t = node_text(n, text);
                match parse_int_literal(t) {
                    // `5L`, `1ull`: 64-bit arithmetic around it.
                    Some(v) if t.contains(['l', 'L']) => {
                        let id = self.expr(ExprKind::Int(v), span);
                        self.f.casts.insert(id);
                        return id;
                    }
                    Some(v) => ExprKind::Int(v),
                    None => t
                        .trim_end_matches(['f', 'F', 'l', 'L'])
                        .parse::<f64>()
                        .map(ExprKind::Float)
                        .unwrap_or(ExprKind::Unknown),
                }
            }
            "sizeof_expression" => self.lower_sizeof(n, text),
            "true" => ExprKind::Int(1),
            "false" | "null" | "nullptr" => ExprKind::Int(0),
            "char_literal" => node_text(n, text)
                .chars()
                .nth(1)
                .map(|c| ExprKind::Int(c as i64))
                .unwrap_or(ExprKind::Unknown),
            "identifier" => {
                let name = node_text(n, text);
                if name == "warpSize" {
                    ExprKind::Builtin(Builtin::WarpSize)
                } else {
                    // Object-like macros that are not plain numbers (those
                    // are file constants) expand in place.
                    if let Some(m) = self.file.macros.get(name)
                        && m.params.is_none()
                        && self.macro_depth < MAX_MACRO_DEPTH
                        && !m.body.trim().is_empty()
                        && parse_int_literal(m.body.trim()).is_none()
                    {
                        let body = m.body.clone();
                        if let Some(id) = self.lower_macro_expr(&body, span, depth, name) {
                            return id;
                        }
                    }
                    match standard_limit(name) {
                        Some(v) if self.file.macros.get(name).is_none() => ExprKind::Int(v),
                        _ => ExprKind::Var(name.to_owned()),
                    }
                }
            }
            "qualified_identifier" => {
                if let Some(id) = self.lower_power_of_two(n, text, d, site, span) {
                    return id;
                }
                let name = last_segment(node_text(n, text)).to_owned();
                self.f.scoped_names.insert(name.clone());
                let id = self.expr(ExprKind::Var(name), span);
                let written: String = node_text(n, text).split_whitespace().collect();
                self.qualified.push((id, written));
                return id;
            }
            "field_expression" => {
                let arg = n.field("argument");
                let field = n.field("field").map(|f| node_text(f, text)).unwrap_or("");
                let dim = match field {
                    "x" => Some(Dim::X),
                    "y" => Some(Dim::Y),
                    "z" => Some(Dim::Z),
                    _ => None,
                };
                let base = arg.map(|a| node_text(a, text)).unwrap_or("");
                if arg.is_some_and(|a| a.kind() == "this") {
                    // `this->x` is the member's field `x`.
                    return self.expr(ExprKind::Var(field.to_owned()), span);
                }
                // A static member read through an object (`tile_float.ne`):
                // the class's, one value for every thread.
                if arg.is_some_and(|a| a.kind() == "identifier")
                    && let Some(class) = self.var_classes.get(base)
                    && self.classes.has_static_member(class, field)
                {
                    let key = format!("{class}::{field}");
                    self.f.scoped_names.insert(key.clone());
                    return self.expr(ExprKind::Var(key), span);
                }
                match (base, dim) {
                    ("threadIdx", Some(d)) => ExprKind::Builtin(Builtin::ThreadIdx(d)),
                    ("blockIdx", Some(d)) => ExprKind::Builtin(Builtin::BlockIdx(d)),
                    ("blockDim", Some(d)) => ExprKind::Builtin(Builtin::BlockDim(d)),
                    ("gridDim", Some(d)) => ExprKind::Builtin(Builtin::GridDim(d)),
                    _ => {
                        let b = self.lower_opt(arg, text, d, site, span);
                        ExprKind::Member(b, field.to_owned())
                    }
                }
            }
            "parenthesized_expression" => {
                return self.lower_opt(n.named_child(0), text, d, site, span);
            }
            "cast_expression" => {
                let v = self.lower_opt(n.field("value"), text, d, site, span);
                self.f.casts.insert(v);
                return v;
            }
            "unary_expression" | "pointer_expression" => {
                let op = n
                    .field("operator")
                    .map(|o| node_text(o, text))
                    .unwrap_or("");
                let a = self.lower_opt(n.field("argument"), text, d, site, span);
                match op {
                    "-" => ExprKind::Unary(UnOp::Neg, a),
                    "+" => return a,
                    "!" => ExprKind::Unary(UnOp::Not, a),
                    "~" => ExprKind::Unary(UnOp::BitNot, a),
                    "*" => ExprKind::Unary(UnOp::Deref, a),
                    "&" => ExprKind::Unary(UnOp::AddrOf, a),
                    _ => ExprKind::Unknown,
                }
            }
            "binary_expression" => {
                if let Some(id) = self.lower_left_spine(n, text, d, site) {
                    return id;
                }
                let op = n
                    .field("operator")
                    .map(|o| node_text(o, text))
                    .unwrap_or("");
                let l = self.lower_opt(n.field("left"), text, d, site, span);
                let r = self.lower_opt(n.field("right"), text, d, site, span);
                match binop(op) {
                    Some(op) => ExprKind::Binary(op, l, r),
                    None => ExprKind::Unknown,
                }
            }
            "assignment_expression" => {
                let op = n
                    .field("operator")
                    .map(|o| node_text(o, text))
                    .unwrap_or("=");
                let lhs = self.lower_opt(n.field("left"), text, d, site, span);
                let rhs = self.lower_opt(n.field("right"), text, d, site, span);
                let op = if op == "=" {
                    None
                } else {
                    binop(op.trim_end_matches('='))
                };
                ExprKind::Assign { op, lhs, rhs }
            }
            "update_expression" => {
                let op = n
                    .field("operator")
                    .map(|o| node_text(o, text))
                    .unwrap_or("++");
                let prefix = n.child(0).is_some_and(|c| matches!(c.kind(), "++" | "--"));
                let target = self.lower_opt(n.field("argument"), text, d, site, span);
                ExprKind::Update {
                    increment: op == "++",
                    prefix,
                    target,
                }
            }
            "conditional_expression" => {
                let c = self.lower_opt(n.field("condition"), text, d, site, span);
                let a = self.lower_opt(n.field("consequence"), text, d, site, span);
                let b = self.lower_opt(n.field("alternative"), text, d, site, span);
                ExprKind::Ternary(c, a, b)
            }
            "comma_expression" => {
                let a = self.lower_opt(n.field("left"), text, d, site, span);
                let b = self.lower_opt(n.field("right"), text, d, site, span);
                ExprKind::Comma(a, b)
            }
            "subscript_expression" => {
                let base = self.lower_opt(n.field("argument"), text, d, site, span);
                let idx_node = n
                    .field("indices")
                    .and_then(|l| l.named_child(0))
                    .or_else(|| n.field("index"));
                let idx = self.lower_opt(idx_node, text, d, site, span);
                ExprKind::Index(base, idx)
            }
            "call_expression" => {
                if let Some(m) = self.macro_for_call(n, text)
                    && let Some(exp) = self.expand(&m, n, text)
                    && let Some(id) = self.lower_macro_expr(&exp, span, depth, &m.name)
                {
                    return id;
                }
                return self.lower_call(n, text, depth, site);
            }
            "gnu_asm_expression" => self.lower_asm(n, text, d, site, span),
            "lambda_expression" => match self.lower_lambda(n, text) {
                Some(l) => ExprKind::Lambda(l),
                None => ExprKind::Unknown,
            },
            // `MaxType{__shfl_xor_sync(…)}`, `f({a, b})`: the elements are
            // evaluated (a warp primitive among them is a call like any
            // other), the aggregate itself is an unknown value; one element
            // of an integer type is that element, as a cast would be. Plain
            // names and literals have no effect and are skipped, and at most
            // `MAX_INITIALIZER_EFFECTS` elements are kept: a table of
            // thousands of values is one unknown, not a chain that deep.
            "compound_literal_expression" | "initializer_list" => {
                let list = if n.kind() == "initializer_list" {
                    Some(n)
                } else {
                    n.field("value")
                };
                let elements: Vec<Node> = list
                    .map(|l| {
                        let mut c = l.walk();
                        l.named_children(&mut c)
                            .filter(|e| e.kind() != "comment")
                            .collect()
                    })
                    .unwrap_or_default();
                let integral = n.kind() == "compound_literal_expression"
                    && n.field("type")
                        .is_some_and(|t| type_text_is_integral(node_text(t, text)));
                if integral && let [one] = elements.as_slice() {
                    let v = self.lower_expr(*one, text, d, site);
                    self.f.casts.insert(v);
                    return v;
                }
                let values: Vec<ExprId> = elements
                    .into_iter()
                    .filter(|e| {
                        !matches!(
                            e.kind(),
                            "number_literal"
                                | "char_literal"
                                | "string_literal"
                                | "true"
                                | "false"
                                | "identifier"
                                | "null"
                                | "nullptr"
                        )
                    })
                    .take(MAX_INITIALIZER_EFFECTS)
                    .map(|e| self.lower_expr(e, text, d, site))
                    .collect();
                let mut acc = self.expr(ExprKind::Unknown, span);
                for v in values.into_iter().rev() {
                    acc = self.expr(ExprKind::Comma(v, acc), span);
                }
                return acc;
            }
            _ => ExprKind::Unknown,
        };
        self.expr(kind, span)
    }

    /// CUB's `PowerOfTwo<N>::VALUE` is `(N & (N - 1)) == 0` (its
    /// definition in `util_type.cuh`): lowered as that expression, so a
    /// logical warp's mask layout is computed, not guessed.
    fn lower_power_of_two(
        &mut self,
        n: Node,
        text: &str,
        depth: usize,
        site: Option<ByteSpan>,
        span: ByteSpan,
    ) -> Option<ExprId> {
        let mut cur = n;
        for _ in 0..8 {
            match cur.field("name") {
                Some(inner) if inner.kind() == "qualified_identifier" => cur = inner,
                _ => break,
            }
        }
        let scope = cur.field("scope")?;
        let name = cur.field("name")?;
        if node_text(name, text) != "VALUE"
            || scope.kind() != "template_type"
            || scope
                .field("name")
                .is_none_or(|t| node_text(t, text) != "PowerOfTwo")
        {
            return None;
        }
        let args = scope.field("arguments")?;
        if args.named_child_count() != 1 {
            return None;
        }
        let arg = args.named_child(0)?;
        let value = if arg.kind() == "type_descriptor" {
            // `PowerOfTwo<WIDTH>`: a template value parsed as a type name.
            let word = node_text(arg, text).trim();
            if !word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return None;
            }
            self.expr(ExprKind::Var(word.to_owned()), span)
        } else {
            self.lower_expr(arg, text, depth, site)
        };
        let one = self.expr(ExprKind::Int(1), span);
        let zero = self.expr(ExprKind::Int(0), span);
        let less = self.expr(ExprKind::Binary(BinOp::Sub, value, one), span);
        let and = self.expr(ExprKind::Binary(BinOp::BitAnd, value, less), span);
        Some(self.expr(ExprKind::Binary(BinOp::Eq, and, zero), span))
    }

    fn lower_opt(
        &mut self,
        n: Option<Node>,
        text: &str,
        depth: usize,
        site: Option<ByteSpan>,
        span: ByteSpan,
    ) -> ExprId {
        match n {
            Some(x) => self.lower_expr(x, text, depth, site),
            None => self.expr(ExprKind::Unknown, span),
        }
    }

    /// Before this function and its lambdas join a longer list at `base`
    /// (the module's; 0 for a lambda joining its enclosing function's,
    /// whose indices it already uses): record what its by-reference
    /// lambdas write of its names, and point its lambda references into
    /// that list.
    fn close_lambdas(&mut self, base: usize) {
        let mut written: Vec<String> = (self.lambdas.iter())
            .filter(|l| l.captures_by_reference)
            .flat_map(Function::outer_writes)
            .map(str::to_owned)
            .collect();
        written.sort_unstable();
        written.dedup();
        self.f.lambda_writes = written;
        for f in self.lambdas.iter_mut().chain(std::iter::once(&mut self.f)) {
            f.map_lambdas(|l| Some(base + l));
        }
    }

    /// Lower the lambda `n` into this function's list: its index there.
    /// Not within a macro's expansion (whose text is not the file's).
    fn lower_lambda(&mut self, n: Node, text: &str) -> Option<usize> {
        if self.macro_depth > 0 {
            return None;
        }
        let body = n.field("body")?;
        let mut f = empty_function();
        f.name = format!("{}::<lambda@{}>", self.f.name, n.start_byte());
        f.kind = FnKind::Lambda;
        // In a member, `[&]` and `[this]` capture the object: unqualified
        // names are its fields and members there too.
        f.class = self.f.class.clone();
        f.class_at = self.f.class_at;
        f.captures_by_reference = n
            .field("captures")
            .is_some_and(|c| node_text(c, text).contains('&'));
        f.span = span_of(n);
        f.name_span = (n.start_byte(), n.start_byte() + 1);
        let mut lb = FnBuilder {
            file: self.file,
            env: self.env,
            f,
            macro_depth: 0,
            lambdas: Vec::new(),
            lambda_base: self.lambda_base + self.lambdas.len(),
            constants: self.constants,
            // Captured groups keep their meaning inside the lambda.
            groups: self.groups.clone(),
            classes: self.classes,
            var_classes: self.var_classes.clone(),
            // Constructions index the enclosing function's list.
            objects: HashMap::default(),
            aliases: self.aliases.clone(),
            file_aliases: self.file_aliases,
            cute_unscoped: self.cute_unscoped,
            expansion_budget: self.expansion_budget.clone(),
            governed_blocks: Default::default(),
            governed_depth: 0,
            qualified: Vec::new(),
            // Captures are the enclosing function's variables.
            variables: self.variables.clone(),
            arrays: self.arrays.clone(),
            // Captured lambdas: a call of one runs it.
            lambda_vars: self.lambda_vars.clone(),
            type_params: self.type_params.clone(),
        };
        if let Some(params) = n.field("declarator").and_then(|d| d.field("parameters")) {
            lb.lower_params(params, text);
        }
        // A parameter of the same name hides the captured lambda.
        for p in &lb.f.params {
            lb.lambda_vars.remove(&p.name);
        }
        let mut work = Vec::new();
        push_children(body, Dest::Body, &mut work);
        while let Some((s, dest)) = work.pop() {
            lb.lower_one(s, text, dest, None, &mut work);
        }
        lb.close_lambdas(0);
        self.lambdas.append(&mut lb.lambdas);
        self.lambdas.push(lb.f);
        Some(self.lambda_base + self.lambdas.len() - 1)
    }

    fn lower_call(&mut self, n: Node, text: &str, depth: usize, site: Option<ByteSpan>) -> ExprId {
        if let Some(id) = self.lower_group_call(n, text, depth, site) {
            return id;
        }
        let span = self.span(n, site);
        // `[&] (int i) { … __syncthreads(); … } (i)`: a lambda called
        // where it is written runs there.
        if let Some(f) = n.field("function")
            && f.kind() == "lambda_expression"
        {
            let lambda = self.lower_lambda(f, text);
            let written = self.span(f, site);
            if let Some(l) = lambda {
                self.expr(ExprKind::Lambda(l), written);
            }
            let id = self.lower_call_of(n, None, Vec::new(), text, depth, site, span);
            if let ExprKind::Call(c) = &mut self.f.exprs[id as usize].kind {
                c.name = crate::ir::INLINE_LAMBDA.to_owned();
                c.target = lambda;
            }
            return id;
        }
        if let Some(id) = self.lower_left_spine(n, text, depth, site) {
            return id;
        }
        self.lower_call_of(n, n.field("function"), Vec::new(), text, depth, site, span)
    }

    /// The call `n` of the function `f` names (`n`'s own function, or the
    /// callee of a misread comparison, whose template arguments come as
    /// `given_template_args`), with `n`'s arguments.
    #[allow(clippy::too_many_arguments)]
    fn lower_call_of(
        &mut self,
        n: Node,
        f: Option<Node>,
        given_template_args: Vec<String>,
        text: &str,
        depth: usize,
        site: Option<ByteSpan>,
        span: ByteSpan,
    ) -> ExprId {
        let mut name = String::new();
        let mut scope = None;
        let mut receiver = None;
        let mut template_args = given_template_args;
        let mut temporary = None;
        if let Some(f) = f {
            let mut target = f;
            if f.kind() == "field_expression" {
                let obj = f.field("argument");
                // `this->f(…)` is the member call `f(…)`.
                if obj.is_none_or(|o| o.kind() != "this") {
                    let r = self.lower_opt(obj, text, depth + 1, site, span);
                    temporary = obj.and_then(|o| self.temporary(o, r, text));
                    receiver = Some(r);
                }
                target = f.field("field").unwrap_or(f);
            }
            // `WarpSum()(v)`: a temporary's `operator()`.
            let mut functor = false;
            if f.kind() == "call_expression" {
                let r = self.lower_expr(f, text, depth + 1, site);
                temporary = self.temporary(f, r, text);
                receiver = Some(r);
                functor = true;
            }
            let mut guard = 0;
            while target.kind() == "qualified_identifier" && guard < 16 {
                guard += 1;
                if scope.is_none() {
                    let full = node_text(target, text);
                    let s = full.rsplit_once("::").map(|(s, _)| s).unwrap_or("").trim();
                    // `WS::run(v)` through a local alias names its type.
                    scope = Some(self.alias(s).map_or(s, String::as_str).to_owned());
                }
                match target.field("name") {
                    Some(inner) => target = inner,
                    None => break,
                }
            }
            if matches!(target.kind(), "template_function" | "template_method") {
                if let Some(args) = target.field("arguments") {
                    let mut c = args.walk();
                    template_args = args
                        .named_children(&mut c)
                        .map(|a| node_text(a, text).to_owned())
                        .collect();
                }
                target = target.field("name").unwrap_or(target);
            }
            name = last_segment(node_text(target, text)).to_owned();
            // `static_cast<int>(x)` is the C cast `(int)x`: the operand,
            // so that `static_cast<int>(threadIdx.x) < 32` reads as what it
            // is. Only integer targets: a cast to float changes arithmetic.
            // So is a functional cast to an integer type, `uint32_t(-1)`.
            let unscoped = scope.as_deref().is_none_or(|s| s.is_empty());
            let named_cast = matches!(name.as_str(), "static_cast" | "const_cast")
                && unscoped
                && matches!(template_args.as_slice(),
                    [ty] if name == "const_cast" || type_text_is_integral(ty));
            let functional_cast = template_args.is_empty()
                && (unscoped || scope.as_deref() == Some("std"))
                && type_text_is_integral(&name);
            if receiver.is_none()
                && (named_cast || functional_cast)
                && let Some(a) = n.field("arguments")
                && a.named_child_count() == 1
            {
                let v = self.lower_opt(a.named_child(0), text, depth + 1, site, span);
                self.f.casts.insert(v);
                return v;
            }
            // `apply(x)` where `apply` is a parameter calls that object (a
            // functor or lambda): C++ finds the parameter before any
            // function of the same name, so it is never that function.
            // So does `sum(x)` on an object this function declared by
            // value (`WarpSum sum;`).
            let object_called = |b: &Self, name: &str| {
                b.f.params.iter().any(|p| p.name == name)
                    || (b.objects.contains_key(name) && !b.lambda_vars.contains_key(name))
            };
            if receiver.is_none()
                && target.kind() == "identifier"
                && target == f
                && object_called(self, &name)
            {
                let written = self.span(target, site);
                receiver = Some(self.expr(ExprKind::Var(name), written));
                name = CALL_OPERATOR.to_owned();
            }
            if functor {
                name = CALL_OPERATOR.to_owned();
            }
        }
        let lambda = (receiver.is_none() && scope.is_none())
            .then(|| self.lambda_vars.get(&name).copied())
            .flatten();
        if self.cute_unscoped
            && receiver.is_none()
            && scope.is_none()
            && template_args.is_empty()
            && library::SHAPE_QUERIES.contains(&name.as_str())
            && n.field("arguments")
                .is_some_and(|a| a.named_child_count() == 1)
        {
            scope = Some("cute".to_owned());
        }
        // `obj.run()` on an object this function declared by value, or on
        // a temporary (`WS(temp).run()`).
        let object = receiver
            .and_then(|r| match &self.f.expr(r).kind {
                ExprKind::Var(v) => self.objects.get(v).copied(),
                _ => temporary,
            })
            .map(|k| ObjectRef {
                class: self.f.constructions[k].class.clone(),
                class_at: None,
                construction: Some(k),
            });
        let mut args = Vec::new();
        let mut array_args = 0u64;
        let mut tags = Vec::new();
        if let Some(a) = n.field("arguments") {
            let mut c = a.walk();
            let list: Vec<Node> = a
                .named_children(&mut c)
                .filter(|k| k.kind() != "comment")
                .collect();
            for (i, arg) in list.into_iter().enumerate() {
                if i < 64
                    && arg.kind() == "identifier"
                    && self.arrays.contains(node_text(arg, text))
                {
                    array_args |= 1 << i;
                }
                let id = self.lower_expr(arg, text, depth + 1, site);
                if let Some(k) = self.passed_object(arg, id, text) {
                    self.f.passed_objects.push((id, k));
                }
                if let Some(d) = self.deducing(arg, text) {
                    self.f.deducing_arguments.push((id, d));
                }
                if let Some(tag) = self.tag_argument(arg, text, depth, site)
                    && let Ok(k) = u8::try_from(i)
                {
                    tags.push((k, tag));
                }
                args.push(id);
            }
        }
        // A constant `constexpr` function (`seg_width()`, `Cfg::width()`,
        // `lower::constants`) is its value, for the runs as for folding.
        if args.is_empty() && receiver.is_none() && template_args.is_empty() && lambda.is_none() {
            let member = self.f.class.is_some();
            let value = crate::ir::fold::call_keys(member, scope.as_deref(), &name)
                .find_map(|k| self.constants.get(&k).copied());
            if let Some(v) = value {
                return self.expr(ExprKind::Int(v), span);
            }
        }
        self.expr(
            ExprKind::Call(Box::new(Call {
                name,
                scope,
                receiver,
                object,
                args,
                template_args,
                via_macro: None,
                home: None,
                from_free_function: false,
                target: lambda,
                array_args,
                tags,
            })),
            span,
        )
    }
}

fn push_children<'t>(n: Node<'t>, dest: Dest, work: &mut Vec<(Node<'t>, Dest)>) {
    let mut c = n.walk();
    let kids: Vec<Node> = n.named_children(&mut c).collect();
    for k in kids.into_iter().rev() {
        work.push((k, dest));
    }
}

/// The body of the function [`FnBuilder::parse_expansion`] wraps statements in.
fn expansion_body(tree: &Tree) -> Option<Node<'_>> {
    tree.root_node().named_child(0)?.field("body")
}

/// The block after a statement whose `;` the parser had to supply: what a
/// macro use before it (`IF_LANE(0) { … }`) may govern.
fn governed_block(stmt: Node) -> Option<Node> {
    let semi = stmt.child(stmt.child_count().checked_sub(1)?)?;
    if !(semi.is_missing() || semi.start_byte() == semi.end_byte()) {
        return None;
    }
    stmt.next_named_sibling()
        .filter(|b| b.kind() == "compound_statement")
}

/// The arguments of a macro use as written: the list's children but
/// comments (`(i, n)` of `LOOP(i, n)`, whether it parsed as a call's
/// arguments or as a declarator's parameters).
fn macro_args<'t>(list: Node, text: &'t str) -> Vec<&'t str> {
    let mut c = list.walk();
    (list.named_children(&mut c))
        .filter(|a| a.kind() != "comment")
        .map(|a| node_text(a, text))
        .collect()
}

/// `m`'s body with `args` for its parameters; each in parentheses when
/// `wrap` (as operands).
fn expand_args(m: &Macro, args: &[&str], wrap: bool) -> Option<String> {
    let params = m.params.as_ref()?;
    let variadic = params.last().is_some_and(|p| p == "...");
    if args.len() != params.len() && !variadic {
        return None;
    }
    let mut map: HashMap<&str, String> = HashMap::default();
    for (i, p) in params.iter().enumerate() {
        if p == "..." {
            map.insert("__VA_ARGS__", args[i.min(args.len())..].join(", "));
        } else if let Some(a) = args.get(i) {
            let a = if wrap {
                format!("({a})")
            } else {
                (*a).to_owned()
            };
            map.insert(p.as_str(), a);
        }
    }
    Some(substitute_identifiers(&m.body, &map))
}

/// The condition of `assert(c)`, `__builtin_assume(c)` or `__assume(c)`
/// called as a statement.
fn assumed_condition<'t>(e: Node<'t>, text: &str) -> Option<Node<'t>> {
    if e.kind() != "call_expression" {
        return None;
    }
    let f = e.field("function")?;
    if !matches!(
        node_text(f, text),
        "assert" | "__builtin_assume" | "__assume"
    ) {
        return None;
    }
    sole_named_child(e.field("arguments")?)
}

/// `__trap()` or `asm("trap;")`: the thread aborts the whole grid.
fn is_trap(e: Node, text: &str) -> bool {
    match e.kind() {
        "call_expression" => e
            .field("function")
            .is_some_and(|f| node_text(f, text).trim() == "__trap"),
        "gnu_asm_expression" => e.field("assembly_code").is_some_and(|c| {
            let code = node_text(c, text);
            code.trim_matches(|ch: char| ch == '"' || ch.is_whitespace())
                .trim_end_matches(';')
                .trim()
                == "trap"
        }),
        _ => false,
    }
}

fn empty_function() -> Function {
    Function {
        name: String::new(),
        kind: FnKind::Device,
        params: Vec::new(),
        template_values: Vec::new(),
        template_positions: Vec::new(),
        class_params: Vec::new(),
        bound_values: Vec::new(),
        template_defaults: Vec::new(),
        type_params: Vec::new(),
        class_type_params: Vec::new(),
        runs_as_instances: false,
        type_sizes: Vec::new(),
        flag_values: Vec::new(),
        tile_sizes: Vec::new(),
        constant_names: Vec::new(),
        dependent_names: Vec::new(),
        class_constants: Vec::new(),
        launch_bounds: None,
        class: None,
        class_at: None,
        namespace: None,
        body: Vec::new(),
        stmts: Vec::new(),
        exprs: Vec::new(),
        span: (0, 0),
        name_span: (0, 0),
        unsupported: Vec::new(),
        has_labels: false,
        lambda_writes: Vec::new(),
        bound_lambdas: Vec::new(),
        passed_objects: Vec::new(),
        object_locals: Vec::new(),
        deducing_arguments: Vec::new(),
        deduced_params: Vec::new(),
        group_params: Vec::new(),
        captures_by_reference: false,
        file: 0,
        scoped_names: Default::default(),
        asserts: Vec::new(),
        casts: Default::default(),
        constructions: Vec::new(),
        state_fields: Vec::new(),
        prelude: 0..0,
    }
}

fn binop(op: &str) -> Option<BinOp> {
    Some(match op {
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "*" => BinOp::Mul,
        "/" => BinOp::Div,
        "%" => BinOp::Rem,
        "<<" => BinOp::Shl,
        ">>" => BinOp::Shr,
        "&" => BinOp::BitAnd,
        "|" => BinOp::BitOr,
        "^" => BinOp::BitXor,
        "&&" => BinOp::And,
        "||" => BinOp::Or,
        "<" => BinOp::Lt,
        "<=" => BinOp::Le,
        ">" => BinOp::Gt,
        ">=" => BinOp::Ge,
        "==" => BinOp::Eq,
        "!=" => BinOp::Ne,
        _ => return None,
    })
}

/// Replace whole-word identifiers in `body` by their arguments.
fn substitute_identifiers(body: &str, map: &HashMap<&str, String>) -> String {
    let mut out = String::with_capacity(body.len());
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_alphabetic() || b == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let word = &body[start..i];
            match map.get(word) {
                Some(rep) => out.push_str(rep),
                None => out.push_str(word),
            }
        } else {
            let ch = body[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::parse;
    use crate::source::SourceFile;

    fn calls_of(f: &Function) -> Vec<&Call> {
        f.exprs
            .iter()
            .filter_map(|e| match &e.kind {
                ExprKind::Call(c) => Some(&**c),
                _ => None,
            })
            .collect()
    }

    fn lower(src: &str) -> Module {
        let parsed = parse(SourceFile::new("t.cu", src.as_bytes())).unwrap();
        lower_file(&parsed, &PreprocEnv::default())
    }

    /// The elements of a brace initializer are lowered for their effects
    /// (a shuffle inside `T{…}`), at most `MAX_INITIALIZER_EFFECTS` of them:
    /// a table of thousands of calls is no chain thousands deep.
    #[test]
    fn brace_initializer_elements_are_lowered_and_bounded() {
        let table: Vec<String> = (0..5000).map(|i| format!("g({i})")).collect();
        let src = format!(
            "struct P {{ float v; }};\n__device__ float g(int i);\n\
             __device__ void k(float x) {{\n  P p = P{{__shfl_xor_sync(0xffffffff, x, 1)}};\n\
             Table t = Table{{{}}};\n}}\n",
            table.join(", ")
        );
        let m = lower(&src);
        let k = m.function("k").unwrap();
        let names: Vec<&str> = calls_of(k).iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names.iter().filter(|n| **n == "__shfl_xor_sync").count(), 1);
        assert_eq!(
            names.iter().filter(|n| **n == "g").count(),
            MAX_INITIALIZER_EFFECTS
        );
    }

    #[test]
    fn member_calls_on_declared_objects_resolve_and_fields_name_their_argument() {
        let src = "struct A {\n  int n; int *p; int k;\n\
                   __device__ A(int n, int *p, int s = 0) : n(n), p(p + 1), k(s) {}\n\
                   __device__ void run() { __syncwarp(); }\n};\n\
                   struct B { __device__ void run() {} };\n\
                   __global__ void k(int n, int *q) {\n  A a(n, q);\n  a.run();\n\
                   A b{n + 1, q, 3};\n  b.run();\n  B c;\n  c.run();\n}\n";
        let m = lower(src);
        let k = m.function("k").unwrap();
        let calls = calls_of(k);
        let resolved: Vec<Option<&str>> = calls
            .iter()
            .map(|c| m.callee(c).and_then(|g| m.functions[g].class.as_deref()))
            .collect();
        assert_eq!(resolved, [Some("A"), Some("A"), Some("B")]);
        assert_eq!(k.object_classes(), ["A", "B"]);
        // `A a(n, q)` passes two names; `A b{n + 1, q, 3}` no plain first
        // argument.
        let args: Vec<usize> = k
            .constructions
            .iter()
            .map(|c| c.args.as_ref().map_or(9, Vec::len))
            .collect();
        assert_eq!(args, [2, 3, 0]);
        assert!(k.constructions[1].args.as_ref().unwrap()[0].is_none());
        let run = m
            .functions
            .iter()
            .find(|f| f.name == "run" && f.class.as_deref() == Some("A"))
            .unwrap();
        let slots: Vec<(&str, Option<CtorSlot>)> = run
            .params
            .iter()
            .map(|p| (p.name.as_str(), p.ctor_slot))
            .collect();
        let slot = |index| {
            Some(CtorSlot {
                index,
                min_args: 2,
                max_args: 3,
                exact: true,
            })
        };
        // `p(p + 1)` is not the argument itself, but computed from it
        // alone: its slot, not exact (the field has the argument's level).
        let computed = Some(CtorSlot {
            exact: false,
            ..slot(1).unwrap()
        });
        assert_eq!(slots, [("n", slot(0)), ("p", computed), ("k", slot(2))]);
        // `p(p + 1)` is arithmetic on the argument: evaluated per
        // construction, with `p` bound to it.
        let values: Vec<Option<&str>> = run
            .params
            .iter()
            .map(|p| p.ctor_value.as_ref().map(|(name, _, _)| name.as_str()))
            .collect();
        assert_eq!(values, [None, Some("p"), None]);
        // A field of the argument has its level, not its value.
        let of_field = lower(
            "struct I { int rank; };\nstruct B {\n  int rank;\n\
             __device__ B(const I *info) : rank(info->rank) {}\n\
             __device__ void run() { __syncwarp(); }\n};\n",
        );
        let run_b = of_field.functions.iter().find(|f| f.name == "run").unwrap();
        assert_eq!(
            run_b.params.iter().map(|p| p.ctor_slot).collect::<Vec<_>>(),
            [Some(CtorSlot {
                index: 0,
                min_args: 1,
                max_args: 1,
                exact: false
            })]
        );
        // In a member, `run()` is the class's own; `::run()` is not.
        let own = "__device__ void run(int n) {}\nstruct C {\n  __device__ void run() {}\n\
                   __device__ void go() { run(); ::run(1); }\n};\n";
        let m2 = lower(own);
        let go = m2.functions.iter().find(|f| f.name == "go").unwrap();
        let targets: Vec<Option<&str>> = calls_of(go)
            .iter()
            .map(|c| {
                m2.callee(c)
                    .map(|g| m2.functions[g].class.as_deref().unwrap_or("-"))
            })
            .collect();
        assert_eq!(targets, [Some("C"), Some("-")]);
        let first = k.constructions[0].field_argument(slot(0).unwrap()).unwrap();
        assert!(matches!(&k.expr(first).kind, ExprKind::Var(v) if v == "n"));
    }

    #[test]
    fn a_class_built_only_by_launched_kernels_runs_under_their_block() {
        let src = "struct Row {\n  int r;\n  __device__ Row() : r(threadIdx.y) {}\n\
                   __device__ void run() { __syncwarp(); }\n};\n\
                   struct Shared {\n  __device__ void run() { __syncwarp(); }\n};\n\
                   struct Mixed {\n  __device__ void run() { __syncwarp(); }\n};\n\
                   __global__ void a() { Row w; w.run(); Shared s; s.run(); Mixed m; }\n\
                   __global__ void b() { Row w(); Shared *p; }\n\
                   __device__ void helper() { Shared s; }\n";
        let mut m = lower(src);
        assert_eq!(
            m.function("a").unwrap().object_classes(),
            ["Row", "Shared", "Mixed"]
        );
        // `Row w();` parses as a function's declaration: still an object.
        assert_eq!(m.function("b").unwrap().object_classes(), ["Row"]);
        m.launch_extents
            .insert("a".into(), [Some(64), Some(4), Some(1)]);
        m.launch_extents
            .insert("b".into(), [Some(64), Some(2), Some(1)]);
        m.inherit_launch_extents();
        // Both kernels build a `Row`: the extents they agree on.
        assert_eq!(
            m.launch_extents.get("Row"),
            Some(&[Some(64), None, Some(1)])
        );
        // A device helper builds a `Shared` too, for any kernel's block.
        assert_eq!(m.launch_extents.get("Shared"), None);
        assert_eq!(
            m.launch_extents.get("Mixed"),
            Some(&[Some(64), Some(4), Some(1)])
        );
    }

    #[test]
    fn a_kernel_with_cluster_dims_is_a_kernel() {
        // `__cluster_dims__` is unknown to the grammar: configuring the
        // file blanks it, so the specifiers before it stay the kernel's.
        let lower = |src: &str| {
            let source = SourceFile::new("t.cu", src.as_bytes());
            let env = PreprocEnv::default();
            let (parsed, _) =
                crate::frontend::parse_configured(source, &env, 1_000_000).expect("parses");
            assert!(parsed.error_regions.is_empty());
            lower_file(&parsed, &env)
        };
        let m = lower(
            "extern \"C\" {\n__global__ __launch_bounds__(512, 1) __cluster_dims__(2, 1, 1) void\n\
             k(int *o, int n) { if (n > 1) o[threadIdx.x] = __shfl_sync(0xffffffff, n, 0); }\n}\n\
             void f(int n); __cluster_dims__(2, 1, 1) void\nh(int *o) { o[threadIdx.x] = 0; }\n",
        );
        let k = m.function("k").unwrap();
        assert!(k.is_kernel());
        assert_eq!(k.launch_bounds, Some(512));
        // No `__global__`: not a kernel.
        assert!(m.function("h").is_none_or(|h| !h.is_kernel()));
        // A bound named by a constant of the file.
        let named = lower(
            "constexpr int kThreads = 256;\n\
             __global__ __launch_bounds__(kThreads) void n(int *o) { o[threadIdx.x] = 0; }\n",
        );
        assert_eq!(named.function("n").unwrap().launch_bounds, Some(256));
    }

    #[test]
    fn lowers_kernels_params_and_launches() {
        let m = lower(
            "#define FULL 0xffffffffu\nconstexpr int W = FULL & 31;\n\
             template <int BLOCK>\n__global__ void __launch_bounds__(256) k(const float *in, int n, unsigned mask = FULL) {\n\
             __shared__ float s[32][33];\n int lane; asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane));\n\
             if (threadIdx.x < n) { for (int o = 16; o > 0; o >>= 1) s[0][lane] += __shfl_down_sync(mask, 1.0f, o); }\n}\n\
             void host() { dim3 b(16, 3); k<128><<<4, b>>>(0, 10); k<64><<<1, 48>>>(0, 7); }\n",
        );
        assert_eq!(m.constants.get("FULL"), Some(&0xffff_ffff));
        assert_eq!(m.constants.get("W"), Some(&31));
        // The launches state `BLOCK`: the kernel is analysed as its two
        // instances, each launch naming its own.
        assert!(m.function("k").is_none());
        assert!(m.function("k<64>").is_some());
        let k = m.function("k<128>").unwrap();
        assert!(k.is_kernel());
        assert_eq!(k.launch_bounds, Some(256));
        assert!(k.template_values.is_empty());
        assert_eq!(m.launches[0].kernel, "k<128>");
        assert_eq!(m.launches[1].kernel, "k<64>");
        assert_eq!(k.params.len(), 3);
        assert!(k.params[2].default.is_some());
        assert_eq!(m.launches.len(), 2);
        assert_eq!(m.launches[0].block_dim, Some([16, 3, 1]));
        assert_eq!(m.launches[0].template_args, vec![TemplateArg::Int(128)]);
        assert_eq!(m.launches[1].block_dim, Some([48, 1, 1]));
        assert_eq!(m.launches[1].args, vec![Some(0), Some(7)]);
        assert!(
            k.exprs
                .iter()
                .any(|e| matches!(e.kind, ExprKind::Builtin(Builtin::LaneId)))
        );
    }

    #[test]
    fn expands_function_like_macros_at_use_sites() {
        let m = lower(
            "#define REDUCE(v) do { for (int o = 16; o; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o); } while (0)\n\
             #define BALLOT(p) __ballot_sync(0xffffffffu, p)\n\
             __device__ void f(int v) { REDUCE(v); unsigned b = BALLOT(v > 0); }\n",
        );
        let f = m.function("f").unwrap();
        let calls = calls_of(f);
        assert!(
            calls
                .iter()
                .any(|c| c.name == "__shfl_xor_sync" && c.via_macro.as_deref() == Some("REDUCE"))
        );
        assert!(
            calls
                .iter()
                .any(|c| c.name == "__ballot_sync" && c.via_macro.as_deref() == Some("BALLOT"))
        );
    }

    #[test]
    fn ten_thousand_nested_blocks_do_not_overflow() {
        let depth = 10_000;
        let src = format!(
            "__global__ void k(int n) {{ {} __syncwarp(); {} }}",
            "if (threadIdx.x < n) {".repeat(depth),
            "}".repeat(depth)
        );
        let m = lower(&src);
        let k = m.function("k").unwrap();
        assert!(k.stmts.len() >= depth);
    }

    #[test]
    fn dead_preprocessor_branches_are_not_lowered() {
        let m = lower(
            "__device__ int f(int v) {\n#if CUDA_VERSION < 9000\n return __shfl(v, 0);\n#else\n return __shfl_sync(0xffffffffu, v, 0);\n#endif\n}\n",
        );
        let f = m.function("f").unwrap();
        assert!(
            f.exprs
                .iter()
                .all(|e| !matches!(&e.kind, ExprKind::Call(c) if c.name == "__shfl"))
        );
        assert!(
            f.exprs
                .iter()
                .any(|e| matches!(&e.kind, ExprKind::Call(c) if c.name == "__shfl_sync"))
        );
    }
}
