//! The Kubernetes CEL libraries a 1.37 API server's CRD validation environment has beyond
//! `smd-cel`'s own (which holds the standard library, the extensions and `library.Lists` and
//! `library.Regex`): quantity, IP, CIDR, URL, semver (version 1) and format, as
//! `k8s.io/apiserver` v0.37.2's `pkg/cel/library` registers them, with cel-go's overload ids,
//! Go's error texts and the runtime costs of `library/cost.go`.
//!
//! | module | what |
//! |---|---|
//! | `quantity` | `quantity`, `isQuantity`, arithmetic and comparison over Go's representation |
//! | `ip` | `ip`, `isIP`, `ip.isCanonical`, `family`, the address class tests; `netip` parsing |
//! | `cidr` | `cidr`, `isCIDR`, `containsIP`, `containsCIDR`, `ip`, `masked`, `prefixLength` |
//! | `url` | `url`, `isURL`, the accessors; `net/url`'s `ParseRequestURI` and `Parse` |
//! | `semver` | `semver`, `isSemver` (both with `normalize`), parts, comparison |
//! | `format` | `format.<name>()`, `format.named`, `validate` |

mod cidr;
mod format;
mod ip;
mod quantity;
mod semver;
mod url;

#[cfg(test)]
#[allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]
mod corpus;
#[cfg(test)]
mod tests;

use smd_cel::Functions;
use smd_cel::Value;
use smd_cel::error::Result;
use smd_cel::library::CostFn;
use std::sync::Arc;

/// Registers the libraries' functions.
pub(crate) fn register(f: &mut Functions) {
    quantity::register(f);
    ip::register(f);
    cidr::register(f);
    url::register(f);
    semver::register(f);
    format::register(f);
}

/// The functions of a 1.37 API server's CRD validation environment: `smd-cel`'s and these.
pub(crate) fn kubernetes_functions() -> Functions {
    let mut f = Functions::kubernetes();
    register(&mut f);
    f
}

/// `library/cost.go`'s cost of a string parse: the first argument's length times `factor`
/// times cel-go's 0.1 per character, rounded up in floating point as Go computes it (so
/// `30 × 0.1` costs 4).
fn traversal_cost(factor: u32) -> CostFn {
    Arc::new(move |a: &[Value], _: &Result<Value>| {
        let n = a.first().map_or(1, Value::cost_size) as f64;
        (n * f64::from(factor) * 0.1).ceil() as u64
    })
}

/// What `string(x)` answers for a library value: the IP's or CIDR's text (cel-go converts those
/// two; the other library types have no conversion to string).
#[cfg(test)]
pub(crate) fn convert_to_string(v: &Value) -> Option<String> {
    if let Some(ip) = ip::as_ip(v) {
        return Some(ip.0.to_string());
    }
    cidr::as_cidr(v).map(|c| c.0.to_string())
}
