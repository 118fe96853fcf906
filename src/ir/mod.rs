//! Stage 3: the kernel IR. A small structured IR for device code, lowered
//! from the tree-sitter tree by [`lower`]. Statements and expressions live in
//! per-function arenas and refer to each other by index, so no IR value owns
//! a deep chain of boxes (dropping one can never overflow the stack).
//!
//! Spans stay attached to every statement and expression so that diagnostics
//! and witnesses point at source.

pub mod asserts;
pub mod fold;
pub mod library;
pub mod lower;
pub mod primitives;
pub mod scopes;

pub use lower::lower_file;
pub use primitives::Primitive;

pub type ExprId = u32;
pub type StmtId = u32;

/// A byte range in the file (`start..end`).
pub type ByteSpan = (usize, usize);

/// Whether an expression was synthesized by lowering rather than written
/// (a zero-width span), e.g. the `threadIdx.y` term of a cooperative group's
/// linear `thread_rank()`.
pub fn is_synthesized(span: ByteSpan) -> bool {
    span.0 == span.1
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FnKind {
    /// `__global__`
    Kernel,
    /// `__device__` (possibly also `__host__`)
    Device,
    /// A lambda inside device code.
    Lambda,
}

#[derive(Debug, Clone)]
pub struct Param {
    pub name: String,
    /// `unsigned mask = 0xffffffff`: the default value.
    pub default: Option<ExprId>,
    pub is_pointer: bool,
    /// Declared as a reference (`Storage& storage`): a caller's object,
    /// which may live in shared memory.
    pub is_reference: bool,
    pub is_float: bool,
    /// Declared as an array (`KeyT (&keys)[N]`, `int v[4]`).
    pub is_array: bool,
    /// Declared with a built-in integral type (`int`, `unsigned`,
    /// `size_t`, …): only these get witness values.
    pub is_integral: bool,
    /// What its declared type says about the integers it holds (as for a
    /// local: `IntType::Other` unless a built-in type of at most 32 bits).
    pub int_type: IntType,
    /// A field a constructor sets from one of its parameters, lowered as
    /// a parameter of each member function: callers never pass it.
    pub of_field: bool,
    /// For such a field whose initializer is the constructor's parameter
    /// itself (or its fields): which argument of the construction gives
    /// its value.
    pub ctor_slot: Option<CtorSlot>,
    /// For such a field computed from one constructor parameter and
    /// constants (`id_(id + kReserved)`): the parameter's name, the
    /// initializer (lowered in this function) to evaluate with that name
    /// bound to the argument, and the argument's slot.
    pub ctor_value: Option<(String, ExprId, CtorSlot)>,
    /// Declared as a tag type of a fixed value (`Int2Type<true>`,
    /// `integral_constant<bool, false>`, `true_type`): an overload a call
    /// selects by the tag it passes ([`Call::tags`]).
    pub tag: Option<i64>,
    pub span: ByteSpan,
}
/// The constructor argument a field takes: argument `index` of a
/// constructor taking `min_args..=max_args` arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CtorSlot {
    pub index: usize,
    pub min_args: usize,
    pub max_args: usize,
    /// The field is the argument itself (`world(world)`), not one of its
    /// fields (`rank(info.rank)`): its value, not only its level, is the
    /// argument's.
    pub exact: bool,
}

impl Construction {
    /// The argument that gives a field its value, where the constructor
    /// passes it through (`slot`) and this construction can be that
    /// constructor's (it passes as many arguments) and passes a plain
    /// value there.
    pub fn field_argument(&self, slot: CtorSlot) -> Option<ExprId> {
        let args = self.args.as_ref()?;
        if !(slot.min_args..=slot.max_args).contains(&args.len()) {
            return None;
        }
        args.get(slot.index).copied().flatten()
    }
}

/// The object a member call runs on (see [`Call::object`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectRef {
    pub class: String,
    /// For a call on the same object, where the calling member's class
    /// starts (`Function::class_at`): of several classes of that name
    /// (a class template's specializations), the caller's own.
    pub class_at: Option<usize>,
    /// Index into the calling function's `constructions`; `None` for a
    /// member's call of a member of its own class (`claim()`, the same
    /// object).
    pub construction: Option<usize>,
}

/// An object a body declares by value (`Comm<true> comm(info, ws);`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Construction {
    /// Its class, without template arguments.
    pub class: String,
    /// Its type as written, without spaces (`Reducer<32>`,
    /// `by_block::Tile`): which of several classes of that name it is.
    pub written: String,
    /// The constructor's arguments; `None` where the declaration states
    /// no argument list (`T x = make();`). An argument is `None` where it
    /// is not a plain value (a name, a field, a literal): only those are
    /// lowered, so that no call is lowered outside a statement.
    pub args: Option<Vec<Option<ExprId>>>,
}

#[derive(Debug, Clone)]
pub struct Function {
    pub name: String,
    pub kind: FnKind,
    pub params: Vec<Param>,
    /// Non-type template parameters (`template <int BLOCK>`).
    pub template_values: Vec<String>,
    /// Where each of `template_values` stands in the template's parameter
    /// list, type parameters counted (`template <typename T, int N>` puts
    /// `N` at 1): how a launch's template arguments bind them. Empty where
    /// the values are not the definition's own list (a member's class
    /// values).
    pub template_positions: Vec<usize>,
    /// For a member of a class template, where each of the class's
    /// non-type parameters stands among an instance's written arguments
    /// (`Lanes` first in `Part<32>`; `Bits` first in the partial
    /// specialization `Match<Bits, 32>`): a call through an instance the
    /// code writes (`Part<32>::run(v)`, or an object `Part<32> q;`) binds
    /// them to those arguments where they are constants.
    pub class_params: Vec<ClassParam>,
    /// In a kernel template's instance (`k<16, 1>`), the template values
    /// its launches bind and their integers (what a witness names).
    pub bound_values: Vec<(String, i64)>,
    /// Their integer defaults (`template <int kBase = 0>`): what the code
    /// states where a call gives no value.
    pub template_defaults: Vec<(String, i64)>,
    /// The type parameters of the template the definition opens with
    /// that scope one of `dependent_names` (`Policy` of `Policy::kLanes`),
    /// with their positions in its parameter list: a call or launch naming
    /// a class there (`reduce<FullWarp>`) binds those names to the class's
    /// members.
    pub type_params: Vec<(String, usize)>,
    /// For a member of a class template, its class's type parameters that
    /// scope one of `dependent_names`, with where they stand among an
    /// instance's written arguments: a call through an instance naming a
    /// class there (`Agent<FullWarp> a; a.run(v)`) binds `Policy::kLanes`
    /// to `FullWarp::kLanes` (as `class_params` bind values).
    pub class_type_params: Vec<(String, usize)>,
    /// A function template whose every call in the module was renamed to
    /// an instance (`pick<FullWarp>`, `group_sum<8>`): its body runs only
    /// as those instances, so no finding is proposed on the template
    /// itself, whose values a run would otherwise pick freely.
    pub runs_as_instances: bool,
    /// `sizeof(T)` of the template type parameters the body measures, named
    /// `sizeof(T)`: uniform compile-time sizes the executor picks.
    pub type_sizes: Vec<String>,
    /// The `bool` ones among `template_values` (`template <bool kResidual>`)
    /// and `constant_names`: a run tries both arms of
    /// `if constexpr (kResidual)`.
    pub flag_values: Vec<String>,
    /// The ones among `template_values` that size a cooperative-group tile
    /// (`thread_block_tile<N>`): a run picks them among tile sizes only.
    pub tile_sizes: Vec<String>,
    /// Names an `if constexpr` condition reads that the function neither
    /// declares nor knows as a constant (an enclosing class template's
    /// parameter, a trait's `value`): values of the instantiation, one for
    /// the whole grid, picked by a run like `template_values`.
    pub constant_names: Vec<String>,
    /// Names scoped by a template type parameter or by an alias of a class
    /// template (`WarpShape::kM`), as written: the instantiation's values
    /// (those a condition reads are `constant_names` too), never a
    /// same-named member of another class of the unit (CUTLASS's
    /// `GemmCoord::kM`, the index 0) by [`Module::constant`]'s
    /// last-segment fallback.
    pub dependent_names: Vec<String>,
    /// Reads of a class's static constant (`Wide::kLanes`) that the file
    /// did not define, as (expression, `Class::name`): still read by the
    /// last segment, until a translation unit gives the class's own value
    /// ([`Module::settle_class_constants`]).
    pub class_constants: Vec<(ExprId, String)>,
    /// `__launch_bounds__(N)`: the most threads per block (1 to 1024;
    /// `None` for a bound outside that range).
    pub launch_bounds: Option<u32>,
    /// The class this function is a member of (`A` for `A<T>::f`).
    pub class: Option<String>,
    /// Where that class's specifier starts in the function's file: which
    /// of several classes of one name (specializations, namespaces) it is.
    pub class_at: Option<usize>,
    /// The innermost namespace the definition is written in (`detail` of
    /// `namespace cub { namespace detail {`), `""` for an anonymous one.
    pub namespace: Option<std::sync::Arc<str>>,
    pub body: Vec<StmtId>,
    pub stmts: Vec<Stmt>,
    pub exprs: Vec<Expr>,
    pub span: ByteSpan,
    pub name_span: ByteSpan,
    /// Constructs the lowering did not understand (as spans); the executor
    /// treats them as opaque and says so when a verdict depends on them.
    pub unsupported: Vec<ByteSpan>,
    /// The body has a labelled statement (a `goto` may jump to it).
    pub has_labels: bool,
    /// A lambda whose captures include one by reference (`[&]`, `[&x]`):
    /// what it writes of its enclosing function's names, the enclosing
    /// function sees after the call.
    pub captures_by_reference: bool,
    /// Names of this function that its lambdas capturing by reference
    /// assign (`[&](int k) { active = k; }`): written by this function's
    /// calls of them, so never a constant of its own.
    pub lambda_writes: Vec<String>,
    /// The lambdas a copy of this function runs for the calls of its
    /// parameters (`lower::callables`): their names are the caller's that
    /// passed them, not this function's.
    pub bound_lambdas: Vec<usize>,
    /// Arguments that pass an object this function constructed, declared
    /// (`WarpSum sum; apply(v, sum)`) or temporary (`apply(v, WarpSum())`):
    /// the argument and its construction. A callee calling that parameter
    /// runs the object's class's `operator()` (`lower::callables`).
    pub passed_objects: Vec<(ExprId, usize)>,
    /// Locals declared by value with a class type (`fragment frag;`, `Tile
    /// t{…}`): each thread's own object, whose fields it stores.
    pub object_locals: Vec<String>,
    /// Arguments a callee's parameter may deduce a template parameter
    /// or a group from: a block or a tile of a known size (`tile_total(tile,
    /// v)` with `tile` a `thread_block_tile<16>`), an object of a named
    /// class (`pick(HalfTag{}, v)`, a local `HalfTag tag;`).
    pub deducing_arguments: Vec<(ExprId, Deducing)>,
    /// The parameters whose argument deduces one of the template's own
    /// parameters: typed `thread_block_tile<N>` (`N` one of
    /// `template_values`), or typed by one of `type_params` (`Tag tag`,
    /// `const Policy &p`). The parameter's index and the template
    /// parameter's name.
    pub deduced_params: Vec<(usize, String)>,
    /// The parameters whose cooperative group the argument decides: typed
    /// by a template type parameter (`template <class Group> f(Group g)`)
    /// or by the type-erased `cg::thread_group`. Calls on them stay opaque
    /// here; an instance for a block or a tile of known size
    /// ([`GroupArg`]) lowers them as that group's.
    pub group_params: Vec<usize>,
    /// Which file the spans point into: 0 is the module's own file, `n`
    /// is `Module::headers[n - 1]` (a function from an included header).
    pub file: u32,
    /// Names the body reads through a scope (`Traits::kWarps`,
    /// `detail::warp_threads`): a static member, a namespace-scope variable
    /// or an enumerator, one location or one constant for every thread.
    pub scoped_names: rustc_hash::FxHashSet<String>,
    /// Conditions of the body's `static_assert`s (also through macros):
    /// every instantiation satisfies them (see [`asserts`]).
    pub asserts: Vec<ExprId>,
    /// Operands of C-style casts (`(long)x`, `(uint8_t)x`) and of
    /// `static_cast`s to integer types, which lower to
    /// the operand itself, and `long` literals (`5L`): where a value may
    /// change width.
    pub casts: rustc_hash::FxHashSet<ExprId>,
    /// Fields of a member's class that no constructor sets (in a class
    /// that has one): state its members write and read
    /// (`dataflow::interprocedural` gives them one level per class).
    pub state_fields: Vec<String>,
    /// The objects the body declares by value (`Comm<true> comm(…);`),
    /// in order: their members run as part of this function's threads,
    /// and their fields take the arguments given here.
    pub constructions: Vec<Construction>,
    /// The expressions of a member's prelude (`lower::classes`): the
    /// values its class's constructor gave the fields. Their calls ran in
    /// the constructor, so they are not this function's own calls: a
    /// field set by a warp collective does not make every member a user
    /// of warp primitives.
    pub prelude: std::ops::Range<ExprId>,
}

/// The name a call of an object (a function object or a lambda held by
/// name: `op(v)`) is lowered to: its class's call operator.
pub const CALL_OPERATOR: &str = "operator()";

/// A non-type parameter of a member's class template (see
/// [`Function::class_params`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassParam {
    /// Where it stands among an instance's written arguments.
    pub at: usize,
    pub name: String,
    /// What the template gives it where an instance writes no argument in
    /// its place (`int LOGICAL_WARP_THREADS = 32` for `WarpReduce<float>`).
    pub default: Option<String>,
}

impl ClassParam {
    /// Its argument in an instance written with `written`: the one in its
    /// place, else its default.
    pub fn arg<'a>(&'a self, written: &[&'a str]) -> Option<&'a str> {
        written
            .get(self.at)
            .copied()
            .or_else(|| self.default_for(written))
    }

    /// Its default, where `written` has no argument in its place.
    pub fn default_for(&self, written: &[&str]) -> Option<&str> {
        self.default.as_deref().filter(|_| written.len() <= self.at)
    }
}

impl Function {
    /// Whether a call's template arguments, or what its arguments deduce,
    /// make an instance of this function (`templates::instantiate`): a
    /// template with values or type parameters the analysis reads, or a
    /// function with a generic group parameter.
    pub fn is_template_like(&self) -> bool {
        !self.template_values.is_empty()
            || !self.type_params.is_empty()
            || !self.group_params.is_empty()
    }

    /// Point this function's lambda references (`ExprKind::Lambda` and
    /// `Call::target`) at `to(index)`: lambdas are lowered into their
    /// enclosing function's list, then placed in a module, then copied
    /// into another one. `None`: that lambda is not there, and the
    /// reference becomes an unknown value or an unresolved call.
    pub fn map_lambdas(&mut self, to: impl Fn(usize) -> Option<usize>) {
        for e in &mut self.exprs {
            match &mut e.kind {
                ExprKind::Lambda(l) => match to(*l) {
                    Some(new) => *l = new,
                    None => e.kind = ExprKind::Unknown,
                },
                ExprKind::Call(c) => {
                    if let Some(l) = c.target {
                        c.target = to(l);
                    }
                }
                _ => {}
            }
        }
    }

    /// How messages name the function: `` `k` ``, or for a lambda
    /// "a lambda in `k`" (its own name is only unique).
    pub fn shown_name(&self) -> String {
        match self.name.split_once("::<lambda@") {
            Some((outer, _)) if self.kind == FnKind::Lambda => format!("a lambda in `{outer}`"),
            _ => format!("`{}`", self.name),
        }
    }

    /// Whether a call scoped by `scope` (its innermost segment) names
    /// this function: a member of that class, or a free function of that
    /// namespace.
    pub fn in_scope(&self, scope: &str) -> bool {
        match &self.class {
            Some(class) => class == scope,
            None => self.namespace.as_deref() == Some(scope),
        }
    }

    /// The template arguments of the class instance a member call of this
    /// function names, as written: the object's declared type (`Part<32>
    /// q;`), the temporary's (`Part<32>(s).run()`) or the call's scope
    /// (`Part<32>::run`).
    pub fn instance_args<'f>(&'f self, call: &'f Call) -> Option<Vec<&'f str>> {
        let written = match &call.object {
            Some(o) => &self.constructions.get(o.construction?)?.written,
            None if call.receiver.is_none() => call.scope.as_deref()?,
            None => return None,
        };
        template_args(split_scope(written).1)
    }

    /// The parameters a call's arguments bind to, in order: not the fields
    /// a constructor sets, lowered as parameters ([`Param::of_field`]).
    pub fn passed_params(&self) -> impl Iterator<Item = &Param> + Clone {
        self.params.iter().filter(|p| !p.of_field)
    }

    /// A call passing `n` arguments can bind them (defaults fill the rest).
    pub fn takes_args(&self, n: usize) -> bool {
        let (required, all) = self.passed_params().fold((0, 0), |(r, a), p| {
            (r + usize::from(p.default.is_none()), a + 1)
        });
        (required..=all).contains(&n)
    }

    /// The calls the function itself makes, with their expressions: every
    /// call of its IR but those of a member's prelude, which ran in the
    /// class's constructor ([`Function::prelude`]). What the call graph,
    /// the primitive summaries and the rules' call sites read.
    pub fn own_calls(&self) -> impl Iterator<Item = (ExprId, &Call)> {
        (self.exprs.iter().enumerate()).filter_map(|(i, e)| match &e.kind {
            ExprKind::Call(c) if !self.prelude.contains(&(i as ExprId)) => {
                Some((i as ExprId, &**c))
            }
            _ => None,
        })
    }

    /// The variable a store to `e` writes (`x`, `a[i][j]`, `a[i].f`): its
    /// name, the index expressions on the way, and whether the store is to
    /// a part of it (an element or a field) rather than the whole. `None`
    /// for a store through a pointer or a call.
    pub fn store_root(&self, mut e: ExprId) -> Option<StoreRoot<'_>> {
        let mut indices = Vec::new();
        let mut part = false;
        // Bounded by the expression count: each step goes one node down.
        for _ in 0..self.exprs.len() {
            match &self.expr(e).kind {
                ExprKind::Index(base, i) => {
                    indices.push(*i);
                    part = true;
                    e = *base;
                }
                ExprKind::Member(base, _) => {
                    part = true;
                    e = *base;
                }
                ExprKind::Var(name) => {
                    return Some(StoreRoot {
                        name,
                        indices,
                        part,
                    });
                }
                _ => return None,
            }
        }
        None
    }

    /// The classes of the objects the body declares by value, each once.
    pub fn object_classes(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for c in &self.constructions {
            if !out.contains(&c.class.as_str()) {
                out.push(&c.class);
            }
        }
        out
    }

    /// The name the run's launches state block extents under (launch
    /// contracts): a member's class (a kernel class's `operator()` is the
    /// block's work), else a kernel's own name, without the template
    /// arguments of an instance (`k<4, 2>` is a launch of `k`).
    pub fn launch_name(&self) -> Option<&str> {
        match &self.class {
            Some(c) => Some(c),
            None if self.kind == FnKind::Kernel => self.name.split('<').next(),
            None => None,
        }
    }

    /// A name (`n`) or a field path of one (`params.hidden`) as `e` reads
    /// it, with the name it starts from; `None` for anything else or a
    /// path longer than eight fields.
    pub fn access_path(&self, mut e: ExprId) -> Option<(&str, String)> {
        let mut fields: Vec<&str> = Vec::new();
        loop {
            match &self.expr(e).kind {
                ExprKind::Member(base, field) if fields.len() < 8 => {
                    fields.push(field);
                    e = *base;
                }
                ExprKind::Var(root) => {
                    let mut path = root.clone();
                    for field in fields.iter().rev() {
                        path.push('.');
                        path.push_str(field);
                    }
                    return Some((root, path));
                }
                _ => return None,
            }
        }
    }

    /// The compile-time values a run of the function picks: its template
    /// values, the `sizeof(T)`s it measures and the names its `if
    /// constexpr` conditions read. One value for every thread.
    /// The names a class type parameter scopes (`Policy::kLanes`), which a
    /// call through an instance binds.
    pub fn class_type_scoped(&self) -> impl Iterator<Item = &String> {
        (self.dependent_names.iter()).filter(|d| {
            (self.class_type_params.iter()).any(|(p, _)| member_of_param(d, p).is_some())
        })
    }

    /// The integer default of template value `name` (`template <int W =
    /// 16>`), where it has one.
    pub fn template_default(&self, name: &str) -> Option<i64> {
        (self.template_defaults.iter())
            .find(|(d, _)| d == name)
            .map(|(_, v)| *v)
    }

    /// The integer each of `template_values` takes from a launch's or
    /// explicit instantiation's arguments: by position where the template
    /// list is the definition's own, else in order. A value past the
    /// written arguments (`k<T><<<…>>>` of `template <typename T, int G =
    /// 128>`) takes its default.
    pub fn stated_values(&self, args: &[TemplateArg]) -> Vec<Option<i64>> {
        if self.template_positions.len() == self.template_values.len() {
            (self.template_values.iter().zip(&self.template_positions))
                .map(|(name, &p)| match args.get(p) {
                    Some(a) => a.int(),
                    None => self.template_default(name),
                })
                .collect()
        } else {
            (0..self.template_values.len())
                .map(|i| args.get(i).and_then(TemplateArg::int))
                .collect()
        }
    }

    pub fn compile_time_values(&self) -> impl Iterator<Item = &String> {
        (self.template_values.iter())
            .chain(&self.type_sizes)
            .chain(&self.constant_names)
    }

    /// Every name the function's IR holds: variables, members, callees
    /// with their scopes and template arguments, declarations, parameters,
    /// template values, scoped names and its class. Whatever the analysis
    /// looks up by name (a constant, a callee) is spelled in one of them.
    pub fn for_each_name(&self, mut visit: impl FnMut(&str)) {
        let own = [Some(self.name.as_str()), self.class.as_deref()];
        own.into_iter().flatten().for_each(&mut visit);
        self.params.iter().for_each(|p| visit(&p.name));
        let lists = [
            &self.template_values,
            &self.type_sizes,
            &self.flag_values,
            &self.constant_names,
        ];
        lists.into_iter().flatten().for_each(|n| visit(n));
        self.scoped_names.iter().for_each(|n| visit(n));
        for e in &self.exprs {
            match &e.kind {
                ExprKind::Var(n) | ExprKind::Member(_, n) => visit(n),
                ExprKind::Call(c) => {
                    visit(&c.name);
                    [c.scope.as_deref(), c.via_macro.as_deref()]
                        .into_iter()
                        .flatten()
                        .for_each(&mut visit);
                    c.template_args.iter().for_each(|a| visit(a));
                }
                _ => {}
            }
        }
        for st in &self.stmts {
            if let StmtKind::Decl { name, .. } = &st.kind {
                visit(name);
            }
        }
    }

    /// Scalar locals declared exactly once (no array dims) with an
    /// initializer, and never written after it (no assignment, update or
    /// `&x`): name → initializer. What the dataflow may read as the value
    /// of such a name wherever it appears.
    pub fn unwritten_locals(&self) -> rustc_hash::FxHashMap<&str, ExprId> {
        let mut decls: rustc_hash::FxHashMap<&str, (usize, Option<ExprId>)> =
            rustc_hash::FxHashMap::default();
        for s in &self.stmts {
            if let StmtKind::Decl {
                name, init, dims, ..
            } = &s.kind
            {
                let d = decls.entry(name.as_str()).or_insert((0, *init));
                // An array is never one value.
                d.0 += if dims.is_empty() { 1 } else { 2 };
            }
        }
        let written: rustc_hash::FxHashSet<&str> = self.writes().collect();
        decls
            .into_iter()
            .filter(|(n, (count, _))| *count == 1 && !written.contains(n))
            .filter_map(|(n, (_, init))| Some((n, init?)))
            .collect()
    }

    /// The variable each write of the body writes (an assignment, an
    /// update or `&x`, which lets anything write it), once per write, then
    /// those its lambdas write ([`Function::lambda_writes`]).
    pub fn writes(&self) -> impl Iterator<Item = &str> {
        let own = self.exprs.iter().filter_map(|e| {
            let target = match &e.kind {
                ExprKind::Assign { lhs, .. } => *lhs,
                ExprKind::Update { target, .. } => *target,
                ExprKind::Unary(UnOp::AddrOf, a) => *a,
                _ => return None,
            };
            match &self.expr(target).kind {
                ExprKind::Var(n) => Some(n.as_str()),
                _ => None,
            }
        });
        own.chain(self.lambda_writes.iter().map(String::as_str))
    }

    /// What the function writes of names it does not declare (not its
    /// parameters nor its locals): for a lambda, its enclosing function's.
    pub fn outer_writes(&self) -> impl Iterator<Item = &str> {
        let declares = |x: &str| {
            self.params.iter().any(|p| p.name == x)
                || (self.stmts.iter())
                    .any(|s| matches!(&s.kind, StmtKind::Decl { name, .. } if name == x))
        };
        self.writes().filter(move |x| !declares(x))
    }

    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id as usize]
    }
    pub fn stmt(&self, id: StmtId) -> &Stmt {
        &self.stmts[id as usize]
    }
    pub fn is_kernel(&self) -> bool {
        self.kind == FnKind::Kernel
    }
}

#[derive(Debug, Clone)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: ByteSpan,
}

#[derive(Debug, Clone)]
pub enum StmtKind {
    /// `T name [dims] = init;` (one per declarator).
    Decl {
        name: String,
        init: Option<ExprId>,
        /// Array dimensions, outermost first (`None`: `[]`).
        dims: Vec<Option<ExprId>>,
        shared: bool,
        is_pointer: bool,
        /// `T& name = init`: another name for what `init` names, so that
        /// writing it writes there (a field of a `__shared__` object).
        is_reference: bool,
        is_float: bool,
        /// What the declared type says about the integers it holds.
        int_type: IntType,
    },
    Expr(ExprId),
    If {
        cond: ExprId,
        then_branch: Vec<StmtId>,
        else_branch: Vec<StmtId>,
        /// `if constexpr`: the condition is a constant expression, so it
        /// has one value in every thread, whatever names it reads.
        constant: bool,
    },
    Loop {
        kind: LoopKind,
        init: Vec<StmtId>,
        cond: Option<ExprId>,
        step: Option<ExprId>,
        body: Vec<StmtId>,
    },
    /// Cases in source order; execution starts at the matching case and
    /// falls through until `break`.
    Switch {
        scrutinee: ExprId,
        cases: Vec<Case>,
    },
    Return(Option<ExprId>),
    Break,
    Continue,
    Block(Vec<StmtId>),
    /// `__trap()` / `asm("trap;")`: the thread aborts the whole grid, so
    /// no code after it matters (not an early exit the others wait for).
    Abort,
    /// `assert(c)`, `__builtin_assume(c)`: what the code states holds here.
    /// A run in which `c` is false in some thread is not a run of the code
    /// to show (a device assert traps the grid; a false assumption is
    /// undefined); where `c` is unknown, it holds.
    Assume(ExprId),
    /// Something the lowering does not model (inline asm other than
    /// `%laneid`, `goto`, a parse error…).
    Opaque,
}

/// The integer width a local's declared type gives its value (a store
/// converts the initializer to it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IntType {
    /// Not a built-in integer type, 64 bits, `auto`, or not known.
    #[default]
    Other,
    /// `char`, `short`, `bool` and their fixed-width names.
    Narrow,
    /// `int`, `signed`, `int32_t`: 32 bits, signed.
    Int32,
    /// `unsigned`, `uint32_t`, `uint`: 32 bits, unsigned.
    Uint32,
}

impl IntType {
    /// 32 bits, signed or not.
    pub fn is_32_bit(self) -> bool {
        matches!(self, IntType::Int32 | IntType::Uint32)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopKind {
    For,
    While,
    DoWhile,
}

#[derive(Debug, Clone)]
pub struct Case {
    /// `None` for `default:`.
    pub value: Option<ExprId>,
    pub body: Vec<StmtId>,
    pub span: ByteSpan,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dim {
    X,
    Y,
    Z,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    ThreadIdx(Dim),
    BlockIdx(Dim),
    BlockDim(Dim),
    GridDim(Dim),
    WarpSize,
    /// `%laneid` read with inline PTX.
    LaneId,
    /// The block's rank in its thread block cluster (`cluster.block_rank()`,
    /// PTX `%cluster_ctarank`): the same in every thread of a block, 0 in
    /// the grid's first block whatever the cluster's size.
    ClusterBlockRank,
    /// The cluster's rank in the grid (`grid.cluster_rank()`): the same in
    /// every thread of a block, 0 in the grid's first block.
    ClusterRank,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    And,
    Or,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl BinOp {
    /// The same value whichever operand comes first, bit for bit (floating
    /// `+` and `*` too): what a butterfly's combine must be.
    pub fn is_commutative(self) -> bool {
        matches!(
            self,
            BinOp::Add | BinOp::Mul | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
    BitNot,
    Deref,
    AddrOf,
}

#[derive(Debug, Clone)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: ByteSpan,
}

#[derive(Debug, Clone)]
pub enum ExprKind {
    Int(i64),
    Float(f64),
    Var(String),
    Builtin(Builtin),
    Unary(UnOp, ExprId),
    Binary(BinOp, ExprId, ExprId),
    /// `lhs = rhs`, or `lhs op= rhs`.
    Assign {
        op: Option<BinOp>,
        lhs: ExprId,
        rhs: ExprId,
    },
    /// `++x`, `x--`, …
    Update {
        increment: bool,
        prefix: bool,
        target: ExprId,
    },
    Ternary(ExprId, ExprId, ExprId),
    /// Boxed: a call is five times the size of any other expression, and
    /// a run holds every lowered header's expressions.
    Call(Box<Call>),
    Index(ExprId, ExprId),
    /// `a.b` or `a->b` other than the built-in variables.
    Member(ExprId, String),
    Comma(ExprId, ExprId),
    /// A lambda: index into `Module::functions`.
    Lambda(usize),
    Unknown,
}

impl StmtKind {
    /// A scalar local `T name = init;` (not `__shared__`, not an array).
    pub fn local(
        name: String,
        init: Option<ExprId>,
        is_pointer: bool,
        is_float: bool,
        int_type: IntType,
    ) -> StmtKind {
        StmtKind::Decl {
            name,
            init,
            dims: Vec::new(),
            shared: false,
            is_pointer,
            is_reference: false,
            is_float,
            int_type,
        }
    }
}

impl ExprKind {
    /// The direct subexpressions (a lambda's body is another function).
    pub fn children(&self) -> Vec<ExprId> {
        match self {
            ExprKind::Unary(_, a) | ExprKind::Member(a, _) => vec![*a],
            ExprKind::Update { target, .. } => vec![*target],
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) | ExprKind::Comma(a, b) => {
                vec![*a, *b]
            }
            ExprKind::Assign { lhs, rhs, .. } => vec![*lhs, *rhs],
            ExprKind::Ternary(a, b, c) => vec![*a, *b, *c],
            ExprKind::Call(c) => c.args.iter().copied().chain(c.receiver).collect(),
            _ => Vec::new(),
        }
    }
}

/// What a store writes ([`Function::store_root`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreRoot<'f> {
    pub name: &'f str,
    pub indices: Vec<ExprId>,
    pub part: bool,
}

/// The name of a call of a lambda where it is written (`[&](int i) { … }(i)`).
pub const INLINE_LAMBDA: &str = "<lambda>";

#[derive(Debug, Clone)]
pub struct Call {
    /// The callee's last name segment (`shfl_down` for `tile.shfl_down`).
    pub name: String,
    /// `ns` of `ns::f`; `Some("")` for `::f`.
    pub scope: Option<String>,
    /// The object of a member call (`tile` in `tile.sync()`).
    pub receiver: Option<ExprId>,
    /// Where the receiver is an object the calling function declares by
    /// value: its class and construction. Also set, without a receiver,
    /// where a member calls a member of its own class
    /// ([`Module::index_functions`]).
    pub object: Option<ObjectRef>,
    pub args: Vec<ExprId>,
    /// Integer template arguments (`tiled_partition<16>`), if constant text.
    pub template_args: Vec<String>,
    /// Set when the call comes from expanding a function-like macro.
    pub via_macro: Option<String>,
    /// For a free call, the innermost namespace of the calling code
    /// (`Function::namespace`): C++ looks an unscoped name up there first,
    /// and a name scoped to another namespace is not there.
    pub home: Option<std::sync::Arc<str>>,
    /// Bit `i` set: argument `i` names an array the caller declared (`int
    /// v[1]`, an array parameter). Without types, overloads that differ in
    /// one (`Sort(keys, values)` against `Sort(keys, begin_bit)` and
    /// `Sort(keys, decomposer)`) are told apart by it: an array is never a
    /// built-in scalar parameter, and binds best to an array parameter.
    pub array_args: u64,
    /// Written in a free function (not a member, not a lambda): there an
    /// unqualified name never names a member of a class.
    pub from_free_function: bool,
    /// The function the call runs, where that is known before any lookup
    /// by name (an index in `Module::functions`): a lambda the calling
    /// function holds (`body(i)` after `auto body = [&](int i) { … };`,
    /// or `[&](int i) { … }(i)`), or the copy of the callee made for the
    /// lambdas the call passes it (`lower::callables`).
    pub target: Option<usize>,
    /// The tag each argument position passes, where the argument is a tag
    /// temporary (`Int2Type<(LANES == 32)>()`, `true_type{}`): of the
    /// same-named overloads that fit, the callee is one whose tag
    /// parameters ([`Param::tag`]) agree ([`Module::callee_with`]).
    pub tags: Vec<(u8, Tag)>,
}

/// A tag argument's value: known when lowered (or bound by an instance),
/// or an expression over a class's template values that only a run knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    Value(i64),
    Expr(ExprId),
}

/// The grid-wide value a range-based `for` over `range` (as written,
/// without spaces) runs as its number of elements, where the function
/// does not declare the range as an array of constant extent:
/// `extent(frag.values)`, no name the code can write.
pub fn range_extent_name(range: &str) -> String {
    format!("extent({range})")
}

/// Whether `name` is one of [`range_extent_name`]'s.
pub fn is_range_extent(name: &str) -> bool {
    name.starts_with("extent(") && name.ends_with(')')
}

/// The member a name scoped by the type parameter `param` reads: `kLanes`
/// of `Policy::kLanes` for `Policy`.
pub fn member_of_param<'a>(name: &'a str, param: &str) -> Option<&'a str> {
    name.strip_prefix(param)?.strip_prefix("::")
}

/// The class a template argument names, without its namespace
/// (`cfg::FullWarp` → `FullWarp`, the unit's key for its constants):
/// `None` for an instance of a class template, a built-in type, a value.
pub fn class_named(written: &str) -> Option<&str> {
    const BUILTIN: [&str; 12] = [
        "int", "unsigned", "float", "double", "char", "bool", "short", "long", "signed", "void",
        "half", "auto",
    ];
    let last = written.trim().rsplit("::").next().unwrap_or_default();
    let identifier = last
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && last.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let plain = (written.trim().split("::")).all(|s| !s.is_empty() && !s.contains([' ', '<', '(']));
    (identifier && plain && !BUILTIN.contains(&last)).then_some(last)
}

/// What an argument lets a callee's template deduce
/// ([`Function::deducing_arguments`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Deducing {
    /// A group: `N` of `thread_block_tile<N>` for a tile, or what a
    /// generic group parameter ([`Function::group_params`]) holds.
    Group(GroupArg),
    /// An object of this class: a type parameter naming it.
    Class(String),
}

/// A constant key a call may read, the class it scopes (if any), and the
/// function's name ([`Module::getter_calls`]).
pub type GetterKey<'m> = (String, Option<&'m str>, &'m str);

/// A cooperative group an argument passes, as the caller's text fixes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GroupArg {
    /// `this_thread_block()`.
    Block,
    /// A tile of this many consecutive threads (a power of two ≤ 32).
    Tile(u32),
    /// A coalesced group: the mask of its lanes, which the argument
    /// passes as its value.
    Coalesced,
    /// A tile whose size is the caller's template value at this index
    /// (`cg::tiled_partition<Lanes>(block)`): a group once an instance of
    /// the caller binds it (`templates::bind_values`), nothing before.
    TileOf(u8),
}

impl GroupArg {
    /// The group's type, as an instance's name writes it.
    pub fn type_name(self) -> String {
        match self {
            GroupArg::Block => "thread_block".to_owned(),
            GroupArg::Tile(n) => format!("thread_block_tile<{n}>"),
            GroupArg::Coalesced => "coalesced_group".to_owned(),
            GroupArg::TileOf(_) => "thread_block_tile<?>".to_owned(),
        }
    }
}

/// A template argument as a launch or an explicit instantiation states it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TemplateArg {
    /// An integer: a literal, `true`, a constant (`k<128>`).
    Int(i64),
    /// A class named without template arguments (`k<FullWarp>`; `Full` for
    /// `cfg::Full`): what binds the names a type parameter scopes
    /// (`Policy::kLanes` becomes `FullWarp::kLanes`).
    Class(String),
    /// Anything else: a built-in type, a class template's instance, a value
    /// the host computes.
    Unknown,
}

impl TemplateArg {
    pub fn int(&self) -> Option<i64> {
        match self {
            TemplateArg::Int(v) => Some(*v),
            _ => None,
        }
    }

    pub fn class(&self) -> Option<&str> {
        match self {
            TemplateArg::Class(c) => Some(c),
            _ => None,
        }
    }
}

/// A `kernel<<<grid, block>>>(args)` launch in the file.
#[derive(Debug, Clone)]
pub struct LaunchSite {
    pub kernel: String,
    /// Template arguments, in order (`k<128>`, `k<Policy>`).
    pub template_args: Vec<TemplateArg>,
    pub block_dim: Option<[u32; 3]>,
    pub grid_dim: Option<[u32; 3]>,
    /// Integer kernel arguments where constant.
    pub args: Vec<Option<i64>>,
    /// Arguments that pass the launch's own block extent (`n` in
    /// `k<<<g, n>>>(…, n)`, `b.y` in `k<<<g, b>>>(…, b.y)`): the dimension.
    pub block_dim_args: Vec<Option<u8>>,
    pub line: usize,
}

/// Everything lowered from one file.
#[derive(Debug, Default)]
pub struct Module {
    pub functions: Vec<Function>,
    pub launches: Vec<LaunchSite>,
    /// Block shapes that kernel classes state with a host member
    /// `static dim3 get_block_shape()` returning constants (the CUTLASS
    /// convention for the class whose `operator()` is the kernel body):
    /// class name → (shape, line of the function).
    pub class_block_shapes: rustc_hash::FxHashMap<String, ([u32; 3], usize)>,
    /// Block extents that every launch in the run states for a kernel
    /// class or a kernel (`crate::tu::contracts`): class or kernel name
    /// (`Function::launch_name`) → `[x, y, z]`, `None`
    /// where the launches do not all state the same extent. Set by the
    /// engine; empty when a file is checked alone.
    pub launch_extents: rustc_hash::FxHashMap<String, [Option<u32>; 3]>,
    /// Classes the run's launches name as a kernel's template argument
    /// (`Kernel<Op><<<…>>>`, launch contracts): their `operator()` is the
    /// block's work, run with the kernel's arguments
    /// ([`Module::runs_as_kernel`]). Not the classes that only inherit a
    /// kernel's extents ([`Module::inherit_launch_extents`]). Set by the
    /// engine.
    pub launched_classes: rustc_hash::FxHashSet<String>,
    /// File-level integral constants: `constexpr`/`const` globals,
    /// enumerators and object-like macros, already folded.
    pub constants: rustc_hash::FxHashMap<String, i64>,
    /// Names of file-scope variables (`__constant__`, `__device__`,
    /// `__shared__` or plain globals): one location for every thread.
    pub globals: rustc_hash::FxHashSet<String>,
    /// Function indices by name (overloads share a name), lambdas excluded.
    pub by_name: rustc_hash::FxHashMap<String, Vec<usize>>,
    /// The headers whose functions were added to this module (translation
    /// units, `crate::tu`): `Function::file` `n` points into `headers[n - 1]`.
    pub headers: Vec<std::sync::Arc<crate::source::SourceFile>>,
    /// The module's own file, as shown to the user: where its launch sites
    /// are, for a witness about a header's kernel.
    pub path: String,
}

/// The innermost scope a free call names (`LowHalf` of
/// `ns::LowHalf::combine(v)`, `b` of `b::sum(v)`), without template
/// arguments; none for an unscoped or a global (`::f`) call.
pub fn call_scope(call: &Call) -> Option<&str> {
    if call.receiver.is_some() || call.object.is_some() {
        return None;
    }
    let (_, innermost) = split_scope(call.scope.as_deref()?);
    let last = innermost.split('<').next()?.trim();
    (!last.is_empty()).then_some(last)
}

/// The template arguments of `Name<a, b>` as written (split at the commas
/// outside nested brackets), trimmed; `None` without any.
pub fn template_args(written: &str) -> Option<Vec<&str>> {
    let open = written.find('<')?;
    let inner = written[open + 1..].trim_end().strip_suffix('>')?;
    let mut out = Vec::new();
    let (mut depth, mut from) = (0usize, 0usize);
    for (i, b) in inner.bytes().enumerate() {
        match b {
            b'<' | b'(' => depth += 1,
            b'>' | b')' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                out.push(inner[from..i].trim());
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(inner[from..].trim());
    Some(out)
}

/// A scoped name as written (`ns::Foo<a::b>::k`): its innermost scope,
/// with that scope's template arguments (`Foo<a::b>`), and its last
/// segment (`k`); no scope for an unscoped name. Only a `::` outside
/// template arguments separates.
pub fn split_scope(written: &str) -> (Option<&str>, &str) {
    let b = written.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    // The last two `::` outside template arguments.
    let (mut before, mut last) = (None, None);
    while i < b.len() {
        match b[i] {
            b'<' => depth += 1,
            b'>' => depth = depth.saturating_sub(1),
            b':' if depth == 0 && b.get(i + 1) == Some(&b':') => {
                (before, last) = (last, Some(i));
                i += 2;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    match last {
        None => (None, written),
        Some(at) => {
            let start = before.map_or(0, |p| p + 2);
            (Some(&written[start..at]), &written[at + 2..])
        }
    }
}

impl Module {
    /// The value of the constant `name` in `f`. A name kept as written
    /// with its scope (`Traits::kN`, a compile-time value) falls back to
    /// its last segment, as lowering reads every scoped name: where the
    /// unit gives that name a value (a header's `detail::warp_threads`), it
    /// is the value, not one for a run to choose. A name scoped by a
    /// template parameter ([`Function::dependent_names`]) does not: the
    /// unit's `kM` is some other class's.
    pub fn constant(&self, f: &Function, name: &str) -> Option<i64> {
        self.constants.get(name).copied().or_else(|| {
            let (_, last) = name.rsplit_once("::")?;
            if f.dependent_names.iter().any(|d| d == name) {
                return None;
            }
            self.constants.get(last).copied()
        })
    }

    /// Give each read a file left unsettled (`Function::class_constants`)
    /// its class's own constant, where the module now holds one (a
    /// translation unit linked it from the header defining the class).
    pub fn settle_class_constants(&mut self) {
        for f in &mut self.functions {
            for (id, key) in &f.class_constants {
                if self.constants.contains_key(key)
                    && let Some(e) = f.exprs.get_mut(*id as usize)
                    && matches!(e.kind, ExprKind::Var(_))
                {
                    e.kind = ExprKind::Var(key.clone());
                    f.scoped_names.insert(key.clone());
                }
            }
        }
    }

    /// The zero-argument calls a constant `constexpr` function may
    /// answer (`row_width()`, `Layout::width()`; see `lower::constants`):
    /// per call, its function and expression, and each key it may read
    /// ([`fold::call_keys`]) with the scope that key names, if any, and
    /// the function's name.
    pub fn getter_calls(&self) -> impl Iterator<Item = (usize, ExprId, Vec<GetterKey<'_>>)> {
        self.functions.iter().enumerate().flat_map(|(fi, f)| {
            f.exprs.iter().enumerate().filter_map(move |(id, e)| {
                let ExprKind::Call(c) = &e.kind else {
                    return None;
                };
                if !(c.args.is_empty()
                    && c.receiver.is_none()
                    && c.template_args.is_empty()
                    && c.target.is_none())
                {
                    return None;
                }
                let scope = c.scope.as_deref().filter(|s| !s.is_empty());
                let keys: Vec<GetterKey> = fold::call_keys(f.class.is_some(), scope, &c.name)
                    .map(|key| {
                        let scope = scope.filter(|_| key.contains("::"));
                        (key, scope, c.name.as_str())
                    })
                    .collect();
                (!keys.is_empty()).then_some((fi, id as ExprId, keys))
            })
        })
    }

    /// Make each call [`Self::getter_calls`] lists whose key the module
    /// now holds (a translation unit linked it from a header) its value,
    /// as the lowering does for the file's own.
    pub fn settle_getter_calls(&mut self) {
        let settled: Vec<(usize, ExprId, i64)> = (self.getter_calls())
            .filter_map(|(fi, id, keys)| {
                let v = keys.iter().find_map(|(k, _, _)| self.constants.get(k))?;
                Some((fi, id, *v))
            })
            .collect();
        for (fi, id, v) in settled {
            self.functions[fi].exprs[id as usize].kind = ExprKind::Int(v);
        }
    }

    pub fn function(&self, name: &str) -> Option<&Function> {
        self.by_name
            .get(name)
            .and_then(|v| v.first())
            .map(|&i| &self.functions[i])
    }

    /// Whether `f` runs as a whole block's work on the launch's arguments,
    /// the same in every thread: a kernel, or the `operator()` of a class
    /// a launch names as a kernel's template argument (CUTLASS's
    /// `Kernel<Op>` runs `Op op; op(params, *shared_storage);`).
    pub fn runs_as_kernel(&self, f: &Function) -> bool {
        f.is_kernel()
            || (f.name == CALL_OPERATOR
                && (f.class.as_ref()).is_some_and(|c| self.launched_classes.contains(c)))
    }

    /// The extent of dimension `d` (0 = x) every launch of `f`'s class
    /// (or of `f`, a kernel) states, if they all state one.
    pub fn stated_extent(&self, f: &Function, d: usize) -> Option<u32> {
        self.launch_extents.get(f.launch_name()?)?[d]
    }

    /// The x extent of `f`'s block: what the run's launches state
    /// ([`Module::stated_extent`]), else what every launch of it in this
    /// file states (a lone buffer has no run).
    pub fn block_width(&self, f: &Function) -> Option<u32> {
        if let Some(w) = self.stated_extent(f, 0) {
            return Some(w);
        }
        let mut widths = (self.launches.iter())
            .filter(|l| l.kernel == f.name)
            .map(|l| l.block_dim.map(|b| b[0]));
        let first = widths.next()??;
        widths.all(|w| w == Some(first)).then_some(first)
    }

    /// Give a class without launches of its own the extents of the
    /// kernels that declare its objects, where every function declaring
    /// one is such a kernel and they state the same extents: its members
    /// then run as part of those blocks (a kernel that builds a
    /// communicator object and calls its `run()`). Call after the run's
    /// contracts are in `launch_extents`.
    pub fn inherit_launch_extents(&mut self) {
        let mut inherited: rustc_hash::FxHashMap<&str, [Option<u32>; 3]> =
            rustc_hash::FxHashMap::default();
        let mut refused: rustc_hash::FxHashSet<&str> = rustc_hash::FxHashSet::default();
        for f in &self.functions {
            for class in f.object_classes() {
                if self.launch_extents.contains_key(class) || refused.contains(class) {
                    continue;
                }
                let stated = f
                    .launch_name()
                    .filter(|_| f.kind == FnKind::Kernel)
                    .and_then(|k| self.launch_extents.get(k));
                match (stated, inherited.get_mut(class)) {
                    (None, _) => {
                        inherited.remove(class);
                        refused.insert(class);
                    }
                    (Some(e), None) => {
                        inherited.insert(class, *e);
                    }
                    (Some(e), Some(have)) => {
                        for d in 0..3 {
                            if have[d] != e[d] {
                                have[d] = None;
                            }
                        }
                    }
                }
            }
        }
        let inherited: Vec<(String, [Option<u32>; 3])> = inherited
            .into_iter()
            .filter(|(_, e)| e.iter().any(Option::is_some))
            .map(|(c, e)| (c.to_owned(), e))
            .collect();
        self.launch_extents.extend(inherited);
    }

    /// Does every warp of a block of `f`'s launches lie inside one index
    /// of dimension `d` (1 = y, 2 = z)? So where the extents below `d`
    /// are stated and their product is a multiple of 32.
    pub fn warps_within_index(&self, f: &Function, d: usize) -> bool {
        let mut below = 1u64;
        for e in 0..d.min(3) {
            match self.stated_extent(f, e) {
                Some(x) if x > 0 => below *= u64::from(x),
                _ => return false,
            }
        }
        d > 0 && below.is_multiple_of(32)
    }

    /// The header a function comes from, or `None` for the module's own file.
    pub fn header_of(&self, function: usize) -> Option<&std::sync::Arc<crate::source::SourceFile>> {
        let file = self.functions.get(function)?.file as usize;
        file.checked_sub(1).and_then(|i| self.headers.get(i))
    }

    /// Rebuild the name index after `functions` changed.
    pub fn index_functions(&mut self) {
        self.by_name.clear();
        for (i, f) in self.functions.iter().enumerate() {
            if f.kind != FnKind::Lambda {
                self.by_name.entry(f.name.clone()).or_default().push(i);
            }
        }
        self.bind_own_member_calls();
    }

    /// In a member of class `C`, a call `f(…)` without a receiver names
    /// `C::f` where `C` has a member `f` (C++ looks in the class before
    /// the namespace): mark it as a call on the same object.
    fn bind_own_member_calls(&mut self) {
        let mut members: rustc_hash::FxHashSet<(&str, &str)> = rustc_hash::FxHashSet::default();
        for f in &self.functions {
            if let Some(c) = f.class.as_deref() {
                members.insert((c, f.name.as_str()));
            }
        }
        let mut bind: Vec<(usize, ExprId, String, Option<usize>)> = Vec::new();
        for (i, f) in self.functions.iter().enumerate() {
            let Some(class) = f.class.as_deref() else {
                continue;
            };
            for (e, x) in f.exprs.iter().enumerate() {
                // `::f(…)` and `ns::f(…)` name a namespace's function.
                if let ExprKind::Call(c) = &x.kind
                    && c.receiver.is_none()
                    && c.object.is_none()
                    && c.scope.is_none()
                    && members.contains(&(class, c.name.as_str()))
                {
                    bind.push((i, e as ExprId, class.to_owned(), f.class_at));
                }
            }
        }
        for (i, e, class, class_at) in bind {
            if let ExprKind::Call(c) = &mut self.functions[i].exprs[e as usize].kind {
                c.object = Some(ObjectRef {
                    class,
                    class_at,
                    construction: None,
                });
            }
        }
    }

    /// Whether function `g`'s class is the only class of its name among
    /// `call`'s candidates: no specialization of the template is in view,
    /// so the instance the call writes is certainly of that class. Where
    /// there are several, the pick may be a guess (`vec_t<T, N>` for a type
    /// `T` not known), and an instance's arguments say nothing certain.
    pub fn only_class(&self, call: &Call, g: usize) -> bool {
        let g = &self.functions[g];
        (self.by_name.get(&call.name).into_iter().flatten())
            .map(|&i| &self.functions[i])
            .filter(|h| h.class == g.class)
            .all(|h| h.class_at == g.class_at)
    }

    /// A template argument as written, where it is one integer: a literal
    /// or a constant of the module.
    pub fn written_int(&self, arg: &str) -> Option<i64> {
        let arg = arg.trim();
        lower::parse_int_literal(arg).or_else(|| self.constants.get(arg).copied())
    }

    /// The function a call refers to: for a free call, the first of that
    /// name that can take the arguments given (defaults fill the rest; an
    /// array argument never a scalar parameter, and the overload whose
    /// array parameters take the most array arguments first),
    /// one of the call's scope first (`LowHalf::combine` is `LowHalf`'s
    /// static member, `b::sum` namespace `b`'s function, where the module
    /// has one; an unscoped call, the calling code's namespace's, as C++
    /// looks there first); for a member call on an object the caller declared, the
    /// first such member of the object's class. Other member calls: none.
    /// Tag-dispatched overloads by the tags the call passes that are
    /// known without a run ([`Module::callee_with`]).
    pub fn callee(&self, call: &Call) -> Option<usize> {
        self.callee_with(call, &|_| None)
    }

    /// [`Module::callee`], where `run_tag` gives the value a run computes
    /// for a tag expression ([`Tag::Expr`]): an overload taking a tag of
    /// another value (`Reduce(v, Int2Type<false>)` for a call passing
    /// `Int2Type<(LANES == 32)>()` with `LANES` 32) is not the callee.
    pub fn callee_with(
        &self,
        call: &Call,
        run_tag: &dyn Fn(ExprId) -> Option<i64>,
    ) -> Option<usize> {
        if let Some(l) = call.target {
            return (l < self.functions.len()).then_some(l);
        }
        let class = match (&call.receiver, &call.object) {
            (_, Some(o)) => Some(o.class.as_str()),
            (None, None) => None,
            (Some(_), None) => return None,
        };
        // Overloads and same-named members of other classes are common in
        // library code: only a function that can take this many arguments
        // (counting defaults) is the callee; none means an unknown call.
        let cands = self.by_name.get(&call.name)?;
        // The value each tag argument passes (most calls pass none).
        let tags: Vec<(usize, Option<i64>)> = (call.tags.iter())
            .map(|&(k, tag)| {
                let passed = match tag {
                    Tag::Value(v) => Some(v),
                    Tag::Expr(e) => run_tag(e),
                };
                (usize::from(k), passed)
            })
            .collect();
        let fits = |i: usize| {
            if class.is_some() && self.functions[i].class.as_deref() != class {
                return false;
            }
            let params = self.functions[i].passed_params();
            let scalar_gets_array = (params.clone().enumerate().take(64)).any(|(k, p)| {
                call.array_args >> k & 1 == 1 && (p.is_integral || p.is_float) && !p.is_pointer
            });
            let other_tag = tags.iter().any(|&(k, passed)| {
                let taken = params.clone().nth(k).and_then(|p| p.tag);
                matches!((passed, taken), (Some(v), Some(t)) if v != t)
            });
            self.functions[i].takes_args(call.args.len()) && !scalar_gets_array && !other_tag
        };
        // Of the candidates that fit, the first whose array parameters take
        // the most of the call's array arguments: `Sort(keys, values)` is the
        // overload of two arrays, not `Sort(keys, decomposer)`, whose second
        // parameter would take anything.
        let array_matches = |i: usize| {
            (self.functions[i].passed_params().enumerate().take(64))
                .filter(|(k, p)| call.array_args >> k & 1 == 1 && p.is_array)
                .count()
        };
        // And of those, the one whose tag parameters the call's tags fix
        // the most of: the step that ends a recursion (`constant_t<STEPS>`)
        // over the one taking any step (`constant_t<STEP>`).
        let tags_fixed = |i: usize| {
            let params = self.functions[i].passed_params();
            (tags.iter())
                .filter(|&&(k, _)| params.clone().nth(k).is_some_and(|p| p.tag.is_some()))
                .count()
        };
        let best = |pick: &dyn Fn(usize) -> bool| {
            let mut found: Option<(usize, (usize, usize))> = None;
            for &i in cands.iter().filter(|&&i| fits(i) && pick(i)) {
                let score = if call.array_args == 0 {
                    (0, tags_fixed(i))
                } else {
                    (array_matches(i), tags_fixed(i))
                };
                if found.is_none_or(|(_, s)| score > s) {
                    found = Some((i, score));
                }
            }
            found.map(|(i, _)| i)
        };
        let scope = call_scope(call).or_else(|| {
            (call.receiver.is_none() && call.object.is_none() && call.scope.is_none())
                .then_some(call.home.as_deref())
                .flatten()
        });
        // A member calling a member of its own class: that class's, of
        // several same-named ones (the offset and the name identify it).
        let own_class = (call.object.as_ref())
            .and_then(|o| o.class_at)
            .and_then(|at| best(&|i| self.functions[i].class_at == Some(at)));
        let scoped = scope.and_then(|scope| best(&|i| self.functions[i].in_scope(scope)));
        // Without a function of the written scope, any of the name may be
        // it (a namespace alias, a `using`), but not a free function of the
        // calling namespace where the scope does not name it: `ns::f()`
        // written in another namespace names the same function only
        // through an alias, while a wrapper of the same name forwarding to
        // another library's (`void arrive() { cute::arrive(); }`) is
        // common, and taking it for itself made a call cycle the executor
        // ran until its depth budget. Only a namespace the lowering saw: a
        // function with none may be in one a macro opened
        // (`CUB_NAMESPACE_BEGIN`).
        let written_elsewhere = |i: usize| {
            let g = &self.functions[i];
            let (Some(home), Some(scope)) = (call.home.as_deref(), call.scope.as_deref()) else {
                return false;
            };
            g.class.is_none()
                && g.namespace.as_deref() == Some(home)
                && !scope
                    .split("::")
                    .any(|s| s.split('<').next().map(str::trim) == Some(home))
        };
        // From a free function an unqualified call names a free function
        // (of its namespace first); a member of some class of that name is
        // not a candidate. (From a member it may be a base class's.)
        let free = (call.from_free_function && class.is_none() && call.scope.is_none())
            .then(|| {
                let free_fn = |i: usize| self.functions[i].class.is_none();
                scope
                    .and_then(|s| best(&|i| free_fn(i) && self.functions[i].in_scope(s)))
                    .or_else(|| best(&free_fn))
            })
            .flatten();
        own_class
            .or(free)
            .or(scoped)
            .or_else(|| best(&|i| !written_elsewhere(i)))
    }
}

#[cfg(test)]
mod tests {
    use super::{split_scope, template_args};

    #[test]
    fn template_arguments_split_at_their_own_commas() {
        assert_eq!(template_args("Part<32>"), Some(vec!["32"]));
        assert_eq!(
            template_args("Match<Bits, kWarpThreads>"),
            Some(vec!["Bits", "kWarpThreads"])
        );
        assert_eq!(
            template_args("Pair<Foo<a, b>, (N > 1 ? 2 : 1), c>"),
            Some(vec!["Foo<a, b>", "(N > 1 ? 2 : 1)", "c"])
        );
        assert_eq!(template_args("Plain"), None);
        assert_eq!(template_args("Broken<"), None);
    }

    #[test]
    fn a_scoped_name_splits_at_its_last_scope_outside_template_arguments() {
        assert_eq!(split_scope("kLanes"), (None, "kLanes"));
        assert_eq!(split_scope("Wide::kLanes"), (Some("Wide"), "kLanes"));
        assert_eq!(split_scope("ns::Wide::kLanes"), (Some("Wide"), "kLanes"));
        assert_eq!(split_scope("ns::Foo<a::b>::k"), (Some("Foo<a::b>"), "k"));
        assert_eq!(
            split_scope("Leader<16>::broadcast"),
            (Some("Leader<16>"), "broadcast")
        );
        assert_eq!(split_scope("::f"), (Some(""), "f"));
        assert_eq!(split_scope("Foo<a::b>"), (None, "Foo<a::b>"));
    }
}
