//! The interpreter: evaluates a parsed expression over an [`Activation`] with the functions of
//! a [`Functions`] registry, as cel-go's interpreter does (errors as values that `&&`, `||` and
//! comprehensions' `@not_strictly_false` absorb; dynamic dispatch by runtime types), counting
//! cel-go's actual cost and stopping over a limit.

mod access;
mod comprehension;
mod cost;
mod plan;

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
/// goes over `cost_limit`, and with [`Error::Interrupted`] past [`MAX_LOOP_STEPS`] loop
/// iterations. An expression cel-go refuses to build a program for (see [`check`]) answers
/// its [`Error::Program`] at no cost.
pub fn evaluate(
    functions: &Functions,
    expr: &Expr,
    vars: &dyn Activation,
    cost_limit: Option<u64>,
) -> Outcome {
    evaluate_bounded(functions, expr, vars, cost_limit, MAX_LOOP_STEPS)
}

/// [`evaluate`] interrupted past `max_loop_steps` loop iterations instead of
/// [`MAX_LOOP_STEPS`].
pub fn evaluate_bounded(
    functions: &Functions,
    expr: &Expr,
    vars: &dyn Activation,
    cost_limit: Option<u64>,
    max_loop_steps: u64,
) -> Outcome {
    let plan = match plan::plan(functions, expr, &|name| vars.resolve(name).is_some()) {
        Ok(plan) => plan,
        Err(e) => {
            return Outcome {
                value: Err(e),
                cost: 0,
            };
        }
    };
    let mut ev = Evaluator {
        functions,
        vars,
        plan,
        locals: Vec::new(),
        cost: 0,
        limit: cost_limit,
        depth: 0,
        loop_steps: 0,
        max_loop_steps,
    };
    let value = ev.eval(expr);
    Outcome {
        value,
        cost: ev.cost,
    }
}

/// What cel-go's `env.Program` refuses before any evaluation: a type conversion of a constant
/// that fails (`int("1.5")`, `uint(-1)`), a constant regex that does not compile. Kubernetes
/// builds a rule's program when the CRD is written, so such a rule is refused there.
/// `is_variable` tells the declared variables (`self`, `oldSelf`) from type names.
pub fn check(functions: &Functions, expr: &Expr, is_variable: &dyn Fn(&str) -> bool) -> Result<()> {
    plan::plan(functions, expr, is_variable).map(|_| ())
}

pub(crate) struct Evaluator<'a> {
    functions: &'a Functions,
    vars: &'a dyn Activation,
    plan: plan::Plan,
    /// Comprehension variables, innermost last; an accumulator may hold an error.
    locals: Vec<(&'a str, Local<'a>)>,
    cost: u64,
    limit: Option<u64>,
    depth: usize,
    /// Comprehension iterations so far, and how many are allowed.
    loop_steps: u64,
    max_loop_steps: u64,
}

/// The most comprehension iterations one evaluation runs before it is interrupted
/// ([`Error::Interrupted`]): about a second of work, far beyond what a rule within the API
/// server's cost limits iterates.
pub const MAX_LOOP_STEPS: u64 = 10_000_000;

impl<'a> Evaluator<'a> {
    fn charge(&mut self, amount: u64) -> Result<()> {
        self.cost = self.cost.saturating_add(amount);
        match self.limit {
            Some(limit) if self.cost > limit => Err(Error::CostLimitExceeded),
            _ => Ok(()),
        }
    }

    /// Evaluates a node where cel-go executes (and observes) it.
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
        if let Some(v) = self.plan.constant(expr) {
            return Ok(v.clone());
        }
        match &expr.kind {
            ExprKind::Literal(l) => Ok(literal(l)),
            ExprKind::Ident(_) | ExprKind::Select { .. } => self.attribute(expr),
            ExprKind::Call {
                target,
                function,
                args,
            } => {
                if target.is_none() && access::is_attribute_call(function, args) {
                    return self.attribute(expr);
                }
                self.call(expr, target.as_deref(), function, args)
            }
            ExprKind::List {
                elements,
                optional_indices,
            } => {
                let mut out = Vec::with_capacity(elements.len());
                for (i, e) in elements.iter().enumerate() {
                    let v = match self.eval(e) {
                        Ok(v) => v,
                        Err(e) if !e.absorbable() => return Err(e),
                        Err(e) => {
                            self.charge(10)?;
                            return Err(e);
                        }
                    };
                    if optional_indices.contains(&i) {
                        match v {
                            Value::Optional(Some(v)) => out.push(v.as_ref().clone()),
                            Value::Optional(None) => {}
                            _ => {
                                self.charge(10)?;
                                return Err(Error::no_such_overload());
                            }
                        }
                    } else {
                        out.push(v);
                    }
                }
                self.charge(10)?;
                Ok(Value::list(out))
            }
            ExprKind::Map { entries } => {
                let mut out = Vec::with_capacity(entries.len());
                let mut failed = None;
                for entry in entries {
                    let kv = self
                        .eval(&entry.key)
                        .and_then(|k| self.eval(&entry.value).map(|v| (k, v)));
                    match kv {
                        Err(e) if !e.absorbable() => return Err(e),
                        Err(e) => {
                            failed = Some(e);
                            break;
                        }
                        Ok((k, v)) if entry.optional => match v {
                            Value::Optional(Some(v)) => out.push((k, v.as_ref().clone())),
                            Value::Optional(None) => {}
                            _ => {
                                failed = Some(Error::no_such_overload());
                                break;
                            }
                        },
                        Ok((k, v)) => out.push((k, v)),
                    }
                }
                self.charge(30)?;
                if let Some(e) = failed {
                    return Err(e);
                }
                for (k, _) in &out {
                    if !matches!(
                        k,
                        Value::String(_) | Value::Int(_) | Value::Uint(_) | Value::Bool(_)
                    ) {
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
        if let Some(at) = self.locals.iter().rposition(|(n, _)| *n == name) {
            return match &self.locals[at].1 {
                Local::Value(v) => v.clone(),
                Local::Pending(init) => self.initialize(at, init),
            };
        }
        if let Some(v) = self.vars.resolve(name) {
            return Ok(v);
        }
        if let Some(t) = Type::from_ident(name) {
            return Ok(Value::Type(t));
        }
        Err(Error::new(format!("no such attribute(s): {name}")))
    }

    /// Evaluates an accumulator's initial value where cel-go does, at its first read, in the
    /// scope around the comprehension.
    fn initialize(&mut self, at: usize, init: &'a Expr) -> Result<Value> {
        let inner = self.locals.split_off(at);
        let v = self.eval(init);
        self.locals.extend(inner);
        if let Some(slot) = self.locals.get_mut(at) {
            slot.1 = Local::Value(v.clone());
        }
        v
    }

    fn is_bound(&self, name: &str) -> bool {
        self.locals.iter().any(|(n, _)| *n == name) || self.vars.resolve(name).is_some()
    }
}

/// A comprehension variable's value; an accumulator's initial value is evaluated only when
/// first read, as cel-go's folder does (a loop that never reads it never pays for it).
enum Local<'a> {
    Value(Result<Value>),
    Pending(&'a Expr),
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
