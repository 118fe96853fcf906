//! Cooperative groups, lowered to the primitives they stand for.
//!
//! A group object's kind is known from its declaration (`cg::thread_block`,
//! `cg::thread_block_tile<16>`, `auto t = cg::tiled_partition<16>(block)`,
//! a parameter of such a type). Calls on it become the warp or block
//! primitive with the group's mask, so the rules and the executor need
//! nothing of their own for groups:
//!
//! - a block's `sync()` / `cg::sync(block)` is `__syncthreads()`;
//! - a tile of N ≤ 32 threads (N a power of two) has the mask
//!   `((1 << N) - 1) << (lane / N * N)`: its `sync()` is `__syncwarp(mask)`,
//!   `shfl*` the `_sync` shuffles with that mask and width N, votes and
//!   matches their `_sync` forms, `cg::reduce`/`cg::*_scan` a collective
//!   over the tile; `thread_rank()` is `lane % N`, `size()` is N;
//! - a thread block cluster (`this_cluster()`) holds whole blocks:
//!   `block_rank()` is the block's rank in it ([`Builtin::ClusterBlockRank`],
//!   the same in every thread of a block; launches often set the cluster's
//!   size at run time, so the value is known only in the grid's first
//!   block, where it is 0), and `thread_rank()` is that rank times the
//!   block's threads plus the thread's rank in its block;
//! - the grid (`this_grid()`): `block_rank()` is the block's linear index,
//!   `thread_rank()` that times the block's threads plus the rank in the
//!   block, `num_blocks()` and `num_threads()` the grid's extents, and
//!   `cluster_rank()` the cluster's index ([`Builtin::ClusterRank`]);
//! - a cluster's `sync()` waits for every thread of the cluster's blocks,
//!   the grid's for every thread of the grid: within a block each is a
//!   block barrier (`primitives::CLUSTER_SYNC`/`GRID_SYNC`,
//!   `SyncthreadsMode::Cluster`/`Grid`), so WL007 checks it like
//!   `__syncthreads()` (a condition on `blockIdx` that differs between the
//!   blocks is not checked);
//! - a `cg::thread_group` declared with a known group's value
//!   (`= cg::this_thread_block()`) is that group; a parameter whose group
//!   the argument decides (`cg::thread_group g`, `Group g` of a template
//!   type parameter, a generic lambda's `auto g`: `Function::group_params`)
//!   keeps its calls opaque here, and an instance for a block, a tile of
//!   known size or a coalesced group rewrites them as that group's
//!   (`templates::bind_groups`, through [`Emit`]);
//! - `cg::coalesced_threads()` is the mask of the lanes that run it
//!   together (`primitives::COALESCED_LANES`), which the group's variable
//!   holds (a `cg::coalesced_group` parameter holds what its caller
//!   passes); its members are the `_sync` primitives with that mask
//!   (`COALESCED_MASK(g)`, so the rules know a group's mask), a rank is
//!   the count of the group's lanes below, `shfl(v, r)` reads the lane of
//!   rank `r` (`__fns`), `shfl_down(v, d)`/`shfl_up(v, d)` the member `d`
//!   ranks above/below (the caller's own lane where there is none);
//! - `cg::labeled_partition(parent, label)` of a tile or a coalesced group
//!   is `__match_any_sync(parent's mask, label)`, and
//!   `cg::binary_partition(parent, pred)` `(pred ? 0 : mask) ^
//!   __ballot_sync(mask, pred)`: collectives over the parent, whose value
//!   the new group holds as a coalesced group does;
//! - the other members of clusters and grids and groups whose lanes are not known from the
//!   text (a partition of another group, tiles of a size the text does
//!   not fix) keep their
//!   calls opaque: their `sync()` is never taken for a block barrier, and
//!   they never get a full mask.
//!
//! Every synthetic mask carries the span of the group's name, so a finding
//! says which tile it is about.

use crate::frontend::Field as _;
use tree_sitter::Node;

use super::{FnBuilder, parse_int_literal};
use crate::frontend::node_text;
use crate::ir::*;

/// What a group object is, as far as the text says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Group {
    /// `this_thread_block()`.
    Block,
    /// A tile of this many consecutive threads (a power of two ≤ 32).
    Tile(u32),
    /// A tile whose size is the function's template value at this index
    /// (`template <int N> f(cg::thread_block_tile<N> t)`): its instances
    /// (`f<16>(tile)`) bind it, and a run picks it otherwise.
    TileOf(u8),
    /// `this_cluster()`: whole blocks, how many the text does not fix.
    Cluster,
    /// `this_grid()`: every block of the launch.
    Grid,
    /// `coalesced_threads()`: the lanes that ran it together, a mask the
    /// group's variable holds; also a partition of a tile or of such a
    /// group (`labeled_partition`, `binary_partition`).
    Coalesced,
    /// A group whose lanes the text does not fix.
    Opaque,
}

impl Group {
    /// What an argument holding this group passes a callee that takes any
    /// group ([`GroupArg`]); `None` for groups whose lanes the text does
    /// not fix, and clusters and grids, which no generic helper binds.
    pub(super) fn passed(self) -> Option<GroupArg> {
        Some(match self {
            Group::Block => GroupArg::Block,
            Group::Tile(n) => GroupArg::Tile(n),
            Group::TileOf(i) => GroupArg::TileOf(i),
            Group::Coalesced => GroupArg::Coalesced,
            Group::Cluster | Group::Grid | Group::Opaque => return None,
        })
    }
}

/// A tile's size as the text gives it.
pub(super) enum Size {
    Of(u32),
    /// A template value of the function (`thread_block_tile<N>`).
    Param(String),
}

/// The group a declared type names, if any.
pub(super) fn group_of_type(
    ty: &str,
    constants: &rustc_hash::FxHashMap<String, i64>,
) -> Option<Group> {
    let t: String = ty.chars().filter(|c| !c.is_whitespace()).collect();
    if let Some(pos) = t.find("thread_block_tile<") {
        let rest = &t[pos + "thread_block_tile<".len()..];
        let arg = rest.split([',', '>']).next().unwrap_or("");
        return Some(tile_of(int_text(arg, constants)));
    }
    let last = t.rsplit("::").next().unwrap_or(&t);
    let last = last
        .trim_start_matches("const")
        .trim_end_matches(['&', '*']);
    match last {
        "thread_block" => Some(Group::Block),
        "cluster_group" => Some(Group::Cluster),
        "grid_group" => Some(Group::Grid),
        "thread_group" | "coalesced_group" | "multi_grid_group" => Some(Group::Opaque),
        _ => None,
    }
}

/// `cg::thread_group`: a group whose kind only its value tells (a block,
/// a tile, …), as a parameter's type.
pub(super) fn is_type_erased(ty: &str) -> bool {
    let t = ty.trim().trim_start_matches("const").trim();
    t.rsplit("::").next().unwrap_or(t).trim() == "thread_group"
}

fn int_text(s: &str, constants: &rustc_hash::FxHashMap<String, i64>) -> Option<i64> {
    let s = s.trim();
    parse_int_literal(s).or_else(|| constants.get(s).copied())
}

fn tile_of(n: Option<i64>) -> Group {
    match n {
        Some(n @ (1 | 2 | 4 | 8 | 16 | 32)) => Group::Tile(n as u32),
        _ => Group::Opaque,
    }
}

/// Does the lowering model `method` on a group with these members?
pub(super) fn handles_members(members: &Members, method: &str) -> bool {
    match members {
        Members::Block => matches!(method, "sync" | "thread_rank" | "size" | "num_threads"),
        Members::Tile(_) => matches!(
            method,
            "sync"
                | "thread_rank"
                | "meta_group_rank"
                | "size"
                | "num_threads"
                | "shfl"
                | "shfl_up"
                | "shfl_down"
                | "shfl_xor"
                | "ballot"
                | "any"
                | "all"
                | "match_any"
                | "match_all"
                | "reduce"
                | "inclusive_scan"
                | "exclusive_scan"
        ),
        // A tile's members but `meta_group_rank`, `shfl_xor` (a coalesced
        // group has none) and the scans, whose sources are ranks.
        Members::Coalesced(_) => {
            handles_members(&Members::Tile(Size::Of(32)), method)
                && !matches!(
                    method,
                    "meta_group_rank" | "shfl_xor" | "inclusive_scan" | "exclusive_scan"
                )
        }
        Members::Cluster => matches!(method, "sync" | "thread_rank" | "block_rank"),
        Members::Grid => matches!(
            method,
            "sync"
                | "thread_rank"
                | "block_rank"
                | "cluster_rank"
                | "num_blocks"
                | "num_threads"
                | "size"
        ),
    }
}

/// The free functions over a group (its first argument) that the
/// lowering models: `cg::sync(g)`, `cg::reduce(g, v, op)`, the scans.
fn is_free_group_function(scope: Option<&str>, name: &str) -> bool {
    cg_scope(scope)
        && matches!(
            name,
            "sync" | "reduce" | "inclusive_scan" | "exclusive_scan"
        )
}

/// Is `c` one of those free functions ([`is_free_group_function`])?
pub(super) fn is_free_group_call(c: &Call) -> bool {
    c.receiver.is_none() && is_free_group_function(c.scope.as_deref(), &c.name)
}

/// `cg::coalesced_threads` as a call writes it.
fn is_coalesced_threads(written: &str) -> bool {
    let (scope, last) = split_scope(written.trim());
    last.trim() == "coalesced_threads" && cg_scope(scope.map(str::trim))
}

/// `cg::`-like scopes (and none, for `using namespace cooperative_groups`).
fn cg_scope(scope: Option<&str>) -> bool {
    match scope {
        None => true,
        Some(s) => {
            let s = s.trim_start_matches("::");
            s == "cg" || s.ends_with("cooperative_groups") || s.ends_with("cg")
        }
    }
}

impl FnBuilder<'_> {
    /// The group an initializer creates (`cg::this_thread_block()`,
    /// `cg::tiled_partition<16>(b)`, `cg::tiled_partition(b, 16)`,
    /// `cg::coalesced_threads()`, …), or the group a name already holds.
    pub(super) fn group_of_init(&self, v: Node, text: &str) -> Option<Group> {
        let v = match v.kind() {
            "parenthesized_expression" => v.named_child(0)?,
            _ => v,
        };
        if v.kind() == "identifier" {
            return self.groups.get(node_text(v, text)).copied();
        }
        if v.kind() != "call_expression" {
            return None;
        }
        let func = v.field("function")?;
        let full = node_text(func, text);
        let (scope, last) = match full.split('<').next().unwrap_or(full).rsplit_once("::") {
            Some((s, l)) => (Some(s.trim()), l.trim()),
            None => (None, full.split('<').next().unwrap_or(full).trim()),
        };
        if !cg_scope(scope) {
            return None;
        }
        let args: Vec<Node> = {
            let mut out = Vec::new();
            if let Some(a) = v.field("arguments") {
                let mut c = a.walk();
                out.extend(a.named_children(&mut c).filter(|k| k.kind() != "comment"));
            }
            out
        };
        match last {
            "this_thread_block" => Some(Group::Block),
            "tiled_partition" => {
                let n = match full.find('<') {
                    Some(p) => {
                        let inner = full[p + 1..].trim_end_matches('>');
                        int_text(inner, self.constants)
                    }
                    None => args
                        .get(1)
                        .and_then(|a| int_text(node_text(*a, text), self.constants)),
                };
                Some(tile_of(n))
            }
            "this_cluster" => Some(Group::Cluster),
            "this_grid" => Some(Group::Grid),
            "coalesced_threads" => Some(Group::Coalesced),
            // A partition of a group whose lanes are known (a tile, a
            // coalesced group): the mask `lower_partition` computes.
            "labeled_partition" | "binary_partition" => Some(
                match args
                    .first()
                    .and_then(|p| self.groups.get(node_text(*p, text)))
                {
                    Some(Group::Tile(_) | Group::TileOf(_) | Group::Coalesced) => Group::Coalesced,
                    _ => Group::Opaque,
                },
            ),
            "this_multi_grid" => Some(Group::Opaque),
            _ => None,
        }
    }

    /// Lower a call on a group object, or a `cg::` free function over one,
    /// to the primitive it stands for. `None`: not a group call.
    pub(super) fn lower_group_call(
        &mut self,
        n: Node,
        text: &str,
        depth: usize,
        site: Option<ByteSpan>,
    ) -> Option<ExprId> {
        let func = n.field("function")?;
        let span = self.span(n, site);
        if is_coalesced_threads(node_text(func, text)) {
            return Some(self.prim_call(crate::ir::primitives::COALESCED_LANES, Vec::new(), span));
        }
        if self.groups.is_empty() {
            return None;
        }
        let mut args: Vec<Node> = Vec::new();
        if let Some(a) = n.field("arguments") {
            let mut c = a.walk();
            args.extend(a.named_children(&mut c).filter(|k| k.kind() != "comment"));
        }
        if let Some(id) = self.lower_partition(func, &args, text, depth, span, site) {
            return Some(id);
        }
        // `g.method(args)` or `cg::fn(g, args)`.
        let (group_node, method, rest): (Node, String, Vec<Node>) = match func.kind() {
            "field_expression" => {
                let obj = func.field("argument")?;
                let field = func.field("field")?;
                let m = node_text(field, text);
                let m = m.split('<').next().unwrap_or(m).trim().to_owned();
                (obj, m, args)
            }
            "qualified_identifier" | "identifier" | "template_function" => {
                let full = node_text(func, text);
                let base = full.split('<').next().unwrap_or(full);
                let (scope, last) = match base.rsplit_once("::") {
                    Some((s, l)) => (Some(s.trim()), l.trim()),
                    None => (None, base.trim()),
                };
                if !is_free_group_function(scope, last) {
                    return None;
                }
                let first = *args.first()?;
                (first, last.to_owned(), args[1..].to_vec())
            }
            _ => return None,
        };
        if group_node.kind() != "identifier" {
            return None;
        }
        // Opaque groups: an opaque call (never a block barrier).
        let members = self.members_of(node_text(group_node, text))?;
        if !handles_members(&members, &method) {
            return None;
        }
        let gspan = self.span(group_node, site);
        let d = depth + 1;
        let mut lowered: Vec<ExprId> = Vec::new();
        for a in &rest {
            lowered.push(self.lower_expr(*a, text, d, site));
        }
        Emit(&mut self.f.exprs).member_call(&members, &method, &lowered, span, gspan)
    }

    /// A call of a primitive by name, with no scope or receiver.
    pub(super) fn prim_call(&mut self, name: &str, args: Vec<ExprId>, span: ByteSpan) -> ExprId {
        Emit(&mut self.f.exprs).prim_call(name, args, span)
    }

    /// What the members of the group a name holds lower to (`None`: a
    /// group whose lanes the text does not fix).
    fn members_of(&self, name: &str) -> Option<Members> {
        Some(match *self.groups.get(name)? {
            Group::Block => Members::Block,
            Group::Tile(size) => Members::Tile(Size::Of(size)),
            Group::TileOf(i) => Members::Tile(Size::Param(
                self.f.template_values.get(usize::from(i))?.clone(),
            )),
            Group::Cluster => Members::Cluster,
            Group::Grid => Members::Grid,
            Group::Coalesced => Members::Coalesced(name.to_owned()),
            Group::Opaque => return None,
        })
    }

    /// `cg::labeled_partition(parent, label)`: the parent's lanes with the
    /// same label, `__match_any_sync(parent's mask, label)`;
    /// `cg::binary_partition(parent, pred)`: those with the same truth,
    /// `(pred ? 0 : parent's mask) ^ __ballot_sync(parent's mask, pred)`.
    /// Both are collectives over the parent, and their value is the mask
    /// the new group holds (a [`Group::Coalesced`] of the lanes that formed
    /// it). A parent whose lanes the text does not fix: `None`.
    fn lower_partition(
        &mut self,
        func: Node,
        args: &[Node],
        text: &str,
        depth: usize,
        span: ByteSpan,
        site: Option<ByteSpan>,
    ) -> Option<ExprId> {
        let (scope, last) = split_scope(node_text(func, text).trim());
        let scope = scope.map(str::trim);
        let binary = match last.trim() {
            "labeled_partition" => false,
            "binary_partition" => true,
            _ => return None,
        };
        let [parent, by] = args else { return None };
        if !cg_scope(scope) || parent.kind() != "identifier" {
            return None;
        }
        let members = self.members_of(node_text(*parent, text))?;
        if !matches!(members, Members::Tile(_) | Members::Coalesced(_)) {
            return None;
        }
        let gspan = self.span(*parent, site);
        let by = self.lower_expr(*by, text, depth + 1, site);
        let mut e = Emit(&mut self.f.exprs);
        let mask = e.group_mask(&members, gspan)?;
        if !binary {
            return Some(e.prim_call("__match_any_sync", vec![mask, by], span));
        }
        let ballot = e.prim_call("__ballot_sync", vec![mask, by], span);
        let zero = e.expr(ExprKind::Int(0), span);
        let again = e.group_mask(&members, gspan)?;
        let others = e.expr(ExprKind::Ternary(by, zero, again), span);
        Some(e.expr(ExprKind::Binary(BinOp::BitXor, others, ballot), span))
    }
}

/// What a group's members lower to, by the kind of group.
pub(super) enum Members {
    Block,
    Tile(Size),
    Cluster,
    Grid,
    /// A coalesced group, by the variable holding its mask.
    Coalesced(String),
}

impl Members {
    /// The members of a group an argument passes to parameter `param`
    /// (`None`: a tile whose size no instance has bound yet).
    pub(super) fn of_arg(g: GroupArg, param: &str) -> Option<Members> {
        Some(match g {
            GroupArg::Block => Members::Block,
            GroupArg::Tile(n) => Members::Tile(Size::Of(n)),
            // The parameter holds the mask the caller's group holds.
            GroupArg::Coalesced => Members::Coalesced(param.to_owned()),
            GroupArg::TileOf(_) => return None,
        })
    }
}

/// Appends the expressions a group's member stands for to a function's
/// arena: when lowering (`FnBuilder::lower_group_call`), and when an
/// instance binds a generic group parameter (`templates::bind_groups`).
/// The expression returned is the last one appended.
pub(super) struct Emit<'f>(pub(super) &'f mut Vec<Expr>);

impl Emit<'_> {
    fn expr(&mut self, kind: ExprKind, span: ByteSpan) -> ExprId {
        self.0.push(Expr { kind, span });
        (self.0.len() - 1) as ExprId
    }

    /// `method` of a group whose members are `members`, on its lowered
    /// `args`; `None` where the lowering does not model it
    /// ([`handles_members`]).
    pub(super) fn member_call(
        &mut self,
        members: &Members,
        method: &str,
        args: &[ExprId],
        span: ByteSpan,
        gspan: ByteSpan,
    ) -> Option<ExprId> {
        match members {
            Members::Block => self.block_call(method, span),
            Members::Tile(size) => self.tile_call(size, method, args, span, gspan),
            Members::Cluster => self.cluster_call(method, span),
            Members::Grid => self.grid_call(method, span),
            Members::Coalesced(name) => self.coalesced_call(name, method, args, span, gspan),
        }
    }

    /// The mask of a tile or of a coalesced group (`None` for others).
    fn group_mask(&mut self, members: &Members, gspan: ByteSpan) -> Option<ExprId> {
        Some(match members {
            Members::Tile(size) => self.tile_mask(size, gspan),
            Members::Coalesced(name) => self.coalesced_mask(name, gspan),
            _ => return None,
        })
    }

    /// `COALESCED_MASK(name)`: the mask the coalesced group `name` holds,
    /// as its members pass it.
    fn coalesced_mask(&mut self, name: &str, gspan: ByteSpan) -> ExprId {
        let held = self.expr(ExprKind::Var(name.to_owned()), gspan);
        self.prim_call(crate::ir::primitives::COALESCED_MASK, vec![held], gspan)
    }

    /// A member of a coalesced group held in `name`, which
    /// [`handles_members`] models: its `_sync` primitive with the group's
    /// mask (`COALESCED_MASK(name)`); a lane's rank is the number of the
    /// group's lanes below it, and `shfl(v, r)` reads the lane of rank
    /// `r`. A ballot's bits stay the lanes', not the ranks'.
    fn coalesced_call(
        &mut self,
        name: &str,
        method: &str,
        args: &[ExprId],
        span: ByteSpan,
        gspan: ByteSpan,
    ) -> Option<ExprId> {
        let held = |e: &mut Self| e.expr(ExprKind::Var(name.to_owned()), gspan);
        let mask = |e: &mut Self| e.coalesced_mask(name, gspan);
        let arg = |i: usize| args.get(i).copied();
        Some(match method {
            "sync" => {
                let m = mask(self);
                self.prim_call("__syncwarp", vec![m], span)
            }
            "thread_rank" => {
                let one = self.expr(ExprKind::Int(1), span);
                let lane = self.expr(ExprKind::Builtin(Builtin::LaneId), span);
                let bit = self.expr(ExprKind::Binary(BinOp::Shl, one, lane), span);
                let one = self.expr(ExprKind::Int(1), span);
                let below = self.expr(ExprKind::Binary(BinOp::Sub, bit, one), span);
                let m = held(self);
                let lower = self.expr(ExprKind::Binary(BinOp::BitAnd, m, below), span);
                self.prim_call("__popc", vec![lower], span)
            }
            "size" | "num_threads" => {
                let m = held(self);
                self.prim_call("__popc", vec![m], span)
            }
            "shfl" => {
                let (v, r) = (arg(0)?, arg(1)?);
                let m = mask(self);
                let zero = self.expr(ExprKind::Int(0), span);
                let one = self.expr(ExprKind::Int(1), span);
                let nth = self.expr(ExprKind::Binary(BinOp::Add, r, one), span);
                let held = held(self);
                let src = self.prim_call("__fns", vec![held, zero, nth], span);
                self.prim_call("__shfl_sync", vec![m, v, src], span)
            }
            // The group's lane `delta` ranks above (below) the caller's:
            // `__fns(mask, lane, ±(delta + 1))`, the caller's own lane
            // where there is none.
            "shfl_down" | "shfl_up" => {
                let (v, d) = (arg(0)?, arg(1)?);
                let m = mask(self);
                let one = self.expr(ExprKind::Int(1), span);
                let mut nth = self.expr(ExprKind::Binary(BinOp::Add, d, one), span);
                if method == "shfl_up" {
                    nth = self.expr(ExprKind::Unary(UnOp::Neg, nth), span);
                }
                let source = |e: &mut Self| {
                    let held = held(e);
                    let lane = e.expr(ExprKind::Builtin(Builtin::LaneId), span);
                    e.prim_call("__fns", vec![held, lane, nth], span)
                };
                let found = source(self);
                let lanes = self.expr(ExprKind::Int(32), span);
                let exists = self.expr(ExprKind::Binary(BinOp::Lt, found, lanes), span);
                let there = source(self);
                let own = self.expr(ExprKind::Builtin(Builtin::LaneId), span);
                let src = self.expr(ExprKind::Ternary(exists, there, own), span);
                self.prim_call("__shfl_sync", vec![m, v, src], span)
            }
            "ballot" | "any" | "all" | "match_any" | "match_all" | "reduce" => {
                let name = match method {
                    "ballot" => "__ballot_sync",
                    "any" => "__any_sync",
                    "all" => "__all_sync",
                    "match_any" => "__match_any_sync",
                    "match_all" => "__match_all_sync",
                    _ => "__reduce_add_sync",
                };
                let v = arg(0)?;
                let m = mask(self);
                self.prim_call(name, vec![m, v], span)
            }
            _ => return None,
        })
    }

    fn block_call(&mut self, method: &str, span: ByteSpan) -> Option<ExprId> {
        Some(match method {
            "sync" => self.prim_call("__syncthreads", Vec::new(), span),
            "thread_rank" => self.linear_tid(span),
            "size" | "num_threads" => self.extent_product(Builtin::BlockDim, span),
            _ => return None,
        })
    }

    fn tile_call(
        &mut self,
        size: &Size,
        method: &str,
        args: &[ExprId],
        span: ByteSpan,
        gspan: ByteSpan,
    ) -> Option<ExprId> {
        let arg = |i: usize| args.get(i).copied();
        Some(match method {
            "sync" => {
                let m = self.tile_mask(size, gspan);
                self.prim_call("__syncwarp", vec![m], span)
            }
            "thread_rank" => {
                let lane = self.expr(ExprKind::Builtin(Builtin::LaneId), span);
                let k = self.size_expr(size, span);
                self.expr(ExprKind::Binary(BinOp::Rem, lane, k), span)
            }
            "meta_group_rank" => {
                let t = self.linear_tid(span);
                let k = self.size_expr(size, span);
                self.expr(ExprKind::Binary(BinOp::Div, t, k), span)
            }
            "size" | "num_threads" => self.size_expr(size, span),
            "shfl" | "shfl_up" | "shfl_down" | "shfl_xor" => {
                let name = match method {
                    "shfl" => "__shfl_sync",
                    "shfl_up" => "__shfl_up_sync",
                    "shfl_down" => "__shfl_down_sync",
                    _ => "__shfl_xor_sync",
                };
                let m = self.tile_mask(size, gspan);
                let w = self.size_expr(size, gspan);
                let v = arg(0)?;
                let s = arg(1)?;
                self.prim_call(name, vec![m, v, s, w], span)
            }
            "ballot" | "any" | "all" => {
                let name = match method {
                    "ballot" => "__ballot_sync",
                    "any" => "__any_sync",
                    _ => "__all_sync",
                };
                let m = self.tile_mask(size, gspan);
                let p = arg(0)?;
                let call = self.prim_call(name, vec![m, p], span);
                if method == "ballot" && !matches!(size, Size::Of(32)) {
                    // A tile's ballot numbers the tile's lanes from 0.
                    let base = self.tile_base(size, span);
                    self.expr(ExprKind::Binary(BinOp::Shr, call, base), span)
                } else {
                    call
                }
            }
            "match_any" | "match_all" => {
                let name = if method == "match_any" {
                    "__match_any_sync"
                } else {
                    "__match_all_sync"
                };
                let m = self.tile_mask(size, gspan);
                let v = arg(0)?;
                self.prim_call(name, vec![m, v], span)
            }
            // `cg::reduce(tile, v, op)`: every lane of the tile takes part.
            "reduce" => {
                let m = self.tile_mask(size, gspan);
                let v = arg(0)?;
                self.prim_call("__reduce_add_sync", vec![m, v], span)
            }
            // A scan reads lower lanes of the tile: a shuffle up within it.
            "inclusive_scan" | "exclusive_scan" => {
                let m = self.tile_mask(size, gspan);
                let v = arg(0)?;
                let one = self.expr(ExprKind::Int(1), span);
                let w = self.size_expr(size, gspan);
                self.prim_call("__shfl_up_sync", vec![m, v, one, w], span)
            }
            _ => return None,
        })
    }

    /// A member of `this_cluster()` that [`handles`] models.
    fn cluster_call(&mut self, method: &str, span: ByteSpan) -> Option<ExprId> {
        let block_rank = |b: &mut Self| b.expr(ExprKind::Builtin(Builtin::ClusterBlockRank), span);
        Some(match method {
            "sync" => self.prim_call(crate::ir::primitives::CLUSTER_SYNC, Vec::new(), span),
            "block_rank" => block_rank(self),
            "thread_rank" => {
                let rank = block_rank(self);
                self.rank_over_blocks(rank, span)
            }
            _ => return None,
        })
    }

    /// A member of `this_grid()` that [`handles`] models.
    fn grid_call(&mut self, method: &str, span: ByteSpan) -> Option<ExprId> {
        Some(match method {
            "sync" => self.prim_call(crate::ir::primitives::GRID_SYNC, Vec::new(), span),
            "cluster_rank" => self.expr(ExprKind::Builtin(Builtin::ClusterRank), span),
            "block_rank" => self.linearize(Builtin::BlockIdx, Builtin::GridDim, span),
            "num_blocks" => self.extent_product(Builtin::GridDim, span),
            "num_threads" | "size" => {
                let blocks = self.extent_product(Builtin::GridDim, span);
                let threads = self.extent_product(Builtin::BlockDim, span);
                self.expr(ExprKind::Binary(BinOp::Mul, blocks, threads), span)
            }
            "thread_rank" => {
                let block = self.linearize(Builtin::BlockIdx, Builtin::GridDim, span);
                self.rank_over_blocks(block, span)
            }
            _ => return None,
        })
    }

    /// `block * (threads per block) + the thread's rank in its block`: a
    /// thread's rank in a group of whole blocks.
    fn rank_over_blocks(&mut self, block: ExprId, span: ByteSpan) -> ExprId {
        let threads = self.extent_product(Builtin::BlockDim, span);
        let offset = self.expr(ExprKind::Binary(BinOp::Mul, block, threads), span);
        let rank = self.linear_tid(span);
        self.expr(ExprKind::Binary(BinOp::Add, offset, rank), span)
    }

    /// `e.x * e.y * e.z` for an extent (`blockDim`, `gridDim`).
    fn extent_product(&mut self, extent: fn(Dim) -> Builtin, span: ByteSpan) -> ExprId {
        let x = self.expr(ExprKind::Builtin(extent(Dim::X)), span);
        let y = self.expr(ExprKind::Builtin(extent(Dim::Y)), span);
        let z = self.expr(ExprKind::Builtin(extent(Dim::Z)), span);
        let xy = self.expr(ExprKind::Binary(BinOp::Mul, x, y), span);
        self.expr(ExprKind::Binary(BinOp::Mul, xy, z), span)
    }

    /// `((1 << N) - 1) << (lane / N * N)`, spanned at the group's name.
    fn tile_mask(&mut self, size: &Size, gspan: ByteSpan) -> ExprId {
        let ones = match size {
            Size::Of(n) if *n >= 32 => return self.expr(ExprKind::Int(0xffff_ffff), gspan),
            Size::Of(n) => self.expr(ExprKind::Int((1i64 << n) - 1), gspan),
            // `(1 << N) - 1`, 0xffffffff for N = 32 (the values are 64-bit).
            Size::Param(_) => {
                let one = self.expr(ExprKind::Int(1), gspan);
                let n = self.size_expr(size, gspan);
                let pow = self.expr(ExprKind::Binary(BinOp::Shl, one, n), gspan);
                let one = self.expr(ExprKind::Int(1), gspan);
                self.expr(ExprKind::Binary(BinOp::Sub, pow, one), gspan)
            }
        };
        let base = self.tile_base(size, gspan);
        self.expr(ExprKind::Binary(BinOp::Shl, ones, base), gspan)
    }

    /// `lane / N * N`: the tile's first lane.
    fn tile_base(&mut self, size: &Size, span: ByteSpan) -> ExprId {
        let lane = self.expr(ExprKind::Builtin(Builtin::LaneId), span);
        let k = self.size_expr(size, span);
        let q = self.expr(ExprKind::Binary(BinOp::Div, lane, k), span);
        let k2 = self.size_expr(size, span);
        self.expr(ExprKind::Binary(BinOp::Mul, q, k2), span)
    }

    /// The tile's size: its constant, or its template value.
    fn size_expr(&mut self, size: &Size, span: ByteSpan) -> ExprId {
        match size {
            Size::Of(n) => self.expr(ExprKind::Int(i64::from(*n)), span),
            Size::Param(name) => self.expr(ExprKind::Var(name.clone()), span),
        }
    }

    /// The thread's rank in its block (see [`Self::linearize`]).
    fn linear_tid(&mut self, span: ByteSpan) -> ExprId {
        self.linearize(Builtin::ThreadIdx, Builtin::BlockDim, span)
    }

    /// `i.x + e.x * (i.y + e.y * i.z)` for an index (`threadIdx`,
    /// `blockIdx`) and its extent (`blockDim`, `gridDim`). The index's
    /// `.y`/`.z` reads get a zero-width span (`ir::is_synthesized`): they
    /// linearize whatever shape the block or grid has and are 0 in a 1-D
    /// one, so they must not make the kernel look 2-D to the executor.
    fn linearize(
        &mut self,
        index: fn(Dim) -> Builtin,
        extent: fn(Dim) -> Builtin,
        span: ByteSpan,
    ) -> ExprId {
        let mark = (span.0, span.0);
        let ix = self.expr(ExprKind::Builtin(index(Dim::X)), span);
        let iy = self.expr(ExprKind::Builtin(index(Dim::Y)), mark);
        let iz = self.expr(ExprKind::Builtin(index(Dim::Z)), mark);
        let ex = self.expr(ExprKind::Builtin(extent(Dim::X)), span);
        let ey = self.expr(ExprKind::Builtin(extent(Dim::Y)), span);
        let eyz = self.expr(ExprKind::Binary(BinOp::Mul, ey, iz), span);
        let row = self.expr(ExprKind::Binary(BinOp::Add, iy, eyz), span);
        let off = self.expr(ExprKind::Binary(BinOp::Mul, ex, row), span);
        self.expr(ExprKind::Binary(BinOp::Add, ix, off), span)
    }

    /// A call of a primitive by name, with no scope or receiver.
    pub(super) fn prim_call(&mut self, name: &str, args: Vec<ExprId>, span: ByteSpan) -> ExprId {
        self.expr(
            ExprKind::Call(Box::new(Call {
                name: name.to_owned(),
                scope: None,
                receiver: None,
                object: None,
                args,
                template_args: Vec::new(),
                via_macro: None,
                home: None,
                from_free_function: false,
                target: None,
                array_args: 0,
                tags: Vec::new(),
            })),
            span,
        )
    }
}

impl FnBuilder<'_> {
    /// `cg::thread_block_tile<8> t = …;` after another declaration is read
    /// by tree-sitter as `(cg::thread_block_tile < 8) > (t = …)`. Lower it
    /// as the declaration it is: its name and initializer.
    pub(super) fn misparsed_tile_decl(
        &mut self,
        e: Node,
        text: &str,
        site: Option<ByteSpan>,
    ) -> Option<(String, Option<ExprId>)> {
        if e.kind() != "binary_expression" {
            return None;
        }
        let op = |n: Node| n.field("operator").map(|o| node_text(o, text));
        if op(e) != Some(">") {
            return None;
        }
        let lt = e.field("left")?;
        let assign = e.field("right")?;
        if lt.kind() != "binary_expression"
            || op(lt) != Some("<")
            || assign.kind() != "assignment_expression"
        {
            return None;
        }
        let ty = node_text(lt.field("left")?, text);
        if !ty.ends_with("thread_block_tile") {
            return None;
        }
        let size = node_text(lt.field("right")?, text);
        let name_node = assign.field("left")?;
        if name_node.kind() != "identifier" {
            return None;
        }
        let name = node_text(name_node, text).to_owned();
        let group = tile_of(int_text(size, self.constants));
        self.groups.insert(name.clone(), group);
        let init = assign
            .field("right")
            .map(|v| self.lower_expr(v, text, 0, site));
        Some((name, init))
    }

    /// `thread_block_tile<N>` (a type) or `tiled_partition<N>(…)` (an
    /// initializer) with `N` a template value of the function, which is
    /// then one of its tile sizes.
    fn template_tile(&mut self, written: &str) -> Option<Group> {
        let t: String = written.chars().filter(|c| !c.is_whitespace()).collect();
        let rest = ["thread_block_tile<", "tiled_partition<"]
            .iter()
            .find_map(|open| Some(&t[t.find(open)? + open.len()..]))?;
        let arg = rest.split([',', '>']).next()?;
        let i = self.f.template_values.iter().position(|v| v == arg)?;
        let group = Group::TileOf(u8::try_from(i).ok()?);
        if !self.f.tile_sizes.iter().any(|v| v == arg) {
            self.f.tile_sizes.push(arg.to_owned());
        }
        Some(group)
    }

    /// Remember the group a declaration or parameter holds.
    pub(super) fn note_group(&mut self, name: &str, decl: Node, init: Option<Node>, text: &str) {
        let ty = decl.field("type").map(|t| node_text(t, text)).unwrap_or("");
        let by_init = || init.and_then(|v| self.group_of_init(v, text));
        // `cg::thread_group g = cg::this_thread_block();`: the value tells.
        let g = match group_of_type(ty, self.constants) {
            // A coalesced group's value is the mask of its lanes, so a
            // parameter holds the group its caller passes (the members
            // read it through `COALESCED_MASK(g)`, as for a local).
            Some(Group::Opaque)
                if ty.ends_with("coalesced_group") && decl.kind().contains("parameter") =>
            {
                Some(Group::Coalesced)
            }
            Some(Group::Opaque) if is_type_erased(ty) || ty.ends_with("coalesced_group") => {
                by_init().or(Some(Group::Opaque))
            }
            typed => typed.or_else(by_init),
        }
        .map(|g| match g {
            Group::Opaque => (self.template_tile(ty))
                .or_else(|| self.template_tile(node_text(init?, text)))
                .unwrap_or(g),
            g => g,
        });
        match g {
            Some(g) => {
                self.groups.insert(name.to_owned(), g);
            }
            None => {
                // A name reused for something else is no longer a group.
                self.groups.remove(name);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::frontend::{PreprocEnv, parse};
    use crate::ir::*;
    use crate::source::SourceFile;

    fn lower(src: &str) -> Module {
        let parsed = parse(SourceFile::new("t.cu", src.as_bytes())).unwrap();
        crate::ir::lower_file(&parsed, &PreprocEnv::default())
    }

    fn calls(f: &Function) -> Vec<String> {
        f.exprs
            .iter()
            .filter_map(|e| match &e.kind {
                ExprKind::Call(c) => Some(c.name.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn tile_and_block_calls_become_primitives() {
        let m = lower(
            "namespace cg = cooperative_groups;\n\
             __global__ void k(int *out) {\n\
             cg::thread_block block = cg::this_thread_block();\n\
             cg::thread_block_tile<8> tile = cg::tiled_partition(block, 8);\n\
             auto warp = cg::tiled_partition<32>(block);\n\
             int v = out[block.thread_rank()];\n\
             if (tile.thread_rank() == 0) out[tile.meta_group_rank()] = tile.shfl_down(v, 1);\n\
             tile.sync(); cg::sync(warp); block.sync(); cg::sync(block);\n\
             }\n",
        );
        let k = m.function("k").unwrap();
        let names = calls(k);
        assert!(names.contains(&"__shfl_down_sync".to_owned()));
        assert_eq!(names.iter().filter(|n| *n == "__syncwarp").count(), 2);
        assert_eq!(names.iter().filter(|n| *n == "__syncthreads").count(), 2);
        assert!(!names.iter().any(|n| n == "sync" || n == "thread_rank"));
    }

    #[test]
    fn unsized_groups_stay_opaque() {
        let m = lower(
            "__device__ void f(cg::thread_group g, int *p) {\n\
             auto c = cg::labeled_partition(cg::tiled_partition<32>(cg::this_thread_block()), p[0]);\n\
             if (p[threadIdx.x]) { g.sync(); cg::sync(c); c.sync(); }\n\
             }\n",
        );
        let f = m.function("f").unwrap();
        for e in &f.exprs {
            if let ExprKind::Call(c) = &e.kind {
                assert!(
                    Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some())
                        .is_none(),
                    "{} became a primitive",
                    c.name
                );
            }
        }
    }

    #[test]
    fn a_generic_group_parameter_takes_the_group_its_caller_passes() {
        let m = lower(
            "namespace cg = cooperative_groups;\n\
             __device__ int sum(cg::thread_group g, int *s, int v) {\n\
             s[g.thread_rank()] = v; g.sync(); return s[0];\n\
             }\n\
             template <class Group> __device__ float down(const Group &g, float v) {\n\
             return g.shfl_down(v, 1) + sum(g, 0, 1);\n\
             }\n\
             __global__ void k(int *s, float *o) {\n\
             cg::thread_block b = cg::this_thread_block();\n\
             auto t = cg::tiled_partition<16>(b);\n\
             s[0] = sum(b, s, 1);\n\
             o[0] = down(t, o[0]);\n\
             }\n",
        );
        let block = m.function("sum<thread_block>").unwrap();
        assert_eq!(calls(block), ["__syncthreads"]);
        let tile = m.function("down<thread_block_tile<16>>").unwrap();
        let names = calls(tile);
        assert!(names.contains(&"__shfl_down_sync".to_owned()), "{names:?}");
        // The tile is passed on: `sum`'s instance for it syncs the tile.
        assert!(
            names.contains(&"sum<thread_block_tile<16>>".to_owned()),
            "{names:?}"
        );
        let passed = m.function("sum<thread_block_tile<16>>").unwrap();
        assert_eq!(calls(passed), ["__syncwarp"]);
        // A helper called only as instances is not run by itself; `sum`
        // still is, for the generic `down`'s call.
        assert!(m.function("down").unwrap().runs_as_instances);
        assert!(!m.function("sum").unwrap().runs_as_instances);
    }

    #[test]
    fn a_coalesced_group_holds_the_lanes_that_formed_it() {
        let m = lower(
            "namespace cg = cooperative_groups;\n\
             __global__ void k(int *p) {\n\
             cg::coalesced_group active = cg::coalesced_threads();\n\
             if (p[threadIdx.x]) { active.sync(); p[0] = active.shfl(p[1], 0) + active.size(); }\n\
             }\n",
        );
        let names = calls(m.function("k").unwrap());
        for want in [
            crate::ir::primitives::COALESCED_LANES,
            crate::ir::primitives::COALESCED_MASK,
            "__syncwarp",
            "__shfl_sync",
            "__fns",
            "__popc",
        ] {
            assert!(
                names.iter().any(|n| n == want),
                "{want} missing from {names:?}"
            );
        }
    }
}
