//! The function declarations of the Kubernetes 1.37 CEL environment, as data: one row per
//! overload (function name, overload id, member or global, result and parameter types), as
//! `gogen celcheck` reads them from cel-go's environment into `declarations.txt`. The
//! interpreter's registry ([`crate::Functions`]) uses the same function names and overload ids.

use super::types::Type;
use std::collections::HashMap;
use std::sync::OnceLock;

/// One overload of a declared function.
#[derive(Debug, Clone, PartialEq)]
pub struct OverloadDecl {
    /// cel-go's overload id (`add_int64`).
    pub id: String,
    /// Called as `target.name(args)`, the target being the first parameter.
    pub member: bool,
    /// The parameter types, target first for a member overload.
    pub params: Vec<Type>,
    /// The result type.
    pub result: Type,
    /// The names of the type parameters the overload's types use.
    pub type_params: Vec<String>,
}

const DECLARATIONS: &str = include_str!("declarations.txt");

/// Every declared function by name, its overloads in declaration order (the order cel-go
/// tries them in).
pub fn declarations() -> &'static HashMap<String, Vec<OverloadDecl>> {
    static TABLE: OnceLock<HashMap<String, Vec<OverloadDecl>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: HashMap<String, Vec<OverloadDecl>> = HashMap::new();
        for line in DECLARATIONS.lines() {
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            if let Some((name, decl)) = parse_row(line) {
                let overloads = table.entry(name.to_string()).or_default();
                // cel-go's declaration merges a repeated overload id into one.
                if !overloads.iter().any(|o| o.id == decl.id) {
                    overloads.push(decl);
                }
            }
        }
        table
    })
}

fn parse_row(line: &str) -> Option<(&str, OverloadDecl)> {
    let mut fields = line.split('\t');
    let name = fields.next()?;
    let id = fields.next()?.to_string();
    let member = fields.next()? == "member";
    let result = Type::parse_decl(fields.next()?)?;
    let params = fields.map(Type::parse_decl).collect::<Option<Vec<_>>>()?;
    let mut type_params = Vec::new();
    for t in params.iter().chain(std::iter::once(&result)) {
        collect_params(t, &mut type_params);
    }
    Some((
        name,
        OverloadDecl {
            id,
            member,
            params,
            result,
            type_params,
        },
    ))
}

fn collect_params(t: &Type, out: &mut Vec<String>) {
    match t {
        Type::Param(n) if !out.contains(n) => out.push(n.clone()),
        Type::List(e) => collect_params(e, out),
        Type::Map(k, v) => {
            collect_params(k, out);
            collect_params(v, out);
        }
        Type::Type(Some(p)) => collect_params(p, out),
        Type::Opaque(_, ps) => ps.iter().for_each(|p| collect_params(p, out)),
        _ => {}
    }
}
