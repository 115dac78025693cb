//! The type checker: cel-go v0.29.2's `checker.Check` in the Kubernetes 1.37 environment
//! for CRD validation rules (the standard declarations, the extensions and Kubernetes
//! libraries the base environment has, cross-type numeric comparisons, optional types),
//! followed by the environment's AST validators (literals, homogeneous aggregate literals,
//! then the strings extension's literal format strings). Errors print as
//! cel-go prints a compile's issues.
//!
//! | module | what |
//! |---|---|
//! | `types` | the checker's types, their printing, assignability and type-parameter bindings |
//! | `decls` | the declared functions, as data generated from cel-go's environment |
//! | `checker` | the walk typing every node |
//! | `escape` | a schema property's name as a rule writes it |
//! | `validate` | the AST validators the environment runs after a successful check |
//! | `format` | the strings extension's validator of literal format strings, run after those |
//! | `estimate` | the static cost estimate the API server refuses a rule by |

mod checker;
mod decls;
mod escape;
mod estimate;
mod format;
mod types;
mod validate;

pub use decls::{OverloadDecl, declarations};
pub use escape::escape_property;
pub use estimate::{CostEstimate, SizeEstimate, SizeEstimator, estimate_cost};
pub use types::Type;

use crate::ast::{ExprId, Parsed};
use crate::parse::{Location, ParseError, ParseErrors};
use std::collections::{BTreeSet, HashMap};
use std::fmt;

/// What names mean to the checker: the variables, and the fields of object types.
#[derive(Debug, Clone, Default)]
pub struct Env {
    variables: HashMap<String, Type>,
    objects: HashMap<String, HashMap<String, Type>>,
    schema_types: bool,
}

impl Env {
    /// No variables.
    pub fn new() -> Env {
        Env::default()
    }

    /// Declares a variable.
    pub fn variable(mut self, name: &str, t: Type) -> Env {
        self.variables.insert(name.to_string(), t);
        self
    }

    /// Declares an object type ([`Type::Object`] of that name) and its fields.
    pub fn object(mut self, name: &str, fields: impl IntoIterator<Item = (String, Type)>) -> Env {
        self.objects
            .insert(name.to_string(), fields.into_iter().collect());
        self
    }

    /// Names types as the API server's schema type provider (apiserver's `DeclTypeProvider`,
    /// which compiles a CRD's rules) does: besides the standard names, `duration` and
    /// `timestamp` are the types of those values.
    pub fn schema_types(mut self) -> Env {
        self.schema_types = true;
        self
    }

    fn field_type(&self, object: &str, field: &str) -> Option<&Type> {
        self.objects.get(object)?.get(field)
    }
}

/// A checked expression's types.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The expression's type (free type parameters as `dyn`).
    pub output: Type,
    /// Every node's type, by id.
    pub types: HashMap<ExprId, Type>,
    /// The names its identifiers resolve to, variables and comprehension variables alike
    /// (the names of cel-go's reference map, which the API server searches for `oldSelf`).
    pub variables: BTreeSet<String>,
    /// Type names the checker resolved through the schema type provider ([`Env::schema_types`])
    /// that cel-go's planner cannot make values of: a program naming one fails to instantiate
    /// (`reference to undefined type: duration`), in the order checked.
    pub undefined_types: Vec<String>,
    /// The overload ids each call node resolved to, in declaration order (cel-go's reference
    /// map; a call with dynamic arguments may match several).
    pub overloads: HashMap<ExprId, Vec<String>>,
    /// The nodes cel-go's checker rewrites, with the name they take: a selection chain that
    /// names a variable or type becomes that identifier; a member call on a namespace
    /// (`strings.quote(s)`) becomes a global call of the qualified function, without target.
    pub rewritten: HashMap<ExprId, String>,
}

/// One checker error before it has a place.
#[derive(Debug, Clone)]
struct Issue {
    id: ExprId,
    message: String,
}

/// The errors of an expression the checker refused, printed as cel-go prints them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct CheckErrors(ParseErrors);

impl CheckErrors {
    /// The errors, sorted by position.
    pub fn errors(&self) -> &[ParseError] {
        self.0.errors()
    }
}

impl fmt::Display for CheckErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Checks a parsed expression in `env` as a Kubernetes 1.37 API server compiles a rule:
/// its type, or every error cel-go reports.
pub fn check_types(parsed: &Parsed, env: &Env) -> Result<Checked, CheckErrors> {
    let mut c = checker::Checker::new(env);
    c.check(&parsed.expr);
    let types: HashMap<ExprId, Type> = c
        .types
        .iter()
        .map(|(id, t)| (*id, c.mapping.substitute(t, true)))
        .collect();
    let mut issues = std::mem::take(&mut c.issues);
    if issues.is_empty() {
        issues = validate::validate(&parsed.expr, &types);
        issues.extend(format::validate(&parsed.expr, &types, &c.overloads));
    }
    if !issues.is_empty() {
        let errors = issues
            .into_iter()
            .map(|i| ParseError {
                location: location(parsed, i.id),
                message: i.message,
            })
            .collect();
        return Err(CheckErrors(ParseErrors::new(errors, &parsed.source.text)));
    }
    let output = types.get(&parsed.expr.id).cloned().unwrap_or(Type::Error);
    Ok(Checked {
        output,
        types,
        variables: std::mem::take(&mut c.used),
        undefined_types: std::mem::take(&mut c.unplannable),
        overloads: std::mem::take(&mut c.overloads),
        rewritten: std::mem::take(&mut c.rewritten),
    })
}

/// A node's line and column, as cel-go's source info computes them from its offset.
fn location(parsed: &Parsed, id: ExprId) -> Location {
    let Some(&offset) = parsed.source.offsets.get(&id) else {
        return Location::NONE;
    };
    let (mut line, mut column) = (1i64, 0i64);
    for c in parsed.source.text.chars().take(offset) {
        if c == '\n' {
            line += 1;
            column = 0;
        } else {
            column += 1;
        }
    }
    Location { line, column }
}
