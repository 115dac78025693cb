//! The static cost estimate a Kubernetes 1.37 API server computes for a CRD rule before it
//! accepts it: cel-go v0.29.2's `checker.Cost` with the environment's options (a presence
//! test costs nothing; the lists-extension and sets overload estimators) and Kubernetes'
//! `library.CostEstimator` for the library calls, asking the caller's [`SizeEstimator`] for
//! the sizes of what a rule reads.
//!
//! | module | what |
//! |---|---|
//! | `path` | field paths with Go's slice sharing, which cel-go's paths inherit |
//! | `walk` | the walk: each node's cost, comprehension scopes |
//! | `sizes` | the sizes the walk tracks: of nodes, of containers' entries |
//! | `standard` | calls: arguments, resolved overloads, cel-go's own costs of the standard ones |
//! | `kubernetes` | Kubernetes' call estimates (`library.CostEstimator.EstimateCallCost`) |
//! | `extensions` | the lists extension's and sets' overload estimators |
//!
//! All arithmetic saturates at `u64::MAX`, as cel-go's does.

mod extensions;
mod kubernetes;
mod path;
mod sizes;
mod standard;
mod walk;

use super::{Checked, Type};
use crate::ast::{Expr, Parsed};
use path::Path;

/// A range of sizes (string length in code points, list or map elements) or costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeEstimate {
    /// The smallest.
    pub min: u64,
    /// The largest.
    pub max: u64,
}

/// An expression's estimated cost range, as cel-go's CostEstimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CostEstimate {
    /// The least it costs.
    pub min: u64,
    /// The most it costs.
    pub max: u64,
}

/// What the caller knows of sizes: cel-go's SizeEstimator.EstimateSize, asked for a node that
/// has a path (cel-go's AstNode.Path(): a variable name, then field names, "@items", "@keys",
/// "@values"). None: unknown (cel-go then uses its defaults).
pub trait SizeEstimator {
    /// The size range of what `path` reaches, if known.
    fn estimate_size(&self, path: &[String]) -> Option<SizeEstimate>;
}

/// cel-go's EstimateCost of a checked expression, with the Kubernetes library's call estimates.
pub fn estimate_cost(
    parsed: &Parsed,
    checked: &Checked,
    sizes: &dyn SizeEstimator,
) -> CostEstimate {
    walk::Coster::new(checked, sizes).cost(&parsed.expr)
}

const UNKNOWN_SIZE: SizeEstimate = SizeEstimate {
    min: 0,
    max: u64::MAX,
};

/// cel-go's traversal cost per character or element.
const TRAVERSAL: f64 = 0.1;
/// cel-go's guess of a regular expression's cost per character of its text.
const REGEX_PER_CHAR: f64 = 0.25;
const LIST_CREATE: u64 = 10;
const MAP_CREATE: u64 = 30;
const STRUCT_CREATE: u64 = 40;

/// `x × factor` rounded up, saturating (cel-go's multiplyByCostFactor).
fn times(x: u64, factor: f64) -> u64 {
    let xf = x as f64;
    if xf > 0.0 && factor > 0.0 && xf > u64::MAX as f64 / factor {
        return u64::MAX;
    }
    let product = (xf * factor).ceil();
    if product >= 18_446_744_073_709_551_616.0 {
        u64::MAX
    } else {
        product as u64
    }
}

impl SizeEstimate {
    /// `[n, n]`.
    pub const fn fixed(n: u64) -> SizeEstimate {
        SizeEstimate { min: n, max: n }
    }
    fn add(self, o: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: self.min.saturating_add(o.min),
            max: self.max.saturating_add(o.max),
        }
    }
    fn multiply(self, o: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: self.min.saturating_mul(o.min),
            max: self.max.saturating_mul(o.max),
        }
    }
    fn times(self, factor: f64) -> CostEstimate {
        CostEstimate {
            min: times(self.min, factor),
            max: times(self.max, factor),
        }
    }
    fn times_cost(self, c: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_mul(c.min),
            max: self.max.saturating_mul(c.max),
        }
    }
    fn union(self, o: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }
    fn as_cost(self) -> CostEstimate {
        self.times(1.0)
    }
}

impl CostEstimate {
    /// `[n, n]`.
    pub const fn fixed(n: u64) -> CostEstimate {
        CostEstimate { min: n, max: n }
    }
    fn add(self, o: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_add(o.min),
            max: self.max.saturating_add(o.max),
        }
    }
    fn multiply(self, o: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_mul(o.min),
            max: self.max.saturating_mul(o.max),
        }
    }
    fn times(self, factor: f64) -> CostEstimate {
        CostEstimate {
            min: times(self.min, factor),
            max: times(self.max, factor),
        }
    }
    fn union(self, o: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }
}

/// A call's estimate: its cost (arguments excluded) and, for a string, bytes, list or map
/// result, its size.
#[derive(Debug, Clone, Copy)]
struct CallEstimate {
    cost: CostEstimate,
    size: Option<SizeEstimate>,
}

impl CallEstimate {
    fn cost(cost: CostEstimate) -> Option<CallEstimate> {
        Some(CallEstimate { cost, size: None })
    }
    fn sized(cost: CostEstimate, size: SizeEstimate) -> Option<CallEstimate> {
        Some(CallEstimate {
            cost,
            size: Some(size),
        })
    }
}

/// What an estimator sees of an argument or target: cel-go's AstNode.
struct Node<'e> {
    /// None for the element of a list (Kubernetes' itemsNode).
    expr: Option<&'e Expr>,
    path: Path,
    ty: Type,
    /// The size cel-go derived from the expression itself (ComputedSize).
    computed: Option<SizeEstimate>,
}
