//! Corpora from history against small git repositories made here: `corpus commits` picks
//! the commits it should, and `{git, rev}` fixtures load the tree as it was at that commit.

use findbench_engine::{Fixture, Profile};
use findbench_eval::corpus::commits::{sample, to_yaml, CommitsOptions};
use findbench_eval::corpus::{git, load_corpora};
use std::path::Path;
use std::process::Command;

fn run_git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .env("GIT_AUTHOR_DATE", "2024-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2024-01-01T00:00:00Z")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn write(dir: &Path, path: &str, text: &str) {
    let p = dir.join(path);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn commit(dir: &Path, subject: &str) -> String {
    run_git(dir, &["add", "-A"]);
    run_git(dir, &["commit", "-q", "-m", subject]);
    run_git(dir, &["rev-parse", "HEAD"])
}

/// A repository whose history has one commit of each kind `corpus commits` must tell apart.
struct Repo {
    _dir: tempfile::TempDir,
    path: std::path::PathBuf,
    first: String,
    /// changed src/walk.rs only (a test and the changelog beside it)
    walk_fix: String,
    /// changed src/cli.rs and src/walk.rs
    two_files: String,
}

fn repo() -> Repo {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().to_path_buf();
    run_git(&p, &["init", "-q", "-b", "main"]);
    write(&p, "src/walk.rs", "pub fn walk() {}\n");
    write(&p, "src/cli.rs", "pub fn parse() {}\n");
    write(&p, "CHANGELOG.md", "# changes\n");
    let first = commit(&p, "Initial import of the walker");
    write(
        &p,
        "src/walk.rs",
        "pub fn walk() {\n    // exit when Ctrl-C is pressed twice\n}\n",
    );
    write(&p, "tests/walk_test.rs", "#[test] fn twice() {}\n");
    write(&p, "CHANGELOG.md", "# changes\n- exit on second Ctrl-C\n");
    let walk_fix = commit(&p, "Exit immediately when Ctrl-C has been pressed twice");
    write(&p, "README.md", "docs only\n");
    commit(&p, "Document the walker in the README");
    write(&p, "src/new_module.rs", "pub fn added() {}\n");
    commit(&p, "Add a new module for colors");
    write(&p, "src/cli.rs", "pub fn parse() { let threads = 2; }\n");
    write(
        &p,
        "src/walk.rs",
        "pub fn walk() {\n    // exit when Ctrl-C is pressed twice\n    let n = 1;\n}\n",
    );
    let two_files = commit(&p, "Tweak default thread count logic");
    write(&p, "src/cli.rs", "pub fn parse() { let threads = 3; }\n");
    commit(&p, "v2");
    Repo {
        _dir: dir,
        path: p,
        first,
        walk_fix,
        two_files,
    }
}

#[test]
fn commits_that_changed_one_or_two_modified_source_files_become_cases() {
    let r = repo();
    let mut options = CommitsOptions::new(&r.path);
    options.count = 10;
    let s = sample(&options, &Profile::default()).unwrap();
    // 6 commits; the first has no parent, the README one changed no source file, the module
    // one added its file, `v2` has one word: two are left, newest first
    assert_eq!((s.commits, s.eligible), (6, 2));
    let got: Vec<(&str, &str, Vec<&str>)> = s
        .cases
        .iter()
        .map(|c| {
            (
                c.commit.as_str(),
                c.question.as_str(),
                c.files.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                r.two_files.as_str(),
                "Tweak default thread count logic",
                vec!["src/cli.rs", "src/walk.rs"]
            ),
            (
                r.walk_fix.as_str(),
                "Exit immediately when Ctrl-C has been pressed twice",
                vec!["src/walk.rs"]
            ),
        ]
    );
    assert_eq!(s.cases[1].parent, r.first);
    // at most one file: only the walk fix; leaving out src/walk.rs: only the two-file
    // commit is left, as a one-file case
    options.max_files = 1;
    let s = sample(&options, &Profile::default()).unwrap();
    assert_eq!(s.cases.len(), 1);
    assert_eq!(s.cases[0].commit, r.walk_fix);
    options.max_files = 2;
    options.exclude = vec!["src/walk.rs".into()];
    let s = sample(&options, &Profile::default()).unwrap();
    assert_eq!(s.cases.len(), 1);
    assert_eq!(s.cases[0].files, ["src/cli.rs"]);
}

#[test]
fn the_sample_is_seeded() {
    let r = repo();
    let mut options = CommitsOptions::new(&r.path);
    options.count = 1;
    let pick = |seed: u64, o: &mut CommitsOptions| {
        o.seed = seed;
        sample(o, &Profile::default()).unwrap().cases[0]
            .commit
            .clone()
    };
    let a = pick(7, &mut options);
    assert_eq!(a, pick(7, &mut options));
    let seen: std::collections::BTreeSet<String> = (0..16).map(|s| pick(s, &mut options)).collect();
    assert_eq!(seen.len(), 2, "every eligible commit is drawn by some seed");
}

#[test]
fn a_generated_corpus_loads_each_case_on_the_tree_before_its_commit() {
    let r = repo();
    let cache = tempfile::tempdir().unwrap();
    std::env::set_var("FINDBENCH_CACHE", cache.path());
    let s = sample(&CommitsOptions::new(&r.path), &Profile::default()).unwrap();
    let yaml = to_yaml(
        &s,
        "findbench corpus commits --git-dir X",
        &s.git_dir.display().to_string(),
    );
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("commits.yaml");
    std::fs::write(&file, &yaml).unwrap();
    let corpora = load_corpora(&[file]).unwrap();
    let cases = &corpora[0].cases;
    assert_eq!(cases.len(), 2);
    // the one-file case expects its file at rank 1, the two-file case both within 5
    assert_eq!(cases[1].expect.top.as_deref(), Some("src/walk.rs"));
    assert_eq!(cases[0].expect.top, None);
    assert_eq!(cases[0].expect.contains, ["src/cli.rs", "src/walk.rs"]);
    assert_eq!(cases[0].expect.within, Some(5));
    let text_of = |i: usize, path: &str| match &cases[i].fixture.fixture {
        Fixture::Tree(t) => t.file(path).and_then(|f| f.text()).map(str::to_string),
        _ => None,
    };
    // the walk fix runs on the first commit's tree: no Ctrl-C yet, no test directory
    assert_eq!(
        text_of(1, "src/walk.rs").as_deref(),
        Some("pub fn walk() {}\n")
    );
    assert_eq!(text_of(1, "tests/walk_test.rs"), None);
    // the two-file case runs on the tree with the new module, before threads were set
    assert!(text_of(0, "src/new_module.rs").is_some());
    assert_eq!(
        text_of(0, "src/cli.rs").as_deref(),
        Some("pub fn parse() {}\n")
    );
    // each tree is weighed by the history before its commit, never by the commit asked
    // about nor a later one: the two-file case's tree (the module commit) counts the
    // module, README, walk fix and first commits, in which src/walk.rs changed twice and
    // src/cli.rs once (three times and twice with the commit itself, cli.rs three times
    // with `v2`); the walk fix's tree counts the first commit alone
    let counts_of = |i: usize| match &cases[i].fixture.fixture {
        Fixture::Tree(t) => {
            let h = t.history().expect("a git fixture's tree has its history");
            let counts = h.change_counts(usize::MAX);
            let mut counts: Vec<(String, u32)> = counts
                .into_iter()
                .map(|(p, c)| (p.to_string(), c))
                .collect();
            counts.sort();
            (h.commits(), counts)
        }
        _ => panic!("a tree fixture"),
    };
    let owned = |v: &[(&str, u32)]| -> Vec<(String, u32)> {
        v.iter().map(|(p, c)| (p.to_string(), *c)).collect()
    };
    assert_eq!(
        counts_of(0),
        (
            4,
            owned(&[
                ("CHANGELOG.md", 2),
                ("README.md", 1),
                ("src/cli.rs", 1),
                ("src/new_module.rs", 1),
                ("src/walk.rs", 2),
                ("tests/walk_test.rs", 1),
            ])
        )
    );
    assert_eq!(
        counts_of(1),
        (
            1,
            owned(&[("CHANGELOG.md", 1), ("src/cli.rs", 1), ("src/walk.rs", 1)])
        )
    );
    // materialized under the cache, the repository's work tree untouched
    assert!(cases[0].fixture.path.starts_with(cache.path()));
    // two commits' trees, one project: the repository (what `tune` splits by)
    assert_ne!(cases[0].fixture.path, cases[1].fixture.path);
    let repository = s.git_dir.canonicalize().unwrap();
    assert_eq!(cases[0].fixture.project, repository);
    assert_eq!(cases[1].fixture.project, repository);
    assert_eq!(run_git(&r.path, &["status", "--porcelain"]), "");
}

#[test]
fn bad_git_fixtures_are_errors_naming_the_file_and_line() {
    let r = repo();
    let cache = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("c.yaml");
    let corpus = |fixture: &str| {
        format!("suite: s\nfixture: {fixture}\ncases:\n  - id: a\n    query: walk\n    mode: ask\n    expect: {{outcome: success}}\n")
    };
    let repo = r.path.display().to_string();
    for (fixture, want) in [
        (format!("{{git: {repo}}}"), "fixture git needs `rev`"),
        (
            format!("{{root: {repo}, rev: HEAD}}"),
            "`rev` applies to a fixture `git` only",
        ),
        (
            format!("{{git: {repo}, rev: nosuchrev}}"),
            "revision `nosuchrev` is not a commit",
        ),
        (
            format!("{{git: {}, rev: HEAD}}", out.path().display()),
            "is not a git repository",
        ),
    ] {
        std::fs::write(&file, corpus(&fixture)).unwrap();
        let err = load_corpora(std::slice::from_ref(&file))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("c.yaml:2") && err.contains(want),
            "{fixture}: {err}"
        );
    }
    // materialized once: the second call finds the same directory
    let a = git::materialize_in(cache.path(), &r.path, "HEAD~1").unwrap();
    let b = git::materialize_in(cache.path(), &r.path, &r.two_files).unwrap();
    assert_eq!(a, b);
    assert!(a.ends_with(&r.two_files));
    // an interrupted extraction's directory is removed once its process is gone; one of a
    // running process (this one) is left
    let area = a.parent().unwrap();
    let stale = area.join(format!(".{}.4294967295.7.partial", r.two_files));
    let running = area.join(format!(".{}.{}.7.partial", r.two_files, std::process::id()));
    for d in [&stale, &running] {
        std::fs::create_dir_all(d.join("src")).unwrap();
    }
    let c = git::materialize_in(cache.path(), &r.path, "HEAD").unwrap();
    assert!(c.is_dir());
    assert!(!stale.exists());
    assert!(running.exists());
}

#[test]
fn a_commit_tree_holds_the_files_its_gitattributes_keep_out_of_archives() {
    // a monorepo that splits packages out marks them `export-ignore`; the tree of the
    // commit still holds them, and a question about one must be asked over it
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    run_git(p, &["init", "-q", "-b", "main"]);
    write(
        p,
        ".gitattributes",
        "/packages/s3 export-ignore\n**/*Test.php export-ignore\n",
    );
    write(p, "src/Filesystem.php", "<?php class Filesystem {}\n");
    write(p, "packages/s3/S3Adapter.php", "<?php class S3Adapter {}\n");
    write(
        p,
        "src/FilesystemTest.php",
        "<?php class FilesystemTest {}\n",
    );
    let commit = commit(p, "Initial import");
    let cache = tempfile::tempdir().unwrap();
    let tree = git::materialize_in(cache.path(), p, &commit).unwrap();
    for file in [
        ".gitattributes",
        "src/Filesystem.php",
        "packages/s3/S3Adapter.php",
        "src/FilesystemTest.php",
    ] {
        assert!(
            tree.join(file).is_file(),
            "{file} missing from {}",
            tree.display()
        );
    }
    // nothing else: no index file left behind, the repository's work tree untouched
    let mut files = Vec::new();
    let mut stack = vec![tree.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else {
                files.push(e.path());
            }
        }
    }
    assert_eq!(files.len(), 4, "{files:?}");
    assert_eq!(run_git(p, &["status", "--porcelain"]), "");
}

/// `path` loaded as the command line loads a root, without the kept index.
fn root_fixture(path: &Path) -> Fixture {
    let options = findbench_engine::TreeOptions {
        no_cache: true,
        ..Default::default()
    };
    findbench_tools::call::load_fixture(findbench_tools::FixtureKind::Root, path, &options).unwrap()
}

#[test]
fn ask_on_the_top_of_a_work_tree_reads_its_history_when_the_profile_weighs_it() {
    use findbench_tools::work_tree_history;
    let r = repo();
    let load = root_fixture;
    let history_of = |fixture: &Fixture| match fixture {
        Fixture::Tree(t) => t.history().map(|h| {
            let counts = h.change_counts(usize::MAX);
            (h.commits(), counts.get("src/cli.rs").copied())
        }),
        _ => None,
    };
    let mut weighed = Profile::default();
    weighed.task_ranking.history = 1.0;
    let mut unused = Profile::default();
    unused.task_ranking.history_listed = 0;
    unused.task_ranking.history_filled = 0;
    let given = |fixture: &Fixture| matches!(fixture, Fixture::Tree(t) if t.has_history());
    // a profile that neither weighs history nor lists the most changed files reads none
    let top = load(&r.path);
    work_tree_history::attach_work_tree(&top, &unused, None);
    assert!(!given(&top));
    assert_eq!(history_of(&top), None);
    // one that only fills an answer's free places is given a reader too
    let mut fills = unused.clone();
    fills.task_ranking.history_filled = 1;
    let filled = load(&r.path);
    work_tree_history::attach_work_tree(&filled, &fills, None);
    assert!(given(&filled));
    // the default lists them in an `insufficient_evidence` answer: the tree is given a
    // reader, which reads six commits up to HEAD when asked (src/cli.rs changed in three)
    work_tree_history::attach_work_tree(&top, &Profile::default(), None);
    assert!(given(&top));
    assert_eq!(history_of(&top), Some((6, Some(3))));
    // weighed: read at once
    let weighed_top = load(&r.path);
    work_tree_history::attach_work_tree(&weighed_top, &weighed, None);
    assert_eq!(history_of(&weighed_top), Some((6, Some(3))));
    // a directory inside the work tree is not its top: no history
    let inside = load(&r.path.join("src"));
    work_tree_history::attach_work_tree(&inside, &weighed, None);
    assert!(!given(&inside));
    assert_eq!(history_of(&inside), None);
}

#[test]
fn an_answer_without_evidence_lists_the_source_files_that_changed_most() {
    use findbench_engine::modes::ask::{ask, AskRequest};
    use findbench_engine::Outcome;
    use findbench_tools::work_tree_history;
    let r = repo();
    let asked = |profile: &Profile, question: &str| {
        let fixture = root_fixture(&r.path);
        work_tree_history::attach_work_tree(&fixture, profile, None);
        let Fixture::Tree(tree) = &fixture else {
            panic!("a root is a tree")
        };
        ask(tree, &AskRequest::new(question), profile).unwrap()
    };
    // nothing in the tree is a typo, and no file holds a word of it: every place goes to
    // the source files that changed most, lately most of all (cli.rs in the newest commit
    // and two more, walk.rs in the one before and two more, then new_module.rs; the test
    // and the changelog are not source files), none read
    let answer = asked(&Profile::default(), "Fix a typo in the spelling");
    assert_eq!(answer.outcome, Outcome::InsufficientEvidence);
    let listed: Vec<(&str, &str)> = answer
        .matches
        .iter()
        .map(|m| (m.path.as_str(), m.reason.as_str()))
        .collect();
    let why = |n: u32, lately: &str| {
        format!(
            "history: changed in {n} of the newest 6 commits, most lately {lately}; among the \
             tree's source files that changed most, lately most of all (the question's words \
             are not evidence of a file)"
        )
    };
    assert_eq!(
        listed,
        [
            ("src/cli.rs", why(3, "in the newest").as_str()),
            ("src/walk.rs", why(3, "1 commit before the newest").as_str()),
            (
                "src/new_module.rs",
                why(1, "2 commits before the newest").as_str()
            )
        ]
    );
    assert!(answer.reads.is_empty(), "{:?}", answer.reads);
    // none listed by a profile that lists none; none on an answer with evidence
    let mut none = Profile::default();
    none.task_ranking.history_listed = 0;
    assert!(asked(&none, "Fix a typo in the spelling")
        .matches
        .is_empty());
    // an answer with evidence keeps the files found first; the places they leave free go
    // to the source files that changed most, none of them twice
    let found = asked(&Profile::default(), "exit when Ctrl-C is pressed twice");
    assert_eq!(found.outcome, Outcome::Success);
    let paths: Vec<(&str, bool)> = found
        .matches
        .iter()
        .map(|m| (m.path.as_str(), m.reason.starts_with("history:")))
        .collect();
    assert_eq!(
        paths,
        [
            ("src/walk.rs", false),
            ("tests/walk_test.rs", false),
            ("CHANGELOG.md", false),
            ("src/cli.rs", true),
            ("src/new_module.rs", true)
        ]
    );
    let mut unfilled = Profile::default();
    unfilled.task_ranking.history_filled = 0;
    let found = asked(&unfilled, "exit when Ctrl-C is pressed twice");
    assert!(found
        .matches
        .iter()
        .all(|m| !m.reason.starts_with("history:")));
}

#[test]
fn a_work_tree_history_is_kept_under_its_head_and_read_again_when_head_moves() {
    use findbench_engine::tree::History;
    use findbench_tools::work_tree_history::{log_path, read_work_tree};
    let r = repo();
    let cache = tempfile::tempdir().unwrap();
    let head = run_git(&r.path, &["rev-parse", "HEAD"]);
    let counts = |h: &History| {
        let cli = h.change_counts(usize::MAX).get("src/cli.rs").copied();
        (h.commits(), cli)
    };
    // without a cache directory: read from git, nothing kept
    let plain = read_work_tree(&r.path, 1000, None).unwrap();
    assert_eq!(counts(&plain), (6, Some(3)));
    assert!(!cache.path().join("history").exists());
    // with one: the same history, kept under HEAD's commit and the number of commits
    let first = read_work_tree(&r.path, 1000, Some(cache.path())).unwrap();
    assert_eq!(counts(&first), (6, Some(3)));
    let kept = log_path(cache.path(), &head, 1000);
    assert!(kept.is_file(), "{kept:?}");
    // the next read is the kept log, not git's: a kept log changed by hand is what it reads
    std::fs::write(&kept, "\x1e\n\nsrc/only.rs\n").unwrap();
    let again = read_work_tree(&r.path, 1000, Some(cache.path())).unwrap();
    assert_eq!((again.commits(), counts(&again).1), (1, None));
    // fewer commits are another log
    let two = read_work_tree(&r.path, 2, Some(cache.path())).unwrap();
    assert_eq!(two.commits(), 2);
    assert!(log_path(cache.path(), &head, 2).is_file());
    // a new commit moves HEAD: git is read again, the new commit counted
    write(
        &r.path,
        "src/cli.rs",
        "pub fn parse() { let threads = 4; }\n",
    );
    let moved_to = commit(&r.path, "More threads");
    let moved = read_work_tree(&r.path, 1000, Some(cache.path())).unwrap();
    assert_eq!(counts(&moved), (7, Some(4)));
    assert!(log_path(cache.path(), &moved_to, 1000).is_file());
    // three logs, no temporary file left behind
    let mut names: Vec<String> = std::fs::read_dir(cache.path().join("history"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(names.iter().all(|n| n.ends_with(".log")), "{names:?}");
}

#[test]
fn the_history_cache_keeps_the_newest_logs_and_answers_when_it_cannot_keep_one() {
    use findbench_tools::work_tree_history::{log_path, read_work_tree, KEPT};
    let r = repo();
    let cache = tempfile::tempdir().unwrap();
    let dir = cache.path().join("history");
    std::fs::create_dir_all(&dir).unwrap();
    // older logs than any the read writes, the oldest first
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for i in 0..KEPT + 2 {
        let p = dir.join(format!("{i:02}-1000.log"));
        std::fs::write(&p, "\x1e\n\nsrc/old.rs\n").unwrap();
        let f = std::fs::File::options().write(true).open(&p).unwrap();
        f.set_modified(old + std::time::Duration::from_secs(i as u64))
            .unwrap();
    }
    read_work_tree(&r.path, 1000, Some(cache.path())).unwrap();
    let head = run_git(&r.path, &["rev-parse", "HEAD"]);
    let mut left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    // the new log and the KEPT - 1 newest of the old ones
    assert_eq!(left.len(), KEPT, "{left:?}");
    assert!(log_path(cache.path(), &head, 1000).is_file());
    assert!(!left.contains(&"00-1000.log".to_string()), "{left:?}");
    assert!(!left.contains(&"02-1000.log".to_string()), "{left:?}");
    assert!(left.contains(&"03-1000.log".to_string()), "{left:?}");
    // a cache directory that is a file: nothing can be kept, the history is still read
    let file = cache.path().join("not-a-directory");
    std::fs::write(&file, "x").unwrap();
    let read = read_work_tree(&r.path, 1000, Some(&file)).unwrap();
    assert_eq!(read.commits(), 6);
}
