//! A YAML stream, document by document.

use granit_parser::{Event, Parser, Span, YamlVersion};

use super::build::{self, Events, next_event};
use super::plan::{self, Plan};
use super::{Document, compat, syntax};
use crate::{Error, ErrorKind, MAX_DEPTH, Result};

/// The parser's options: libyaml's (so yaml.v2's) reading wherever granit-parser offers a choice.
fn options() -> granit_parser::Options {
    granit_parser::options! {
        // Comments are not data.
        emit_comments: false,
        // An alias to an undefined anchor is our error, naming the anchor.
        emit_unresolved_aliases: true,
        // libyaml: `a: |\n  x` without a final line break is "x", not "x\n".
        block_scalar_eof_without_line_feed: true,
        // libyaml: a byte-order mark inside a document is content, not an error.
        bom_inside_document_as_content: true,
        // Nesting is checked on the events too (counting both kinds together); the parser's
        // own checks keep its state bounded and may come first when it scans ahead.
        flow_nesting_limit: MAX_DEPTH,
        block_nesting_limit: MAX_DEPTH,
    }
}

/// The documents of a text, read one at a time.
pub(super) struct Stream<'a> {
    text: &'a str,
    events: Events<'a>,
    /// A second parser over the same text, for the first pass over each document (see
    /// [`plan`]); only when the text has a `*`, without which there is no alias.
    planner: Option<Events<'a>>,
    /// Where the text after the last document read starts (its directives, if any).
    prefix: usize,
    /// How many documents were read.
    count: usize,
    done: bool,
}

impl<'a> Stream<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Stream {
            text,
            events: Parser::new_from_str_with_options(text, options()),
            planner: text
                .contains('*')
                .then(|| Parser::new_from_str_with_options(text, options())),
            prefix: 0,
            count: 0,
            done: false,
        }
    }

    /// Ends the stream: no more documents.
    pub(super) fn stop(&mut self) {
        self.done = true;
    }

    /// The next document, or `None` after the last one. After an error, `None`.
    pub(super) fn next_document(&mut self) -> Result<Option<Document>> {
        if self.done {
            return Ok(None);
        }
        let result = self.read();
        if !matches!(result, Ok(Some(_))) {
            self.done = true;
        }
        result
    }

    fn read(&mut self) -> Result<Option<Document>> {
        let first = self.count == 0;
        let Some((version, span)) = document_start(&mut self.events, self.text)? else {
            if first {
                compat::check_prefix(self.text, self.text, 0, true)?;
            }
            return Ok(None);
        };
        if let Some(YamlVersion { major, minor }) = version {
            // libyaml reads YAML 1.1 only (`parserc.go:1031`).
            if (major, minor) != (1, 1) {
                return Err(Error::new(
                    ErrorKind::Yaml,
                    format!(
                        "found incompatible YAML document: %YAML {major}.{minor} \
                         (only %YAML 1.1 is supported)"
                    ),
                    syntax::location(self.text, &span.start),
                ));
            }
        }
        let start = span.start.byte_offset().unwrap_or(self.prefix);
        let prefix = self.text.get(self.prefix..start).unwrap_or_default();
        compat::check_prefix(self.text, prefix, self.prefix, first)?;
        let plan = match &mut self.planner {
            // The planner reads the same events: it is at the same document.
            Some(planner) => match document_start(planner, self.text) {
                Ok(Some(_)) => plan::plan(planner, self.text),
                _ => Plan::default(),
            },
            None => Plan::default(),
        };
        let (value, end, duplicates) = build::document(&mut self.events, self.text, plan)?;
        self.prefix = end;
        self.count += 1;
        Ok(Some(Document {
            value,
            line: span.start.line(),
            duplicates,
        }))
    }

    /// After the first document: an error if another one follows.
    pub(super) fn expect_end(&mut self) -> Result<()> {
        match document_start(&mut self.events, self.text)? {
            None => Ok(()),
            Some((_, span)) => Err(Error::new(
                ErrorKind::Yaml,
                format!(
                    "expected a single YAML document, but a second one starts at line {}",
                    span.start.line()
                ),
                syntax::location(self.text, &span.start),
            )),
        }
    }
}

/// Reads up to the start of the next document: its `%YAML` version and its span, or `None` at
/// the end of the stream.
fn document_start(
    events: &mut Events<'_>,
    text: &str,
) -> Result<Option<(Option<YamlVersion>, Span)>> {
    loop {
        match next_event(events, text)? {
            None | Some((Event::StreamEnd, _)) => return Ok(None),
            Some((Event::DocumentStart(_, version), span)) => return Ok(Some((version, span))),
            Some(_) => {}
        }
    }
}
