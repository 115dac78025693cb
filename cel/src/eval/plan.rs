//! What cel-go's planner decides before evaluation, with the Kubernetes environment's
//! `OptOptimize`: which nodes are constants (literals, type names, list and map literals of
//! constants, type conversions of a constant, `x in []`), which `in` tests become set lookups,
//! which calls take the variadic path (constant regexes), and the errors that make the program
//! fail to build (a constant conversion that fails, a constant regex that does not compile).
//!
//! Constants cost nothing to evaluate, and constant aggregates nothing to build, so the actual
//! cost depends on these decisions as much as the values do.

use crate::ast::{Expr, ExprKind};
use crate::error::{Error, Result};
use crate::library::Functions;
use crate::value::{Map, Type, Value};
use std::collections::{HashMap, HashSet};

/// The functions whose call with a constant argument cel-go's planner folds into a constant.
const CONVERSIONS: &[&str] = &[
    "bool",
    "bytes",
    "double",
    "duration",
    "dyn",
    "int",
    "string",
    "timestamp",
    "type",
    "uint",
];

/// The functions whose constant regex argument the planner compiles: the call then evaluates
/// its arguments as a variadic call does (stopping at the first error).
const REGEX_FUNCTIONS: &[&str] = &["matches", "find", "findAll"];

/// The planner's decisions for one expression, keyed by node address (ids need not be unique
/// in a tree built by hand).
#[derive(Debug, Default)]
pub(crate) struct Plan {
    consts: HashMap<*const Expr, Value>,
    sets: HashSet<*const Expr>,
    variadic: HashSet<*const Expr>,
}

impl Plan {
    /// The folded value of a constant node.
    pub(crate) fn constant(&self, e: &Expr) -> Option<&Value> {
        self.consts.get(&(e as *const Expr))
    }

    /// Whether an `in` test is a set lookup (costs nothing itself).
    pub(crate) fn is_set_lookup(&self, e: &Expr) -> bool {
        self.sets.contains(&(e as *const Expr))
    }

    /// Whether a call stops evaluating its arguments at the first error, uncosted.
    pub(crate) fn is_variadic(&self, e: &Expr) -> bool {
        self.variadic.contains(&(e as *const Expr))
    }
}

/// Plans `expr` as cel-go's planner would, in its order (children before their node,
/// left to right), failing with the first error folding meets. `is_variable` tells a
/// declared variable from a type name.
pub(crate) fn plan(
    functions: &Functions,
    expr: &Expr,
    is_variable: &dyn Fn(&str) -> bool,
) -> Result<Plan> {
    let mut p = Planner {
        functions,
        is_variable,
        locals: Vec::new(),
        plan: Plan::default(),
    };
    p.walk(expr, 0)?;
    Ok(p.plan)
}

struct Planner<'a> {
    functions: &'a Functions,
    is_variable: &'a dyn Fn(&str) -> bool,
    locals: Vec<&'a str>,
    plan: Plan,
}

impl<'a> Planner<'a> {
    fn constant(&self, e: &Expr) -> Option<Value> {
        self.plan.constant(e).cloned()
    }

    fn fold(&mut self, e: &Expr, v: Value) {
        self.plan.consts.insert(e as *const Expr, v);
    }

    fn walk(&mut self, e: &'a Expr, depth: usize) -> Result<()> {
        if depth >= super::MAX_DEPTH {
            return Err(Error::TooDeep);
        }
        let depth = depth + 1;
        match &e.kind {
            ExprKind::Literal(l) => self.fold(e, super::literal(l)),
            ExprKind::Ident(name) => {
                if !self.locals.contains(&name.as_str())
                    && !(self.is_variable)(name)
                    && let Some(t) = Type::from_ident(name)
                {
                    self.fold(e, Value::Type(t));
                }
            }
            ExprKind::Select { operand, .. } => self.walk(operand, depth)?,
            ExprKind::Call {
                target,
                function,
                args,
            } => {
                if let Some(t) = target {
                    self.walk(t, depth)?;
                }
                for a in args {
                    self.walk(a, depth)?;
                }
                self.call(e, target.as_deref(), function, args)?;
            }
            ExprKind::List {
                elements,
                optional_indices,
            } => {
                let mut values = Vec::with_capacity(elements.len());
                for el in elements {
                    self.walk(el, depth)?;
                    values.push(self.constant(el));
                }
                if optional_indices.is_empty()
                    && let Some(values) = values.into_iter().collect::<Option<Vec<_>>>()
                {
                    self.fold(e, Value::list(values));
                }
            }
            ExprKind::Map { entries } => {
                let mut values = Vec::with_capacity(entries.len());
                for entry in entries {
                    self.walk(&entry.key, depth)?;
                    self.walk(&entry.value, depth)?;
                    values.push(
                        self.constant(&entry.key)
                            .zip(self.constant(&entry.value))
                            .filter(|_| !entry.optional),
                    );
                }
                if let Some(values) = values.into_iter().collect::<Option<Vec<_>>>() {
                    self.fold(e, Value::Map(Map::from_entries(values)));
                }
            }
            ExprKind::Struct { fields, .. } => {
                for f in fields {
                    self.walk(&f.value, depth)?;
                }
            }
            ExprKind::Comprehension(c) => {
                self.walk(&c.accu_init, depth)?;
                self.walk(&c.iter_range, depth)?;
                let base = self.locals.len();
                self.locals.push(&c.accu_var);
                self.locals.push(&c.iter_var);
                if !c.iter_var2.is_empty() {
                    self.locals.push(&c.iter_var2);
                }
                self.walk(&c.loop_condition, depth)?;
                self.walk(&c.loop_step, depth)?;
                self.locals.truncate(base + 1);
                self.walk(&c.result, depth)?;
                self.locals.truncate(base);
            }
        }
        Ok(())
    }

    fn call(
        &mut self,
        e: &'a Expr,
        target: Option<&'a Expr>,
        function: &str,
        args: &'a [Expr],
    ) -> Result<()> {
        match (target, args) {
            (None, [arg]) if CONVERSIONS.contains(&function) => {
                if let Some(v) = self.constant(arg) {
                    let (_, out) = self.functions.call(function, std::slice::from_ref(&v));
                    let v = out.map_err(|err| Error::Program(err.to_string()))?;
                    self.fold(e, v);
                }
            }
            (None, [_, rhs]) if function == "@in" => match self.constant(rhs) {
                Some(Value::List(l)) if l.is_empty() => self.fold(e, Value::Bool(false)),
                Some(Value::List(l))
                    if l.iter().all(|v| {
                        matches!(
                            v,
                            Value::Bool(_)
                                | Value::Int(_)
                                | Value::Uint(_)
                                | Value::Double(_)
                                | Value::String(_)
                        )
                    }) =>
                {
                    self.plan.sets.insert(e as *const Expr);
                }
                _ => {}
            },
            _ if REGEX_FUNCTIONS.contains(&function) => {
                let pattern_at = usize::from(target.is_none());
                if let Some(pattern @ Value::String(_)) =
                    args.get(pattern_at).and_then(|a| self.constant(a))
                {
                    let probe = [Value::string(""), pattern];
                    let (_, out) = self.functions.call(function, &probe);
                    if let Err(err) = out {
                        return Err(Error::Program(err.to_string()));
                    }
                    self.plan.variadic.insert(e as *const Expr);
                }
            }
            _ => {}
        }
        Ok(())
    }
}
