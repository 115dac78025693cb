//! The overload estimators the environment's extensions register, which cel-go asks before
//! any other: the lists extension (version 3: slice, flatten, range, reverse, distinct, sort,
//! sortBy) and sets. Costs exclude the arguments'.

use super::walk::Coster;
use super::{CallEstimate, CostEstimate, LIST_CREATE, Node, SizeEstimate, TRAVERSAL};
use crate::ast::{ExprKind, Literal};

pub(super) fn estimate(
    c: &Coster,
    overload: &str,
    target: Option<&Node>,
    args: &[Node],
) -> Option<CallEstimate> {
    let size = |n: &Node| c.node_size(n);
    match (overload, target, args) {
        ("list_slice", Some(t), [start, end]) => {
            let s = size(t);
            let (start, end) = (literal_uint(start, 0), literal_uint(end, s.max));
            allocating(1.0, SizeEstimate::fixed(end.wrapping_sub(start)))
        }
        ("lists_range", None, [n]) => {
            allocating(1.0, SizeEstimate::fixed(literal_uint(n, u64::MAX)))
        }
        ("list_reverse", Some(t), []) => allocating(1.0, size(t)),
        ("list_flatten" | "list_flatten_int", Some(t), _) if args.len() <= 1 => {
            let depth = args.first().map_or(1, |d| literal_uint(d, u64::MAX));
            allocating(depth as f64, size(t))
        }
        ("list_distinct", Some(t), []) => {
            let s = size(t);
            allocating(2.0, s.multiply(s))
        }
        ("list_sets_contains_list" | "list_sets_intersects_list", _, [a, b]) => {
            sets(size(a), size(b), 1.0)
        }
        ("list_sets_equivalent_list", _, [a, b]) => sets(size(a), size(b), 2.0),
        _ => {
            let rest = overload.strip_prefix("list_")?;
            if let Some(elem) = rest.strip_suffix("_sortByAssociatedKeys") {
                match (target, args) {
                    (Some(_), [keys]) => sort(size(keys), elem),
                    _ => None,
                }
            } else if let Some(elem) = rest.strip_suffix("_sort") {
                match (target, args) {
                    (Some(t), []) => sort(size(t), elem),
                    _ => None,
                }
            } else {
                None
            }
        }
    }
}

/// A literal int argument as cel-go's nodeAsUintValue reads it (negative as 0), else `default`.
fn literal_uint(n: &Node, default: u64) -> u64 {
    match n.expr.map(|e| &e.kind) {
        Some(ExprKind::Literal(Literal::Int(v))) => (*v).max(0) as u64,
        _ => default,
    }
}

/// A call building a list of `size` elements at `factor` per element.
fn allocating(factor: f64, size: SizeEstimate) -> Option<CallEstimate> {
    let cost = size
        .times(factor)
        .add(CostEstimate::fixed(1))
        .add(CostEstimate::fixed(LIST_CREATE));
    CallEstimate::sized(cost, size)
}

/// An O(n²) sort of `size` elements; comparing strings or bytes costs a traversal more.
fn sort(size: SizeEstimate, elem: &str) -> Option<CallEstimate> {
    let factor = match elem {
        "string" | "bytes" => 2.0 + TRAVERSAL,
        "int"
        | "uint"
        | "double"
        | "bool"
        | "google.protobuf.Duration"
        | "google.protobuf.Timestamp" => 2.0,
        _ => return None,
    };
    allocating(factor, size.multiply(size))
}

fn sets(a: SizeEstimate, b: SizeEstimate, factor: f64) -> Option<CallEstimate> {
    CallEstimate::cost(a.multiply(b).times(factor).add(CostEstimate::fixed(1)))
}
