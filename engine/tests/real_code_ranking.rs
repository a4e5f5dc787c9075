//! `find code` and `ask` on trees shaped like real ones: the file that defines a symbol
//! outranks the ones that declare it, mention it, test it or are named like it, in every
//! phrasing; and `ask`'s outcome says what it found.

use findbench_engine::modes::ask::{ask, AskRequest};
use findbench_engine::modes::code::{find_code, CodeRequest};
use findbench_engine::{Outcome, Profile, Tree};

/// `n` lines that use the names without declaring anything.
fn filler(n: usize) -> String {
    "    let _unused = 0;\n".repeat(n)
}

fn tree() -> Tree {
    let matcher = format!(
        "use crate::builder::Arg;\n\n{}pub(crate) struct ArgMatcher {{\n    matches: Vec<Arg>,\n}}\n\n\
         impl ArgMatcher {{\n    pub(crate) fn feed_eof(&mut self) {{}}\n}}\n",
        "// a long preamble\n".repeat(120)
    );
    let parser = format!(
        "use crate::parser::arg_matcher::ArgMatcher;\n\nfn parse() {{\n{}    let mut matcher = ArgMatcher::new();\n    matcher.feed_eof();\n}}\n",
        filler(90)
    );
    let files: Vec<(String, String)> = vec![
        ("src/parser/arg_matcher.rs".into(), matcher),
        ("src/parser/parser.rs".into(), parser),
        (
            "src/parser/mod.rs".into(),
            "mod arg_matcher;\npub(crate) use self::arg_matcher::ArgMatcher;\n".into(),
        ),
        (
            "tests/arg_matcher.rs".into(),
            "#[test]\nfn arg_matcher() {\n    let m = ArgMatcher::default();\n}\n".into(),
        ),
        (
            "examples/feed.rs".into(),
            "fn feed_eof() {\n    println!(\"example\");\n}\n".into(),
        ),
        (
            "lib/feedparser.py".into(),
            "class FeedParser:\n    def feed(self, data):\n        pass\n".into(),
        ),
        (
            "include/net.h".into(),
            "extern int resolve_host (const char *__name,\n\t\t\tint __flags) __THROW;\n".into(),
        ),
        (
            "src/net.c".into(),
            format!(
                "#include \"net.h\"\n{}int\nresolve_host (const char *name, int flags)\n{{\n  return 0;\n}}\n",
                "/* notes */\n".repeat(100)
            ),
        ),
        (
            "src/plot/float.rs".into(),
            "// pretty numbers for axes\npub fn format_float(x: f64) -> String {\n    x.to_string()\n}\n".into(),
        ),
    ];
    Tree::from_memory(
        "t",
        files
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect::<Vec<_>>(),
    )
}

fn code(t: &Tree, term: &str) -> Vec<(String, String)> {
    find_code(t, &CodeRequest::new(term), &Profile::default().code)
        .unwrap()
        .matches
        .into_iter()
        .map(|m| (m.path, m.reason))
        .collect()
}

#[test]
fn the_defining_file_outranks_users_tests_and_files_named_like_the_term() {
    let t = tree();
    let m = code(&t, "ArgMatcher");
    assert_eq!(m[0].0, "src/parser/arg_matcher.rs", "{m:?}");
    assert_eq!(m[0].1, "definition `struct ArgMatcher` at line 123");
    // the test file is named exactly like the term and still ranks below the definition
    let test = m
        .iter()
        .position(|x| x.0 == "tests/arg_matcher.rs")
        .unwrap();
    assert!(test > 0, "{m:?}");
    let penalty = Profile::default().code.test_penalty;
    assert!(
        m[test].1.ends_with(&format!("; -{penalty} test file")),
        "{m:?}"
    );
}

#[test]
fn methods_are_found_and_examples_rank_below_the_implementation() {
    let t = tree();
    let m = code(&t, "feed_eof");
    assert_eq!(m[0].0, "src/parser/arg_matcher.rs", "{m:?}");
    assert!(
        m[0].1.starts_with("definition `function feed_eof`"),
        "{m:?}"
    );
    let example = m.iter().find(|x| x.0 == "examples/feed.rs").unwrap();
    let penalty = Profile::default().code.test_penalty;
    assert!(
        example
            .1
            .ends_with(&format!("; -{penalty} example or bench file")),
        "{example:?}"
    );
}

#[test]
fn a_c_definition_outranks_its_prototype() {
    let t = tree();
    let m = code(&t, "resolve_host");
    let paths: Vec<&str> = m.iter().map(|x| x.0.as_str()).collect();
    assert_eq!(paths, ["src/net.c", "include/net.h"], "{m:?}");
    assert_eq!(m[0].1, "definition `function resolve_host` at line 103");
    assert_eq!(m[1].1, "declaration `function resolve_host` at line 1");
}

fn asked(t: &Tree, q: &str) -> findbench_engine::modes::ask::AskResponse {
    ask(t, &AskRequest::new(q), &Profile::default()).unwrap()
}

#[test]
fn every_phrasing_finds_the_definition_and_quotes_the_defining_line() {
    let t = tree();
    for q in [
        "where is ArgMatcher defined",
        "where is the arg matcher implemented",
        "which file defines the arg matcher",
        "show me the arg matcher",
        "arg matcher",
        "ArgMatcher",
    ] {
        let r = asked(&t, q);
        assert_eq!(r.outcome, Outcome::Success, "{q}: {r:?}");
        assert_eq!(
            r.selected.as_deref(),
            Some("src/parser/arg_matcher.rs"),
            "{q}: {:?}",
            r.matches
        );
        // the evidence is the definition, not the `use` line of another file
        let e = r.evidence.unwrap();
        assert_eq!(
            (e.lines[0].number, e.lines[0].text.as_str()),
            (123, "pub(crate) struct ArgMatcher {"),
            "{q}"
        );
    }
    for q in ["the feed eof", "feed eof", "where is feed_eof"] {
        let r = asked(&t, q);
        assert_eq!(
            r.selected.as_deref(),
            Some("src/parser/arg_matcher.rs"),
            "{q}: {:?}",
            r.matches
        );
    }
}

#[test]
fn nothing_that_defines_or_mentions_the_term_is_insufficient_evidence() {
    let t = tree();
    // `float.rs` mentions `pretty` but never `printer`: no answer, not a wrong one
    let r = asked(&t, "where is the pretty printer");
    assert_eq!(r.outcome, Outcome::InsufficientEvidence, "{r:?}");
    assert_eq!(r.selected, None);
    assert!(r.reason.is_some(), "{r:?}");
    let r = asked(&t, "where is the kubernetes autoscaler implemented");
    assert_eq!(r.outcome, Outcome::InsufficientEvidence);
    assert_eq!(
        r.reason.as_deref(),
        Some("no file defines, declares, mentions or is named `kubernetes[ _-]?autoscaler`")
    );
}

#[test]
fn a_question_without_a_term_is_no_match_with_a_reason() {
    let t = tree();
    for q in ["do open", "where is it?", "how does it work"] {
        let r = asked(&t, q);
        assert_eq!(r.outcome, Outcome::NoMatch, "{q}: {r:?}");
        assert!(r.plan.is_none() && r.tools.is_empty(), "{q}");
        assert!(r.reason.as_deref().unwrap().starts_with("no term"), "{q}");
    }
}

/// A tree whose names are also question words or test words: a test class, a type guard
/// named `is` + a type, functions named like intent words.
fn tree_of_question_words() -> Tree {
    Tree::from_memory(
        "q",
        vec![
            (
                "lib/base.rb",
                "class Base\n  def liquid(template)\n    render(:liquid, template)\n  end\n\n  def test?\n    true\n  end\nend\n",
            ),
            (
                "test/liquid_test.rb",
                "require_relative 'test_helper'\n\nclass LiquidTest < Minitest::Test\n  def test_renders\n    assert true\n  end\nend\n",
            ),
            (
                "source/errors/ForceRetryError.ts",
                "export class ForceRetryError extends Error {\n  name = 'ForceRetryError';\n}\n",
            ),
            (
                "source/utils/type-guards.ts",
                "import {ForceRetryError} from '../errors/ForceRetryError.js';\n\nexport function isForceRetryError(error: unknown): error is ForceRetryError {\n  return error instanceof ForceRetryError;\n}\n",
            ),
            (
                "src/walk.rs",
                "pub fn search(root: &str) -> Vec<String> {\n    Vec::new()\n}\n\npub fn handle(line: &str) {}\n",
            ),
        ],
    )
}

#[test]
fn a_test_class_named_by_the_question_is_its_answer() {
    // the whole term names `class LiquidTest` in a test file: not a reason to fall back on
    // the words one by one (where `liquid` and `test?` of base.rb would win)
    let t = tree_of_question_words();
    for q in [
        "liquid test",
        "where is the liquid test defined",
        "LiquidTest",
    ] {
        let r = asked(&t, q);
        assert_eq!(r.outcome, Outcome::Success, "{q}: {r:?}");
        assert_eq!(
            r.selected.as_deref(),
            Some("test/liquid_test.rb"),
            "{q}: {:?}",
            r.matches
        );
    }
}

#[test]
fn an_identifier_the_question_writes_is_not_widened_into_another_name() {
    // `is ForceRetryError` names `isForceRetryError`, but the question wrote the class
    let t = tree_of_question_words();
    for q in [
        "where is ForceRetryError implemented",
        "where is ForceRetryError defined",
    ] {
        let r = asked(&t, q);
        assert_eq!(
            r.selected.as_deref(),
            Some("source/errors/ForceRetryError.ts"),
            "{q}: {:?}",
            r.matches
        );
    }
    // written as words, the phrase with `is` is the name asked for
    let r = asked(&t, "is force retry error");
    assert_eq!(
        r.selected.as_deref(),
        Some("source/utils/type-guards.ts"),
        "{:?}",
        r.matches
    );
}

#[test]
fn a_question_of_only_intent_words_names_its_object_with_one_of_them() {
    let t = tree_of_question_words();
    for (q, line) in [
        ("search", "pub fn search(root: &str) -> Vec<String> {"),
        (
            "where is search defined",
            "pub fn search(root: &str) -> Vec<String> {",
        ),
        ("find handle", "pub fn handle(line: &str) {}"),
    ] {
        let r = asked(&t, q);
        assert_eq!(r.outcome, Outcome::Success, "{q}: {r:?}");
        assert_eq!(r.selected.as_deref(), Some("src/walk.rs"), "{q}");
        assert_eq!(r.evidence.unwrap().lines[0].text, line, "{q}");
    }
    // the first word of a longer question is how it asks, never its object
    for q in ["find", "where is it defined", "search it"] {
        let r = asked(&t, q);
        assert_eq!(r.outcome, Outcome::NoMatch, "{q}: {r:?}");
    }
}

#[test]
fn a_word_with_digits_is_completed_by_the_words_around_it() {
    // `rfc2822` names a method, but `to rfc2822` names the one asked for
    let t = Tree::from_memory(
        "r",
        vec![
            ("lib/rack/utils.rb", "module Utils\n  def rfc2822(time)\n    time.httpdate\n  end\nend\n"),
            (
                "lib/rack/conditional_get.rb",
                "class ConditionalGet\n  def to_rfc2822(since)\n    Time.rfc2822(since)\n  end\nend\n",
            ),
        ],
    );
    for q in ["to rfc2822", "show me the to rfc2822"] {
        let r = asked(&t, q);
        assert_eq!(
            r.selected.as_deref(),
            Some("lib/rack/conditional_get.rb"),
            "{q}: {:?}",
            r.matches
        );
    }
}

/// A test that defines what is asked for, and implementation files that only hold the
/// term in their path or are named after it in a test directory.
fn tree_of_tests_and_paths() -> Tree {
    Tree::from_memory(
        "p",
        vec![
            (
                "Src/Tests/JsonSchemaTests.cs",
                "public class JsonSchemaTests\n{\n    public void LoadJsonSchema()\n    {\n    }\n}\n",
            ),
            (
                "Src/Samples/LoadJsonSchemaFromFile.cs",
                "public class LoadJsonSchemaFromFile\n{\n    public void Example()\n    {\n    }\n}\n",
            ),
            ("lib/application.js", "class Application {\n  route (path) {\n    return path\n  }\n}\n"),
            ("test/Route.js", "describe('Route', function () {\n  it('works', function () {})\n})\n"),
        ],
    )
}

#[test]
fn impl_never_lifts_a_path_match_above_a_test_that_defines_the_term() {
    // `defined` asks for the implementation: the boost orders files whose path only holds
    // the term, but a test method named exactly the term still comes first
    let t = tree_of_tests_and_paths();
    let r = asked(&t, "where is LoadJsonSchema defined");
    assert_eq!(
        r.selected.as_deref(),
        Some("Src/Tests/JsonSchemaTests.cs"),
        "{:?}",
        r.matches
    );
    let m = find_code(
        &t,
        &CodeRequest {
            impl_query: true,
            ..CodeRequest::new("LoadJsonSchema")
        },
        &Profile::default().code,
    )
    .unwrap()
    .matches;
    assert_eq!(m[1].path, "Src/Samples/LoadJsonSchemaFromFile.cs");
    assert!(
        m[1].reason.ends_with("; +6 implementation file"),
        "{}",
        m[1].reason
    );
}

/// A profile without the test penalty still keeps `--impl` off test files when it says so
/// (`impl_boost_secondary: false`): the file's kind is asked for the boost alone.
#[test]
fn without_a_test_penalty_impl_still_gives_tests_no_boost() {
    let t = tree_of_tests_and_paths();
    let mut profile = Profile::default().code;
    profile.test_penalty = 0.0;
    assert!(!profile.impl_boost_secondary);
    let m = find_code(
        &t,
        &CodeRequest {
            impl_query: true,
            ..CodeRequest::new("route")
        },
        &profile,
    )
    .unwrap()
    .matches;
    let test = m.iter().find(|m| m.path == "test/Route.js").unwrap();
    assert_eq!(test.reason, "exact stem `route`; test file", "{m:?}");
    let lib = m.iter().find(|m| m.path == "lib/application.js").unwrap();
    assert!(lib.reason.contains("implementation file"), "{}", lib.reason);
}

#[test]
fn a_test_file_is_not_the_module_its_stem_names() {
    // `test/Route.js` tests `route`; `lib/application.js` defines it
    let t = tree_of_tests_and_paths();
    let m = code(&t, "route");
    assert_eq!(m[0].0, "lib/application.js", "{m:?}");
    assert_eq!(
        m[1],
        (
            "test/Route.js".to_string(),
            "exact stem `route`; -0.5 test file".to_string()
        )
    );
}
