//! TREC files of a results document (`findbench export trec`): `run.trec`, every case's
//! ranked keys in the six columns `qid Q0 docid rank score tag`, and `qrels.trec`, every
//! key a case names as expected in the four columns `qid 0 docid 1`, so trec_eval,
//! ir_measures and ranx compute any metric on findbench's results.
//!
//! A query is `suite/id` (ids repeat across suites). A case's ranked keys are taken
//! distinct, as findbench's own rank metrics take them (`metrics::rank`), and scored
//! `n - rank + 1`: trec_eval orders a query's documents by score and breaks ties by docid,
//! so the scores must fall strictly for the ranking to survive. The columns are separated
//! by spaces, so whitespace and `%` inside a qid or docid are percent-encoded (`a b.rs` →
//! `a%20b.rs`); the same key is encoded alike in both files.

use super::exporter::{Exporter, ReportContext};
use crate::case::CaseResult;
use crate::error::{HarnessError, Result};
use crate::results::ResultsDocument;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// `run.trec`: the ranked keys of every case that returned any.
pub struct TrecRun;

/// `qrels.trec`: the expected keys of every case that names any.
pub struct TrecQrels;

/// The two files, in the order they are written.
pub fn trec_exporters() -> Vec<Box<dyn Exporter<ResultsDocument>>> {
    vec![Box::new(TrecRun), Box::new(TrecQrels)]
}

impl Exporter<ResultsDocument> for TrecRun {
    fn file_name(&self) -> &'static str {
        "run.trec"
    }

    fn render(&self, doc: &ResultsDocument, _: &ReportContext<'_>) -> Result<Vec<u8>> {
        let queries = queries(doc)?;
        let mut out = String::new();
        for (qid, case) in &queries {
            let tag = encode(if case.engine.is_empty() {
                crate::engines::BUILTIN
            } else {
                &case.engine
            });
            let keys = distinct(&case.ranked);
            for (i, key) in keys.iter().enumerate() {
                let rank = i + 1;
                let score = keys.len() - i;
                let _ = writeln!(out, "{qid} Q0 {} {rank} {score} {tag}", encode(key));
            }
        }
        Ok(out.into_bytes())
    }
}

impl Exporter<ResultsDocument> for TrecQrels {
    fn file_name(&self) -> &'static str {
        "qrels.trec"
    }

    fn render(&self, doc: &ResultsDocument, _: &ReportContext<'_>) -> Result<Vec<u8>> {
        let queries = queries(doc)?;
        let mut out = String::new();
        for (qid, case) in &queries {
            for key in distinct(&case.expected) {
                let _ = writeln!(out, "{qid} 0 {} 1", encode(key));
            }
        }
        Ok(out.into_bytes())
    }
}

/// What an export holds, for the command's report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrecExport {
    /// The files written, run.trec first.
    pub written: Vec<PathBuf>,
    /// Cases exported (each a query of run.trec when it returned anything); n/a cases are
    /// not.
    pub queries: usize,
    /// Cases that name expected keys: the queries of qrels.trec.
    pub judged: usize,
}

/// Reads the results document `path` names (a results.json or the directory holding it),
/// naming what a file that is not one is instead: a corpus, a cases file, not JSON.
pub fn read_results(path: &Path) -> Result<ResultsDocument> {
    let file = crate::results::results_path(path);
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let not_results = |what: &str, hint: &str| {
        Err(HarnessError::invalid(format!(
            "{}: {what}, not the results.json of a run, replay or merge",
            file.display()
        ))
        .with_hint(hint.to_string()))
    };
    if name.ends_with(".yaml") || name.ends_with(".yml") {
        return not_results(
            "a YAML file (a corpus?)",
            "run the corpus first (`findbench run CORPUS --out DIR`), then export DIR",
        );
    }
    if name.starts_with("cases.jsonl") || name.ends_with(".jsonl") || name.ends_with(".jsonl.gz") {
        return not_results(
            "a JSON Lines file (cases or traces)",
            "pass the results.json beside a cases.jsonl (or its directory); replay traces \
             first (`findbench replay TRACES --out DIR`)",
        );
    }
    if let Ok(mut f) = std::fs::File::open(&file) {
        use std::io::Read as _;
        let mut head = [0u8; 64];
        let n = f.read(&mut head).unwrap_or(0);
        match head[..n].iter().find(|b| !b.is_ascii_whitespace()) {
            Some(b'{') => {}
            Some(_) => {
                return not_results(
                    "not a JSON object",
                    "findbench run and replay write results.json with --out DIR",
                )
            }
            None if n == 0 => return not_results("empty", "was it cut off while written?"),
            None => {}
        }
    }
    ResultsDocument::read(path)
}

/// Writes run.trec and qrels.trec of `doc` into `dir` (created when missing): both
/// rendered first, then each written whole through [`crate::atomic_file`]. `source` names
/// the results file in errors.
pub fn write_trec(dir: &Path, doc: &ResultsDocument, source: &Path) -> Result<TrecExport> {
    if doc.cases.is_empty() {
        return Err(HarnessError::invalid(format!(
            "{}: the results hold no case to export",
            source.display()
        )));
    }
    let asked = doc.cases.iter().filter(|c| !c.not_applicable()).count();
    let judged = doc
        .cases
        .iter()
        .filter(|c| !c.not_applicable() && !c.expected.is_empty())
        .count();
    if judged == 0 {
        return Err(HarnessError::invalid(format!(
            "{}: no case names expected keys, so there is nothing to judge a ranking against",
            source.display()
        ))
        .with_hint(
            "a corpus case names them with `top` or `contains`; an imported agent trace, \
             with the files the agent used after its search (`expected`)",
        ));
    }
    if dir.is_file() {
        return Err(HarnessError::file(
            dir,
            "is a file; --out names a directory",
        ));
    }
    let context = ReportContext::default();
    let rendered: Vec<(PathBuf, Vec<u8>)> = trec_exporters()
        .iter()
        .map(|e| {
            e.render(doc, &context)
                .map(|bytes| (dir.join(e.file_name()), bytes))
        })
        .collect::<Result<_>>()?;
    for (path, bytes) in &rendered {
        crate::atomic_file::write_atomic(path, bytes)?;
    }
    Ok(TrecExport {
        written: rendered.into_iter().map(|(p, _)| p).collect(),
        queries: asked,
        judged,
    })
}

/// Every case with its qid, in the document's order; two cases with one qid are an error
/// (a TREC tool would merge their rankings).
fn queries(doc: &ResultsDocument) -> Result<Vec<(String, &CaseResult)>> {
    let mut seen = HashSet::new();
    // an n/a case was not asked of its engine: neither a query run nor one judged
    doc.cases
        .iter()
        .filter(|case| !case.not_applicable())
        .map(|case| {
            let qid = qid(case);
            if !seen.insert(qid.clone()) {
                return Err(HarnessError::invalid(format!(
                    "two cases are `{qid}` (suite `{}`, id `{}`): a TREC query must be one case",
                    case.suite, case.id
                )));
            }
            Ok((qid, case))
        })
        .collect()
}

/// A case's query id: `suite/id`, or the id alone for a case without a suite.
fn qid(case: &CaseResult) -> String {
    if case.suite.is_empty() {
        encode(&case.id)
    } else {
        encode(&format!("{}/{}", case.suite, case.id))
    }
}

/// The distinct non-empty keys of `keys`, first occurrence kept.
fn distinct(keys: &[String]) -> Vec<&str> {
    let mut seen = HashSet::new();
    keys.iter()
        .map(String::as_str)
        .filter(|k| !k.is_empty() && seen.insert(*k))
        .collect()
}

/// `s` with whitespace and `%` percent-encoded, so it stays one column.
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '%' || c.is_whitespace() {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                let _ = write!(out, "%{b:02X}");
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Status;

    fn case(suite: &str, id: &str, ranked: &[&str], expected: &[&str]) -> CaseResult {
        CaseResult {
            id: id.into(),
            suite: suite.into(),
            status: Status::Pass,
            outcome: "success".into(),
            ranked: ranked.iter().map(|s| s.to_string()).collect(),
            expected: expected.iter().map(|s| s.to_string()).collect(),
            ..CaseResult::default()
        }
    }

    fn doc(cases: Vec<CaseResult>) -> ResultsDocument {
        ResultsDocument {
            cases,
            ..ResultsDocument::default()
        }
    }

    fn rendered(e: &dyn Exporter<ResultsDocument>, d: &ResultsDocument) -> String {
        String::from_utf8(e.render(d, &ReportContext::default()).unwrap()).unwrap()
    }

    #[test]
    fn a_ranking_is_six_columns_with_falling_scores_and_qrels_four() {
        let mut rg = case("paths", "p1", &["b.rs", "a.rs", "b.rs", "c.rs"], &["a.rs"]);
        rg.engine = "rg".into();
        let d = doc(vec![
            rg,
            case("tasks", "p1", &[], &["T1", "T2", "T1"]),
            case("", "free", &["x"], &[]),
        ]);
        assert_eq!(
            rendered(&TrecRun, &d),
            "paths/p1 Q0 b.rs 1 3 rg\npaths/p1 Q0 a.rs 2 2 rg\npaths/p1 Q0 c.rs 3 1 rg\n\
             free Q0 x 1 1 findbench\n"
        );
        assert_eq!(
            rendered(&TrecQrels, &d),
            "paths/p1 0 a.rs 1\ntasks/p1 0 T1 1\ntasks/p1 0 T2 1\n"
        );
    }

    #[test]
    fn whitespace_and_percent_in_keys_are_encoded_alike_in_both_files() {
        let d = doc(vec![case(
            "s",
            "my case",
            &["a b.rs", "50%.md"],
            &["a b.rs"],
        )]);
        assert_eq!(
            rendered(&TrecRun, &d),
            "s/my%20case Q0 a%20b.rs 1 2 findbench\ns/my%20case Q0 50%25.md 2 1 findbench\n"
        );
        assert_eq!(rendered(&TrecQrels, &d), "s/my%20case 0 a%20b.rs 1\n");
        assert_eq!(encode("tab\there é"), "tab%09here%20é");
    }

    #[test]
    fn one_qid_twice_is_an_error_naming_it() {
        let d = doc(vec![
            case("s", "a", &["x"], &["x"]),
            case("s", "a", &[], &["y"]),
        ]);
        let e = TrecRun
            .render(&d, &ReportContext::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("two cases are `s/a`"), "{e}");
    }

    #[test]
    fn results_without_judged_cases_or_cases_are_refused_and_write_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("trec");
        let source = Path::new("r/results.json");
        let e = write_trec(&out, &doc(vec![case("s", "a", &["x"], &[])]), source).unwrap_err();
        assert!(e.to_string().contains("no case names expected keys"), "{e}");
        assert_eq!(e.exit_code(), crate::error::exit::INVALID);
        let e = write_trec(&out, &doc(Vec::new()), source).unwrap_err();
        assert!(e.to_string().contains("r/results.json"), "{e}");
        assert!(!out.exists());
    }

    #[test]
    fn a_corpus_a_cases_file_and_other_text_are_named_for_what_they_are() {
        let dir = tempfile::tempdir().unwrap();
        for (name, body, said) in [
            ("paths.yaml", "suite: paths\n", "a YAML file (a corpus?)"),
            ("cases.jsonl", "{\"id\": \"a\"}\n", "a JSON Lines file"),
            ("results.json", "id,status\n", "not a JSON object"),
            ("empty.json", "", "empty"),
        ] {
            let path = dir.path().join(name);
            std::fs::write(&path, body).unwrap();
            let e = read_results(&path).unwrap_err();
            let text = e.to_string();
            assert!(text.contains(said) && text.contains(name), "{text}");
            assert_eq!(e.exit_code(), crate::error::exit::INVALID);
        }
    }

    #[test]
    fn both_files_are_written_into_the_directory() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("new/trec");
        let d = doc(vec![case("s", "a", &["x", "y"], &["y"])]);
        let export = write_trec(&out, &d, Path::new("results.json")).unwrap();
        assert_eq!(
            export.written,
            vec![out.join("run.trec"), out.join("qrels.trec")]
        );
        assert_eq!((export.queries, export.judged), (1, 1));
        assert_eq!(
            std::fs::read_to_string(out.join("qrels.trec")).unwrap(),
            "s/a 0 y 1\n"
        );
        let names: Vec<_> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "no temporary left: {names:?}");
    }
}
