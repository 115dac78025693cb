//! A tree printed as cel-go's `debug.ToDebugString` prints it (two-space indents, literals as
//! Go formats them, comprehensions with their `// Variable` ... `// Result` labels), and the
//! same with every node's id and offset, which the parser's tests compare with cel-go's.
//!
//! ```
//! let parsed = smd_cel::parse("a.b + 1").unwrap();
//! assert_eq!(smd_cel::debug::to_debug_string(&parsed.expr), "_+_(\n  a.b,\n  1\n)");
//! assert_eq!(
//!     smd_cel::debug::to_adorned_string(&parsed),
//!     "_+_(\n  a^#1:0#.b^#2:1#,\n  1^#4:6#\n)^#3:4#"
//! );
//! ```

use std::fmt::Write;
use std::sync::OnceLock;

use crate::ast::{Expr, ExprId, ExprKind, Literal, Parsed, Source};

/// cel-go's `debug.ToDebugString` of a tree.
pub fn to_debug_string(e: &Expr) -> String {
    let mut w = Writer {
        out: String::new(),
        indent: 0,
        line_start: true,
        source: None,
    };
    w.expr(e);
    w.out
}

/// The debug string with `^#id:offset#` after every node and every map or message entry (the
/// offset in code points; `-` where the node has none).
pub fn to_adorned_string(parsed: &Parsed) -> String {
    let mut w = Writer {
        out: String::new(),
        indent: 0,
        line_start: true,
        source: Some(&parsed.source),
    };
    w.expr(&parsed.expr);
    w.out
}

struct Writer<'a> {
    out: String,
    indent: usize,
    line_start: bool,
    source: Option<&'a Source>,
}

impl Writer<'_> {
    fn push(&mut self, s: &str) {
        if self.line_start {
            self.line_start = false;
            for _ in 0..self.indent {
                self.out.push_str("  ");
            }
        }
        self.out.push_str(s);
    }

    fn newline(&mut self) {
        self.out.push('\n');
        self.line_start = true;
    }

    fn adorn(&mut self, id: ExprId) {
        if let Some(source) = self.source {
            let text = match source.offsets.get(&id) {
                Some(offset) => format!("^#{id}:{offset}#"),
                None => format!("^#{id}:-#"),
            };
            self.push(&text);
        }
    }

    /// `items` one per line, indented, separated by commas.
    fn lines<T>(&mut self, items: &[T], mut each: impl FnMut(&mut Self, &T)) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.push(",");
                self.newline();
            }
            each(self, item);
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Literal(l) => self.push(&format_literal(l)),
            ExprKind::Ident(name) => self.push(name),
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => {
                self.expr(operand);
                self.push(".");
                self.push(field);
                if *test_only {
                    self.push("~test-only~");
                }
            }
            ExprKind::Call {
                target,
                function,
                args,
            } => {
                if let Some(target) = target {
                    self.expr(target);
                    self.push(".");
                }
                self.push(function);
                self.push("(");
                if !args.is_empty() {
                    self.indent += 1;
                    self.newline();
                    self.lines(args, |w, a| w.expr(a));
                    self.indent -= 1;
                    self.newline();
                }
                self.push(")");
            }
            ExprKind::List { elements, .. } => {
                self.push("[");
                if !elements.is_empty() {
                    self.newline();
                    self.indent += 1;
                    self.lines(elements, |w, a| w.expr(a));
                    self.indent -= 1;
                    self.newline();
                }
                self.push("]");
            }
            ExprKind::Map { entries } => {
                self.push("{");
                if !entries.is_empty() {
                    self.newline();
                    self.indent += 1;
                    self.lines(entries, |w, en| {
                        if en.optional {
                            w.push("?");
                        }
                        w.expr(&en.key);
                        w.push(":");
                        w.expr(&en.value);
                        w.adorn(en.id);
                    });
                    self.indent -= 1;
                    self.newline();
                }
                self.push("}");
            }
            ExprKind::Struct { type_name, fields } => {
                self.push(type_name);
                self.push("{");
                if !fields.is_empty() {
                    self.newline();
                    self.indent += 1;
                    self.lines(fields, |w, f| {
                        if f.optional {
                            w.push("?");
                        }
                        w.push(&f.field);
                        w.push(":");
                        w.expr(&f.value);
                        w.adorn(f.id);
                    });
                    self.indent -= 1;
                    self.newline();
                }
                self.push("}");
            }
            ExprKind::Comprehension(c) => {
                self.push("__comprehension__(");
                self.indent += 1;
                self.newline();
                self.push("// Variable");
                self.newline();
                self.push(&c.iter_var);
                self.push(",");
                self.newline();
                if !c.iter_var2.is_empty() {
                    self.push(&c.iter_var2);
                    self.push(",");
                    self.newline();
                }
                let parts: [(&str, Option<&Expr>, &str); 6] = [
                    ("// Target", Some(&c.iter_range), ","),
                    ("// Accumulator", None, ","),
                    ("// Init", Some(&c.accu_init), ","),
                    ("// LoopCondition", Some(&c.loop_condition), ","),
                    ("// LoopStep", Some(&c.loop_step), ","),
                    ("// Result", Some(&c.result), ")"),
                ];
                for (label, part, end) in parts {
                    self.push(label);
                    self.newline();
                    match part {
                        Some(p) => self.expr(p),
                        None => self.push(&c.accu_var),
                    }
                    self.push(end);
                    if end == "," {
                        self.newline();
                    }
                }
                self.indent -= 1;
            }
        }
        self.adorn(e.id);
    }
}

/// A constant as Go's `fmt` writes cel-go's value of it.
fn format_literal(l: &Literal) -> String {
    match l {
        Literal::Null => "null".to_string(),
        Literal::Bool(b) => b.to_string(),
        Literal::Int(i) => i.to_string(),
        Literal::Uint(u) => format!("{u}u"),
        Literal::Double(d) => format_go_float(*d),
        Literal::String(s) => go_quote(s.as_bytes()),
        Literal::Bytes(b) => format!("b{}", go_quote(b)),
    }
}

/// Go's `%v` of a float64: the shortest digits that round-trip, in exponent form when the
/// exponent is below -4 or at least 6.
pub(crate) fn format_go_float(d: f64) -> String {
    if d.is_nan() {
        return "NaN".to_string();
    }
    if d.is_infinite() {
        return if d > 0.0 { "+Inf" } else { "-Inf" }.to_string();
    }
    let sci = format!("{:e}", d.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let sign = if d.is_sign_negative() { "-" } else { "" };
    if d == 0.0 {
        return format!("{sign}0");
    }
    if !(-4..6).contains(&exp) {
        let (first, rest) = digits.split_at(1);
        let dot = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{first}{dot}e{esign}{:02}", exp.abs());
    }
    let point = exp + 1;
    let text = if point <= 0 {
        format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
    } else if point as usize >= digits.len() {
        format!("{digits}{}", "0".repeat(point as usize - digits.len()))
    } else {
        let (int, frac) = digits.split_at(point as usize);
        format!("{int}.{frac}")
    };
    format!("{sign}{text}")
}

/// Go's `strconv.Quote` of bytes taken as UTF-8: printable characters kept, others escaped,
/// bytes that are not UTF-8 as `\x..`.
pub(crate) fn go_quote(bytes: &[u8]) -> String {
    static PRINTABLE: OnceLock<Option<regex::Regex>> = OnceLock::new();
    let printable =
        PRINTABLE.get_or_init(|| regex::Regex::new(r"^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$").ok());
    let is_print = |c: char| {
        let mut buf = [0; 4];
        printable
            .as_ref()
            .is_some_and(|re| re.is_match(c.encode_utf8(&mut buf)))
    };
    let mut out = String::from("\"");
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '"' | '\\' => {
                    out.push('\\');
                    out.push(c);
                }
                c if is_print(c) => out.push(c),
                '\u{7}' => out.push_str("\\a"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\u{b}' => out.push_str("\\v"),
                c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                    let _ = write!(out, "\\x{:02x}", c as u32);
                }
                c if (c as u32) < 0x10000 => {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                }
                c => {
                    let _ = write!(out, "\\U{:08x}", c as u32);
                }
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out.push('"');
    out
}
