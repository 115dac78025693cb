//! The estimated cost limits the API server puts on a CRD's `x-kubernetes-validations`
//! (apiextensions-apiserver v0.37.2 `validation.go` and `cel_validation.go`, with the sizes of
//! apiserver's `SchemaDeclType`).
//!
//! A rule's cost is cel-go's estimate (its `max`) times the number of times its node can occur
//! in one object (its cardinality); more than 10,000,000 is refused, as is a message expression
//! costing more (not multiplied: the server does not). Every cost also counts towards the
//! schema's total, refused above 100,000,000 together with its (at most four) largest parts.
//! The estimator asks how large a value reached from `self` can be; the answers come from the
//! schema (`maxItems`, `maxProperties`, `maxLength`, formats, enums) or, where it sets no
//! bound, from the largest request the server accepts and the value's smallest JSON form.

mod sizes;

use smd_cel::ast::Parsed;
use smd_cel::check::Checked;
use smd_cel::estimate_cost;

use super::validate::FieldError;
pub(crate) use sizes::{Sizes, children_per_value};

/// The largest estimated cost of one rule or message expression.
const EXPRESSION_LIMIT: u64 = 10_000_000;
/// The largest estimated cost of all the rules of one version's schema.
const TOTAL_LIMIT: u64 = 100_000_000;
/// The estimated costs of one version's rules, and the errors for those over the limits.
#[derive(Debug, Default)]
pub(crate) struct Budget {
    total: u64,
    /// The (at most four) largest costs of at least 1% of the total's limit, largest first;
    /// among equal costs the first seen.
    largest: Vec<(u64, String, String)>,
}

/// What a rule is costed as: `rule` (times its node's cardinality) or `messageExpression`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    Rule,
    MessageExpression,
}

impl Budget {
    /// Counts one expression whose estimated cost is `estimate`, of a node whose sizes are
    /// `sizes` and which can occur `cardinality` times (`None`: unbounded), at `at`
    /// (`...x-kubernetes-validations[i]`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn observe(
        &mut self,
        estimate: u64,
        sizes: &Sizes,
        cardinality: Option<u64>,
        part: Part,
        at: &str,
        pointer: &str,
        out: &mut Vec<FieldError>,
    ) {
        let (cost, name, field) = match part {
            Part::Rule => {
                let times_seen = cardinality.unwrap_or_else(|| sizes.fitting_in_request());
                (
                    estimate.saturating_mul(times_seen),
                    "estimated rule cost",
                    "rule",
                )
            }
            Part::MessageExpression => (
                estimate,
                "estimated messageExpression cost",
                "messageExpression",
            ),
        };
        let path = format!("{at}.{field}");
        if cost > EXPRESSION_LIMIT {
            out.push(FieldError {
                go_text: format!(
                    "{path}: Forbidden: {}",
                    over_budget(name, cost, EXPRESSION_LIMIT)
                ),
                pointer: pointer.to_owned(),
            });
        }
        self.total = self.total.saturating_add(cost);
        if cost >= TOTAL_LIMIT / 100 {
            let place = self.largest.partition_point(|(c, _, _)| *c >= cost);
            self.largest.insert(place, (cost, path, pointer.to_owned()));
            self.largest.truncate(4);
        }
    }

    /// The errors of a schema (at `path`) whose rules cost more than the limit in total.
    pub(crate) fn finish(self, path: &str, pointer: &str, out: &mut Vec<FieldError>) {
        if self.total <= TOTAL_LIMIT {
            return;
        }
        for (_, at, pointer) in self.largest {
            out.push(FieldError {
                go_text: format!(
                    "{at}: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"
                ),
                pointer,
            });
        }
        let what = "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema";
        out.push(FieldError {
            go_text: format!(
                "{path}: Forbidden: {}",
                over_budget(what, self.total, TOTAL_LIMIT)
            ),
            pointer: pointer.to_owned(),
        });
    }
}

/// The largest cost cel-go estimates for an expression over values of these sizes.
pub(crate) fn estimate(parsed: &Parsed, checked: &Checked, sizes: &Sizes) -> u64 {
    estimate_cost(parsed, checked, sizes).max
}

/// The server's words for a cost over its limit; the factor as Go's `%f` or `%.1f` writes it.
fn over_budget(what: &str, cost: u64, limit: u64) -> String {
    // As Go: both converted to float64 before dividing.
    let factor = cost as f64 / limit as f64;
    let factor = if factor > 100.0 {
        "more than 100x".to_owned()
    } else if factor < 1.5 {
        format!("{factor:.6}x")
    } else {
        format!("{factor:.1}x")
    };
    format!(
        "{what} exceeds budget by factor of {factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
    )
}

#[cfg(test)]
mod tests;
