//! The `smd` command line.

fn main() -> std::process::ExitCode {
    std::process::ExitCode::SUCCESS
}
