//! The checker's types, as cel-go's `common/types.Type` models them for checking, printed as
//! cel-go's `FormatCELType`, and its unification: type parameters bound by a substitution
//! while overloads are tried (checker/types.go).

use std::collections::HashMap;
use std::fmt;

/// A CEL type as the checker sees it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    /// `dyn`: any value, checked at runtime.
    Dyn,
    /// The type of an expression that failed to check.
    Error,
    /// `null`.
    Null,
    /// `bool`.
    Bool,
    /// `int`.
    Int,
    /// `uint`.
    Uint,
    /// `double`.
    Double,
    /// `string`.
    String,
    /// `bytes`.
    Bytes,
    /// `duration`.
    Duration,
    /// `timestamp`.
    Timestamp,
    /// `any`.
    Any,
    /// `list(T)`.
    List(Box<Type>),
    /// `map(K, V)`.
    Map(Box<Type>, Box<Type>),
    /// `type`, or `type(T)`: the type of a type value.
    Type(Option<Box<Type>>),
    /// A type parameter of an overload, or a free type variable of the checker.
    Param(String),
    /// A named library type with parameters: `optional_type(T)`, `kubernetes.Quantity`, `net.IP`.
    Opaque(String, Vec<Type>),
    /// An object type with declared fields (a schema's object), by name.
    Object(String),
}

impl Type {
    /// `list(t)`.
    pub fn list(t: Type) -> Type {
        Type::List(Box::new(t))
    }
    /// `map(k, v)`.
    pub fn map(k: Type, v: Type) -> Type {
        Type::Map(Box::new(k), Box::new(v))
    }
    /// `optional_type(t)`.
    pub fn optional(t: Type) -> Type {
        Type::Opaque("optional_type".to_string(), vec![t])
    }
    /// The value type of `optional_type(t)`.
    pub fn unwrap_optional(&self) -> Option<&Type> {
        match self {
            Type::Opaque(n, ps) if n == "optional_type" && ps.len() == 1 => ps.first(),
            _ => None,
        }
    }
    pub(crate) fn is_dyn(&self) -> bool {
        matches!(self, Type::Dyn | Type::Any)
    }
    pub(crate) fn is_dyn_or_error(&self) -> bool {
        self.is_dyn() || *self == Type::Error
    }
    fn params(&self) -> Vec<&Type> {
        match self {
            Type::List(e) => vec![e],
            Type::Map(k, v) => vec![k, v],
            Type::Type(Some(t)) => vec![t],
            Type::Opaque(_, ps) => ps.iter().collect(),
            _ => Vec::new(),
        }
    }
    fn same_kind(&self, other: &Type) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }

    /// Reads a type as `gogen celcheck` writes declarations: cel-go's notation, type
    /// parameters as `~A`.
    pub(crate) fn parse_decl(text: &str) -> Option<Type> {
        let text = text.trim();
        if let Some(name) = text.strip_prefix('~') {
            return Some(Type::Param(name.to_string()));
        }
        let (name, args) = match text.find('(') {
            Some(open) => {
                let inner = text.get(open + 1..text.len().checked_sub(1)?)?;
                (&text[..open], split_params(inner)?)
            }
            None => (text, Vec::new()),
        };
        let mut params = args.into_iter();
        let mut next = || params.next().and_then(Type::parse_decl);
        Some(match (name, text.contains('(')) {
            ("dyn", false) => Type::Dyn,
            ("null", false) => Type::Null,
            ("bool", false) => Type::Bool,
            ("int", false) => Type::Int,
            ("uint", false) => Type::Uint,
            ("double", false) => Type::Double,
            ("string", false) => Type::String,
            ("bytes", false) => Type::Bytes,
            ("duration", false) => Type::Duration,
            ("timestamp", false) => Type::Timestamp,
            ("any", false) => Type::Any,
            ("type", false) => Type::Type(None),
            ("type", true) => Type::Type(Some(Box::new(next()?))),
            ("list", true) => Type::list(next()?),
            ("map", true) => {
                let k = next()?;
                Type::map(k, next()?)
            }
            (other, _) => {
                let mut ps = Vec::new();
                while let Some(p) = next() {
                    ps.push(p);
                }
                Type::Opaque(other.to_string(), ps)
            }
        })
    }
}

/// Splits `a, map(b, c), d` at its top-level commas.
fn split_params(text: &str) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.checked_sub(1)?,
            ',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    Some(out)
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Type::Dyn => "dyn",
            Type::Error => "!error!",
            Type::Null => "null",
            Type::Bool => "bool",
            Type::Int => "int",
            Type::Uint => "uint",
            Type::Double => "double",
            Type::String => "string",
            Type::Bytes => "bytes",
            Type::Duration => "duration",
            Type::Timestamp => "timestamp",
            Type::Any => "any",
            Type::List(_) => "list",
            Type::Map(..) => "map",
            Type::Type(_) => "type",
            Type::Param(n) | Type::Opaque(n, _) | Type::Object(n) => n,
        };
        f.write_str(name)?;
        let params = self.params();
        if !params.is_empty() {
            f.write_str("(")?;
            for (i, p) in params.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{p}")?;
            }
            f.write_str(")")?;
        }
        Ok(())
    }
}

/// Bindings of type parameters, keyed by the parameter's name (cel-go keys on the formatted type).
#[derive(Debug, Clone, Default)]
pub(crate) struct Mapping(HashMap<String, Type>);

impl Mapping {
    fn find(&self, t: &Type) -> Option<&Type> {
        match t {
            Type::Param(n) => self.0.get(n),
            _ => None,
        }
    }
    pub(crate) fn bind(&mut self, name: &str, to: Type) {
        self.0.insert(name.to_string(), to);
    }
    fn add(&mut self, from: &Type, to: Type) {
        if let Type::Param(n) = from {
            self.0.insert(n.clone(), to);
        }
    }

    /// `t` with its bound parameters replaced; free ones become `dyn` when asked.
    pub(crate) fn substitute(&self, t: &Type, params_to_dyn: bool) -> Type {
        if let Some(s) = self.find(t) {
            return self.substitute(s, params_to_dyn);
        }
        let sub = |t: &Type| self.substitute(t, params_to_dyn);
        match t {
            Type::Param(_) if params_to_dyn => Type::Dyn,
            Type::List(e) => Type::list(sub(e)),
            Type::Map(k, v) => Type::map(sub(k), sub(v)),
            Type::Type(Some(p)) => Type::Type(Some(Box::new(sub(p)))),
            Type::Opaque(n, ps) => Type::Opaque(n.clone(), ps.iter().map(sub).collect()),
            other => other.clone(),
        }
    }

    /// Whether a value of `t2` may be used where `t1` is expected, binding parameters; the
    /// mapping is left unchanged when not.
    pub(crate) fn assignable(&mut self, t1: &Type, t2: &Type) -> bool {
        let mut copy = self.clone();
        if copy.internal_assignable(t1, t2) {
            *self = copy;
            true
        } else {
            false
        }
    }

    pub(crate) fn assignable_list(&mut self, l1: &[Type], l2: &[Type]) -> bool {
        let mut copy = self.clone();
        if l1.len() == l2.len()
            && l1
                .iter()
                .zip(l2)
                .all(|(a, b)| copy.internal_assignable(a, b))
        {
            *self = copy;
            true
        } else {
            false
        }
    }

    fn internal_assignable(&mut self, t1: &Type, t2: &Type) -> bool {
        if matches!(t2, Type::Param(_)) {
            let (valid, has_sub) = self.valid_substitution(t1, t2);
            if valid {
                return true;
            }
            if has_sub {
                return false;
            }
        }
        if matches!(t1, Type::Param(_)) {
            return self.valid_substitution(t2, t1).0;
        }
        if t1.is_dyn_or_error() || t2.is_dyn_or_error() {
            return true;
        }
        if *t1 == Type::Null {
            return nullable(t2);
        }
        if *t2 == Type::Null {
            return nullable(t1);
        }
        match (t1, t2) {
            (Type::Type(_), Type::Type(_)) => true,
            (Type::List(a), Type::List(b)) => self.internal_assignable(a, b),
            (Type::Map(k1, v1), Type::Map(k2, v2)) => {
                self.internal_assignable(k1, k2) && self.internal_assignable(v1, v2)
            }
            (Type::Opaque(n1, p1), Type::Opaque(n2, p2)) => {
                n1 == n2
                    && p1.len() == p2.len()
                    && p1
                        .iter()
                        .zip(p2)
                        .all(|(a, b)| self.internal_assignable(a, b))
            }
            (Type::Param(_), _) | (Type::List(_), _) | (Type::Map(..), _) => false,
            (Type::Opaque(..), _) | (Type::Type(_), _) => false,
            _ => t1 == t2,
        }
    }

    fn valid_substitution(&mut self, t1: &Type, t2: &Type) -> (bool, bool) {
        if t1 == t2 {
            return (true, true);
        }
        if let Some(sub) = self.find(t2).cloned() {
            if *t1 == sub {
                return (true, true);
            }
            if self.internal_assignable(t1, &sub) {
                let general = most_general(t1, &sub);
                if self.not_referenced_in(t2, &general) {
                    self.add(t2, general);
                }
                return (true, true);
            }
            return (false, true);
        }
        if self.not_referenced_in(t2, t1) {
            self.add(t2, t1.clone());
            return (true, false);
        }
        (false, false)
    }

    fn not_referenced_in(&self, t: &Type, within: &Type) -> bool {
        if t == within {
            return false;
        }
        match within {
            Type::Param(_) => match self.find(within) {
                Some(s) => self.not_referenced_in(t, s),
                None => true,
            },
            other => other.params().iter().all(|p| self.not_referenced_in(t, p)),
        }
    }
}

fn nullable(t: &Type) -> bool {
    matches!(
        t,
        Type::Null
            | Type::Opaque(..)
            | Type::Object(_)
            | Type::Any
            | Type::Duration
            | Type::Timestamp
    )
}

/// The less specific of two assignable types.
pub(crate) fn most_general(t1: &Type, t2: &Type) -> Type {
    if equal_or_less_specific(t1, t2) {
        t1.clone()
    } else {
        t2.clone()
    }
}

fn equal_or_less_specific(t1: &Type, t2: &Type) -> bool {
    if t1.is_dyn() || matches!(t1, Type::Param(_)) {
        return true;
    }
    if t2.is_dyn() || matches!(t2, Type::Param(_)) {
        return false;
    }
    if !t1.same_kind(t2) {
        return false;
    }
    match (t1, t2) {
        (Type::Opaque(n1, p1), Type::Opaque(n2, p2)) => {
            n1 == n2
                && p1.len() == p2.len()
                && p1.iter().zip(p2).all(|(a, b)| equal_or_less_specific(a, b))
        }
        (Type::List(a), Type::List(b)) => equal_or_less_specific(a, b),
        (Type::Map(k1, v1), Type::Map(k2, v2)) => {
            equal_or_less_specific(k1, k2) && equal_or_less_specific(v1, v2)
        }
        (Type::Type(_), Type::Type(_)) => true,
        _ => t1 == t2,
    }
}

/// cel-go's `IsEquivalentType`: equal up to the names of type parameters.
pub(crate) fn equivalent(t1: &Type, t2: &Type) -> bool {
    match (t1, t2) {
        (Type::Param(_), Type::Param(_)) => true,
        _ if !t1.same_kind(t2) => false,
        (Type::Opaque(n1, _), Type::Opaque(n2, _)) | (Type::Object(n1), Type::Object(n2))
            if n1 != n2 =>
        {
            false
        }
        _ => {
            let (p1, p2) = (t1.params(), t2.params());
            p1.len() == p2.len() && p1.iter().zip(p2).all(|(a, b)| equivalent(a, b))
        }
    }
}
