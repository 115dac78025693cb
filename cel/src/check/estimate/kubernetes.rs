//! Kubernetes' call estimates (k8s.io/apiserver's `library.CostEstimator.EstimateCallCost`),
//! chosen by function name: the lists library, regular expressions, URLs, IPs and CIDRs,
//! quantities, semvers, formats, the string functions the extension leaves to it, the
//! authorizer's, and equality of the library's types. Costs exclude the arguments'.

use super::path::Path;
use super::walk::Coster;
use super::{CallEstimate, CostEstimate, Node, REGEX_PER_CHAR, SizeEstimate, TRAVERSAL};
use crate::ast::{ExprKind, Literal};
use crate::check::Type;

/// The longest regular expression of a named format (Kubernetes' MaxNameFormatRegexSize).
const FORMAT_REGEX: f64 = 128.0;
/// The longest format name (Kubernetes' MaxFormatSize).
const FORMAT_NAME: u64 = 64;

pub(super) fn estimate(
    c: &Coster,
    function: &str,
    overload: &str,
    target: Option<&Node>,
    args: &[Node],
) -> Option<CallEstimate> {
    let one = CostEstimate::fixed(1);
    let size = |n: &Node| c.node_size(n);
    let traversal = |n: &Node| size(n).times(TRAVERSAL);
    match function {
        "check" => CallEstimate::cost(CostEstimate::fixed(350_000)),
        "serviceAccount"
        | "path"
        | "group"
        | "resource"
        | "subresource"
        | "namespace"
        | "name"
        | "allowed"
        | "reason"
        | "error"
        | "errored"
        | "format.named"
        | "sign"
        | "asInteger"
        | "isInteger"
        | "asApproximateFloat"
        | "isGreaterThan"
        | "isLessThan"
        | "compareTo"
        | "add"
        | "sub"
        | "major"
        | "minor"
        | "patch"
        | "getScheme"
        | "getHostname"
        | "getHost"
        | "getPort"
        | "getEscapedPath"
        | "getQuery"
        | "masked"
        | "prefixLength"
        | "family"
        | "isUnspecified"
        | "isLoopback"
        | "isLinkLocalMulticast"
        | "isLinkLocalUnicast"
        | "isGlobalUnicast" => CallEstimate::cost(one),
        "fieldSelector" | "labelSelector" => match args {
            [selector] => CallEstimate::cost(selector_cost(size(selector))),
            _ => None,
        },
        "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" | "includes" => {
            let t = target?;
            match element_node(t) {
                Some(el) => {
                    let mut per = one;
                    if matches!(el.ty, Type::String | Type::Bytes) {
                        per = per.add(size(&el).times(TRAVERSAL));
                    }
                    CallEstimate::cost(size(t).times_cost(per))
                }
                None if function == "includes" => CallEstimate::cost(size(t).times_cost(one)),
                // indexOf and lastIndexOf on a string.
                None => CallEstimate::cost(traversal(t)),
            }
        }
        "url" | "jsonpatch.escapeKey" => match args {
            [a] => CallEstimate::sized(traversal(a), size(a)),
            _ => None,
        },
        "lowerAscii" | "upperAscii" | "substring" | "trim" => {
            let t = target?;
            CallEstimate::sized(traversal(t), size(t))
        }
        "replace" => match (target, args) {
            (Some(t), [from, to, ..]) => {
                let (s, from, to) = (size(t), size(from), size(to));
                CallEstimate::sized(s.times(2.0 * TRAVERSAL), replaced_size(s, from, to))
            }
            _ => None,
        },
        "split" => {
            let t = target?;
            let s = size(t);
            let mut max = s.max;
            if let Some(limit) = args.get(1)
                && let Some(ExprKind::Literal(Literal::Int(n))) = limit.expr.map(|e| &e.kind)
            {
                max = *n as u64;
            }
            CallEstimate::sized(s.times(2.0 * TRAVERSAL), SizeEstimate { min: 0, max })
        }
        "join" => {
            let t = target?;
            let count = size(t);
            let mut joined = SizeEstimate::fixed(0);
            if let Some(el) = element_node(t) {
                joined = count.multiply(size(&el));
            }
            if let Some(sep) = args.first() {
                let separators = SizeEstimate {
                    min: count.min.saturating_sub(1),
                    max: count.max.saturating_sub(1),
                };
                joined = joined.add(size(sep).multiply(separators));
            }
            CallEstimate::sized(joined.times(TRAVERSAL), joined)
        }
        "find" | "findAll" => match (target, args) {
            (Some(t), [re, ..]) => {
                let s = size(t);
                let text = s.add(SizeEstimate::fixed(1)).times(TRAVERSAL);
                let regex = size(re).times(REGEX_PER_CHAR);
                CallEstimate::sized(text.multiply(regex), SizeEstimate { min: 0, max: s.max })
            }
            _ => None,
        },
        "cidr" | "isIP" | "isCIDR" | "quantity" | "isQuantity" | "semver" | "isSemver" => {
            CallEstimate::cost(traversal(args.first()?))
        }
        "ip" if overload == "cidr_ip" => CallEstimate::cost(one),
        "ip" => CallEstimate::cost(traversal(args.first()?)),
        "ip.isCanonical" => CallEstimate::cost(size(args.first()?).times(2.0 * TRAVERSAL)),
        "containsIP" | "containsCIDR" => {
            let other = args.first()?;
            let ip_bytes = SizeEstimate { min: 4, max: 16 };
            let mut cost = ip_bytes.add(ip_bytes).times(TRAVERSAL);
            if function == "containsCIDR" {
                cost = cost.add(ip_bytes.times(TRAVERSAL)).add(one);
            }
            if overload == "cidr_contains_ip_string" || overload == "cidr_contains_cidr_string" {
                cost = cost.add(size(other).as_cost().times(TRAVERSAL));
            }
            CallEstimate::cost(cost)
        }
        "validate" => {
            let s = size(args.first()?);
            CallEstimate::cost(s.times(TRAVERSAL).times(FORMAT_REGEX * REGEX_PER_CHAR))
        }
        "_==_" => equality(args),
        _ => None,
    }
}

/// Equality of two values of one Kubernetes library type.
fn equality(args: &[Node]) -> Option<CallEstimate> {
    let [lhs, rhs] = args else {
        return None;
    };
    if type_name(&lhs.ty) != type_name(&rhs.ty) {
        return None;
    }
    let one = CostEstimate::fixed(1);
    let Type::Opaque(name, _) = &lhs.ty else {
        return None;
    };
    match name.as_str() {
        "net.IP"
        | "net.CIDR"
        | "kubernetes.Quantity"
        | "kubernetes.Semver"
        | "kubernetes.authorization.Authorizer"
        | "kubernetes.authorization.PathCheck"
        | "kubernetes.authorization.GroupCheck"
        | "kubernetes.authorization.ResourceCheck"
        | "kubernetes.authorization.Decision" => CallEstimate::cost(one),
        "kubernetes.NamedFormat" => CallEstimate::cost(
            CostEstimate {
                min: 1,
                max: FORMAT_NAME,
            }
            .times(TRAVERSAL),
        ),
        "kubernetes.URL" => {
            // Kubernetes takes both sizes from the right-hand side.
            let max = rhs.computed.map_or(1, |s| s.max);
            CallEstimate::cost(CostEstimate { min: 1, max }.times(TRAVERSAL))
        }
        _ => None,
    }
}

/// cel-go's type name, which Kubernetes compares types by.
fn type_name(t: &Type) -> String {
    match t {
        Type::List(_) => "list".to_string(),
        Type::Map(..) => "map".to_string(),
        Type::Opaque(name, _) | Type::Object(name) => name.clone(),
        Type::Type(_) => "type".to_string(),
        other => other.to_string(),
    }
}

/// What Kubernetes' estimators see of a list's element: the type's first parameter, with
/// the list's path and "@items" when it has one.
fn element_node<'e>(list: &Node<'e>) -> Option<Node<'e>> {
    let ty = match &list.ty {
        Type::List(e) => (**e).clone(),
        Type::Map(k, _) => (**k).clone(),
        Type::Type(Some(t)) => (**t).clone(),
        Type::Opaque(_, ps) => ps.first()?.clone(),
        _ => return None,
    };
    let path = if list.path.is_nil() {
        Path::nil()
    } else {
        let mut elements = list.path.elements();
        elements.push("@items".to_string());
        Path::fresh(elements)
    };
    Some(Node {
        expr: None,
        path,
        ty,
        computed: None,
    })
}

/// Kubernetes' estimate of a field or label selector's parse.
fn selector_cost(length: SizeEstimate) -> CostEstimate {
    const PER_REQUIREMENT: f64 = 50.0;
    let parse = length.times(TRAVERSAL);
    let requirements = length.times(0.5).times(PER_REQUIREMENT);
    CostEstimate::fixed(10).add(parse).add(requirements)
}

/// The size of `s.replace(from, to)`: at most as many replacements as `from` fits in `s`.
fn replaced_size(s: SizeEstimate, from: SizeEstimate, to: SizeEstimate) -> SizeEstimate {
    let (mut count, mut kept) = (SizeEstimate::fixed(0), SizeEstimate::fixed(0));
    if from.min == 0 {
        count.max = if s.max < u64::MAX { s.max + 1 } else { s.max };
        kept.max = s.max;
    } else if to.max <= from.min {
        kept.max = s.max;
    } else {
        count.max = go_float_to_u64((s.max as f64 / from.min as f64).ceil());
    }
    if from.max == 0 {
        count.min = if s.min < u64::MAX { s.min + 1 } else { s.min };
        kept.min = s.min;
    } else if from.max <= to.min {
        kept.min = s.min;
    } else {
        count.min = go_float_to_u64((s.min as f64 / from.max as f64).ceil());
    }
    count.multiply(to).add(kept)
}

/// Go's float64 to uint64 conversion as amd64 performs it, out-of-range values included
/// (2⁶⁴ becomes 2⁶³).
fn go_float_to_u64(x: f64) -> u64 {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    let signed = |v: f64| {
        if (-TWO_63..TWO_63).contains(&v) {
            v as i64 as u64
        } else {
            1 << 63
        }
    };
    if x < TWO_63 {
        signed(x)
    } else {
        signed(x - TWO_63) | (1 << 63)
    }
}
