//! Classes as CUDA libraries write them: member functions see the fields
//! their constructors set.
//!
//! A member function (defined in its class or out of it, `A<T>::f`) is
//! lowered with a prelude that gives each field the value the class's
//! constructor (or the field's default member initializer) gives it:
//!
//! - set from an expression of no constructor parameter (`lane(threadIdx.x
//!   % 32)`, `warp(blockIdx.x)`, `lane_id(LaneId())`): a local of that value,
//!   so a field set from the lane id varies between lanes and one set from
//!   `blockIdx` is uniform, as the dataflow computes for any local;
//! - set from a constructor parameter: a parameter of the member function,
//!   judged like any helper's parameter (by its type and name);
//! - a reference or pointer to a `…Storage` struct (CUB's, CUTLASS's and
//!   Kokkos's per-block scratch, which callers always place in shared
//!   memory): a `__shared__` object, whose fields `fields.rs` models.
//!
//! `this->x` is the field `x`; `this->f(…)` is the member call `f(…)`.
//! Class template parameters are template values of every member.

use crate::frontend::Field as _;
use rustc_hash::FxHashMap as HashMap;

use tree_sitter::Node;

use super::{
    declarator_name, find_child, find_function_declarator, last_segment, type_is_float,
    type_is_integral,
};
use crate::frontend::{Walk, ancestors, node_text, preorder};
use crate::ir::{ClassParam, CtorSlot, Param, StmtKind};

/// What a class tells its member functions.
#[derive(Debug, Default)]
pub(super) struct ClassInfo<'t> {
    /// Where its specifier starts: which of several same-named classes
    /// (specializations, classes of two namespaces) a member's body is in.
    pub start: usize,
    /// Its name as written, without spaces (`Leader<16>`).
    pub written: String,
    /// The innermost namespace it is declared in.
    pub namespace: Option<String>,
    pub template_values: Vec<String>,
    /// The type parameters of the same templates (`T` of
    /// `template <class T, int N> struct R<T, 1, N>`): a partial
    /// specialization's argument naming one takes any type.
    pub type_params: Vec<String>,
    /// Where its own template's non-type parameters stand among an
    /// instance's arguments (see `Function::class_params`).
    pub instance_params: Vec<ClassParam>,
    /// Its own template's type parameters and where they stand among an
    /// instance's arguments (see `Function::class_type_params`).
    pub instance_types: Vec<(String, usize)>,
    pub fields: Vec<Field<'t>>,
    /// `static constexpr int kWarps = BLOCK / 32;`: static data members
    /// with an initializer, (name, declaration, initializer).
    pub statics: Vec<(String, Node<'t>, Node<'t>)>,
    /// The class declares a constructor: a field it does not set holds
    /// nothing defined until a member writes it (no aggregate
    /// initialization gives it a value).
    pub has_constructor: bool,
    /// The classes it derives from, by name (`Base` of `: private
    /// Base<T, 32>`), and the aliases it declares for them (`using Super
    /// = Base<T, 32>;`).
    pub bases: Vec<String>,
    pub base_aliases: Vec<String>,
    /// The type aliases it declares (`typedef WarpReduce<T, 16> WarpReduceT;`,
    /// `using BlockScanT = …;`): name → the aliased type as written, without
    /// spaces. Its members' bodies name classes through them, as CUB's
    /// agents do.
    pub aliases: Vec<(String, String)>,
}

#[derive(Debug)]
pub(super) struct Field<'t> {
    pub name: String,
    /// The field's declaration (for spans).
    pub decl: Node<'t>,
    pub init: FieldInit<'t>,
}

#[derive(Debug)]
pub(super) enum FieldInit<'t> {
    /// Nothing the text says.
    None,
    /// An expression of no constructor parameter.
    Expr(Node<'t>),
    /// From a constructor parameter (its declaration), and the argument
    /// that gives the value where the initializer is the parameter itself;
    /// where it is computed from the parameter alone, the parameter's name
    /// and the initializer.
    Param(
        Node<'t>,
        Option<CtorSlot>,
        Option<(String, Node<'t>, CtorSlot)>,
    ),
    /// A view of per-block scratch storage (shared memory).
    Storage,
}

/// The enumerators with a value of a member `enum { … };` (also `enum
/// class`): (name, enumerator, value).
fn enumerators<'t>(m: Node<'t>, text: &str) -> Vec<(String, Node<'t>, Node<'t>)> {
    let spec = match m.kind() {
        "enum_specifier" => Some(m),
        "field_declaration" => m.field("type").filter(|t| t.kind() == "enum_specifier"),
        _ => None,
    };
    let Some(list) = spec.and_then(|s| s.field("body")) else {
        return Vec::new();
    };
    let mut c = list.walk();
    list.named_children(&mut c)
        .filter(|e| e.kind() == "enumerator")
        .filter_map(|e| {
            let name = node_text(e.field("name")?, text).to_owned();
            Some((name, e, e.field("value")?))
        })
        .collect()
}

/// The class name of a class or struct specifier (`A` of `A<T>`).
pub(super) fn class_name(spec: Node, text: &str) -> Option<String> {
    let n = spec.field("name")?;
    Some(last_segment(node_text(n, text)).to_owned())
}

/// Collect a class's fields, template values and constructor initializers.
pub(super) fn collect_class<'t>(
    spec: Node<'t>,
    text: &str,
    namespace: Option<&str>,
) -> Option<(String, ClassInfo<'t>)> {
    let name = class_name(spec, text)?;
    let body = spec.field("body")?;
    let mut info = ClassInfo {
        start: spec.start_byte(),
        written: node_text(spec.field("name")?, text)
            .split_whitespace()
            .collect(),
        namespace: namespace.map(str::to_owned),
        ..ClassInfo::default()
    };
    // `template <…> struct A {…};`: the declaration is the parent or the
    // grandparent. A class nested in class templates (`struct Inner` in
    // `template <int TopK> struct Outer`) has theirs too: one instance of
    // the inner class per instance of the outer.
    info.instance_params = instance_params(spec, &info.written, text);
    info.instance_types = instance_types(spec, &info.written, text);
    let mut p = spec.parent();
    while let Some(n) = p {
        if n.kind() == "template_declaration" {
            for t in super::template_params(n, text) {
                if !info.template_values.contains(&t) {
                    info.template_values.push(t);
                }
            }
            if let Some(params) = n.field("parameters") {
                for (t, _) in super::type_params_of(params, text) {
                    if !info.type_params.contains(&t) {
                        info.type_params.push(t);
                    }
                }
            }
        }
        p = n.parent();
    }
    if let Some(clause) = find_child(spec, "base_class_clause") {
        let mut c = clause.walk();
        for b in clause.named_children(&mut c) {
            if matches!(
                b.kind(),
                "type_identifier" | "template_type" | "qualified_identifier"
            ) {
                info.bases.push(last_segment(node_text(b, text)).to_owned());
            }
        }
    }
    let mut c = body.walk();
    let members: Vec<Node<'t>> = body.named_children(&mut c).collect();
    for m in &members {
        if m.kind() == "alias_declaration"
            && let (Some(n), Some(t)) = (m.field("name"), m.field("type"))
            && info
                .bases
                .iter()
                .any(|b| b == last_segment(node_text(t, text)))
        {
            info.base_aliases.push(node_text(n, text).to_owned());
        }
        info.aliases.extend(super::declared_aliases(*m, text));
        // `enum { TILE = BLOCK * ITEMS, … };`: constants of the class, like
        // its static constexpr members (one value for every thread).
        for (name, node, value) in enumerators(*m, text) {
            info.statics.push((name, node, value));
        }
        if m.kind() == "field_declaration"
            && is_static(*m, text)
            && let (Some(d), Some(v)) = (m.field("declarator"), m.field("default_value"))
            && d.kind() == "field_identifier"
            && v.kind() != "initializer_list"
        {
            info.statics.push((node_text(d, text).to_owned(), *m, v));
        }
        if m.kind() != "field_declaration" || is_static(*m, text) {
            continue;
        }
        let ty = m.field("type").map(|t| node_text(t, text)).unwrap_or("");
        let mut dc = m.walk();
        let decls: Vec<Node<'t>> = m.children_by_field_name("declarator", &mut dc).collect();
        for d in decls {
            let Some((fname, is_pointer, _)) = declarator_name(d, text) else {
                continue;
            };
            let is_ref = d.kind() == "reference_declarator" || is_pointer;
            let init = if is_ref && ty.contains("Storage") {
                FieldInit::Storage
            } else {
                match m.field("default_value") {
                    Some(v) => FieldInit::Expr(v),
                    None => FieldInit::None,
                }
            };
            info.fields.push(Field {
                name: fname,
                decl: *m,
                init,
            });
        }
    }
    // Constructors: initializer lists and `field = …;` in their bodies.
    for m in &members {
        let def = match m.kind() {
            "function_definition" => *m,
            "template_declaration" => continue,
            _ => continue,
        };
        let Some(fd) = def.field("declarator").and_then(find_function_declarator) else {
            continue;
        };
        let is_ctor = fd
            .field("declarator")
            .is_some_and(|d| last_segment(node_text(d, text)) == name);
        if !is_ctor {
            continue;
        }
        info.has_constructor = true;
        let (params, arity) = ctor_params(fd, text);
        let mut inits: Vec<(String, Node<'t>)> = Vec::new();
        let mut dc = def.walk();
        for k in def.children(&mut dc) {
            if k.kind() != "field_initializer_list" {
                continue;
            }
            let mut ic = k.walk();
            for fi in k.named_children(&mut ic) {
                if fi.kind() != "field_initializer" {
                    continue;
                }
                let fname = fi.named_child(0).map(|x| node_text(x, text).to_owned());
                let value = fi
                    .named_child(1)
                    .filter(|a| a.named_child_count() == 1)
                    .and_then(|a| a.named_child(0));
                if let (Some(fname), Some(v)) = (fname, value) {
                    inits.push((fname, v));
                }
            }
        }
        if let Some(b) = def.field("body") {
            let mut bc = b.walk();
            for s in b.named_children(&mut bc) {
                let Some(a) = s
                    .named_child(0)
                    .filter(|_| s.kind() == "expression_statement")
                    .filter(|a| a.kind() == "assignment_expression")
                else {
                    continue;
                };
                if a.field("operator").map(|o| node_text(o, text)) != Some("=") {
                    continue;
                }
                let (Some(l), Some(r)) = (a.field("left"), a.field("right")) else {
                    continue;
                };
                let fname = match l.kind() {
                    "identifier" => node_text(l, text),
                    "field_expression"
                        if l.field("argument").is_some_and(|x| x.kind() == "this") =>
                    {
                        l.field("field").map(|x| node_text(x, text)).unwrap_or("")
                    }
                    _ => continue,
                };
                inits.push((fname.to_owned(), r));
            }
        }
        for (fname, v) in inits {
            let Some(field) = info.fields.iter_mut().find(|f| f.name == fname) else {
                continue;
            };
            if !matches!(field.init, FieldInit::None) {
                continue; // the first constructor that says wins
            }
            field.init = match mentioned_param(v, &params, text) {
                Some(p) => {
                    let slot = arity
                        .filter(|_| is_just(v, &p.name, text) || computed_from(v, &p.name, text))
                        .map(|(min_args, max_args)| CtorSlot {
                            index: p.position,
                            min_args,
                            max_args,
                            exact: v.kind() == "identifier",
                        });
                    // Arithmetic on the parameter and other names, such
                    // as constants (`id + kReserved`), not a read through
                    // it (`info->rank`: memory): evaluated per
                    // construction.
                    let computed = arity
                        .filter(|_| v.kind() != "identifier" && arithmetic_over(v, &|_| true))
                        .map(|(min_args, max_args)| {
                            let slot = CtorSlot {
                                index: p.position,
                                min_args,
                                max_args,
                                exact: false,
                            };
                            (p.name.clone(), v, slot)
                        });
                    FieldInit::Param(p.decl, slot, computed)
                }
                None => FieldInit::Expr(v),
            };
        }
    }
    Some((name, info))
}

pub(super) fn is_static(n: Node, text: &str) -> bool {
    let mut c = n.walk();
    n.children(&mut c)
        .any(|k| k.kind() == "storage_class_specifier" && node_text(k, text) == "static")
}

/// A named constructor parameter and where it stands in the list.
struct CtorParam<'t> {
    name: String,
    decl: Node<'t>,
    position: usize,
}

/// A constructor's named parameters, and how many arguments it takes:
/// (without its defaulted parameters, with them); `None` for a variadic
/// one.
fn ctor_params<'t>(fd: Node<'t>, text: &str) -> (Vec<CtorParam<'t>>, Option<(usize, usize)>) {
    let mut out = Vec::new();
    let Some(params) = fd.field("parameters") else {
        return (out, None);
    };
    let (mut min, mut max, mut variadic) = (0, 0, false);
    let mut c = params.walk();
    let list = params
        .named_children(&mut c)
        .filter(|p| p.kind() != "comment");
    for (position, p) in list.enumerate() {
        match p.kind() {
            "parameter_declaration" => min += 1,
            "optional_parameter_declaration" => {}
            _ => variadic = true,
        }
        max += 1;
        if let Some((name, _, _)) = p.field("declarator").and_then(|d| declarator_name(d, text)) {
            out.push(CtorParam {
                name,
                decl: p,
                position,
            });
        }
    }
    (out, (!variadic).then_some((min, max)))
}

/// `v` is the parameter `name` itself, or a field of it (`info.rank`):
/// a value exactly as uniform as the argument.
fn is_just(v: Node, name: &str, text: &str) -> bool {
    let mut n = v;
    for _ in 0..16 {
        match n.kind() {
            "identifier" => return node_text(n, text) == name,
            "field_expression" | "parenthesized_expression" => {
                let Some(inner) = n.field("argument").or_else(|| n.named_child(0)) else {
                    return false;
                };
                n = inner;
            }
            _ => return false,
        }
    }
    false
}

/// Whether `v` computes its value from the parameter `name` alone:
/// literals, scoped constants (`Config::kPerStep`) and operators around
/// it (`isSender ? 0 : kPerStep - 1`), nothing that reads the thread or
/// memory. Such a field is as uniform as the construction's argument.
fn computed_from(v: Node, name: &str, text: &str) -> bool {
    arithmetic_over(v, &|n| node_text(n, text) == name)
}

/// Whether `v` is literals, scoped constants and operators around the
/// plain names `name_ok` takes: no call, member, element or pointer read.
fn arithmetic_over(v: Node, name_ok: &dyn Fn(Node) -> bool) -> bool {
    const MAX_NODES: usize = 64;
    let mut work = vec![v];
    let mut seen = 0;
    while let Some(n) = work.pop() {
        seen += 1;
        if seen > MAX_NODES {
            return false;
        }
        match n.kind() {
            "identifier" if name_ok(n) => {}
            "number_literal" | "true" | "false" | "qualified_identifier" => {}
            "parenthesized_expression"
            | "binary_expression"
            | "unary_expression"
            | "conditional_expression" => {
                let mut c = n.walk();
                work.extend(n.named_children(&mut c));
            }
            _ => return false,
        }
    }
    true
}

/// The first constructor parameter `v` mentions.
fn mentioned_param<'p, 't>(
    v: Node,
    params: &'p [CtorParam<'t>],
    text: &str,
) -> Option<&'p CtorParam<'t>> {
    let mut found = None;
    preorder(v, |n| {
        if found.is_some() {
            return Walk::Skip;
        }
        if n.kind() == "identifier"
            && let Some(p) = params.iter().find(|p| p.name == node_text(n, text))
        {
            found = Some(p);
        }
        Walk::Descend
    });
    found
}

/// The class a function definition belongs to: `A` of `A<T>::f`, or the
/// class whose body holds it.
pub(super) fn class_of(def: Node, text: &str) -> Option<String> {
    member_of(def, text).map(|m| m.class)
}

/// Where a member function's class is: its name, and the specifier whose
/// body holds the definition (its start) or, for one defined out of its
/// class, the scope as written without spaces (`Leader<16>` of
/// `Leader<16>::broadcast`).
pub(super) struct MemberOf {
    pub class: String,
    pub start: Option<usize>,
    pub written: Option<String>,
}

pub(super) fn member_of(def: Node, text: &str) -> Option<MemberOf> {
    let fd = def.field("declarator").and_then(find_function_declarator)?;
    let name = fd.field("declarator")?;
    if name.kind() == "qualified_identifier" {
        let written: String = node_text(name, text).split_whitespace().collect();
        let (Some(scope), _) = crate::ir::split_scope(&written) else {
            return None;
        };
        return Some(MemberOf {
            class: last_segment(scope).to_owned(),
            start: None,
            written: Some(scope.to_owned()),
        });
    }
    let chain = ancestors(def);
    let body = chain.iter().find(|a| {
        matches!(
            a.kind(),
            "field_declaration_list" | "compound_statement" | "translation_unit"
        )
    })?;
    if body.kind() != "field_declaration_list" {
        return None;
    }
    let spec = body.parent()?;
    Some(MemberOf {
        class: class_name(spec, text)?,
        start: Some(spec.start_byte()),
        written: None,
    })
}

/// The types and names that make a parameter declaration a `Param`.
pub(super) fn param_flags(p: Node, text: &str) -> (bool, bool) {
    (type_is_float(p, text), type_is_integral(p, text))
}

/// Static member `member` of `info` with its template values `bound`:
/// its initializer folded with them, the class's other statics (at most
/// four deep) and the file's constants.
fn static_value(
    info: &ClassInfo,
    bound: &[(&str, i64)],
    member: &str,
    constants: &HashMap<String, i64>,
    text: &str,
    depth: usize,
) -> Option<i64> {
    if depth > 4 {
        return None;
    }
    let (_, _, init) = info.statics.iter().find(|(n, ..)| n == member)?;
    let lookup = |n: &str| {
        (bound.iter().find(|(b, _)| *b == n).map(|(_, v)| *v))
            .or_else(|| {
                (n != member)
                    .then(|| static_value(info, bound, n, constants, text, depth + 1))
                    .flatten()
            })
            .or_else(|| constants.get(n).copied())
    };
    super::templates::eval_text(super::node_text(*init, text), &lookup, 0)
}

/// The file's classes by name; a name may have several (a class
/// template's specializations, same-named classes of two namespaces).
#[derive(Default)]
pub(super) struct Classes<'t> {
    by_name: HashMap<String, Vec<ClassInfo<'t>>>,
}

impl<'t> Classes<'t> {
    pub(super) fn insert(&mut self, name: String, info: ClassInfo<'t>) {
        self.by_name.entry(name).or_default().push(info);
    }

    /// The first class of that name (a base class named in a clause).
    pub(super) fn get(&self, name: &str) -> Option<&ClassInfo<'t>> {
        self.by_name.get(name)?.first()
    }

    /// Whether `member` is a static data member (or an enumerator) of the
    /// classes named `class` and a plain field of none: `t.ne` on an object
    /// of such a class reads one value for every thread, whatever the
    /// object (C++ reads the member from the object's type).
    pub(super) fn has_static_member(&self, class: &str, member: &str) -> bool {
        self.by_name.get(class).is_some_and(|all| {
            all.iter()
                .any(|c| c.statics.iter().any(|(n, ..)| n == member))
                && !all
                    .iter()
                    .any(|c| c.fields.iter().any(|f| f.name == member))
        })
    }

    /// The value of static member `member` of the instance written
    /// `written` (`Traits<6>`, of a class template with no specialization
    /// in the file): its initializer folded with the instance's arguments
    /// for the template's values, the class's other statics and the file's
    /// constants. `None` where an argument or the initializer does not
    /// fold.
    pub(super) fn instance_static(
        &self,
        written: &str,
        member: &str,
        constants: &HashMap<String, i64>,
        text: &str,
    ) -> Option<i64> {
        let [info] = self.by_name.get(super::last_segment(written))?.as_slice() else {
            return None;
        };
        let args = crate::ir::template_args(written)?;
        let value = |a: &str| super::templates::eval_text(a, &|n| constants.get(n).copied(), 0);
        let bound: Vec<(&str, i64)> = (info.instance_params.iter())
            .map(|p| Some((p.name.as_str(), value(p.arg(&args)?)?)))
            .collect::<Option<_>>()?;
        static_value(info, &bound, member, constants, text, 0)
    }

    /// Where the class of an object declared as `written` (`Reducer<32>`,
    /// `ns::Tile`) starts, where several classes have its name: the one
    /// written so, else the one of the scope it names or of the
    /// declaring code's namespace. `None` where only one class (or
    /// none) has the name: any member of that name is its.
    pub(super) fn of_object(
        &self,
        class: &str,
        written: &str,
        namespace: Option<&str>,
        constants: &HashMap<String, i64>,
    ) -> Option<usize> {
        let infos = self.by_name.get(class)?;
        if infos.len() < 2 {
            return None;
        }
        let (scope, last) = crate::ir::split_scope(written);
        let namespace = scope.or(namespace);
        // An instance (`Reducer<float, 1, 4, 1>`): its arguments decide,
        // among the classes of the written scope or the code's namespace
        // where it has some.
        if crate::ir::template_args(last).is_some() {
            let here: Vec<&ClassInfo> = (infos.iter())
                .filter(|i| namespace.is_some() && i.namespace.as_deref() == namespace)
                .collect();
            let pool: Vec<&ClassInfo> = if here.is_empty() {
                infos.iter().collect()
            } else {
                here
            };
            if let Some(i) = instance_of(&pool, last, constants) {
                return Some(i.start);
            }
        }
        written_or_in(infos, Some(last), namespace, constants).map(|i| i.start)
    }

    /// The class a call scoped to a class template's instance names
    /// (`Reducer<32>::sum(v)`), of several of that name: the
    /// specialization written with those arguments (`Reducer<warp_threads>`
    /// where `warp_threads` is 32), else a partial one whose other
    /// arguments are its own parameters (`Matcher<Bits, 32>` for
    /// `Matcher<4, 32>`), else the primary template, which every other
    /// instance is.
    pub(super) fn of_scope(
        &self,
        class: &str,
        written: &str,
        constants: &HashMap<String, i64>,
    ) -> Option<usize> {
        let infos = self.by_name.get(class)?;
        if infos.len() < 2 {
            return None;
        }
        let all: Vec<&ClassInfo> = infos.iter().collect();
        instance_of(&all, written, constants).map(|i| i.start)
    }

    /// The class of a member: the one whose body holds it; for one
    /// defined out of its class, the one written as its scope is
    /// (`Leader<16>`), else of the definition's namespace, else the first.
    pub(super) fn of_member(
        &self,
        m: &MemberOf,
        namespace: Option<&str>,
        constants: &HashMap<String, i64>,
    ) -> Option<&ClassInfo<'t>> {
        let infos = self.by_name.get(&m.class)?;
        if let Some(start) = m.start {
            return infos.iter().find(|i| i.start == start);
        }
        written_or_in(infos, m.written.as_deref(), namespace, constants).or_else(|| infos.first())
    }
}

/// Of several classes of one name, the one an instance written with
/// template arguments (`Reducer<float, 1, 4, 1>`) is: the specialization
/// written so, else the most specialized partial one whose other arguments
/// are its own parameters, as C++ picks (`Reducer<T, 1, W, 1>` over
/// `Reducer<T, 1, W, N>` for `Reducer<float, 1, 4, 1>`), else the primary
/// template, which every other instance is. `None` without arguments.
fn instance_of<'a, 't>(
    infos: &[&'a ClassInfo<'t>],
    written: &str,
    constants: &HashMap<String, i64>,
) -> Option<&'a ClassInfo<'t>> {
    let args = crate::ir::template_args(written)?;
    if let Some(&exact) = infos
        .iter()
        .find(|i| same_written(&i.written, written, constants))
    {
        return Some(exact);
    }
    (infos.iter())
        .filter_map(|&i| Some((i, partial_match(i, &args, constants)?)))
        .max_by_key(|&(i, fixed)| (fixed, std::cmp::Reverse(i.start)))
        .map(|(i, _)| i)
        .or_else(|| infos.iter().find(|i| !i.written.contains('<')).copied())
}

/// Whether partial specialization `i` takes an instance's arguments `args`,
/// and if so how many of them it fixes (the more, the more specialized): a
/// parameter of it takes any argument, the same one wherever it repeats
/// (`Iterate<MAX, MAX>`, which fixes one); any other argument must be the
/// instance's.
fn partial_match(i: &ClassInfo, args: &[&str], constants: &HashMap<String, i64>) -> Option<usize> {
    let theirs = crate::ir::template_args(&i.written)?;
    if theirs.len() != args.len() {
        return None;
    }
    let mut bound: Vec<(&str, &str)> = Vec::new();
    let mut fixed = 0;
    for (&t, &a) in theirs.iter().zip(args) {
        let is_param = (i.template_values.iter())
            .chain(&i.type_params)
            .any(|v| v == t);
        let matches = if !is_param {
            fixed += 1;
            same_arg(t, a, constants)
        } else {
            match bound.iter().find(|(p, _)| *p == t) {
                Some(&(_, was)) => {
                    fixed += 1;
                    same_arg(was, a, constants)
                }
                None => {
                    bound.push((t, a));
                    true
                }
            }
        };
        if !matches {
            return None;
        }
    }
    Some(fixed)
}

/// Of several classes of one name, the one written as `written`
/// (`Leader<16>`, also `Leader<kHalf>` where `kHalf` is 16), else the one
/// declared in `namespace`.
fn written_or_in<'a, 't>(
    infos: &'a [ClassInfo<'t>],
    written: Option<&str>,
    namespace: Option<&str>,
    constants: &HashMap<String, i64>,
) -> Option<&'a ClassInfo<'t>> {
    (infos.iter())
        .find(|i| written.is_some_and(|w| same_written(&i.written, w, constants)))
        .or_else(|| {
            infos
                .iter()
                .find(|i| namespace.is_some() && i.namespace.as_deref() == namespace)
        })
}

/// Where the non-type parameters of the template a class specifier opens
/// with stand among an instance's arguments: in the primary template, at
/// their place in the parameter list (type parameters counted); in a
/// partial specialization, where its written arguments name one alone.
/// The primary template's defaults are what an instance writing fewer
/// arguments takes.
fn instance_params(spec: Node, written: &str, text: &str) -> Vec<ClassParam> {
    let decl = [spec.parent(), spec.parent().and_then(|p| p.parent())]
        .into_iter()
        .flatten()
        .find(|n| n.kind() == "template_declaration");
    let Some(params) = decl.and_then(|d| d.field("parameters")) else {
        return Vec::new();
    };
    let list = super::non_type_params(params, text);
    match crate::ir::template_args(written) {
        None => (list.into_iter())
            .map(|(at, name, default)| ClassParam { at, name, default })
            .collect(),
        Some(args) => (args.iter().enumerate())
            .filter_map(|(j, a)| {
                let (_, name, _) = list.iter().find(|(_, n, _)| n == a)?;
                Some(ClassParam {
                    at: j,
                    name: name.clone(),
                    default: None,
                })
            })
            .collect(),
    }
}

/// The type parameters of the primary class template `spec` opens
/// (`template <class Policy> struct Agent`), at their positions among an
/// instance's arguments. None for a specialization, whose written
/// arguments place them otherwise.
fn instance_types(spec: Node, written: &str, text: &str) -> Vec<(String, usize)> {
    if crate::ir::template_args(written).is_some() {
        return Vec::new();
    }
    let decl = spec.parent().filter(|n| n.kind() == "template_declaration");
    let Some(params) = decl.and_then(|d| d.field("parameters")) else {
        return Vec::new();
    };
    super::type_params_of(params, text)
}

/// Two names of a class template's instance, as written without spaces,
/// name the same one: the same template, and each argument the same text
/// or the same folded constant (`Leader<kHalf>` and `Leader<16>`).
fn same_written(a: &str, b: &str, constants: &HashMap<String, i64>) -> bool {
    if a == b {
        return true;
    }
    match (crate::ir::template_args(a), crate::ir::template_args(b)) {
        (Some(x), Some(y)) => {
            a.split('<').next() == b.split('<').next()
                && x.len() == y.len()
                && x.iter().zip(&y).all(|(p, q)| same_arg(p, q, constants))
        }
        _ => false,
    }
}

/// One template argument as two places write it: the same text, or
/// integers that fold to the same value (a literal or a file constant).
fn same_arg(a: &str, b: &str, constants: &HashMap<String, i64>) -> bool {
    let value = |t: &str| {
        super::parse_int_literal(t).or_else(|| {
            constants
                .get(t)
                .or_else(|| constants.get(last_segment(t)))
                .copied()
        })
    };
    a == b || value(a).is_some_and(|v| value(b) == Some(v))
}

/// Base classes followed up from a class (the chain and its branches).
const MAX_BASES: usize = 8;

impl super::FnBuilder<'_> {
    /// Give a member function its class's fields (see the module comment)
    /// and its class's template values.
    /// The static members and enumerators of `info`'s base classes (those
    /// of this file, nearest first, at most [`MAX_BASES`]), as locals of
    /// the member before its own class's: `using Base::kGroup;` and plain
    /// uses name them, and a derived class's own of the same name hides
    /// them. Their class templates' parameters are template values.
    fn base_statics(&mut self, info: &ClassInfo, classes: &Classes, text: &str) {
        let own: Vec<&str> = info.statics.iter().map(|(n, ..)| n.as_str()).collect();
        let mut queue: std::collections::VecDeque<&str> =
            info.bases.iter().map(String::as_str).collect();
        let mut seen: Vec<&str> = Vec::new();
        let mut declared: Vec<String> = Vec::new();
        let mut inherited = Vec::new();
        while let Some(b) = queue.pop_front() {
            if seen.contains(&b) || seen.len() >= MAX_BASES {
                continue;
            }
            seen.push(b);
            let Some(base) = classes.get(b) else {
                continue;
            };
            self.add_template_values(&base.template_values);
            let mut of_base = Vec::new();
            for (name, decl, v) in &base.statics {
                if !own.contains(&name.as_str()) && !declared.contains(name) {
                    declared.push(name.clone());
                    of_base.push((name.clone(), *decl, *v));
                }
            }
            inherited.push(of_base);
            queue.extend(base.bases.iter().map(String::as_str));
        }
        // A base's constants may read its own base's: deepest base first,
        // each in its declaration order.
        for (name, decl, v) in inherited.into_iter().rev().flatten() {
            self.static_decl(&name, decl, v, text);
        }
    }

    /// `name`, a static member or enumerator initialised with `v`, as a
    /// local of the member's prelude (unless a parameter has the name).
    /// Also where it folds: the file's and the unit's constants hold one
    /// value per name, which may be another class's member of that name
    /// (`kLanes = 32` in one class, `16` in the next).
    fn static_decl(&mut self, name: &str, decl: Node, v: Node, text: &str) {
        if self.f.params.iter().any(|p| p.name == name) {
            return;
        }
        let e = self.lower_expr(v, text, 0, None);
        let id = self.stmt(
            StmtKind::Decl {
                name: name.to_owned(),
                init: Some(e),
                dims: Vec::new(),
                shared: false,
                is_pointer: false,
                is_reference: false,
                is_float: type_is_float(decl, text),
                int_type: super::int_type(decl, text),
            },
            super::span_of(decl),
        );
        self.push_to(super::Dest::Body, id);
    }

    /// `values` among the function's template values (once each).
    fn add_template_values(&mut self, values: &[String]) {
        for t in values {
            if !self.f.template_values.contains(t) {
                self.f.template_values.push(t.clone());
            }
        }
    }

    pub(super) fn member_prelude(&mut self, info: &ClassInfo, classes: &Classes, text: &str) {
        self.add_template_values(&info.template_values);
        self.base_statics(info, classes, text);
        // Static members first (fields' initializers may read them): one
        // value for every thread, whatever the class's template values
        // make it.
        for (name, decl, v) in &info.statics {
            self.static_decl(name, *decl, *v, text);
        }
        for field in &info.fields {
            if self.f.params.iter().any(|p| p.name == field.name) {
                continue;
            }
            let span = super::span_of(field.decl);
            let decl = |init, shared| StmtKind::Decl {
                name: field.name.clone(),
                init,
                dims: Vec::new(),
                shared,
                is_pointer: false,
                is_reference: false,
                is_float: type_is_float(field.decl, text),
                int_type: super::int_type(field.decl, text),
            };
            match field.init {
                FieldInit::None if info.has_constructor => {
                    self.f.state_fields.push(field.name.clone());
                }
                FieldInit::None => {}
                FieldInit::Storage => {
                    let id = self.stmt(decl(None, true), span);
                    self.push_to(super::Dest::Body, id);
                }
                FieldInit::Expr(v) => {
                    let e = self.lower_expr(v, text, 0, None);
                    let id = self.stmt(decl(Some(e), false), span);
                    self.push_to(super::Dest::Body, id);
                }
                FieldInit::Param(p, ctor_slot, ref computed) => {
                    let (is_float, is_integral) = param_flags(p, text);
                    let ctor_value = computed.as_ref().map(|(name, v, slot)| {
                        (name.clone(), self.lower_expr(*v, text, 0, None), *slot)
                    });
                    self.f.params.push(Param {
                        name: field.name.clone(),
                        default: None,
                        is_pointer: false,
                        is_reference: false,
                        is_float,
                        is_integral,
                        int_type: crate::ir::IntType::Other,
                        is_array: false,
                        of_field: true,
                        ctor_slot,
                        ctor_value,
                        tag: None,
                        span,
                    });
                }
            }
        }
    }
}
