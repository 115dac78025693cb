//! The named classes of Go's `regexp/syntax`, and what each is in the `regex` crate's syntax.
//!
//! Go's `\d`, `\s`, `\w` and POSIX classes are ASCII (its `\s` without `\v`, its `[:space:]`
//! with it), so they are written out as ranges. Its `\p{…}` names (`unicodeTable`: case and
//! `_`, `-`, space ignored, then `Any`, `Assigned`, `ASCII`, a general category, a script whose
//! name is already in that canonical form, or a category's long name) are mapped to the
//! `regex` crate's explicit `gc=`/`sc=` properties (a bare script name there means its
//! Script_Extensions, not its Script as in Go), held to Go's Unicode 15.0: a code point
//! assigned later is unassigned to Go.

/// An ASCII class of Go's: its ranges, and whether the class is their complement.
pub(super) type AsciiClass = (&'static [(u8, u8)], bool);

const DIGIT: &[(u8, u8)] = &[(b'0', b'9')];
const PERL_SPACE: &[(u8, u8)] = &[(b'\t', b'\n'), (b'\x0c', b'\r'), (b' ', b' ')];
const WORD: &[(u8, u8)] = &[(b'0', b'9'), (b'A', b'Z'), (b'_', b'_'), (b'a', b'z')];

/// `\d`, `\D`, `\s`, `\S`, `\w`, `\W`, by the letter after the backslash.
pub(super) fn perl_class(letter: u8) -> Option<AsciiClass> {
    Some(match letter {
        b'd' => (DIGIT, false),
        b'D' => (DIGIT, true),
        b's' => (PERL_SPACE, false),
        b'S' => (PERL_SPACE, true),
        b'w' => (WORD, false),
        b'W' => (WORD, true),
        _ => return None,
    })
}

/// A POSIX class by its whole name, `[:alpha:]` or `[:^alpha:]`.
pub(super) fn posix_class(name: &str) -> Option<AsciiClass> {
    let inner = name.strip_prefix("[:")?.strip_suffix(":]")?;
    let (negated, inner) = match inner.strip_prefix('^') {
        Some(rest) => (true, rest),
        None => (false, inner),
    };
    let ranges: &'static [(u8, u8)] = match inner {
        "alnum" => &[(b'0', b'9'), (b'A', b'Z'), (b'a', b'z')],
        "alpha" => &[(b'A', b'Z'), (b'a', b'z')],
        "ascii" => &[(0, 0x7f)],
        "blank" => &[(b'\t', b'\t'), (b' ', b' ')],
        "cntrl" => &[(0, 0x1f), (0x7f, 0x7f)],
        "digit" => DIGIT,
        "graph" => &[(b'!', b'~')],
        "lower" => &[(b'a', b'z')],
        "print" => &[(b' ', b'~')],
        "punct" => &[(b'!', b'/'), (b':', b'@'), (b'[', b'`'), (b'{', b'~')],
        "space" => &[(b'\t', b'\r'), (b' ', b' ')],
        "upper" => &[(b'A', b'Z')],
        "word" => WORD,
        "xdigit" => &[(b'0', b'9'), (b'A', b'F'), (b'a', b'f')],
        _ => return None,
    };
    Some((ranges, negated))
}

/// One of Go's Unicode tables as the `regex` crate can say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Property {
    /// The same in both (`Any`, `ASCII`): the crate's property.
    Same(&'static str),
    /// A category or script without unassigned code points: the crate's property, less what
    /// Unicode assigned after 15.0.
    Assigned(&'static str),
    /// A category holding the unassigned code points (`C`, `Cn`): the crate's property, plus
    /// what Unicode assigned after 15.0.
    WithUnassigned(&'static str),
    /// The surrogates, which no string holds.
    Nothing,
}

/// A `\p{…}` name of Go's: its table, and whether Go's table is that property's complement
/// (`Assigned` is "not unassigned").
pub(super) fn unicode_class(name: &str) -> Option<(Property, bool)> {
    let property = |gc: &'static str| match gc {
        "gc=C" | "gc=Cn" => Property::WithUnassigned(gc),
        "gc=Cs" => Property::Nothing,
        _ => Property::Assigned(gc),
    };
    let name = canonical_name(name);
    let found = match name.as_str() {
        "Any" => (Property::Same("Any"), false),
        "Assigned" => (Property::WithUnassigned("gc=Cn"), true),
        "Ascii" => (Property::Same("ASCII"), false),
        "Lc" => (Property::Assigned("gc=LC"), false),
        n => {
            if let Some(gc) = CATEGORIES.iter().find(|c| c.strip_prefix("gc=") == Some(n)) {
                (property(gc), false)
            } else if let Some(sc) = SCRIPTS.iter().find(|s| s.strip_prefix("sc=") == Some(n)) {
                (Property::Assigned(sc), false)
            } else {
                let (_, gc) = ALIASES.iter().find(|(alias, _)| *alias == n)?;
                (property(gc), false)
            }
        }
    };
    Some(found)
}

/// Go's `canonicalName`: the first letter uppercased, the others lowercased, `_`, `-` and
/// spaces dropped (bytes; anything else kept as it is).
fn canonical_name(name: &str) -> String {
    let mut out = Vec::with_capacity(name.len());
    for &b in name.as_bytes() {
        match b {
            b'_' | b'-' | b' ' => {}
            _ if out.is_empty() => out.push(b.to_ascii_uppercase()),
            _ => out.push(b.to_ascii_lowercase()),
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `unicode.Categories` (Go 1.26, Unicode 15.0), `LC` aside.
const CATEGORIES: [&str; 37] = [
    "gc=C", "gc=Cc", "gc=Cf", "gc=Cn", "gc=Co", "gc=Cs", "gc=L", "gc=Ll", "gc=Lm", "gc=Lo",
    "gc=Lt", "gc=Lu", "gc=M", "gc=Mc", "gc=Me", "gc=Mn", "gc=N", "gc=Nd", "gc=Nl", "gc=No", "gc=P",
    "gc=Pc", "gc=Pd", "gc=Pe", "gc=Pf", "gc=Pi", "gc=Po", "gc=Ps", "gc=S", "gc=Sc", "gc=Sk",
    "gc=Sm", "gc=So", "gc=Z", "gc=Zl", "gc=Zp", "gc=Zs",
];

/// The scripts of `unicode.Scripts` whose names Go 1.26 can look up: those already in canonical
/// form (`Old_Italic`, `SignWriting` and the other 44 cannot be named).
const SCRIPTS: [&str; 117] = [
    "sc=Adlam",
    "sc=Ahom",
    "sc=Arabic",
    "sc=Armenian",
    "sc=Avestan",
    "sc=Balinese",
    "sc=Bamum",
    "sc=Batak",
    "sc=Bengali",
    "sc=Bhaiksuki",
    "sc=Bopomofo",
    "sc=Brahmi",
    "sc=Braille",
    "sc=Buginese",
    "sc=Buhid",
    "sc=Carian",
    "sc=Chakma",
    "sc=Cham",
    "sc=Cherokee",
    "sc=Chorasmian",
    "sc=Common",
    "sc=Coptic",
    "sc=Cuneiform",
    "sc=Cypriot",
    "sc=Cyrillic",
    "sc=Deseret",
    "sc=Devanagari",
    "sc=Dogra",
    "sc=Duployan",
    "sc=Elbasan",
    "sc=Elymaic",
    "sc=Ethiopic",
    "sc=Georgian",
    "sc=Glagolitic",
    "sc=Gothic",
    "sc=Grantha",
    "sc=Greek",
    "sc=Gujarati",
    "sc=Gurmukhi",
    "sc=Han",
    "sc=Hangul",
    "sc=Hanunoo",
    "sc=Hatran",
    "sc=Hebrew",
    "sc=Hiragana",
    "sc=Inherited",
    "sc=Javanese",
    "sc=Kaithi",
    "sc=Kannada",
    "sc=Katakana",
    "sc=Kawi",
    "sc=Kharoshthi",
    "sc=Khmer",
    "sc=Khojki",
    "sc=Khudawadi",
    "sc=Lao",
    "sc=Latin",
    "sc=Lepcha",
    "sc=Limbu",
    "sc=Lisu",
    "sc=Lycian",
    "sc=Lydian",
    "sc=Mahajani",
    "sc=Makasar",
    "sc=Malayalam",
    "sc=Mandaic",
    "sc=Manichaean",
    "sc=Marchen",
    "sc=Medefaidrin",
    "sc=Miao",
    "sc=Modi",
    "sc=Mongolian",
    "sc=Mro",
    "sc=Multani",
    "sc=Myanmar",
    "sc=Nabataean",
    "sc=Nandinagari",
    "sc=Newa",
    "sc=Nko",
    "sc=Nushu",
    "sc=Ogham",
    "sc=Oriya",
    "sc=Osage",
    "sc=Osmanya",
    "sc=Palmyrene",
    "sc=Phoenician",
    "sc=Rejang",
    "sc=Runic",
    "sc=Samaritan",
    "sc=Saurashtra",
    "sc=Sharada",
    "sc=Shavian",
    "sc=Siddham",
    "sc=Sinhala",
    "sc=Sogdian",
    "sc=Soyombo",
    "sc=Sundanese",
    "sc=Syriac",
    "sc=Tagalog",
    "sc=Tagbanwa",
    "sc=Takri",
    "sc=Tamil",
    "sc=Tangsa",
    "sc=Tangut",
    "sc=Telugu",
    "sc=Thaana",
    "sc=Thai",
    "sc=Tibetan",
    "sc=Tifinagh",
    "sc=Tirhuta",
    "sc=Toto",
    "sc=Ugaritic",
    "sc=Vai",
    "sc=Vithkuqi",
    "sc=Wancho",
    "sc=Yezidi",
    "sc=Yi",
];

/// `unicode.CategoryAliases`, by canonical name.
const ALIASES: [(&str, &str); 42] = [
    ("Casedletter", "gc=LC"),
    ("Closepunctuation", "gc=Pe"),
    ("Cntrl", "gc=Cc"),
    ("Combiningmark", "gc=M"),
    ("Connectorpunctuation", "gc=Pc"),
    ("Control", "gc=Cc"),
    ("Currencysymbol", "gc=Sc"),
    ("Dashpunctuation", "gc=Pd"),
    ("Decimalnumber", "gc=Nd"),
    ("Digit", "gc=Nd"),
    ("Enclosingmark", "gc=Me"),
    ("Finalpunctuation", "gc=Pf"),
    ("Format", "gc=Cf"),
    ("Initialpunctuation", "gc=Pi"),
    ("Letter", "gc=L"),
    ("Letternumber", "gc=Nl"),
    ("Lineseparator", "gc=Zl"),
    ("Lowercaseletter", "gc=Ll"),
    ("Mark", "gc=M"),
    ("Mathsymbol", "gc=Sm"),
    ("Modifierletter", "gc=Lm"),
    ("Modifiersymbol", "gc=Sk"),
    ("Nonspacingmark", "gc=Mn"),
    ("Number", "gc=N"),
    ("Openpunctuation", "gc=Ps"),
    ("Other", "gc=C"),
    ("Otherletter", "gc=Lo"),
    ("Othernumber", "gc=No"),
    ("Otherpunctuation", "gc=Po"),
    ("Othersymbol", "gc=So"),
    ("Paragraphseparator", "gc=Zp"),
    ("Privateuse", "gc=Co"),
    ("Punct", "gc=P"),
    ("Punctuation", "gc=P"),
    ("Separator", "gc=Z"),
    ("Spaceseparator", "gc=Zs"),
    ("Spacingmark", "gc=Mc"),
    ("Surrogate", "gc=Cs"),
    ("Symbol", "gc=S"),
    ("Titlecaseletter", "gc=Lt"),
    ("Unassigned", "gc=Cn"),
    ("Uppercaseletter", "gc=Lu"),
];
