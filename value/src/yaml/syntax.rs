//! Syntax errors of the event parser, in our words.
//!
//! granit-parser is built without its `error_messages` feature, so its errors carry a kind and a
//! position but no text; the text is written here.

use granit_parser::{ErrorKind as Syntax, Marker, ScanError};

use crate::{Error, ErrorKind, Location};

/// The location of a parser position in `text`.
pub(super) fn location(text: &str, mark: &Marker) -> Location {
    let offset = mark
        .byte_offset()
        .or_else(|| text.char_indices().nth(mark.index()).map(|(i, _)| i))
        .unwrap_or(text.len());
    Location::Text {
        line: mark.line(),
        column: mark.col() + 1,
        offset,
    }
}

/// Our error for a parser error in `text`.
pub(super) fn error(text: &str, e: &ScanError) -> Error {
    let location = location(text, e.marker());
    let kind = if matches!(e.kind(), Syntax::RecursionLimitExceeded) {
        ErrorKind::Limit
    } else {
        ErrorKind::Yaml
    };
    Error::new(kind, message(e.kind()), location)
}

fn message(kind: &Syntax) -> String {
    let text = match kind {
        Syntax::UnexpectedEofFlowSequence => "unexpected end of input in a flow sequence",
        Syntax::UnexpectedEofFlowMapping => "unexpected end of input in a flow mapping",
        Syntax::UnexpectedEofImplicitFlowMapping => {
            "unexpected end of input in an implicit flow mapping"
        }
        Syntax::UnexpectedEofBlockSequence => "unexpected end of input in a block sequence",
        Syntax::UnexpectedEofBlockMapping => "unexpected end of input in a block mapping",
        Syntax::UnexpectedEof => "unexpected end of input",
        Syntax::ExpectedStreamStart => "did not find expected stream start",
        Syntax::DuplicateVersionDirective => "found duplicate %YAML directive",
        Syntax::UnsupportedYamlMajorVersion => "found incompatible YAML document",
        Syntax::DuplicateTagDirective => "found duplicate %TAG directive",
        Syntax::ExpectedDocumentStart => "did not find expected <document start>",
        Syntax::MissingDocumentEndBeforeDirective => {
            "a directive must follow an explicit document end marker (...)"
        }
        Syntax::AnchorCountOverflow => "too many anchors",
        Syntax::UnknownAnchor => "found an alias to an unknown anchor",
        Syntax::ExpectedNodeContent => "did not find expected node content",
        Syntax::ExpectedBlockMappingKey => "did not find expected key in a block mapping",
        Syntax::ExpectedFlowMappingSeparator => {
            "did not find expected ',' or '}' in a flow mapping"
        }
        Syntax::ExpectedFlowSequenceSeparator => {
            "did not find expected ',' or ']' in a flow sequence"
        }
        Syntax::ExpectedBlockSequenceEntry => "did not find expected '-' indicator",
        Syntax::UndeclaredTagHandle => "found undefined tag handle",
        Syntax::ExpectedTagBang => "did not find expected '!' in a tag",
        Syntax::ExpectedTagDirectiveBang => "did not find expected '!' in a %TAG directive",
        Syntax::InvalidGlobalTagCharacter => "found an invalid character in a global tag",
        Syntax::SimpleKeyExpected => "could not find expected ':'",
        Syntax::InvalidSimpleKey => "could not find expected ':' (the key is no longer valid)",
        Syntax::InvalidDocumentEnd => "found content after a document end marker (...)",
        Syntax::InvalidIndentation => "invalid indentation",
        Syntax::BomInsideDocument => "a byte-order mark may not appear inside a document",
        Syntax::UnexpectedCharacter { character } => {
            return format!(
                "found character that cannot start any token: `{}`",
                character.escape_default()
            );
        }
        Syntax::TabNotAllowed => "found a tab character where it is not allowed",
        Syntax::TabInBlockIndentation | Syntax::TabInIndentation => {
            "found a tab character that violates indentation"
        }
        Syntax::CommentInterceptedScalar => "a comment may not interrupt a multi-line plain scalar",
        Syntax::ExpectedWhitespace => "did not find expected whitespace",
        Syntax::CommentNotSeparated => {
            "a comment must be separated from other tokens by whitespace"
        }
        Syntax::InvalidDirectiveTerminator => {
            "did not find expected comment or line break after a directive"
        }
        Syntax::DirectiveDisallowed => "directives are not allowed",
        Syntax::MissingYamlVersionSeparator => {
            "did not find expected digit or '.' in a %YAML directive"
        }
        Syntax::MissingDirectiveName => "did not find expected directive name",
        Syntax::InvalidDirectiveName => {
            "found unexpected non-alphabetical character in a directive name"
        }
        Syntax::DirectiveByteLimitExceeded { .. } => "directive is too long",
        Syntax::TooManyReservedDirectiveParams { .. } => {
            "reserved directive has too many parameters"
        }
        Syntax::YamlVersionTooLong => "found extremely long version number in a %YAML directive",
        Syntax::MissingYamlVersion => "did not find expected version number in a %YAML directive",
        Syntax::InvalidTagDirectiveTerminator => {
            "did not find expected whitespace or line break after a %TAG directive"
        }
        Syntax::InvalidTagTerminator => {
            "did not find expected whitespace or line break after a tag"
        }
        Syntax::MissingTagUri => "did not find expected tag URI",
        Syntax::UnclosedVerbatimTag => "did not find the expected '>' of a verbatim tag",
        Syntax::InvalidTagEscape | Syntax::InvalidTagUtf8LeadingByte => {
            "found an invalid escape sequence in a tag"
        }
        Syntax::InvalidTagUtf8TrailingByte | Syntax::InvalidTagUtf8 => {
            "found an escape sequence in a tag that is not valid UTF-8"
        }
        Syntax::MissingAnchorOrAliasName => {
            "did not find expected alphabetic or numeric character in an anchor or alias name"
        }
        Syntax::MisplacedFlowCollectionEnd => "found a closing bracket without an opening one",
        Syntax::MismatchedFlowCollectionEnd { open, close } => {
            return format!("found `{close}` closing a flow collection opened by `{open}`");
        }
        Syntax::UnclosedFlowCollection { open } => {
            return format!("found a flow collection opened by `{open}` that is never closed");
        }
        Syntax::RecursionLimitExceeded => {
            return format!(
                "maps and lists nest deeper than {} levels (smd's limit, not the API server's)",
                crate::MAX_DEPTH
            );
        }
        Syntax::BlockEntryInFlowCollection => {
            "a block sequence entry ('-') is not allowed in a flow collection"
        }
        Syntax::BlockSequenceEntryNotAllowed => {
            "block sequence entries are not allowed in this context"
        }
        Syntax::InvalidBlockEntryWhitespace => "'-' must be followed by whitespace",
        Syntax::ZeroBlockScalarIndent => {
            "found an indentation indicator equal to 0 in a block scalar"
        }
        Syntax::InvalidBlockScalarHeader => {
            "did not find expected comment or line break after a block scalar header"
        }
        Syntax::TabAtBlockScalarStart => "the content of a block scalar cannot start with a tab",
        Syntax::InvalidBlockScalarIndent => "found a wrongly indented line in a block scalar",
        Syntax::DocumentIndicatorInQuotedScalar => {
            "found unexpected document indicator in a quoted scalar"
        }
        Syntax::UnclosedQuotedScalar => "found unexpected end of input in a quoted scalar",
        Syntax::InvalidQuotedScalarIndent => {
            "found invalid indentation in a multi-line quoted scalar"
        }
        Syntax::InvalidTrailingSingleQuotedScalar => {
            "found unexpected content after a single-quoted scalar"
        }
        Syntax::InvalidTrailingDoubleQuotedScalar => {
            "found unexpected content after a double-quoted scalar"
        }
        Syntax::UnknownQuotedScalarEscape => {
            "found unknown escape character in a double-quoted scalar"
        }
        Syntax::InvalidQuotedScalarHexEscape | Syntax::InvalidLowSurrogateHexEscape => {
            "did not find expected hexadecimal number in an escape sequence"
        }
        Syntax::InvalidLowSurrogate | Syntax::UnpairedLowSurrogate => {
            "found invalid low surrogate in an escape sequence"
        }
        Syntax::MissingLowSurrogate => "found high surrogate without following low surrogate",
        Syntax::InvalidUnicodeEscape => "found invalid Unicode character escape code",
        Syntax::InvalidFlowScalarIndent => "found invalid indentation in a flow collection",
        Syntax::PlainScalarStartsWithDashFlowIndicator => {
            "a plain scalar cannot start with '-' followed by one of ,[]{}"
        }
        Syntax::TabInPlainScalar => {
            "found a tab character in a plain scalar where it is not allowed"
        }
        Syntax::UnexpectedEndOfPlainScalar => "unexpected end of plain scalar",
        Syntax::MappingKeyNotAllowed => "mapping keys are not allowed in this context",
        Syntax::FlowMappingValueAdjacentCollection => {
            "':' may not be followed by '[' or '{' in a flow mapping"
        }
        Syntax::InvalidMappingValueWhitespace => "':' must be followed by whitespace",
        Syntax::InvalidColonPlacement => "found ':' where it is not allowed",
        Syntax::MappingValueNotAllowed => "mapping values are not allowed in this context",
        Syntax::Custom(message) => return message.clone(),
        other => {
            // Input adapters, parser stacks and later versions: their own text, if built with it.
            let text = other.to_string();
            return if text.is_empty() {
                format!("invalid YAML ({other:?})")
            } else {
                text
            };
        }
    };
    text.to_owned()
}
