//! Trace files as tuning input: the JSONL `findbench import` writes (or `serve --record`),
//! each trace that names `expected` files a case, replayed as `findbench replay` replays it
//! (`findbench_traces::replay::replay_trace`, fixtures loaded once by the replay's own
//! loader) and scored on the rank of the first expected file in findbench's answer, as
//! replay's `rank` totals count it. A trace's project is the tree it names: its root, its
//! repository (with the path inside it), or `--fixtures DIR/NAME`.

use crate::split::project_name;
use findbench_eval::error::{HarnessError, Result};
use findbench_eval::tools::FixtureKind;
use findbench_traces::error::TracesError;
use findbench_traces::replay::fixtures::Fixtures;
use findbench_traces::replay::options::{ReplayFixture, ReplayOptions};
use findbench_traces::trace::{FixtureSource, Trace, TraceItem, TraceStream};
use sha2::Digest;
use std::path::{Path, PathBuf};

/// One trace file read: its judged traces, in the order of the file.
pub struct TraceSet {
    /// The file as given (or found in a directory).
    pub path: PathBuf,
    /// sha256 of the file's bytes, hex.
    pub sha256: String,
    pub cases: Vec<TraceCase>,
}

/// A trace that names `expected` files, with its fixture loaded.
pub struct TraceCase {
    pub trace: Trace,
    pub fixture: std::result::Result<ReplayFixture, String>,
    pub project: String,
    /// 1-based position among the file's traces.
    pub position: u64,
}

/// Every trace file of a run and the options they replay with (the profile in them is
/// replaced by each candidate's).
pub struct TraceInputs {
    pub sets: Vec<TraceSet>,
    pub options: ReplayOptions,
}

impl TraceInputs {
    /// No trace input.
    pub fn none() -> TraceInputs {
        TraceInputs {
            sets: Vec::new(),
            options: replay_options(PathBuf::from("."), Vec::new(), Default::default()),
        }
    }
}

/// What a tuning replay runs with: `fixtures_dir` for a trace's plain fixture name,
/// `map` for moved trees, hit@k of 5 (as `replay`'s default).
pub fn replay_options(
    fixtures_dir: PathBuf,
    map: Vec<findbench_traces::trace::PathMap>,
    tree: findbench_engine::TreeOptions,
) -> ReplayOptions {
    ReplayOptions {
        map,
        tree,
        ..ReplayOptions::new(fixtures_dir)
    }
}

fn harness(e: TracesError) -> HarnessError {
    match e {
        TracesError::Eval(h) => h,
        TracesError::Engine(e) => HarnessError::invalid(e.to_string()),
    }
}

/// Reads each trace file (a bad line is an error naming its file and line, exit 2), keeps
/// the traces that name expected files and loads their fixtures once each (a missing tree
/// is a file error, exit 3, as in `replay`).
pub fn load_traces(files: &[PathBuf], options: ReplayOptions) -> Result<TraceInputs> {
    let mut fixtures = Fixtures::new();
    let mut sets = Vec::new();
    for file in files {
        let bytes = std::fs::read(file)
            .map_err(|e| HarnessError::file(file, format!("cannot read the trace file: {e}")))?;
        let sha256: String = sha2::Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let mut stream = TraceStream::new(vec![file.clone()]);
        let mut cases = Vec::new();
        let mut read = 0u64;
        loop {
            let items = stream.next_chunk(1024);
            if items.is_empty() {
                break;
            }
            for item in items {
                match item.map_err(harness)? {
                    TraceItem::Bad(bad) => {
                        return Err(HarnessError::invalid(format!(
                            "{bad} (a trace file given to tune must parse whole)"
                        )))
                    }
                    TraceItem::Trace(trace) => {
                        read += 1;
                        if trace.expected.as_ref().is_none_or(|e| e.is_empty()) {
                            continue;
                        }
                        let kind = trace
                            .call
                            .as_ref()
                            .and_then(|c| c.fixture_kind)
                            .unwrap_or(FixtureKind::Root);
                        let fixture = fixtures.resolve(&options, &trace, kind).map_err(harness)?;
                        cases.push(TraceCase {
                            project: project_of_trace(&trace, &options),
                            trace: *trace,
                            fixture,
                            position: read,
                        });
                    }
                }
            }
        }
        sets.push(TraceSet {
            path: file.clone(),
            sha256,
            cases,
        });
    }
    Ok(TraceInputs { sets, options })
}

/// A trace's project: the root it names, its repository (and the path inside it), or
/// the fixtures directory's entry of its name; moved by `--map`.
pub fn project_of_trace(trace: &Trace, options: &ReplayOptions) -> String {
    let path = match trace
        .fixture_source
        .as_ref()
        .map(|s| s.mapped(&options.map))
    {
        Some(FixtureSource::Root(root)) => PathBuf::from(root),
        Some(FixtureSource::Git { git, path, .. }) => {
            let repo = Path::new(&git);
            let repo = match repo.file_name() {
                Some(n) if n == ".git" => repo.parent().unwrap_or(repo),
                _ => repo,
            };
            match path {
                Some(p) => repo.join(p),
                None => repo.to_path_buf(),
            }
        }
        None => options.fixtures_dir.join(&trace.fixture),
    };
    project_name(&path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use findbench_traces::trace::PathMap;

    fn trace(fixture: serde_json::Value, expected: Option<&[&str]>) -> String {
        let mut t = serde_json::json!({
            "trace_id": "t", "timestamp": "2026-06-19T00:00:00Z", "query": "where is parse_header",
            "fixture": fixture, "tools": [], "outcome": "success"
        });
        if let Some(e) = expected {
            t["expected"] = serde_json::json!(e);
        }
        t.to_string()
    }

    fn parsed(fixture: serde_json::Value) -> Trace {
        serde_json::from_str(&trace(fixture, None)).unwrap()
    }

    #[test]
    fn a_traces_project_is_the_tree_it_names() {
        let options = replay_options(
            PathBuf::from("corpora/fixtures"),
            Vec::new(),
            Default::default(),
        );
        let project = |f: serde_json::Value| project_of_trace(&parsed(f), &options);
        assert_eq!(
            project(serde_json::json!("agent-cpp")),
            "corpora/fixtures/agent-cpp"
        );
        assert_eq!(project(serde_json::json!({"root": "/w/app"})), "/w/app");
        // a repository is named by its work tree, whether the trace names it or its `.git`
        assert_eq!(
            project(serde_json::json!({"git": "/w/repo", "rev": "abc"})),
            "/w/repo"
        );
        assert_eq!(
            project(serde_json::json!({"git": "/w/repo/.git", "rev": "abc"})),
            "/w/repo"
        );
        assert_eq!(
            project(serde_json::json!({"git": "/w/repo/.git", "rev": "abc", "path": "sub/app"})),
            "/w/repo/sub/app"
        );
        // `--map` moves a tree before it is named
        let moved = replay_options(
            PathBuf::from("."),
            vec!["/w=/x".parse::<PathMap>().unwrap()],
            Default::default(),
        );
        assert_eq!(
            project_of_trace(&parsed(serde_json::json!({"root": "/w/app"})), &moved),
            "/x/app"
        );
    }

    #[test]
    fn replay_options_keep_the_map_and_the_tree_options_given() {
        let map = vec!["/old=/new".parse::<PathMap>().unwrap()];
        let tree = findbench_engine::TreeOptions {
            no_cache: true,
            hidden: true,
            ..Default::default()
        };
        let o = replay_options(PathBuf::from("fx"), map.clone(), tree.clone());
        assert_eq!(
            (o.fixtures_dir, o.map, o.tree),
            (PathBuf::from("fx"), map, tree)
        );
        assert_eq!(o.hit_k, 5);
        let none = TraceInputs::none();
        assert!(none.sets.is_empty() && none.options.map.is_empty());
    }

    /// Only the traces naming expected files are cases, each at its place among all the
    /// file's traces; the project is the root the trace names.
    #[test]
    fn the_cases_of_a_trace_file_are_its_traces_with_expected_files() {
        let dir = tempfile::tempdir().unwrap();
        let tree = dir.path().join("tree");
        std::fs::create_dir_all(tree.join("src")).unwrap();
        std::fs::write(tree.join("src/parser.rs"), "fn parse_header() {}\n").unwrap();
        let root = serde_json::json!({"root": tree.display().to_string()});
        let lines = [
            trace(root.clone(), None),
            trace(root.clone(), Some(&["src/parser.rs"])),
            trace(root.clone(), Some(&[])),
            trace(root, Some(&["src/parser.rs"])),
        ];
        let file = dir.path().join("t.jsonl");
        std::fs::write(&file, lines.join("\n") + "\n").unwrap();
        let tree_options = findbench_engine::TreeOptions {
            no_cache: true,
            ..Default::default()
        };
        let inputs = load_traces(
            std::slice::from_ref(&file),
            replay_options(dir.path().to_path_buf(), Vec::new(), tree_options),
        )
        .unwrap();
        assert_eq!(inputs.sets.len(), 1);
        let set = &inputs.sets[0];
        assert_eq!(set.path, file);
        let bytes = std::fs::read(&file).unwrap();
        assert_eq!(set.sha256, format!("{:x}", sha2::Sha256::digest(&bytes)));
        let positions: Vec<u64> = set.cases.iter().map(|c| c.position).collect();
        assert_eq!(positions, [2, 4]);
        for c in &set.cases {
            assert_eq!(c.project, tree.display().to_string());
            assert!(c.fixture.is_ok());
        }
        assert!(inputs.options.tree.no_cache);
    }
}
