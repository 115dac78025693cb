//! The walk over a parsed expression that gives every node a type, as cel-go's
//! `checker.Check` does: identifiers from the environment and comprehension scopes, field
//! selection, overload resolution with type parameters, aggregate literals and comprehensions.

use super::decls::{OverloadDecl, declarations};
use super::types::{Mapping, Type, most_general};
use super::{Env, Issue};
use crate::ast::{Comprehension, Expr, ExprId, ExprKind, Literal, MapEntry, StructField};
use std::collections::HashMap;

pub(super) struct Checker<'a> {
    env: &'a Env,
    scopes: Vec<(String, Type)>,
    pub(super) types: HashMap<ExprId, Type>,
    pub(super) mapping: Mapping,
    pub(super) issues: Vec<Issue>,
    /// The names identifiers resolved to (variables and comprehension variables).
    pub(super) used: std::collections::BTreeSet<String>,
    /// Type names only the schema type provider resolves, in the order checked.
    pub(super) unplannable: Vec<String>,
    /// Member calls resolved as namespaced functions.
    qualified: std::collections::HashSet<ExprId>,
    /// The overload ids each resolved call matched (cel-go's reference map).
    pub(super) overloads: HashMap<ExprId, Vec<String>>,
    /// Nodes cel-go rewrites while checking, with the name they take: selections resolved as
    /// a qualified identifier, member calls resolved as a namespaced function.
    pub(super) rewritten: HashMap<ExprId, String>,
    fresh: usize,
}

/// Names that denote types when used as values.
fn type_ident(name: &str) -> Option<Type> {
    Some(match name {
        "int" => Type::Int,
        "uint" => Type::Uint,
        "double" => Type::Double,
        "string" => Type::String,
        "bytes" => Type::Bytes,
        "bool" => Type::Bool,
        "null_type" => Type::Null,
        "list" => Type::list(Type::Dyn),
        "map" => Type::map(Type::Dyn, Type::Dyn),
        "type" => Type::Type(None),
        "optional_type" => Type::optional(Type::Dyn),
        "google.protobuf.Duration" => Type::Duration,
        "google.protobuf.Timestamp" => Type::Timestamp,
        _ => return None,
    })
}

impl<'a> Checker<'a> {
    pub(super) fn new(env: &'a Env) -> Checker<'a> {
        Checker {
            env,
            scopes: Vec::new(),
            types: HashMap::new(),
            mapping: Mapping::default(),
            issues: Vec::new(),
            used: Default::default(),
            unplannable: Vec::new(),
            qualified: Default::default(),
            overloads: HashMap::new(),
            rewritten: HashMap::new(),
            fresh: 0,
        }
    }

    fn error(&mut self, id: ExprId, message: String) {
        self.issues.push(Issue { id, message });
    }

    fn set(&mut self, e: &Expr, t: Type) {
        self.types.insert(e.id, t);
    }

    pub(super) fn type_of(&self, id: ExprId) -> Type {
        self.types.get(&id).cloned().unwrap_or(Type::Error)
    }

    fn lookup(&mut self, name: &str) -> Option<Type> {
        if let Some((_, t)) = self.scopes.iter().rev().find(|(n, _)| n == name) {
            let t = t.clone();
            self.used.insert(name.to_string());
            return Some(t);
        }
        if let Some(t) = self.env.variables.get(name) {
            self.used.insert(name.to_string());
            return Some(t.clone());
        }
        let named = match name {
            "duration" if self.env.schema_types => Some(Type::Duration),
            "timestamp" if self.env.schema_types => Some(Type::Timestamp),
            _ => return type_ident(name).map(|t| Type::Type(Some(Box::new(t)))),
        };
        self.unplannable.push(name.to_string());
        named.map(|t| Type::Type(Some(Box::new(t))))
    }

    fn undeclared(&mut self, id: ExprId, name: &str) {
        self.error(
            id,
            format!("undeclared reference to '{name}' (in container '')"),
        );
    }

    /// Types `e` and the nodes below it. Each kind has its own function, so that the frame
    /// of this one, which every level of a deep tree holds, stays small.
    pub(super) fn check(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Literal(l) => self.set(e, literal_type(l)),
            ExprKind::Ident(name) => self.check_ident(e, name),
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => self.check_select(e, operand, field, *test_only),
            ExprKind::Call {
                target,
                function,
                args,
            } => self.check_call(e, target.as_deref(), function, args),
            ExprKind::List {
                elements,
                optional_indices,
            } => self.check_list(e, elements, optional_indices),
            ExprKind::Map { entries } => self.check_map(e, entries),
            ExprKind::Struct { type_name, fields } => self.check_struct(e, type_name, fields),
            ExprKind::Comprehension(c) => self.check_comprehension(e, c),
        }
    }

    #[inline(never)]
    fn check_ident(&mut self, e: &Expr, name: &str) {
        match self.lookup(name) {
            Some(t) => self.set(e, t),
            None => {
                self.set(e, Type::Error);
                self.undeclared(e.id, name);
            }
        }
    }

    #[inline(never)]
    fn check_select(&mut self, e: &Expr, operand: &Expr, field: &str, test_only: bool) {
        if !test_only
            && let Some(name) = qualified_name(e)
            && let Some(t) = self.lookup_qualified(&name)
        {
            self.set(e, t);
            self.rewritten.insert(e.id, name);
            return;
        }
        let t = self.select_field(e.id, operand, field, false);
        let t = if test_only { Type::Bool } else { t };
        let t = self.mapping.substitute(&t, false);
        self.set(e, t);
    }

    #[inline(never)]
    fn check_list(&mut self, e: &Expr, elements: &[Expr], optional_indices: &[usize]) {
        let mut elem: Option<Type> = None;
        for (i, el) in elements.iter().enumerate() {
            self.check(el);
            let mut t = self.type_of(el.id);
            if optional_indices.contains(&i) {
                t = self.unwrap_optional_entry(el.id, t);
            }
            elem = Some(self.join(elem, t));
        }
        let elem = elem.unwrap_or_else(|| self.fresh_var());
        self.set(e, Type::list(elem));
    }

    #[inline(never)]
    fn check_map(&mut self, e: &Expr, entries: &[MapEntry]) {
        let (mut key, mut value): (Option<Type>, Option<Type>) = (None, None);
        for entry in entries {
            self.check(&entry.key);
            let kt = self.type_of(entry.key.id);
            key = Some(self.join(key, kt));
            self.check(&entry.value);
            let mut vt = self.type_of(entry.value.id);
            if entry.optional {
                vt = self.unwrap_optional_entry(entry.value.id, vt);
            }
            value = Some(self.join(value, vt));
        }
        let t = match (key, value) {
            (Some(k), Some(v)) => Type::map(k, v),
            _ => Type::map(self.fresh_var(), self.fresh_var()),
        };
        self.set(e, t);
    }

    #[inline(never)]
    fn check_struct(&mut self, e: &Expr, type_name: &str, fields: &[StructField]) {
        for f in fields {
            self.check(&f.value);
        }
        self.set(e, Type::Error);
        self.undeclared(e.id, type_name);
    }

    fn lookup_qualified(&self, name: &str) -> Option<Type> {
        if let Some(t) = self.env.variables.get(name) {
            return Some(t.clone());
        }
        type_ident(name).map(|t| Type::Type(Some(Box::new(t))))
    }

    fn unwrap_optional_entry(&mut self, id: ExprId, t: Type) -> Type {
        match t.unwrap_optional() {
            Some(inner) => inner.clone(),
            None => {
                if !t.is_dyn() {
                    self.error(
                        id,
                        format!(
                            "expected type '{}' but found '{t}'",
                            Type::optional(t.clone())
                        ),
                    );
                }
                t
            }
        }
    }

    fn join(&mut self, previous: Option<Type>, current: Type) -> Type {
        let Some(previous) = previous else {
            return current;
        };
        if self.mapping.assignable(&previous, &current) {
            return most_general(&previous, &current);
        }
        // The environment's checker joins mixed elements as dyn; its homogeneous-literal
        // validator refuses them afterwards, except inside `format` calls.
        Type::Dyn
    }

    fn fresh_var(&mut self) -> Type {
        let t = Type::Param(format!("_var{}", self.fresh));
        self.fresh += 1;
        t
    }

    fn select_field(&mut self, id: ExprId, operand: &Expr, field: &str, optional: bool) -> Type {
        self.check(operand);
        let operand_type = self.mapping.substitute(&self.type_of(operand.id), false);
        let (target, is_opt) = match operand_type.unwrap_optional() {
            Some(t) => (t.clone(), true),
            None => (operand_type.clone(), false),
        };
        let result = match &target {
            Type::Map(_, v) => (**v).clone(),
            Type::Object(name) => match self.env.field_type(name, field) {
                Some(t) => t.clone(),
                None => {
                    self.error(id, format!("undefined field '{field}'"));
                    Type::Error
                }
            },
            Type::Param(_) => {
                self.mapping.assignable(&Type::Dyn, &target);
                Type::Dyn
            }
            other => {
                if !other.is_dyn_or_error() {
                    self.error(
                        id,
                        format!("type '{other}' does not support field selection"),
                    );
                }
                Type::Dyn
            }
        };
        if is_opt || optional {
            Type::optional(result)
        } else {
            result
        }
    }

    #[inline(never)]
    fn check_call(&mut self, e: &Expr, target: Option<&Expr>, function: &str, args: &[Expr]) {
        if function == "_?._" {
            return self.check_opt_select(e, target, args);
        }
        for a in args {
            self.check(a);
        }
        if let Some(t) = target
            && !self.resolve_qualified(e, t, function, args)
        {
            self.check(t);
        }
        self.resolve_call(e, target, function, args);
    }

    /// A member call on a qualified name that is a function's namespace (`strings.quote(s)`):
    /// resolved as that function, whether it was.
    #[inline(never)]
    fn resolve_qualified(
        &mut self,
        e: &Expr,
        target: &Expr,
        function: &str,
        args: &[Expr],
    ) -> bool {
        let Some(prefix) = qualified_name(target) else {
            return false;
        };
        let name = format!("{prefix}.{function}");
        match declarations().get(&name) {
            Some(overloads) => {
                self.resolve(e, &name, overloads, None, args);
                self.qualified.insert(e.id);
                self.rewritten.insert(e.id, name);
                true
            }
            None => false,
        }
    }

    #[inline(never)]
    fn resolve_call(&mut self, e: &Expr, target: Option<&Expr>, function: &str, args: &[Expr]) {
        if self.qualified.contains(&e.id) {
            return;
        }
        match declarations().get(function) {
            Some(overloads) => self.resolve(e, function, overloads, target, args),
            None => {
                self.set(e, Type::Error);
                self.undeclared(e.id, function);
            }
        }
    }

    fn check_opt_select(&mut self, e: &Expr, target: Option<&Expr>, args: &[Expr]) {
        let (Some(operand), Some(field), None, 2) = (args.first(), args.get(1), target, args.len())
        else {
            let member = if target.is_some() {
                " member call with"
            } else {
                ""
            };
            self.error(
                e.id,
                format!(
                    "unsupported optional field selection: incorrect signature.{member} argument count: {}",
                    args.len()
                ),
            );
            return;
        };
        let ExprKind::Literal(Literal::String(name)) = &field.kind else {
            self.error(field.id, "unsupported optional field selection".to_string());
            return;
        };
        let t = self.select_field(e.id, operand, name, true);
        let t = self.mapping.substitute(&t, false);
        self.set(e, t);
        self.overloads
            .insert(e.id, vec!["select_optional_field".to_string()]);
    }

    fn resolve(
        &mut self,
        e: &Expr,
        name: &str,
        overloads: &[OverloadDecl],
        target: Option<&Expr>,
        args: &[Expr],
    ) {
        let mut arg_types: Vec<Type> = target.iter().map(|t| self.type_of(t.id)).collect();
        arg_types.extend(args.iter().map(|a| self.type_of(a.id)));
        let mut result: Option<Type> = None;
        for o in overloads {
            if o.member != target.is_some() {
                continue;
            }
            if name == "_&&_" || name == "_||_" {
                let mut failed = false;
                for (i, t) in arg_types.iter().enumerate() {
                    if !self.mapping.assignable(t, &Type::Bool) {
                        let id = args.get(i).map_or(e.id, |a| a.id);
                        self.error(id, format!("expected type 'bool' but found '{t}'"));
                        failed = true;
                    }
                }
                let t = if failed { Type::Error } else { Type::Bool };
                self.set(e, t);
                if !failed {
                    self.overloads.insert(e.id, vec![o.id.clone()]);
                }
                return;
            }
            let mut fresh = Mapping::default();
            for p in &o.type_params {
                let v = self.fresh_var();
                fresh.bind(p, v);
            }
            let params: Vec<Type> = o
                .params
                .iter()
                .map(|p| fresh.substitute(p, false))
                .collect();
            let res = fresh.substitute(&o.result, false);
            if self.mapping.assignable_list(&arg_types, &params) {
                self.overloads.entry(e.id).or_default().push(o.id.clone());
                let t = self.mapping.substitute(&res, false);
                result = Some(match result {
                    None => t,
                    Some(r) if !r.is_dyn() && t != r => Type::Dyn,
                    Some(r) => r,
                });
            }
        }
        match result {
            Some(t) => self.set(e, t),
            None => {
                let shown: Vec<String> = arg_types
                    .iter()
                    .map(|t| self.mapping.substitute(t, true).to_string())
                    .collect();
                let signature = match target {
                    Some(_) => format!(
                        "{}.({})",
                        shown.first().map_or("", String::as_str),
                        shown.get(1..).unwrap_or_default().join(", ")
                    ),
                    None => format!("({})", shown.join(", ")),
                };
                self.error(
                    e.id,
                    format!("found no matching overload for '{name}' applied to '{signature}'"),
                );
                self.set(e, Type::Error);
            }
        }
    }

    #[inline(never)]
    fn check_comprehension(&mut self, e: &Expr, c: &Comprehension) {
        self.check(&c.iter_range);
        self.check(&c.accu_init);
        let range = self
            .mapping
            .substitute(&self.type_of(c.iter_range.id), false);
        let accu = self.type_of(c.accu_init.id);
        let two = !c.iter_var2.is_empty();
        let (var, var2) = match &range {
            Type::List(elem) if two => (Type::Int, (**elem).clone()),
            Type::List(elem) => ((**elem).clone(), Type::Error),
            Type::Map(k, v) => ((**k).clone(), (**v).clone()),
            Type::Dyn | Type::Error | Type::Param(_) => {
                self.mapping.assignable(&Type::Dyn, &range);
                (Type::Dyn, Type::Dyn)
            }
            other => {
                self.error(
                    c.iter_range.id,
                    format!(
                        "expression of type '{other}' cannot be range of a comprehension (must be list, map, or dynamic)"
                    ),
                );
                (Type::Error, Type::Error)
            }
        };
        let depth = self.scopes.len();
        self.scopes.push((c.accu_var.clone(), accu.clone()));
        self.scopes.push((c.iter_var.clone(), var));
        if two {
            self.scopes.push((c.iter_var2.clone(), var2));
        }
        self.check(&c.loop_condition);
        self.assert_type(&c.loop_condition, &Type::Bool);
        self.check(&c.loop_step);
        self.assert_type(&c.loop_step, &accu);
        self.scopes.truncate(depth + 1);
        self.check(&c.result);
        self.scopes.truncate(depth);
        let t = self.mapping.substitute(&self.type_of(c.result.id), false);
        self.set(e, t);
    }

    fn assert_type(&mut self, e: &Expr, t: &Type) {
        let actual = self.type_of(e.id);
        if !self.mapping.assignable(t, &actual) {
            self.error(e.id, format!("expected type '{t}' but found '{actual}'"));
        }
    }
}

fn literal_type(l: &Literal) -> Type {
    match l {
        Literal::Null => Type::Null,
        Literal::Bool(_) => Type::Bool,
        Literal::Int(_) => Type::Int,
        Literal::Uint(_) => Type::Uint,
        Literal::Double(_) => Type::Double,
        Literal::String(_) => Type::String,
        Literal::Bytes(_) => Type::Bytes,
    }
}

/// `a.b.c` for a chain of selections ending in an identifier, else none.
fn qualified_name(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n.clone()),
        ExprKind::Select {
            operand,
            field,
            test_only: false,
        } => Some(format!("{}.{field}", qualified_name(operand)?)),
        _ => None,
    }
}
