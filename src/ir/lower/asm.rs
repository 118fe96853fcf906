//! Inline PTX: `asm("…" : outputs : inputs)`, lowered to what its outputs
//! hold, so that what code computes in PTX is as uniform as it really is.
//!
//! - `mov.u32 %0, %%laneid;`: the lane id ([`Builtin::LaneId`]).
//! - One `shfl.sync.idx.b32 d, a, b, c, m;`: [`primitives::ASM_BROADCAST`].
//! - One load from global or constant memory (`ld.global.nc.b32 %0, [%1];`,
//!   `ld.global.v4.u32 {%0, %1, %2, %3}, [%4];`): each output is a load
//!   at the address operand, as uniform as the address. Generated kernels
//!   read their per-token lengths this way; taken for unknown values, every
//!   loop and guard on them looked lane-dependent.
//! - Instructions that compute their outputs from their operands alone
//!   (`cvt`, `fma`, `prmt`, `setp`/`selp`, …; no memory), warp votes and
//!   reductions (`redux.sync`, `vote.sync`) and special registers with one
//!   value per block (`%%cluster_ctarank`, `%%ctaid.x`) or per warp
//!   (`%%warpid`): each output is [`primitives::ASM_VALUE`] of the inputs
//!   it is computed from, following the template's own registers, or
//!   [`primitives::ASM_WARP_VALUE`] of them where a vote, a reduction or a
//!   warp's register went into it (one value per warp at least).
//! - Anything else (`ld.shared`, `mbarrier.try_wait`, `elect.sync`,
//!   `%%clock`): [`primitives::ASM_OPAQUE`] of the inputs, a value that may
//!   differ in every lane (and is shown to where an input is: a load at a
//!   lane's own address). Never left unassigned: a local only an `asm`
//!   writes would otherwise keep the level of its declaration, uniform.
//!
//! Each warp collective of a template (`shfl.sync`, `vote.sync`,
//! `match.sync`, `redux.sync`, `bar.warp.sync`, `elect.sync`; not one a
//! predicate guards) is also a call of its row of
//! [`primitives::PTX_COLLECTIVES`] with the intrinsic's arguments, mask
//! first, placed before the outputs are assigned and spanning the string
//! literal that holds it: the warp rules check its mask as the intrinsic's.
//! A shuffle's width is read from a literal `c` operand of the form nvcc
//! writes for the intrinsic; any other `c` (CUB's `last_lane | SHFL_C`)
//! leaves it unknown, so which lane is read is not judged.
//!
//! Shared-memory loads are not lowered as loads: the executor would record
//! them as accesses, and the barriers written in PTX beside them
//! (`barrier.sync 2, 384;`, mbarriers) are not modelled.

use tree_sitter::Node;

use super::FnBuilder;
use crate::frontend::Field as _;
use crate::frontend::node_text;
use crate::ir::primitives::{
    ALIGNED_OP, ASM_BROADCAST, ASM_OPAQUE, ASM_VALUE, ASM_WARP_VALUE, NamedBarrier,
    PTX_COLLECTIVES, Primitive, ShflMode,
};
use crate::ir::*;

/// One operand of a PTX instruction in an `asm` template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PtxOperand {
    /// `%k`: the k-th operand of the `asm` statement.
    Operand(usize),
    Literal(i64),
}

/// Whether the template runs a tensor instruction that requires the whole
/// warp (`.aligned`: `mma.sync.aligned`, `ldmatrix.sync.aligned`,
/// `stmatrix`, `movmatrix`, `wmma.*`, `wgmma.*`, `tcgen05.*`). Not the
/// barriers and collectives, which are modelled as what they are.
fn aligned_tensor_op(body: &str) -> bool {
    const TENSOR: [&str; 7] = [
        "mma.",
        "ldmatrix.",
        "stmatrix.",
        "movmatrix.",
        "wmma.",
        "wgmma.",
        "tcgen05.",
    ];
    ptx_statements(body).any(|inst| {
        // A predicate guard (`@p mma…`) makes it conditional: no statement.
        let opcode = inst.split_whitespace().next().unwrap_or("");
        opcode.contains(".aligned") && TENSOR.iter().any(|p| opcode.starts_with(p))
    })
}

/// The template as PTX: its string literal(s) joined, `\n` and `\t` as
/// spaces.
fn template_body(code: &str) -> Option<String> {
    let mut body = String::new();
    let mut rest = code;
    while let Some(start) = rest.find('"') {
        let after = &rest[start + 1..];
        let end = after.find('"')?;
        body.push_str(&after[..end]);
        rest = &after[end + 1..];
    }
    Some(body.replace("\\n", " ").replace("\\t", " "))
}

/// The one instruction of a template, without its `;`: `None` for several.
fn single_instruction(body: &str) -> Option<&str> {
    let inst = body.trim();
    let inst = inst.strip_suffix(';').unwrap_or(inst).trim();
    // Braces may only group a vector operand (`{%0, %1}`), checked by
    // each reader; a predicate guard or a second statement is not one
    // instruction.
    (!inst.contains([';', '@'])).then_some(inst)
}

fn operand(o: &str) -> Option<PtxOperand> {
    let o = o.trim();
    if let Some(k) = o.strip_prefix('%') {
        k.parse().ok().map(PtxOperand::Operand)
    } else if let Some(h) = o.strip_prefix("0x").or_else(|| o.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok().map(PtxOperand::Literal)
    } else {
        o.parse().ok().map(PtxOperand::Literal)
    }
}

/// The five operands of a template that is exactly one
/// `shfl.sync.idx.b32 d, a, b, c, m;`.
fn ptx_shfl_idx(body: &str) -> Option<Vec<PtxOperand>> {
    let operands = single_instruction(body)?.strip_prefix("shfl.sync.idx.b32")?;
    if !operands.starts_with(char::is_whitespace) || operands.contains([';', '{', '@']) {
        return None;
    }
    let ops: Vec<PtxOperand> = operands.split(',').map(operand).collect::<Option<_>>()?;
    (ops.len() == 5).then_some(ops)
}

/// A template that is one CTA barrier: `bar.sync a{, b}`,
/// `barrier{.cta}.sync{.aligned} a{, b}`, `bar{.cta}.arrive a, b`,
/// `barrier{.cta}.arrive{.aligned} a, b`.
#[derive(Debug, PartialEq, Eq)]
struct PtxBarrier {
    /// `None`: no thread count, so every thread of the block takes part,
    /// as at `__syncthreads()`.
    named: Option<NamedBarrier>,
    id: PtxOperand,
    count: Option<PtxOperand>,
}

fn ptx_barrier(body: &str) -> Option<PtxBarrier> {
    let inst = single_instruction(body)?;
    let (opcode, operands) = inst.split_once(char::is_whitespace)?;
    let mut parts = opcode.split('.');
    let aligned_by_name = match parts.next()? {
        "bar" => true,
        "barrier" => false,
        _ => return None,
    };
    let (mut sync, mut arrive, mut aligned) = (false, false, aligned_by_name);
    for part in parts {
        match part {
            "cta" => {}
            "sync" => sync = true,
            "arrive" => arrive = true,
            "aligned" => aligned = true,
            _ => return None, // `bar.red`, `barrier.cluster`, …
        }
    }
    if sync == arrive {
        return None;
    }
    let ops: Vec<PtxOperand> = operands.split(',').map(operand).collect::<Option<_>>()?;
    let (id, count) = match ops[..] {
        [id] if sync => (id, None),
        [id, count] => (id, Some(count)),
        _ => return None,
    };
    let named = count.map(|_| NamedBarrier { aligned, arrive });
    Some(PtxBarrier { named, id, count })
}

/// One warp collective of a template: the name its check lowers to (a row
/// of [`PTX_COLLECTIVES`]), its opcode as written (to find its line), and
/// its intrinsic's arguments, mask first (`None`: a PTX register or a
/// form not read, an unknown value).
#[derive(Debug, PartialEq, Eq)]
struct PtxCollective<'b> {
    name: &'static str,
    opcode: &'b str,
    args: Vec<Option<PtxOperand>>,
}

/// The warp collectives of a template, in order.
fn ptx_collectives(body: &str) -> Vec<PtxCollective<'_>> {
    ptx_statements(body).filter_map(ptx_collective).collect()
}

fn ptx_collective(inst: &str) -> Option<PtxCollective<'_>> {
    // An instruction a predicate guards (`@p shfl.sync…`) has the guard
    // for its first word, so it matches no row: it runs in the lanes
    // where `p` holds, which the lowering does not know.
    let (opcode, operands) = inst.split_once(char::is_whitespace)?;
    let parts: Vec<&str> = opcode.split('.').collect();
    // The row whose spelling's parts the opcode has, in any order and
    // among others (`redux.sync.max.NaN.f32` is `redux.sync.max`).
    let &(prim, name, _) = PTX_COLLECTIVES.iter().find(|(_, _, spelling)| {
        let mut want = spelling.split('.');
        want.next() == parts.first().copied() && want.all(|p| parts.contains(&p))
    })?;
    let ops: Vec<Option<PtxOperand>> = operands.split(',').map(operand).collect();
    // Operands after the destination(s), as the intrinsic takes them.
    let args = match (prim, &ops[..]) {
        (Primitive::Shfl(mode), [_, a, b, c, m]) => {
            let width = c.and_then(|c| match c {
                PtxOperand::Literal(c) => shfl_width(mode, c),
                PtxOperand::Operand(_) => None,
            });
            vec![*m, *a, *b, width.map(PtxOperand::Literal)]
        }
        (Primitive::Syncwarp, [m]) | (Primitive::Elect, [_, m]) => vec![*m],
        (Primitive::Vote(_) | Primitive::Match { .. } | Primitive::Reduce(_), [_, a, m]) => {
            vec![*m, *a]
        }
        _ => return None,
    };
    Some(PtxCollective { name, opcode, args })
}

/// The width a shuffle's `c` operand stands for where it is what nvcc
/// writes for `__shfl*_sync(…, width)`: segment mask `32 - width` in bits
/// 8–12, clamp 0 for `up` and 31 otherwise. A clamp that ends segments
/// early is no width.
fn shfl_width(mode: ShflMode, c: i64) -> Option<i64> {
    let width = 32 - ((c >> 8) & 0x1f);
    let clamp = if mode == ShflMode::Up { 0 } else { 0x1f };
    (c == ((32 - width) << 8 | clamp) && width.count_ones() == 1).then_some(width)
}

/// A template that is one load from global or constant memory.
#[derive(Debug, PartialEq, Eq)]
struct PtxLoad {
    /// The operands loaded into, in order (one, or a vector's).
    dests: Vec<usize>,
    /// The operand holding the address.
    addr: usize,
}

fn ptx_load(body: &str) -> Option<PtxLoad> {
    let inst = single_instruction(body)?;
    let (opcode, operands) = inst.split_once(char::is_whitespace)?;
    let mut parts = opcode.split('.');
    if parts.next() != Some("ld") || !parts.any(|p| p == "global" || p == "const") {
        return None;
    }
    let (dest, addr) = operands.rsplit_once(',')?;
    let addr = addr.trim().strip_prefix('[')?.strip_suffix(']')?;
    // `[%1]` or `[%1+16]`: the offset moves every lane's address alike.
    let base = addr.split('+').next()?;
    let Some(PtxOperand::Operand(addr)) = operand(base) else {
        return None;
    };
    let dest = dest.trim();
    let dest = match dest.strip_prefix('{').and_then(|d| d.strip_suffix('}')) {
        Some(list) => list,
        None => dest,
    };
    let dests = dest
        .split(',')
        .map(|d| match operand(d)? {
            PtxOperand::Operand(k) => Some(k),
            PtxOperand::Literal(_) => None,
        })
        .collect::<Option<Vec<usize>>>()?;
    Some(PtxLoad { dests, addr })
}

/// Opcodes whose results depend on their operands alone.
const PURE_OPCODES: &[&str] = &[
    "mov", "cvt", "cvta", "add", "sub", "mul", "mad", "fma", "div", "rem", "abs", "neg", "min",
    "max", "rcp", "sqrt", "rsqrt", "sin", "cos", "tanh", "ex2", "lg2", "and", "or", "xor", "not",
    "cnot", "shl", "shr", "shf", "prmt", "lop3", "bfe", "bfi", "brev", "bfind", "popc", "clz",
    "selp", "set", "setp", "slct", "copysign", "testp", "dp4a", "dp2a", "mul24", "mad24", "sad",
];

/// Warp collectives whose result is one value for the lanes taking part.
const WARP_UNIFORM_OPCODES: &[&str] = &["redux", "vote"];

/// Special registers with one value in every thread of a block: the
/// block's and the grid's indices and extents, its cluster's, its shared
/// memory's size.
const BLOCK_UNIFORM_SPECIALS: &[&str] = &[
    "ctaid",
    "nctaid",
    "ntid",
    "clusterid",
    "nclusterid",
    "cluster_ctaid",
    "cluster_nctaid",
    "cluster_ctarank",
    "cluster_nctarank",
    "is_explicit_cluster",
    "gridid",
    "nsmid",
    "nwarpid",
    "total_smem_size",
    "dynamic_smem_size",
    "aggr_smem_size",
];

/// Special registers the lanes of a warp read alike (where the warp runs
/// now: the same for the warp at one instruction, possibly not for the
/// block).
const WARP_UNIFORM_SPECIALS: &[&str] = &["warpid", "smid"];

/// The names after `%%` in a template (`%%cluster_ctarank`, `%%t`).
fn special_registers(body: &str) -> impl Iterator<Item = &str> {
    body.split("%%").skip(1).map(|after| {
        let end = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        &after[..end]
    })
}

/// What one output of a template holds: computed from these `asm` input
/// operands (by number), and whether a warp vote or reduction went into it
/// (then it is at least one value per warp, whatever else it is).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct PtxValue {
    inputs: Vec<usize>,
    warp: bool,
}

impl PtxValue {
    fn join(&mut self, other: &PtxValue) {
        for k in &other.inputs {
            if !self.inputs.contains(k) {
                self.inputs.push(*k);
            }
        }
        self.warp |= other.warp;
    }
}

/// The template's statements: split at `;`, without the braces of a
/// `{ … }` block (a vector operand's keep theirs).
fn ptx_statements(body: &str) -> impl Iterator<Item = &str> {
    body.split(';').filter_map(|inst| {
        let mut inst = inst.trim();
        // A statement whose braces do not balance otherwise is kept as it
        // is: its opcode then reads as none the flow knows (opaque).
        while inst.matches('{').count() > inst.matches('}').count()
            && let Some(rest) = inst.strip_prefix('{')
        {
            inst = rest.trim_start();
        }
        while inst.matches('}').count() > inst.matches('{').count()
            && let Some(rest) = inst.strip_suffix('}')
        {
            inst = rest.trim_end();
        }
        (!inst.is_empty()).then_some(inst)
    })
}

/// For each output of a template that computes from its operands alone
/// (pure opcodes, warp votes and reductions; no memory, label or special
/// register): what it is computed from, following the template's own
/// registers. `None` for any other template. `n_outputs` outputs come
/// first in the operand numbering; those in `read_outputs` (`+r`) start
/// with their own value.
fn ptx_flow(body: &str, n_outputs: usize, read_outputs: &[usize]) -> Option<Vec<Option<PtxValue>>> {
    use rustc_hash::FxHashMap as HashMap;
    // A block-uniform special register reads as a register never written
    // (no input, uniform); a warp's own one is one value per warp.
    let mut regs: HashMap<String, PtxValue> = special_registers(body)
        .filter(|name| WARP_UNIFORM_SPECIALS.contains(name))
        .map(|name| {
            let value = PtxValue {
                inputs: Vec::new(),
                warp: true,
            };
            (format!("%%{name}"), value)
        })
        .collect();
    let mut declared: Vec<String> = Vec::new();
    let operand_value = |regs: &HashMap<String, PtxValue>, token: &str| -> Option<PtxValue> {
        if let Some(k) = token
            .strip_prefix('%')
            .and_then(|n| n.parse::<usize>().ok())
        {
            return Some(if k >= n_outputs || read_outputs.contains(&k) {
                PtxValue {
                    inputs: vec![k],
                    warp: false,
                }
            } else {
                regs.get(token).cloned().unwrap_or_default()
            });
        }
        Some(regs.get(token).cloned().unwrap_or_default())
    };
    let mut any = false;
    for inst in ptx_statements(body) {
        if let Some(decl) = inst.strip_prefix(".reg") {
            // `.reg .pred p, q` / `.reg .b32 %%t`
            let (_, names) = decl.trim_start().split_once(char::is_whitespace)?;
            declared.extend(names.split(',').map(|n| n.trim().to_owned()));
            continue;
        }
        // `@p inst` / `@!p inst`: where `p` is false the destination keeps
        // its value, so it depends on `p` and on what it held.
        let (guard, inst) = match inst.strip_prefix('@') {
            Some(rest) => {
                let (g, i) = rest.split_once(char::is_whitespace)?;
                (Some(g.trim_start_matches('!')), i.trim())
            }
            None => (None, inst),
        };
        let (opcode, operands) = inst.split_once(char::is_whitespace).unwrap_or((inst, ""));
        let head = opcode.split('.').next().unwrap_or("");
        let collective = WARP_UNIFORM_OPCODES.contains(&head) && opcode.contains(".sync");
        if !collective && !PURE_OPCODES.contains(&head) {
            return None;
        }
        any = true;
        // The destination(s): `d`, `p|q`, or a vector `{d0, d1}`.
        let operands = operands.trim();
        let (dest, sources) = if operands.starts_with('{') {
            let end = operands.find('}')?;
            (
                &operands[..=end],
                operands[end + 1..].trim_start_matches(','),
            )
        } else {
            operands.split_once(',').unwrap_or((operands, ""))
        };
        let mut value = PtxValue {
            inputs: Vec::new(),
            warp: collective,
        };
        if !collective {
            for token in sources.split(',').flat_map(ptx_tokens) {
                value.join(&operand_value(&regs, token)?);
            }
        }
        for token in dest.split(['|', ',']).flat_map(ptx_tokens) {
            let mut v = value.clone();
            if let Some(g) = guard {
                v.join(&operand_value(&regs, g)?);
                v.join(&operand_value(&regs, token)?);
            }
            regs.insert(token.to_owned(), v);
        }
    }
    // Any other special register (`%%clock`, `%%lanemask_lt`, `%%tid`)
    // is per thread or changes.
    let specials = special_registers(body).any(|name| {
        !declared.iter().any(|d| d.trim_start_matches('%') == name)
            && !BLOCK_UNIFORM_SPECIALS.contains(&name)
            && !WARP_UNIFORM_SPECIALS.contains(&name)
    });
    if !any || specials {
        return None;
    }
    Some(
        (0..n_outputs)
            .map(|k| regs.get(&format!("%{k}")).cloned())
            .collect(),
    )
}

/// The register names and operand numbers in one operand: `%3`, `%%t`,
/// `p` (of `p|q`, `!p`, `{%0, %1}`, `-%2`); literals are none.
fn ptx_tokens(operand: &str) -> impl Iterator<Item = &str> {
    operand
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '%'))
        .filter(|t| !t.is_empty() && !t.starts_with(|c: char| c.is_ascii_digit()))
        .filter(|t| {
            // `0x1f`, `0f3F800000` and other literals start with a digit;
            // an identifier after `%` or alone is a register.
            t.starts_with('%') || t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        })
}

impl FnBuilder<'_> {
    /// An `asm` statement: its outputs assigned what the template computes
    /// (see the module's documentation), or `Unknown` when it has none.
    pub(super) fn lower_asm(
        &mut self,
        n: Node,
        text: &str,
        d: usize,
        site: Option<ByteSpan>,
        span: ByteSpan,
    ) -> ExprKind {
        let code = n.field("assembly_code");
        let mut all = operands(n, "output_operands");
        let n_outputs = all.len();
        all.extend(operands(n, "input_operands"));
        let asm = AsmParts {
            code: code.map(|c| node_text(c, text)).unwrap_or(""),
            body: code
                .and_then(|c| template_body(node_text(c, text)))
                .unwrap_or_default(),
            all,
            n_outputs,
        };
        let kind = self.lower_asm_outputs(&asm, text, d, site, span);
        let mut checks = match code {
            Some(code) => self.lower_ptx_collectives(code, &asm, text, d, site, span),
            None => Vec::new(),
        };
        if aligned_tensor_op(&asm.body) {
            checks.push(self.prim_call(ALIGNED_OP, Vec::new(), span));
        }
        if checks.is_empty() {
            return kind;
        }
        let mut acc = self.expr(kind, span);
        for c in checks.into_iter().rev() {
            acc = self.expr(ExprKind::Comma(c, acc), span);
        }
        ExprKind::Comma(acc, self.expr(ExprKind::Unknown, span))
    }

    /// The template's warp collectives, each a call of its intrinsic's
    /// check (see the module's documentation), spanning the string literal
    /// that holds it where the template is written out.
    fn lower_ptx_collectives(
        &mut self,
        code: Node,
        asm: &AsmParts,
        text: &str,
        d: usize,
        site: Option<ByteSpan>,
        span: ByteSpan,
    ) -> Vec<ExprId> {
        let found = ptx_collectives(&asm.body);
        if found.is_empty() {
            return Vec::new();
        }
        let mut literals = Literals::of(code, text, site);
        let mut calls = Vec::new();
        for c in found {
            let at = literals.holding(c.opcode).unwrap_or(span);
            let args = c
                .args
                .iter()
                .map(|op| {
                    op.and_then(|op| self.ptx_operand(op, &asm.all, text, d, site, at))
                        .unwrap_or_else(|| self.expr(ExprKind::Unknown, at))
                })
                .collect();
            calls.push(self.prim_call(c.name, args, at));
        }
        calls
    }

    /// What an `asm` statement's outputs hold (see the module's
    /// documentation); a barrier is a call.
    fn lower_asm_outputs(
        &mut self,
        asm: &AsmParts,
        text: &str,
        d: usize,
        site: Option<ByteSpan>,
        span: ByteSpan,
    ) -> ExprKind {
        let AsmParts {
            code, body, all, ..
        } = asm;
        let outputs = asm.outputs();
        if let Some(barrier) = ptx_barrier(body) {
            return self.lower_ptx_barrier(&barrier, all, text, d, site, span);
        }
        let Some(first) = outputs.first().and_then(|op| op.field("value")) else {
            return ExprKind::Unknown;
        };
        if code.contains("%laneid") {
            let lhs = self.lower_expr(first, text, d, site);
            let rhs = self.expr(ExprKind::Builtin(Builtin::LaneId), span);
            return ExprKind::Assign { op: None, lhs, rhs };
        }
        if let Some(ops) = ptx_shfl_idx(body)
            && let Some(kind) = self.lower_asm_broadcast(all, first, &ops, text, d, site, span)
        {
            return kind;
        }
        let value_of = |k: usize| all.get(k).and_then(|op| op.field("value"));
        let mut assigns: Vec<ExprId> = Vec::new();
        if let Some(load) = ptx_load(body)
            && load.dests.iter().all(|&k| k < outputs.len())
            && let Some(addr) = value_of(load.addr)
        {
            for (i, &k) in load.dests.iter().enumerate() {
                let Some(target) = value_of(k) else { continue };
                let lhs = self.lower_expr(target, text, d, site);
                let a = self.lower_expr(addr, text, d, site);
                let rhs = if i == 0 {
                    self.expr(ExprKind::Unary(UnOp::Deref, a), span)
                } else {
                    let i = self.expr(ExprKind::Int(i as i64), span);
                    self.expr(ExprKind::Index(a, i), span)
                };
                assigns.push(self.expr(ExprKind::Assign { op: None, lhs, rhs }, span));
            }
        } else {
            let read_outputs: Vec<usize> = outputs
                .iter()
                .enumerate()
                .filter(|(_, op)| {
                    op.field("constraint")
                        .is_some_and(|c| node_text(c, text).contains('+'))
                })
                .map(|(k, _)| k)
                .collect();
            let flow = ptx_flow(body, outputs.len(), &read_outputs);
            if flow.is_none() {
                self.f.unsupported.push(span);
            }
            for k in 0..outputs.len() {
                let Some(target) = value_of(k) else { continue };
                // What the output is computed from, as operand numbers;
                // an opaque one may depend on every input.
                let (name, from): (&str, Vec<usize>) =
                    match flow.as_ref().map(|f| f.get(k).cloned().flatten()) {
                        Some(Some(v)) if v.warp => (ASM_WARP_VALUE, v.inputs),
                        Some(Some(v)) => (ASM_VALUE, v.inputs),
                        // Its own value if it is read too (`+r`), and the
                        // inputs; not the other outputs (a `wgmma` has 64
                        // `+f` accumulators: each from all would be 4,096
                        // operands).
                        _ => (
                            ASM_OPAQUE,
                            read_outputs
                                .iter()
                                .copied()
                                .filter(|&r| r == k)
                                .chain(outputs.len()..all.len())
                                .collect(),
                        ),
                    };
                let args = from
                    .into_iter()
                    .filter_map(value_of)
                    .map(|v| self.lower_expr(v, text, d, site))
                    .collect();
                let rhs = self.prim_call(name, args, span);
                let lhs = self.lower_expr(target, text, d, site);
                assigns.push(self.expr(ExprKind::Assign { op: None, lhs, rhs }, span));
            }
        }
        let mut it = assigns.into_iter().rev();
        let Some(mut acc) = it.next() else {
            return ExprKind::Unknown;
        };
        for a in it {
            acc = self.expr(ExprKind::Comma(a, acc), span);
        }
        ExprKind::Comma(acc, self.expr(ExprKind::Unknown, span))
    }

    /// A barrier in PTX: without a thread count `__syncthreads()`; with one
    /// the named barrier of its form, `NAME(id, count)`.
    fn lower_ptx_barrier(
        &mut self,
        barrier: &PtxBarrier,
        all: &[Node],
        text: &str,
        d: usize,
        site: Option<ByteSpan>,
        span: ByteSpan,
    ) -> ExprKind {
        let call = match (barrier.named, barrier.count) {
            (Some(form), Some(count)) => {
                let args = [barrier.id, count]
                    .iter()
                    .map(|&op| {
                        self.ptx_operand(op, all, text, d, site, span)
                            .unwrap_or_else(|| self.expr(ExprKind::Unknown, span))
                    })
                    .collect();
                self.prim_call(form.lowered_name(), args, span)
            }
            _ => self.prim_call("__syncthreads", Vec::new(), span),
        };
        ExprKind::Comma(call, self.expr(ExprKind::Unknown, span))
    }

    /// `asm("shfl.sync.idx.b32 %0, %1, B, C, M;" : "=r"(d) : "r"(a) …)`
    /// → `d = ASM_BROADCAST(a, B, C, M)`, each operand a lowered `%k`
    /// (outputs first, then inputs) or a literal.
    #[allow(clippy::too_many_arguments)]
    fn lower_asm_broadcast(
        &mut self,
        operands: &[Node],
        target: Node,
        ops: &[PtxOperand],
        text: &str,
        d: usize,
        site: Option<ByteSpan>,
        span: ByteSpan,
    ) -> Option<ExprKind> {
        // `%0` must be the output the value lands in.
        if ops.first() != Some(&PtxOperand::Operand(0)) || operands.is_empty() {
            return None;
        }
        let mut args = Vec::new();
        for &op in &ops[1..] {
            args.push(self.ptx_operand(op, operands, text, d, site, span)?);
        }
        let lhs = self.lower_expr(target, text, d, site);
        let rhs = self.prim_call(ASM_BROADCAST, args, span);
        Some(ExprKind::Assign { op: None, lhs, rhs })
    }

    /// A template operand as an expression: a literal, or the value of
    /// the `asm` operand it numbers (`operands`: outputs, then inputs);
    /// `None` where there is no such operand.
    fn ptx_operand(
        &mut self,
        op: PtxOperand,
        operands: &[Node],
        text: &str,
        d: usize,
        site: Option<ByteSpan>,
        span: ByteSpan,
    ) -> Option<ExprId> {
        Some(match op {
            PtxOperand::Literal(v) => self.expr(ExprKind::Int(v), span),
            PtxOperand::Operand(k) => {
                let value = operands.get(k)?.field("value")?;
                self.lower_expr(value, text, d, site)
            }
        })
    }
}

/// An `asm` statement: its template as written and as PTX
/// ([`template_body`]), and its operands as `%k` numbers them: the
/// outputs, then the inputs.
struct AsmParts<'t> {
    code: &'t str,
    body: String,
    all: Vec<Node<'t>>,
    n_outputs: usize,
}

impl<'t> AsmParts<'t> {
    fn outputs(&self) -> &[Node<'t>] {
        &self.all[..self.n_outputs]
    }
}

/// The string literals of a template as written, searched in order for
/// each instruction's opcode: a finding on a PTX collective points at the
/// line that holds it, not at the `asm` keyword. Spans of a macro's
/// expansion are the use site's, so there it finds none.
struct Literals<'t> {
    spans: Vec<ByteSpan>,
    texts: Vec<&'t str>,
    /// The literal and byte the next search starts from.
    at: (usize, usize),
}

impl<'t> Literals<'t> {
    fn of(code: Node, text: &'t str, site: Option<ByteSpan>) -> Literals<'t> {
        let mut c = code.walk();
        let nodes: Vec<Node> = if site.is_some() {
            Vec::new()
        } else if code.kind() == "string_literal" {
            vec![code]
        } else {
            code.named_children(&mut c)
                .filter(|n| n.kind() == "string_literal")
                .collect()
        };
        Literals {
            spans: nodes.iter().map(|&n| super::span_of(n)).collect(),
            texts: nodes.iter().map(|&n| node_text(n, text)).collect(),
            at: (0, 0),
        }
    }

    /// The literal holding the next `opcode` from where the last was found.
    fn holding(&mut self, opcode: &str) -> Option<ByteSpan> {
        let (mut i, mut from) = self.at;
        while let Some(t) = self.texts.get(i) {
            if let Some(k) = t.get(from..).and_then(|rest| rest.find(opcode)) {
                self.at = (i, from + k + opcode.len());
                return Some(self.spans[i]);
            }
            (i, from) = (i + 1, 0);
        }
        None
    }
}

/// The operands of an `asm` statement's output or input list.
fn operands<'t>(n: Node<'t>, field: &str) -> Vec<Node<'t>> {
    n.field(field)
        .map(|l| {
            let mut c = l.walk();
            l.children_by_field_name("operand", &mut c).collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn barriers_in_ptx_are_read_with_their_form() {
        use PtxOperand::{Literal, Operand};
        let named = |aligned, arrive| Some(NamedBarrier { aligned, arrive });
        assert_eq!(
            ptx_barrier("bar.sync 1, 128;"),
            Some(PtxBarrier {
                named: named(true, false),
                id: Literal(1),
                count: Some(Literal(128))
            })
        );
        assert_eq!(
            ptx_barrier("barrier.sync %0, 256;").map(|b| (b.named, b.id)),
            Some((named(false, false), Operand(0)))
        );
        assert_eq!(
            ptx_barrier("barrier.cta.arrive.aligned %0, %1;").map(|b| b.named),
            Some(named(true, true))
        );
        assert_eq!(
            ptx_barrier("bar.arrive 3, 64;").map(|b| b.named),
            Some(named(true, true))
        );
        // No thread count: every thread of the block.
        assert_eq!(
            ptx_barrier("bar.sync 0;"),
            Some(PtxBarrier {
                named: None,
                id: Literal(0),
                count: None
            })
        );
        // An arrive needs a count; reductions, cluster barriers and
        // templates of several instructions are not read.
        assert_eq!(ptx_barrier("bar.arrive 1;"), None);
        assert_eq!(ptx_barrier("bar.red.popc.u32 %0, 0, %1;"), None);
        assert_eq!(ptx_barrier("barrier.cluster.arrive;"), None);
        assert_eq!(ptx_barrier("bar.sync 1, 64; bar.sync 2, 64;"), None);
    }

    #[test]
    fn global_loads_name_their_outputs_and_address() {
        assert_eq!(
            ptx_load("ld.global.nc.b32 %0, [%1];"),
            Some(PtxLoad {
                dests: vec![0],
                addr: 1
            })
        );
        assert_eq!(
            ptx_load("ld.global.nc.v4.b32 {%0, %1, %2, %3}, [%4+16];"),
            Some(PtxLoad {
                dests: vec![0, 1, 2, 3],
                addr: 4
            })
        );
        assert_eq!(ptx_load("ld.const.u32 %0, [%1];").map(|l| l.addr), Some(1));
    }

    #[test]
    fn shared_loads_and_several_instructions_are_not_loads() {
        assert_eq!(ptx_load("ld.shared.b32 %0, [%1];"), None);
        assert_eq!(ptx_load("ld.shared::cluster.u32 %0, [%1];"), None);
        assert_eq!(ptx_load("ld.global.b32 %0, [%1]; add.s32 %0, %0, 1;"), None);
        assert_eq!(ptx_load("st.global.b32 [%0], %1;"), None);
    }

    fn flow(body: &str, outputs: usize) -> Option<Vec<Option<PtxValue>>> {
        ptx_flow(body, outputs, &[])
    }

    fn from(inputs: &[usize], warp: bool) -> Option<PtxValue> {
        Some(PtxValue {
            inputs: inputs.to_vec(),
            warp,
        })
    }

    #[test]
    fn arithmetic_follows_its_operands() {
        assert_eq!(
            flow("cvt.rn.f16x2.f32 %0, %1, %2;", 1),
            Some(vec![from(&[1, 2], false)])
        );
        assert_eq!(
            flow(
                "{ .reg .pred p; setp.ne.b32 p, %1, 0; selp.u32 %0, 1, 0, p; }",
                1
            ),
            Some(vec![from(&[1], false)])
        );
        assert_eq!(
            flow(
                "{ .reg .b32 %%t; mov.b32 %%t, %2; add.u32 %0, %%t, 1; mov.b32 %1, 7; }",
                2
            ),
            Some(vec![from(&[2], false), from(&[], false)])
        );
        assert_eq!(
            flow("mov.b64 {%0, %1}, %2;", 2),
            Some(vec![from(&[2], false), from(&[2], false)])
        );
    }

    #[test]
    fn warp_votes_and_reductions_are_one_value_per_warp() {
        assert_eq!(
            flow("redux.sync.add.u32 %0, %1, 0xffffffff;", 1),
            Some(vec![from(&[], true)])
        );
        assert_eq!(
            flow(
                "{ .reg .pred p; vote.sync.any.pred p, %1, 0xffffffff; selp.u32 %0, 1, 0, p; }",
                1
            ),
            Some(vec![from(&[], true)])
        );
        // A lane's own input mixed back in keeps it per lane.
        assert_eq!(
            flow(
                "{ .reg .pred p; vote.sync.all.pred p, %1, 0xffffffff; selp.u32 %0, %2, 0, p; }",
                1
            ),
            Some(vec![from(&[2], true)])
        );
    }

    #[test]
    fn block_and_warp_special_registers_are_uniform() {
        assert_eq!(
            flow("mov.b32 %0, %%cluster_ctarank;", 1),
            Some(vec![from(&[], false)])
        );
        assert_eq!(
            flow("mov.u32 %0, %%ctaid.x;", 1),
            Some(vec![from(&[], false)])
        );
        assert_eq!(
            flow("mov.u32 %0, %%warpid;", 1),
            Some(vec![from(&[], true)])
        );
    }

    #[test]
    fn memory_state_and_special_registers_are_opaque() {
        assert_eq!(flow("mov.u32 %0, %%clock;", 1), None);
        assert_eq!(flow("mov.u32 %0, %%lanemask_lt;", 1), None);
        assert_eq!(flow("ld.shared.b32 %0, [%1];", 1), None);
        assert_eq!(
            flow("mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;", 1),
            None
        );
        assert_eq!(flow("elect.sync %0|P, 0xffffffff;", 1), None);
        assert_eq!(flow("", 1), None);
        // A statement whose braces do not balance is kept, never skipped.
        assert_eq!(flow("mov.b32 %0, %1; } ld.shared.b32 %0, [%2]", 1), None);
    }

    #[test]
    fn warp_collectives_are_read_with_their_mask_first() {
        let one = |body: &str| {
            let found = ptx_collectives(body);
            assert!(found.len() <= 1, "{body}");
            found.into_iter().next().map(|c| (c.name, c.args))
        };
        use PtxOperand::{Literal as L, Operand as O};
        assert_eq!(
            one(
                "{ .reg .pred p; .reg .b32 t; shfl.sync.down.b32 t|p, %0, 16, 31, 0xffffffff; @p add.u32 %0, %0, t; }"
            ),
            Some((
                "__warplint_ptx_shfl_down",
                vec![Some(L(0xffff_ffff)), Some(O(0)), Some(L(16)), Some(L(32))]
            ))
        );
        // `c` for width 16 (`up`: clamp 0); CUB's computed `c` is no width.
        assert_eq!(
            one("shfl.sync.up.b32 %0|p, %1, 1, 0x1000, %2;").map(|c| c.1[3]),
            Some(Some(L(16)))
        );
        assert_eq!(
            one("shfl.sync.down.b32 r0|p, %1, %2, %3, %5;").map(|c| c.1[3]),
            Some(None)
        );
        assert_eq!(
            one("shfl.sync.down.b32 r0|p, %1, %2, 15, %5;").map(|c| c.1[3]),
            Some(None)
        );
        assert_eq!(
            one("redux.sync.max.NaN.f32 %0, %1, 0xffffffff;"),
            Some((
                "__warplint_ptx_redux_max",
                vec![Some(L(0xffff_ffff)), Some(O(1))]
            ))
        );
        assert_eq!(
            one("elect.sync %%rx|%%px, %2;"),
            Some(("__warplint_ptx_elect_sync", vec![Some(O(2))]))
        );
        assert_eq!(
            one("vote.sync.ballot.b32 %0, p, %1;"),
            Some(("__warplint_ptx_vote_ballot", vec![Some(O(1)), None]))
        );
        assert_eq!(
            one("match.all.sync.b32 %0|p, %1, %2;").map(|c| c.0),
            Some("__warplint_ptx_match_all")
        );
        assert_eq!(
            one("bar.warp.sync %0;").map(|c| c.0),
            Some("__warplint_ptx_bar_warp_sync")
        );
        // Not collectives here: a guarded one, a named barrier, a non-sync
        // opcode that mentions `sync`.
        assert_eq!(one("@%%px elect.sync _|p, 0xffffffff;"), None);
        assert_eq!(one("bar.sync 1, 128;"), None);
        assert_eq!(one("setmaxnreg.inc.sync.aligned.u32 224;"), None);
        assert_eq!(
            ptx_collectives(
                "shfl.sync.down.b32 a|p, a, 1, 31, %1; shfl.sync.down.b32 b|p, b, 1, 31, %1;"
            )
            .len(),
            2
        );
    }

    #[test]
    fn broadcasts_are_still_read() {
        assert_eq!(
            ptx_shfl_idx("shfl.sync.idx.b32 %0, %1, 0, 0x1f, 0xffffffff;").map(|o| o.len()),
            Some(5)
        );
    }
}
