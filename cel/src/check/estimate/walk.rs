//! The walk: each node's cost as cel-go's coster computes it, with what it tracks along the
//! way (paths, sizes of results, sizes of list and map entries, comprehension variables).

use super::path::Path;
use super::{
    CostEstimate, LIST_CREATE, MAP_CREATE, Node, STRUCT_CREATE, SizeEstimate, SizeEstimator,
    UNKNOWN_SIZE,
};
use crate::ast::{Comprehension, Expr, ExprId, ExprKind, Literal, MapEntry};
use crate::check::{Checked, Type};
use std::collections::HashMap;

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

/// A comprehension's or bind's variable.
struct Local {
    path: Path,
    size: Option<SizeEstimate>,
    entry: Option<EntrySize>,
}

pub(super) struct Coster<'a> {
    pub(super) checked: &'a Checked,
    sizes: &'a dyn SizeEstimator,
    paths: HashMap<ExprId, Path>,
    locals: HashMap<String, Vec<Local>>,
    computed: HashMap<ExprId, SizeEstimate>,
    entries: HashMap<ExprId, EntrySize>,
}

fn is_accumulator(name: &str) -> bool {
    name == "@result" || name == "__result__"
}

impl<'a> Coster<'a> {
    pub(super) fn new(checked: &'a Checked, sizes: &'a dyn SizeEstimator) -> Coster<'a> {
        Coster {
            checked,
            sizes,
            paths: HashMap::new(),
            locals: HashMap::new(),
            computed: HashMap::new(),
            entries: HashMap::new(),
        }
    }

    /// Each kind has its own function, so that this frame, which every level of a deep tree
    /// holds, stays small.
    pub(super) fn cost(&mut self, e: &Expr) -> CostEstimate {
        if let Some(name) = self.checked.rewritten.get(&e.id)
            && matches!(e.kind, ExprKind::Select { .. })
        {
            return self.cost_ident(e, name);
        }
        match &e.kind {
            ExprKind::Literal(_) => CostEstimate::fixed(0),
            ExprKind::Ident(name) => self.cost_ident(e, name),
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => self.cost_select(e, operand, field, *test_only),
            ExprKind::Call { .. } => self.cost_call(e),
            ExprKind::List { elements, .. } => self.cost_list(e, elements),
            ExprKind::Map { entries } => self.cost_map(e, entries),
            ExprKind::Struct { fields, .. } => {
                let mut sum = CostEstimate::fixed(0);
                for f in fields {
                    sum = sum.add(self.cost(&f.value));
                }
                sum.add(CostEstimate::fixed(STRUCT_CREATE))
            }
            ExprKind::Comprehension(c) => self.cost_comprehension(e, c),
        }
    }

    #[inline(never)]
    fn cost_ident(&mut self, e: &Expr, name: &str) -> CostEstimate {
        let path = match self.local(name) {
            Some(v) => v.path.clone(),
            None => Path::root(name),
        };
        self.paths.insert(e.id, path);
        CostEstimate::fixed(1)
    }

    #[inline(never)]
    fn cost_select(
        &mut self,
        e: &Expr,
        operand: &Expr,
        field: &str,
        test_only: bool,
    ) -> CostEstimate {
        // The environment makes a presence test free.
        let mut sum = self.cost(operand);
        if test_only {
            return sum;
        }
        if matches!(
            self.type_of(operand),
            Type::Map(..) | Type::Object(_) | Type::Param(_)
        ) {
            sum = sum.add(CostEstimate::fixed(1));
        }
        let path = self.path(operand).append(field);
        self.paths.insert(e.id, path);
        sum
    }

    #[inline(never)]
    fn cost_list(&mut self, e: &Expr, elements: &[Expr]) -> CostEstimate {
        let mut sum = CostEstimate::fixed(0);
        let mut item = SizeEstimate {
            min: u64::MAX,
            max: 0,
        };
        if elements.is_empty() {
            item.min = 0;
        }
        for el in elements {
            sum = sum.add(self.cost(el));
            item = item.union(self.size_or_unknown(el));
        }
        self.entries.insert(
            e.id,
            EntrySize {
                container: Container::List,
                key: SizeEstimate::fixed(1),
                value: item,
            },
        );
        sum.add(CostEstimate::fixed(LIST_CREATE))
    }

    #[inline(never)]
    fn cost_map(&mut self, e: &Expr, entries: &[MapEntry]) -> CostEstimate {
        let mut sum = CostEstimate::fixed(0);
        let mut key = SizeEstimate {
            min: u64::MAX,
            max: 0,
        };
        let mut value = key;
        if entries.is_empty() {
            key.min = 0;
            value.min = 0;
        }
        for entry in entries {
            sum = sum.add(self.cost(&entry.key));
            sum = sum.add(self.cost(&entry.value));
            key = key.union(self.size_or_unknown(&entry.key));
            value = value.union(self.size_or_unknown(&entry.value));
        }
        self.entries.insert(
            e.id,
            EntrySize {
                container: Container::Map,
                key,
                value,
            },
        );
        sum.add(CostEstimate::fixed(MAP_CREATE))
    }

    #[inline(never)]
    fn cost_comprehension(&mut self, e: &Expr, c: &Comprehension) -> CostEstimate {
        if is_bind(c) {
            return self.cost_bind(e, c);
        }
        let mut sum = self.cost(&c.iter_range);
        sum = sum.add(self.cost(&c.accu_init));
        self.push_local(&c.accu_var, &c.accu_init);
        let two = !c.iter_var2.is_empty();
        if two {
            self.push_iter(&c.iter_var, &c.iter_range, Role::Key);
            self.push_iter(&c.iter_var2, &c.iter_range, Role::Value);
        } else {
            self.push_iter(&c.iter_var, &c.iter_range, Role::Single);
        }
        let loop_cost = self.cost(&c.loop_condition);
        let step_cost = self.cost(&c.loop_step);
        self.pop_local(&c.iter_var);
        if two {
            self.pop_local(&c.iter_var2);
        }
        sum = sum.add(self.cost(&c.result));
        self.pop_local(&c.accu_var);
        let count = self.size_or_unknown(&c.iter_range);
        sum = sum.add(count.times_cost(step_cost.add(loop_cost)));
        match &c.accu_init.kind {
            ExprKind::Literal(_) => {
                let size = self.compute_size(&c.accu_init);
                self.set_size(e.id, size);
            }
            ExprKind::List { .. } | ExprKind::Map { .. } => {
                self.set_size(e.id, Some(count));
                if let Some(entry) = self.entry_size(&c.loop_step) {
                    self.entries.insert(e.id, entry);
                }
            }
            _ => {}
        }
        sum
    }

    fn cost_bind(&mut self, e: &Expr, c: &Comprehension) -> CostEstimate {
        // A bind's range is empty but still costed, as cel-go costs it.
        let mut sum = self.cost(&c.iter_range);
        sum = sum.add(self.cost(&c.accu_init));
        self.push_local(&c.accu_var, &c.accu_init);
        sum = sum.add(self.cost(&c.result));
        self.pop_local(&c.accu_var);
        let size = self.compute_size(&c.result);
        self.set_size(e.id, size);
        if let Some(entry) = self.entry_size(&c.result) {
            self.entries.insert(e.id, entry);
        }
        sum
    }

    fn push_local(&mut self, name: &str, init: &Expr) {
        let path = self.path(init);
        let entry = self.entry_size(init);
        let size = self.compute_size(init);
        self.locals
            .entry(name.to_string())
            .or_default()
            .push(Local { path, size, entry });
    }

    fn push_iter(&mut self, name: &str, range: &Expr, role: Role) {
        let entry = self.entry_size(range);
        let container = match entry {
            Some(e) => Some(e.container),
            None => match self.type_of(range) {
                Type::List(_) => Some(Container::List),
                Type::Map(..) => Some(Container::Map),
                _ => None,
            },
        };
        let list = container == Some(Container::List);
        let (size, sub) = match role {
            Role::Key => (
                entry.map(|e| e.key),
                if list { "@indices" } else { "@keys" },
            ),
            Role::Value => (
                entry.map(|e| e.value),
                if list { "@items" } else { "@values" },
            ),
            Role::Single if list => (entry.map(|e| e.value), "@items"),
            Role::Single => (entry.map(|e| e.key), "@keys"),
        };
        let path = self.path(range).append(sub);
        self.locals
            .entry(name.to_string())
            .or_default()
            .push(Local {
                path,
                size,
                entry: None,
            });
    }

    fn pop_local(&mut self, name: &str) {
        if let Some(stack) = self.locals.get_mut(name) {
            stack.pop();
        }
    }

    fn local(&self, name: &str) -> Option<&Local> {
        self.locals.get(name)?.last()
    }

    /// The name of an identifier, or of a selection the checker made one.
    pub(super) fn ident_name<'e>(&'e self, e: &'e Expr) -> Option<&'e str> {
        match &e.kind {
            ExprKind::Ident(n) => Some(n),
            ExprKind::Select { .. } => self.checked.rewritten.get(&e.id).map(String::as_str),
            _ => None,
        }
    }

    pub(super) fn type_of(&self, e: &Expr) -> Type {
        self.checked
            .types
            .get(&e.id)
            .cloned()
            .unwrap_or(Type::Error)
    }

    pub(super) fn path(&self, e: &Expr) -> Path {
        if let Some(name) = self.ident_name(e)
            && let Some(v) = self.local(name)
        {
            return v.path.clone();
        }
        self.paths.get(&e.id).cloned().unwrap_or_default()
    }

    pub(super) fn set_path(&mut self, id: ExprId, path: Path) {
        self.paths.insert(id, path);
    }

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

#[derive(Clone, Copy)]
enum Role {
    Key,
    Value,
    Single,
}

/// cel.bind's expansion: an empty range, a false condition, its own accumulator.
fn is_bind(c: &Comprehension) -> bool {
    matches!(&c.iter_range.kind, ExprKind::List { elements, .. } if elements.is_empty())
        && matches!(
            c.loop_condition.kind,
            ExprKind::Literal(Literal::Bool(false))
        )
        && c.accu_var != "@result"
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
