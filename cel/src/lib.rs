//! The Common Expression Language (CEL) as a Kubernetes 1.37 API server runs it for a CRD's
//! `x-kubernetes-validations` rules: cel-go v0.29.2's language, standard library and the
//! extensions the server's environment turns on (strings v2, sets, lists v3, two-variable
//! comprehensions, optional types). The Kubernetes libraries (quantity, IP, CIDR, URL, semver,
//! format) and the schema's types live with the CRD code in `smd`, which registers them here as
//! functions ([`library::Functions::add`]) and presents objects as [`value::HostMap`]s.
//!
//! | module | what |
//! |---|---|
//! | [`ast`] | the parsed expression: cel-go's node kinds, ids and source offsets |
//! | [`value`] | values: shared aggregates, host lists and maps, library (opaque) types, equality and ordering |
//! | [`time`] | durations and timestamps: parsing, formatting, civil fields |
//! | [`eval`] | the interpreter: activation, errors as values, comprehensions, actual cost and its limit |
//! | [`library`] | the function registry and dynamic dispatch; the standard library and extensions |
//! | [`error`] | evaluation errors with cel-go's texts |
//! | [`parse`](mod@parse) | text to [`ast::Parsed`] as cel-go's parser makes it, or cel-go's errors |
//! | [`check`](mod@check) | the type checker: types of nodes, or cel-go's compile errors |
//! | [`debug`] | a tree printed as cel-go's `debug.ToDebugString` prints it |

#![deny(missing_docs)]

pub mod ast;
pub mod check;
pub mod debug;
pub mod error;
pub mod eval;
pub mod library;
pub mod parse;
pub mod time;
pub mod value;

pub use check::{CostEstimate, SizeEstimate, SizeEstimator, check_types, estimate_cost};
pub use error::Error;
pub use eval::{Activation, MAX_LOOP_STEPS, Outcome, check, evaluate, evaluate_bounded};
pub use library::Functions;
pub use parse::parse;
pub use value::Value;
