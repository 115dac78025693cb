//! The sizes cel-go tracks while it walks: of a node (recorded, a literal's, the caller's by
//! path, 1 for a scalar, a comprehension variable's), of a container's entries, and what an
//! estimator sees of a node.

use super::path::Path;
use super::walk::Coster;
use super::{Node, SizeEstimate, UNKNOWN_SIZE};
use crate::ast::{Expr, ExprId, ExprKind, Literal};
use crate::check::Type;

/// The kind of container an entry size belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Container {
    List,
    Map,
}

/// The sizes of a list's (index, element) or a map's (key, value) entries.
#[derive(Debug, Clone, Copy)]
pub(super) struct EntrySize {
    pub(super) container: Container,
    pub(super) key: SizeEstimate,
    pub(super) value: SizeEstimate,
}

pub(super) fn union_entries(a: Option<EntrySize>, b: Option<EntrySize>) -> Option<EntrySize> {
    let (a, b) = (a?, b?);
    Some(EntrySize {
        container: a.container,
        key: a.key.union(b.key),
        value: a.value.union(b.value),
    })
}

fn is_accumulator(name: &str) -> bool {
    name == "@result" || name == "__result__"
}

impl Coster<'_> {
    /// cel-go's newAstNode: what an estimator sees of an argument or target.
    pub(super) fn node<'e>(&mut self, e: &'e Expr) -> Node<'e> {
        let mut path = self.path(e);
        if path.first().is_some_and(|n| is_accumulator(&n)) {
            path = Path::nil();
        }
        Node {
            expr: Some(e),
            path,
            ty: self.type_of(e),
            computed: self.compute_size(e),
        }
    }

    /// The caller's size of what a path reaches; none for a node without a path.
    pub(super) fn lookup(&self, path: &Path) -> Option<SizeEstimate> {
        if path.is_nil() {
            return None;
        }
        let elements = path.elements();
        if elements.is_empty() {
            return None;
        }
        self.sizes.estimate_size(&elements)
    }

    /// The size an estimator uses for a node: derived, else the caller's, else unknown.
    pub(super) fn node_size(&self, n: &Node) -> SizeEstimate {
        n.computed
            .or_else(|| self.lookup(&n.path))
            .unwrap_or(UNKNOWN_SIZE)
    }

    pub(super) fn set_size(&mut self, id: ExprId, size: Option<SizeEstimate>) {
        if let Some(s) = size {
            self.computed.insert(id, s);
        }
    }

    pub(super) fn size_or_unknown(&mut self, e: &Expr) -> SizeEstimate {
        self.compute_size(e).unwrap_or(UNKNOWN_SIZE)
    }

    /// cel-go's computeSize: what was recorded, else the literal's size, else the caller's
    /// (remembered), else 1 for a scalar type, else a comprehension variable's size.
    pub(super) fn compute_size(&mut self, e: &Expr) -> Option<SizeEstimate> {
        if let Some(s) = self.computed.get(&e.id) {
            return Some(*s);
        }
        if let Some(s) = literal_size(e) {
            return Some(s);
        }
        if let Some(s) = self.lookup(&self.path(e)) {
            self.computed.insert(e.id, s);
            return Some(s);
        }
        if is_scalar(&self.type_of(e)) {
            return Some(SizeEstimate::fixed(1));
        }
        let name = self.ident_name(e)?;
        self.local(name)?.size
    }

    pub(super) fn entry_size(&self, e: &Expr) -> Option<EntrySize> {
        if let Some(s) = self.entries.get(&e.id) {
            return Some(*s);
        }
        let name = self.ident_name(e)?;
        self.local(name)?.entry
    }

    pub(super) fn set_entry_size(&mut self, id: ExprId, entry: Option<EntrySize>) {
        if let Some(s) = entry {
            self.entries.insert(id, s);
        }
    }
}

fn literal_size(e: &Expr) -> Option<SizeEstimate> {
    let n = match &e.kind {
        ExprKind::Literal(Literal::String(s)) => s.chars().count() as u64,
        ExprKind::Literal(Literal::Bytes(b)) => b.len() as u64,
        ExprKind::Literal(_) => 1,
        ExprKind::List { elements, .. } => elements.len() as u64,
        ExprKind::Map { entries } => entries.len() as u64,
        _ => return None,
    };
    Some(SizeEstimate::fixed(n))
}

/// Types whose values have a size of 1 whatever they hold.
fn is_scalar(t: &Type) -> bool {
    match t {
        Type::Bool | Type::Double | Type::Duration | Type::Int | Type::Timestamp | Type::Uint => {
            true
        }
        _ => t.unwrap_optional().is_some_and(is_scalar),
    }
}
