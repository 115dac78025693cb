//! A custom resource's `x-kubernetes-validations` rules (CEL), as a 1.37 API server runs
//! them when it validates a create or an update (apiextensions-apiserver v0.37.2
//! `schema/cel`): the rules of each schema node run with `self` bound to the node's value
//! (typed by the schema) and, for transition rules, `oldSelf` bound to the value the update
//! replaces; a false rule is a field error with its message, reason and field path. The
//! language is the `smd-cel` crate's; the Kubernetes libraries (quantity, IP, CIDR, URL,
//! semver, format) are registered from here.
//!
//! | module | what |
//! |---|---|
//! | `schema.rs` | [`RuleNode`](schema::RuleNode): the schema as rules see it, with its rules |
//! | `program.rs` | one rule: parsed, its message, reason and field path |
//! | `values.rs` | JSON values as CEL values, typed by the schema |
//! | `validator.rs` | the walk over an object, errors, ratcheting, cost budget |
//! | `library/` | the Kubernetes libraries: quantity, IP, CIDR, URL, semver, format |

mod library;
mod program;
mod schema;
mod validator;
mod values;

use std::sync::OnceLock;

use smd_cel::Functions;
use smd_fieldpath::Value;

use crate::customresource::validation::Node;
use schema::RuleNode;
pub(crate) use validator::Verdict;

/// One served version's rules.
#[derive(Debug)]
pub(crate) struct Rules {
    root: RuleNode,
}

impl Rules {
    /// The rules of `schema` (a version's `openAPIV3Schema`), `None` when it has none.
    pub(crate) fn read(schema: &Value) -> Option<Rules> {
        let root = RuleNode::read(schema);
        root.has_rules.then_some(Rules { root })
    }

    /// What the rules say of `object`, created, or replacing `old`; `schema` is the value
    /// validator's tree of the same schema (ratcheting compares through it).
    pub(crate) fn check(
        &self,
        schema: Option<&Node>,
        object: &Value,
        old: Option<&Value>,
    ) -> Verdict {
        validator::Run::object(functions(), &self.root, schema, object, old)
    }
}

/// The functions of the server's CEL environment.
pub(crate) fn functions() -> &'static Functions {
    static FUNCTIONS: OnceLock<Functions> = OnceLock::new();
    FUNCTIONS.get_or_init(library::kubernetes_functions)
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests;
