//! The outcome of `ask` for a task (a sentence of several words, ranked by every word):
//! a file that holds the task's rarer words answers it even when a word the change is
//! about to add is in no file yet; a file that shares only its common words does not; an
//! identifier named in the task is looked up as written.

use findbench_engine::modes::ask::{ask, AskRequest, AskResponse};
use findbench_engine::{Outcome, Profile, Tree};

fn tree() -> Tree {
    Tree::from_memory(
        "t",
        [
            (
                "src/parser.c",
                "/* the value parser */\n\
                 static int parse_value(const char *text, size_t depth)\n\
                 {\n\
                 \tif (depth > NESTING_LIMIT) { return 0; }\n\
                 \treturn parse_array(text, depth + 1);\n\
                 }\n",
            ),
            (
                "src/printer.c",
                "/* prints a value */\n\
                 static int print_value(const char *text)\n\
                 {\n\
                 \treturn print_string(text);\n\
                 }\n",
            ),
            (
                "src/hooks.c",
                "/* Internal constructor. */\n\
                 static cJSON *cJSON_New_Item(void)\n\
                 {\n\
                 \treturn 0;\n\
                 }\n",
            ),
            (
                "README.md",
                "The library is small and configurable.\nA progress bar is created per run.\n",
            ),
            ("docs/usage.md", "Call the printer on a value.\n"),
        ],
    )
}

fn run(question: &str) -> AskResponse {
    ask(&tree(), &AskRequest::new(question), &Profile::default()).unwrap()
}

#[test]
fn a_task_is_answered_by_the_file_holding_its_rarer_words() {
    // `configurable` is what the change adds: no source file holds it yet
    let r = run("limit the parser nesting depth and make it configurable");
    assert_eq!(r.outcome, Outcome::Success, "{:?}", r.reason);
    assert_eq!(r.selected.as_deref(), Some("src/parser.c"));
    assert!(r.held_share >= 0.5, "{}", r.held_share);
    let evidence = r.evidence.expect("evidence");
    assert!(evidence
        .lines
        .iter()
        .any(|l| l.text.contains("NESTING_LIMIT")));
}

#[test]
fn a_task_whose_rarer_words_no_file_holds_is_not_answered() {
    let r = run("where is the database connection pool created");
    assert_eq!(r.outcome, Outcome::InsufficientEvidence, "{:?}", r.selected);
    assert_eq!(r.selected, None);
    assert!(r.held_share < 0.5, "{}", r.held_share);
}

#[test]
fn an_identifier_of_the_task_is_looked_up_as_written() {
    // `cJSON_New_Item` cut by its humps is `c_json_new_item`; folded it would name nothing
    let r = run("reformatting: cJSON_New_Item");
    assert_eq!(r.selected.as_deref(), Some("src/hooks.c"), "{:?}", r.reason);
    assert_eq!(r.outcome, Outcome::Success);
}

#[test]
fn a_licence_header_is_no_evidence_unless_the_licence_is_asked() {
    let tree = Tree::from_memory(
        "t",
        [
            (
                "src/gauge.c",
                "/*\n * Copyright (c) the authors. Licensed under the MIT license.\n * The software is provided as is, without warranty of any kind.\n */\n\
                 #include <gauge.h>\nint gauge_read(void) { return 0; }\n",
            ),
            ("src/dial.c", "int dial_turn(void) { return 1; }\n"),
        ],
    );
    let r = ask(
        &tree,
        &AskRequest::new("where is the warranty of the software decided"),
        &Profile::default(),
    )
    .unwrap();
    assert_eq!(r.outcome, Outcome::InsufficientEvidence, "{:?}", r.evidence);
    let r = ask(
        &tree,
        &AskRequest::new("which license is the software under"),
        &Profile::default(),
    )
    .unwrap();
    assert_eq!(r.outcome, Outcome::Success, "{:?}", r.reason);
    assert_eq!(r.selected.as_deref(), Some("src/gauge.c"));
}

#[test]
fn the_confidence_is_the_held_share_read_through_the_calibration_of_its_kind() {
    let mut profile = Profile::default();
    profile.planner.calibration = serde_json::from_str(
        r#"{"named": [[0.0, 0.2], [1.0, 0.9]], "ranked": [[0.0, 0.0], [1.0, 0.4]]}"#,
    )
    .unwrap();
    // a task ranked by its words reads the `ranked` map at its held share
    let task = ask(
        &tree(),
        &AskRequest::new("limit the parser nesting depth and make it configurable"),
        &profile,
    )
    .unwrap();
    assert_eq!(task.outcome, Outcome::Success);
    let expected = (0.4 * task.held_share * 1e3).round() / 1e3;
    assert!((task.confidence - expected).abs() <= 1e-3, "{task:?}");
    // a question naming a definition reads the `named` one: `find` matched it whole
    let named = ask(&tree(), &AskRequest::new("cJSON_New_Item"), &profile).unwrap();
    assert_eq!(named.selected.as_deref(), Some("src/hooks.c"));
    assert_eq!(named.held_share, 1.0);
    assert_eq!(named.confidence, 0.9);
    // with no map the confidence is the held share itself
    let mut plain = profile.clone();
    plain.planner.calibration = Default::default();
    let raw = ask(&tree(), &AskRequest::new("cJSON_New_Item"), &plain).unwrap();
    assert_eq!(raw.confidence, raw.held_share);
}

/// The scope a subject opens with (`cli: ...`) reaches the ranking although the planner's
/// words drop its colon: with `subject_scope`, the file under `cli/` that holds fewer of the
/// words than another is ranked first, and its reason says why.
#[test]
fn a_subjects_scope_as_written_weighs_the_files_it_names() {
    let tree = Tree::from_memory(
        "t",
        [
            (
                "crates/core/flags.rs",
                "// stdin detection heuristic: log it\n\
                 fn detect_stdin_heuristic() { log_stdin_detection(); }\n\
                 fn log_stdin_detection() {}\n",
            ),
            (
                "crates/cli/src/lib.rs",
                "// log when the stdin detection is unsure\nfn is_readable_stdin() -> bool { true }\n",
            ),
            ("crates/other/src/lib.rs", "fn unrelated() {}\n"),
        ],
    );
    let question = "cli: add more logging for stdin heuristic detection";
    let ranked = |weight: f64| {
        let mut profile = Profile::default();
        profile.task_ranking.subject_scope = weight;
        let r = ask(&tree, &AskRequest::new(question), &profile).unwrap();
        assert!(
            r.calls.iter().any(|c| c.tool.as_str() == "rank"),
            "{:?}",
            r.calls
        );
        r.matches
            .iter()
            .map(|m| (m.path.clone(), m.reason.clone()))
            .collect::<Vec<_>>()
    };
    let plain = ranked(0.0);
    assert_eq!(plain[0].0, "crates/core/flags.rs", "{plain:?}");
    assert!(
        plain.iter().all(|(_, why)| !why.contains("scope")),
        "{plain:?}"
    );
    let scoped = ranked(4.0);
    assert_eq!(scoped[0].0, "crates/cli/src/lib.rs", "{scoped:?}");
    assert!(
        scoped[0].1.contains("in the subject's scope `cli`"),
        "{}",
        scoped[0].1
    );
    // written without its scope, the same words rank as before
    let mut profile = Profile::default();
    profile.task_ranking.subject_scope = 4.0;
    let r = ask(
        &tree,
        &AskRequest::new("add more logging for stdin heuristic detection"),
        &profile,
    )
    .unwrap();
    assert_eq!(r.matches[0].path, "crates/core/flags.rs");
}
