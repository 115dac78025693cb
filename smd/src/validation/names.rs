//! The name and key checks of apimachinery's `util/validation` (`IsDNS1123Label`, ...) and
//! of its newer `api/validate/content` package, each returning Go's list of problems (empty
//! when the value is valid). The two packages word the length limit differently
//! (`characters` and `bytes`): each function says which it follows. The patterns are simple
//! enough to be checked by hand; each function names the regex Go matches.

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`
pub const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
/// The DNS-1123 subdomain regex.
pub const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
/// `[a-z]([-a-z0-9]*[a-z0-9])?`
pub const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
/// The label key (qualified name) part's regex.
pub const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
/// `DNS1123LabelMaxLength`.
pub const DNS1123_LABEL_MAX: usize = 63;
/// `DNS1123SubdomainMaxLength`.
pub const DNS1123_SUBDOMAIN_MAX: usize = 253;
/// `LabelValueMaxLength`, also the name part of a qualified name.
pub const LABEL_VALUE_MAX: usize = 63;

const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const LABEL_KEY_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/// `util/validation.MaxLenError`: `must be no more than N characters`.
pub fn max_len_error(n: usize) -> String {
    format!("must be no more than {n} characters")
}

/// `content.MaxLenError`: `must be no more than N bytes`.
pub fn max_len_error_bytes(n: usize) -> String {
    format!("must be no more than {n} bytes")
}

/// `RegexError(msg, fmt, examples...)` (both packages word it alike: each example after the
/// first joined by `" or "` after the previous one's `", "`, two spaces).
pub fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    // Go writes each example as `'x', ` and puts ` or ` between them: two spaces.
    let quoted: Vec<String> = examples.iter().map(|e| format!("'{e}', ")).collect();
    format!(
        "{msg} (e.g. {}regex used for validation is '{fmt}')",
        quoted.join(" or ")
    )
}

/// `EmptyError()`.
pub fn empty_error() -> String {
    "must be non-empty".to_owned()
}

/// `InclusiveRangeError(lo, hi)`.
pub fn inclusive_range_error(lo: i64, hi: i64) -> String {
    format!("must be between {lo} and {hi}, inclusive")
}

/// Whether `s` matches `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`.
pub fn matches_dns1123_label(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    match (b.first(), b.last()) {
        (Some(first), Some(last)) => {
            alnum(first) && alnum(last) && b.iter().all(|c| alnum(c) || *c == b'-')
        }
        _ => false,
    }
}

/// Whether `s` matches the DNS-1123 subdomain regex (labels joined by dots).
pub fn matches_dns1123_subdomain(s: &str) -> bool {
    s.split('.').all(matches_dns1123_label)
}

/// Whether `s` matches `^[a-z]([-a-z0-9]*[a-z0-9])?$`.
pub fn matches_dns1035_label(s: &str) -> bool {
    matches_dns1123_label(s) && s.as_bytes().first().is_some_and(u8::is_ascii_lowercase)
}

/// Whether `s` matches `^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`.
pub fn matches_label_key(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && b.iter()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// `util/validation.IsDNS1123Label` (a valid subdomain that is not a label is told it has
/// dots).
pub fn is_dns1123_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX {
        errs.push(max_len_error(DNS1123_LABEL_MAX));
    }
    if !matches_dns1123_label(value) {
        if matches_dns1123_subdomain(value) {
            errs.push("must not contain dots".to_owned());
        } else {
            errs.push(regex_error(
                DNS1123_LABEL_MSG,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

/// `util/validation.IsDNS1123Subdomain`.
pub fn is_dns1123_subdomain(value: &str) -> Vec<String> {
    dns1123_subdomain(value, max_len_error)
}

/// `content.IsDNS1123Subdomain` (lengths in bytes).
pub fn is_dns1123_subdomain_content(value: &str) -> Vec<String> {
    dns1123_subdomain(value, max_len_error_bytes)
}

/// The two packages' subdomain checks, which differ only in how they word the length limit.
fn dns1123_subdomain(value: &str, too_long: fn(usize) -> String) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX {
        errs.push(too_long(DNS1123_SUBDOMAIN_MAX));
    }
    if !matches_dns1123_subdomain(value) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_MSG,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `util/validation.IsDNS1035Label`.
pub fn is_dns1035_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX {
        errs.push(max_len_error(DNS1123_LABEL_MAX));
    }
    if !matches_dns1035_label(value) {
        errs.push(regex_error(
            DNS1035_LABEL_MSG,
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// `content.IsLabelKey` (= `IsQualifiedName`): an optional DNS subdomain prefix and `/`,
/// then a name part of at most 63 bytes.
pub fn is_qualified_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push(format!("prefix part {}", empty_error()));
            } else {
                for m in is_dns1123_subdomain_content(prefix) {
                    errs.push(format!("prefix part {m}"));
                }
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push(format!("name part {}", empty_error()));
    } else if name.len() > LABEL_VALUE_MAX {
        errs.push(format!(
            "name part {}",
            max_len_error_bytes(LABEL_VALUE_MAX)
        ));
    }
    if !matches_label_key(name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                LABEL_KEY_MSG,
                LABEL_KEY_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// `content.IsLabelValue`: empty, or a label key's name part, at most 63 bytes.
pub fn is_label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > LABEL_VALUE_MAX {
        errs.push(max_len_error_bytes(LABEL_VALUE_MAX));
    }
    if !value.is_empty() && !matches_label_key(value) {
        errs.push(regex_error(
            LABEL_VALUE_MSG,
            &format!("({LABEL_KEY_FMT})?"),
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `content.IsPathSegmentName`: not `.` or `..`, no `/` or `%`.
pub fn is_path_segment_name(name: &str) -> Vec<String> {
    if name == "." || name == ".." {
        return vec![format!("may not be '{name}'")];
    }
    is_path_segment_prefix(name)
}

/// `content.IsPathSegmentPrefix`: no `/` or `%`.
pub fn is_path_segment_prefix(name: &str) -> Vec<String> {
    ["/", "%"]
        .iter()
        .filter(|bad| name.contains(*bad))
        .map(|bad| format!("may not contain '{bad}'"))
        .collect()
}

/// `maskTrailingDash`: a `generateName` prefix of more than one byte ending in `-` is checked
/// with its last two bytes replaced by `a` (Go's slicing; the server appends a suffix).
pub fn mask_trailing_dash(name: &str) -> String {
    let b = name.as_bytes();
    if b.len() > 1 && b.ends_with(b"-") {
        let mut masked = b[..b.len() - 2].to_vec();
        masked.push(b'a');
        // A cut inside a character leaves bytes no pattern accepts, as in Go.
        return String::from_utf8_lossy(&masked).into_owned();
    }
    name.to_owned()
}

/// `NameIsDNSSubdomain(name, prefix)`.
pub fn name_is_dns_subdomain(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        return is_dns1123_subdomain(&mask_trailing_dash(name));
    }
    is_dns1123_subdomain(name)
}

/// `NameIsDNSLabel(name, prefix)`.
pub fn name_is_dns_label(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        return is_dns1123_label(&mask_trailing_dash(name));
    }
    is_dns1123_label(name)
}

/// `NameIsDNS1035Label(name, prefix)`.
pub fn name_is_dns1035_label(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        return is_dns1035_label(&mask_trailing_dash(name));
    }
    is_dns1035_label(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        assert!(matches_dns1123_label("a-1") && !matches_dns1123_label("-a"));
        assert!(!matches_dns1123_label("") && !matches_dns1123_label("A"));
        assert!(matches_dns1123_subdomain("a.b-c") && !matches_dns1123_subdomain("a..b"));
        assert!(matches_dns1035_label("a1") && !matches_dns1035_label("1a"));
        assert!(matches_label_key("A_b.c") && !matches_label_key("_a"));
        assert_eq!(is_dns1123_label("a.b"), vec!["must not contain dots"]);
        assert_eq!(mask_trailing_dash("web-"), "wea");
        assert_eq!(mask_trailing_dash("-"), "-");
        assert!(is_qualified_name("example.com/app").is_empty());
        assert_eq!(
            is_qualified_name("/app"),
            vec!["prefix part must be non-empty"]
        );
        assert!(is_label_value("").is_empty() && !is_label_value("-x").is_empty());
        // The content package's words, as a real server answered them (refusals.yaml,
        // refuse-label-value-invalid).
        assert!(
            is_label_value("my app")[0].contains("(e.g. 'MyValue',  or 'my_value',  or '12345', ")
        );
        // util/validation's words join examples alike.
        assert!(is_dns1123_label("A")[0].contains("(e.g. 'my-name',  or '123-abc', "));
    }
}
