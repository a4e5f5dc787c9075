//! Failure clusters: traces grouped by their normalised question, so a recurring failure
//! shows up as one line with a count, and can be exported as a regression corpus.

use crate::error::TracesError;
use crate::trace::{BadLine, Trace, TraceItem, TraceOutcome, TraceStream};
pub use findbench_eval::question::normalise_question;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};
use std::time::SystemTime;

/// Which recorded outcomes to cluster.
#[derive(Debug, Clone)]
pub struct ClusterOptions {
    /// Keep traces with one of these outcomes; empty keeps all.
    pub outcomes: Vec<TraceOutcome>,
    /// Clusters seen fewer times than this are counted but not listed.
    pub min: usize,
    /// Count every search as an occurrence (by default the searches of one user question,
    /// an imported turn, are one occurrence).
    pub per_search: bool,
}

impl Default for ClusterOptions {
    fn default() -> Self {
        ClusterOptions {
            outcomes: vec![TraceOutcome::InsufficientEvidence, TraceOutcome::Failure],
            min: 3,
            per_search: false,
        }
    }
}

/// Traces sharing one normalised question.
#[derive(Debug, Clone, Serialize)]
pub struct Cluster {
    /// The normalised question.
    pub question: String,
    pub occurrences: usize,
    /// The questions as the agents wrote them, with their counts, most frequent first.
    pub variants: Vec<Counted>,
    pub outcomes: BTreeMap<String, usize>,
    pub fixtures: Vec<String>,
    pub first_seen: String,
    pub last_seen: String,
    /// Recorded tool sequences (`find → read`), most frequent first.
    pub tool_sequences: Vec<Counted>,
    /// The first few trace ids, in input order.
    pub example_trace_ids: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Counted {
    pub value: String,
    pub count: usize,
}

/// What `clusters` reports: the listed clusters and what the input held.
#[derive(Debug, Clone, Serialize)]
pub struct ClusterReport {
    pub files: usize,
    pub traces: usize,
    pub bad_lines: usize,
    /// Traces whose outcome was selected.
    pub selected: usize,
    pub outcomes: Vec<String>,
    pub min: usize,
    /// Clusters seen at least `min` times, largest first.
    pub clusters: Vec<Cluster>,
    /// Clusters seen fewer than `min` times, and the traces in them.
    pub below_min: usize,
    pub below_min_traces: usize,
}

const EXAMPLE_IDS: usize = 5;

/// Accumulates one cluster; memory grows with distinct questions, not with traces.
#[derive(Default)]
struct Acc {
    /// User questions (turns) seen, or with `per_search` traces.
    occurrences: usize,
    turns: std::collections::HashSet<u64>,
    /// In order of first appearance, so ties rank the earliest wording first.
    variants: Vec<(String, usize)>,
    outcomes: BTreeMap<String, usize>,
    fixtures: BTreeSet<String>,
    first: Option<(SystemTime, String)>,
    last: Option<(SystemTime, String)>,
    tools: Vec<(String, usize)>,
    examples: Vec<String>,
    order: usize,
}

impl Acc {
    fn add(&mut self, trace: &Trace, per_search: bool) {
        let key = findbench_eval::question::turn_key(&trace.trace_id, &trace.query);
        if per_search || self.turns.insert(key) {
            self.occurrences += 1;
        }
        bump(&mut self.variants, &trace.query);
        *self
            .outcomes
            .entry(trace.outcome.as_str().to_string())
            .or_default() += 1;
        if !self.fixtures.contains(&trace.fixture) {
            self.fixtures.insert(trace.fixture.clone());
        }
        // parse_line checked the timestamp already
        if let Ok(t) = trace.time() {
            if self.first.as_ref().is_none_or(|(f, _)| t < *f) {
                self.first = Some((t, trace.timestamp.clone()));
            }
            if self.last.as_ref().is_none_or(|(l, _)| t > *l) {
                self.last = Some((t, trace.timestamp.clone()));
            }
        }
        bump(&mut self.tools, &trace.tool_sequence());
        if self.examples.len() < EXAMPLE_IDS {
            self.examples.push(trace.trace_id.clone());
        }
    }
}

fn bump(list: &mut Vec<(String, usize)>, value: &str) {
    match list.iter_mut().find(|(v, _)| v == value) {
        Some((_, n)) => *n += 1,
        None => list.push((value.to_string(), 1)),
    }
}

/// Most frequent first; ties keep their order of first appearance (a stable sort).
fn ranked(list: Vec<(String, usize)>) -> Vec<Counted> {
    let mut v: Vec<Counted> = list
        .into_iter()
        .map(|(value, count)| Counted { value, count })
        .collect();
    v.sort_by_key(|c| std::cmp::Reverse(c.count));
    v
}

/// Streams the traces and groups them. Bad lines go to `on_bad` (which may stop the run by
/// returning an error, as `--strict` does).
pub fn cluster_traces(
    stream: &mut TraceStream,
    options: &ClusterOptions,
    mut on_bad: impl FnMut(BadLine) -> Result<(), TracesError>,
) -> Result<ClusterReport, TracesError> {
    let mut accs: HashMap<String, Acc> = HashMap::new();
    let mut selected = 0;
    for item in stream.by_ref() {
        let trace = match item? {
            TraceItem::Trace(t) => t,
            TraceItem::Bad(bad) => {
                on_bad(bad)?;
                continue;
            }
        };
        if !options.outcomes.is_empty() && !options.outcomes.contains(&trace.outcome) {
            continue;
        }
        selected += 1;
        let key = normalise_question(&trace.query);
        let next_order = accs.len();
        let acc = accs.entry(key).or_insert_with(|| Acc {
            order: next_order,
            ..Acc::default()
        });
        acc.add(&trace, options.per_search);
    }
    let counts = stream.counts();
    let min = options.min.max(1);
    let mut clusters = Vec::new();
    let (mut below_min, mut below_min_traces) = (0, 0);
    let mut accs: Vec<(String, Acc)> = accs.into_iter().collect();
    // largest first; ties in order of first appearance, so the output is deterministic
    accs.sort_by(|a, b| {
        b.1.occurrences
            .cmp(&a.1.occurrences)
            .then(a.1.order.cmp(&b.1.order))
    });
    for (question, acc) in accs {
        if acc.occurrences < min {
            below_min += 1;
            below_min_traces += acc.occurrences;
            continue;
        }
        clusters.push(Cluster {
            question,
            occurrences: acc.occurrences,
            variants: ranked(acc.variants),
            outcomes: acc.outcomes,
            fixtures: acc.fixtures.into_iter().collect(),
            first_seen: acc.first.map(|f| f.1).unwrap_or_default(),
            last_seen: acc.last.map(|l| l.1).unwrap_or_default(),
            tool_sequences: ranked(acc.tools),
            example_trace_ids: acc.examples,
        });
    }
    Ok(ClusterReport {
        files: counts.files,
        traces: counts.traces,
        bad_lines: counts.bad_lines,
        selected,
        outcomes: options
            .outcomes
            .iter()
            .map(|o| o.as_str().to_string())
            .collect(),
        min,
        clusters,
        below_min,
        below_min_traces,
    })
}

/// Quotes an argument for a POSIX shell, only when it needs it.
pub fn shell_quote(arg: &str) -> String {
    if !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
    {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

/// The command that replays one cluster with explanations.
pub fn replay_command(inputs: &[PathBuf], fixtures: Option<&Path>, cluster: &Cluster) -> String {
    let mut cmd = String::from("findbench replay");
    for input in inputs {
        let _ = write!(cmd, " {}", shell_quote(&input.to_string_lossy()));
    }
    if let Some(dir) = fixtures {
        let _ = write!(cmd, " --fixtures {}", shell_quote(&dir.to_string_lossy()));
    }
    // the most frequent wording reads best; --query matches on the normalised form anyway
    let question = cluster
        .variants
        .first()
        .map_or(cluster.question.as_str(), |v| v.value.as_str());
    let _ = write!(cmd, " --query {} --explain", shell_quote(question));
    cmd
}

/// A file-name-safe slug of a question: `where-is-replay-implemented`.
pub fn slug(question: &str) -> String {
    let mut out = String::new();
    for c in question.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-');
    let out: String = out.chars().take(60).collect();
    if out.is_empty() {
        "cluster".into()
    } else {
        out
    }
}

/// A YAML double-quoted scalar (JSON string syntax is valid YAML).
fn yaml_str(s: &str) -> String {
    serde_json::to_string(s).expect("a string always serialises")
}

/// `to` relative to the directory `from` (both made absolute first), for corpus paths.
pub fn relative_path(from_dir: &Path, to: &Path) -> PathBuf {
    let abs = |p: &Path| -> PathBuf {
        let p = if p.is_absolute() {
            p.to_path_buf()
        } else {
            std::env::current_dir().unwrap_or_default().join(p)
        };
        std::fs::canonicalize(&p).unwrap_or_else(|_| lexical_normalise(&p))
    };
    let (from, to) = (abs(from_dir), abs(to));
    let from: Vec<Component> = from.components().collect();
    let to_c: Vec<Component> = to.components().collect();
    let common = from.iter().zip(&to_c).take_while(|(a, b)| a == b).count();
    let mut rel = PathBuf::new();
    for _ in common..from.len() {
        rel.push("..");
    }
    for c in &to_c[common..] {
        rel.push(c.as_os_str());
    }
    if rel.as_os_str().is_empty() {
        rel.push(".");
    }
    rel
}

fn lexical_normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// One exported corpus file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportedCorpus {
    pub path: PathBuf,
    pub cases: usize,
}

/// Writes each cluster as a YAML corpus (README.md, "Writing a corpus") that `findbench run`
/// accepts: one `ask` case per question variant, expecting `success`. With
/// `known_failure` the cases carry the cluster's history as their known failure, so the
/// corpus can join CI at once and reports XPASS the day the cluster is fixed.
pub fn export_clusters(
    report: &ClusterReport,
    fixtures_dir: &Path,
    out_dir: &Path,
    known_failure: bool,
) -> Result<Vec<ExportedCorpus>, TracesError> {
    std::fs::create_dir_all(out_dir)
        .map_err(|e| TracesError::file(out_dir, format!("cannot create export directory: {e}")))?;
    let mut written = Vec::new();
    for cluster in &report.clusters {
        for fixture in &cluster.fixtures {
            let mut name = format!("cluster-{}", slug(&cluster.question));
            if cluster.fixtures.len() > 1 {
                let _ = write!(name, "-{}", slug(fixture));
            }
            let path = out_dir.join(format!("{name}.yaml"));
            let root = relative_path(out_dir, &fixtures_dir.join(fixture));
            let text = cluster_yaml(cluster, &name, &root, known_failure);
            findbench_eval::atomic_file::write_atomic(&path, text.as_bytes())?;
            written.push(ExportedCorpus {
                path,
                cases: cluster.variants.len(),
            });
        }
    }
    Ok(written)
}

fn cluster_yaml(cluster: &Cluster, suite: &str, root: &Path, known_failure: bool) -> String {
    let outcomes: Vec<String> = cluster
        .outcomes
        .iter()
        .map(|(o, n)| format!("{o} x{n}"))
        .collect();
    let history = format!(
        "production cluster: {} traces ({}), first seen {}, last seen {}",
        cluster.occurrences,
        outcomes.join(", "),
        cluster.first_seen,
        cluster.last_seen
    );
    let mut y = String::new();
    let _ = writeln!(y, "# Exported by `findbench clusters --export`.");
    let _ = writeln!(y, "# {history}");
    for t in &cluster.tool_sequences {
        let _ = writeln!(y, "# recorded tools: {} (x{})", t.value, t.count);
    }
    let _ = writeln!(y, "suite: {}", yaml_str(suite));
    let _ = writeln!(
        y,
        "fixture: {{root: {}}}",
        yaml_str(&root.to_string_lossy())
    );
    let _ = writeln!(y, "cases:");
    let base = slug(&cluster.question);
    for (i, variant) in cluster.variants.iter().enumerate() {
        let id = if i == 0 {
            base.clone()
        } else {
            let v = slug(&variant.value);
            if v == base {
                format!("{base}-{}", i + 1)
            } else {
                v
            }
        };
        let _ = writeln!(y, "  - id: {}", yaml_str(&id));
        let _ = writeln!(y, "    query: {}", yaml_str(&variant.value));
        let _ = writeln!(y, "    mode: ask");
        let _ = writeln!(y, "    args: {{}}");
        let _ = writeln!(y, "    expect:");
        let _ = writeln!(y, "      outcome: success");
        let _ = writeln!(y, "    tags: [cluster]");
        if known_failure {
            let _ = writeln!(
                y,
                "    known_failure: {}",
                yaml_str(&format!("{history}; seen {} times", variant.count))
            );
        }
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_and_quotes() {
        assert_eq!(
            slug("where is replay implemented"),
            "where-is-replay-implemented"
        );
        assert_eq!(slug("?"), "cluster");
        assert_eq!(shell_quote("traces/a.jsonl"), "traces/a.jsonl");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote("find cursor bin"), "'find cursor bin'");
    }

    #[test]
    fn relative_paths_between_directories() {
        assert_eq!(
            relative_path(Path::new("/a/b/out"), Path::new("/a/fixtures/x")),
            PathBuf::from("../../fixtures/x")
        );
        assert_eq!(
            relative_path(Path::new("/a"), Path::new("/a")),
            PathBuf::from(".")
        );
    }
}
