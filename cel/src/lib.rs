//! The Common Expression Language (CEL) as a Kubernetes 1.37 API server runs it for a CRD's
//! `x-kubernetes-validations` rules: cel-go v0.29.2's language, standard library and the
//! extensions the server's environment turns on (strings v2, sets, lists v3, two-variable
//! comprehensions, optional types). The Kubernetes libraries (quantity, IP, CIDR, URL, semver,
//! format, regex, lists) and the schema's types live with the CRD code in `smd`, which
//! registers them here as functions.
//!
//! | module | what |
//! |---|---|
//! | [`ast`] | the parsed expression: cel-go's node kinds, ids and source offsets |
//! | [`parse`](mod@parse) | text to [`ast::Parsed`] as cel-go's parser makes it, or cel-go's errors |
//! | [`debug`] | a tree printed as cel-go's `debug.ToDebugString` prints it |

pub mod ast;
pub mod debug;
pub mod parse;

pub use parse::parse;
