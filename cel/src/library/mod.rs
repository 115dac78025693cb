//! Functions: the registry the interpreter dispatches calls through, by name and by the
//! runtime types of the arguments (cel-go's dynamic dispatch), and the libraries the
//! Kubernetes 1.37 environment has. Libraries outside this crate (quantity, IP, CIDR, URL,
//! semver, format) register theirs with [`Functions::add`].

pub(crate) mod clauses;
mod format;
mod k8s;
mod lists;
mod optional;
mod sets;
mod standard;
mod strings;
mod time;

pub(crate) use format::{display, format_go_double};
pub(crate) use standard::compile_regex;

use crate::error::{Error, Result};
use crate::value::{Type, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// A function's implementation: receiver first for a member call.
pub type NativeFn = Arc<dyn Fn(&[Value]) -> Result<Value> + Send + Sync>;

/// The actual cost of one call, from its arguments and result (cel-go's `CallCost`).
pub type CostFn = Arc<dyn Fn(&[Value], &Result<Value>) -> u64 + Send + Sync>;

/// What an overload's parameter accepts at runtime.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Param {
    /// Any value (`dyn`, a type parameter).
    Any,
    /// Values of this type only.
    Is(Type),
}

/// One overload of a function.
#[derive(Clone)]
pub struct Overload {
    /// cel-go's overload id (`add_int64`, `list_slice`): cost trackers key on it.
    pub id: String,
    /// The parameters, receiver first.
    pub params: Vec<Param>,
    /// The implementation.
    pub func: NativeFn,
}

impl std::fmt::Debug for Overload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Overload")
            .field("id", &self.id)
            .field("params", &self.params)
            .finish()
    }
}

impl Overload {
    /// An overload of `params` implemented by `func`.
    pub fn new(
        id: impl Into<String>,
        params: Vec<Param>,
        func: impl Fn(&[Value]) -> Result<Value> + Send + Sync + 'static,
    ) -> Overload {
        Overload {
            id: id.into(),
            params,
            func: Arc::new(func),
        }
    }

    fn matches(&self, args: &[Value]) -> bool {
        self.params.len() == args.len()
            && self.params.iter().zip(args).all(|(p, a)| match p {
                Param::Any => true,
                Param::Is(t) => a.type_of() == *t,
            })
    }
}

/// The functions an interpreter knows, by name (`contains`, `_+_`, `sets.contains`).
#[derive(Clone, Default)]
pub struct Functions {
    by_name: HashMap<String, Vec<Overload>>,
    costs: HashMap<String, CostFn>,
}

impl std::fmt::Debug for Functions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Functions")
            .field("names", &self.by_name.len())
            .finish()
    }
}

impl Functions {
    /// No functions.
    pub fn empty() -> Functions {
        Functions::default()
    }

    /// The functions of the Kubernetes 1.37 base environment this crate implements: the
    /// standard library, strings v2, sets, lists v3, optionals, two-variable comprehensions
    /// (macros), and Kubernetes' lists and regex libraries.
    pub fn kubernetes() -> Functions {
        let mut f = Functions::default();
        standard::register(&mut f);
        time::register(&mut f);
        strings::register(&mut f);
        sets::register(&mut f);
        lists::register(&mut f);
        optional::register(&mut f);
        k8s::register(&mut f);
        f
    }

    /// Adds an overload of `name`; overloads are tried in the order added.
    pub fn add(&mut self, name: &str, overload: Overload) {
        self.by_name
            .entry(name.to_string())
            .or_default()
            .push(overload);
    }

    /// Sets the actual cost of calls of an overload (else 1, or cel-go's own for its overloads).
    pub fn set_cost(&mut self, overload_id: &str, cost: CostFn) {
        self.costs.insert(overload_id.to_string(), cost);
    }

    /// Whether a function of that name exists.
    pub fn has(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// Calls `name` with evaluated arguments: the first overload whose parameters accept them,
    /// else cel-go's `no such overload: name(types)`. Returns the overload id for costing.
    pub fn call(&self, name: &str, args: &[Value]) -> (Option<&str>, Result<Value>) {
        let Some(overloads) = self.by_name.get(name) else {
            return (None, Err(Error::new(format!("no such overload: {name}"))));
        };
        // An overload for the arguments' own types before one taking any value: a library
        // type's `string(ip)` is its own, not the standard library's catch-all.
        let typed = overloads
            .iter()
            .find(|o| o.params.iter().all(|p| *p != Param::Any) && o.matches(args));
        match typed.or_else(|| overloads.iter().find(|o| o.matches(args))) {
            Some(o) => (Some(&o.id), (o.func)(args)),
            None => {
                let types: Vec<String> = args
                    .iter()
                    .map(|a| a.type_of().name().to_string())
                    .collect();
                (
                    None,
                    Err(Error::new(format!(
                        "no such overload: {name}({})",
                        types.join(", ")
                    ))),
                )
            }
        }
    }

    /// Whether some overload of `name` has a registered cost (which may depend on the result).
    pub fn has_cost(&self, name: &str) -> bool {
        self.by_name
            .get(name)
            .is_some_and(|os| os.iter().any(|o| self.costs.contains_key(&o.id)))
    }

    /// The registered cost of an overload's call, if any.
    pub fn cost_of(&self, overload_id: &str) -> Option<&CostFn> {
        self.costs.get(overload_id)
    }
}

/// Shorthands for overload parameters.
pub(crate) mod p {
    use super::Param;
    use crate::value::Type;
    pub const ANY: Param = Param::Any;
    pub const INT: Param = Param::Is(Type::Int);
    #[allow(dead_code)]
    pub const UINT: Param = Param::Is(Type::Uint);
    #[allow(dead_code)]
    pub const DOUBLE: Param = Param::Is(Type::Double);
    pub const STRING: Param = Param::Is(Type::String);
    #[allow(dead_code)]
    pub const BYTES: Param = Param::Is(Type::Bytes);
    #[allow(dead_code)]
    pub const BOOL: Param = Param::Is(Type::Bool);
    pub const LIST: Param = Param::Is(Type::List);
    #[allow(dead_code)]
    pub const MAP: Param = Param::Is(Type::Map);
    pub const DURATION: Param = Param::Is(Type::Duration);
    pub const TIMESTAMP: Param = Param::Is(Type::Timestamp);
    pub const OPTIONAL: Param = Param::Is(Type::Optional);
}

/// Argument accessors for implementations, whose overloads have already checked the types.
pub(crate) fn int(v: &Value) -> i64 {
    if let Value::Int(i) = v { *i } else { 0 }
}
pub(crate) fn string(v: &Value) -> &str {
    if let Value::String(s) = v { s } else { "" }
}
pub(crate) fn list(v: &Value) -> crate::value::List {
    if let Value::List(l) = v {
        l.clone()
    } else {
        crate::value::List::from(Vec::new())
    }
}
