//! The CEL parser: text to [`Parsed`] as cel-go v0.29.2's parser makes it in a Kubernetes 1.37
//! API server's CEL environment (optional syntax on, backtick-escaped field names on, the
//! macros of the standard library, optional types, two-variable comprehensions and lists v3,
//! the accumulator named `@result`).
//!
//! ```
//! let parsed = smd_cel::parse("self.size() > 2").unwrap();
//! assert_eq!(smd_cel::debug::to_debug_string(&parsed.expr), "_>_(\n  self.size(),\n  2\n)");
//! assert!(smd_cel::parse("self.").is_err());
//! ```
//!
//! | module | what |
//! |---|---|
//! | `lexer` | tokens, and the lexer's recognition errors |
//! | `grammar` | the recursive descent over cel-go's grammar, building the tree and its ids |
//! | `depth` | cel-go's two recursion limits |
//! | `macros` | the macros' expansions |
//! | `unescape` | string and bytes literal values |
//! | `errors` | the error list and its printing |

mod depth;
mod errors;
mod grammar;
mod lexer;
mod macros;
mod unescape;

pub use errors::{Location, ParseError, ParseErrors};

use crate::ast::Parsed;

/// cel-go's default limit of an expression's size, in code points (the Kubernetes environment
/// keeps it).
pub const MAX_CODE_POINTS: usize = 100_000;

/// Parses `text` as cel-go's parser does in the Kubernetes environment: the tree with cel-go's
/// node ids and offsets, or cel-go's errors.
pub fn parse(text: &str) -> Result<Parsed, ParseErrors> {
    let size = text.chars().count();
    if size > MAX_CODE_POINTS {
        let message = format!(
            "expression code point size exceeds limit: size: {size}, limit {MAX_CODE_POINTS}"
        );
        // cel-go reports it against an empty source: no line is printed.
        return Err(ParseErrors::new(
            vec![ParseError {
                location: Location::NONE,
                message,
            }],
            "",
        ));
    }
    grammar::parse(text)
}

/// The macros the parser expands, as cel-go keys them: `name:arguments:receiver-style`.
pub const MACROS: &[&str] = &[
    "has:1:false",
    "all:2:true",
    "all:3:true",
    "exists:2:true",
    "exists:3:true",
    "existsOne:3:true",
    "exists_one:2:true",
    "exists_one:3:true",
    "filter:2:true",
    "map:2:true",
    "map:3:true",
    "optFlatMap:2:true",
    "optMap:2:true",
    "sortBy:2:true",
    "transformList:3:true",
    "transformList:4:true",
    "transformMap:3:true",
    "transformMap:4:true",
    "transformMapEntry:3:true",
    "transformMapEntry:4:true",
];
