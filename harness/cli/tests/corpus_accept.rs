//! A generated corpus is ready to commit: `corpus commits` names its repository relative
//! to the corpus file, leaves tests out unless `--include-tests`, asks the subject or the
//! whole message (`--text`); committed with the results of the accept step (`run --out
//! DIR --exit-zero`), it runs from a clone with no warning and passes its gate against that
//! baseline, while the same run without the baseline fails on the cases that failed then.

mod common;

use common::assert_exit;
use std::path::Path;
use std::process::{Command, Output};

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ])
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
}

fn write(dir: &Path, path: &str, text: &str) {
    let p = dir.join(path);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn commit(dir: &Path, message: &str) {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", message]);
}

/// findbench in `dir` with its own cache.
fn findbench(dir: &Path, cache: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_findbench"))
        .args(args)
        .current_dir(dir)
        .env("FINDBENCH_CACHE", cache)
        .env("FINDBENCH_NO_BACKGROUND_INDEX", "1")
        .env_remove("FINDBENCH_STORE")
        .output()
        .expect("findbench runs")
}

/// A repository whose history holds a findable fix, one no question can find, and one
/// that changes a test beside its source file.
fn repository(repo: &Path) {
    git(
        repo.parent().unwrap(),
        &["init", "-q", repo.to_str().unwrap()],
    );
    write(repo, "src/parser.rs", "pub fn parse_header() {}\n");
    write(repo, "src/walker.rs", "pub fn walk_tree() {}\n");
    write(repo, "src/misc.rs", "pub fn z() {}\n");
    write(repo, "tests/walker_test.rs", "#[test] fn walks() {}\n");
    commit(repo, "Initial import of the project");
    write(
        repo,
        "src/parser.rs",
        "pub fn parse_header() { let _ = 1; }\n",
    );
    commit(repo, "Fix parse_header on empty input");
    write(repo, "src/misc.rs", "pub fn z() { let _ = 2; }\n");
    commit(
        repo,
        "Adjust things slightly\n\nThe body says more than the subject does.",
    );
    write(repo, "src/walker.rs", "pub fn walk_tree() { let _ = 3; }\n");
    write(
        repo,
        "tests/walker_test.rs",
        "#[test] fn walks() { let _ = 3; }\n",
    );
    commit(repo, "Walk the tree in order");
}

#[test]
fn a_generated_corpus_committed_and_run_from_a_clone_passes_after_the_accept_step() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let repo = tmp.path().join("repo");
    repository(&repo);
    std::fs::create_dir_all(repo.join("corpora")).unwrap();
    let out = findbench(
        &repo,
        &cache,
        &[
            "corpus",
            "commits",
            "--git-dir",
            ".",
            "--out",
            "corpora/commits.yaml",
        ],
    );
    assert_exit(&out, 0);
    let yaml = std::fs::read_to_string(repo.join("corpora/commits.yaml")).unwrap();
    assert!(
        yaml.contains(r#"fixture: {git: "../.git", rev: "#),
        "{yaml}"
    );
    assert!(!yaml.contains(tmp.path().to_str().unwrap()), "{yaml}");
    // the walker commit changed its test too: only the source file is expected
    assert!(
        yaml.contains(r#"top: "src/walker.rs""#) && !yaml.contains("walker_test"),
        "{yaml}"
    );
    assert_eq!(yaml.matches("  - id: ").count(), 3, "{yaml}");

    // the first run of a new corpus: the question no search can answer fails its gate
    let run = ["run", "corpora/commits.yaml", "--no-progress", "--out"];
    let first = findbench(&repo, &cache, &[&run[..], &["target/first"]].concat());
    assert_exit(&first, 1);
    assert!(
        String::from_utf8_lossy(&first.stdout).contains("unexpected failure"),
        "{}",
        String::from_utf8_lossy(&first.stdout)
    );
    // the accept step: today's results, recorded as the baseline
    let accept = findbench(
        &repo,
        &cache,
        &[&run[..], &["reports/commits-baseline", "--exit-zero"]].concat(),
    );
    assert_exit(&accept, 0);
    // recorded on a developer's machine, gated on CI's: timings are reported, not gated
    // (and a test never gates on timing)
    let baseline = repo.join("reports/commits-baseline/results.json");
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&baseline).unwrap()).unwrap();
    doc["machine"]["instance"] = "a developer's machine".into();
    std::fs::write(&baseline, doc.to_string()).unwrap();
    std::fs::write(repo.join(".gitignore"), "target/\n").unwrap();
    commit(&repo, "Add the commits corpus and its baseline");

    let clone = tmp.path().join("clone");
    git(
        tmp.path(),
        &[
            "clone",
            "-q",
            repo.to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
    );
    let gated = findbench(
        &clone,
        &cache,
        &[
            &run[..],
            &[
                "target/ci",
                "--baseline",
                "reports/commits-baseline/results.json",
            ],
        ]
        .concat(),
    );
    assert_exit(&gated, 0);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&gated.stdout),
        String::from_utf8_lossy(&gated.stderr),
    );
    assert!(stdout.contains("failed in the baseline too"), "{stdout}");
    assert!(!stderr.contains("warning"), "{stderr}");
}

#[test]
fn tests_count_when_asked_and_the_whole_message_can_be_the_question() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let repo = tmp.path().join("repo");
    repository(&repo);
    let corpus = tmp.path().join("commits.yaml");
    let out = findbench(
        &repo,
        &cache,
        &[
            "corpus",
            "commits",
            "--git-dir",
            ".",
            "--out",
            corpus.to_str().unwrap(),
            "--include-tests",
            "--text",
            "message",
        ],
    );
    assert_exit(&out, 0);
    let yaml = std::fs::read_to_string(&corpus).unwrap();
    assert!(
        yaml.contains(r#"fixture: {git: "repo/.git", rev: "#),
        "{yaml}"
    );
    assert!(
        yaml.contains(r#"contains: ["src/walker.rs", "tests/walker_test.rs"]"#),
        "{yaml}"
    );
    assert!(
        yaml.contains(
            r#"query: "Adjust things slightly\n\nThe body says more than the subject does.""#
        ),
        "{yaml}"
    );
    assert!(yaml.contains("--include-tests --text message"), "{yaml}");
}

#[test]
fn corpus_symbols_leaves_tests_and_excluded_paths_out_and_names_its_root_relatively() {
    if Command::new("ctags").arg("--version").output().is_err() {
        eprintln!("skipped: no ctags on PATH (Universal Ctags makes `corpus symbols`)");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let root = tmp.path().join("proj");
    write(&root, "src/widget.rs", "pub struct WidgetFactory {}\n");
    write(&root, "tests/helper.rs", "pub fn helper_for_tests() {}\n");
    write(&root, "vendor/parser.rs", "pub struct VendoredParser {}\n");
    std::fs::create_dir_all(root.join("corpora")).unwrap();
    let symbols = |extra: &[&str]| {
        let mut args = vec![
            "corpus",
            "symbols",
            "--root",
            ".",
            "--out",
            "corpora/symbols.yaml",
            "--exclude",
            "vendor/**",
        ];
        args.extend_from_slice(extra);
        assert_exit(&findbench(&root, &cache, &args), 0);
        std::fs::read_to_string(root.join("corpora/symbols.yaml")).unwrap()
    };
    let yaml = symbols(&[]);
    assert!(yaml.contains(r#"fixture: {root: "..""#), "{yaml}");
    assert!(yaml.contains("WidgetFactory"), "{yaml}");
    assert!(!yaml.contains("helper_for_tests"), "{yaml}");
    assert!(!yaml.contains("VendoredParser"), "{yaml}");
    let yaml = symbols(&["--include-tests"]);
    assert!(yaml.contains("helper_for_tests"), "{yaml}");
    assert!(!yaml.contains("VendoredParser"), "{yaml}");
}

/// `corpus --help` names both generators and the accept step.
#[test]
fn corpus_help_names_both_generators_and_the_accept_step() {
    let out = common::findbench(&["corpus", "--help"]);
    assert_exit(&out, 0);
    let help = String::from_utf8_lossy(&out.stdout);
    for line in [
        "  commits ",
        "  symbols ",
        "--exit-zero   # accept",
        "--baseline ",
    ] {
        assert!(help.contains(line), "no `{line}` in:\n{help}");
    }
}
