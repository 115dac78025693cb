//! A parsed CEL expression, shaped as cel-go's `common/ast`: every node has an id (unique in
//! its expression, assigned in parse order as cel-go assigns them, so that a debug dump of a
//! tree compares with Go's `debug.ToDebugString`) and a source offset (kept in [`Source`]).
//!
//! Operators are calls of cel-go's operator functions (`_+_`, `_&&_`, `!_`, `-_`, `_?_:_`,
//! `_[_]`, `@in`, `_[?_]`, `_?._`, ...); macros (`has`, `all`, `exists`, `exists_one`, `map`,
//! `filter`, the two-variable and optional ones) are expanded by the parser into
//! [`ExprKind::Select`] presence tests and [`Comprehension`]s, as cel-go expands them.

/// A node's id: unique within one parsed expression, never 0 for a parsed node.
pub type ExprId = i64;

/// One node of an expression.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// The node's id; [`Source`] maps it to an offset in the text.
    pub id: ExprId,
    /// What the node is.
    pub kind: ExprKind,
}

/// The kinds of node cel-go's AST has.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// A constant.
    Literal(Literal),
    /// A name: a variable, or (before checking) a possibly qualified type or function name.
    Ident(String),
    /// `operand.field`, or with `test_only` the presence test `has(operand.field)` expands to.
    Select {
        /// The expression selected from.
        operand: Box<Expr>,
        /// The field's name.
        field: String,
        /// `has()`'s presence test rather than a field read.
        test_only: bool,
    },
    /// A function call: `function(args)`, or `target.function(args)` for a receiver-style
    /// call; operators are calls of their operator function.
    Call {
        /// The receiver of a member call.
        target: Option<Box<Expr>>,
        /// The function's name (an operator's is cel-go's, e.g. `_+_`).
        function: String,
        /// The arguments, receiver excluded.
        args: Vec<Expr>,
    },
    /// `[a, b, ?c]`.
    List {
        /// The elements in order.
        elements: Vec<Expr>,
        /// The positions (in `elements`) of the `?`-marked optional elements.
        optional_indices: Vec<usize>,
    },
    /// `{k: v, ?k2: v2}`.
    Map {
        /// The entries in order.
        entries: Vec<MapEntry>,
    },
    /// `pkg.Message{field: value}` (parsed; no Kubernetes environment declares a message).
    Struct {
        /// The message's name as written.
        type_name: String,
        /// The field initialisers in order.
        fields: Vec<StructField>,
    },
    /// A loop a macro expands to.
    Comprehension(Box<Comprehension>),
}

/// A map literal's entry; entries have ids of their own, as in cel-go.
#[derive(Debug, Clone, PartialEq)]
pub struct MapEntry {
    /// The entry's id.
    pub id: ExprId,
    /// The key.
    pub key: Expr,
    /// The value.
    pub value: Expr,
    /// `?key: value`: the entry is set only when the value is a present optional.
    pub optional: bool,
}

/// A message literal's field initialiser.
#[derive(Debug, Clone, PartialEq)]
pub struct StructField {
    /// The initialiser's id.
    pub id: ExprId,
    /// The field's name.
    pub field: String,
    /// Its value.
    pub value: Expr,
    /// `?field: value`.
    pub optional: bool,
}

/// cel-go's comprehension: a fold over `iter_range`.
///
/// ```text
/// accu = accu_init
/// for iter_var (, iter_var2) in iter_range:
///     if !loop_condition: break
///     accu = loop_step
/// return result
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Comprehension {
    /// The range iterated: a list (elements; with two variables, index and element) or a map
    /// (keys; with two variables, key and value).
    pub iter_range: Expr,
    /// The first iteration variable.
    pub iter_var: String,
    /// The second iteration variable of the two-variable macros, else empty.
    pub iter_var2: String,
    /// The accumulator's name (`@result` for the parser's macros).
    pub accu_var: String,
    /// The accumulator's first value.
    pub accu_init: Expr,
    /// Checked before each step; the loop stops when it is false.
    pub loop_condition: Expr,
    /// The accumulator's next value.
    pub loop_step: Expr,
    /// The comprehension's value, computed from the accumulator.
    pub result: Expr,
}

/// A constant as written.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// `null`.
    Null,
    /// `true`, `false`.
    Bool(bool),
    /// `1`, `-0x10`.
    Int(i64),
    /// `1u`.
    Uint(u64),
    /// `1.5`, `1e3`.
    Double(f64),
    /// A string literal, unescaped.
    String(String),
    /// A bytes literal (`b"..."`), unescaped.
    Bytes(Vec<u8>),
}

/// Where each node of a parsed expression starts in its text, for the positions of errors
/// (`<input>:1:6`), as cel-go's source info keeps them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Source {
    /// The expression's text.
    pub text: String,
    /// Per node id, the node's offset in `text`, in characters (code points), as Go's.
    pub offsets: std::collections::HashMap<ExprId, usize>,
}

/// A parsed expression: its root and where its nodes are.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The root node.
    pub expr: Expr,
    /// The nodes' positions.
    pub source: Source,
}
