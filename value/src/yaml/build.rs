//! Events to a value, as yaml.v2 decodes a document into `interface{}`: scalars resolved,
//! aliases copied, `<<` merged, keys made strings; nesting bounded.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use granit_parser::{Event, Marker, Parser, ScalarStyle, Span, StrInput, StructureStyle, Tag};

use super::plan::{self, Plan};
use super::resolve::{self, TagKind};
use super::{Duplicate, compat, input, syntax};
use crate::value::gofmt;
use crate::{Error, ErrorKind, MAX_DEPTH, Map, MapKey, Result, Value};

/// The parser's event stream.
pub(super) type Events<'a> = Parser<'a, StrInput<'a>>;

/// The next event, `None` when the stream has ended.
pub(super) fn next_event<'a>(
    events: &mut Events<'a>,
    text: &str,
) -> Result<Option<(Event<'a>, Span)>> {
    events
        .next()
        .transpose()
        .map_err(|e| syntax::error(text, &e))
}

/// Reads the events of one document (its start already read) and builds its value; also gives
/// the byte offset where the document ends and the keys it sets twice.
pub(super) fn document(
    events: &mut Events<'_>,
    text: &str,
    plan: Plan,
) -> Result<(Value, usize, Vec<Duplicate>)> {
    let (used, mut failure) = (plan.used, plan.failure);
    let mut builder = Builder {
        text,
        stack: Vec::new(),
        root: None,
        anchors: HashMap::with_capacity(used.len()),
        used,
        duplicates: Vec::new(),
    };
    let mut index = 0;
    loop {
        // Where the first pass found the document to fail, stop before copying anything.
        if failure.as_ref().is_some_and(|(at, _)| *at == index) {
            if let Some((_, e)) = failure.take() {
                return Err(e);
            }
        }
        index += 1;
        // The event is looked at where the parser put it: events are large, and moving each
        // one out of its `Option` and `Result` costs more than reading it.
        let mut item = events.next();
        let (event, span) = match &mut item {
            Some(Ok((event, span))) => (event, &*span),
            Some(Err(e)) => return Err(syntax::error(text, e)),
            None => {
                return Err(Error::new(
                    ErrorKind::Yaml,
                    "unexpected end of the event stream",
                    input::location(text, text.len()),
                ));
            }
        };
        match event {
            Event::DocumentEnd => {
                let end = span.end.byte_offset().unwrap_or(text.len());
                return Ok((builder.root.unwrap_or_default(), end, builder.duplicates));
            }
            Event::Scalar(value, style, anchor, tag) => {
                let value = std::mem::take(value);
                builder.scalar(value, *style, *anchor, tag.as_deref(), span)?;
            }
            Event::SequenceStart(style, anchor, _) => {
                builder.open(*anchor, false, *style == StructureStyle::Flow, span)?;
            }
            Event::MappingStart(style, anchor, _) => {
                builder.open(*anchor, true, *style == StructureStyle::Flow, span)?;
            }
            Event::SequenceEnd | Event::MappingEnd => builder.close()?,
            Event::Alias(id) => builder.alias(*id, span)?,
            Event::UnresolvedAlias(name) => return Err(plan::unknown_anchor(text, span, name)),
            _ => {}
        }
    }
}

/// A complete node, on its way into its parent.
struct Node {
    value: Value,
    /// Where it starts, for errors about it.
    start: Marker,
    /// It is a copy made by an alias.
    aliased: bool,
    /// It is a sequence written as the value of a `<<` key.
    merge_list: bool,
}

/// An open map or list.
struct Frame {
    anchor: usize,
    start: Marker,
    /// A flow collection (`[…]`, `{…}`).
    flow: bool,
    content: Content,
    merge_list: bool,
}

enum Content {
    List(Vec<Value>),
    Map { map: Map, key: Key },
}

/// Where a map is between its key and value events.
enum Key {
    /// The next node is a key.
    Expected,
    /// The next node is the value of this key: its text, and yaml.v2's `%#v` of the key when
    /// the key is not a string (a string key's is written from its text, and only when a
    /// duplicate needs it).
    Is(MapKey, Option<String>),
    /// The next node is the value of a `<<` key.
    Merge,
}

/// An anchor of the document that some alias refers to.
enum Slot {
    /// Its node is still being read.
    Open,
    /// Its value.
    Done(Value),
}

struct Builder<'t> {
    text: &'t str,
    stack: Vec<Frame>,
    root: Option<Value>,
    /// The anchors that some alias uses (found by the first pass); others are not kept.
    used: HashSet<usize>,
    anchors: HashMap<usize, Slot>,
    /// Keys set twice in one map, in the order met.
    duplicates: Vec<Duplicate>,
}

impl Builder<'_> {
    fn error(&self, kind: ErrorKind, message: impl Into<String>, span: &Span) -> Error {
        Error::new(kind, message, syntax::location(self.text, &span.start))
    }

    fn expects_key(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(Frame {
                content: Content::Map {
                    key: Key::Expected,
                    ..
                },
                ..
            })
        )
    }

    fn scalar(
        &mut self,
        text: Cow<'_, str>,
        style: ScalarStyle,
        anchor: usize,
        tag: Option<&Tag>,
        span: &Span,
    ) -> Result<()> {
        let tag = TagKind::of(tag);
        if style == ScalarStyle::DoubleQuoted {
            compat::check_escapes(self.text, span)?;
        }
        if self.in_block() && !span.is_empty() {
            compat::check_tab_before(self.text, span)?;
        }
        if self.expects_key() && span.is_empty() && tag == TagKind::None && anchor == 0 {
            let started_here = self
                .stack
                .last()
                .is_some_and(|top| top.start.byte_offset() == span.start.byte_offset());
            compat::check_empty_key(self.text, span, started_here)?;
        }
        if self.expects_key() && resolve::is_merge_key(&text, style, tag) {
            if let Some(Frame {
                content: Content::Map { key, .. },
                ..
            }) = self.stack.last_mut()
            {
                *key = Key::Merge;
            }
            self.define(anchor, || Value::String("<<".to_owned()));
            return Ok(());
        }
        if anchor == 0 && self.expects_key() && resolve::is_own_text(&text, style, tag) {
            // A key that is its own text (nearly every key): made a map key directly, without
            // a string value on the way.
            if let Some(Frame {
                content: Content::Map { key, .. },
                ..
            }) = self.stack.last_mut()
            {
                *key = Key::Is(MapKey::from(text), None);
                return Ok(());
            }
        }
        let value = resolve::scalar(text, style, tag)
            .map_err(|message| self.error(ErrorKind::Yaml, message, span))?;
        self.define(anchor, || value.clone());
        self.push(Node {
            value,
            start: span.start,
            aliased: false,
            merge_list: false,
        })
    }

    /// Whether the next node is in block context.
    fn in_block(&self) -> bool {
        !self.stack.last().is_some_and(|top| top.flow)
    }

    fn open(&mut self, anchor: usize, map: bool, flow: bool, span: &Span) -> Result<()> {
        if self.in_block() {
            compat::check_tab_before(self.text, span)?;
        }
        if self.expects_key() {
            let what = if map { "a map" } else { "a list" };
            return Err(self.error(
                ErrorKind::Yaml,
                format!("invalid map key: {what} cannot be a map key"),
                span,
            ));
        }
        if self.stack.len() >= MAX_DEPTH {
            return Err(plan::too_deep(self.text, span));
        }
        let merge_list = !map
            && matches!(
                self.stack.last(),
                Some(Frame {
                    content: Content::Map {
                        key: Key::Merge,
                        ..
                    },
                    ..
                })
            );
        if anchor != 0 && self.used.contains(&anchor) {
            self.anchors.insert(anchor, Slot::Open);
        }
        self.stack.push(Frame {
            anchor,
            start: span.start,
            flow,
            content: if map {
                Content::Map {
                    map: Map::new(),
                    key: Key::Expected,
                }
            } else {
                Content::List(Vec::new())
            },
            merge_list,
        });
        Ok(())
    }

    fn close(&mut self) -> Result<()> {
        let Some(frame) = self.stack.pop() else {
            return Ok(());
        };
        let value = match frame.content {
            Content::List(items) => Value::List(items),
            Content::Map { map, .. } => Value::Map(map),
        };
        self.define(frame.anchor, || value.clone());
        self.push(Node {
            value,
            start: frame.start,
            aliased: false,
            merge_list: frame.merge_list,
        })
    }

    fn alias(&mut self, id: usize, span: &Span) -> Result<()> {
        if self.in_block() {
            compat::check_tab_before(self.text, span)?;
        }
        let name = plan::alias_name(self.text, span);
        let value = match self.anchors.get(&id) {
            Some(Slot::Done(value)) => value,
            Some(Slot::Open) => return Err(plan::self_alias(self.text, span, name)),
            None => return Err(plan::unknown_anchor(self.text, span, name)),
        };
        if self.expects_key() && matches!(value, Value::List(_) | Value::Map(_)) {
            let what = if matches!(value, Value::Map(_)) {
                "a map"
            } else {
                "a list"
            };
            return Err(self.error(
                ErrorKind::Yaml,
                format!("invalid map key: {what} cannot be a map key"),
                span,
            ));
        }
        let value = value.clone();
        self.push(Node {
            value,
            start: span.start,
            aliased: true,
            merge_list: false,
        })
    }

    /// Keeps a copy of a node's value if some alias refers to its anchor.
    fn define(&mut self, anchor: usize, value: impl FnOnce() -> Value) {
        if anchor != 0 && self.used.contains(&anchor) {
            self.anchors.insert(anchor, Slot::Done(value()));
        }
    }

    /// Puts a complete node into its parent, or makes it the document's value.
    fn push(&mut self, node: Node) -> Result<()> {
        let Some(top) = self.stack.last_mut() else {
            self.root = Some(node.value);
            return Ok(());
        };
        match &mut top.content {
            Content::List(items) => {
                if top.merge_list && !matches!(node.value, Value::Map(_)) {
                    return Err(merge_error(self.text, &node.start));
                }
                items.push(node.value);
            }
            Content::Map { map, key } => match std::mem::replace(key, Key::Expected) {
                Key::Expected => {
                    // yaml.v2's strict decoding names the key as `%#v` prints the Go value.
                    let shown = (!matches!(node.value, Value::String(_))).then(|| {
                        let mut shown = String::new();
                        gofmt::write_go_syntax(&mut shown, &node.value, gofmt::MapKeys::Interface);
                        shown
                    });
                    match resolve::key_text(node.value) {
                        Ok(text) => *key = Key::Is(MapKey::from(text), shown),
                        Err(why) => {
                            return Err(Error::new(
                                ErrorKind::Yaml,
                                why,
                                syntax::location(self.text, &node.start),
                            ));
                        }
                    }
                }
                Key::Is(k, shown) => {
                    // A repeated key replaces the value and keeps its place (yaml.v2 sets the
                    // Go map entry again: the last value wins); strict decoding refuses it,
                    // naming the line of the value.
                    if map.contains_key(k.as_str()) {
                        let key = shown.unwrap_or_else(|| {
                            let mut shown = String::new();
                            let key = Value::String(k.as_str().to_owned());
                            gofmt::write_go_syntax(&mut shown, &key, gofmt::MapKeys::Interface);
                            shown
                        });
                        self.duplicates.push(Duplicate {
                            line: node.start.line(),
                            key,
                        });
                    }
                    map.insert(k, node.value);
                }
                Key::Merge => merge(map, node, self.text)?,
            },
        }
        Ok(())
    }
}

/// `decode.go:786 merge`: the value of a `<<` key is a map, an alias to a map, or a sequence of
/// those, written out. Its entries are set in the map as if written at the `<<` (replacing
/// earlier keys, replaced by later ones); in a sequence, earlier maps win over later ones.
fn merge(map: &mut Map, node: Node, text: &str) -> Result<()> {
    match node.value {
        Value::Map(entries) => {
            for (k, v) in entries {
                map.insert(k, v);
            }
        }
        Value::List(items) if node.merge_list && !node.aliased => {
            let mut merged = Map::new();
            for item in items {
                if let Value::Map(entries) = item {
                    for (k, v) in entries {
                        if !merged.contains_key(&k) {
                            merged.insert(k, v);
                        }
                    }
                }
            }
            for (k, v) in merged {
                map.insert(k, v);
            }
        }
        _ => return Err(merge_error(text, &node.start)),
    }
    Ok(())
}

fn merge_error(text: &str, start: &Marker) -> Error {
    Error::new(
        ErrorKind::Yaml,
        "map merge requires map or sequence of maps as the value",
        syntax::location(text, start),
    )
}
