//! Shared arrays of structs: `s[threadIdx.x].pos = …` and
//! `temp_storage.buf[lane] = …`. Each field of a `__shared__` struct gets
//! its own slot, as one more array dimension (and a second one for fields
//! that are themselves arrays), so the executor's shared memory sees the
//! lanes' accesses to each field and the race check compares them like any
//! other element.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::ir::*;

/// Elements reserved for a field that is itself an array.
const ARRAY_FIELD_LEN: i64 = 1 << 16;
/// More distinct fields than this on one array are left unmodelled.
const MAX_FIELDS: usize = 64;

/// Rewrite `s[i].f` (and `s.f` for a shared struct scalar) into element
/// accesses with a slot per field, and grow the declarations to match.
pub(super) fn model_shared_struct_fields(f: &mut Function) {
    let mut decls: HashMap<String, (StmtId, usize)> = HashMap::default();
    for (i, s) in f.stmts.iter().enumerate() {
        if let StmtKind::Decl {
            name,
            shared: true,
            dims,
            ..
        } = &s.kind
        {
            decls
                .entry(name.clone())
                .or_insert((i as StmtId, dims.len()));
        }
    }
    if decls.is_empty() {
        return;
    }
    let indexed: HashSet<ExprId> = f
        .exprs
        .iter()
        .filter_map(|e| match e.kind {
            ExprKind::Index(b, _) => Some(b),
            _ => None,
        })
        .collect();
    // Per array: its fields in order of first use, and whether any is indexed.
    struct Uses {
        fields: Vec<String>,
        any_array: bool,
        members: Vec<(ExprId, ExprId, usize)>, // (member, base, field slot)
    }
    let mut uses: HashMap<String, Uses> = HashMap::default();
    for (id, e) in f.exprs.iter().enumerate() {
        let ExprKind::Member(base, field) = &e.kind else {
            continue;
        };
        let Some(name) = element_of(f, *base, &decls) else {
            continue;
        };
        let u = uses.entry(name).or_insert_with(|| Uses {
            fields: Vec::new(),
            any_array: false,
            members: Vec::new(),
        });
        let slot = match u.fields.iter().position(|x| x == field) {
            Some(k) => k,
            None => {
                u.fields.push(field.clone());
                u.fields.len() - 1
            }
        };
        u.any_array |= indexed.contains(&(id as ExprId));
        u.members.push((id as ExprId, *base, slot));
    }
    for (name, u) in uses {
        if u.fields.len() > MAX_FIELDS {
            continue;
        }
        let Some(&(sid, _)) = decls.get(&name) else {
            continue;
        };
        let span = f.stmts[sid as usize].span;
        let nf = push(f, ExprKind::Int(u.fields.len() as i64), span);
        let extra = u
            .any_array
            .then(|| push(f, ExprKind::Int(ARRAY_FIELD_LEN), span));
        if let StmtKind::Decl { dims, .. } = &mut f.stmts[sid as usize].kind {
            dims.push(Some(nf));
            if let Some(x) = extra {
                dims.push(Some(x));
            }
        }
        for (member, base, slot) in u.members {
            let mspan = f.exprs[member as usize].span;
            let k = push(f, ExprKind::Int(slot as i64), mspan);
            if u.any_array && !indexed.contains(&member) {
                // A scalar field next to array fields: its element 0.
                let inner = push(f, ExprKind::Index(base, k), mspan);
                let zero = push(f, ExprKind::Int(0), mspan);
                f.exprs[member as usize].kind = ExprKind::Index(inner, zero);
            } else {
                f.exprs[member as usize].kind = ExprKind::Index(base, k);
            }
        }
    }
}

fn push(f: &mut Function, kind: ExprKind, span: ByteSpan) -> ExprId {
    f.exprs.push(Expr { kind, span });
    (f.exprs.len() - 1) as ExprId
}

/// `base` names one element of a shared array declared in `decls` (the
/// array indexed once per dimension, or the scalar itself): its name.
fn element_of(
    f: &Function,
    base: ExprId,
    decls: &HashMap<String, (StmtId, usize)>,
) -> Option<String> {
    let mut cur = base;
    let mut depth = 0;
    for _ in 0..8 {
        match &f.expr(cur).kind {
            ExprKind::Index(b, _) => {
                depth += 1;
                cur = *b;
            }
            ExprKind::Var(v) => {
                let &(_, ndims) = decls.get(v)?;
                return (depth == ndims).then(|| v.clone());
            }
            _ => return None,
        }
    }
    None
}
