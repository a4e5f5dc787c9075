//! Tests of the `ask` cascade on trees held in memory.

use super::*;
use crate::tree::{Content, TreeFile};

fn tree() -> Tree {
    Tree::from_memory(
        "t",
        [
            (
                "src/services/replay_service.cpp",
                "void ReplayService::replay(const Trace& t) {\n}\n",
            ),
            (
                "src/services/replay_service.h",
                "class ReplayService {\n};\n",
            ),
            ("NOTES.md", "The cursor binary is built from tools.\n"),
        ],
    )
}

fn run(q: &str, profile: &Profile) -> AskResponse {
    ask(&tree(), &AskRequest::new(q), profile).unwrap()
}

#[test]
fn find_then_read_succeeds() {
    let r = run("where is replay implemented", &Profile::default());
    let plan = r.plan.as_ref().unwrap();
    assert_eq!((plan.term.as_str(), plan.impl_query), ("replay", true));
    assert_eq!(r.tools, [Tool::Find, Tool::Read]);
    assert_eq!(r.iterations, 2);
    assert_eq!(r.candidates, 2);
    assert_eq!(
        r.selected.as_deref(),
        Some("src/services/replay_service.cpp")
    );
    assert_eq!(r.outcome, Outcome::Success);
    assert!(
        r.matches[0].reason.starts_with("find: definition"),
        "{}",
        r.matches[0].reason
    );
    // the read quotes the declaration find matched
    let e = r.evidence.unwrap();
    assert_eq!(e.path, "src/services/replay_service.cpp");
    assert_eq!(e.lines[0].number, 1);
    assert_eq!(
        e.lines[0].text,
        "void ReplayService::replay(const Trace& t) {"
    );
    assert_eq!(e.mentions, 1);
    assert_eq!(r.reads.len(), 1);
    assert!(r.reads[0].evidence);
}

fn name_only_tree() -> Tree {
    Tree::from_memory(
        "t",
        [
            // found by its directory alone: nothing in it is about replay
            ("src/replay/policy.cpp", "int limit = 3;\n"),
            ("src/replay/notes.txt", "todo\n"),
        ],
    )
}

#[test]
fn a_candidate_whose_text_never_mentions_the_term_is_not_evidence() {
    let r = ask(
        &name_only_tree(),
        &AskRequest::new("where is replay implemented"),
        &Profile::default(),
    )
    .unwrap();
    assert_eq!(r.candidates, 2);
    assert_eq!(r.tools, [Tool::Find, Tool::Read, Tool::Read]);
    assert_eq!(r.selected, None);
    assert_eq!(r.evidence, None);
    assert_eq!(r.outcome, Outcome::InsufficientEvidence);
    assert_eq!(r.reads.len(), 2);
    assert_eq!(r.reads[0].note, "no line mentions `replay`");
    // the spec's read (any readable text) is one rule away
    let mut p = Profile::default();
    p.planner.read_requires_mention = false;
    let r = ask(
        &name_only_tree(),
        &AskRequest::new("where is replay implemented"),
        &p,
    )
    .unwrap();
    assert_eq!(r.outcome, Outcome::Success);
    assert_eq!(r.selected.as_deref(), Some("src/replay/policy.cpp"));
}

#[test]
fn a_file_named_for_the_term_is_evidence_and_plurals_match_singulars() {
    let tree = Tree::from_memory(
        "t",
        [
            (
                "src/runner.rs",
                "//! Cases in parallel.\npub fn each() {}\n",
            ),
            ("src/lib.rs", "pub mod runner;\n"),
            (
                "src/tree/symbols.rs",
                "/// One symbol.\npub struct Symbol;\n",
            ),
        ],
    );
    let r = ask(
        &tree,
        &AskRequest::new("where is the runner implemented"),
        &Profile::default(),
    )
    .unwrap();
    assert_eq!(r.selected.as_deref(), Some("src/runner.rs"));
    assert_eq!(
        r.reads[0].note,
        "named for the term; no line mentions `run`"
    );
    assert!(r.evidence.unwrap().lines.is_empty());
    let r = ask(&tree, &AskRequest::new("find symbols"), &Profile::default()).unwrap();
    assert_eq!(r.selected.as_deref(), Some("src/tree/symbols.rs"));
    assert_eq!(r.evidence.unwrap().mentions, 2);
    let mut p = Profile::default();
    p.planner.exact_name_is_evidence = false;
    let r = ask(
        &tree,
        &AskRequest::new("where is the runner implemented"),
        &p,
    )
    .unwrap();
    assert_eq!(r.selected.as_deref(), Some("src/lib.rs"));
}

#[test]
fn read_moves_on_to_the_next_candidate_with_evidence() {
    let tree = Tree::from_memory(
        "t",
        [
            ("src/replay/policy.cpp", "int limit = 3;\n"),
            ("src/replay/runner.cpp", "// runs one replay\nint run();\n"),
        ],
    );
    let r = ask(
        &tree,
        &AskRequest::new("where is replay implemented"),
        &Profile::default(),
    )
    .unwrap();
    assert_eq!(r.tools, [Tool::Find, Tool::Read, Tool::Read]);
    assert_eq!(r.selected.as_deref(), Some("src/replay/runner.cpp"));
    let e = r.evidence.unwrap();
    assert_eq!(e.lines.len(), 1);
    assert_eq!(
        (e.lines[0].number, e.lines[0].text.as_str()),
        (1, "// runs one replay")
    );
    assert!(!r.reads[0].evidence && r.reads[1].evidence);
}

#[test]
fn evidence_lines_are_capped_by_the_profile() {
    let text = "replay\n".repeat(9);
    let tree = Tree::from_memory("t", [("replay.cpp", text.as_str())]);
    let mut p = Profile::default();
    p.planner.evidence_lines = 3;
    let r = ask(&tree, &AskRequest::new("find replay"), &p).unwrap();
    let e = r.evidence.unwrap();
    assert_eq!(e.mentions, 9);
    assert_eq!(
        e.lines.iter().map(|l| l.number).collect::<Vec<_>>(),
        [1, 2, 3]
    );
}

#[test]
fn grep_is_the_fallback() {
    let r = run("find cursor binary", &Profile::default());
    // the whole term, then each word, then grep
    assert_eq!(
        r.tools,
        [Tool::Find, Tool::Find, Tool::Find, Tool::Grep, Tool::Read]
    );
    assert_eq!(r.selected.as_deref(), Some("NOTES.md"));
    assert_eq!(r.outcome, Outcome::Success);
    // grep's first matching line is the evidence
    assert_eq!(r.matches[0].line, Some(1));
    assert_eq!(r.evidence.as_ref().unwrap().lines[0].number, 1);
    // each call with its input: the per-word finds search different words
    let calls: Vec<(Tool, &str, usize)> = r
        .calls
        .iter()
        .map(|c| (c.tool, c.input.as_str(), c.candidates))
        .collect();
    assert_eq!(
        calls,
        [
            (Tool::Find, "cursor[ _-]?binary", 0),
            (Tool::Find, "cursor", 0),
            (Tool::Find, "binary", 0),
            (Tool::Grep, "cursor[ _-]?binary", 1),
            (Tool::Read, "NOTES.md", 1),
        ]
    );
    assert_eq!(r.tools, r.calls.iter().map(|c| c.tool).collect::<Vec<_>>());
    // in the JSON answer too, beside the names
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["tools"][1], "find");
    assert_eq!(
        json["calls"][1],
        serde_json::json!({"tool": "find", "input": "cursor", "candidates": 0})
    );
}

#[test]
fn a_read_call_is_the_path_it_opened() {
    let r = ask(
        &name_only_tree(),
        &AskRequest::new("where is replay implemented"),
        &Profile::default(),
    )
    .unwrap();
    let calls: Vec<(Tool, &str, usize)> = r
        .calls
        .iter()
        .map(|c| (c.tool, c.input.as_str(), c.candidates))
        .collect();
    assert_eq!(
        calls,
        [
            (Tool::Find, "replay --impl", 2),
            (Tool::Read, "src/replay/policy.cpp", 0),
            (Tool::Read, "src/replay/notes.txt", 0),
        ]
    );
}

#[test]
fn nothing_found_is_insufficient_evidence() {
    let r = run(
        "where is kubernetes autoscaler implemented",
        &Profile::default(),
    );
    assert_eq!(
        r.tools,
        [Tool::Find, Tool::Find, Tool::Find, Tool::Grep, Tool::Rank]
    );
    assert_eq!(r.candidates, 0);
    assert_eq!(r.selected, None);
    assert_eq!(r.outcome, Outcome::InsufficientEvidence);
}

#[test]
fn legacy_profile_reproduces_the_before_state() {
    let legacy = Profile::builtin("legacy").unwrap();
    let r = run("find cursor binary", &legacy);
    assert_eq!(r.outcome, Outcome::InsufficientEvidence);
    assert_eq!(r.profile, "legacy");
}

#[test]
fn a_question_without_a_term_is_no_match_with_a_reason() {
    for q in ["where is it?", "do open"] {
        let r = run(q, &Profile::default());
        assert_eq!(r.outcome, Outcome::NoMatch, "{q}");
        assert!(r.tools.is_empty() && r.plan.is_none() && r.error.is_none());
        assert!(r.reason.as_deref().unwrap().starts_with("no term"), "{r:?}");
    }
}

#[test]
fn the_iteration_budget_stops_the_cascade() {
    let mut p = Profile::default();
    p.planner.max_iterations = 1;
    let r = run("find cursor binary", &p);
    assert_eq!(r.tools, [Tool::Find]);
    assert_eq!(r.outcome, Outcome::InsufficientEvidence);
}

#[test]
fn an_unreadable_candidate_is_not_evidence() {
    let file = TreeFile::new(
        "src/replay.cpp".into(),
        0,
        Content::Unreadable("permission denied".into()),
    );
    let tree = Tree::from_parts("t", vec![file]);
    let r = ask(
        &tree,
        &AskRequest::new("where is replay implemented"),
        &Profile::default(),
    )
    .unwrap();
    assert_eq!(r.tools, [Tool::Find, Tool::Read]);
    assert_eq!(r.outcome, Outcome::InsufficientEvidence);
}

#[test]
fn a_subject_the_tree_does_not_hold_lists_the_files_of_its_words_unread() {
    let tree = Tree::from_memory(
        "t",
        [
            (
                "src/sampling.rs",
                "/// Draws a sample.\npub fn sample(n: usize) -> usize { n }\n",
            ),
            ("src/parse.rs", "pub fn parse_flags() {}\n"),
            ("README.md", "A library of sample helpers.\n"),
        ],
    );
    let q = "Tweaking sample to taste";
    let r = ask(&tree, &AskRequest::new(q), &Profile::default()).unwrap();
    assert_eq!(r.outcome, Outcome::InsufficientEvidence);
    let paths: Vec<&str> = r.matches.iter().map(|m| m.path.as_str()).collect();
    assert_eq!(paths, ["src/sampling.rs", "README.md"]);
    assert_eq!(r.candidates, 2);
    assert!(r.reads.is_empty() && r.selected.is_none(), "{r:?}");
    assert_eq!(r.confidence, 0.0);
    assert_eq!(
        r.reason.as_deref(),
        Some(
            "the tree holds 1 of the question's 3 terms, fewer than the 2 its subject \
             needs: its subject is absent; the 2 files listed hold the words it has, unread"
        )
    );
    // a question whose words the tree holds together is read as before
    let r = ask(
        &tree,
        &AskRequest::new("draws a sample"),
        &Profile::default(),
    )
    .unwrap();
    assert_eq!(r.outcome, Outcome::Success);
}

/// A tree where two words of a task ("for file") make a method's name, while the file the
/// task is about holds its other words.
fn narrowed_tree() -> Tree {
    Tree::from_memory(
        "t",
        [
            (
                "src/Visibility/Converter.php",
                "class Converter {\n    public function forFile(int $mode) {}\n}\n",
            ),
            (
                "src/S3/S3Adapter.php",
                "class S3Adapter {\n    // check existence, throw on failure\n    \
                 public function fileExists() { throw new UnableToCheckExistence(); }\n}\n",
            ),
            ("src/Ftp/FtpAdapter.php", "class FtpAdapter {}\n"),
        ],
    )
}

#[test]
fn a_task_whose_phrase_names_something_it_is_not_about_is_ranked_by_every_word() {
    let q = "Throw exception when failing to check for file existence in S3";
    let r = ask(&narrowed_tree(), &AskRequest::new(q), &Profile::default()).unwrap();
    // the phrase `for file` named `forFile`; its file, read, held too little of the task
    assert_eq!(r.calls[0].input, "for[ _-]?file");
    assert_eq!(r.calls[1].input, "src/Visibility/Converter.php");
    assert_eq!(r.calls[1].candidates, 0);
    let tools: Vec<Tool> = r.calls.iter().map(|c| c.tool).collect();
    assert_eq!(tools, [Tool::Find, Tool::Read, Tool::Rank, Tool::Read]);
    assert_eq!(r.matches[0].path, "src/S3/S3Adapter.php");
    assert!(r.matches[0].ranked, "{:?}", r.matches[0]);
    assert_eq!(r.reads.len(), 2);
    assert_eq!(r.reads[1].path, "src/S3/S3Adapter.php");
    assert_eq!(r.outcome, Outcome::Success);
    assert_eq!(r.selected.as_deref(), Some("src/S3/S3Adapter.php"));
    // the plan reported is the one that ranked the answer: every word of the task
    assert!(
        r.plan.as_ref().unwrap().term.contains("exist"),
        "{:?}",
        r.plan
    );
}

#[test]
fn without_the_rule_a_narrowed_task_lists_only_the_phrases_files() {
    let q = "Throw exception when failing to check for file existence in S3";
    let mut p = Profile::default();
    p.planner.task_after_subject = false;
    let r = ask(&narrowed_tree(), &AskRequest::new(q), &p).unwrap();
    let paths: Vec<&str> = r.matches.iter().map(|m| m.path.as_str()).collect();
    assert_eq!(paths, ["src/Visibility/Converter.php"]);
    assert_eq!(r.outcome, Outcome::InsufficientEvidence);
    assert!(
        r.calls.iter().all(|c| c.tool != Tool::Rank),
        "{:?}",
        r.calls
    );
}

/// A tree whose `forFile` (two words of a task, "for file") is defined in a file that
/// holds the task's words.
fn for_file_holding_the_task() -> Tree {
    Tree::from_memory(
        "t",
        [
            (
                "src/Visibility/Converter.php",
                "class Converter {\n    // throw on failure to check existence in S3\n    \
                 public function forFile(int $mode) { throw new Exception(); }\n}\n",
            ),
            ("src/Ftp/FtpAdapter.php", "class FtpAdapter {}\n"),
        ],
    )
}

#[test]
fn a_narrowed_task_whose_phrase_holds_it_is_answered_by_the_phrase() {
    // the phrase's file holds the task's words: the rule leaves the answer alone
    let tree = for_file_holding_the_task();
    let q = "Throw exception when failing to check for file existence in S3";
    let r = ask(&tree, &AskRequest::new(q), &Profile::default()).unwrap();
    assert_eq!(r.outcome, Outcome::Success);
    let tools: Vec<Tool> = r.calls.iter().map(|c| c.tool).collect();
    assert_eq!(tools, [Tool::Find, Tool::Read]);
    assert_eq!(r.plan.as_ref().unwrap().term, "for[ _-]?file");
}

#[test]
fn an_answer_whose_reads_hold_part_of_the_task_lists_the_files_changed_lately_after_them() {
    let tree = Tree::from_memory(
        "t",
        [
            (
                "src/upload.rs",
                "/// Retry an upload.\npub fn retry_upload() {}\n",
            ),
            ("src/net.rs", "/// The network.\npub fn connect() {}\n"),
            ("src/queue.rs", "pub fn push() {}\n"),
            ("src/store.rs", "pub fn put() {}\n"),
        ],
    );
    let q = "Retry the upload when the network drops twice";
    let asked = |profile: &Profile| ask(&tree, &AskRequest::new(q), profile).unwrap();
    let paths =
        |r: &AskResponse| -> Vec<String> { r.matches.iter().map(|m| m.path.clone()).collect() };
    // without a history: the files its words found, read, too little to answer
    let before = asked(&Profile::default());
    assert_eq!(before.outcome, Outcome::InsufficientEvidence);
    assert_eq!(paths(&before), ["src/upload.rs", "src/net.rs"]);
    let reason = "2 candidates read; the best holds a share 0.29 of the question's words, \
                  below the profile's 0.50: the words that tell the answer apart are in none \
                  of them";
    assert_eq!(before.reason.as_deref(), Some(reason));
    // with one: the files its words found keep the first places, the source files that
    // changed most lately the last (net.rs, changed too, is listed once)
    tree.set_history(crate::tree::History::from_commits([
        vec!["src/queue.rs"],
        vec!["src/store.rs"],
        vec!["src/net.rs"],
    ]));
    let after = asked(&Profile::default());
    assert_eq!(after.outcome, Outcome::InsufficientEvidence);
    assert_eq!(
        paths(&after),
        [
            "src/upload.rs",
            "src/net.rs",
            "src/queue.rs",
            "src/store.rs"
        ]
    );
    assert_eq!(
        after.reason.as_deref(),
        Some(format!("{reason}; the 2 after them changed most, lately most of all").as_str())
    );
    assert!(after.matches[2]
        .reason
        .starts_with("history: changed in 1 of the newest 3"));
}

#[test]
fn an_answer_with_evidence_in_fewer_files_than_asked_lists_the_files_changed_lately_after_them() {
    let tree = Tree::from_memory(
        "t",
        [
            (
                "src/render.rs",
                "/// Render the page again when the screen is slow.\npub fn render_page() {}\n",
            ),
            ("src/net.rs", "pub fn connect() {}\n"),
            ("src/queue.rs", "pub fn push() {}\n"),
            ("src/store.rs", "pub fn put() {}\n"),
            ("tests/render_test.rs", "fn t() {}\n"),
        ],
    );
    let asked = |q: &str, limit: usize, profile: &Profile| {
        let mut request = AskRequest::new(q);
        request.limit = limit;
        ask(&tree, &request, profile).unwrap()
    };
    let paths =
        |r: &AskResponse| -> Vec<String> { r.matches.iter().map(|m| m.path.clone()).collect() };
    let task = "Render the page again on slow screens";
    let found = ["src/render.rs", "tests/render_test.rs"];
    // without a history: the two files its words found, the first read as evidence
    let before = asked(task, 5, &Profile::default());
    assert_eq!(before.outcome, Outcome::Success);
    assert_eq!(paths(&before), found);
    tree.set_history(crate::tree::History::from_commits([
        vec!["src/queue.rs", "tests/render_test.rs"],
        vec!["src/store.rs"],
        vec!["src/render.rs"],
        vec!["src/net.rs"],
    ]));
    // with one: the files found keep their places; `history_filled` (3) of the three
    // free places go to the source files that changed most lately, a file found not twice
    let after = asked(task, 5, &Profile::default());
    assert_eq!(after.outcome, Outcome::Success);
    assert_eq!(after.selected.as_deref(), Some("src/render.rs"));
    assert_eq!(
        paths(&after),
        [
            found[0],
            found[1],
            "src/queue.rs",
            "src/store.rs",
            "src/net.rs"
        ]
    );
    let reason = &after.matches[2].reason;
    assert!(
        reason.starts_with(
            "history: changed in 1 of the newest 4 commits, most lately in the newest;"
        ) && reason.ends_with("(listed in a place the files found left free)"),
        "{reason}"
    );
    assert_eq!(after.reason, None);
    // only the places free: none at a limit of 2, one at 3
    assert_eq!(paths(&asked(task, 2, &Profile::default())), found);
    assert_eq!(
        paths(&asked(task, 3, &Profile::default())),
        [found[0], found[1], "src/queue.rs"]
    );
    // at most `history_filled` of them
    let mut few = Profile::default();
    few.task_ranking.history_filled = 1;
    assert_eq!(
        paths(&asked(task, 5, &few)),
        [found[0], found[1], "src/queue.rs"]
    );
    few.task_ranking.history_filled = 0;
    assert_eq!(paths(&asked(task, 5, &few)), found);
    // the definition the question names, or the file named for it, is a whole answer:
    // nothing is filled
    let named = asked("render_page", 5, &Profile::default());
    assert_eq!(named.outcome, Outcome::Success);
    assert_eq!(paths(&named), ["src/render.rs"]);
    let file = asked("render", 5, &Profile::default());
    assert_eq!(
        (file.outcome, file.matches[0].step),
        (
            Outcome::Success,
            Some(crate::modes::code::CodeStep::ExactStem)
        )
    );
    assert_eq!(paths(&file), found);
}

#[test]
fn a_profile_that_lists_no_history_never_reads_it() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let tree = Tree::from_memory(
        "t",
        [
            (
                "src/render.rs",
                "/// Render the page again when the screen is slow.\npub fn render_page() {}\n",
            ),
            ("src/net.rs", "pub fn connect() {}\n"),
        ],
    );
    let read = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&read);
    tree.set_history_reader(Box::new(move || {
        flag.store(true, Ordering::SeqCst);
        Some(crate::tree::History::from_commits([vec!["src/net.rs"]]))
    }));
    let mut none = Profile::default();
    none.task_ranking.history_filled = 0;
    none.task_ranking.history_listed = 0;
    // an answer with evidence and free places, and one without evidence
    for q in [
        "Render the page again on slow screens",
        "Fix a typo in the spelling",
    ] {
        ask(&tree, &AskRequest::new(q), &none).unwrap();
    }
    assert!(!read.load(Ordering::SeqCst));
    // the default fills the free places: the history is read
    let filled = ask(
        &tree,
        &AskRequest::new("Render the page again on slow screens"),
        &Profile::default(),
    )
    .unwrap();
    assert!(read.load(Ordering::SeqCst));
    assert_eq!(filled.matches.last().unwrap().path, "src/net.rs");
}

#[test]
fn a_task_answered_by_the_definition_of_a_phrase_of_it_is_filled_the_name_alone_is_not() {
    let tree = for_file_holding_the_task();
    tree.set_history(crate::tree::History::from_commits([vec![
        "src/Ftp/FtpAdapter.php",
    ]]));
    let paths = |q: &str| -> (Outcome, Vec<String>) {
        let r = ask(&tree, &AskRequest::new(q), &Profile::default()).unwrap();
        (r.outcome, r.matches.into_iter().map(|m| m.path).collect())
    };
    // the task's phrase `for file` names `forFile`, whose definition is read as evidence:
    // it answers part of the task, so the free places are filled
    let task = paths("Throw exception when failing to check for file existence in S3");
    assert_eq!(
        task,
        (
            Outcome::Success,
            vec![
                "src/Visibility/Converter.php".to_string(),
                "src/Ftp/FtpAdapter.php".to_string()
            ]
        )
    );
    // the name alone is answered by its definition, whole
    let name = paths("forFile");
    assert_eq!(
        name,
        (
            Outcome::Success,
            vec!["src/Visibility/Converter.php".to_string()]
        )
    );
}
