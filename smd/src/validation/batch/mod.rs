//! The `batch` group's strategy validation (k8s.io/kubernetes v1.37.2 `pkg/apis/batch/validation`
//! and the strategies of `pkg/registry/batch`).

mod cron;
mod cronjob;
mod job;
mod job_policies;
mod job_status;
mod job_update;

use super::Rules;

/// The rules of `kind`, if smd holds them.
pub(super) fn rules(kind: &str) -> Option<Rules> {
    match kind {
        "Job" => Some(job::RULES),
        "CronJob" => Some(cronjob::RULES),
        _ => None,
    }
}
