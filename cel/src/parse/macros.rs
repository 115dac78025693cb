//! The macros the Kubernetes environment's parser expands, and their expansions as cel-go
//! writes them: the standard `has`, `all`, `exists`, `exists_one`, `map` (2 and 3 arguments),
//! `filter`; the optional library's `optMap` and `optFlatMap`; the two-variable
//! comprehensions' `all`, `exists`, `existsOne`, `exists_one`, `transformList`, `transformMap`,
//! `transformMapEntry`; lists v3's `sortBy`.
//!
//! Node ids follow cel-go's order: a node's id is taken after its children's (Go evaluates a
//! call's arguments first), every new node is placed at the macro call's offset, and a copied
//! node keeps its original's offset.

use super::grammar::{Ids, MAX_NODES, call, expr};
use crate::ast::{Comprehension, Expr, ExprId, ExprKind, Literal, MapEntry, StructField};

/// The accumulator's name in the Kubernetes environment.
pub(crate) const ACCUMULATOR: &str = "@result";
/// cel-go's older accumulator name, also refused as an iteration variable.
const OLD_ACCUMULATOR: &str = "__result__";
const UNUSED: &str = "#unused";

/// What a call turned out to be.
pub(crate) enum Expansion {
    /// Not a macro: the call keeps its target and arguments.
    NotMacro(Option<Expr>, Vec<Expr>),
    /// The macro's expansion.
    Expanded(Expr),
    /// A macro whose arguments are not well formed: the message, at the node `at`.
    Failed { at: ExprId, message: String },
}

type Result<T> = std::result::Result<T, (ExprId, String)>;

/// Builds a macro's nodes at the call's offset.
struct Helper<'a> {
    ids: &'a mut Ids,
    offset: usize,
}

impl Helper<'_> {
    fn id(&mut self) -> ExprId {
        self.ids.alloc(self.offset)
    }
    fn lit(&mut self, value: Literal) -> Expr {
        let id = self.id();
        expr(id, ExprKind::Literal(value))
    }
    fn ident(&mut self, name: &str) -> Expr {
        let id = self.id();
        expr(id, ExprKind::Ident(name.to_string()))
    }
    fn accu(&mut self) -> Expr {
        self.ident(ACCUMULATOR)
    }
    fn call(&mut self, function: &str, args: Vec<Expr>) -> Expr {
        let id = self.id();
        call(id, None, function, args)
    }
    fn member_call(&mut self, function: &str, target: Expr, args: Vec<Expr>) -> Expr {
        let id = self.id();
        call(id, Some(target), function, args)
    }
    fn list(&mut self, elements: Vec<Expr>) -> Expr {
        let id = self.id();
        expr(
            id,
            ExprKind::List {
                elements,
                optional_indices: Vec::new(),
            },
        )
    }
    #[allow(clippy::too_many_arguments)]
    fn fold(
        &mut self,
        iter_range: Expr,
        iter_var: &str,
        iter_var2: &str,
        accu_var: &str,
        accu_init: Expr,
        loop_condition: Expr,
        loop_step: Expr,
        result: Expr,
    ) -> Expr {
        let id = self.id();
        expr(
            id,
            ExprKind::Comprehension(Box::new(Comprehension {
                iter_range,
                iter_var: iter_var.to_string(),
                iter_var2: iter_var2.to_string(),
                accu_var: accu_var.to_string(),
                accu_init,
                loop_condition,
                loop_step,
                result,
            })),
        )
    }

    /// A copy with fresh ids, each at its original's offset; entries of copied maps and
    /// messages get the macro's offset.
    fn copy(&mut self, e: &Expr) -> Expr {
        let id = self.ids.alloc(self.ids.offset(e.id).unwrap_or(0));
        if id > MAX_NODES {
            self.ids.overflowed = true;
            return expr(id, ExprKind::Literal(Literal::Null));
        }
        let kind = match &e.kind {
            ExprKind::Literal(_) | ExprKind::Ident(_) => e.kind.clone(),
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => ExprKind::Select {
                operand: Box::new(self.copy(operand)),
                field: field.clone(),
                test_only: *test_only,
            },
            ExprKind::Call {
                target,
                function,
                args,
            } => {
                let args = args.iter().map(|a| self.copy(a)).collect();
                let target = target.as_ref().map(|t| Box::new(self.copy(t)));
                ExprKind::Call {
                    target,
                    function: function.clone(),
                    args,
                }
            }
            ExprKind::List {
                elements,
                optional_indices,
            } => ExprKind::List {
                elements: elements.iter().map(|a| self.copy(a)).collect(),
                optional_indices: optional_indices.clone(),
            },
            ExprKind::Map { entries } => ExprKind::Map {
                entries: entries
                    .iter()
                    .map(|en| {
                        let id = self.id();
                        MapEntry {
                            id,
                            key: self.copy(&en.key),
                            value: self.copy(&en.value),
                            optional: en.optional,
                        }
                    })
                    .collect(),
            },
            ExprKind::Struct { type_name, fields } => ExprKind::Struct {
                type_name: type_name.clone(),
                fields: fields
                    .iter()
                    .map(|f| {
                        let id = self.id();
                        StructField {
                            id,
                            field: f.field.clone(),
                            value: self.copy(&f.value),
                            optional: f.optional,
                        }
                    })
                    .collect(),
            },
            ExprKind::Comprehension(c) => ExprKind::Comprehension(Box::new(Comprehension {
                iter_range: self.copy(&c.iter_range),
                accu_init: self.copy(&c.accu_init),
                loop_condition: self.copy(&c.loop_condition),
                loop_step: self.copy(&c.loop_step),
                result: self.copy(&c.result),
                iter_var: c.iter_var.clone(),
                iter_var2: c.iter_var2.clone(),
                accu_var: c.accu_var.clone(),
            })),
        };
        expr(id, kind)
    }
}

/// Expands `function` if it is a macro for this many arguments and this calling style.
pub(crate) fn expand(
    ids: &mut Ids,
    offset: usize,
    function: &str,
    target: Option<Expr>,
    args: Vec<Expr>,
) -> Expansion {
    let mut h = Helper { ids, offset };
    let result = match (function, args.len(), target) {
        ("has", 1, None) => has(&mut h, args),
        (name @ ("all" | "exists" | "exists_one"), 2, Some(t)) => quantifier(&mut h, name, t, args),
        ("map", 2 | 3, Some(t)) => map(&mut h, t, args),
        ("filter", 2, Some(t)) => filter(&mut h, t, args),
        (name @ ("optMap" | "optFlatMap"), 2, Some(t)) => opt_map(&mut h, name, t, args),
        (name @ ("all" | "exists" | "existsOne" | "exists_one"), 3, Some(t)) => {
            quantifier2(&mut h, name, t, args)
        }
        (name @ ("transformList" | "transformMap" | "transformMapEntry"), 3 | 4, Some(t)) => {
            transform(&mut h, name, t, args)
        }
        ("sortBy", 2, Some(t)) => sort_by(&mut h, t, args),
        (_, _, target) => return Expansion::NotMacro(target, args),
    };
    match result {
        Ok(e) => Expansion::Expanded(e),
        Err((at, message)) => Expansion::Failed { at, message },
    }
}

fn ident_name(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Ident(name) => Some(name),
        _ => None,
    }
}

fn is_accumulator(name: &str) -> bool {
    name == ACCUMULATOR || name == OLD_ACCUMULATOR
}

/// The iteration variable of a one-variable macro.
fn iter_var(e: &Expr, not_ident: &str) -> Result<String> {
    let name = ident_name(e).ok_or_else(|| (e.id, not_ident.to_string()))?;
    if is_accumulator(name) {
        return Err((
            e.id,
            "iteration variable overwrites accumulator variable".to_string(),
        ));
    }
    Ok(name.to_string())
}

/// The two iteration variables of a two-variable macro.
fn iter_vars(a: &Expr, b: &Expr) -> Result<(String, String)> {
    let simple = "argument must be a simple name";
    let first = ident_name(a).ok_or_else(|| (a.id, simple.to_string()))?;
    let second = ident_name(b).ok_or_else(|| (b.id, simple.to_string()))?;
    if first == second {
        return Err((b.id, format!("duplicate variable name: {first}")));
    }
    for (name, e) in [(first, a), (second, b)] {
        if is_accumulator(name) {
            return Err((
                e.id,
                "iteration variable overwrites accumulator variable".to_string(),
            ));
        }
    }
    Ok((first.to_string(), second.to_string()))
}

fn has(h: &mut Helper, args: Vec<Expr>) -> Result<Expr> {
    let Some(arg) = args.into_iter().next() else {
        return Err((0, String::new()));
    };
    match arg.kind {
        ExprKind::Select { operand, field, .. } => {
            let id = h.id();
            Ok(expr(
                id,
                ExprKind::Select {
                    operand,
                    field,
                    test_only: true,
                },
            ))
        }
        _ => Err((arg.id, "invalid argument to has() macro".to_string())),
    }
}

/// The step, condition and result shared by the one- and two-variable quantifiers.
fn quantify(h: &mut Helper, kind: &str, predicate: Expr) -> (Expr, Expr, Expr, Expr) {
    match kind {
        "all" => {
            let init = h.lit(Literal::Bool(true));
            let accu = h.accu();
            let cond = h.call("@not_strictly_false", vec![accu]);
            let accu = h.accu();
            let step = h.call("_&&_", vec![accu, predicate]);
            (init, cond, step, h.accu())
        }
        "exists" => {
            let init = h.lit(Literal::Bool(false));
            let accu = h.accu();
            let not = h.call("!_", vec![accu]);
            let cond = h.call("@not_strictly_false", vec![not]);
            let accu = h.accu();
            let step = h.call("_||_", vec![accu, predicate]);
            (init, cond, step, h.accu())
        }
        _ => {
            let init = h.lit(Literal::Int(0));
            let cond = h.lit(Literal::Bool(true));
            let accu = h.accu();
            let one = h.lit(Literal::Int(1));
            let add = h.call("_+_", vec![accu, one]);
            let accu = h.accu();
            let step = h.call("_?_:_", vec![predicate, add, accu]);
            let accu = h.accu();
            let one = h.lit(Literal::Int(1));
            let result = h.call("_==_", vec![accu, one]);
            (init, cond, step, result)
        }
    }
}

fn quantifier(h: &mut Helper, kind: &str, target: Expr, args: Vec<Expr>) -> Result<Expr> {
    let var = iter_var(&args[0], "argument must be a simple name")?;
    let Some(predicate) = args.into_iter().nth(1) else {
        return Err((0, String::new()));
    };
    let (init, cond, step, result) = quantify(h, kind, predicate);
    Ok(h.fold(target, &var, "", ACCUMULATOR, init, cond, step, result))
}

fn quantifier2(h: &mut Helper, kind: &str, target: Expr, args: Vec<Expr>) -> Result<Expr> {
    let (first, second) = iter_vars(&args[0], &args[1])?;
    let Some(predicate) = args.into_iter().nth(2) else {
        return Err((0, String::new()));
    };
    let (init, cond, step, result) = quantify(h, kind, predicate);
    Ok(h.fold(
        target,
        &first,
        &second,
        ACCUMULATOR,
        init,
        cond,
        step,
        result,
    ))
}

/// cel-go's `MakeMap`, also the inside of `sortBy`.
fn map(h: &mut Helper, target: Expr, args: Vec<Expr>) -> Result<Expr> {
    let var = iter_var(&args[0], "argument is not an identifier")?;
    let mut rest = args.into_iter().skip(1);
    let (filter, transform) = match (rest.next(), rest.next()) {
        (Some(f), Some(t)) => (Some(f), t),
        (Some(t), None) => (None, t),
        _ => return Err((0, String::new())),
    };
    let init = h.list(Vec::new());
    let cond = h.lit(Literal::Bool(true));
    let accu = h.accu();
    let element = h.list(vec![transform]);
    let mut step = h.call("_+_", vec![accu, element]);
    if let Some(filter) = filter {
        let accu = h.accu();
        step = h.call("_?_:_", vec![filter, step, accu]);
    }
    let result = h.accu();
    Ok(h.fold(target, &var, "", ACCUMULATOR, init, cond, step, result))
}

fn filter(h: &mut Helper, target: Expr, args: Vec<Expr>) -> Result<Expr> {
    let var = iter_var(&args[0], "argument is not an identifier")?;
    let mut args = args.into_iter();
    let (Some(element), Some(predicate)) = (args.next(), args.next()) else {
        return Err((0, String::new()));
    };
    let init = h.list(Vec::new());
    let cond = h.lit(Literal::Bool(true));
    let accu = h.accu();
    let element = h.list(vec![element]);
    let step = h.call("_+_", vec![accu, element]);
    let accu = h.accu();
    let step = h.call("_?_:_", vec![predicate, step, accu]);
    let result = h.accu();
    Ok(h.fold(target, &var, "", ACCUMULATOR, init, cond, step, result))
}

fn opt_map(h: &mut Helper, kind: &str, target: Expr, args: Vec<Expr>) -> Result<Expr> {
    let var = ident_name(&args[0])
        .ok_or_else(|| {
            (
                args[0].id,
                format!("{kind}() variable name must be a simple identifier"),
            )
        })?
        .to_string();
    let Some(body) = args.into_iter().nth(1) else {
        return Err((0, String::new()));
    };
    // The target is copied after `hasValue`'s id is taken and before the call is built, so
    // that it need not be cloned.
    let has_value_id = h.id();
    let range = h.list(Vec::new());
    let copied = h.copy(&target);
    let has_value = call(has_value_id, Some(target), "hasValue", Vec::new());
    let value = h.member_call("value", copied, Vec::new());
    let cond = h.lit(Literal::Bool(false));
    let step = h.ident(&var);
    let mut present = h.fold(range, UNUSED, "", &var, value, cond, step, body);
    if kind == "optMap" {
        present = h.call("optional.of", vec![present]);
    }
    let none = h.call("optional.none", Vec::new());
    Ok(h.call("_?_:_", vec![has_value, present, none]))
}

fn transform(h: &mut Helper, kind: &str, target: Expr, args: Vec<Expr>) -> Result<Expr> {
    let (first, second) = iter_vars(&args[0], &args[1])?;
    let mut rest = args.into_iter().skip(2);
    let (filter, transform) = match (rest.next(), rest.next()) {
        (Some(f), Some(t)) => (Some(f), t),
        (Some(t), None) => (None, t),
        _ => return Err((0, String::new())),
    };
    let accu = h.accu();
    let mut step = match kind {
        "transformList" => {
            let element = h.list(vec![transform]);
            h.call("_+_", vec![accu, element])
        }
        "transformMap" => {
            let key = h.ident(&first);
            h.call("cel.@mapInsert", vec![accu, key, transform])
        }
        _ => h.call("cel.@mapInsert", vec![accu, transform]),
    };
    if let Some(filter) = filter {
        let accu = h.accu();
        step = h.call("_?_:_", vec![filter, step, accu]);
    }
    let init = if kind == "transformList" {
        h.list(Vec::new())
    } else {
        let id = h.id();
        expr(
            id,
            ExprKind::Map {
                entries: Vec::new(),
            },
        )
    };
    let cond = h.lit(Literal::Bool(true));
    let result = h.accu();
    Ok(h.fold(
        target,
        &first,
        &second,
        ACCUMULATOR,
        init,
        cond,
        step,
        result,
    ))
}

fn sort_by(h: &mut Helper, target: Expr, args: Vec<Expr>) -> Result<Expr> {
    const INPUT: &str = "@__sortBy_input__";
    let input = h.ident(INPUT);
    if !matches!(
        target.kind,
        ExprKind::List { .. }
            | ExprKind::Select { .. }
            | ExprKind::Ident(_)
            | ExprKind::Comprehension(_)
            | ExprKind::Call { .. }
    ) {
        return Err((
            target.id,
            "sortBy can only be applied to a list, identifier, comprehension, call or select expression".to_string(),
        ));
    }
    let range = h.copy(&input);
    let keys = map(h, range, args)?;
    let receiver = h.copy(&input);
    let sorted = h.member_call("@sortByAssociatedKeys", receiver, vec![keys]);
    let empty = h.list(Vec::new());
    let cond = h.lit(Literal::Bool(false));
    Ok(h.fold(empty, UNUSED, "", INPUT, target, cond, input, sorted))
}
