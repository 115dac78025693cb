//! The strings extension's validator of literal format strings (cel-go's
//! `stringFormatValidator`, which strings v2 installs after the environment's other
//! validators): a `'literal'.format([list literal])` call must parse, each clause must fit
//! the checked type of its element, and the list may not have more elements than clauses.
//! Calls are visited in cel-go's post-order, so nested calls report first; each call reports
//! its first error only.

use super::Issue;
use super::types::Type;
use crate::ast::{Expr, ExprId, ExprKind, Literal};
use crate::library::clauses::{Piece, pieces};
use std::collections::HashMap;

/// Every error of the format calls under `root`, in cel-go's order.
pub(super) fn validate(
    root: &Expr,
    types: &HashMap<ExprId, Type>,
    overloads: &HashMap<ExprId, Vec<String>>,
) -> Vec<Issue> {
    let ty = |id: ExprId| types.get(&id).unwrap_or(&Type::Error);
    calls(root)
        .into_iter()
        .filter_map(|(call, text, elements)| {
            let ids = overloads.get(&call.id).map_or(&[][..], Vec::as_slice);
            if !ids.is_empty() && !ids.iter().any(|o| o == "string_format") {
                return None;
            }
            check_call(call.id, text, elements, &ty)
        })
        .collect()
}

/// The matching calls in post-order: the reverse of a pre-order walk that visits children
/// last to first, kept on an explicit stack as expressions may nest deeply.
fn calls(root: &Expr) -> Vec<(&Expr, &str, &[Expr])> {
    let mut found = Vec::new();
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Call { target, args, .. } => {
                if let Some(m) = matching(e) {
                    found.push(m);
                }
                stack.extend(target.as_deref());
                stack.extend(args);
            }
            ExprKind::List { elements, .. } => stack.extend(elements),
            ExprKind::Map { entries } => {
                for entry in entries {
                    stack.push(&entry.key);
                    stack.push(&entry.value);
                }
            }
            ExprKind::Select { operand, .. } => stack.push(operand),
            ExprKind::Struct { fields, .. } => stack.extend(fields.iter().map(|f| &f.value)),
            ExprKind::Comprehension(c) => stack.extend([
                &c.iter_range,
                &c.accu_init,
                &c.loop_condition,
                &c.loop_step,
                &c.result,
            ]),
            ExprKind::Literal(_) | ExprKind::Ident(_) => {}
        }
    }
    found.reverse();
    found
}

/// A member call of `format` on a string literal with one list literal argument.
fn matching(e: &Expr) -> Option<(&Expr, &str, &[Expr])> {
    let ExprKind::Call {
        target: Some(target),
        function,
        args,
    } = &e.kind
    else {
        return None;
    };
    let (ExprKind::Literal(Literal::String(text)), [arg]) = (&target.kind, args.as_slice()) else {
        return None;
    };
    match &arg.kind {
        ExprKind::List { elements, .. } if function == "format" => Some((e, text, elements)),
        _ => None,
    }
}

fn check_call<'a>(
    call: ExprId,
    text: &str,
    elements: &[Expr],
    ty: &impl Fn(ExprId) -> &'a Type,
) -> Option<Issue> {
    let mut clauses = 0;
    for piece in pieces(text, elements.len()) {
        let (index, verb) = match piece {
            Err(e) => {
                return Some(Issue {
                    id: call,
                    message: e.to_string(),
                });
            }
            Ok(Piece::Clause { index, verb, .. }) => (index, verb),
            Ok(_) => continue,
        };
        clauses += 1;
        let element = elements.get(index)?;
        if let Some((id, what)) = misfit(verb, element, ty) {
            let found = go_type_name(ty(id));
            return Some(Issue {
                id,
                message: format!("error during formatting: {what}, was given {found}"),
            });
        }
    }
    (elements.len() > clauses).then(|| Issue {
        id: call,
        message: format!(
            "too many arguments supplied to string.format (expected {clauses}, got {})",
            elements.len()
        ),
    })
}

/// What a clause formats, as cel-go describes it.
fn clause_accepts(verb: u8) -> &'static str {
    match verb {
        b's' => {
            "string clause can only be used on strings, bools, bytes, ints, doubles, maps, \
             lists, types, durations, and timestamps"
        }
        b'd' => "decimal clause can only be used on integers",
        b'f' => "fixed-point clause can only be used on doubles",
        b'e' => "scientific clause can only be used on doubles",
        b'b' => "only integers and bools can be formatted as binary",
        b'o' => "octal clause can only be used on integers",
        _ => "only integers, byte buffers, and strings can be formatted as hex",
    }
}

/// The node whose type the clause refuses, with the clause's description: the element
/// itself, or for `%s` the first element of a list or map literal inside it, depth first.
fn misfit<'a, 'e>(
    verb: u8,
    element: &'e Expr,
    ty: &impl Fn(ExprId) -> &'a Type,
) -> Option<(ExprId, &'static str)> {
    if verb != b's' {
        return (!fits(verb, ty(element.id))).then(|| (element.id, clause_accepts(verb)));
    }
    let mut stack = vec![element];
    while let Some(e) = stack.pop() {
        if !fits(verb, ty(e.id)) {
            return Some((e.id, clause_accepts(verb)));
        }
        match &e.kind {
            ExprKind::List { elements, .. } => stack.extend(elements.iter().rev()),
            ExprKind::Map { entries } => {
                for entry in entries.iter().rev() {
                    stack.push(&entry.value);
                    stack.push(&entry.key);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether a clause accepts a type, judged as cel-go does by its kind alone (`list(int)`
/// suits `%s` whatever its elements).
fn fits(verb: u8, t: &Type) -> bool {
    use Type as T;
    if *t == T::Dyn {
        return true;
    }
    match verb {
        b's' => matches!(
            t,
            T::List(_)
                | T::Map(..)
                | T::Int
                | T::Uint
                | T::Double
                | T::Bool
                | T::String
                | T::Timestamp
                | T::Bytes
                | T::Duration
                | T::Type(_)
                | T::Null
        ),
        b'd' | b'o' => matches!(t, T::Int | T::Uint),
        b'f' | b'e' => matches!(t, T::Double | T::String),
        b'b' => matches!(t, T::Int | T::Uint | T::Bool),
        _ => matches!(t, T::Int | T::Uint | T::String | T::Bytes),
    }
}

/// A type's name as cel-go's `Type.TypeName` gives it: without parameters, and the
/// protobuf names of durations and timestamps.
fn go_type_name(t: &Type) -> String {
    match t {
        Type::Duration => "google.protobuf.Duration".into(),
        Type::Timestamp => "google.protobuf.Timestamp".into(),
        Type::Any => "google.protobuf.Any".into(),
        Type::Null => "null_type".into(),
        Type::List(_) => "list".into(),
        Type::Map(..) => "map".into(),
        Type::Type(_) => "type".into(),
        Type::Error => "*error*".into(),
        Type::Opaque(name, _) | Type::Object(name) | Type::Param(name) => name.clone(),
        other => other.to_string(),
    }
}
