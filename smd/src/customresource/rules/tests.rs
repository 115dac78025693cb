//! What the real-server scenarios (`conformance/apiserver/scenarios/crd-rules.yaml`) cannot
//! show: a rule calling a function smd does not have is not run, and the answer says so.

use smd_fieldpath::Value;

use super::Rules;

fn schema(rule: &str) -> Value {
    let text = format!(
        r#"{{"type": "object", "properties": {{"spec": {{"type": "object",
            "properties": {{"n": {{"type": "integer", "x-kubernetes-validations": [{{"rule": {rule:?}}}]}}}}}}}}}}"#
    );
    Value::from_json(&text).unwrap_or(Value::Null)
}

fn object(n: i64) -> Value {
    Value::from_json(&format!(r#"{{"spec": {{"n": {n}}}}}"#)).unwrap_or(Value::Null)
}

#[test]
fn a_rule_with_an_unknown_function_is_named_not_run() {
    let Some(rules) = Rules::read(&schema("self > 0 && bogus.check(self)")) else {
        panic!("the schema has a rule");
    };
    let verdict = rules.check(None, &object(-1), None);
    assert!(verdict.errors.is_empty(), "{:?}", verdict.errors);
    assert_eq!(
        verdict.warnings,
        [
            r#"spec.n: x-kubernetes-validations rule "self > 0 && bogus.check(self)": cannot check offline: rule uses bogus.check"#
        ]
    );
}

#[test]
fn a_rule_with_known_functions_runs() {
    let Some(rules) = Rules::read(&schema("self > 0 && string(self).size() < 3")) else {
        panic!("the schema has a rule");
    };
    assert!(rules.check(None, &object(5), None).errors.is_empty());
    let verdict = rules.check(None, &object(-1), None);
    assert_eq!(verdict.errors.len(), 1);
    assert!(verdict.warnings.is_empty());
}
