//! Type values: what `type(x)` answers and the type names error texts use.

use std::sync::Arc;

/// A CEL type as a value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    /// `null_type`.
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
    /// `list`.
    List,
    /// `map`.
    Map,
    /// `google.protobuf.Duration`.
    Duration,
    /// `google.protobuf.Timestamp`.
    Timestamp,
    /// `type`.
    Type,
    /// `optional_type`.
    Optional,
    /// A library's or host's named type.
    Opaque(Arc<str>),
}

impl Type {
    /// cel-go's name of the type.
    pub fn name(&self) -> &str {
        match self {
            Type::Null => "null_type",
            Type::Bool => "bool",
            Type::Int => "int",
            Type::Uint => "uint",
            Type::Double => "double",
            Type::String => "string",
            Type::Bytes => "bytes",
            Type::List => "list",
            Type::Map => "map",
            Type::Duration => "google.protobuf.Duration",
            Type::Timestamp => "google.protobuf.Timestamp",
            Type::Type => "type",
            Type::Optional => "optional_type",
            Type::Opaque(n) => n,
        }
    }

    /// The type an identifier names in the standard environment.
    pub fn from_ident(name: &str) -> Option<Type> {
        Some(match name {
            "null_type" => Type::Null,
            "bool" => Type::Bool,
            "int" => Type::Int,
            "uint" => Type::Uint,
            "double" => Type::Double,
            "string" => Type::String,
            "bytes" => Type::Bytes,
            "list" => Type::List,
            "map" => Type::Map,
            "google.protobuf.Duration" => Type::Duration,
            "google.protobuf.Timestamp" => Type::Timestamp,
            "type" => Type::Type,
            "optional_type" => Type::Optional,
            _ => return None,
        })
    }
}
