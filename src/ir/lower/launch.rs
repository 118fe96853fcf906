//! Launch sites: `kernel<<<grid, block>>>(args)` in host code, with the
//! grid, block and integer arguments evaluated where the file says them.

use crate::frontend::Field as _;
use std::cell::OnceCell;

use super::*;

/// The launches one `kernel<<<…>>>(…)` makes: one per way its host
/// function template is instantiated in the file where the kernel's
/// template arguments name that template's parameters (`k<N, F><<<…>>>`
/// in `template <int N, bool F> void run(…)`, which the file calls as
/// `run<4, true>(…)` and `run<1, false>(…)`); otherwise one.
pub(super) fn launch_sites<'t>(
    call: Node<'t>,
    text: &'t str,
    consts: &HashMap<String, i64>,
    calls: &CallIndex<'t>,
    configs: &Configs<'t>,
) -> Vec<LaunchSite> {
    match launch_parts(call, text, configs) {
        Some(parts) => sites_of(call, &parts, text, consts, calls),
        None => Vec::new(),
    }
}

/// [`launch_sites`] of a launch whose parts are read.
fn sites_of<'t>(
    call: Node<'t>,
    parts: &LaunchParts<'t>,
    text: &'t str,
    consts: &HashMap<String, i64>,
    calls: &CallIndex<'t>,
) -> Vec<LaunchSite> {
    let bindings = calls.bindings_of(enclosing_function(call), |def| {
        host_template_bindings(def, text, consts, calls)
    });
    if bindings.is_empty() {
        return launch_site(call, parts, text, consts, &HashMap::default())
            .into_iter()
            .collect();
    }
    let mut out: Vec<LaunchSite> = Vec::new();
    for b in bindings.iter() {
        if let Some(site) = launch_site(call, parts, text, consts, b)
            && !out.iter().any(|o| o.template_args == site.template_args)
        {
            out.push(site);
        }
    }
    out
}

/// How the file instantiates the function template `def` (a host
/// launcher): per call naming its template arguments, each parameter's
/// argument (an integer, or a class for a type parameter: `run<FullWarp>`;
/// [`TemplateArg::Unknown`] where the call states neither); a call that
/// lets them be deduced binds none. Empty where `def` is no template, nothing
/// calls it that way, or too many calls do ([`MAX_HOST_INSTANCES`]).
fn host_template_bindings<'t>(
    def: Option<Node<'t>>,
    text: &'t str,
    consts: &HashMap<String, i64>,
    calls: &CallIndex<'t>,
) -> Vec<HashMap<&'t str, TemplateArg>> {
    const MAX_HOST_INSTANCES: usize = 8;
    let Some(def) = def else { return Vec::new() };
    let Some(params) = super::opening_template_params(def) else {
        return Vec::new();
    };
    // (name, default) per parameter.
    let types = super::type_params_of(params, text);
    let mut c = params.walk();
    let params: Vec<(Option<&str>, Option<Node>)> = params
        .named_children(&mut c)
        .filter(|p| p.kind() != "comment")
        .enumerate()
        .map(|(at, p)| match p.kind() {
            "parameter_declaration" | "optional_parameter_declaration" => (
                p.field("declarator").map(|d| node_text(d, text)),
                p.field("default_value"),
            ),
            _ if types.iter().any(|(_, t)| *t == at) => {
                (super::type_param_name(p, text), p.field("default_type"))
            }
            _ => (None, None),
        })
        .collect();
    let Some(name) = def
        .field("declarator")
        .and_then(find_function_declarator)
        .and_then(|d| d.field("declarator"))
        .map(|n| last_segment(node_text(n, text)))
    else {
        return Vec::new();
    };
    let mut out: Vec<HashMap<&str, TemplateArg>> = Vec::new();
    for &(n, args) in calls.of(def, name) {
        let scope = enclosing_function(n);
        let given: Vec<Node> = args
            .map(|a| {
                let mut c = a.walk();
                a.named_children(&mut c)
                    .filter(|x| x.kind() != "comment")
                    .collect()
            })
            .unwrap_or_default();
        let mut b = HashMap::default();
        for (i, (param, default)) in params.iter().enumerate() {
            let Some(param) = param else { continue };
            // A call without template arguments deduces them: unknown.
            let value = match (args, given.get(i), default) {
                (None, _, _) => TemplateArg::Unknown,
                (Some(_), Some(a), _) => stated_arg(*a, text, consts, scope),
                (Some(_), None, Some(d)) => stated_arg(*d, text, consts, None),
                (Some(_), None, None) => TemplateArg::Unknown,
            };
            b.insert(*param, value);
        }
        if !out.contains(&b) {
            out.push(b);
        }
        if out.len() > MAX_HOST_INSTANCES {
            return Vec::new();
        }
    }
    out
}

/// The calls of a file by callee name (last segment), with their template
/// argument lists (`None`: none written), gathered in one walk on first
/// use: a file with many launches must not walk itself once per launch.
pub(super) struct CallIndex<'t> {
    text: &'t str,
    by_name: OnceCell<CallsByName<'t>>,
    /// [`host_template_bindings`] per host function (by node id), computed
    /// once for all the launches inside it.
    bindings: std::cell::RefCell<HashMap<usize, Bindings<'t>>>,
}

type Bindings<'t> = std::rc::Rc<Vec<HashMap<&'t str, TemplateArg>>>;

type CallsByName<'t> = HashMap<&'t str, Vec<(Node<'t>, Option<Node<'t>>)>>;

impl<'t> CallIndex<'t> {
    pub(super) fn new(text: &'t str) -> Self {
        CallIndex {
            text,
            by_name: OnceCell::new(),
            bindings: Default::default(),
        }
    }

    /// `compute(def)`, once per `def`.
    fn bindings_of(
        &self,
        def: Option<Node<'t>>,
        compute: impl FnOnce(Option<Node<'t>>) -> Vec<HashMap<&'t str, TemplateArg>>,
    ) -> Bindings<'t> {
        let Some(id) = def.map(|d| d.id()) else {
            return Default::default();
        };
        if let Some(b) = self.bindings.borrow().get(&id) {
            return std::rc::Rc::clone(b);
        }
        let b = std::rc::Rc::new(compute(def));
        self.bindings
            .borrow_mut()
            .insert(id, std::rc::Rc::clone(&b));
        b
    }

    /// The calls named `name` in the file of `at`.
    fn of(&self, at: Node<'t>, name: &str) -> &[(Node<'t>, Option<Node<'t>>)] {
        let text = self.text;
        let index = self.by_name.get_or_init(|| {
            let mut root = at;
            while let Some(p) = root.parent() {
                root = p;
            }
            let mut index: CallsByName<'t> = HashMap::default();
            preorder(root, |n| {
                if n.kind() != "call_expression" {
                    return Walk::Descend;
                }
                let Some(f) = n.field("function") else {
                    return Walk::Descend;
                };
                let (callee, args) = match f.kind() {
                    "template_function" => (f.field("name"), f.field("arguments")),
                    "identifier" | "qualified_identifier" => (Some(f), None),
                    _ => return Walk::Descend,
                };
                if let Some(c) = callee {
                    index
                        .entry(last_segment(node_text(c, text)))
                        .or_default()
                        .push((n, args));
                }
                Walk::Descend
            });
            index
        });
        index.get(name).map_or(&[], Vec::as_slice)
    }
}

/// An integer template argument (`4`, `true`, a constant of the file).
fn template_int(
    a: Node,
    text: &str,
    consts: &HashMap<String, i64>,
    scope: Option<Node>,
) -> Option<i64> {
    if a.kind() == "type_descriptor" {
        // A bare name parses as a type: a file constant, or a local
        // `constexpr int kLanes = 8;` of the launching function.
        let name = node_text(a, text).trim();
        return (consts.get(name).copied())
            .or_else(|| eval_host_int(a.field("type")?, text, consts, scope, 0));
    }
    eval_host_int(a, text, consts, scope, 0)
}

/// An explicit instantiation of a kernel template
/// (`template __global__ void k<4, true>(int*);`, also `extern template`):
/// the kernel's name and its integer template arguments, as a launch
/// states them. Generated kernels are often compiled only as the
/// instances their file lists this way.
pub(super) fn explicit_instantiation(
    n: Node,
    text: &str,
    consts: &HashMap<String, i64>,
) -> Option<(String, Vec<TemplateArg>)> {
    let declarator = n.field("declarator")?;
    if declarator.kind() != "function_declarator" {
        return None;
    }
    let f = declarator.field("declarator")?;
    if f.kind() != "template_function" {
        return None;
    }
    let kernel = last_segment(node_text(f.field("name")?, text)).to_owned();
    let template_args = stated_template_args(
        f.field("arguments")?,
        text,
        consts,
        None,
        &HashMap::default(),
    );
    Some((kernel, template_args))
}

/// Each template argument of `list` (`<4, true>`, `<FullWarp, 2>`): a host
/// launcher template's parameter as `host_values` binds it, else as
/// [`stated_arg`] reads it.
fn stated_template_args(
    list: Node,
    text: &str,
    consts: &HashMap<String, i64>,
    scope: Option<Node>,
    host_values: &HashMap<&str, TemplateArg>,
) -> Vec<TemplateArg> {
    let mut c = list.walk();
    list.named_children(&mut c)
        .filter(|x| x.kind() != "comment")
        .map(|n| match host_values.get(node_text(n, text).trim()) {
            Some(a) => a.clone(),
            None => stated_arg(n, text, consts, scope),
        })
        .collect()
}

/// A template argument as written: an integer as [`template_int`] folds
/// it, else a class it names (not a type parameter of the host code
/// around it, which names no class).
fn stated_arg(
    n: Node,
    text: &str,
    consts: &HashMap<String, i64>,
    scope: Option<Node>,
) -> TemplateArg {
    if let Some(v) = template_int(n, text, consts, scope) {
        return TemplateArg::Int(v);
    }
    let written = node_text(n, text).trim();
    match crate::ir::class_named(written) {
        Some(class)
            if matches!(n.kind(), "type_descriptor" | "type_identifier")
                && !super::sizes::is_template_type_param(n, text, written) =>
        {
            TemplateArg::Class(class.to_owned())
        }
        _ => TemplateArg::Unknown,
    }
}

/// What a launch states, however it is written: `k<<<grid, block>>>(args)`,
/// `cudaLaunchKernelEx(&cfg, k, args…)` (the block its local `cfg` holds
/// there) or `cudaLaunchKernel(k, grid, block, args, …)` (and the
/// cooperative form, whose arguments are a `void**` array: none read).
struct LaunchParts<'t> {
    /// The kernel as written: `k`, `ns::k`, `k<T, 4>`.
    kernel: Node<'t>,
    grid: LaunchBlock<'t>,
    block: LaunchBlock<'t>,
    /// The kernel's arguments, in order.
    args: Vec<Node<'t>>,
    /// How an argument passing the block's own extent begins (`n` of
    /// `<<<g, n>>>`, `cfg.blockDim` of a config).
    block_text: Option<String>,
}

enum LaunchBlock<'t> {
    Written(Node<'t>),
    Config(Extents),
}

fn launch_parts<'t>(call: Node<'t>, text: &str, configs: &Configs<'t>) -> Option<LaunchParts<'t>> {
    let children = |n: Option<Node<'t>>| -> Vec<Node<'t>> {
        n.map(|a| {
            let mut c = a.walk();
            a.named_children(&mut c)
                .filter(|x| x.kind() != "comment")
                .collect()
        })
        .unwrap_or_default()
    };
    let args = children(call.field("arguments"));
    let mut c = call.walk();
    if let Some(syntax) = call
        .children(&mut c)
        .find(|k| k.kind() == "kernel_call_syntax")
    {
        let config = children(Some(syntax));
        let block = *config.get(1)?;
        let written = call.field("function")?;
        return Some(LaunchParts {
            // `auto kernel = &k<Traits, 4>; kernel<<<…>>>(…)`: the kernel
            // the local holds.
            kernel: match written.kind() {
                "identifier" => launched_function(written, call, text).unwrap_or(written),
                _ => written,
            },
            grid: LaunchBlock::Written(*config.first()?),
            block: LaunchBlock::Written(block),
            args,
            block_text: Some(squeezed(block, text)),
        });
    }
    if is_launch_ex(call, text) {
        let cfg = config_name(call, text);
        return Some(LaunchParts {
            kernel: launched_function(*args.get(1)?, call, text)?,
            grid: LaunchBlock::Config(configs.dim(call, ConfigDim::Grid)),
            block: LaunchBlock::Config(configs.dim(call, ConfigDim::Block)),
            args: args.get(2..).unwrap_or_default().to_vec(),
            block_text: cfg.map(|c| format!("{}.blockDim", node_text(c, text))),
        });
    }
    if is_launch_with_block(call, text) {
        return Some(LaunchParts {
            kernel: launched_function(*args.first()?, call, text)?,
            grid: LaunchBlock::Written(*args.get(1)?),
            block: LaunchBlock::Written(*args.get(2)?),
            args: Vec::new(),
            block_text: None,
        });
    }
    None
}

/// The kernel a launch names, `a::b::k<T, 4>`: its innermost name and
/// template argument list.
fn kernel_written(f: Node) -> Option<(Node, Option<Node>)> {
    let mut f = f;
    while f.kind() == "qualified_identifier" {
        f = f.field("name")?;
    }
    Some(match f.kind() {
        "template_function" => (f.field("name")?, f.field("arguments")),
        _ => (f, None),
    })
}

/// The text of `n` without whitespace (`dim3(a, b)` as `dim3(a,b)`).
fn squeezed(n: Node, text: &str) -> String {
    node_text(n, text).split_whitespace().collect()
}

fn launch_site(
    call: Node,
    parts: &LaunchParts,
    text: &str,
    consts: &HashMap<String, i64>,
    host_values: &HashMap<&str, TemplateArg>,
) -> Option<LaunchSite> {
    let (name_node, targs) = kernel_written(parts.kernel)?;
    let kernel = last_segment(node_text(name_node, text)).to_owned();
    let scope = enclosing_function(call);
    let resolve = |n: Node| -> Option<i64> { eval_host_int(n, text, consts, scope, 0) };
    let template_args = targs
        .map(|a| stated_template_args(a, text, consts, scope, host_values))
        .unwrap_or_default();
    // A parameter of the host launcher template: its value in this
    // instantiation (`<<<blocks, Threads>>>`).
    let bound = |n: Node| {
        host_values
            .get(node_text(n, text).trim())
            .map(TemplateArg::int)
    };
    // Each extent of a stated `dim3` within `limit`, the block's
    // threads too.
    let dims = |stated: &LaunchBlock, limit: u32| match stated {
        LaunchBlock::Written(b) => match bound(*b) {
            Some(v) => v
                .and_then(|v| u32::try_from(v).ok())
                .filter(|v| (1..=limit).contains(v))
                .map(|v| [v, 1, 1]),
            None => eval_dim3(*b, text, consts, scope, limit),
        },
        LaunchBlock::Config([Some(x), Some(y), Some(z)]) => {
            Some([*x, *y, *z]).filter(|d| d.iter().all(|v| (1..=limit).contains(v)))
        }
        LaunchBlock::Config(_) => None,
    };
    let block_dim = dims(&parts.block, 1024).filter(|d| d.iter().product::<u32>() <= 1024);
    let grid_dim = dims(&parts.grid, i32::MAX as u32);
    let args = parts
        .args
        .iter()
        .map(|n| bound(*n).unwrap_or_else(|| resolve(*n)))
        .collect();
    let block_dim_args = parts
        .args
        .iter()
        .map(|n| {
            let b = parts.block_text.as_deref()?;
            let a = squeezed(*n, text);
            match a.strip_prefix(b)? {
                "" => Some(0),
                rest => extent_index(rest.strip_prefix('.')?).map(|d| d as u8),
            }
        })
        .collect();
    Some(LaunchSite {
        kernel,
        template_args,
        block_dim,
        grid_dim,
        args,
        block_dim_args,
        line: call.start_position().row + 1,
    })
}

fn enclosing_function(n: Node) -> Option<Node> {
    let mut cur = n.parent();
    while let Some(p) = cur {
        if p.kind() == "function_definition" {
            return Some(p);
        }
        cur = p.parent();
    }
    None
}

/// Does function `scope` declare a local `name` (`dim3 block(…);`,
/// `dim3 block = …;`)?
fn declares_local(scope: Node, name: &str, text: &str) -> bool {
    let mut found = false;
    preorder(scope, |n| {
        if found {
            return Walk::Skip;
        }
        if n.kind() == "declaration" {
            let mut c = n.walk();
            found = n.children_by_field_name("declarator", &mut c).any(|d| {
                let id = match d.kind() {
                    "identifier" => Some(d),
                    _ => d.field("declarator"),
                };
                id.is_some_and(|i| i.kind() == "identifier" && node_text(i, text) == name)
            });
        }
        Walk::Descend
    });
    found
}

/// The initializer node of local `name` declared in `scope` (host code).
fn local_initializer<'t>(scope: Node<'t>, name: &str, text: &str) -> Option<Node<'t>> {
    let mut found = None;
    preorder(scope, |n| {
        if found.is_some() {
            return Walk::Skip;
        }
        if n.kind() == "init_declarator"
            && n.field("declarator").map(|d| node_text(d, text)) == Some(name)
        {
            found = n.field("value");
            return Walk::Skip;
        }
        if let Some(list) = vexing_initializer(n, name, text) {
            found = Some(list);
            return Walk::Skip;
        }
        Walk::Descend
    });
    found
}

/// `dim3 block(kThreads);` parses as the declaration of a function `block`
/// taking a `kThreads` (C++'s most vexing parse; `dim3 block(128);` does
/// not). Where `n` is such a declaration of `name`, every parameter a bare
/// name: its parameter list, the local's initializer.
fn vexing_initializer<'t>(n: Node<'t>, name: &str, text: &str) -> Option<Node<'t>> {
    if n.kind() != "declaration" {
        return None;
    }
    let d = n.field("declarator")?;
    if d.kind() != "function_declarator" || node_text(d.field("declarator")?, text) != name {
        return None;
    }
    let list = d.field("parameters")?;
    let mut c = list.walk();
    let mut params = list.named_children(&mut c).peekable();
    params.peek()?;
    params
        .all(|p| {
            p.kind() == "parameter_declaration"
                && p.field("declarator").is_none()
                && p.field("type")
                    .is_some_and(|t| matches!(t.kind(), "type_identifier" | "qualified_identifier"))
        })
        .then_some(list)
}

fn eval_dim3(
    n: Node,
    text: &str,
    consts: &HashMap<String, i64>,
    scope: Option<Node>,
    limit: u32,
) -> Option<[u32; 3]> {
    let n = match (n.kind(), scope) {
        ("identifier", Some(s)) => match local_initializer(s, node_text(n, text), text) {
            Some(init) => init,
            None => n,
        },
        _ => n,
    };
    let parts = dim3_parts(n, text)?;
    let mut dim = [1u32; 3];
    for (i, p) in parts.iter().take(3).enumerate() {
        let v = eval_host_int(*p, text, consts, scope, 0)?;
        dim[i] = u32::try_from(v).ok().filter(|v| (1..=limit).contains(v))?;
    }
    Some(dim)
}

/// Evaluate a host-side integer expression at a launch site.
fn eval_host_int(
    n: Node,
    text: &str,
    consts: &HashMap<String, i64>,
    scope: Option<Node>,
    depth: usize,
) -> Option<i64> {
    if depth > 8 {
        return None;
    }
    match n.kind() {
        "number_literal" => parse_int_literal(node_text(n, text)),
        "true" => Some(1),
        "false" => Some(0),
        // A name read as a type: an extent of a vexing `dim3 block(kThreads)`.
        "parameter_declaration" => eval_host_int(n.field("type")?, text, consts, scope, depth + 1),
        "identifier" | "type_identifier" => {
            let name = node_text(n, text);
            consts.get(name).copied().or_else(|| {
                let init = local_initializer(scope?, name, text)?;
                eval_host_int(init, text, consts, scope, depth + 1)
            })
        }
        "parenthesized_expression" => {
            eval_host_int(n.named_child(0)?, text, consts, scope, depth + 1)
        }
        "binary_expression" => {
            let op = binop(node_text(n.field("operator")?, text))?;
            let a = eval_host_int(n.field("left")?, text, consts, scope, depth + 1)?;
            let b = eval_host_int(n.field("right")?, text, consts, scope, depth + 1)?;
            super::fold::apply_binop(op, a, b)
        }
        _ => None,
    }
}

/// A host function `get_block_shape` (a kernel class's statement of its
/// block shape, as CUTLASS writes it).
pub(super) fn is_block_shape_getter(def: Node, text: &str) -> bool {
    def.field("declarator")
        .and_then(|d| d.field("declarator"))
        .is_some_and(|n| node_text(n, text) == crate::frontend::host_bodies::BLOCK_SHAPE_GETTER)
}

/// The constant `dim3` a function returns: `return dim3(a, b, c);` or
/// `dim3 block(a, b, c); … return block;`.
pub(super) fn returned_dim3(
    def: Node,
    text: &str,
    consts: &HashMap<String, i64>,
) -> Option<[u32; 3]> {
    let body = def.field("body")?;
    let mut returned = None;
    let mut c = body.walk();
    for st in body.named_children(&mut c) {
        if st.kind() == "return_statement" {
            returned = st.named_child(0);
        }
    }
    eval_dim3(returned?, text, consts, Some(body), 1024)
}

/// What [`stated_launches`] finds: block extents per launched name, and
/// per launch of a kernel template its name and template arguments.
pub type StatedLaunches = (Vec<(String, Extents)>, Vec<(String, Vec<TemplateArg>)>);

/// The block extents a file's launches state, per launched name and
/// dimension: `(name, [x, y, z])`, `None` where the launch does not state
/// that extent. The names are the kernel's and, for a wrapper launched
/// with a class as template argument (CUTLASS's `Kernel<Op><<<…>>>`, which
/// runs `Op::operator()` as the whole block), the class's, through a
/// `using` alias of the file where the argument is one. A block given by a
/// variable or field (`threadblock_shape`) states an extent only where
/// every value the file gives it states the same one.
///
/// Also returns, per `<<<…>>>` launch of a kernel template (through a
/// host launcher template as [`launch_sites`] binds them) and per explicit
/// instantiation ([`explicit_instantiation`]), the kernel's name and its
/// integer template arguments: what `templates::instantiate_from_run`
/// instantiates.
pub fn stated_launches(text: &str, max_parse_operations: u64) -> StatedLaunches {
    let Ok(tree) = crate::frontend::parse_text_within(text, max_parse_operations) else {
        return (Vec::new(), Vec::new());
    };
    let root = tree.root_node();
    let mut launches = Vec::new();
    let mut instances = Vec::new();
    let mut aliases: HashMap<String, Vec<String>> = HashMap::default();
    preorder(root, |n| {
        if let Some(call) = launch_call(n, text) {
            launches.push(call);
        }
        match crate::frontend::kind_of(n) {
            "template_instantiation" => {
                if let Some(stated) = explicit_instantiation(n, text, &HashMap::default()) {
                    instances.push(stated);
                }
            }
            "alias_declaration" => {
                if let (Some(name), Some(ty)) = (n.field("name"), n.field("type")) {
                    let targets = aliases.entry(node_text(name, text).to_owned()).or_default();
                    let target = type_name(ty, text);
                    if !targets.contains(&target) {
                        targets.push(target);
                    }
                }
            }
            _ => {}
        }
        Walk::Descend
    });
    let mut out = Vec::new();
    let call_index = CallIndex::new(text);
    let configs = Configs::gather(root, &launches, text);
    for call in launches {
        let Some(parts) = launch_parts(call, text, &configs) else {
            continue;
        };
        let extents = match parts.block {
            LaunchBlock::Written(b) => block_extents(b, &configs.host),
            LaunchBlock::Config(e) => e,
        };
        push_launched(&mut out, parts.kernel, extents, &aliases, text);
        for site in sites_of(call, &parts, text, &HashMap::default(), &call_index) {
            if !site.template_args.is_empty() {
                instances.push((site.kernel, site.template_args));
            }
        }
    }
    (out, instances)
}

/// Record a launch of the function `f` names (`k`, `ns::k`, `k<T, 4>`)
/// under the kernel's name and, for a template argument that is a class
/// (`Kernel<Op>`), under the class's.
fn push_launched(
    out: &mut Vec<(String, Extents)>,
    f: Node,
    extents: Extents,
    aliases: &HashMap<String, Vec<String>>,
    text: &str,
) {
    let Some((name_node, targs)) = kernel_written(f) else {
        return;
    };
    out.push((last_segment(node_text(name_node, text)).to_owned(), extents));
    let Some(targs) = targs else { return };
    let mut c = targs.walk();
    for a in targs.named_children(&mut c) {
        if a.kind() != "type_descriptor" {
            continue;
        }
        let name = type_name(a, text);
        // A template parameter of the launcher (`Kernel<Params>` inside
        // `template <typename Params>`) is no class of that name.
        if names_a_parameter(a, &name, text) {
            continue;
        }
        match aliases.get(&name) {
            // One alias: the class it names. Several aliases of that
            // name: the launch is not known to be any one of them, so
            // it states nothing for each.
            Some(targets) if targets.len() == 1 => out.push((targets[0].clone(), extents)),
            Some(targets) => out.extend(targets.iter().map(|t| (t.clone(), [None; 3]))),
            None => out.push((name, extents)),
        }
    }
}

/// A block's extents, x, y and z; `None` where not stated.
pub type Extents = [Option<u32>; 3];

/// The class a type names: its last segment, template arguments dropped.
fn type_name(ty: Node, text: &str) -> String {
    let t = node_text(ty, text);
    let t = t.split('<').next().unwrap_or(t);
    last_segment(t.trim()).trim().to_owned()
}

/// A file's host text as launches read it, with its constants and
/// getters found on first use.
pub(super) struct Host<'t> {
    text: &'t str,
    root: Node<'t>,
    /// `const`/`constexpr` variables and static members outside function
    /// bodies, by name; `None` where the file declares the name twice.
    constants: OnceCell<HashMap<&'t str, Option<Node<'t>>>>,
    /// Functions without parameters whose body is one `return` of a
    /// value, by last name segment (`None` where two share it): the value
    /// and the body.
    getters: OnceCell<HashMap<&'t str, Option<(Node<'t>, Node<'t>)>>>,
    /// Values of the file's constants where the text is a snippet of the
    /// file (a host function with its launch macros expanded, see
    /// `macro_launch`): its own constants are not in it.
    outer: Option<&'t HashMap<String, i64>>,
}

impl<'t> Host<'t> {
    fn new(text: &'t str, root: Node<'t>) -> Self {
        Host {
            text,
            root,
            constants: OnceCell::new(),
            getters: OnceCell::new(),
            outer: None,
        }
    }

    /// The value of the constant `name`: of the text's own, else of the
    /// file's the text was cut from.
    fn constant_int(&self, name: &str, depth: usize) -> Option<i64> {
        match self.constant(name) {
            Some(init) => host_int(init, self, None, depth + 1),
            None => self.outer?.get(name).copied(),
        }
    }

    /// The initializer of the file's constant `name`.
    fn constant(&self, name: &str) -> Option<Node<'t>> {
        let table = self.constants.get_or_init(|| {
            let text = self.text;
            let mut table: HashMap<&'t str, Option<Node<'t>>> = HashMap::default();
            let mut add = |name: Node<'t>, value: Node<'t>| {
                table
                    .entry(node_text(name, text))
                    .and_modify(|v| *v = None)
                    .or_insert(Some(value));
            };
            preorder(self.root, |n| match n.kind() {
                "function_definition" | "comment" | "string_literal" => Walk::Skip,
                "declaration" if super::is_const_decl(n, text) => {
                    let mut c = n.walk();
                    for d in n.children_by_field_name("declarator", &mut c) {
                        if let (Some(name), Some(v)) = (d.field("declarator"), d.field("value"))
                            && d.kind() == "init_declarator"
                            && name.kind() == "identifier"
                        {
                            add(name, v);
                        }
                    }
                    Walk::Skip
                }
                "field_declaration" if super::is_const_decl(n, text) => {
                    if let (Some(name), Some(v)) = (n.field("declarator"), n.field("default_value"))
                        && name.kind() == "field_identifier"
                    {
                        add(name, v);
                    }
                    Walk::Skip
                }
                _ => Walk::Descend,
            });
            table
        });
        table.get(name).copied().flatten()
    }

    /// What `call` returns where it calls, without arguments, a getter of
    /// the file: the returned value and the getter's body.
    fn returned_by_getter(&self, call: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        if call.kind() != "call_expression"
            || call
                .field("arguments")
                .is_none_or(|a| a.named_child_count() != 0)
        {
            return None;
        }
        let name = last_segment(node_text(call.field("function")?, self.text));
        let table = self.getters.get_or_init(|| {
            let text = self.text;
            let mut table: HashMap<&'t str, Option<(Node<'t>, Node<'t>)>> = HashMap::default();
            preorder(self.root, |n| {
                if n.kind() != "function_definition" {
                    return Walk::Descend;
                }
                let declarator = n.field("declarator");
                let name = declarator.and_then(|d| d.field("declarator"));
                let no_params = declarator
                    .and_then(|d| d.field("parameters"))
                    .is_some_and(|p| p.named_child_count() == 0);
                let body = n.field("body");
                let returned = body
                    .filter(|b| b.named_child_count() == 1)
                    .and_then(|b| b.named_child(0))
                    .filter(|r| r.kind() == "return_statement")
                    .and_then(|r| r.named_child(0));
                if let (Some(name), true) = (name, no_params) {
                    let entry = returned.zip(body);
                    table
                        .entry(last_segment(node_text(name, text)))
                        .and_modify(|v| *v = None)
                        .or_insert(entry);
                }
                Walk::Skip
            });
            table
        });
        table.get(name).copied().flatten()
    }
}

/// The extents a launch's block argument states. A variable or field is
/// followed to every value the file gives it (declarations, constructor
/// initializers, assignments, and assignments of its `.x`/`.y`/`.z`),
/// each evaluated in its own function; a value with a zero extent launches
/// nothing and is skipped.
fn block_extents<'t>(b: Node<'t>, cx: &Host<'t>) -> Extents {
    let (text, root) = (cx.text, cx.root);
    let name = match b.kind() {
        "identifier" | "field_identifier" => node_text(b, text),
        "field_expression" if b.child(0).is_some_and(|t| t.kind() == "this") => {
            b.field("field").map(|f| node_text(f, text)).unwrap_or("")
        }
        _ => return dim3_extents(b, cx, enclosing_function(b)).unwrap_or([None; 3]),
    };
    if name.is_empty() {
        return [None; 3];
    }
    // A local of the launching function takes only that function's
    // values (another launcher's `dim3 block(…)` is another variable);
    // a field, every value the file gives it.
    let root = enclosing_function(b)
        .filter(|f| b.kind() == "identifier" && declares_local(*f, name, text))
        .unwrap_or(root);
    let mut values: Vec<Extents> = Vec::new();
    let mut unknown = false;
    preorder(root, |n| {
        let scope = || enclosing_function(n);
        match n.kind() {
            "init_declarator" | "field_initializer"
                if n.named_child(0).is_some_and(|d| node_text(d, text) == name) =>
            {
                let v = if n.kind() == "init_declarator" {
                    n.field("value")
                } else {
                    n.named_child(1)
                };
                match v.and_then(|v| dim3_extents(v, cx, scope())) {
                    Some(e) => values.push(e),
                    None => unknown = true,
                }
            }
            // A parameter of that name may be given any block.
            "parameter_declaration" | "optional_parameter_declaration"
                if n.field("declarator").is_some_and(|d| {
                    node_text(d, text).trim_start_matches(['&', '*', ' ']) == name
                }) =>
            {
                unknown = true;
            }
            // `dim3 block;` is (1, 1, 1).
            "declaration"
                if n.field("declarator")
                    .is_some_and(|d| node_text(d, text) == name)
                    && n.field("type")
                        .is_some_and(|t| node_text(t, text) == "dim3") =>
            {
                values.push([Some(1); 3]);
            }
            "assignment_expression" | "update_expression" => {
                let target = n.field("left").or_else(|| n.field("argument"));
                let Some(target) = target else {
                    return Walk::Descend;
                };
                let t = node_text(target, text).replace(char::is_whitespace, "");
                let t = t.strip_prefix("this->").unwrap_or(&t);
                if t == name {
                    match n
                        .field("right")
                        .filter(|_| {
                            n.field("operator")
                                .is_some_and(|o| node_text(o, text) == "=")
                        })
                        .and_then(|v| dim3_extents(v, cx, scope()))
                    {
                        Some(e) => values.push(e),
                        None => unknown = true,
                    }
                } else if let Some(field) = t.strip_prefix(name).and_then(|r| r.strip_prefix('.')) {
                    // `block.y = 4;`: that extent is given another value.
                    let Some(d) = extent_index(field) else {
                        return Walk::Descend;
                    };
                    let v = n
                        .field("right")
                        .filter(|_| {
                            n.field("operator")
                                .is_some_and(|o| node_text(o, text) == "=")
                        })
                        .and_then(|v| host_int(v, cx, scope(), 0));
                    let mut e = [Some(1); 3];
                    e[d] = v.and_then(|v| u32::try_from(v).ok());
                    for (i, x) in e.iter_mut().enumerate() {
                        if i != d {
                            *x = None;
                        }
                    }
                    values.push(e);
                }
            }
            _ => {}
        }
        Walk::Descend
    });
    if unknown {
        return [None; 3];
    }
    agreed(&values)
}

/// The extents every value states alike; a value with a zero extent
/// launches nothing and is skipped.
fn agreed(values: &[Extents]) -> Extents {
    let launched: Vec<&Extents> = values.iter().filter(|e| !e.contains(&Some(0))).collect();
    let mut out = [None; 3];
    for (d, x) in out.iter_mut().enumerate() {
        let first = launched.first().and_then(|e| e[d]);
        if launched.iter().all(|e| e[d].is_some() && e[d] == first) {
            *x = first;
        }
    }
    out
}

/// The extents of a `dim3(…)`, `{…}`, `(…)` argument list or scalar block
/// expression (missing extents are 1, as `dim3` makes them).
fn dim3_extents<'t>(n: Node<'t>, cx: &Host<'t>, scope: Option<Node<'t>>) -> Option<Extents> {
    // `Shape::block()`: a function of the file returning a constant
    // `dim3` (followed once; what it returns is not followed again).
    if let Some((ret, body)) = cx.returned_by_getter(n) {
        return dim3_shape(ret, cx, Some(body));
    }
    dim3_shape(n, cx, scope)
}

/// [`dim3_extents`] of an expression that is not a getter's call.
fn dim3_shape<'t>(n: Node<'t>, cx: &Host<'t>, scope: Option<Node<'t>>) -> Option<Extents> {
    let text = cx.text;
    let parts = dim3_parts(n, text)?;
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    // A scalar block has one row only where it is an integer: a field or
    // call of unknown type may be a whole `dim3`.
    if parts[0].id() == n.id()
        && !matches!(
            n.kind(),
            "number_literal" | "binary_expression" | "parenthesized_expression"
        )
        && host_int(n, cx, scope, 0).is_none()
    {
        return None;
    }
    let mut e = [Some(1); 3];
    for (i, p) in parts.iter().enumerate() {
        e[i] = host_int(*p, cx, scope, 0).and_then(|v| u32::try_from(v).ok());
    }
    Some(e)
}

/// A host integer: literals, arithmetic, and locals of `scope` declared
/// once with an initializer and never assigned again.
fn host_int<'t>(n: Node<'t>, cx: &Host<'t>, scope: Option<Node<'t>>, depth: usize) -> Option<i64> {
    let text = cx.text;
    if depth > 8 {
        return None;
    }
    match n.kind() {
        "number_literal" => parse_int_literal(node_text(n, text)),
        "parenthesized_expression" => host_int(n.named_child(0)?, cx, scope, depth + 1),
        // `Traits::kThreads`: a constant of the file.
        "qualified_identifier" => {
            let name = node_text(n, text);
            cx.constant_int(last_segment(name), depth)
        }
        // A name read as a type: an extent of a vexing `dim3 block(kThreads)`.
        "parameter_declaration" => host_int(n.field("type")?, cx, scope, depth + 1),
        "identifier" | "type_identifier" => {
            let name = node_text(n, text);
            let Some(scope) = scope else {
                return cx.constant_int(name, depth);
            };
            let mut inits = 0;
            let mut written = false;
            preorder(scope, |m| {
                match m.kind() {
                    "init_declarator"
                        if m.field("declarator")
                            .is_some_and(|d| node_text(d, text) == name) =>
                    {
                        inits += 1;
                    }
                    "declaration" if vexing_initializer(m, name, text).is_some() => inits += 1,
                    "assignment_expression" | "update_expression" => {
                        let t = m.field("left").or_else(|| m.field("argument"));
                        if t.is_some_and(|t| node_text(t, text) == name) {
                            written = true;
                        }
                    }
                    // Its address may let anything write it.
                    "pointer_expression"
                        if m.field("argument")
                            .is_some_and(|a| node_text(a, text) == name) =>
                    {
                        written = true;
                    }
                    _ => {}
                }
                Walk::Descend
            });
            // `warpSize` in host code, where no local of that name hides it.
            if name == "warpSize" && inits == 0 && !written {
                return Some(32);
            }
            // No local of that name: a constant of the file.
            if inits == 0 && !written {
                return cx.constant_int(name, depth);
            }
            if inits != 1 || written {
                return None;
            }
            let init = local_initializer(scope, name, text)?;
            host_int(init, cx, Some(scope), depth + 1)
        }
        "binary_expression" => {
            let op = binop(node_text(n.field("operator")?, text))?;
            let a = host_int(n.field("left")?, cx, scope, depth + 1)?;
            let b = host_int(n.field("right")?, cx, scope, depth + 1)?;
            super::fold::apply_binop(op, a, b)
        }
        _ => None,
    }
}

/// The extent expressions of a `dim3(…)` call, a `{…}`/`(…)` list, or a
/// scalar; `None` for a call of anything but `dim3`.
fn dim3_parts<'t>(n: Node<'t>, text: &str) -> Option<Vec<Node<'t>>> {
    Some(match n.kind() {
        "call_expression" => {
            let callee = n.field("function").map(|f| node_text(f, text))?;
            if callee != "dim3" {
                return None;
            }
            let a = n.field("arguments")?;
            let mut c = a.walk();
            a.named_children(&mut c).collect()
        }
        "argument_list" | "initializer_list" | "parameter_list" => {
            let mut c = n.walk();
            n.named_children(&mut c).collect()
        }
        _ => vec![n],
    })
}

/// The launch `n` marks, in either spelling: the call of a
/// `<<<…>>>` (`n` its `kernel_call_syntax`), or a runtime API launch.
pub(super) fn launch_call<'t>(n: Node<'t>, text: &str) -> Option<Node<'t>> {
    match n.kind() {
        "kernel_call_syntax" => n.parent(),
        "call_expression" if is_launch_ex(n, text) || is_launch_with_block(n, text) => Some(n),
        _ => None,
    }
}

/// A call of the runtime's extensible launch, `cudaLaunchKernelEx(&cfg,
/// kernel, args…)` (or its `C` form, which takes the kernel as `void*`).
fn is_launch_ex(call: Node, text: &str) -> bool {
    call.field("function").is_some_and(|f| {
        matches!(
            last_segment(node_text(f, text)),
            "cudaLaunchKernelEx" | "cudaLaunchKernelExC"
        )
    })
}

/// A runtime launch that takes the block as its third argument:
/// `cudaLaunchKernel(k, grid, block, args, …)`, and the cooperative form.
fn is_launch_with_block(call: Node, text: &str) -> bool {
    call.field("function").is_some_and(|f| {
        matches!(
            last_segment(node_text(f, text)),
            "cudaLaunchKernel" | "cudaLaunchCooperativeKernel"
        )
    })
}

/// The function a launch's kernel argument names: `k`, `&k`, `k<T, 4>`,
/// `(const void*)k`, or a local `auto f = k<T, 4>;` that the call sees.
/// `None` for a parameter or anything else whose kernel is not written.
fn launched_function<'t>(arg: Node<'t>, call: Node<'t>, text: &str) -> Option<Node<'t>> {
    let mut n = arg;
    // One local may be followed; what it holds is not followed again.
    let mut follows = 1;
    for _ in 0..16 {
        match n.kind() {
            "pointer_expression" | "parenthesized_expression" | "cast_expression" => {
                n = n
                    .field("argument")
                    .or_else(|| n.field("value"))
                    .or_else(|| n.named_child(0))?;
            }
            "identifier" => {
                let name = node_text(n, text);
                if let Some((_, _, decl)) = visible_local(call, name, text) {
                    if follows == 0 {
                        return None;
                    }
                    follows -= 1;
                    n = decl.field("value")?;
                } else if names_a_parameter(call, name, text) {
                    return None;
                } else {
                    return Some(n);
                }
            }
            "template_function" | "qualified_identifier" => return Some(n),
            _ => return None,
        }
    }
    None
}

/// The declaration of local `name` that `at` sees: in the innermost block
/// around `at` (up to the function, through lambdas, which may capture
/// it) that declares it before `at`. Returns the block, the declaration
/// statement and its declarator (an identifier or `init_declarator`).
fn visible_local<'t>(
    at: Node<'t>,
    name: &str,
    text: &str,
) -> Option<(Node<'t>, Node<'t>, Node<'t>)> {
    let mut cur = at.parent();
    while let Some(p) = cur {
        if p.kind() == "function_definition" {
            return None;
        }
        if p.kind() == "compound_statement" {
            let mut found = None;
            let mut c = p.walk();
            for st in p.named_children(&mut c) {
                if st.start_byte() >= at.start_byte() {
                    break;
                }
                if st.kind() != "declaration" {
                    continue;
                }
                let mut c = st.walk();
                for d in st.children_by_field_name("declarator", &mut c) {
                    let id = if d.kind() == "init_declarator" {
                        d.field("declarator")
                    } else {
                        Some(d)
                    };
                    if id.is_some_and(|i| i.kind() == "identifier" && node_text(i, text) == name) {
                        found = Some((p, st, d));
                    }
                }
            }
            if found.is_some() {
                return found;
            }
        }
        cur = p.parent();
    }
    None
}

/// Does a parameter of a function, lambda or template (a type parameter
/// too) around `at` bear `name`?
fn names_a_parameter(at: Node, name: &str, text: &str) -> bool {
    let mut cur = at.parent();
    while let Some(p) = cur {
        let params = match p.kind() {
            "function_definition" | "lambda_expression" => {
                p.field("declarator").and_then(|d| d.field("parameters"))
            }
            "template_declaration" => p.field("parameters"),
            _ => None,
        };
        if let Some(params) = params {
            let mut c = params.walk();
            if params
                .named_children(&mut c)
                .any(|param| declares_name(param, name, text))
            {
                return true;
            }
        }
        cur = p.parent();
    }
    false
}

/// Is `name` the name a parameter declares (not a name its type spells)?
fn declares_name(param: Node, name: &str, text: &str) -> bool {
    if let Some(d) = param.field("declarator").or_else(|| param.field("name")) {
        // The declarator holds the name under `*`, `&` or `[]`.
        let mut hit = false;
        preorder(d, |m| {
            hit |= m.kind() == "identifier" && node_text(m, text) == name;
            if hit { Walk::Skip } else { Walk::Descend }
        });
        return hit;
    }
    // `typename T`, `class... Ts`: the name is the type identifier.
    let mut c = param.walk();
    param
        .named_children(&mut c)
        .any(|m| m.kind() == "type_identifier" && node_text(m, text) == name)
}

/// The host text launches read, and where the configs of its extensible
/// launches (`cudaLaunchKernelEx(&cfg, …)`) are used: gathered once per
/// file.
pub(super) struct Configs<'t> {
    host: Host<'t>,
    uses: ConfigUses<'t>,
}

impl<'t> Configs<'t> {
    /// [`config_dim`] of `call`'s config.
    fn dim(&self, call: Node<'t>, which: ConfigDim) -> Extents {
        config_dim(call, &self.host, &self.uses, which)
    }

    pub(super) fn gather(root: Node<'t>, launches: &[Node<'t>], text: &'t str) -> Self {
        let ex: Vec<Node> = (launches.iter().copied())
            .filter(|c| is_launch_ex(*c, text))
            .collect();
        let uses = match ex.is_empty() {
            true => ConfigUses {
                by_name: HashMap::default(),
            },
            false => ConfigUses::gather(root, &ex, text),
        };
        Configs {
            host: Host::new(text, root),
            uses,
        }
    }

    /// Read the file's constants `consts` too, where `text` is a snippet
    /// of the file.
    pub(super) fn with_file_constants(mut self, consts: &'t HashMap<String, i64>) -> Self {
        self.host.outer = Some(consts);
        self
    }
}

/// Where the names of the launches' configs occur, by name, in file order:
/// one walk for all the launches of a file.
struct ConfigUses<'t> {
    by_name: HashMap<&'t str, Vec<Node<'t>>>,
}

impl<'t> ConfigUses<'t> {
    fn gather(root: Node<'t>, calls: &[Node<'t>], text: &'t str) -> Self {
        let mut by_name: HashMap<&'t str, Vec<Node<'t>>> = HashMap::default();
        for call in calls {
            if let Some(cfg) = config_name(*call, text) {
                by_name.entry(node_text(cfg, text)).or_default();
            }
        }
        preorder(root, |n| {
            if n.kind() == "identifier"
                && let Some(v) = by_name.get_mut(node_text(n, text))
            {
                v.push(n);
            }
            Walk::Descend
        });
        ConfigUses { by_name }
    }

    /// The occurrences of `name` inside `[from, to)`.
    fn within(&self, name: &str, from: usize, to: usize) -> &[Node<'t>] {
        let Some(all) = self.by_name.get(name) else {
            return &[];
        };
        let lo = all.partition_point(|n| n.start_byte() < from);
        let hi = all.partition_point(|n| n.start_byte() < to);
        &all[lo..hi.max(lo)]
    }
}

/// The config a launch reads, `cfg` of `&cfg`.
fn config_name<'t>(call: Node<'t>, text: &str) -> Option<Node<'t>> {
    let first = call.field("arguments")?.named_child(0)?;
    if !is_address_of(first, text) {
        return None;
    }
    let cfg = first.field("argument")?;
    (cfg.kind() == "identifier").then_some(cfg)
}

/// `&x`.
fn is_address_of(n: Node, text: &str) -> bool {
    n.kind() == "pointer_expression"
        && n.field("operator")
            .is_some_and(|o| node_text(o, text) == "&")
}

/// One write of a config's block.
struct BlockWrite<'t> {
    /// The assignment.
    at: Node<'t>,
    /// `None`: the whole `blockDim`; else that extent (`cfg.blockDim.y`).
    dim: Option<usize>,
    value: Node<'t>,
}

/// Which `dim3` of a launch config: `blockDim`, or `gridDim` (followed
/// alike). The discriminant is its place in an aggregate initializer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ConfigDim {
    Grid = 0,
    Block = 1,
}

impl ConfigDim {
    fn member(self) -> &'static str {
        match self {
            ConfigDim::Grid => "gridDim",
            ConfigDim::Block => "blockDim",
        }
    }
}

/// The block (or grid) a launch's config holds when the launch runs. Only
/// a local config is followed: its declaration gives a first block
/// (`{grid, block, …}`, else 1×1×1, as `dim3`'s constructor makes it),
/// then each write of `cfg.blockDim` (or of one of its extents) replaces
/// it where it is a statement of the declaring block before the launch,
/// and adds a possible block where it is nested (a branch, a loop). Any
/// other use of the config (passed on, assigned whole, its block's
/// address taken) leaves every extent unstated, as does a config the
/// function is given.
fn config_dim<'t>(
    call: Node<'t>,
    cx: &Host<'t>,
    uses: &ConfigUses<'t>,
    which: ConfigDim,
) -> Extents {
    let text = cx.text;
    let unknown = [None; 3];
    let Some(cfg) = config_name(call, text) else {
        return unknown;
    };
    let name = node_text(cfg, text);
    let Some((block, decl, declarator)) = visible_local(call, name, text) else {
        return unknown;
    };
    let Some(first) = declared_block(declarator, cx, which) else {
        return unknown;
    };
    let mut writes = Vec::new();
    for u in uses.within(name, decl.end_byte(), block.end_byte()) {
        match classify_use(*u, text, which) {
            ConfigUse::Other => {}
            ConfigUse::Write(w) => writes.push(w),
            ConfigUse::Escape => return unknown,
        }
    }
    let Some(call_stmt) = statement_of(call, block) else {
        return unknown;
    };
    let mut blocks = vec![first];
    for w in writes {
        let Some(stmt) = statement_of(w.at, block) else {
            return unknown;
        };
        if stmt.start_byte() > call_stmt.start_byte() {
            continue;
        }
        let replaces = runs_before(w.at, call, block);
        let scope = enclosing_function(w.at);
        let next: Vec<Extents> = match w.dim {
            None => vec![assigned_block(w.value, cx)],
            Some(d) => {
                let v = host_int(w.value, cx, scope, 0).and_then(|v| u32::try_from(v).ok());
                blocks
                    .iter()
                    .map(|b| {
                        let mut b = *b;
                        b[d] = v;
                        b
                    })
                    .collect()
            }
        };
        if replaces {
            blocks = next;
        } else {
            blocks.extend(next);
        }
        // Too many possible blocks to be worth stating.
        if blocks.len() > 32 {
            return unknown;
        }
    }
    agreed(&blocks)
}

enum ConfigUse<'t> {
    /// Reads the config or writes another member (`cfg.stream = s`).
    Other,
    Write(BlockWrite<'t>),
    /// May change the block in a way not followed.
    Escape,
}

/// `.x`, `.y`, `.z` of a `dim3`: its index.
fn extent_index(field: &str) -> Option<usize> {
    match field {
        "x" => Some(0),
        "y" => Some(1),
        "z" => Some(2),
        _ => None,
    }
}

/// `p` is the field expression `u.field`.
fn is_field_of(p: Node, u: Node) -> bool {
    p.field("argument").is_some_and(|a| a.id() == u.id())
}

/// What one occurrence of a config's name does to its block.
fn classify_use<'t>(u: Node<'t>, text: &str, which: ConfigDim) -> ConfigUse<'t> {
    let Some(p) = u.parent() else {
        return ConfigUse::Escape;
    };
    match p.kind() {
        "field_expression" if is_field_of(p, u) => {
            let field = p.field("field").map(|f| node_text(f, text));
            if field != Some(which.member()) {
                return ConfigUse::Other;
            }
            // `cfg.blockDim.y`: one extent.
            if let Some(q) = p.parent()
                && q.kind() == "field_expression"
                && is_field_of(q, p)
            {
                let field = q.field("field").map(|f| node_text(f, text));
                let Some(d) = field.and_then(extent_index) else {
                    return ConfigUse::Escape;
                };
                return written(q, Some(d), text);
            }
            written(p, None, text)
        }
        // `&cfg` handed to a launch, which only reads it.
        "pointer_expression"
            if p.parent()
                .and_then(|a| a.parent())
                .and_then(|c| config_name(c, text).filter(|_| is_launch_ex(c, text)))
                .is_some_and(|c| c.id() == u.id()) =>
        {
            ConfigUse::Other
        }
        _ => ConfigUse::Escape,
    }
}

/// How the expression `e` (the block or one extent) is used: assigned
/// with `=`, read, or reached by something that may write it.
fn written<'t>(e: Node<'t>, dim: Option<usize>, text: &str) -> ConfigUse<'t> {
    let Some(q) = e.parent() else {
        return ConfigUse::Escape;
    };
    match q.kind() {
        "assignment_expression" if q.field("left").is_some_and(|l| l.id() == e.id()) => {
            let plain = q
                .field("operator")
                .is_some_and(|o| node_text(o, text) == "=");
            match q.field("right") {
                Some(value) if plain => ConfigUse::Write(BlockWrite { at: q, dim, value }),
                _ => ConfigUse::Escape,
            }
        }
        // A kernel argument of the launch itself: read when it launches.
        "argument_list" if q.parent().is_some_and(|c| is_launch_ex(c, text)) => ConfigUse::Other,
        // Incremented, its address taken, or passed (maybe by reference).
        "update_expression" | "pointer_expression" | "argument_list" => ConfigUse::Escape,
        _ => ConfigUse::Other,
    }
}

/// The statement of `block` that holds `n`.
/// Whether the assignment `write` runs before `call` on every path that
/// reaches `call`: a statement of its own in the innermost block (inside
/// `outer`) that holds both, before the statement that holds `call`, in a
/// block that runs in order (not a `switch`'s). A launch and the config
/// write before it in the same nested block (a dispatch macro's `{ … }`)
/// agree on one block; a write in a branch the launch is not in only adds
/// a possible block.
fn runs_before(write: Node, call: Node, outer: Node) -> bool {
    let mut common = write;
    while common.id() != outer.id()
        && !(common.kind() == "compound_statement"
            && common.start_byte() <= call.start_byte()
            && call.end_byte() <= common.end_byte())
    {
        match common.parent() {
            Some(p) => common = p,
            None => return false,
        }
    }
    let ordered = common
        .parent()
        .is_none_or(|p| p.kind() != "switch_statement");
    let (Some(stmt), Some(call_stmt)) = (statement_of(write, common), statement_of(call, common))
    else {
        return false;
    };
    ordered
        && stmt.id() != call_stmt.id()
        && stmt.start_byte() < call_stmt.start_byte()
        && stmt.kind() == "expression_statement"
        && write.parent().is_some_and(|p| p.id() == stmt.id())
}

fn statement_of<'t>(n: Node<'t>, block: Node<'t>) -> Option<Node<'t>> {
    let mut cur = n;
    loop {
        let p = cur.parent()?;
        if p.id() == block.id() {
            return Some(cur);
        }
        cur = p;
    }
}

/// The block a config's declaration gives: the second member of an
/// aggregate initializer (or its `.blockDim = …`; the grid: the first, or
/// `.gridDim`), else 1×1×1. `None` for a config copied from elsewhere.
fn declared_block<'t>(declarator: Node<'t>, cx: &Host<'t>, which: ConfigDim) -> Option<Extents> {
    let text = cx.text;
    if declarator.kind() != "init_declarator" {
        return Some([Some(1); 3]);
    }
    let value = declarator.field("value")?;
    if !matches!(value.kind(), "initializer_list" | "argument_list") {
        return None;
    }
    let mut c = value.walk();
    let members: Vec<Node> = value
        .named_children(&mut c)
        .filter(|m| m.kind() != "comment")
        .collect();
    let given = if members.iter().any(|m| m.kind() == "initializer_pair") {
        members.iter().find_map(|m| {
            let d = m.field("designator")?;
            (node_text(d, text).trim_start_matches('.').trim() == which.member())
                .then(|| m.field("value"))
                .flatten()
        })
    } else {
        members.get(which as usize).copied()
    };
    Some(match given {
        Some(b) => assigned_block(b, cx),
        None => [Some(1); 3],
    })
}

/// The extents of a value given to a config's block: a `dim3(…)` or
/// `{…}`, an integer, or a block variable followed as a `<<<…>>>` block is.
fn assigned_block<'t>(v: Node<'t>, cx: &Host<'t>) -> Extents {
    if v.kind() == "identifier" {
        let scope = enclosing_function(v);
        if let Some(x) = host_int(v, cx, scope, 0).and_then(|x| u32::try_from(x).ok()) {
            return [Some(x), Some(1), Some(1)];
        }
        return block_extents(v, cx);
    }
    dim3_extents(v, cx, enclosing_function(v)).unwrap_or([None; 3])
}
