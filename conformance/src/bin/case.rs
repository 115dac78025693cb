//! `case`: one conformance case beside the oracle's answer. Prints the case as its scenario
//! file has it, the oracle's answer (Go's golden, or the real kube-apiserver's), smd's answer —
//! field sets as paths per manager — and the verdict.

use smd_conformance::cases::{self, SEPARATOR};
use smd_conformance::show::{clean, report, server_report};
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "usage: case FILE CASE
       case FILE::CASE

  FILE  a scenario file, relative to conformance/scenarios (fieldmanager/configmap.yaml),
        apiserver/FILE for one of conformance/apiserver/scenarios, or a path to either
  CASE  the case's name in that file

Prints the case as its scenario file has it, Go's answer (conformance/goldens), smd's answer
and the verdict; managedFields and other field sets are shown as paths per manager. For a
real-server case: the case, the real kube-apiserver's answers, and per step whether smd's
answer agrees or what differs. The test names of `cargo test -p smd-conformance --test
cases` are FILE::CASE.

Exit status: 0 when smd agrees (or differs as KNOWN_DEVIATIONS / KNOWN_DISAGREEMENTS list),
1 when it differs otherwise (or a listed case agrees), 2 when the case cannot be found or run.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (file, name) = match args.as_slice() {
        [one] if one.contains(SEPARATOR) => match one.split_once(SEPARATOR) {
            Some((file, name)) => (file.to_owned(), name.to_owned()),
            None => return usage(),
        },
        [file, name] if !file.starts_with('-') => (file.clone(), name.clone()),
        [flag] if flag == "-h" || flag == "--help" => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => return usage(),
    };
    let root = cases::root();
    let file = cases::file_name(&root, &file);
    let (printed, status) = if file.starts_with(cases::SERVER_PREFIX) {
        let found = match cases::find_server(&root, &file, &name) {
            Ok(found) => found,
            Err(e) => return not_found(&e),
        };
        let steps = cases::check_server(&found.file, &found.case, &found.crds, &found.expected);
        let status = match &steps {
            Err(_) => 2,
            Ok(steps) => u8::from(steps.iter().any(|(_, v)| v.is_failure())),
        };
        let text = std::fs::read_to_string(cases::server_scenario_path(&root, &found.file)).ok();
        (server_report(&found, &steps, text.as_deref()), status)
    } else {
        let found = match cases::find(&root, &file, &name) {
            Ok(found) => found,
            Err(e) => return not_found(&e),
        };
        let checked = cases::check(&found.file, &found.case, &found.expected);
        let status = match checked.verdict {
            cases::Verdict::Skipped(_) => 2,
            ref v => u8::from(v.is_failure()),
        };
        let text = std::fs::read_to_string(cases::scenario_path(&root, &found.file)).ok();
        (report(&found, &checked, text.as_deref()), status)
    };
    if std::io::stdout().write_all(printed.as_bytes()).is_err() {
        return ExitCode::from(2);
    }
    ExitCode::from(status)
}

fn not_found(message: &str) -> ExitCode {
    eprintln!("case: {}", clean(message));
    ExitCode::from(2)
}

fn usage() -> ExitCode {
    eprintln!("{USAGE}");
    ExitCode::from(2)
}
