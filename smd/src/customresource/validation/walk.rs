//! kube-openapi's schema validator (`pkg/validation/validate`, as apiextensions-apiserver
//! v0.37.2 runs it on custom resources), with the server's ratcheting of updates
//! (`RatchetingSchemaValidator`): an error found in a part of the object that the update left
//! as it was is dropped.
//!
//! Go builds a tree of validators per node and merges their results; this walk keeps one
//! buffer of failures, a node's being the tail it pushed, so that dropping a node's failures
//! (a ratcheted node, an `anyOf` branch that is not the best) is a truncation. The match
//! counts Go keeps to choose which failing `anyOf`/`oneOf` branch to report are returned by
//! each step, counted as Go counts them.

use smd_fieldpath::Value;
use smd_fieldpath::value::{go_float, go_quote, gofmt};

use super::equal::{Correlation, deep_equal};
use super::failure::{Code, Failure};
use super::formats;
use super::schema::{Additional, Node, PatternCheck};

/// One validation: the failures so far, the path of the node being validated (Go's
/// `spec.ports[0].port`), and what ratcheting learnt of which parts are unchanged.
pub(crate) struct Walk {
    pub(crate) out: Vec<Failure>,
    path: String,
    correlation: Correlation,
}

impl Walk {
    pub(crate) fn new(root_path: &str) -> Walk {
        Walk {
            out: Vec::new(),
            path: root_path.to_owned(),
            correlation: Correlation::default(),
        }
    }

    /// Validates `data` against `schema` (the validator of one node: its own checks, then its
    /// children); `old` is the value the update replaces, where ratcheting pairs one with it.
    /// Returns Go's match count.
    pub(crate) fn node(
        &mut self,
        schema: &Node,
        data: &Value,
        old: Option<&Value>,
        root: bool,
    ) -> usize {
        let start = self.out.len();
        let matches = self.checks(schema, data, old, root);
        if let Some(old) = old
            && self.out.len() > start
            && self.correlation.equal(schema, data, old)
        {
            self.out.truncate(start);
        }
        matches
    }

    /// `SchemaValidator.Validate`: the validators that apply to the data's kind, in Go's order.
    /// This and the other steps on the way down (`slice`, `object`, `composition`) keep their
    /// own work in functions of their own, so that a level of nesting costs little stack.
    fn checks(&mut self, s: &Node, data: &Value, old: Option<&Value>, root: bool) -> usize {
        if data.is_null() {
            return self.null_checks(s, data);
        }
        let mut m = self.type_part(s, data);
        m += self.composition(s, data) + 1;
        m += self.scalar_part(s, data);
        if let Value::List(items) = data {
            m += self.slice(s, items, old) + 1;
        }
        self.enumeration(s, data);
        m += 1;
        if let Value::Map(map) = data {
            m += self.object(s, map, old, root) + 1;
        }
        m + 1
    }

    /// A null: only the type and the enum speak of it.
    #[inline(never)]
    fn null_checks(&mut self, s: &Node, data: &Value) -> usize {
        let m = self.type_of_null(s);
        self.enumeration(s, data);
        m
    }

    /// The type validator, where it applies.
    #[inline(never)]
    fn type_part(&mut self, s: &Node, data: &Value) -> usize {
        if s.types.is_empty() && s.checks.format.is_empty() {
            return 0;
        }
        self.type_check(s, data) + 1
    }

    /// The string, format and number validators, where they apply.
    #[inline(never)]
    fn scalar_part(&mut self, s: &Node, data: &Value) -> usize {
        match data {
            Value::String(text) => {
                self.string_check(s, text);
                if !formats::known(&s.checks.format) {
                    return 1;
                }
                if !formats::validates(&s.checks.format, text) {
                    let message = format!(
                        "{} in body must be of type {}: {}",
                        self.path,
                        s.checks.format,
                        go_quote(text)
                    );
                    self.fail(Code::InvalidType, data.clone(), message);
                }
                2
            }
            Value::Int(_) | Value::Float(_) => {
                self.number(s, data);
                2
            }
            _ => 0,
        }
    }

    /// Appends `.key` (no dot at the root) to the path; returns the length to cut back to.
    #[inline(never)]
    fn enter_key(&mut self, key: &str, always_dot: bool) -> usize {
        let len = self.path.len();
        if always_dot || len > 0 {
            self.path.push('.');
        }
        self.path.push_str(key);
        len
    }

    /// Appends `[i]` to the path; returns the length to cut back to.
    #[inline(never)]
    fn enter_index(&mut self, i: usize) -> usize {
        use std::fmt::Write as _;
        let len = self.path.len();
        let _ = write!(self.path, "[{i}]");
        len
    }

    fn fail(&mut self, code: Code, value: Value, message: String) {
        self.out.push(Failure::Check {
            code,
            name: self.path.clone(),
            value,
            message,
        });
    }

    fn fail_at(&mut self, code: Code, name: String, value: Value, message: String) {
        self.out.push(Failure::Check {
            code,
            name,
            value,
            message,
        });
    }

    /// `typeValidator.Validate(nil)`.
    fn type_of_null(&mut self, s: &Node) -> usize {
        if !s.types.is_empty() && !s.has_type("null") && !s.checks.nullable {
            let message = format!(
                "{} in body must be of type {}: \"null\"",
                self.path,
                s.types.join(",")
            );
            self.fail(Code::InvalidType, Value::from("null"), message);
            return 0;
        }
        1
    }

    /// `typeValidator.Validate`: the JSON type (and, for a number, its format) against the
    /// schema's.
    fn type_check(&mut self, s: &Node, data: &Value) -> usize {
        let (kind, kind_format) = match data {
            Value::Bool(_) => ("boolean", ""),
            Value::String(_) => ("string", ""),
            Value::Int(_) => ("integer", "int64"),
            Value::Float(_) => ("number", "float64"),
            Value::List(_) => ("array", ""),
            Value::Map(_) => ("object", ""),
            Value::Null => return 1,
        };
        let float_int =
            matches!(data, Value::Float(f) if is_json_integer(*f)) && s.has_type("integer");
        let int_float = kind == "integer" && s.has_type("number");
        let textual = matches!(data, Value::String(_) | Value::List(_));
        let of_type = s.has_type(kind) || float_int || int_float;
        let numeric = s.has_type("number") || s.has_type("integer");
        // A number, boolean or object against a format: its own format may stand for the type.
        let format_stands = s.checks.format.is_empty() || of_type || kind_format == s.checks.format;
        if !textual && !format_stands {
            let message = format!(
                "{} in body must be of type {}: {}",
                self.path,
                s.checks.format,
                go_quote(kind_format)
            );
            self.fail(Code::InvalidType, Value::from(kind_format), message);
            return 0;
        }
        // A string or list against a format of a type that is not numeric: Go checks no type.
        if textual && !s.checks.format.is_empty() && !numeric {
            return 1;
        }
        if !of_type {
            let message = format!(
                "{} in body must be of type {}: {}",
                self.path,
                s.types.join(","),
                go_quote(kind)
            );
            self.fail(Code::InvalidType, Value::from(kind), message);
            return 0;
        }
        1
    }

    /// `schemaPropsValidator`: `anyOf`, `oneOf`, `allOf`, `not`, each branch validated as a
    /// whole schema at this node (without ratcheting: Go's branches do not correlate).
    fn composition(&mut self, s: &Node, data: &Value) -> usize {
        let mut m = 0;
        if !s.any_of.is_empty() {
            let mark = self.out.len();
            let mut best: Option<usize> = None;
            let mut success: Option<usize> = None;
            for branch in &s.any_of {
                let at = self.out.len();
                let bm = self.node(branch, data, None, false);
                if self.out.len() == at {
                    success = Some(bm);
                    best = None;
                    self.out.truncate(mark);
                    break;
                }
                if best.is_none_or(|b| bm > b) {
                    self.out.drain(mark..at);
                    best = Some(bm);
                } else {
                    self.out.truncate(at);
                }
            }
            if success.is_none() {
                let text = format!(
                    "{} must validate at least one schema (anyOf)",
                    go_quote(&self.path)
                );
                self.out.insert(mark, Failure::Other(text));
            }
            m += best.or(success).unwrap_or(0);
        }
        if !s.one_of.is_empty() {
            let mark = self.out.len();
            let mut best: Option<usize> = None;
            let mut success: Option<usize> = None;
            let mut valid = 0usize;
            for branch in &s.one_of {
                let at = self.out.len();
                let bm = self.node(branch, data, None, false);
                if self.out.len() == at {
                    valid += 1;
                    if best.take().is_some() {
                        self.out.truncate(mark);
                    }
                    success.get_or_insert(bm);
                    continue;
                }
                if valid == 0 && best.is_none_or(|b| bm > b) {
                    self.out.drain(mark..at);
                    best = Some(bm);
                } else {
                    self.out.truncate(at);
                }
            }
            if valid != 1 {
                let found = if valid == 0 {
                    "Found none valid".to_owned()
                } else {
                    format!("Found {valid} valid alternatives")
                };
                let text = format!(
                    "{} must validate one and only one schema (oneOf). {found}",
                    go_quote(&self.path)
                );
                self.out.insert(mark, Failure::Other(text));
                m += best.unwrap_or(0);
            } else {
                m += success.unwrap_or(0);
            }
        }
        if !s.all_of.is_empty() {
            let mut valid = 0;
            for branch in &s.all_of {
                let at = self.out.len();
                m += self.node(branch, data, None, false);
                if self.out.len() == at {
                    valid += 1;
                }
            }
            if valid != s.all_of.len() {
                let none = if valid == 0 { ". None validated" } else { "" };
                let text = format!(
                    "{} must validate all the schemas (allOf){none}",
                    go_quote(&self.path)
                );
                self.out.push(Failure::Other(text));
            }
        }
        if let Some(not) = &s.not {
            let at = self.out.len();
            self.node(not, data, None, false);
            let valid = self.out.len() == at;
            self.out.truncate(at);
            if valid {
                let text = format!(
                    "{} must not validate the schema (not)",
                    go_quote(&self.path)
                );
                self.out.push(Failure::Other(text));
            }
        }
        m + 1
    }

    /// `stringValidator`: the first of the length and pattern checks that fails.
    fn string_check(&mut self, s: &Node, text: &str) {
        let length = || text.chars().count() as i64;
        if let Some(max) = s.checks.max_length
            && length() > max
        {
            let message = format!("{} in body should be at most {max} chars long", self.path);
            self.fail(Code::TooLong { max }, Value::from(text), message);
            return;
        }
        if let Some(min) = s.checks.min_length
            && length() < min
        {
            let message = format!("{} in body should be at least {min} chars long", self.path);
            self.fail(Code::Other, Value::from(text), message);
            return;
        }
        if let Some((source, check)) = &s.checks.pattern {
            let shown = match check {
                PatternCheck::Compiled(p) if p.is_match(text) => return,
                PatternCheck::Unchecked => return,
                PatternCheck::Compiled(_) => source.clone(),
                PatternCheck::Invalid(why) => format!("{source}, but pattern is invalid: {why}"),
            };
            let message = format!("{} in body should match '{shown}'", self.path);
            self.fail(Code::Other, Value::from(text), message);
        }
    }

    /// `numberValidator`: the value against the range of the schema's type and format, then
    /// `multipleOf`, `minimum`, `maximum`.
    fn number(&mut self, s: &Node, data: &Value) {
        let (type_name, format) = number_type(s);
        if let Some(text) = out_of_range(
            data_text(data).as_str(),
            type_name,
            format,
            "Checked",
            &self.path,
        ) {
            self.out.push(Failure::Other(text));
        }
        if let Some(factor) = s.checks.multiple_of {
            self.bound(
                data,
                factor,
                type_name,
                format,
                "MultipleOf",
                Bound::MultipleOf,
            );
        }
        if let Some(min) = s.checks.minimum {
            self.bound(
                data,
                min,
                type_name,
                format,
                "Minimum boundary",
                Bound::Min(s.checks.exclusive_minimum),
            );
        }
        if let Some(max) = s.checks.maximum {
            self.bound(
                data,
                max,
                type_name,
                format,
                "Maximum boundary",
                Bound::Max(s.checks.exclusive_maximum),
            );
        }
    }

    /// One numeric constraint: checked in the value's own kind when the constraint fits the
    /// schema's type, else (after saying it does not) as floats.
    fn bound(
        &mut self,
        data: &Value,
        limit: f64,
        type_name: &str,
        format: &str,
        what: &str,
        bound: Bound,
    ) {
        let misfit = out_of_range(&format_float(limit), type_name, format, what, &self.path);
        let native = misfit.is_none();
        if let Some(text) = misfit {
            self.out.push(Failure::Other(text));
        }
        let path = &self.path;
        let failure = match (data, native) {
            (Value::Int(v), true) => bound.check_int(path, *v, go_float_to_int(limit)),
            (Value::Float(v), _) => bound.check_float(path, *v, limit, Value::Float(*v)),
            (Value::Int(v), false) => {
                bound.check_float(path, *v as f64, limit, Value::Float(*v as f64))
            }
            _ => None,
        };
        if let Some((code, value, message)) = failure {
            self.fail(code, value, message);
        }
    }

    /// `schemaSliceValidator`: the items, then `minItems` and `maxItems`.
    fn slice(&mut self, s: &Node, items: &[Value], old: Option<&Value>) -> usize {
        let mut m = 0;
        if let Some(item_schema) = &s.items {
            let olds = old.and_then(|o| self.correlation.list_items(s, items, o));
            for (i, item) in items.iter().enumerate() {
                let len = self.enter_index(i);
                let old_item = olds.as_ref().and_then(|o| o[i]);
                m += self.node(item_schema, item, old_item, false);
                self.path.truncate(len);
            }
        }
        self.item_counts(s, items.len());
        m + 1
    }

    /// `minItems`, `maxItems`.
    #[inline(never)]
    fn item_counts(&mut self, s: &Node, len: usize) {
        let size = len as i64;
        if let Some(min) = s.checks.min_items
            && size < min
        {
            let message = format!("{} in body should have at least {min} items", self.path);
            self.fail(Code::Other, Value::Int(size), message);
        }
        if let Some(max) = s.checks.max_items
            && size > max
        {
            let message = format!("{} in body should have at most {max} items", self.path);
            self.fail(
                Code::TooMany { actual: size, max },
                Value::Int(size),
                message,
            );
        }
    }

    /// `basicCommonValidator`: `enum`.
    fn enumeration(&mut self, s: &Node, data: &Value) {
        if s.checks.enumeration.is_empty()
            || s.checks.enumeration.iter().any(|e| enum_matches(data, e))
        {
            return;
        }
        let mut listed = String::new();
        gofmt::write_plain(&mut listed, &Value::List(s.checks.enumeration.clone()));
        let message = format!("{} in body should be one of {listed}", self.path);
        self.fail(
            Code::Enum(s.checks.enumeration.clone()),
            data.clone(),
            message,
        );
    }

    /// `objectValidator`: the property counts, the values of `additionalProperties`, the
    /// properties, then `required`. (Go walks the maps in random order; this walk takes the
    /// object's.)
    fn object(
        &mut self,
        s: &Node,
        map: &smd_fieldpath::Map,
        old: Option<&Value>,
        root: bool,
    ) -> usize {
        self.property_counts(s, map);
        let old_map = old.and_then(Value::as_map);
        let mut m = 0;
        if let Additional::Schema(values) = &s.additional {
            for (key, value) in map.iter() {
                if s.properties.contains_key(key) {
                    continue;
                }
                let len = self.enter_key(key, true);
                m += self.node(values, value, old_map.and_then(|o| o.get(key)), false);
                self.path.truncate(len);
            }
        }
        for (key, value) in map.iter() {
            let Some(property) = s.properties.get(key) else {
                continue;
            };
            let len = self.enter_key(key, false);
            // Go never ratchets the type fields of the root: both sides carry the request's.
            let type_field = root && (key == "kind" || key == "apiVersion");
            let old_value = old_map.filter(|_| !type_field).and_then(|o| o.get(key));
            m += self.node(property, value, old_value, false);
            self.path.truncate(len);
        }
        self.required(s, map);
        m
    }

    /// `minProperties`, `maxProperties`, and the members `additionalProperties: false` forbids.
    #[inline(never)]
    fn property_counts(&mut self, s: &Node, map: &smd_fieldpath::Map) {
        let size = map.len() as i64;
        if let Some(min) = s.checks.min_properties
            && size < min
        {
            let message = format!(
                "{} in body should have at least {min} properties",
                self.path
            );
            self.fail(Code::Other, Value::Int(size), message);
        }
        if let Some(max) = s.checks.max_properties
            && size > max
        {
            let message = format!("{} in body should have at most {max} properties", self.path);
            self.fail(
                Code::TooMany { actual: size, max },
                Value::Int(size),
                message,
            );
        }
        if let Additional::Allows(false) = &s.additional {
            for (key, _) in map.iter() {
                if !s.properties.contains_key(key) {
                    let message = format!("{}.{key} in body is a forbidden property", self.path);
                    self.fail(Code::Other, Value::from(key), message);
                }
            }
        }
    }

    /// `required`.
    #[inline(never)]
    fn required(&mut self, s: &Node, map: &smd_fieldpath::Map) {
        for key in &s.checks.required {
            if !map.contains_key(key) {
                let name = format!("{}.{key}", self.path);
                let message = format!("{name} in body is required");
                self.fail_at(Code::Required, name, Value::Null, message);
            }
        }
    }
}

/// A numeric constraint and how Go words its failure.
#[derive(Clone, Copy)]
enum Bound {
    MultipleOf,
    Min(bool),
    Max(bool),
}

type Found = Option<(Code, Value, String)>;

impl Bound {
    /// `MultipleOfInt`, `MinimumInt`, `MaximumInt`.
    fn check_int(self, path: &str, v: i64, limit: i64) -> Found {
        match self {
            Bound::MultipleOf => {
                if limit <= 0 {
                    let message =
                        format!("factor MultipleOf declared for {path} must be positive: {limit}");
                    return Some((Code::Other, Value::Int(limit), message));
                }
                (v.wrapping_div(limit).wrapping_mul(limit) != v).then(|| {
                    (
                        Code::Other,
                        Value::Int(v),
                        format!("{path} in body should be a multiple of {limit}"),
                    )
                })
            }
            Bound::Min(exclusive) => {
                ((!exclusive && v < limit) || (exclusive && v <= limit)).then(|| {
                    (
                        Code::Other,
                        Value::Int(v),
                        min_message(path, &limit.to_string(), exclusive),
                    )
                })
            }
            Bound::Max(exclusive) => {
                ((!exclusive && v > limit) || (exclusive && v >= limit)).then(|| {
                    (
                        Code::Other,
                        Value::Int(v),
                        max_message(path, &limit.to_string(), exclusive),
                    )
                })
            }
        }
    }

    /// `MultipleOf`, `Minimum`, `Maximum` on floats; `shown` is the value the error carries.
    fn check_float(self, path: &str, v: f64, limit: f64, shown: Value) -> Found {
        match self {
            Bound::MultipleOf => {
                if limit <= 0.0 {
                    let message = format!(
                        "factor MultipleOf declared for {path} must be positive: {}",
                        go_float(limit)
                    );
                    return Some((Code::Other, Value::Float(limit), message));
                }
                let quotient = if limit < 1.0 {
                    1.0 / limit * v
                } else {
                    v / limit
                };
                (!is_json_integer(quotient)).then(|| {
                    (
                        Code::Other,
                        shown,
                        format!("{path} in body should be a multiple of {}", go_float(limit)),
                    )
                })
            }
            Bound::Min(exclusive) => {
                ((!exclusive && v < limit) || (exclusive && v <= limit)).then(|| {
                    (
                        Code::Other,
                        shown,
                        min_message(path, &go_float(limit), exclusive),
                    )
                })
            }
            Bound::Max(exclusive) => {
                ((!exclusive && v > limit) || (exclusive && v >= limit)).then(|| {
                    (
                        Code::Other,
                        shown,
                        max_message(path, &go_float(limit), exclusive),
                    )
                })
            }
        }
    }
}

fn min_message(path: &str, limit: &str, exclusive: bool) -> String {
    if exclusive {
        format!("{path} in body should be greater than {limit}")
    } else {
        format!("{path} in body should be greater than or equal to {limit}")
    }
}

fn max_message(path: &str, limit: &str, exclusive: bool) -> String {
    if exclusive {
        format!("{path} in body should be less than {limit}")
    } else {
        format!("{path} in body should be less than or equal to {limit}")
    }
}

/// The type and format the number validator knows: only an unambiguous (single) numeric type
/// with a format of that type.
fn number_type(s: &Node) -> (&'static str, &'static str) {
    match s.types.as_slice() {
        [t] if t == "integer" => (
            "integer",
            match s.checks.format.as_str() {
                "int32" => "int32",
                "int64" => "int64",
                _ => "",
            },
        ),
        [t] if t == "number" => (
            "number",
            match s.checks.format.as_str() {
                "float" => "float",
                "double" => "double",
                _ => "",
            },
        ),
        _ => ("", ""),
    }
}

/// `IsValueValidAgainstRange`: whether the number written `text` fits the type and format
/// (an integer's digits, a float32's range); Go's words when it does not.
fn out_of_range(
    text: &str,
    type_name: &str,
    format: &str,
    what: &str,
    path: &str,
) -> Option<String> {
    let fits = match (type_name, format) {
        ("integer", "int32") => text.parse::<i32>().is_ok(),
        ("integer", _) => text.parse::<i64>().is_ok(),
        (_, "float") => text.parse::<f32>().is_ok_and(f32::is_finite),
        _ => true,
    };
    if fits {
        return None;
    }
    Some(if format.is_empty() {
        format!("{what} value must be of type {type_name} (default format) in {path}")
    } else {
        format!("{what} value must be of type {type_name} with format {format} in {path}")
    })
}

/// A number as `IsValueValidAgainstRange` writes it before parsing it again.
fn data_text(data: &Value) -> String {
    match data {
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format_float(*f),
        _ => String::new(),
    }
}

/// `strconv.FormatFloat(f, 'f', -1, 64)`: the shortest digits, never an exponent (which is
/// also what Rust's `Display` writes).
fn format_float(f: f64) -> String {
    format!("{f}")
}

/// Go's `int64(f)` on amd64: truncation, and the minimum for what does not fit.
fn go_float_to_int(f: f64) -> i64 {
    if f.is_nan() || !(-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f) {
        i64::MIN
    } else {
        f as i64
    }
}

/// `swag.IsFloat64AJSONInteger`: a whole number within ±(2^53 − 1), allowing a relative error
/// of 1e-9.
pub(crate) fn is_json_integer(f: f64) -> bool {
    const MAX: f64 = 9_007_199_254_740_991.0;
    if !f.is_finite() || !(-MAX..=MAX).contains(&f) {
        return false;
    }
    let rounded = f.round();
    if f == rounded {
        return true;
    }
    if rounded == 0.0 {
        return false;
    }
    (f - rounded).abs() < 1e-9 * rounded.abs()
}

/// Whether `data` equals the enum member `member` after Go's conversion of the value to the
/// member's type (`reflect.Value.Convert`): an integer becomes a float, a float is truncated
/// to an integer, an integer becomes the string of that code point; a null never matches, nor
/// does a null member.
fn enum_matches(data: &Value, member: &Value) -> bool {
    match (data, member) {
        (Value::Null, _) | (_, Value::Null) => false,
        (Value::Int(v), Value::Float(_)) => deep_equal(&Value::Float(*v as f64), member),
        (Value::Float(v), Value::Int(m)) => go_float_to_int(*v) == *m,
        (Value::Int(v), Value::String(m)) => go_rune_string(*v) == *m,
        _ => deep_equal(data, member),
    }
}

/// Go's `string(rune(v))` for an int64: the character, or U+FFFD for what is not one.
fn go_rune_string(v: i64) -> String {
    u32::try_from(v)
        .ok()
        .and_then(char::from_u32)
        .unwrap_or('\u{FFFD}')
        .to_string()
}
