//! One IR name per declaration.
//!
//! C++ reuses names freely: two `for (int i …)` loops, a local that shadows
//! a parameter, `int v` in both arms of an `if`. The dataflow keeps one
//! level per name, so without renaming a lane-varying `i` in one loop would
//! make every other `i` of the function lane-varying too. This pass gives
//! each later declaration of a name its own IR name, `name#k`, and rewrites
//! the uses its scope sees. Messages show [`source_name`].
//!
//! A plain assignment `x = e;` that is a statement of the very list that
//! declares `x` kills every earlier value of `x` for the rest of that list:
//! each later statement runs after it. It becomes the declaration of a new
//! version (`x#k = e`), so `flag = __syncthreads_or(flag)` is block-uniform
//! after it even though `flag` was set under `threadIdx.x == 0` before.
//! Not where a jump could skip it (functions with labels, `switch` cases),
//! nor for variables whose address is taken or that a lambda names.
//!
//! Linear: each statement and expression is visited once, with explicit
//! stacks (no recursion over syntax).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::{ExprId, ExprKind, Function, IntType, StmtId, StmtKind, UnOp};

/// The name as written in the source (`i` for the IR name `i#2`).
pub fn source_name(ir_name: &str) -> &str {
    match ir_name.rsplit_once('#') {
        Some((name, k)) if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => ir_name,
    }
}

enum Item {
    /// A scope opens; `kills`: its statements run in order, so a plain
    /// assignment in it kills earlier values (not so for `switch` cases).
    Enter {
        kills: bool,
    },
    Exit,
    Stmt(StmtId),
    /// Rename the uses in a loop's condition and step (after its init).
    LoopHead(StmtId),
}

/// A scope's declarations: the bindings they replaced, to restore at its
/// end.
struct Frame {
    restore: Vec<(String, Option<String>)>,
    /// The source names bound in this scope (a set: checked per statement).
    bound: HashSet<String>,
    kills: bool,
}

/// A declaration that a plain assignment may replace with a new version:
/// a scalar local (not `__shared__`, not an array).
#[derive(Clone, Copy)]
struct Scalar {
    is_pointer: bool,
    is_float: bool,
    int_type: IntType,
}

/// Rename every declaration of `f` that reuses a name declared before it
/// (parameters included), and the uses in its scope; turn killing
/// assignments into declarations of new versions. `pinned`: names a lambda
/// of `f` mentions (it may read or write them at any time).
pub fn rename_shadowed(f: &mut Function, pinned: &HashSet<String>) {
    let mut declared: HashMap<String, u32> = HashMap::default();
    for p in &f.params {
        *declared.entry(p.name.clone()).or_default() += 1;
    }
    let mut pinned = pinned.clone();
    pinned.extend(address_taken(f));
    let mut scalars: HashMap<String, Scalar> = HashMap::default();
    // Source name → IR name, with the bindings each open scope replaced.
    let mut current: HashMap<String, String> = HashMap::default();
    let mut undo: Vec<Frame> = Vec::new();
    let mut work: Vec<Item> = Vec::new();
    push_list(&mut work, &f.body);
    while let Some(item) = work.pop() {
        match item {
            Item::Enter { kills } => undo.push(Frame {
                restore: Vec::new(),
                bound: HashSet::default(),
                kills: kills && !f.has_labels,
            }),
            Item::Exit => {
                let frame = undo.pop().map(|f| f.restore).unwrap_or_default();
                for (name, before) in frame.into_iter().rev() {
                    match before {
                        Some(b) => current.insert(name, b),
                        None => current.remove(&name),
                    };
                }
            }
            Item::LoopHead(sid) => {
                if let StmtKind::Loop { cond, step, .. } = &f.stmts[sid as usize].kind {
                    let roots: Vec<ExprId> = cond.iter().chain(step.iter()).copied().collect();
                    rename_uses(f, &roots, &current);
                }
            }
            Item::Stmt(sid) => {
                let kind = f.stmts[sid as usize].kind.clone();
                match kind {
                    StmtKind::Decl {
                        name,
                        init,
                        dims,
                        shared,
                        is_pointer,
                        is_reference,
                        is_float,
                        int_type,
                    } => {
                        let roots: Vec<ExprId> = init
                            .iter()
                            .copied()
                            .chain(dims.iter().flatten().copied())
                            .collect();
                        rename_uses(f, &roots, &current);
                        let ir_name = next_version(&mut declared, &name);
                        if ir_name != name
                            && let StmtKind::Decl { name: n, .. } = &mut f.stmts[sid as usize].kind
                        {
                            *n = ir_name.clone();
                        }
                        // Assigning a reference writes what it names: not
                        // a new version of a local.
                        if dims.is_empty() && !shared && !is_reference {
                            scalars.insert(
                                ir_name.clone(),
                                Scalar {
                                    is_pointer,
                                    is_float,
                                    int_type,
                                },
                            );
                        }
                        bind(&mut current, &mut undo, name, ir_name);
                    }
                    StmtKind::Expr(e) => {
                        if let Some((name, rhs, scalar)) =
                            killing_assignment(f, e, &current, &undo, &scalars, &pinned)
                        {
                            rename_uses(f, &[rhs], &current);
                            let ir_name = next_version(&mut declared, &name);
                            f.stmts[sid as usize].kind = StmtKind::local(
                                ir_name.clone(),
                                Some(rhs),
                                scalar.is_pointer,
                                scalar.is_float,
                                scalar.int_type,
                            );
                            scalars.insert(ir_name.clone(), scalar);
                            bind(&mut current, &mut undo, name, ir_name);
                        } else {
                            rename_uses(f, &[e], &current);
                        }
                    }
                    StmtKind::Return(Some(e)) | StmtKind::Assume(e) => {
                        rename_uses(f, &[e], &current)
                    }
                    StmtKind::If {
                        cond,
                        then_branch,
                        else_branch,
                        ..
                    } => {
                        rename_uses(f, &[cond], &current);
                        push_list(&mut work, &else_branch);
                        push_list(&mut work, &then_branch);
                    }
                    StmtKind::Loop { init, body, .. } => {
                        // One scope for the loop: init, then head, then body.
                        // (The body repeats: an assignment in it to a name of
                        // this scope is no kill; the body's own list is.)
                        work.push(Item::Exit);
                        push_list(&mut work, &body);
                        work.push(Item::LoopHead(sid));
                        for s in init.iter().rev() {
                            work.push(Item::Stmt(*s));
                        }
                        work.push(Item::Enter { kills: false });
                    }
                    StmtKind::Switch { scrutinee, cases } => {
                        rename_uses(f, &[scrutinee], &current);
                        // The cases share the switch's scope, and a case
                        // label can jump past any statement of it.
                        work.push(Item::Exit);
                        for c in cases.iter().rev() {
                            for s in c.body.iter().rev() {
                                work.push(Item::Stmt(*s));
                            }
                        }
                        work.push(Item::Enter { kills: false });
                    }
                    StmtKind::Block(list) => push_list(&mut work, &list),
                    StmtKind::Return(None)
                    | StmtKind::Break
                    | StmtKind::Continue
                    | StmtKind::Opaque
                    | StmtKind::Abort => {}
                }
            }
        }
    }
}

/// A statement list in its own scope (pushed so that it runs in order).
fn push_list(work: &mut Vec<Item>, list: &[StmtId]) {
    work.push(Item::Exit);
    for s in list.iter().rev() {
        work.push(Item::Stmt(*s));
    }
    work.push(Item::Enter { kills: true });
}

/// The IR name of the next declaration of `name`: `name`, then `name#2`…
fn next_version(declared: &mut HashMap<String, u32>, name: &str) -> String {
    let seen = declared.entry(name.to_owned()).or_default();
    *seen += 1;
    if *seen > 1 {
        format!("{name}#{seen}")
    } else {
        name.to_owned()
    }
}

/// `name` now means `ir_name` until the innermost scope ends.
fn bind(current: &mut HashMap<String, String>, undo: &mut [Frame], name: String, ir_name: String) {
    let before = current.insert(name.clone(), ir_name);
    if let Some(scope) = undo.last_mut() {
        scope.bound.insert(name.clone());
        scope.restore.push((name, before));
    }
}

/// `x = rhs;` where `x` is a scalar local declared in the innermost scope,
/// which runs in order: (source name, rhs, the declaration's type facts).
fn killing_assignment(
    f: &Function,
    e: ExprId,
    current: &HashMap<String, String>,
    undo: &[Frame],
    scalars: &HashMap<String, Scalar>,
    pinned: &HashSet<String>,
) -> Option<(String, ExprId, Scalar)> {
    let ExprKind::Assign {
        op: None, lhs, rhs, ..
    } = &f.expr(e).kind
    else {
        return None;
    };
    let ExprKind::Var(name) = &f.expr(*lhs).kind else {
        return None;
    };
    let frame = undo.last()?;
    if !frame.kills || pinned.contains(name) {
        return None;
    }
    // A parameter, in the function's own list, kills too where a
    // butterfly loop's result is assigned (`warp_sum(float v)` loops on
    // its parameter).
    let butterfly = matches!(&f.expr(*rhs).kind,
        ExprKind::Call(c) if c.name == crate::ir::primitives::WARP_REDUCED);
    if butterfly && undo.len() == 1 && !current.contains_key(name.as_str()) {
        let p = f
            .params
            .iter()
            .find(|p| &p.name == name && !p.is_pointer && !p.is_reference)?;
        let scalar = Scalar {
            is_pointer: false,
            is_float: p.is_float,
            int_type: p.int_type,
        };
        return Some((name.clone(), *rhs, scalar));
    }
    if !frame.bound.contains(name) {
        return None;
    }
    let scalar = *scalars.get(current.get(name)?)?;
    Some((name.clone(), *rhs, scalar))
}

/// Names whose address the function takes (`&x`): a pointer may write
/// them anywhere.
fn address_taken(f: &Function) -> HashSet<String> {
    f.exprs
        .iter()
        .filter_map(|e| match &e.kind {
            ExprKind::Unary(UnOp::AddrOf, a) => match &f.expr(*a).kind {
                ExprKind::Var(name) => Some(name.clone()),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// Point every `Var` under `roots` at the declaration in scope.
fn rename_uses(f: &mut Function, roots: &[ExprId], current: &HashMap<String, String>) {
    if current.is_empty() {
        return;
    }
    let mut stack: Vec<ExprId> = roots.to_vec();
    // Each expression once; the cap only matters for shared nodes.
    let mut budget = f.exprs.len();
    while let Some(id) = stack.pop() {
        if budget == 0 {
            break;
        }
        budget -= 1;
        let Some(e) = f.exprs.get_mut(id as usize) else {
            continue;
        };
        if let ExprKind::Var(name) = &mut e.kind {
            if let Some(ir_name) = current.get(name.as_str())
                && ir_name != name
            {
                *name = ir_name.clone();
            }
            continue;
        }
        stack.extend(e.kind.children());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decl_names(src: &str) -> Vec<String> {
        let source = crate::source::SourceFile::new("t.cu", src.as_bytes());
        let parsed = crate::frontend::parse(source).expect("parses");
        let module = crate::ir::lower_file(&parsed, &crate::frontend::PreprocEnv::default());
        let f = &module.functions[0];
        let mut names: Vec<String> = f
            .stmts
            .iter()
            .filter_map(|s| match &s.kind {
                StmtKind::Decl { name, .. } => Some(name.clone()),
                _ => None,
            })
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_reused_name_gets_its_own_variable_and_its_uses_follow() {
        let src = "__global__ void k(int *o, int n) {
            for (int i = threadIdx.x; i < n; i += 32) o[i] = 0;
            for (int i = 0; i < 4; i++) o[i] = i;
            int n2 = n;
        }";
        assert_eq!(decl_names(src), ["i", "i#2", "n2"]);
        assert_eq!(source_name("i#2"), "i");
        assert_eq!(source_name("a#b"), "a#b");
    }

    #[test]
    fn a_local_shadowing_a_parameter_is_renamed() {
        let src = "__device__ int k(int v) { { int v = 3; return v; } }";
        assert_eq!(decl_names(src), ["v#2"]);
    }

    #[test]
    fn an_assignment_in_the_declaring_list_starts_a_new_version() {
        let src = "__global__ void k(int *o) {
            bool last = false;
            if (threadIdx.x == 0) last = o[0] > 3;
            last = __syncthreads_or(last);
            if (!last) return;
        }";
        assert_eq!(decl_names(src), ["last", "last#2"]);
    }

    #[test]
    fn assignments_a_jump_or_a_repeat_can_skip_are_not_kills() {
        // In a loop body, under a branch, in a switch, behind `&x`.
        let looped = "__global__ void k(int *o) {
            int v = 0;
            for (int i = 0; i < 4; i++) { v = o[i]; }
            if (o[0]) v = 1;
        }";
        assert_eq!(decl_names(looped), ["i", "v"]);
        let switched = "__global__ void k(int *o) {
            switch (o[0]) { case 0: int v; case 1: v = 2; o[1] = v; }
        }";
        assert_eq!(decl_names(switched), ["v"]);
        let addressed = "__device__ void set(int *p);
            __global__ void k(int *o) { int v = 0; set(&v); v = 1; o[0] = v; }";
        assert_eq!(decl_names(addressed), ["v"]);
        let labelled = "__global__ void k(int *o) {
            int v = 0; again: v = o[v]; if (v) goto again; }";
        assert_eq!(decl_names(labelled), ["v"]);
    }
}
