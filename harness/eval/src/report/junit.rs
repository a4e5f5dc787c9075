//! `junit.xml`: one test suite per corpus suite, one test case per case. A failure carries
//! its reason; a known failure (xfail) is skipped with its reason; an xpass passes, noted
//! in its system-out. No timestamps, so only the `time` attributes vary between runs.

use super::{Exporter, ReportContext};
use crate::error::{HarnessError, Result};
use crate::results::{RunResults, Status};
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use std::collections::BTreeMap;
use std::time::Duration;

pub struct JunitXml;

impl Exporter for JunitXml {
    fn file_name(&self) -> &'static str {
        "junit.xml"
    }

    fn render(&self, run: &RunResults, _: &ReportContext<'_>) -> Result<Vec<u8>> {
        let mut report = Report::new("findbench");
        let mut suites: BTreeMap<&str, TestSuite> = BTreeMap::new();
        let mut total = Duration::ZERO;
        for case in &run.cases {
            let status = match case.status {
                Status::Pass | Status::Xpass => TestCaseStatus::success(),
                Status::Fail => {
                    let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    s.set_message(case.reason.clone().unwrap_or_default());
                    s.set_type(case.outcome.clone());
                    s
                }
                Status::Xfail => {
                    let mut s = TestCaseStatus::skipped();
                    s.set_message(format!(
                        "known failure: {} ({})",
                        case.known_failure.clone().unwrap_or_default(),
                        case.reason.clone().unwrap_or_default()
                    ));
                    s
                }
            };
            let mut tc = TestCase::new(case.id.as_str(), status);
            tc.set_classname(format!("{}.{}", case.suite, case.mode));
            let time = Duration::from_secs_f64(case.duration_ms.max(0.0) / 1000.0);
            total += time;
            tc.set_time(time);
            if case.status == Status::Xpass {
                tc.set_system_out(format!(
                    "XPASS: {}",
                    case.reason.clone().unwrap_or_default()
                ));
            }
            suites
                .entry(case.suite.as_str())
                .or_insert_with(|| TestSuite::new(case.suite.as_str()))
                .add_test_case(tc);
        }
        for (_, mut suite) in suites {
            let time: Duration = suite.test_cases.iter().filter_map(|t| t.time).sum();
            suite.set_time(time);
            report.add_test_suite(suite);
        }
        report.set_time(total);
        let mut out = Vec::new();
        report
            .serialize(&mut out)
            .map_err(|e| HarnessError::Internal(format!("writing junit.xml: {e}")))?;
        if !out.ends_with(b"\n") {
            out.push(b'\n');
        }
        Ok(out)
    }
}

/// XML text and attribute escaping for the junit.xml `replay` streams case by case
/// (quick-junit builds the whole report in memory, which a million traces cannot afford);
/// characters XML 1.0 forbids are dropped.
pub fn escape_xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}
