//! Timestamp and duration accessors (`getFullYear`, ..., with an optional time zone: UTC, a
//! fixed `±hh:mm` offset; a named IANA zone other than UTC cannot be evaluated offline).

use super::{Functions, Overload, p};
use crate::error::{Error, Result};
use crate::time::{Civil, Timestamp};
use crate::value::Value;

fn zone_offset(tz: &str) -> Result<i64> {
    let Some(colon) = tz.find(':') else {
        return match tz {
            "" | "UTC" => Ok(0),
            _ => Err(Error::new(format!(
                "time zone {tz} cannot be evaluated offline"
            ))),
        };
    };
    let bad = || Error::new(format!("time: invalid offset {tz}"));
    let hours: i64 = tz[..colon].parse().map_err(|_| bad())?;
    let minutes: i64 = tz[colon + 1..].parse().map_err(|_| bad())?;
    if !(0..=59).contains(&minutes) {
        return Err(Error::new(format!(
            "timezone offset minutes out of range [0, 59]: {tz}"
        )));
    }
    let total = if tz.starts_with('-') {
        hours * 60 - minutes
    } else {
        hours * 60 + minutes
    };
    Ok(total * 60)
}

fn accessor(f: &mut Functions, name: &'static str, get: fn(&Civil, &Timestamp) -> i64) {
    f.add(
        name,
        Overload::new(
            format!("timestamp_to_{name}"),
            vec![p::TIMESTAMP],
            move |a| {
                let Value::Timestamp(t) = &a[0] else {
                    return Err(Error::no_such_overload());
                };
                Ok(Value::Int(get(&t.civil(0), t)))
            },
        ),
    );
    f.add(
        name,
        Overload::new(
            format!("timestamp_to_{name}_with_tz"),
            vec![p::TIMESTAMP, p::STRING],
            move |a| {
                let Value::Timestamp(t) = &a[0] else {
                    return Err(Error::no_such_overload());
                };
                let off = zone_offset(super::string(&a[1]))?;
                Ok(Value::Int(get(&t.civil(off), t)))
            },
        ),
    );
}

fn duration_accessor(f: &mut Functions, name: &'static str, div: i64) {
    f.add(
        name,
        Overload::new(format!("duration_to_{name}"), vec![p::DURATION], move |a| {
            let Value::Duration(d) = &a[0] else {
                return Err(Error::no_such_overload());
            };
            Ok(Value::Int(d.0 / div))
        }),
    );
}

pub(super) fn register(f: &mut Functions) {
    super::standard::register_time_conversions(f);
    accessor(f, "getFullYear", |c, _| c.year);
    accessor(f, "getMonth", |c, _| c.month - 1);
    accessor(f, "getDate", |c, _| c.day);
    accessor(f, "getDayOfMonth", |c, _| c.day - 1);
    accessor(f, "getDayOfYear", |c, _| c.yearday);
    accessor(f, "getDayOfWeek", |c, _| c.weekday);
    accessor(f, "getHours", |c, _| c.hour);
    accessor(f, "getMinutes", |c, _| c.minute);
    accessor(f, "getSeconds", |c, _| c.second);
    accessor(f, "getMilliseconds", |_, t| i64::from(t.nanos / 1_000_000));
    duration_accessor(f, "getHours", 3_600_000_000_000);
    duration_accessor(f, "getMinutes", 60_000_000_000);
    duration_accessor(f, "getSeconds", 1_000_000_000);
    duration_accessor(f, "getMilliseconds", 1_000_000);
}
