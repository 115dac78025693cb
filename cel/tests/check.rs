//! The type checker against cel-go's: every case of `cel_check.json` (written by
//! `gogen celcheck`) compiled with the same variables must give cel-go's type or its error
//! text, except the documented known differences below.

mod support;

use serde_json::Value as Json;
use smd_cel::check::Env;

/// Cases where we knowingly answer differently, with the reason.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[(
    "google.protobuf.Duration{seconds: 1}",
    "messages of protobuf's well-known types are not declared: no Kubernetes rule builds one",
)];

fn env() -> Env {
    support::celcheck_variables(Env::new())
}

fn answer(env: &Env, expr: &str) -> Result<String, String> {
    let parsed = smd_cel::parse(expr).map_err(|e| e.to_string())?;
    smd_cel::check_types(&parsed, env)
        .map(|c| c.output.to_string())
        .map_err(|e| e.to_string())
}

#[test]
fn checker_agrees_with_cel_go() {
    let corpus: Json =
        serde_json::from_str(include_str!("data/cel_check.json")).expect("corpus is JSON");
    let env = env();
    let (mut total, mut agreed, mut failures) = (0, 0, Vec::new());
    for group in ["hand", "random", "format"] {
        for case in corpus[group].as_array().expect("cases") {
            let expr = case["expr"].as_str().expect("expr");
            let got = answer(&env, expr);
            if case.get("panic").is_some() {
                // cel-go's validator crashes on it; we only must not.
                continue;
            }
            total += 1;
            let want = match (case.get("type"), case.get("error")) {
                (Some(t), _) => Ok(t.as_str().expect("type").to_string()),
                (_, Some(e)) => Err(e.as_str().expect("error").to_string()),
                _ => panic!("case without answer: {case}"),
            };
            if got == want {
                agreed += 1;
            } else if !KNOWN_DIFFERENCES.iter().any(|(e, _)| *e == expr) {
                failures.push(format!("{group} {expr:?}\n  want {want:?}\n  got  {got:?}"));
            }
        }
    }
    eprintln!("cel_check: {agreed}/{total} agree");
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
