//! The `smd` command line: a thin layer of flags, files and rendering over the library.

use std::process::ExitCode;

fn main() -> ExitCode {
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    smd_cli::run(std::env::args_os(), &mut stdout.lock(), &mut stderr.lock())
}
