//! The `email` format: Go's `mail.ParseAddress` succeeds with exactly one address. That is RFC
//! 5322 as `net/mail` reads it: `local@domain` (a dot-atom or quoted local part, a dot-atom or
//! an IP domain literal) optionally followed by a comment, or a display name (words, quoted
//! strings, RFC 2047 encoded words) and `<local@domain>`, or a group `name: address;` holding
//! one address. Encoded words matter only where Go fails on them: a charset other than UTF-8,
//! ISO-8859-1 or US-ASCII (Go's default decoder has no others) in a well-formed word.

use super::net;

pub(super) fn is_address(s: &str) -> bool {
    let mut p = Parser { s };
    // parseSingleAddress: one address, nothing after it but comments and spaces.
    matches!(p.address(true), Ok(1)) && p.skip_cfws() && p.s.is_empty()
}

/// Why parsing stopped; Go's messages are not needed, only that it failed.
#[derive(Debug)]
struct Fail;

type Parsed<T> = Result<T, Fail>;

/// The text still to read; every step ends on a character boundary.
struct Parser<'a> {
    s: &'a str,
}

impl<'a> Parser<'a> {
    /// `parseAddress`: the number of addresses read (a group may hold any).
    fn address(&mut self, handle_group: bool) -> Parsed<usize> {
        self.skip_space();
        if self.s.is_empty() {
            return Err(Fail);
        }
        if self.addr_spec().is_ok() {
            self.skip_space();
            if self.s.starts_with('(') {
                self.display_name_comment()?;
            }
            return Ok(1);
        }
        if !self.s.starts_with('<') {
            self.phrase()?;
        }
        self.skip_space();
        if handle_group && self.consume(':') {
            return self.group_list();
        }
        if !self.consume('<') {
            return Err(Fail);
        }
        self.addr_spec()?;
        if self.consume('>') { Ok(1) } else { Err(Fail) }
    }

    /// `consumeGroupList`, after the colon.
    fn group_list(&mut self) -> Parsed<usize> {
        self.skip_space();
        if self.consume(';') {
            return if self.skip_cfws() { Ok(0) } else { Err(Fail) };
        }
        let mut count = 0;
        loop {
            self.skip_space();
            count += self.address(false)?;
            if !self.skip_cfws() {
                return Err(Fail);
            }
            if self.consume(';') {
                return if self.skip_cfws() {
                    Ok(count)
                } else {
                    Err(Fail)
                };
            }
            if !self.consume(',') {
                return Err(Fail);
            }
        }
    }

    /// `consumeAddrSpec`; on failure nothing is consumed.
    fn addr_spec(&mut self) -> Parsed<()> {
        let orig = self.s;
        let result = self.addr_spec_inner();
        if result.is_err() {
            self.s = orig;
        }
        result
    }

    fn addr_spec_inner(&mut self) -> Parsed<()> {
        self.skip_space();
        match self.s.as_bytes().first() {
            None => return Err(Fail),
            Some(b'"') => {
                if self.quoted_string()?.is_empty() {
                    return Err(Fail);
                }
            }
            Some(_) => {
                self.atom(true, false)?;
            }
        }
        if !self.consume('@') {
            return Err(Fail);
        }
        self.skip_space();
        match self.s.as_bytes().first() {
            None => Err(Fail),
            Some(b'[') => self.domain_literal(),
            Some(_) => self.atom(true, false).map(|_| ()),
        }
    }

    /// `consumePhrase`: a display name of one word at least. An encoded word with a charset
    /// Go cannot decode ends it, and fails it when no plain word came first.
    fn phrase(&mut self) -> Parsed<()> {
        let mut words = 0;
        // Decoded encoded words waiting to be joined into one word (only their being
        // non-empty matters).
        let mut pending = false;
        let mut failed = false;
        loop {
            if words > 0 && !self.skip_cfws() {
                return Err(Fail);
            }
            self.skip_space();
            if self.s.is_empty() {
                break;
            }
            let word = if self.s.starts_with('"') {
                self.quoted_string().map(|_| Word::Plain)
            } else {
                self.atom(true, true)
                    .and_then(|w| decode_word(w.as_bytes()))
            };
            match word {
                Err(Fail) => {
                    failed = true;
                    break;
                }
                Ok(Word::Encoded { nonempty }) => pending |= nonempty,
                Ok(Word::Plain) => {
                    words += 1 + usize::from(pending);
                    pending = false;
                }
            }
        }
        words += usize::from(pending);
        if failed && words == 0 {
            Err(Fail)
        } else {
            Ok(())
        }
    }

    /// `consumeQuotedString`, from the opening quote: the unquoted text.
    fn quoted_string(&mut self) -> Parsed<Vec<char>> {
        let text = self.s.get(1..).unwrap_or_default();
        let mut out = Vec::new();
        let mut escaped = false;
        for (i, r) in text.char_indices() {
            if escaped {
                if !is_vchar(r) && !is_wsp(r) {
                    return Err(Fail);
                }
                out.push(r);
                escaped = false;
            } else if is_qtext(r) || is_wsp(r) {
                out.push(r);
            } else if r == '"' {
                self.s = text.get(i + 1..).unwrap_or_default();
                return Ok(out);
            } else if r == '\\' {
                escaped = true;
            } else {
                return Err(Fail);
            }
        }
        Err(Fail)
    }

    /// `consumeAtom`: atext (and dots when `dot`); unless `permissive`, no leading, trailing
    /// or doubled dot.
    fn atom(&mut self, dot: bool, permissive: bool) -> Parsed<&'a str> {
        let text = self.s;
        let end = text
            .char_indices()
            .find(|&(_, r)| !is_atext(r, dot))
            .map_or(text.len(), |(i, _)| i);
        if end == 0 {
            return Err(Fail);
        }
        let (atom, rest) = text.split_at(end);
        self.s = rest;
        if !permissive && (atom.starts_with('.') || atom.ends_with('.') || atom.contains("..")) {
            return Err(Fail);
        }
        Ok(atom)
    }

    /// `consumeDomainLiteral`: `[dtext]` holding an IP address `net.ParseIP` takes.
    fn domain_literal(&mut self) -> Parsed<()> {
        let text = self.s.get(1..).unwrap_or_default();
        let end = text.char_indices().find(|&(_, r)| r == ']' || !is_dtext(r));
        match end {
            Some((i, ']')) => {
                let dtext = &text.as_bytes()[..i];
                self.s = text.get(i + 1..).unwrap_or_default();
                match net::parse_addr(dtext) {
                    Some(net::Addr::V4 | net::Addr::V6 { zone: false }) => Ok(()),
                    _ => Err(Fail),
                }
            }
            _ => Err(Fail),
        }
    }

    /// `consumeDisplayNameComment`: a comment whose encoded words Go can decode.
    fn display_name_comment(&mut self) -> Parsed<()> {
        self.consume('(');
        let comment = self.comment().ok_or(Fail)?;
        let text = String::from_utf8_lossy(&comment);
        for word in text.split([' ', '\t']).filter(|w| !w.is_empty()) {
            decode_word(word.as_bytes())?;
        }
        Ok(())
    }

    /// `consumeComment`, after the opening parenthesis: its text (a backslash escapes the next
    /// byte), or `None` when it does not close.
    fn comment(&mut self) -> Option<Vec<u8>> {
        // Byte by byte, as Go reads it: an escape may skip into a character, so the text is
        // only cut where the walk ends (after a parenthesis, or at the end).
        let bytes = self.s.as_bytes();
        let mut depth = 1;
        let mut text = Vec::new();
        let mut i = 0;
        while i < bytes.len() && depth > 0 {
            if bytes[i] == b'\\' && bytes.len() - i > 1 {
                i += 1;
            } else if bytes[i] == b'(' {
                depth += 1;
            } else if bytes[i] == b')' {
                depth -= 1;
            }
            if depth > 0 {
                text.push(bytes[i]);
            }
            i += 1;
        }
        self.s = self.s.get(i..).unwrap_or_default();
        (depth == 0).then_some(text)
    }

    fn consume(&mut self, c: char) -> bool {
        match self.s.strip_prefix(c) {
            Some(rest) => {
                self.s = rest;
                true
            }
            None => false,
        }
    }

    fn skip_space(&mut self) {
        self.s = self.s.trim_start_matches([' ', '\t']);
    }

    /// `skipCFWS`: spaces and comments; false for a comment that does not close.
    fn skip_cfws(&mut self) -> bool {
        self.skip_space();
        while self.consume('(') {
            if self.comment().is_none() {
                return false;
            }
            self.skip_space();
        }
        true
    }
}

/// A word of a display name as `decodeRFC2047Word` leaves it.
enum Word {
    Plain,
    Encoded { nonempty: bool },
}

/// `decodeRFC2047Word` through `mime.WordDecoder.Decode`: a malformed encoded word is a plain
/// word; a well-formed one in a charset Go cannot decode is a failure.
fn decode_word(word: &[u8]) -> Parsed<Word> {
    let Some(inner) = word
        .strip_prefix(b"=?")
        .and_then(|w| w.strip_suffix(b"?="))
        .filter(|_| word.len() >= 8 && word.iter().filter(|&&b| b == b'?').count() == 4)
    else {
        return Ok(Word::Plain);
    };
    let mut parts = inner.splitn(3, |&b| b == b'?');
    let (Some(charset), Some(encoding), Some(text)) = (parts.next(), parts.next(), parts.next())
    else {
        return Ok(Word::Plain);
    };
    let decodes = match encoding {
        [b'B' | b'b'] => base64_decodes(text),
        [b'Q' | b'q'] => q_decodes(text),
        _ => false,
    };
    if charset.is_empty() || !decodes {
        return Ok(Word::Plain);
    }
    let charset = String::from_utf8_lossy(charset);
    if ["utf-8", "iso-8859-1", "us-ascii"]
        .iter()
        .any(|known| equal_fold(known, &charset))
    {
        Ok(Word::Encoded {
            nonempty: !text.is_empty(),
        })
    } else {
        Err(Fail)
    }
}

/// `base64.StdEncoding` decodes `text` (no line breaks can occur in an atom).
fn base64_decodes(text: &[u8]) -> bool {
    let body = text
        .strip_suffix(b"==")
        .or_else(|| text.strip_suffix(b"="))
        .unwrap_or(text);
    text.len() % 4 == 0
        && body
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || c == b'+' || c == b'/')
}

/// mime's Q decoding: printable ASCII (or tab, CR, LF), `=` and two hex digits.
fn q_decodes(text: &[u8]) -> bool {
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'=' => {
                if i + 2 >= text.len()
                    || !text[i + 1].is_ascii_hexdigit()
                    || !text[i + 2].is_ascii_hexdigit()
                {
                    return false;
                }
                i += 3;
            }
            b' '..=b'~' | b'\n' | b'\r' | b'\t' => i += 1,
            _ => return false,
        }
    }
    true
}

/// `strings.EqualFold` against an ASCII name: simple case folding, where only `ſ` and the
/// Kelvin sign fold to ASCII letters.
fn equal_fold(ascii: &str, other: &str) -> bool {
    let fold = |c: char| match c {
        '\u{17f}' => 's',
        '\u{212a}' => 'k',
        c => c.to_ascii_lowercase(),
    };
    ascii.chars().map(fold).eq(other.chars().map(fold))
}

fn is_vchar(r: char) -> bool {
    ('!'..='~').contains(&r) || !r.is_ascii()
}

fn is_wsp(r: char) -> bool {
    r == ' ' || r == '\t'
}

fn is_qtext(r: char) -> bool {
    r != '\\' && r != '"' && is_vchar(r)
}

fn is_atext(r: char, dot: bool) -> bool {
    match r {
        '.' => dot,
        '(' | ')' | '<' | '>' | '[' | ']' | ':' | ';' | '@' | '\\' | ',' | '"' => false,
        _ => is_vchar(r),
    }
}

fn is_dtext(r: char) -> bool {
    r != '[' && r != ']' && r != '\\' && is_vchar(r)
}
