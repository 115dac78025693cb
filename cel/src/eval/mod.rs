//! The interpreter: evaluates a parsed expression over an [`Activation`] with the functions of
//! a [`Functions`] registry, as cel-go's interpreter does (errors as values that `&&`, `||` and
//! comprehensions' `@not_strictly_false` absorb; dynamic dispatch by runtime types), counting
//! cel-go's actual cost and stopping over a limit.

mod access;
mod comprehension;
mod cost;

use crate::ast::{Expr, ExprKind, Literal};
use crate::error::{Error, Result};
use crate::library::Functions;
use crate::value::{Map, Type, Value};
use std::collections::HashMap;

pub use cost::CallCost;

/// How deep an expression may nest: cel-go's parser refuses deeper ones (its default
/// recursion limit), so a tree deeper than this did not come from a parse.
pub const MAX_DEPTH: usize = 250;

/// The variables an expression reads.
pub trait Activation {
    /// The value of a variable, if bound.
    fn resolve(&self, name: &str) -> Option<Value>;
}

impl Activation for HashMap<String, Value> {
    fn resolve(&self, name: &str) -> Option<Value> {
        self.get(name).cloned()
    }
}

impl Activation for () {
    fn resolve(&self, _: &str) -> Option<Value> {
        None
    }
}

/// The outcome of an evaluation: its value or error, and its actual cost.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The value, or the error the expression evaluated to.
    pub value: Result<Value>,
    /// cel-go's actual cost of the evaluation (up to where it stopped).
    pub cost: u64,
}

/// Evaluates `expr` with `vars`, stopping with [`Error::CostLimitExceeded`] once the actual cost
/// goes over `cost_limit`.
pub fn evaluate(
    functions: &Functions,
    expr: &Expr,
    vars: &dyn Activation,
    cost_limit: Option<u64>,
) -> Outcome {
    let mut ev = Evaluator {
        functions,
        vars,
        locals: Vec::new(),
        cost: 0,
        limit: cost_limit,
        depth: 0,
    };
    let value = ev.eval(expr);
    Outcome {
        value,
        cost: ev.cost,
    }
}

pub(crate) struct Evaluator<'a> {
    functions: &'a Functions,
    vars: &'a dyn Activation,
    /// Comprehension variables, innermost last; an accumulator may hold an error.
    locals: Vec<(&'a str, Result<Value>)>,
    cost: u64,
    limit: Option<u64>,
    depth: usize,
}

impl<'a> Evaluator<'a> {
    fn charge(&mut self, amount: u64) -> Result<()> {
        self.cost = self.cost.saturating_add(amount);
        match self.limit {
            Some(limit) if self.cost > limit => Err(Error::CostLimitExceeded),
            _ => Ok(()),
        }
    }

    pub(crate) fn eval(&mut self, expr: &'a Expr) -> Result<Value> {
        if self.depth >= MAX_DEPTH {
            return Err(Error::TooDeep);
        }
        self.depth += 1;
        let out = self.eval_kind(expr);
        self.depth -= 1;
        out
    }

    fn eval_kind(&mut self, expr: &'a Expr) -> Result<Value> {
        match &expr.kind {
            ExprKind::Literal(l) => Ok(literal(l)),
            ExprKind::Ident(name) => {
                self.charge(1)?;
                self.ident(name)
            }
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => self.select(operand, field, *test_only),
            ExprKind::Call {
                target,
                function,
                args,
            } => self.call(target.as_deref(), function, args),
            ExprKind::List {
                elements,
                optional_indices,
            } => {
                let mut out = Vec::with_capacity(elements.len());
                let mut first_err = None;
                for (i, e) in elements.iter().enumerate() {
                    match self.eval(e) {
                        Ok(v) if optional_indices.contains(&i) => match v {
                            Value::Optional(Some(v)) => out.push(v.as_ref().clone()),
                            Value::Optional(None) => {}
                            _ => first_err = first_err.or(Some(Error::no_such_overload())),
                        },
                        Ok(v) => out.push(v),
                        Err(e) if !e.absorbable() => return Err(e),
                        Err(e) => first_err = first_err.or(Some(e)),
                    }
                }
                if !is_constant(expr) {
                    self.charge(10)?;
                }
                match first_err {
                    Some(e) => Err(e),
                    None => Ok(Value::list(out)),
                }
            }
            ExprKind::Map { entries } => {
                let mut out = Vec::with_capacity(entries.len());
                let mut first_err = None;
                for entry in entries {
                    let k = self.eval(&entry.key);
                    let v = self.eval(&entry.value);
                    match (k, v) {
                        (Err(e), _) | (_, Err(e)) if !e.absorbable() => return Err(e),
                        (Err(e), _) | (_, Err(e)) => first_err = first_err.or(Some(e)),
                        (Ok(k), Ok(v)) => {
                            if entry.optional {
                                match v {
                                    Value::Optional(Some(v)) => out.push((k, v.as_ref().clone())),
                                    Value::Optional(None) => {}
                                    _ => first_err = first_err.or(Some(Error::no_such_overload())),
                                }
                            } else {
                                out.push((k, v));
                            }
                        }
                    }
                }
                if !is_constant(expr) {
                    self.charge(30)?;
                }
                if let Some(e) = first_err {
                    return Err(e);
                }
                for (k, _) in &out {
                    if !matches!(
                        k,
                        Value::String(_) | Value::Int(_) | Value::Uint(_) | Value::Bool(_)
                    ) && !is_constant(expr)
                    {
                        return Err(Error::new(format!(
                            "unsupported key type: {}",
                            k.type_of().name()
                        )));
                    }
                }
                Ok(Value::Map(Map::from_entries(out)))
            }
            ExprKind::Struct { type_name, .. } => {
                Err(Error::new(format!("unknown type: {type_name}")))
            }
            ExprKind::Comprehension(c) => self.comprehension(c),
        }
    }

    fn ident(&mut self, name: &str) -> Result<Value> {
        if let Some((_, v)) = self.locals.iter().rev().find(|(n, _)| *n == name) {
            return v.clone();
        }
        if let Some(v) = self.vars.resolve(name) {
            return Ok(v);
        }
        if let Some(t) = Type::from_ident(name) {
            return Ok(Value::Type(t));
        }
        Err(Error::new(format!("no such attribute(s): {name}")))
    }

    fn is_bound(&self, name: &str) -> bool {
        self.locals.iter().any(|(n, _)| *n == name) || self.vars.resolve(name).is_some()
    }
}

fn literal(l: &Literal) -> Value {
    match l {
        Literal::Null => Value::Null,
        Literal::Bool(b) => Value::Bool(*b),
        Literal::Int(i) => Value::Int(*i),
        Literal::Uint(u) => Value::Uint(*u),
        Literal::Double(d) => Value::Double(*d),
        Literal::String(s) => Value::string(s.as_str()),
        Literal::Bytes(b) => Value::Bytes(b.as_slice().into()),
    }
}

/// Whether cel-go's planner folds the aggregate literal into a constant (all its parts are
/// constants): building it then costs nothing.
fn is_constant(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Literal(_) => true,
        ExprKind::List {
            elements,
            optional_indices,
        } => optional_indices.is_empty() && elements.iter().all(is_constant),
        ExprKind::Map { entries } => entries
            .iter()
            .all(|e| !e.optional && is_constant(&e.key) && is_constant(&e.value)),
        _ => false,
    }
}
