//! Splits an expression into tokens as cel-go's generated ANTLR lexer does: at each position
//! every token rule is tried, the longest match wins (the earlier rule on a tie), and where no
//! rule matches, the text from the token's start through the character where the last rule
//! gave up is reported as `token recognition error at: '...'` and skipped.

/// A token's kind, numbered as the grammar numbers its token types (the order in which ANTLR
/// lists expected tokens).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Tok {
    Eq = 1,
    Ne,
    In,
    Lt,
    Le,
    Ge,
    Gt,
    And,
    Or,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    LParen,
    RParen,
    Dot,
    Comma,
    Minus,
    Bang,
    Question,
    Colon,
    Plus,
    Star,
    Slash,
    Percent,
    True,
    False,
    Null,
    Float = 31,
    Int,
    Uint,
    String,
    Bytes,
    Ident,
    EscIdent,
    Eof,
}

impl Tok {
    /// How ANTLR names the token type in an `expecting` list.
    pub(crate) fn display(self) -> &'static str {
        use Tok::*;
        match self {
            Eq => "'=='",
            Ne => "'!='",
            In => "'in'",
            Lt => "'<'",
            Le => "'<='",
            Ge => "'>='",
            Gt => "'>'",
            And => "'&&'",
            Or => "'||'",
            LBracket => "'['",
            RBracket => "']'",
            LBrace => "'{'",
            RBrace => "'}'",
            LParen => "'('",
            RParen => "')'",
            Dot => "'.'",
            Comma => "','",
            Minus => "'-'",
            Bang => "'!'",
            Question => "'?'",
            Colon => "':'",
            Plus => "'+'",
            Star => "'*'",
            Slash => "'/'",
            Percent => "'%'",
            True => "'true'",
            False => "'false'",
            Null => "'null'",
            Float => "NUM_FLOAT",
            Int => "NUM_INT",
            Uint => "NUM_UINT",
            String => "STRING",
            Bytes => "BYTES",
            Ident => "IDENTIFIER",
            EscIdent => "ESC_IDENTIFIER",
            Eof => "<EOF>",
        }
    }
}

/// A token of the default channel; `start..end` index the expression's characters.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Token {
    pub kind: Tok,
    pub start: usize,
    pub end: usize,
}

/// Text the lexer could not match: characters `start..=fail` (clamped to the text).
#[derive(Debug, Clone, Copy)]
pub(crate) struct LexError {
    pub start: usize,
    pub end: usize,
}

/// What one token rule makes of the text at a position: the longest length it accepts, and
/// the index of the character at which it stopped matching (the text's length at its end).
#[derive(Clone, Copy)]
struct Attempt {
    accept: Option<usize>,
    died: usize,
}

/// The tokens of `chars` (hidden whitespace and comments dropped), ending with an EOF token,
/// and the lexer's errors in text order.
pub(crate) fn lex(chars: &[char]) -> (Vec<Token>, Vec<LexError>) {
    let mut tokens = Vec::new();
    let mut errors = Vec::new();
    let mut pos = 0;
    while pos < chars.len() {
        match longest(chars, pos) {
            Ok((kind, len)) => {
                if let Some(kind) = kind {
                    tokens.push(Token {
                        kind,
                        start: pos,
                        end: pos + len,
                    });
                }
                pos += len;
            }
            Err(died) => {
                errors.push(LexError {
                    start: pos,
                    end: (died + 1).min(chars.len()),
                });
                pos = if died < chars.len() { died + 1 } else { died };
            }
        }
    }
    tokens.push(Token {
        kind: Tok::Eof,
        start: chars.len(),
        end: chars.len(),
    });
    (tokens, errors)
}

/// The longest token at `pos` (`None` for hidden text) and its length, or the index where
/// every rule gave up.
fn longest(c: &[char], pos: usize) -> Result<(Option<Tok>, usize), usize> {
    let mut best: Option<(Option<Tok>, usize)> = None;
    let mut died = pos;
    let mut consider = |kind: Option<Tok>, a: Attempt| {
        died = died.max(a.died);
        if let Some(len) = a.accept {
            if len > 0 && best.is_none_or(|(_, l)| len > l) {
                best = Some((kind, len));
            }
        }
    };
    // Rules in the grammar's order, so that a tie keeps the earlier one.
    for (text, kind) in FIXED {
        consider(Some(*kind), fixed(c, pos, text));
    }
    consider(None, whitespace(c, pos));
    consider(None, comment(c, pos));
    let (float, int, uint) = numbers(c, pos);
    consider(Some(Tok::Float), float);
    consider(Some(Tok::Int), int);
    consider(Some(Tok::Uint), uint);
    consider(Some(Tok::String), string(c, pos));
    consider(Some(Tok::Bytes), bytes(c, pos));
    consider(Some(Tok::Ident), ident(c, pos));
    consider(Some(Tok::EscIdent), esc_ident(c, pos));
    best.ok_or(died)
}

const FIXED: &[(&str, Tok)] = &[
    ("==", Tok::Eq),
    ("!=", Tok::Ne),
    ("in", Tok::In),
    ("<", Tok::Lt),
    ("<=", Tok::Le),
    (">=", Tok::Ge),
    (">", Tok::Gt),
    ("&&", Tok::And),
    ("||", Tok::Or),
    ("[", Tok::LBracket),
    ("]", Tok::RBracket),
    ("{", Tok::LBrace),
    ("}", Tok::RBrace),
    ("(", Tok::LParen),
    (")", Tok::RParen),
    (".", Tok::Dot),
    (",", Tok::Comma),
    ("-", Tok::Minus),
    ("!", Tok::Bang),
    ("?", Tok::Question),
    (":", Tok::Colon),
    ("+", Tok::Plus),
    ("*", Tok::Star),
    ("/", Tok::Slash),
    ("%", Tok::Percent),
    ("true", Tok::True),
    ("false", Tok::False),
    ("null", Tok::Null),
];

fn at(c: &[char], i: usize) -> Option<char> {
    c.get(i).copied()
}

fn fixed(c: &[char], pos: usize, text: &str) -> Attempt {
    let mut i = pos;
    for t in text.chars() {
        if at(c, i) != Some(t) {
            return Attempt {
                accept: None,
                died: i,
            };
        }
        i += 1;
    }
    Attempt {
        accept: Some(i - pos),
        died: i,
    }
}

/// Runs `step` while it accepts characters; the rule accepts what it consumed when `min` or
/// more characters matched.
fn run(c: &[char], pos: usize, min: usize, step: impl Fn(char) -> bool) -> Attempt {
    let mut i = pos;
    while at(c, i).is_some_and(&step) {
        i += 1;
    }
    Attempt {
        accept: (i - pos >= min).then_some(i - pos),
        died: i,
    }
}

fn whitespace(c: &[char], pos: usize) -> Attempt {
    run(c, pos, 1, |ch| {
        matches!(ch, '\t' | ' ' | '\r' | '\n' | '\u{c}')
    })
}

fn comment(c: &[char], pos: usize) -> Attempt {
    if at(c, pos) != Some('/') || at(c, pos + 1) != Some('/') {
        let died = if at(c, pos) == Some('/') {
            pos + 1
        } else {
            pos
        };
        return Attempt { accept: None, died };
    }
    let end = run(c, pos + 2, 0, |ch| ch != '\n');
    Attempt {
        accept: Some(end.died - pos),
        died: end.died,
    }
}

fn is_letter(ch: char) -> bool {
    ch.is_ascii_alphabetic()
}

fn ident(c: &[char], pos: usize) -> Attempt {
    match at(c, pos) {
        Some(ch) if is_letter(ch) || ch == '_' => {
            run(c, pos, 1, |ch| ch.is_ascii_alphanumeric() || ch == '_')
        }
        _ => Attempt {
            accept: None,
            died: pos,
        },
    }
}

fn esc_ident(c: &[char], pos: usize) -> Attempt {
    if at(c, pos) != Some('`') {
        return Attempt {
            accept: None,
            died: pos,
        };
    }
    let body = run(c, pos + 1, 0, |ch| {
        ch.is_ascii_alphanumeric() || matches!(ch, '_' | '.' | '-' | '/' | ' ')
    });
    if body.died > pos + 1 && at(c, body.died) == Some('`') {
        Attempt {
            accept: Some(body.died + 1 - pos),
            died: body.died + 1,
        }
    } else {
        Attempt {
            accept: None,
            died: body.died,
        }
    }
}

/// NUM_FLOAT, NUM_INT and NUM_UINT at `pos`.
fn numbers(c: &[char], pos: usize) -> (Attempt, Attempt, Attempt) {
    let digits = |i: usize| run(c, i, 0, |ch| ch.is_ascii_digit()).died;
    let none = |died| Attempt { accept: None, died };
    // EXPONENT at i: its end, or where it gave up.
    let exponent = |i: usize| -> Result<usize, usize> {
        if !matches!(at(c, i), Some('e' | 'E')) {
            return Err(i);
        }
        let mut j = i + 1;
        if matches!(at(c, j), Some('+' | '-')) {
            j += 1;
        }
        let end = digits(j);
        if end > j { Ok(end) } else { Err(j) }
    };
    let first = at(c, pos);
    if first == Some('.') {
        let end = digits(pos + 1);
        if end == pos + 1 {
            return (none(pos + 1), none(pos), none(pos));
        }
        let float = match exponent(end) {
            Ok(e) => Attempt {
                accept: Some(e - pos),
                died: e,
            },
            Err(d) => Attempt {
                accept: Some(end - pos),
                died: d,
            },
        };
        return (float, none(pos), none(pos));
    }
    if !first.is_some_and(|ch| ch.is_ascii_digit()) {
        return (none(pos), none(pos), none(pos));
    }
    let end = digits(pos);
    // DIGIT+ ('.' DIGIT+ EXPONENT? | EXPONENT)
    let float = if at(c, end) == Some('.') {
        let frac = digits(end + 1);
        if frac == end + 1 {
            none(end + 1)
        } else {
            match exponent(frac) {
                Ok(e) => Attempt {
                    accept: Some(e - pos),
                    died: e,
                },
                Err(d) => Attempt {
                    accept: Some(frac - pos),
                    died: d,
                },
            }
        }
    } else {
        match exponent(end) {
            Ok(e) => Attempt {
                accept: Some(e - pos),
                died: e,
            },
            Err(d) => none(d),
        }
    };
    let (int, uint) = if first == Some('0') && at(c, pos + 1) == Some('x') {
        let hex = run(c, pos + 2, 0, |ch| ch.is_ascii_hexdigit()).died;
        if hex == pos + 2 {
            // "0" alone is an int; "0x" needs a hex digit.
            (
                Attempt {
                    accept: Some(1),
                    died: pos + 2,
                },
                none(pos + 2),
            )
        } else if matches!(at(c, hex), Some('u' | 'U')) {
            (
                Attempt {
                    accept: Some(hex - pos),
                    died: hex,
                },
                Attempt {
                    accept: Some(hex + 1 - pos),
                    died: hex + 1,
                },
            )
        } else {
            (
                Attempt {
                    accept: Some(hex - pos),
                    died: hex,
                },
                none(hex),
            )
        }
    } else if matches!(at(c, end), Some('u' | 'U')) {
        (
            Attempt {
                accept: Some(end - pos),
                died: end,
            },
            Attempt {
                accept: Some(end + 1 - pos),
                died: end + 1,
            },
        )
    } else {
        (
            Attempt {
                accept: Some(end - pos),
                died: end,
            },
            none(end),
        )
    };
    (float, int, uint)
}

/// An escape sequence at `i` (a backslash): its end, or where it gave up.
fn escape(c: &[char], i: usize) -> Result<usize, usize> {
    let hex = |from: usize, n: usize| -> Result<usize, usize> {
        for k in 0..n {
            if !at(c, from + k).is_some_and(|ch| ch.is_ascii_hexdigit()) {
                return Err(from + k);
            }
        }
        Ok(from + n)
    };
    match at(c, i + 1) {
        Some('a' | 'b' | 'f' | 'n' | 'r' | 't' | 'v' | '"' | '\'' | '\\' | '?' | '`') => Ok(i + 2),
        Some('x' | 'X') => hex(i + 2, 2),
        Some('u') => hex(i + 2, 4),
        Some('U') => hex(i + 2, 8),
        Some('0'..='3') => {
            for k in 2..4 {
                if !at(c, i + k).is_some_and(|ch| ('0'..='7').contains(&ch)) {
                    return Err(i + k);
                }
            }
            Ok(i + 4)
        }
        _ => Err(i + 1),
    }
}

/// STRING at `pos`: the eight quoting forms, raw or not.
fn string(c: &[char], pos: usize) -> Attempt {
    let (raw, q) = match at(c, pos) {
        Some('r' | 'R') => (true, pos + 1),
        _ => (false, pos),
    };
    let quote = match at(c, q) {
        Some(ch @ ('"' | '\'')) => ch,
        _ => {
            return Attempt {
                accept: None,
                died: q,
            };
        }
    };
    // The single-quoted form, and where it ends or dies.
    let mut i = q + 1;
    let single = loop {
        match at(c, i) {
            None => {
                break Attempt {
                    accept: None,
                    died: i,
                };
            }
            Some(ch) if ch == quote => {
                break Attempt {
                    accept: Some(i + 1 - pos),
                    died: i + 1,
                };
            }
            Some('\n' | '\r') => {
                break Attempt {
                    accept: None,
                    died: i,
                };
            }
            Some('\\') if !raw => match escape(c, i) {
                Ok(end) => i = end,
                Err(d) => {
                    break Attempt {
                        accept: None,
                        died: d,
                    };
                }
            },
            Some(_) => i += 1,
        }
    };
    if at(c, q + 1) != Some(quote) || at(c, q + 2) != Some(quote) {
        return single;
    }
    // The triple-quoted form ends at the first closing triple (its loop is non-greedy).
    let mut i = q + 3;
    let triple = loop {
        if at(c, i) == Some(quote) && at(c, i + 1) == Some(quote) && at(c, i + 2) == Some(quote) {
            break Attempt {
                accept: Some(i + 3 - pos),
                died: i + 3,
            };
        }
        match at(c, i) {
            None => {
                break Attempt {
                    accept: None,
                    died: i,
                };
            }
            Some('\\') if !raw => match escape(c, i) {
                Ok(end) => i = end,
                Err(d) => {
                    break Attempt {
                        accept: None,
                        died: d,
                    };
                }
            },
            Some(_) => i += 1,
        }
    };
    Attempt {
        accept: triple.accept.or(single.accept),
        died: triple.died.max(single.died),
    }
}

fn bytes(c: &[char], pos: usize) -> Attempt {
    if !matches!(at(c, pos), Some('b' | 'B')) {
        return Attempt {
            accept: None,
            died: pos,
        };
    }
    let s = string(c, pos + 1);
    Attempt {
        accept: s.accept.map(|l| l + 1),
        died: s.died,
    }
}
