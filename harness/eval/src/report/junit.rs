//! `junit.xml`, through quick-junit for a run and a replay alike. A run: one test suite per
//! corpus suite, one test case per case. A replay: one suite, its cases streamed into a
//! frame quick-junit wrote. No timestamps, so only the `time` attributes vary between runs.

use super::{Exporter, ReportContext};
use crate::error::{HarnessError, Result};
use crate::results::{CaseResult, RunResults, Status};
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
        let mut suites: BTreeMap<String, TestSuite> = BTreeMap::new();
        let mut total = Duration::ZERO;
        // with engines, each engine's cases are their own suites (`engine/suite`)
        let engines = !run.engines.is_empty();
        for case in run.all_cases() {
            let mut tc = test_case(case);
            let suite_name = if engines {
                format!("{}/{}", case.engine, case.suite)
            } else {
                case.suite.clone()
            };
            if engines {
                tc.set_classname(format!("{}.{}", suite_name.replace('/', "."), case.mode));
            }
            total += tc.time.unwrap_or_default();
            suites
                .entry(suite_name.clone())
                .or_insert_with(|| TestSuite::new(suite_name))
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

/// One case as a JUnit test case, for a run and a replay alike. A failure carries its
/// reason (a replayed one also the recorded and replayed outcomes); a known failure
/// (xfail) is skipped with its reason; an xpass passes, noted in its system-out.
pub fn test_case(case: &CaseResult) -> TestCase {
    let replayed = case.recorded_outcome.is_some();
    let reason = case.reason.clone().unwrap_or_default();
    let status = match case.status {
        Status::Pass | Status::Xpass => TestCaseStatus::success(),
        Status::Fail => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            s.set_message(reason.clone());
            s.set_type(case.outcome.clone());
            if replayed {
                s.set_description(format!(
                    "recorded {}, replayed {} ({}): {reason}",
                    case.recorded_outcome.map_or("", |o| o.as_str()),
                    case.outcome,
                    case.transition.map_or("", |t| t.as_str()),
                ));
            }
            s
        }
        Status::Xfail => {
            let mut s = TestCaseStatus::skipped();
            s.set_message(format!(
                "known failure: {} ({reason})",
                case.known_failure.clone().unwrap_or_default(),
            ));
            s
        }
    };
    // a replayed case is named by its trace id and question: ids alone say nothing
    let mut tc = if replayed {
        TestCase::new(format!("{} {}", case.id, case.query), status)
    } else {
        TestCase::new(case.id.as_str(), status)
    };
    tc.set_classname(if replayed {
        case.suite.clone()
    } else {
        format!("{}.{}", case.suite, case.mode)
    });
    tc.set_time(Duration::from_secs_f64(case.duration_ms.max(0.0) / 1000.0));
    if case.status == Status::Xpass {
        tc.set_system_out(format!("XPASS: {reason}"));
    }
    tc
}

fn serialize(report: &Report, what: &str) -> Result<String> {
    report
        .to_string()
        .map_err(|e| HarnessError::Internal(format!("writing {what}: {e}")))
}

/// The name of the placeholder test case [`streamed_frame`] cuts the frame at.
const CASES_HERE: &str = "findbench-streamed-cases";

/// The junit.xml of a replay, which streams its cases (quick-junit builds a whole report
/// in memory, which a million traces cannot afford): the text before and after the test
/// cases of one suite of `tests` cases of which `failures` failed, as quick-junit writes it.
pub fn streamed_frame(
    report_name: &str,
    suite_name: &str,
    tests: usize,
    failures: usize,
) -> Result<(String, String)> {
    let mut suite = TestSuite::new(suite_name);
    suite.add_test_case(TestCase::new(CASES_HERE, TestCaseStatus::success()));
    suite.tests = tests;
    suite.failures = failures;
    let mut report = Report::new(report_name);
    report.add_test_suite(suite);
    report.tests = tests;
    report.failures = failures;
    let text = serialize(&report, "junit.xml")?;
    let at = text
        .find(&format!("<testcase name=\"{CASES_HERE}\""))
        .ok_or_else(|| HarnessError::Internal("junit.xml frame without its marker".into()))?;
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
    let mut tail = text[end..].to_string();
    if !tail.ends_with('\n') {
        tail.push('\n');
    }
    Ok((text[..start].to_string(), tail))
}

/// One case's `<testcase>` element as it sits inside [`streamed_frame`], with its
/// indentation and a final line break.
pub fn streamed_case(case: &CaseResult) -> Result<String> {
    let mut suite = TestSuite::new("");
    suite.add_test_case(test_case(case));
    let mut report = Report::new("");
    report.add_test_suite(suite);
    let text = serialize(&report, "junit.xml")?;
    let start = text
        .find("<testcase")
        .and_then(|at| text[..at].rfind('\n'))
        .map_or(0, |i| i + 1);
    let end = text
        .rfind("</testsuite>")
        .and_then(|at| text[..at].rfind('\n'))
        .map_or(text.len(), |i| i + 1);
    Ok(text[start..end].to_string())
}
