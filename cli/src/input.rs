//! Reading the inputs named on the command line: a file, or `-` (or nothing) for stdin.

use super::Failure;
use std::io::Read;
use std::path::Path;

/// An input and the name to use for it in messages.
#[derive(Debug)]
pub(crate) struct Input {
    pub(crate) name: String,
    pub(crate) bytes: Vec<u8>,
}

/// Reads `path`, or stdin for `None` and `-`.
pub(crate) fn read(path: Option<&Path>) -> Result<Input, Failure> {
    match path {
        None => read_stdin(),
        Some(p) if p.as_os_str() == "-" => read_stdin(),
        Some(p) => {
            let name = p.display().to_string();
            let bytes =
                std::fs::read(p).map_err(|e| Failure::new(format!("{name}: cannot read: {e}")))?;
            Ok(Input { name, bytes })
        }
    }
}

fn read_stdin() -> Result<Input, Failure> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::new(format!("<stdin>: cannot read: {e}")))?;
    Ok(Input {
        name: "<stdin>".to_owned(),
        bytes,
    })
}
