//! The CEL part of the API server's validation of a CRD's schema (apiextensions-apiserver
//! v0.37.2 `validation.ValidateCustomResourceDefinitionOpenAPISchema` with
//! `schema/cel.Compile`): each `x-kubernetes-validations` rule and message expression is
//! compiled with `self` (and `oldSelf`) typed from its schema node as `SchemaDeclType` types
//! it, and refused with the server's words when it does not compile, is not a bool (a
//! string), or reads `oldSelf` where old and new values cannot be paired.
//!
//! The server names the self type `selfType` and a random number; smd writes `selfType0`.
//! The estimated cost limits are `cost`'s.

use smd_cel::check::{Env, Type, escape_property};
use smd_value::{MAX_DEPTH, Map, Value};

use super::cost::{self, Budget, Part, Sizes};
use super::internal::validation_rule;
use super::validate::FieldError;

/// The name smd gives a rule's `self` type (the server's has a random number).
const SELF_TYPE: &str = "selfType0";

/// Validates the rules of one version's `openAPIV3Schema`.
pub(crate) fn validate(schema: &Value, path: &str, pointer: &str, out: &mut Vec<FieldError>) {
    let mut stack = vec![Visit {
        schema,
        path: path.to_owned(),
        pointer: pointer.to_owned(),
        root: true,
        uncorrelatable: None,
        cardinality: Some(1),
        depth: 0,
    }];
    // Nodes with rules, compiled once the walk knows which subtrees have schema errors.
    let mut pending = Vec::new();
    let mut refused: Vec<String> = Vec::new();
    while let Some(v) = stack.pop() {
        let Some(m) = v.schema.as_map() else { continue };
        if v.depth >= MAX_DEPTH {
            continue;
        }
        if let Some(rules) = m.get("x-kubernetes-validations").and_then(Value::as_list) {
            let before = out.len();
            rule_fields(rules, &v, out);
            if out.len() > before {
                refused.push(v.path.clone());
            }
            pending.push((m, rules, v.clone_without_schema()));
        }
        // How many times each child can occur: no bound below a list or map without one.
        let cardinality = v
            .cardinality
            .and_then(|c| Some(c.saturating_mul(cost::children_per_value(m)?)));
        let child = |key: &str, schema, uncorrelatable| Visit {
            schema,
            path: format!("{}.{key}", v.path),
            pointer: format!("{}/{key}", v.pointer),
            root: false,
            uncorrelatable,
            cardinality,
            depth: v.depth + 1,
        };
        if let Some(items) = m.get("items") {
            let forbid = v.uncorrelatable.clone().or_else(|| {
                (m.get("x-kubernetes-list-type").and_then(Value::as_str) != Some("map"))
                    .then(|| v.path.clone())
            });
            stack.push(child("items", items, forbid));
        }
        if let Some(additional @ Value::Map(_)) = m.get("additionalProperties") {
            stack.push(child(
                "additionalProperties",
                additional,
                v.uncorrelatable.clone(),
            ));
        }
        if let Some(props) = m.get("properties").and_then(Value::as_map) {
            let correlatable = matches!(
                m.get("x-kubernetes-map-type").and_then(Value::as_str),
                None | Some("granular" | "atomic")
            );
            let forbid = v
                .uncorrelatable
                .clone()
                .or_else(|| (!correlatable).then(|| v.path.clone()));
            for (k, p) in props.iter() {
                stack.push(Visit {
                    schema: p,
                    path: format!("{}.properties[{k}]", v.path),
                    pointer: format!("{}/properties/{}", v.pointer, pointer_escape(k)),
                    root: false,
                    uncorrelatable: forbid.clone(),
                    cardinality,
                    depth: v.depth + 1,
                });
            }
        }
    }
    // The server compiles a node's rules only when neither it nor a node below has a schema
    // error.
    let mut budget = Budget::default();
    for (m, rules, place) in pending {
        let below = |p: &String| {
            p == &place.path
                || p.strip_prefix(place.path.as_str())
                    .is_some_and(|rest| rest.starts_with('.'))
        };
        if !refused.iter().any(below) {
            let resource = place.root || flag(m, "x-kubernetes-embedded-resource");
            check_rules(m, rules, resource, &place, &mut budget, out);
        }
    }
    budget.finish(path, pointer, out);
}

/// Where a node is, for compiling its rules after the walk.
struct Place {
    path: String,
    pointer: String,
    root: bool,
    uncorrelatable: Option<String>,
    cardinality: Option<u64>,
}

impl Visit<'_> {
    fn clone_without_schema(&self) -> Place {
        Place {
            path: self.path.clone(),
            pointer: self.pointer.clone(),
            root: self.root,
            uncorrelatable: self.uncorrelatable.clone(),
            cardinality: self.cardinality,
        }
    }
}

/// A node's schema errors about its rules' own fields (`rule`, `message`,
/// `messageExpression`, `reason`, `fieldPath`), found before any rule is compiled.
fn rule_fields(rules: &[Value], v: &Visit, out: &mut Vec<FieldError>) {
    let empty = Map::new();
    for (i, rule) in rules.iter().enumerate() {
        let r = rule.as_map().unwrap_or(&empty);
        let text = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or("");
        let at = format!("{}.x-kubernetes-validations[{i}]", v.path);
        let mut push = |text: String| {
            out.push(FieldError {
                go_text: text,
                pointer: format!("{}/x-kubernetes-validations/{i}", v.pointer),
            })
        };
        let (rule_text, message) = (text("rule").trim(), text("message"));
        if rule_text.is_empty() {
            push(format!("{at}.rule: Required value: rule is not specified"));
        } else if !message.is_empty() && message.trim().is_empty() {
            push(format!(
                "{at}.message: Invalid value: {}: must be non-empty if specified",
                quote(message)
            ));
        } else if message.trim().contains('\n') {
            push(format!(
                "{at}.message: Invalid value: {}: must not contain line breaks",
                quote(message)
            ));
        } else if rule_text.contains('\n') && message.trim().is_empty() {
            push(format!(
                "{at}.message: Required value: message must be specified if rule contains line breaks"
            ));
        }
        let message_expression = text("messageExpression");
        if !message_expression.is_empty() && message_expression.trim().is_empty() {
            push(format!(
                "{at}.messageExpression: Required value: messageExpression must be non-empty if specified"
            ));
        }
        if let Some(reason) = r.get("reason").and_then(Value::as_str)
            && !REASONS.contains(&reason)
        {
            let supported: Vec<String> = REASONS.iter().map(|r| quote(r)).collect();
            push(format!(
                "{at}.reason: Unsupported value: {}: supported values: {}",
                quote(reason),
                supported.join(", ")
            ));
        }
        let field_path = text("fieldPath");
        if !field_path.is_empty() && field_path.trim().is_empty() {
            push(format!(
                "{at}.fieldPath: Invalid value: {}: must be non-empty if specified",
                quote(field_path)
            ));
        }
        if !field_path.is_empty()
            && v.schema
                .as_map()
                .is_none_or(|m| normalize_rule_field_path(field_path, m).is_err())
        {
            push(format!(
                "{at}.fieldPath: Invalid value: {}: must be a valid path",
                quote(field_path)
            ));
        }
        if field_path.contains('\n') {
            push(format!(
                "{at}.fieldPath: Invalid value: {}: must not contain line breaks",
                quote(field_path)
            ));
        }
    }
}

/// The reasons a rule may give, sorted as Go lists them.
const REASONS: [&str; 4] = [
    "FieldValueDuplicate",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueRequired",
];

struct Visit<'a> {
    schema: &'a Value,
    path: String,
    pointer: String,
    root: bool,
    /// The path of the highest node below which old and new values cannot be paired.
    uncorrelatable: Option<String>,
    /// How many times the node can occur in one object (`None`: no bound but the request's).
    cardinality: Option<u64>,
    depth: usize,
}

fn check_rules(
    m: &Map,
    rules: &[Value],
    resource: bool,
    v: &Place,
    budget: &mut Budget,
    out: &mut Vec<FieldError>,
) {
    let Some((env_old, env_optional)) = rule_envs(m, resource) else {
        return;
    };
    let sizes = Sizes::of(m, resource);
    let empty = Map::new();
    for (i, rule) in rules.iter().enumerate() {
        let r = rule.as_map().unwrap_or(&empty);
        let text = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or("");
        let optional_old_self = r.get("optionalOldSelf").and_then(|b| match b {
            Value::Bool(b) => Some(*b),
            _ => None,
        });
        let env = if optional_old_self == Some(true) {
            &env_optional
        } else {
            &env_old
        };
        let at = format!("{}.x-kubernetes-validations[{i}]", v.path);
        let pointer = format!("{}/x-kubernetes-validations/{i}", v.pointer);
        let push = |out: &mut Vec<FieldError>, text: String| {
            out.push(FieldError {
                go_text: text,
                pointer: pointer.clone(),
            })
        };
        let mut cost = |out: &mut Vec<FieldError>, compiled: &Compiled, part| {
            if let Some(sizes) = &sizes {
                let (parsed, checked) = compiled;
                budget.observe(
                    cost::estimate(parsed, checked, sizes),
                    sizes,
                    v.cardinality,
                    part,
                    &at,
                    &pointer,
                    out,
                );
            }
        };
        let mut shown = String::new();
        validation_rule(&mut shown, r);
        let source = text("rule");
        let mut uses_old_self = false;
        if !source.trim().is_empty() {
            match compile(source, env, Type::Bool, "") {
                Err(detail) => {
                    push(out, format!("{at}.rule: Invalid value: {shown}: {detail}"));
                }
                Ok(compiled) => {
                    uses_old_self = compiled.1.variables.contains("oldSelf");
                    cost(out, &compiled, Part::Rule);
                    let message = text("messageExpression");
                    if !message.is_empty() {
                        match compile(message, env, Type::String, "messageExpression") {
                            Err(detail) => push(
                                out,
                                format!("{at}.messageExpression: Invalid value: {shown}: {detail}"),
                            ),
                            Ok(compiled) => cost(out, &compiled, Part::MessageExpression),
                        }
                    }
                }
            }
        }
        if uses_old_self {
            if let Some(within) = &v.uncorrelatable {
                push(
                    out,
                    format!(
                        "{at}.rule: Invalid value: {}: oldSelf cannot be used on the uncorrelatable portion of the schema within {within}",
                        quote(source)
                    ),
                );
            }
        } else if let Some(b) = optional_old_self {
            push(
                out,
                format!(
                    "{at}.optionalOldSelf: Invalid value: {b}: may not be set if oldSelf is not used in rule"
                ),
            );
        }
    }
}

/// The environments a node's rules are compiled in: `self` and `oldSelf` of the node's type,
/// and the same with `oldSelf` optional (`optionalOldSelf`).
pub(super) fn rule_envs(m: &Map, resource: bool) -> Option<(Env, Env)> {
    let mut objects = Vec::new();
    let self_type = decl_type(m, resource, SELF_TYPE, &mut objects, 0)?;
    let mut env = Env::new().schema_types();
    for (name, fields) in objects {
        env = env.object(&name, fields);
    }
    let env_old = env.clone().variable("oldSelf", self_type.clone());
    let env_optional = env
        .variable("oldSelf", Type::optional(self_type.clone()))
        .variable("self", self_type.clone());
    Some((env_old.variable("self", self_type), env_optional))
}

/// A compiled expression: its tree and its types.
pub(super) type Compiled = (smd_cel::ast::Parsed, smd_cel::check::Checked);

/// Compiles one expression, or gives the server's detail.
pub(super) fn compile(source: &str, env: &Env, want: Type, what: &str) -> Result<Compiled, String> {
    let (failed, not_typed, not_instantiated) = if what.is_empty() {
        (
            "compilation failed",
            "cel expression must evaluate to a bool",
            "program instantiation failed",
        )
    } else {
        (
            "messageExpression compilation failed",
            "messageExpression must evaluate to a string",
            "messageExpression instantiation failed",
        )
    };
    let parsed = smd_cel::parse(source).map_err(|e| format!("{failed}: {e}"))?;
    let checked = smd_cel::check_types(&parsed, env).map_err(|e| format!("{failed}: {e}"))?;
    if checked.output != want {
        return Err(not_typed.to_owned());
    }
    if let Some(name) = checked.undefined_types.first() {
        return Err(format!(
            "{not_instantiated}: reference to undefined type: {name}"
        ));
    }
    Ok((parsed, checked))
}

/// The type rules see for a schema node (`SchemaDeclType`), objects named as the server's
/// `MaybeAssignTypeName` names them and declared in `objects`; `None` where the server has no
/// type (an array without items, a schema without a type).
fn decl_type(
    m: &Map,
    resource: bool,
    name: &str,
    objects: &mut Vec<(String, Vec<(String, Type)>)>,
    depth: usize,
) -> Option<Type> {
    if depth >= MAX_DEPTH {
        return None;
    }
    if flag(m, "x-kubernetes-int-or-string") {
        return Some(Type::Dyn);
    }
    fn sub(v: &Value) -> Option<(&Map, bool)> {
        v.as_map()
            .map(|s| (s, flag(s, "x-kubernetes-embedded-resource")))
    }
    match m.get("type").and_then(Value::as_str)? {
        "array" => {
            let (items, embedded) = sub(m.get("items")?)?;
            let elem = decl_type(items, embedded, &format!("{name}.@idx"), objects, depth + 1)?;
            Some(Type::list(elem))
        }
        "object" => {
            if let Some((additional, embedded)) = m.get("additionalProperties").and_then(sub) {
                let elem = decl_type(
                    additional,
                    embedded,
                    &format!("{name}.@elem"),
                    objects,
                    depth + 1,
                )?;
                return Some(Type::map(Type::String, elem));
            }
            let mut fields = Vec::new();
            if let Some(props) = m.get("properties").and_then(Value::as_map) {
                for (k, p) in props.iter() {
                    let Some(escaped) = escape_property(k) else {
                        continue;
                    };
                    let Some((p, embedded)) = sub(p) else {
                        continue;
                    };
                    let child = format!("{name}.{escaped}");
                    if let Some(t) = decl_type(p, embedded, &child, objects, depth + 1) {
                        fields.push((escaped, t));
                    }
                }
            }
            if resource {
                with_type_and_object_meta(name, &mut fields, objects);
            }
            objects.push((name.to_owned(), fields));
            Some(Type::Object(name.to_owned()))
        }
        "string" => Some(match m.get("format").and_then(Value::as_str) {
            Some("byte") => Type::Bytes,
            Some("duration") => Type::Duration,
            Some("date" | "date-time") => Type::Timestamp,
            _ => Type::String,
        }),
        "boolean" => Some(Type::Bool),
        "number" => Some(Type::Double),
        "integer" => Some(Type::Int),
        _ => None,
    }
}

/// A resource's `apiVersion`, `kind` and, of `metadata`, `name` and `generateName`.
fn with_type_and_object_meta(
    name: &str,
    fields: &mut Vec<(String, Type)>,
    objects: &mut Vec<(String, Vec<(String, Type)>)>,
) {
    fields.retain(|(f, _)| !matches!(f.as_str(), "apiVersion" | "kind" | "metadata"));
    fields.push(("apiVersion".to_owned(), Type::String));
    fields.push(("kind".to_owned(), Type::String));
    let meta = format!("{name}.metadata");
    objects.push((
        meta.clone(),
        vec![
            ("name".to_owned(), Type::String),
            ("generateName".to_owned(), Type::String),
        ],
    ));
    fields.push(("metadata".to_owned(), Type::Object(meta)));
}

fn flag(m: &Map, key: &str) -> bool {
    matches!(m.get(key), Some(Value::Bool(true)))
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

fn pointer_escape(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// A rule's `fieldPath` checked against its node's schema and written in normal form
/// (apiextensions' `ValidFieldPath`): field (`.a`) and key (`['a']`) steps through `properties`
/// and `additionalProperties`; the normal form is `field.Path`'s (`a.b`, `labels[k]`). `Err`
/// says why it names no field, in the server's words.
pub fn normalize_rule_field_path(path: &str, schema: &Map) -> Result<String, String> {
    let mut node = schema;
    let mut out = String::new();
    let mut it = tokens(path).into_iter();
    while let Some(tok) = it.next() {
        let name = match tok {
            "[" => {
                let quoted = it.next().ok_or("unexpected end of JSON path")?;
                let inner = quoted
                    .strip_prefix('\'')
                    .and_then(|q| q.strip_suffix('\''))
                    .filter(|_| quoted.len() >= 2)
                    .ok_or_else(|| format!("expected single quoted string but got {quoted}"))?;
                let name = unescape_single_quoted(inner)
                    .map_err(|e| format!("invalid string literal: {e}"))?;
                match it.next() {
                    Some("]") => {}
                    Some(other) => return Err(format!("expected ] but got {other}")),
                    None => return Err("unexpected end of JSON path".to_owned()),
                }
                name
            }
            "." => it.next().ok_or("unexpected end of JSON path")?.to_owned(),
            other => return Err(format!("expected [ or . but got: {other}")),
        };
        let props = node.get("properties").and_then(Value::as_map);
        node = match (props, node.get("additionalProperties")) {
            (Some(p), _) if !p.is_empty() => {
                let child = p.get(&name).and_then(Value::as_map);
                let child = child.ok_or("does not refer to a valid field")?;
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(&name);
                child
            }
            (_, Some(Value::Map(values))) => {
                out.push('[');
                out.push_str(&name);
                out.push(']');
                values
            }
            _ => return Err("does not refer to a valid field".to_owned()),
        };
    }
    Ok(out)
}

/// Go's scanner: the delimiters `.`, `[`, `]` alone, a token starting with `'` up to the
/// next `'` not after a backslash, other text up to the next delimiter.
fn tokens(path: &str) -> Vec<&str> {
    let bytes = path.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let rest = &bytes[start..];
        let len = if rest[0] == b'\'' {
            // An unterminated quote runs to the end of the path.
            (1..rest.len())
                .find(|&i| rest[i] == b'\'' && rest[i - 1] != b'\\')
                .map_or(rest.len(), |i| i + 1)
        } else if matches!(rest[0], b'.' | b'[' | b']') {
            1
        } else {
            rest.iter()
                .position(|b| matches!(b, b'.' | b'[' | b']'))
                .unwrap_or(rest.len())
        };
        // Cuts fall on ASCII bytes, so each token is whole UTF-8.
        out.push(&path[start..start + len]);
        start += len;
    }
    out
}

fn unescape_single_quoted(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(d) = chars.next() else {
            out.push('\\');
            break;
        };
        out.push(match d {
            'a' => '\u{7}',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\u{b}',
            '\'' => '\'',
            '\\' => '\\',
            other => return Err(format!("invalid escape char \\{other}")),
        });
    }
    Ok(out)
}
