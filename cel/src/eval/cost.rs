//! The actual cost of a call, as cel-go's cost tracker with Kubernetes' estimator counts it:
//! a registered cost first, then Kubernetes' per-function costs, then cel-go's per-overload
//! ones, else 1.

use super::Evaluator;
use crate::error::Result;
use crate::value::Value;

/// A traversal of `n` characters or elements, at cel-go's 0.1 per unit, rounded up.
fn tenth(n: u64) -> u64 {
    n.div_ceil(10)
}

/// Kubernetes' traversal cost of a value (its `traversalCost`: string length × 0.1 rounded
/// down, the sum over a list's elements or a map's keys and values, else 1).
fn traversal(v: &Value) -> u64 {
    match v {
        Value::String(s) => s.len() as u64 / 10,
        Value::Bytes(b) => b.len() as u64 / 10,
        Value::List(l) => l.iter().map(|e| traversal(&e)).sum(),
        Value::Map(m) => m.iter().map(|(k, v)| traversal(&k) + traversal(&v)).sum(),
        _ => 1,
    }
}

/// The lists extension's worst-case O(n²) comparison cost of sorting or deduplicating a list.
fn self_compare(list: Option<&Value>) -> u64 {
    let Some(Value::List(l)) = list else {
        return 11;
    };
    let n = l.len() as u64;
    let factor = match l.get(0) {
        Some(Value::String(_) | Value::Bytes(_)) => 2.1,
        _ => 2.0,
    };
    11u64.saturating_add((n.saturating_mul(n) as f64 * factor) as u64)
}

/// How cel-go's tracker costs a call it has no estimate for, by function and argument types.
pub trait CallCost {
    /// The call's cost.
    fn call_cost(
        &self,
        function: &str,
        overload: Option<&str>,
        args: &[Value],
        result: &Result<Value>,
    ) -> u64;
}

impl Evaluator<'_> {
    /// The cost of a call. With `failed`, the `null`s in `args` stand for arguments that
    /// were errors: cel-go chooses the formula by the overload the checker resolved, from
    /// static types, so such an argument counts as the text a text formula wants (size 1).
    pub(super) fn call_cost(
        &self,
        function: &str,
        id: Option<&str>,
        args: &[Value],
        result: &Result<Value>,
        failed: bool,
    ) -> u64 {
        if let Some(id) = id
            && let Some(f) = self.functions.cost_of(id)
        {
            return f(args, result);
        }
        let size = |i: usize| args.get(i).map_or(1, Value::cost_size);
        let is_text = |i: usize| match args.get(i) {
            Some(Value::String(_) | Value::Bytes(_)) => true,
            Some(Value::Null) => failed,
            _ => false,
        };
        match function {
            "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" | "includes" => {
                args.first().map_or(0, traversal)
            }
            // The lists extension's trackers: a call and a list allocation, plus the output
            // or (sorting, distinct) the square of the input.
            "slice" | "lists.range" | "reverse" if !is_text(0) => {
                11 + result.as_ref().map_or(1, Value::cost_size)
            }
            "flatten" => {
                let depth = match args.get(1) {
                    Some(Value::Int(d)) if *d >= 0 => *d as f64,
                    Some(Value::Int(_)) => 1.0,
                    _ => 1.0,
                };
                11u64.saturating_add((size(0) as f64 * depth) as u64)
            }
            "distinct" | "sort" => self_compare(args.first()),
            "@sortByAssociatedKeys" => self_compare(args.get(1)),
            // The sets extension's: a call plus the product of the sizes (twice for equivalent).
            "sets.contains" | "sets.intersects" => {
                1u64.saturating_add(size(0).saturating_mul(size(1)))
            }
            "sets.equivalent" => {
                1u64.saturating_add(size(0).saturating_mul(size(1)).saturating_mul(2))
            }
            "lowerAscii" | "upperAscii" | "substring" | "trim" => tenth(size(0)),
            "replace" | "split" => tenth(2 * size(0)),
            "join" => result.as_ref().map_or(1, |r| tenth(2 * r.cost_size())),
            "find" | "findAll" | "matches" => {
                tenth(1 + size(0)) * (size(1) as f64 * 0.25).ceil() as u64
            }
            "startsWith" | "endsWith" => tenth(size(1)),
            "string" if is_text(0) => tenth(size(0)),
            "bytes" if is_text(0) => tenth(size(0)),
            "strings.quote" | "format" => tenth(size(0)),
            "@in" if matches!(args.get(1), Some(Value::List(_))) => size(1),
            "_<_" | "_<=_" | "_>_" | "_>=_" if is_text(0) && is_text(1) => {
                tenth(size(0).min(size(1)))
            }
            "_==_" | "_!=_" => tenth(size(0).min(size(1))),
            "_+_" if is_text(0) && is_text(1) => tenth(size(0) + size(1)),
            "contains" if is_text(0) => tenth(size(0)) * tenth(size(1)),
            _ => 1,
        }
    }
}
