//! Escapes and classes, as Go's parser reads them: backslash sequences outside and inside a class
//! (`parseEscape`, `parsePerlClassEscape`, `parseUnicodeClass`) and bracketed classes
//! (`parseClass`, with POSIX names and ranges), each error in Go's words at Go's position.

use super::tables;
use super::{
    Class, ClassItem, INVALID_CHAR_RANGE, INVALID_ESCAPE, Kind, Look, MISSING_BRACKET, Parser,
    TRAILING_BACKSLASH, error,
};

impl Parser<'_> {
    /// A backslash at `pos` outside a class.
    pub(super) fn escape(&mut self, pos: usize) -> Result<usize, String> {
        let b = self.src.as_bytes();
        let look = |l| Kind::Look(l);
        match b.get(pos + 1) {
            Some(b'A') => self.atom(look(Look::BeginText)).map(|()| pos + 2),
            Some(b'b') => self.atom(look(Look::WordBoundary)).map(|()| pos + 2),
            Some(b'B') => self.atom(look(Look::NoWordBoundary)).map(|()| pos + 2),
            Some(b'z') => self.atom(look(Look::EndText)).map(|()| pos + 2),
            Some(b'C') => Err(error(INVALID_ESCAPE, &self.src[pos..pos + 2])),
            Some(b'Q') => {
                let text = &self.src[pos + 2..];
                let (literal, end) = match text.find("\\E") {
                    Some(i) => (&text[..i], pos + 2 + i + 2),
                    None => (text, self.src.len()),
                };
                for c in literal.chars() {
                    self.literal(u32::from(c))?;
                }
                Ok(end)
            }
            Some(b'p' | b'P') => {
                let (item, end) = self.unicode_class(pos)?;
                let fold = self.flags.fold;
                self.atom(Kind::Class(Class {
                    negated: false,
                    fold,
                    items: vec![item],
                }))?;
                Ok(end)
            }
            Some(&letter) if tables::perl_class(letter).is_some() => {
                let items = tables::perl_class(letter)
                    .map(ClassItem::Ascii)
                    .into_iter()
                    .collect();
                let fold = self.flags.fold;
                self.atom(Kind::Class(Class {
                    negated: false,
                    fold,
                    items,
                }))?;
                Ok(pos + 2)
            }
            _ => {
                let (c, end) = self.escaped_char(pos)?;
                self.literal(c)?;
                Ok(end)
            }
        }
    }

    /// `parseEscape`: the character a backslash at `pos` stands for, and where it ends.
    pub(super) fn escaped_char(&self, pos: usize) -> Result<(u32, usize), String> {
        let src = self.src;
        let mut chars = src[pos + 1..]
            .char_indices()
            .map(|(i, c)| (pos + 1 + i + c.len_utf8(), c));
        let Some((mut t, c)) = chars.next() else {
            return Err(error(TRAILING_BACKSLASH, ""));
        };
        let b = src.as_bytes();
        let octal = |at: usize| b.get(at).is_some_and(|d| (b'0'..=b'7').contains(d));
        match c {
            c if c.is_ascii() && !c.is_ascii_alphanumeric() => return Ok((u32::from(c), t)),
            '1'..='7' | '0' if c == '0' || octal(t) => {
                let mut r = u32::from(c) - u32::from('0');
                for _ in 1..3 {
                    if !octal(t) {
                        break;
                    }
                    r = r * 8 + u32::from(b[t] - b'0');
                    t += 1;
                }
                return Ok((r, t));
            }
            'x' => {
                if let Some((next, c)) = chars.next() {
                    t = next;
                    if c == '{' {
                        let mut r: u32 = 0;
                        for (digits, (next, c)) in chars.by_ref().enumerate() {
                            t = next;
                            if c == '}' {
                                if digits == 0 {
                                    break;
                                }
                                return Ok((r, t));
                            }
                            let Some(v) = c.to_digit(16) else { break };
                            r = r * 16 + v;
                            if r > 0x10_FFFF {
                                break;
                            }
                        }
                    } else {
                        let x = c.to_digit(16);
                        let y = chars.next().and_then(|(next, c)| {
                            t = next;
                            c.to_digit(16)
                        });
                        if let (Some(x), Some(y)) = (x, y) {
                            return Ok((x * 16 + y, t));
                        }
                    }
                }
            }
            'a' => return Ok((7, t)),
            'f' => return Ok((12, t)),
            'n' => return Ok((10, t)),
            'r' => return Ok((13, t)),
            't' => return Ok((9, t)),
            'v' => return Ok((11, t)),
            _ => {}
        }
        Err(error(INVALID_ESCAPE, &src[pos..t]))
    }

    /// `\p…` or `\P…` at `pos` (`parseUnicodeClass`): the class and where it ends.
    pub(super) fn unicode_class(&self, pos: usize) -> Result<(ClassItem, usize), String> {
        let src = self.src;
        let mut negated = src.as_bytes()[pos + 1] == b'P';
        let (seq_end, name) = match src[pos + 2..].chars().next() {
            Some('{') => {
                let Some(close) = src[pos..].find('}') else {
                    return Err(error(INVALID_CHAR_RANGE, &src[pos..]));
                };
                (pos + close + 1, &src[pos + 3..pos + close])
            }
            Some(c) => (
                pos + 2 + c.len_utf8(),
                &src[pos + 2..pos + 2 + c.len_utf8()],
            ),
            None => (pos + 2, ""),
        };
        let name = match name.strip_prefix('^') {
            Some(rest) => {
                negated = !negated;
                rest
            }
            None => name,
        };
        let Some((property, complement)) = tables::unicode_class(name) else {
            return Err(error(INVALID_CHAR_RANGE, &src[pos..seq_end]));
        };
        Ok((ClassItem::Unicode(property, negated != complement), seq_end))
    }

    /// A bracketed class at `start` (`parseClass`); returns where it ends.
    pub(super) fn class(&mut self, start: usize) -> Result<usize, String> {
        let src = self.src;
        let b = src.as_bytes();
        let mut t = start + 1;
        let negated = b.get(t) == Some(&b'^');
        if negated {
            t += 1;
        }
        let mut items = Vec::new();
        let mut first = true;
        while first || b.get(t) != Some(&b']') {
            first = false;
            if b.len() - t > 2 && b[t] == b'[' && b[t + 1] == b':' && t + 2 < self.no_posix_end_from
            {
                match src[t + 2..].find(":]") {
                    None => self.no_posix_end_from = t + 2,
                    Some(i) => {
                        let name = &src[t..t + 2 + i + 2];
                        let Some(class) = tables::posix_class(name) else {
                            return Err(error(INVALID_CHAR_RANGE, name));
                        };
                        items.push(ClassItem::Ascii(class));
                        t += name.len();
                        continue;
                    }
                }
            }
            if b.get(t) == Some(&b'\\') {
                if matches!(b.get(t + 1), Some(b'p' | b'P')) {
                    let (item, end) = self.unicode_class(t)?;
                    items.push(item);
                    t = end;
                    continue;
                }
                if let Some(class) = b.get(t + 1).and_then(|&l| tables::perl_class(l)) {
                    items.push(ClassItem::Ascii(class));
                    t += 2;
                    continue;
                }
            }
            let range_start = t;
            let (lo, next) = self.class_char(t, start)?;
            t = next;
            let mut hi = lo;
            if b.len() - t >= 2 && b[t] == b'-' && b[t + 1] != b']' {
                let (h, next) = self.class_char(t + 1, start)?;
                t = next;
                if h < lo {
                    return Err(error(INVALID_CHAR_RANGE, &src[range_start..t]));
                }
                hi = h;
            }
            items.push(ClassItem::Range(lo, hi));
        }
        let fold = self.flags.fold;
        self.atom(Kind::Class(Class {
            negated,
            fold,
            items,
        }))?;
        Ok(t + 1)
    }

    /// `parseClassChar`: one character of a class (escapes allowed).
    pub(super) fn class_char(&self, t: usize, class_start: usize) -> Result<(u32, usize), String> {
        match self.src[t..].chars().next() {
            None => Err(error(MISSING_BRACKET, &self.src[class_start..])),
            Some('\\') => self.escaped_char(t),
            Some(c) => Ok((u32::from(c), t + c.len_utf8())),
        }
    }
}
