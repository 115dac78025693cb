//! Reading the inputs named on the command line: a file, or `-` (or nothing) for stdin; whole
//! (schemas, fieldsV1), or as a stream of documents (objects, see [`super::stream`]). Each
//! document may be at most [`document_limit`] bytes; a stream has no total limit.

use super::Failure;
use super::stream::Stream;
use super::terminal::escape;
use std::cell::Cell;
use std::io::Read;
use std::path::Path;

/// The default per-document limit: 64 MiB, far above the largest object an API server stores
/// (etcd refuses requests over 1.5 MiB; the server reads request bodies up to 3 MiB).
pub(crate) const DEFAULT_DOCUMENT_LIMIT: usize = 64 << 20;

thread_local! {
    /// The per-document limit of this run (`--max-document-size`); per thread, so that runs on
    /// other threads (tests, fuzzing) do not see each other's.
    static DOCUMENT_LIMIT: Cell<usize> = const { Cell::new(DEFAULT_DOCUMENT_LIMIT) };
}

/// The most bytes one document (a YAML document, a JSON value, a whole schema file) may take.
pub(crate) fn document_limit() -> usize {
    DOCUMENT_LIMIT.with(Cell::get)
}

/// Sets [`document_limit`] for this thread's runs.
pub(crate) fn set_document_limit(limit: usize) {
    DOCUMENT_LIMIT.with(|l| l.set(limit));
}

/// A size as `--max-document-size` takes it: bytes, or a Kubernetes quantity with a binary
/// (`Ki`, `Mi`, `Gi`) or decimal (`k`, `M`, `G`) suffix.
pub(crate) fn parse_size(text: &str) -> Result<usize, String> {
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, suffix) = text.split_at(split);
    let unit: usize = match suffix {
        "" => 1,
        "k" => 1000,
        "M" => 1000 * 1000,
        "G" => 1000 * 1000 * 1000,
        "Ki" => 1 << 10,
        "Mi" => 1 << 20,
        "Gi" => 1 << 30,
        _ => {
            return Err(format!(
                "{text:?}: a size is bytes, or a number with Ki, Mi, Gi (or k, M, G): 64Mi"
            ));
        }
    };
    digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(unit))
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{text:?}: a size is a positive number of bytes, such as 64Mi"))
}

/// A size as the flag takes it, for messages: `64Mi` rather than 67108864.
pub(crate) fn size_text(bytes: usize) -> String {
    for (unit, name) in [(1 << 30, "Gi"), (1 << 20, "Mi"), (1 << 10, "Ki")] {
        if bytes % unit == 0 {
            return format!("{}{name}", bytes / unit);
        }
    }
    bytes.to_string()
}

/// The error for a document over the limit.
pub(crate) fn too_large(place: &str) -> Failure {
    Failure::new(format!(
        "{place}: the document is larger than {} (smd's per-document limit; \
         --max-document-size raises it)",
        size_text(document_limit())
    ))
}

/// An input and the name to use for it in messages.
#[derive(Debug)]
pub(crate) struct Input {
    pub(crate) name: String,
    pub(crate) bytes: Vec<u8>,
}

/// The name of `path` in messages, and a reader of it (stdin for `None` and `-`).
pub(crate) fn open(path: Option<&Path>) -> Result<(String, Box<dyn Read>), Failure> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            let name = p.display().to_string();
            let file = std::fs::File::open(p)
                .map_err(|e| Failure::new(format!("{}: cannot read: {e}", escape(&name))))?;
            Ok((name, Box::new(file)))
        }
        _ => Ok(("<stdin>".to_owned(), Box::new(std::io::stdin()))),
    }
}

/// Reads `path` (or stdin for `None` and `-`) whole: one document, at most
/// [`document_limit`] bytes.
pub(crate) fn read(path: Option<&Path>) -> Result<Input, Failure> {
    let (name, reader) = open(path)?;
    let limit = document_limit();
    let mut bytes = Vec::new();
    // One byte more than the limit tells a file at the limit from one over it.
    reader
        .take(u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::new(format!("{}: cannot read: {e}", escape(&name))))?;
    if bytes.len() > limit {
        return Err(too_large(&escape(&name)));
    }
    Ok(Input { name, bytes })
}

/// The documents of `path` (or stdin), read as a stream.
pub(crate) fn stream(path: Option<&Path>) -> Result<(String, Stream<Box<dyn Read>>), Failure> {
    let (name, reader) = open(path)?;
    Ok((name, Stream::new(reader, document_limit())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("64Mi"), Ok(64 << 20));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("2k"), Ok(2000));
        assert!(parse_size("0").is_err());
        assert!(parse_size("1Ti").is_err());
        assert!(parse_size("-1").is_err());
        assert!(parse_size("99999999999999999999Gi").is_err());
        assert_eq!(size_text(64 << 20), "64Mi");
        assert_eq!(size_text(1000), "1000");
    }
}
