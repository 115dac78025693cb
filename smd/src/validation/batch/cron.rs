//! The schedule parser CronJob validation runs (github.com/robfig/cron/v3 `ParseStandard`, via
//! `parsers.ParseCronScheduleWithPanicRecovery`): five fields or a descriptor, each field a
//! comma list of `*`, numbers, names, ranges and steps, with the parser's error texts.

/// The parser's refusal of a schedule, if any.
pub(super) fn parse_error(spec: &str) -> Option<String> {
    if spec.is_empty() {
        return Some("empty spec string".to_owned());
    }
    let mut spec = spec;
    if spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=") {
        // The location is loaded from the time zone database, which smd does not hold: a
        // location is taken as valid (validation refuses `TZ` in a schedule anyway).
        let Some(space) = spec.find(' ') else {
            let eq = spec.find('=').map_or(0, |e| e + 1);
            return Some(format!(
                "invalid schedule format: runtime error: slice bounds out of range [{eq}:-1]"
            ));
        };
        spec = spec[space..].trim();
    }
    if let Some(descriptor) = spec.strip_prefix('@') {
        return descriptor_error(descriptor, spec);
    }
    let fields: Vec<&str> = spec.split_whitespace().collect();
    if fields.len() != 5 {
        return Some(format!(
            "expected exactly 5 fields, found {}: [{}]",
            fields.len(),
            fields.join(" ")
        ));
    }
    const BOUNDS: [(u64, u64, &[&str]); 5] = [
        (0, 59, &[]),
        (0, 23, &[]),
        (1, 31, &[]),
        (
            1,
            12,
            &[
                "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
            ],
        ),
        (0, 6, &["sun", "mon", "tue", "wed", "thu", "fri", "sat"]),
    ];
    for (field, (min, max, names)) in fields.iter().zip(BOUNDS) {
        for expr in field.split(',').filter(|e| !e.is_empty()) {
            if let Err(e) = range(expr, min, max, names) {
                return Some(e);
            }
        }
    }
    None
}

fn descriptor_error(descriptor: &str, spec: &str) -> Option<String> {
    match descriptor {
        "yearly" | "annually" | "monthly" | "weekly" | "daily" | "midnight" | "hourly" => None,
        _ => match descriptor.strip_prefix("every ") {
            Some(d) => duration_error(d).map(|e| format!("failed to parse duration {spec}: {e}")),
            None => Some(format!("unrecognized descriptor: {spec}")),
        },
    }
}

/// `time.ParseDuration`'s refusal, if any.
fn duration_error(s: &str) -> Option<String> {
    let quoted = smd_fieldpath::value::go_quote(s);
    let invalid = || Some(format!("time: invalid duration {quoted}"));
    let mut rest = s.strip_prefix(['-', '+']).unwrap_or(s);
    if rest == "0" {
        return None;
    }
    if rest.is_empty() {
        return invalid();
    }
    while !rest.is_empty() {
        let int_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let after_int = &rest[int_len..];
        let (frac_len, after) = match after_int.strip_prefix('.') {
            Some(f) => {
                let n = f.bytes().take_while(u8::is_ascii_digit).count();
                (n, &f[n..])
            }
            None => (0, after_int),
        };
        if int_len == 0 && frac_len == 0 {
            return invalid();
        }
        let unit_len = after
            .char_indices()
            .find(|(_, c)| *c == '.' || c.is_ascii_digit())
            .map_or(after.len(), |(i, _)| i);
        if unit_len == 0 {
            return Some(format!("time: missing unit in duration {quoted}"));
        }
        let unit = &after[..unit_len];
        if !["ns", "us", "µs", "μs", "ms", "s", "m", "h"].contains(&unit) {
            return Some(format!(
                "time: unknown unit {} in duration {quoted}",
                smd_fieldpath::value::go_quote(unit)
            ));
        }
        rest = &after[unit_len..];
    }
    None
}

/// `getRange`: `*`/`?` or a number or name, an optional `-end`, an optional `/step`.
fn range(expr: &str, min: u64, max: u64, names: &[&str]) -> Result<(), String> {
    let range_and_step: Vec<&str> = expr.split('/').collect();
    let low_high: Vec<&str> = range_and_step[0].split('-').collect();
    let single = low_high.len() == 1;
    let (start, mut end) = if low_high[0] == "*" || low_high[0] == "?" {
        (min, max)
    } else {
        let start = int_or_name(low_high[0], names)?;
        match low_high.len() {
            1 => (start, start),
            2 => (start, int_or_name(low_high[1], names)?),
            _ => return Err(format!("too many hyphens: {expr}")),
        }
    };
    let step = match range_and_step.len() {
        1 => 1,
        2 => {
            let step = parse_int(range_and_step[1])?;
            if single {
                end = max;
            }
            step
        }
        _ => return Err(format!("too many slashes: {expr}")),
    };
    if start < min {
        return Err(format!(
            "beginning of range ({start}) below minimum ({min}): {expr}"
        ));
    }
    if end > max {
        return Err(format!(
            "end of range ({end}) above maximum ({max}): {expr}"
        ));
    }
    if start > end {
        return Err(format!(
            "beginning of range ({start}) beyond end of range ({end}): {expr}"
        ));
    }
    if step == 0 {
        return Err(format!("step of range should be a positive number: {expr}"));
    }
    Ok(())
}

fn int_or_name(expr: &str, names: &[&str]) -> Result<u64, String> {
    let lower = expr.to_lowercase();
    if let Some(i) = names.iter().position(|n| *n == lower) {
        // Months count from 1, weekdays from 0.
        let base = if names.len() == 12 { 1 } else { 0 };
        return Ok(i as u64 + base);
    }
    parse_int(expr)
}

/// `mustParseInt`: `strconv.Atoi`, not negative.
fn parse_int(expr: &str) -> Result<u64, String> {
    let quoted = smd_fieldpath::value::go_quote(expr);
    let digits = expr.strip_prefix(['+', '-']).unwrap_or(expr);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "failed to parse int from {expr}: strconv.Atoi: parsing {quoted}: invalid syntax"
        ));
    }
    let n: i64 = expr.parse().map_err(|_| {
        format!(
            "failed to parse int from {expr}: strconv.Atoi: parsing {quoted}: value out of range"
        )
    })?;
    if n < 0 {
        return Err(format!("negative number ({n}) not allowed: {expr}"));
    }
    Ok(n as u64)
}

#[cfg(test)]
mod tests {
    use super::parse_error;

    #[test]
    fn parser_texts() {
        assert_eq!(parse_error("*/5 * * * *"), None);
        assert_eq!(parse_error("@hourly"), None);
        assert_eq!(parse_error("0 0 1 jan-mar MON"), None);
        assert_eq!(
            parse_error("* * *").as_deref(),
            Some("expected exactly 5 fields, found 3: [* * *]")
        );
        assert_eq!(
            parse_error("61 * * * *").as_deref(),
            Some("end of range (61) above maximum (59): 61")
        );
        assert_eq!(
            parse_error("@every 5x").as_deref(),
            Some("failed to parse duration @every 5x: time: unknown unit \"x\" in duration \"5x\"")
        );
    }
}
