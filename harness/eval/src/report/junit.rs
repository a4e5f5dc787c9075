//! `junit.xml`, through quick-junit for a run and a replay alike. A run: one test suite per
//! corpus suite, one test case per case. A replay: one suite, its cases streamed into a
//! frame quick-junit wrote. No timestamps, so only the `time` attributes vary between runs.

use super::exporter::{CaseStreamExporter, Exporter, ReportContext};
use super::replay_document::ReplayReport;
use super::shown_question::shown_question;
use crate::atomic_file::write_atomic_with;
use crate::case::{CaseResult, Status, TraceOutcome};
use crate::error::{HarnessError, Result};
use crate::results::RunResults;
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::Write as _;
use std::path::Path;
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

/// A replay's junit.xml: one suite, its test cases spooled as the cases streamed by
/// ([`CaseStreamExporter::spool_cases`]) inside the frame quick-junit writes around them
/// ([`streamed_frame`]); gzipped as it is written with `compress`.
pub struct ReplayJunitXml {
    pub compress: bool,
}

impl ReplayJunitXml {
    /// The text before and after the spooled test cases.
    fn frame(r: &ReplayReport) -> Result<(String, String)> {
        let success = r
            .summary
            .outcomes
            .iter()
            .find(|o| o.outcome == TraceOutcome::Success)
            .map_or(0, |o| o.replayed);
        streamed_frame(
            "findbench replay",
            &format!("replay ({})", r.summary.header.profile),
            r.summary.replayed,
            r.summary.replayed - success,
        )
    }
}

impl Exporter<ReplayReport> for ReplayJunitXml {
    fn file_name(&self) -> &'static str {
        super::gzip::file_name("junit.xml", self.compress)
    }

    fn render(&self, r: &ReplayReport, _: &ReportContext<'_>) -> Result<Vec<u8>> {
        let (head, tail) = Self::frame(r)?;
        let spool = &r.spools.junit;
        let cases = std::fs::read(spool)
            .map_err(|e| HarnessError::file(spool, format!("cannot read: {e}")))?;
        let plain = [head.as_bytes(), &cases, tail.as_bytes()].concat();
        if self.compress {
            super::gzip::gzip(&plain)
                .map_err(|e| HarnessError::Internal(format!("gzip junit.xml: {e}")))
        } else {
            Ok(plain)
        }
    }

    /// Streams: the frame's head, the spooled test cases copied file to file, its tail
    /// (through gzip with `compress`).
    fn publish(&self, r: &ReplayReport, _: &ReportContext<'_>, path: &Path) -> Result<()> {
        let (head, tail) = Self::frame(r)?;
        let mut spool = File::open(&r.spools.junit)
            .map_err(|e| HarnessError::file(&r.spools.junit, format!("cannot read: {e}")))?;
        write_atomic_with(path, |w| {
            if self.compress {
                let mut gz = super::gzip::encoder(w);
                gz.write_all(head.as_bytes())?;
                std::io::copy(&mut spool, &mut gz)?;
                gz.write_all(tail.as_bytes())?;
                gz.finish().map(drop)
            } else {
                w.write_all(head.as_bytes())?;
                // file to file, so the kernel copies it (copy_file_range) without the bytes
                // passing through here
                w.flush()?;
                std::io::copy(&mut spool, w.get_mut())?;
                w.write_all(tail.as_bytes())
            }
        })
    }
}

/// The spool holds the `<testcase>` elements alone, plain: the frame, which needs the
/// totals, goes around them when the file is published.
impl CaseStreamExporter for ReplayJunitXml {
    fn spool_cases(&self, cases: &[CaseResult], out: &mut Vec<u8>) -> Result<()> {
        let elements = streamed_cases(cases)?;
        if out.is_empty() {
            *out = elements.into_bytes();
        } else {
            out.extend_from_slice(elements.as_bytes());
        }
        Ok(())
    }

    fn spool_is_the_report(&self) -> bool {
        false
    }
}

/// One case as a JUnit test case, for a run and a replay alike. A failure carries its
/// reason (a replayed one also the recorded and replayed outcomes); a known failure
/// (xfail) and a case its engine does not answer (n/a) are skipped with their reason; an
/// xpass passes, noted in its system-out.
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
        Status::NotApplicable => {
            let mut s = TestCaseStatus::skipped();
            s.set_message(format!("n/a: {reason}"));
            s
        }
    };
    // a replayed case is named by its trace id and question: ids alone say nothing
    let mut tc = if replayed {
        TestCase::new(
            format!("{} {}", case.id, shown_question(&case.query)),
            status,
        )
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
fn streamed_frame(
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

/// The `<testcase>` elements of `cases`, in order, as they sit inside [`streamed_frame`]:
/// the same text as each one's alone (`cases_streamed_together_are_the_cases_streamed_one_by_one`),
/// rendered by quick-junit in one go.
fn streamed_cases(cases: &[CaseResult]) -> Result<String> {
    let mut out = String::with_capacity(cases.len() * 128);
    let mut i = 0;
    while i < cases.len() {
        if plain_passing_replay(&cases[i]) {
            write_plain_passing_replay(&cases[i], &mut out);
            i += 1;
            continue;
        }
        // a run of cases quick-junit writes, up to the next plain one
        let start = i;
        while i < cases.len() && !plain_passing_replay(&cases[i]) {
            i += 1;
        }
        out.push_str(&through_quick_junit(cases[start..i].iter())?);
    }
    Ok(out)
}

/// The `<testcase>` elements of `cases` as quick-junit writes them inside one suite.
fn through_quick_junit<'a>(cases: impl Iterator<Item = &'a CaseResult>) -> Result<String> {
    let mut suite = TestSuite::new("");
    suite.add_test_cases(cases.map(test_case));
    if suite.test_cases.is_empty() {
        return Ok(String::new());
    }
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

/// Whether quick-junit's `<testcase>` for `case` is written without building it there: a
/// passing replayed case (a self-closing element) whose texts hold no control character
/// (quick-junit strips those and ANSI escapes, so such a case goes through it). Most
/// replayed cases are these; `cases_streamed_together_are_the_cases_streamed_one_by_one`
/// holds the bytes equal to quick-junit's.
fn plain_passing_replay(case: &CaseResult) -> bool {
    let clean = |s: &str| !s.chars().any(char::is_control);
    case.status == Status::Pass
        && case.recorded_outcome.is_some()
        && clean(&case.id)
        && clean(&case.query)
        && clean(&case.suite)
}

/// The element quick-junit writes for a [`plain_passing_replay`] case, attribute values
/// escaped as quick-xml escapes them.
fn write_plain_passing_replay(case: &CaseResult, out: &mut String) {
    let time = Duration::from_secs_f64(case.duration_ms.max(0.0) / 1000.0);
    out.push_str("        <testcase name=\"");
    escape_attribute(out, &case.id);
    out.push(' ');
    escape_attribute(out, &shown_question(&case.query));
    out.push_str("\" classname=\"");
    escape_attribute(out, &case.suite);
    let _ = writeln!(out, "\" time=\"{:.3}\"/>", time.as_secs_f64());
}

/// quick-xml's escaping of an attribute value.
fn escape_attribute(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\'' => out.push_str("&apos;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One case's `<testcase>` element as it sits inside [`streamed_frame`], with its
    /// indentation and a final line break.
    fn streamed_case(case: &CaseResult) -> Result<String> {
        streamed_cases(std::slice::from_ref(case))
    }

    #[test]
    fn cases_streamed_together_are_the_cases_streamed_one_by_one() {
        let case = |id: &str, status: Status, reason: Option<&str>| CaseResult {
            id: id.into(),
            suite: "replay".into(),
            query: "where is <a> & \"b\"".into(),
            status,
            outcome: "insufficient_evidence".into(),
            duration_ms: 1.5,
            reason: reason.map(str::to_string),
            recorded_outcome: Some(crate::case::TraceOutcome::Success),
            ..CaseResult::default()
        };
        let mut cases = vec![
            case("a", Status::Pass, None),
            case("b", Status::Fail, Some("no <candidates>")),
            case("c", Status::Pass, Some("x")),
            case("d", Status::Xpass, Some("x")),
        ];
        // every text quick-junit escapes, strips or keeps, in a passing replayed case
        for (i, text) in [
            "plain words",
            "a & b < c > d ' e \" f",
            "ünïcödé 日本語 😀",
            "tab\there",
            "new\nline",
            "bell\x07",
            "\x1b[31mred\x1b[0m",
            "del\x7f",
            "c1\u{9b}31m",
            "",
        ]
        .into_iter()
        .enumerate()
        {
            let mut c = case(&format!("t{i} {text}"), Status::Pass, None);
            c.query = text.to_string();
            c.suite = format!("suite {text}");
            c.duration_ms = i as f64 * 1.2345;
            cases.push(c);
        }
        let mut unrecorded = case("u", Status::Pass, None);
        unrecorded.recorded_outcome = None;
        cases.push(unrecorded);
        let quick_junit: String = cases
            .iter()
            .map(|c| through_quick_junit(std::iter::once(c)).unwrap())
            .collect();
        let one_by_one: String = cases.iter().map(|c| streamed_case(c).unwrap()).collect();
        let together = streamed_cases(&cases).unwrap();
        assert_eq!(one_by_one, quick_junit);
        assert_eq!(together, quick_junit);
        assert_eq!(
            together.matches("<testcase").count(),
            cases.len(),
            "{together}"
        );
        assert!(together.contains("no &lt;candidates&gt;"), "{together}");
        assert!(
            together.contains("a &amp; b &lt; c &gt; d &apos; e &quot; f"),
            "{together}"
        );
        assert_eq!(streamed_cases(&[]).unwrap(), "");
    }
}
