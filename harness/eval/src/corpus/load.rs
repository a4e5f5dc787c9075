//! Finding, parsing and validating corpus files, and loading their fixtures once.
//!
//! Everything is checked before anything runs: a schema error, an unknown arg, a duplicate
//! case id or a missing fixture stops the run with a message naming file, line and case.

use super::args::{case_request, result_limit};
use super::schema::{CaseSpec, CorpusFile, ExpectSpec, ExpectedOutcome, FixtureSpec};
use super::yaml_error;
use super::{Case, Corpus, Expect, FixtureKind, LoadedFixture};
use crate::error::{HarnessError, Origin, Result};
use findbench_engine::tree::{PathList, Tree, TreeOptions};
use findbench_engine::{EngineError, Fixture, Mode, Store};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Expands command-line paths: a file as is, a directory to the `*.yaml` / `*.yml` files
/// directly inside it (sorted), a pattern with `*`, `?` or `[` to its matches (sorted).
/// Duplicates are dropped, first occurrence kept.
pub fn expand_paths(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = Vec::new();
    let push = |p: PathBuf, out: &mut Vec<PathBuf>| {
        if !out.contains(&p) {
            out.push(p);
        }
    };
    for input in inputs {
        let text = input.to_string_lossy();
        if input.is_dir() {
            let entries = std::fs::read_dir(input)
                .map_err(|e| HarnessError::file(input, format!("cannot read directory: {e}")))?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && is_yaml(p))
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(HarnessError::file(
                    input,
                    "directory holds no corpus (*.yaml or *.yml)",
                ));
            }
            for p in found {
                push(p, &mut out);
            }
        } else if input.exists() {
            push(input.clone(), &mut out);
        } else if text.contains(['*', '?', '[']) {
            let paths = glob::glob(&text)
                .map_err(|e| HarnessError::invalid(format!("bad pattern `{text}`: {}", e.msg)))?;
            let mut found: Vec<PathBuf> = paths
                .filter_map(|p| p.ok())
                .filter(|p| p.is_file())
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(HarnessError::file(input, "pattern matches no file"));
            }
            for p in found {
                push(p, &mut out);
            }
        } else {
            return Err(HarnessError::file(
                input,
                "no such corpus file or directory",
            ));
        }
    }
    Ok(out)
}

fn is_yaml(p: &Path) -> bool {
    matches!(
        p.extension().and_then(|e| e.to_str()),
        Some("yaml") | Some("yml")
    )
}

/// Loads and validates every corpus, loading each distinct fixture once (trees through
/// the kept index).
pub fn load_corpora(paths: &[PathBuf]) -> Result<Vec<Corpus>> {
    load_corpora_with(paths, &TreeOptions::default())
}

/// [`load_corpora`], with trees walked (and trees and stores cached, or not: `--no-cache`)
/// as `options` says.
pub fn load_corpora_with(paths: &[PathBuf], options: &TreeOptions) -> Result<Vec<Corpus>> {
    let mut fixtures: HashMap<(FixtureKind, PathBuf), Arc<LoadedFixture>> = HashMap::new();
    let mut corpora = Vec::new();
    // (suite, id) -> where it was first defined
    let mut seen: BTreeMap<(String, String), Origin> = BTreeMap::new();
    for path in paths {
        let bytes = std::fs::read(path)
            .map_err(|e| HarnessError::file(path, format!("cannot read: {e}")))?;
        let sha256 = hex(&Sha256::digest(&bytes));
        let text = String::from_utf8(bytes)
            .map_err(|e| HarnessError::invalid_at(Origin::file(path), format!("not UTF-8: {e}")))?;
        let parsed = parse_corpus_str(path, &text)?;
        let mut warnings = Vec::new();
        let fixture = fixture_for(
            path,
            &parsed.fixture,
            None,
            options,
            &mut fixtures,
            &mut warnings,
        )?;
        let mut cases = Vec::with_capacity(parsed.cases.len());
        for pc in parsed.cases {
            let case_origin = Origin::at(path, pc.line, Some(&pc.id));
            if let Some(first) = seen.get(&(parsed.suite.clone(), pc.id.clone())) {
                return Err(HarnessError::invalid_at(
                    case_origin,
                    format!(
                        "duplicate case id in suite `{}` (first defined at {}:{})",
                        parsed.suite,
                        first.file.display(),
                        first.line
                    ),
                ));
            }
            seen.insert((parsed.suite.clone(), pc.id.clone()), case_origin.clone());
            let fixture = match &pc.fixture {
                Some(own) => fixture_for(
                    path,
                    own,
                    Some(&pc.id),
                    options,
                    &mut fixtures,
                    &mut warnings,
                )?,
                None => fixture.clone(),
            };
            let kind = fixture.kind;
            let needed = fixture_kinds_for(pc.mode);
            if !needed.contains(&kind) {
                let names: Vec<&str> = needed.iter().map(|k| k.as_str()).collect();
                return Err(HarnessError::invalid_at(
                    case_origin,
                    format!(
                        "mode `{}` runs against a fixture {} but this corpus has a fixture {}",
                        pc.mode.as_str(),
                        names.join(" or "),
                        kind.as_str()
                    ),
                ));
            }
            cases.push(Case {
                suite: parsed.suite.clone(),
                id: pc.id,
                query: pc.query,
                mode: pc.mode,
                request: pc.request,
                expect: Expect {
                    max_bytes: pc.expect.max_bytes.or(parsed.budget.max_output_bytes),
                    ..pc.expect
                },
                tags: pc.tags,
                known_failure: pc.known_failure,
                file: path.clone(),
                line: pc.line,
                fixture,
            });
        }
        corpora.push(Corpus {
            path: path.clone(),
            sha256,
            suite: parsed.suite,
            fixture,
            budget: parsed.budget,
            gate: parsed.gate,
            cases,
            warnings,
        });
    }
    Ok(corpora)
}

/// Where a fixture comes from, as a corpus names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixtureRef {
    pub kind: FixtureKind,
    /// The path as written (for `git`, the repository's).
    pub path: String,
    /// The commit of a `git` fixture.
    pub rev: Option<String>,
    /// Line of the `fixture` key.
    pub line: usize,
}

/// Loads the fixture `spec` of the corpus file `corpus` (of its case `case`, when the case
/// has its own), or finds it already loaded; a fixture outside the corpus's repository
/// adds a warning (see [`outside_warning`]).
fn fixture_for(
    corpus: &Path,
    spec: &FixtureRef,
    case: Option<&str>,
    options: &TreeOptions,
    fixtures: &mut HashMap<(FixtureKind, PathBuf), Arc<LoadedFixture>>,
    warnings: &mut Vec<String>,
) -> Result<Arc<LoadedFixture>> {
    let (kind, rel) = (spec.kind, &spec.path);
    let base = corpus.parent().unwrap_or(Path::new("."));
    let resolved = base.join(rel);
    let origin = Origin::at(corpus, spec.line, case);
    if !resolved.exists() {
        let what = if spec.rev.is_some() {
            "git"
        } else {
            kind.as_str()
        };
        return Err(HarnessError::file_at(
            origin,
            format!(
                "fixture {what} `{rel}` does not exist (resolved to {})",
                resolved.display()
            ),
        ));
    }
    warnings.extend(outside_warning(corpus, spec, &resolved));
    // every commit's tree of one repository is one project
    let project = spec
        .rev
        .as_ref()
        .map(|_| resolved.canonicalize().unwrap_or_else(|_| resolved.clone()));
    let repository = resolved.clone();
    let resolved = match &spec.rev {
        Some(rev) => super::git::materialize(&resolved, rev)
            .map_err(|m| HarnessError::file_at(origin.clone(), format!("fixture git: {m}")))?,
        None => resolved,
    };
    let key = (
        kind,
        resolved.canonicalize().unwrap_or_else(|_| resolved.clone()),
    );
    if let Some(f) = fixtures.get(&key) {
        return Ok(f.clone());
    }
    let mut loaded = load_fixture(kind, &resolved, &origin, options)?;
    // the commits up to `rev`, never after: what `ask` weighs a task's files by
    if let (Some(rev), Fixture::Tree(tree)) = (&spec.rev, &loaded.fixture) {
        super::git::git_dir(&repository)
            .and_then(|dir| findbench_tools::history::attach_commit(tree, &dir, rev))
            .map_err(|m| HarnessError::file_at(origin.clone(), format!("fixture git: {m}")))?;
    }
    if let Some(project) = project {
        loaded.project = project;
    }
    let f = Arc::new(loaded);
    fixtures.insert(key, f.clone());
    Ok(f)
}

/// A warning when the fixture `resolved` (which exists) lies outside the directory above
/// the corpus file's own: corpora sit in a directory of the repository they test
/// (`corpora/`), so their fixtures are `fixtures/...` or `../` at most. One that climbs
/// further (`root: ../../..`) still loads, since a corpus may mean it, but is said, with
/// the corpus file, the fixture's line and where it leads.
fn outside_warning(corpus: &Path, spec: &FixtureRef, resolved: &Path) -> Option<String> {
    let dir = corpus.parent().filter(|d| !d.as_os_str().is_empty());
    let dir = dir.unwrap_or(Path::new(".")).canonicalize().ok()?;
    let boundary = dir.parent().unwrap_or(&dir);
    let target = resolved.canonicalize().ok()?;
    if target.starts_with(boundary) {
        return None;
    }
    let what = if spec.rev.is_some() {
        "git"
    } else {
        spec.kind.as_str()
    };
    Some(format!(
        "{}:{}: fixture {what} `{}` resolves to {}, outside {} (the directory above the \
         corpus file's); it is loaded all the same",
        corpus.display(),
        spec.line,
        spec.path,
        target.display(),
        boundary.display()
    ))
}

/// Which fixture kinds a mode runs against.
pub fn fixture_kinds_for(mode: Mode) -> &'static [FixtureKind] {
    match mode {
        Mode::Task | Mode::Name | Mode::Outline | Mode::Get => &[FixtureKind::Store],
        Mode::Code | Mode::Grep | Mode::Ask => &[FixtureKind::Root],
        Mode::Path => &[FixtureKind::Root, FixtureKind::Paths],
    }
}

/// Which fixture kinds this engine can load; the others are reported, not guessed at.
fn load_fixture(
    kind: FixtureKind,
    path: &Path,
    origin: &Origin,
    options: &TreeOptions,
) -> Result<LoadedFixture> {
    let fixture = match kind {
        FixtureKind::Store => Fixture::Store(Arc::new(
            Store::load_with(path, &findbench_tools::call::store_options(options))
                .map_err(|e| engine_error(origin, e))?,
        )),
        FixtureKind::Root => {
            if !path.is_dir() {
                return Err(HarnessError::invalid_at(
                    origin.clone(),
                    format!("fixture root `{}` is not a directory", path.display()),
                ));
            }
            // a root that cannot be listed would load as an empty tree and every case
            // would fail as if the ranking had regressed
            std::fs::read_dir(path).map_err(|e| {
                HarnessError::file_at(
                    origin.clone(),
                    format!("fixture root `{}` cannot be read: {e}", path.display()),
                )
            })?;
            Fixture::Tree(Arc::new(
                Tree::load(path, options).map_err(|e| engine_error(origin, e))?,
            ))
        }
        FixtureKind::Paths => Fixture::Paths(Arc::new(
            PathList::load(path).map_err(|e| engine_error(origin, e))?,
        )),
    };
    Ok(LoadedFixture {
        kind,
        path: path.to_path_buf(),
        project: path.to_path_buf(),
        item_count: fixture.item_count(),
        dump_bytes: fixture.dump_bytes(),
        fixture,
    })
}

fn engine_error(origin: &Origin, e: EngineError) -> HarnessError {
    let message = format!("cannot load fixture: {e}");
    match e.exit_code() {
        3 => HarnessError::file_at(origin.clone(), message),
        _ => HarnessError::invalid_at(origin.clone(), message),
    }
}

/// A corpus file parsed and validated, fixture not yet loaded.
#[derive(Debug)]
pub struct ParsedCorpus {
    pub suite: String,
    pub fixture: FixtureRef,
    pub budget: super::Budget,
    pub gate: Option<crate::gate_settings::Thresholds>,
    pub cases: Vec<ParsedCase>,
}

#[derive(Debug)]
pub struct ParsedCase {
    pub id: String,
    pub line: usize,
    pub query: String,
    pub mode: Mode,
    pub request: findbench_engine::Request,
    pub expect: Expect,
    pub tags: Vec<String>,
    pub known_failure: Option<String>,
    /// The case's own fixture, when it has one.
    pub fixture: Option<FixtureRef>,
}

/// Parses and validates one corpus file's text. `path` is used in messages only.
pub fn parse_corpus_str(path: &Path, text: &str) -> Result<ParsedCorpus> {
    if yaml_error::is_blank(text) {
        return Err(HarnessError::invalid_at(
            Origin::file(path),
            "no cases: the file is empty or only comments (a corpus has `suite`, `fixture` \
             and `cases`)",
        ));
    }
    let file: CorpusFile = serde_saphyr::from_str_with_options(text, yaml_error::options())
        .map_err(|e| {
            let (line, column, mut message) = yaml_error::located(&e, text);
            let case = case_at_line(text, line);
            if column > 0 {
                message.push_str(&format!(" (column {column})"));
            }
            HarnessError::invalid_at(Origin::at(path, line, case.as_deref()), message)
        })?;
    let suite_line = file.suite.referenced.line() as usize;
    let suite = file.suite.value.trim().to_string();
    if suite.is_empty() {
        return Err(HarnessError::invalid_at(
            Origin::at(path, suite_line, None),
            "`suite` is empty",
        ));
    }
    let fixture_line = file.fixture.referenced.line() as usize;
    let fixture = fixture_of(&file.fixture.value, fixture_line)
        .map_err(|m| HarnessError::invalid_at(Origin::at(path, fixture_line, None), m))?;
    if file.cases.is_empty() {
        return Err(HarnessError::invalid_at(
            Origin::at(path, 0, None),
            "`cases` is empty",
        ));
    }
    let mut cases = Vec::with_capacity(file.cases.len());
    let mut lines: HashMap<String, usize> = HashMap::new();
    for spec in file.cases {
        let case = parse_case(path, spec)?;
        if let Some(first) = lines.get(&case.id) {
            return Err(HarnessError::invalid_at(
                Origin::at(path, case.line, Some(&case.id)),
                format!("duplicate case id (first defined at line {first})"),
            ));
        }
        lines.insert(case.id.clone(), case.line);
        cases.push(case);
    }
    if let Some(gate) = &file.gate {
        gate.check(text)
            .map_err(|(line, m)| HarnessError::invalid_at(Origin::at(path, line, None), m))?;
    }
    Ok(ParsedCorpus {
        suite,
        fixture,
        budget: file.budget,
        gate: file.gate,
        cases,
    })
}

fn fixture_of(spec: &FixtureSpec, line: usize) -> std::result::Result<FixtureRef, String> {
    let given: Vec<(&str, FixtureKind, &String)> = [
        ("root", FixtureKind::Root, spec.root.as_ref()),
        ("store", FixtureKind::Store, spec.store.as_ref()),
        ("paths", FixtureKind::Paths, spec.paths.as_ref()),
        // a commit of a repository is a source tree
        ("git", FixtureKind::Root, spec.git.as_ref()),
    ]
    .into_iter()
    .filter_map(|(name, k, v)| v.map(|v| (name, k, v)))
    .collect();
    let rev = spec.rev.as_ref().map(|r| r.trim().to_string());
    let fixture = match given.as_slice() {
        [(_, kind, path)] if !path.trim().is_empty() => FixtureRef {
            kind: *kind,
            path: path.to_string(),
            rev: None,
            line,
        },
        [(name, _, _)] => return Err(format!("fixture {name} is empty")),
        [] => return Err("fixture needs one of `root`, `store`, `paths`, `git`".into()),
        _ => return Err("fixture takes exactly one of `root`, `store`, `paths`, `git`".into()),
    };
    let is_git = spec.git.is_some();
    match rev {
        Some(r) if is_git && !r.is_empty() => Ok(FixtureRef {
            rev: Some(r),
            ..fixture
        }),
        _ if is_git => Err("fixture git needs `rev`, the commit whose tree to use".into()),
        Some(_) => Err("`rev` applies to a fixture `git` only".into()),
        None => Ok(fixture),
    }
}

fn parse_case(path: &Path, spec: CaseSpec) -> Result<ParsedCase> {
    let id = spec.id.value.trim().to_string();
    let line = spec.id.referenced.line() as usize;
    let fixture = match &spec.fixture {
        Some(f) => {
            let at = f.referenced.line() as usize;
            Some(
                fixture_of(&f.value, at)
                    .map_err(|m| HarnessError::invalid_at(Origin::at(path, at, Some(&id)), m))?,
            )
        }
        None => None,
    };
    let origin = |line: usize| Origin::at(path, line, Some(&id));
    if id.is_empty() {
        return Err(HarnessError::invalid_at(
            Origin::at(path, line, None),
            "case `id` is empty",
        ));
    }
    let mode_line = spec.mode.referenced.line() as usize;
    let mode = Mode::parse(spec.mode.value.trim()).map_err(|e| {
        let mut m = e.to_string();
        if let Some(h) = e.hint() {
            m.push_str(&format!(" ({h})"));
        }
        HarnessError::invalid_at(origin(mode_line), m)
    })?;
    let (args, args_line) = match &spec.args {
        Some(a) => (a.value.clone(), a.referenced.line() as usize),
        None => (BTreeMap::new(), line),
    };
    let request = case_request(mode, &spec.query, &args)
        .map_err(|m| HarnessError::invalid_at(origin(args_line), m))?;
    let (expect_spec, expect_line) = match spec.expect {
        Some(e) => {
            let l = e.referenced.line() as usize;
            (e.value, l)
        }
        None => (ExpectSpec::default(), line),
    };
    // the engine rejects a limit of 0 as invalid input: found here, not as a failing case
    // at run time, unless the case is about that rejection
    if result_limit(&request, &findbench_engine::Profile::default()) == 0
        && expect_spec.outcome != Some(ExpectedOutcome::Error)
    {
        return Err(HarnessError::invalid_at(
            origin(args_line),
            "`limit` must be at least 1 (only a case expecting `outcome: error` may give 0, \
             to test that it is rejected)",
        ));
    }
    if expects_nothing(&expect_spec) {
        return Err(HarnessError::invalid_at(
            origin(expect_line),
            "the case has no `expect`: say what a correct answer is (`outcome`, `top`, \
             `contains`, `excludes`, `quality` or `max_bytes`); a case that checks nothing \
             would always pass",
        ));
    }
    let expect = validate_expect(mode, expect_spec)
        .map_err(|m| HarnessError::invalid_at(origin(expect_line), m))?;
    if spec
        .known_failure
        .as_deref()
        .is_some_and(|r| r.trim().is_empty())
    {
        return Err(HarnessError::invalid_at(
            origin(line),
            "`known_failure` must say why the case is expected to fail",
        ));
    }
    Ok(ParsedCase {
        line,
        query: spec.query,
        mode,
        request,
        expect,
        tags: spec.tags,
        known_failure: spec.known_failure,
        fixture,
        id,
    })
}

/// Whether an `expect` (or its absence) checks nothing at all.
fn expects_nothing(e: &ExpectSpec) -> bool {
    e.outcome.is_none()
        && e.top.is_none()
        && e.contains.is_empty()
        && e.excludes.is_empty()
        && e.quality.is_none()
        && e.max_bytes.is_none()
}

/// Modes whose response carries a `fuzzy_match_quality`.
fn reports_quality(mode: Mode) -> bool {
    mode == Mode::Name
}

fn validate_expect(mode: Mode, e: ExpectSpec) -> std::result::Result<Expect, String> {
    if e.within == Some(0) {
        return Err("`within` must be at least 1".into());
    }
    if let Some(q) = &e.quality {
        if !reports_quality(mode) {
            return Err(format!(
                "`quality` does not apply to mode `{}` (it reports no match quality)",
                mode.as_str()
            ));
        }
        if q != "good" && q != "weak" {
            return Err(format!("`quality` is good or weak, got `{q}`"));
        }
    }
    if let Some(k) = e
        .excludes
        .iter()
        .find(|k| e.top.as_ref() == Some(*k) || e.contains.contains(k))
    {
        return Err(format!("`{k}` is both expected and excluded"));
    }
    Ok(Expect {
        outcome: e.outcome,
        top: e.top,
        contains: e.contains,
        within: e.within,
        excludes: e.excludes,
        quality: e.quality,
        max_bytes: e.max_bytes,
    })
}

/// The id of the case whose block holds `line` (1-based): the last `- id:` line at or
/// before it. Used for errors the YAML parser reports, before case ids are known.
fn case_at_line(text: &str, line: usize) -> Option<String> {
    let mut found = None;
    let mut in_cases = false;
    for (i, l) in text.lines().enumerate() {
        if i + 1 > line {
            break;
        }
        if l.starts_with("cases:") {
            in_cases = true;
            continue;
        }
        if in_cases && !l.starts_with([' ', '-', '#', '\t']) && !l.trim().is_empty() {
            in_cases = false;
            found = None;
        }
        let t = l.trim_start();
        if in_cases {
            if let Some(rest) = t.strip_prefix('-') {
                let rest = rest.trim_start();
                let flow_id = rest
                    .strip_prefix('{')
                    .map(str::trim_start)
                    .and_then(|r| r.strip_prefix("id:"))
                    .map(|v| v.split([',', '}']).next().unwrap_or(v));
                if let Some(v) = rest.strip_prefix("id:").or(flow_id) {
                    found = Some(unquote(v.trim()));
                } else if !rest.is_empty() && l.len() - t.len() <= 2 {
                    // a new case that does not start with its id
                    found = None;
                }
            } else if let Some(v) = t.strip_prefix("id:") {
                if found.is_none() {
                    found = Some(unquote(v.trim()));
                }
            }
        }
    }
    found.filter(|s| !s.is_empty())
}

fn unquote(s: &str) -> String {
    let s = s.split(" #").next().unwrap_or(s).trim();
    s.trim_matches(|c| c == '"' || c == '\'').to_string()
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "suite: s\nfixture: {store: todo.json}\ncases:\n  - id: a\n    query: auth\n    mode: task\n    expect: {top: T001}\n  - id: b\n    query: x\n    mode: task\n    expect: {outcome: no_match}\n";

    fn err(text: &str) -> String {
        parse_corpus_str(Path::new("c.yaml"), text)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn parses_a_good_corpus() {
        let c = parse_corpus_str(Path::new("c.yaml"), GOOD).unwrap();
        assert_eq!(c.suite, "s");
        assert_eq!(c.cases.len(), 2);
        assert_eq!(c.cases[0].line, 4);
        assert_eq!(c.cases[1].line, 8);
        let want = FixtureRef {
            kind: FixtureKind::Store,
            path: "todo.json".into(),
            rev: None,
            line: 2,
        };
        assert_eq!(c.fixture, want);
    }

    #[test]
    fn unknown_key_names_file_line_case_and_allowed_keys() {
        let e = err(&GOOD.replace(
            "    expect: {top: T001}",
            "    expect: {top: T001}\n    tagz: [x]",
        ));
        assert!(e.starts_with("c.yaml:8: case `a`:"), "{e}");
        assert!(e.contains("tagz") && e.contains("known_failure"), "{e}");
    }

    #[test]
    fn missing_field_wrong_type_duplicate_id() {
        let e = err(&GOOD.replace("    mode: task\n    expect", "    expect"));
        assert!(e.contains("mode") && e.contains("c.yaml:"), "{e}");
        let e = err(&GOOD.replace("{top: T001}", "{within: many}"));
        assert!(e.contains("c.yaml:7: case `a`"), "{e}");
        let e = err(&GOOD.replace("id: b", "id: a"));
        assert!(
            e.contains("c.yaml:8: case `a`: duplicate case id (first defined at line 4)"),
            "{e}"
        );
    }

    #[test]
    fn bad_mode_and_args_name_the_case() {
        let e = err(&GOOD.replace("mode: task\n    expect", "mode: tusk\n    expect"));
        assert!(e.contains("c.yaml:6: case `a`: unknown mode `tusk`"), "{e}");
        let e = err(&GOOD.replace("    expect: {top: T001}", "    args: {limt: 2}"));
        assert!(e.contains("c.yaml:7: case `a`: unknown arg `limt`"), "{e}");
    }

    #[test]
    fn a_case_must_expect_something_and_limit_zero_only_tests_the_error() {
        let e = err(&GOOD.replace("    expect: {outcome: no_match}\n", ""));
        assert!(
            e.starts_with("c.yaml:8: case `b`: the case has no `expect`"),
            "{e}"
        );
        let e = err(&GOOD.replace("{outcome: no_match}", "{}"));
        assert!(e.contains("case `b`: the case has no `expect`"), "{e}");
        let zero = GOOD.replace(
            "    mode: task\n    expect: {outcome",
            "    mode: task\n    args: {limit: 0}\n    expect: {outcome",
        );
        let e = err(&zero);
        assert!(e.contains("case `b`: `limit` must be at least 1"), "{e}");
        let rejected = zero.replace("{outcome: no_match}", "{outcome: error}");
        assert!(parse_corpus_str(Path::new("c.yaml"), &rejected).is_ok());
    }

    #[test]
    fn empty_and_library_worded_errors() {
        let e = err("# nothing\n");
        assert!(e.starts_with("c.yaml: no cases"), "{e}");
        let e = err(&format!("suite: t\n{GOOD}"));
        assert!(e.contains("key `suite` is given twice"), "{e}");
        let e = err(&GOOD.replace("{top: T001}", "{top: T001, max_bytes: -1}"));
        assert!(
            e.contains("c.yaml:7: case `a`: `max_bytes`: `-1` is not a whole number"),
            "{e}"
        );
    }

    #[test]
    fn case_lookup_by_line() {
        assert_eq!(case_at_line(GOOD, 5).as_deref(), Some("a"));
        assert_eq!(case_at_line(GOOD, 9).as_deref(), Some("b"));
        assert_eq!(case_at_line(GOOD, 2), None);
    }
}
