//! kubectl's `-f` patterns: a path that does not exist is read as a pattern and expanded as
//! Go's `filepath.Glob` expands it (cli-runtime's `expandIfFilePattern`), so that a quoted
//! `-f 'k8s/*.yaml'` works as in kubectl. `*` is any run of characters but `/`, `?` one such
//! character, `[...]` a class (`^` negates, `a-z` ranges, `\` escapes), `\` escapes; a
//! pattern Go calls malformed is refused. Matches come in byte order, directory by directory.

use std::path::{Path, PathBuf};

/// Why a pattern gives nothing.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct BadPattern;

/// Whether `text` holds one of the characters that make a pattern.
pub(crate) fn has_meta(text: &str) -> bool {
    text.contains(['*', '?', '[', '\\'])
}

/// The paths matching `pattern`, as `filepath.Glob` gives them.
pub(crate) fn glob(pattern: &str) -> Result<Vec<PathBuf>, BadPattern> {
    if !has_meta(pattern) {
        return Ok(if std::fs::symlink_metadata(pattern).is_ok() {
            vec![PathBuf::from(pattern)]
        } else {
            Vec::new()
        });
    }
    let (dir, file) = match pattern.rfind('/') {
        Some(at) => (&pattern[..=at], &pattern[at + 1..]),
        None => ("", pattern),
    };
    let dir = match dir {
        "" => ".",
        "/" => "/",
        d => &d[..d.len() - 1],
    };
    let dirs = if has_meta(dir) {
        if dir == pattern {
            return Err(BadPattern);
        }
        glob(dir)?
    } else {
        vec![PathBuf::from(dir)]
    };
    let mut out = Vec::new();
    for d in dirs {
        matches_in(&d, file, &mut out)?;
    }
    Ok(out)
}

/// The names in `dir` matching `pattern`, joined to it as Go joins them (`.` left out).
fn matches_in(dir: &Path, pattern: &str, out: &mut Vec<PathBuf>) -> Result<(), BadPattern> {
    // A malformed pattern is refused even where no name is there to match.
    matches(pattern, "")?;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    names.sort_unstable();
    for name in names {
        if matches(pattern, &name)? {
            out.push(if dir.as_os_str() == "." {
                PathBuf::from(name)
            } else {
                dir.join(name)
            });
        }
    }
    Ok(())
}

/// Whether `name` matches `pattern` whole (`filepath.Match`).
pub(crate) fn matches(pattern: &str, name: &str) -> Result<bool, BadPattern> {
    let pattern: Vec<char> = pattern.chars().collect();
    let name: Vec<char> = name.chars().collect();
    check(&pattern)?;
    // Each (pattern, name) position is tried once: stars cannot make it exponential.
    let mut failed = std::collections::HashSet::new();
    Ok(match_from(&pattern, &name, 0, 0, &mut failed))
}

/// Refuses what Go refuses: an unclosed or empty class, a dangling escape, a range without
/// its end.
fn check(pattern: &[char]) -> Result<(), BadPattern> {
    let mut i = 0;
    while i < pattern.len() {
        match pattern[i] {
            '\\' => {
                if i + 1 >= pattern.len() {
                    return Err(BadPattern);
                }
                i += 2;
            }
            '[' => i = class(pattern, i, '\0').ok_or(BadPattern)?.1,
            _ => i += 1,
        }
    }
    Ok(())
}

/// The class opening at `pattern[at]`: whether `c` is in it, and where it ends (after `]`);
/// `None` when it is malformed.
fn class(pattern: &[char], at: usize, c: char) -> Option<(bool, usize)> {
    let mut i = at + 1;
    let negated = pattern.get(i) == Some(&'^');
    if negated {
        i += 1;
    }
    let mut matched = false;
    let mut first = true;
    loop {
        let &next = pattern.get(i)?;
        if next == ']' && !first {
            return Some((matched != negated, i + 1));
        }
        first = false;
        let (lo, after) = class_char(pattern, i)?;
        i = after;
        let mut hi = lo;
        if pattern.get(i) == Some(&'-') {
            let (end, after) = class_char(pattern, i + 1)?;
            hi = end;
            i = after;
        }
        if lo <= c && c <= hi {
            matched = true;
        }
    }
}

/// One character of a class (escaped or not), and where the next starts.
fn class_char(pattern: &[char], at: usize) -> Option<(char, usize)> {
    match *pattern.get(at)? {
        '-' | ']' => None,
        '\\' => pattern.get(at + 1).map(|&c| (c, at + 2)),
        c => Some((c, at + 1)),
    }
}

/// Whether `name[n..]` matches `pattern[p..]`; `failed` holds the positions known not to.
fn match_from(
    pattern: &[char],
    name: &[char],
    p: usize,
    n: usize,
    failed: &mut std::collections::HashSet<(usize, usize)>,
) -> bool {
    if failed.contains(&(p, n)) {
        return false;
    }
    let rest = &name[n..];
    let found = match pattern.get(p) {
        None => rest.is_empty(),
        Some('*') => (0..=rest.len())
            .take_while(|&k| k == 0 || rest[k - 1] != '/')
            .any(|k| match_from(pattern, name, p + 1, n + k, failed)),
        Some('?') => {
            rest.first().is_some_and(|&c| c != '/')
                && match_from(pattern, name, p + 1, n + 1, failed)
        }
        Some('[') => match rest.first() {
            Some(&c) if c != '/' => match class(pattern, p, c) {
                Some((true, end)) => match_from(pattern, name, end, n + 1, failed),
                _ => false,
            },
            _ => false,
        },
        Some('\\') => {
            pattern.get(p + 1).is_some_and(|c| rest.first() == Some(c))
                && match_from(pattern, name, p + 2, n + 1, failed)
        }
        Some(c) => rest.first() == Some(c) && match_from(pattern, name, p + 1, n + 1, failed),
    };
    if !found {
        failed.insert((p, n));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stars_take_polynomial_time() {
        let name = "a".repeat(200);
        assert_eq!(matches(&format!("{}b", "*a".repeat(40)), &name), Ok(false));
    }

    #[test]
    fn patterns_match_as_gos() {
        for (pattern, name, want) in [
            ("*.yaml", "a.yaml", Ok(true)),
            ("*.yaml", ".yaml", Ok(true)),
            ("*.yaml", "a.yml", Ok(false)),
            ("a?c", "abc", Ok(true)),
            ("a?c", "a/c", Ok(false)),
            ("*", "a/b", Ok(false)),
            ("[a-c]x", "bx", Ok(true)),
            ("[^a-c]x", "bx", Ok(false)),
            ("[^a-c]x", "dx", Ok(true)),
            ("\\*", "*", Ok(true)),
            ("[]a]", "a", Err(BadPattern)),
            ("[a", "a", Err(BadPattern)),
            ("a\\", "a", Err(BadPattern)),
            ("[a-]", "a", Err(BadPattern)),
        ] {
            assert_eq!(matches(pattern, name), want, "{pattern} {name}");
        }
    }
}
