//! The core (`""`) group's strategy validation (k8s.io/kubernetes v1.37.2 `pkg/apis/core/validation`).

use super::Rules;

/// The rules of `kind`, if smd holds them.
pub(super) fn rules(kind: &str) -> Option<Rules> {
    let _ = kind;
    None
}
