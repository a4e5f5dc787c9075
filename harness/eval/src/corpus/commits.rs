//! A localization corpus from a repository's history (`findbench corpus commits`): each
//! sampled commit is a task an agent could be handed, its subject the question, the tree
//! before it (its parent) the fixture, and the source files it changed the answer.
//!
//! A commit is eligible when it is not a merge, has a parent, its subject holds at least
//! `min_words` words of letters, and the source files it changed (by the profile's rules of
//! what a source file and a test are, minus `exclude` globs) number 1 to `max_files`, all
//! modified (a file added or deleted by the commit is not in the tree before it, or not
//! after it). Other files it changed (tests, docs, changelogs, data) do not count. The
//! sample is a seeded shuffle of the eligible commits, so the same seed gives the same
//! corpus from the same history.

use super::git;
use findbench_engine::modes::code::is_test_file;
use findbench_engine::tree::{Content, TreeFile};
use findbench_engine::Profile;
use std::path::{Path, PathBuf};

/// What `corpus commits` samples.
#[derive(Debug, Clone)]
pub struct CommitsOptions {
    pub git_dir: PathBuf,
    /// The revision whose history is sampled.
    pub rev: String,
    /// Most source files a commit may change.
    pub max_files: usize,
    /// Paths (globs, `*` within a directory, `**` across) whose files do not count.
    pub exclude: Vec<String>,
    pub seed: u64,
    /// Commits sampled (all eligible ones when fewer).
    pub count: usize,
    /// Fewest words of letters a subject must hold to be a question.
    pub min_words: usize,
    /// The suite name; default `commits-<repository name>`.
    pub suite: Option<String>,
    /// Tests count as source files (by default a commit's tests do not count).
    pub include_tests: bool,
    /// What of a commit is asked: its subject, or its whole message.
    pub text: CommitText,
}

/// What of a commit a case asks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CommitText {
    /// The subject (its first paragraph, on one line).
    #[default]
    Subject,
    /// The whole message: subject and body.
    Message,
}

impl CommitsOptions {
    pub fn new(git_dir: impl Into<PathBuf>) -> CommitsOptions {
        CommitsOptions {
            git_dir: git_dir.into(),
            rev: "HEAD".into(),
            max_files: 2,
            exclude: Vec::new(),
            seed: 1,
            count: 40,
            min_words: 2,
            suite: None,
            include_tests: false,
            text: CommitText::Subject,
        }
    }
}

/// One sampled commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitCase {
    pub commit: String,
    pub parent: String,
    /// What the case asks: the subject, or the whole message (`--text message`).
    pub question: String,
    /// The source files it changed, in the order git lists them.
    pub files: Vec<String>,
}

/// The sample and what it was drawn from.
#[derive(Debug, Clone)]
pub struct CommitSample {
    /// The canonical git directory.
    pub git_dir: PathBuf,
    pub suite: String,
    /// Non-merge commits read.
    pub commits: usize,
    /// Of those, the eligible ones.
    pub eligible: usize,
    pub cases: Vec<CommitCase>,
}

/// Reads the history and samples the commits.
pub fn sample(options: &CommitsOptions, profile: &Profile) -> Result<CommitSample, String> {
    if options.max_files == 0 {
        return Err("--max-files must be at least 1".into());
    }
    if options.count == 0 {
        return Err("--count must be at least 1".into());
    }
    let excludes = options
        .exclude
        .iter()
        .map(|g| glob::Pattern::new(g).map_err(|e| format!("bad --exclude glob `{g}`: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let dir = git::git_dir(&options.git_dir)?;
    let head = git::resolve_commit(&dir, &options.rev)?;
    let log = git::git(
        &dir,
        &[
            "-c",
            "core.quotepath=off",
            "log",
            "--no-merges",
            "--no-renames",
            "--format=%x1e%H %P%x1f%s%x1f%B%x1d",
            "--name-status",
            &head,
        ],
    )?;
    let counts = |path: &str| {
        let file = TreeFile::new(path.to_string(), 0, Content::Unreadable(String::new()));
        let source = file.language.is_some()
            || profile
                .grep
                .source_extensions
                .iter()
                .any(|e| e == file.ext());
        source
            && (options.include_tests || !is_test_file(&file, &profile.code))
            && !excludes.iter().any(|g| g.matches(path))
    };
    let mut commits = 0;
    let mut eligible: Vec<CommitCase> = Vec::new();
    for record in log.split('\x1e').filter(|r| !r.trim().is_empty()) {
        commits += 1;
        // `H P` \x1f subject \x1f message \x1d, then the changed files, a line each
        let Some((head, changed)) = record.split_once('\x1d') else {
            continue;
        };
        let mut fields = head.splitn(3, '\x1f');
        let (Some(ids), Some(subject), Some(message)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let lines = changed.lines();
        let mut ids = ids.split_whitespace();
        let (Some(commit), Some(parent), None) = (ids.next(), ids.next(), ids.next()) else {
            continue; // the root commit
        };
        let question = match options.text {
            CommitText::Subject => subject.trim(),
            CommitText::Message => message.trim(),
        };
        let words = question
            .split(|c: char| !c.is_alphabetic())
            .filter(|w| w.chars().count() >= 2)
            .count();
        if words < options.min_words {
            continue;
        }
        let mut files = Vec::new();
        let mut only_modified = true;
        for line in lines {
            let Some((status, path)) = line.split_once('\t') else {
                continue;
            };
            if !counts(path) {
                continue;
            }
            only_modified &= status == "M";
            files.push(path.to_string());
        }
        if only_modified && (1..=options.max_files).contains(&files.len()) {
            eligible.push(CommitCase {
                commit: commit.to_string(),
                parent: parent.to_string(),
                question: question.to_string(),
                files,
            });
        }
    }
    let total = eligible.len();
    // a seeded Fisher-Yates shuffle of the indices, the chosen ones kept in history order
    let mut order: Vec<usize> = (0..total).collect();
    let mut state = options.seed;
    for i in (1..total).rev() {
        let j = (splitmix64(&mut state) % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order.truncate(options.count);
    order.sort_unstable();
    let cases = order.into_iter().map(|i| eligible[i].clone()).collect();
    let suite = options
        .suite
        .clone()
        .unwrap_or_else(|| format!("commits-{}", repository_name(&dir)));
    Ok(CommitSample {
        git_dir: dir,
        suite,
        commits,
        eligible: total,
        cases,
    })
}

/// The name a person knows the repository by: its directory, or the one above a `.git`
/// (or a mirror's `repo`) directory, without `.git`.
pub fn repository_name(dir: &Path) -> String {
    let name = |p: &Path| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let own = name(dir);
    let own = if own == ".git" || own == "repo" {
        dir.parent().map(name).unwrap_or(own)
    } else {
        own
    };
    let own = own.strip_suffix(".git").unwrap_or(&own).to_string();
    own.chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// The next number of a splitmix64 sequence (Steele, Lea and Flood, 2014).
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The corpus YAML of a sample: every case asks the commit's subject (or message) against
/// its parent's tree and expects the changed files within 5 (the single file at rank 1).
/// `git_dir` is the repository as the corpus names it: relative to the corpus file's
/// directory ([`super::relative::fixture_path`]).
pub fn to_yaml(sample: &CommitSample, command: &str, git_dir: &str) -> String {
    let q = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into());
    let mut out = String::new();
    out.push_str(&format!(
        "# Generated by `{command}`: {} of {} eligible commits ({} non-merge commits read).\n",
        sample.cases.len(),
        sample.eligible,
        sample.commits
    ));
    out.push_str("# Each case asks a commit's subject (or message) against the tree before it\n");
    out.push_str("# (its parent)\n");
    out.push_str("# and expects the source files the commit changed.\n");
    out.push_str(&format!("suite: {}\n", q(&sample.suite)));
    let first = sample
        .cases
        .first()
        .map(|c| c.parent.as_str())
        .unwrap_or("HEAD");
    out.push_str(&format!("fixture: {{git: {}, rev: {first}}}\n", q(git_dir)));
    out.push_str("budget: {p95_ms: 1000}\n");
    out.push_str("cases:\n");
    for c in &sample.cases {
        out.push_str(&format!(
            "  - id: {}\n",
            &c.commit[..c.commit.len().min(12)]
        ));
        out.push_str(&format!("    query: {}\n", q(&c.question)));
        out.push_str("    mode: ask\n");
        out.push_str(&format!(
            "    fixture: {{git: {}, rev: {}}}\n",
            q(git_dir),
            c.parent
        ));
        out.push_str("    expect:\n");
        if let [only] = c.files.as_slice() {
            out.push_str(&format!("      top: {}\n", q(only)));
        }
        let files: Vec<String> = c.files.iter().map(|f| q(f)).collect();
        out.push_str(&format!("      contains: [{}]\n", files.join(", ")));
        out.push_str("      within: 5\n");
        out.push_str(&format!("    tags: [commits, files-{}]\n", c.files.len()));
    }
    out
}
