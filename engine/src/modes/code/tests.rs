//! Tests of `find code`: the cascade's steps, weights as data, tests below implementations.

use super::*;
use crate::profile::Profile;

fn tree() -> Tree {
    Tree::from_memory(
        "t",
        [
            (
                "include/app/command_router.h",
                "#pragma once\nclass CommandRouter {\n public:\n  void route(int c);\n};\n",
            ),
            (
                "src/app/command_router.cpp",
                "#include \"app/command_router.h\"\nvoid CommandRouter::route(int c) {\n}\n",
            ),
            (
                "src/services/replay_service.cpp",
                "#include \"x.h\"\nvoid ReplayService::replay(const Trace& t) {\n}\n",
            ),
            (
                "src/services/replay_service.h",
                "class ReplayService {\n  void replay(const Trace& t);\n};\n",
            ),
            (
                "src/cursor/cursor_binary.cpp",
                "int main(int argc, char** argv) {\n}\n",
            ),
            ("src/cursor/cursorbinary_notes.md", "notes\n"),
            (
                "src/engine/tool_runner.cpp",
                "struct EvidenceGate {\n};\nbool gate_evidence(int x) {\n}\n",
            ),
            ("src/gating/policy.cpp", "int p;\n"),
            ("docs/replay.md", "# replay\n"),
            (
                "tests/replay_service_test.cpp",
                "void test_replay_counts(int n) {\n}\n",
            ),
            ("web/replay_view.spec.ts", "describe('replay', () => {});\n"),
            ("web/replay_view.ts", "export const replayAll = 1;\n"),
        ],
    )
}

fn run(term: &str, impl_query: bool, profile: &Profile) -> Vec<CodeMatch> {
    let mut r = CodeRequest::new(term);
    r.impl_query = impl_query;
    r.limit = 50;
    find_code(&tree(), &r, &profile.code).unwrap().matches
}

fn find<'a>(m: &'a [CodeMatch], path: &str) -> &'a CodeMatch {
    m.iter()
        .find(|c| c.path == path)
        .unwrap_or_else(|| panic!("{path} not in {m:?}"))
}

#[test]
fn a_definition_outranks_members_which_outrank_the_file_named_like_the_term() {
    let m = run("CommandRouter", false, &Profile::default());
    let h = find(&m, "include/app/command_router.h");
    assert_eq!((h.score, h.step), (32.0, CodeStep::Symbol));
    assert_eq!(h.reason, "definition `class CommandRouter` at line 2");
    let cpp = find(&m, "src/app/command_router.cpp");
    assert_eq!(cpp.score, 30.0);
    assert_eq!(
        cpp.reason,
        "member definition `method CommandRouter::route` at line 2"
    );
    assert_eq!(m[0].path, "include/app/command_router.h");
    // asked for the implementation, the file that defines the members comes first
    let m = run("CommandRouter", true, &Profile::default());
    assert_eq!(m[0].path, "src/app/command_router.cpp");
}

#[test]
fn exact_stem_scores_20_after_camel_case_normalisation() {
    let m = run("CursorBinary", false, &Profile::default());
    let c = find(&m, "src/cursor/cursor_binary.cpp");
    assert_eq!((c.score, c.step), (20.0, CodeStep::ExactStem));
    assert_eq!(c.reason, "exact stem after CamelCase normalisation");
    let m = run("cursor_binary", false, &Profile::default());
    assert_eq!(
        find(&m, "src/cursor/cursor_binary.cpp").reason,
        "exact stem `cursor_binary`"
    );
}

#[test]
fn symbol_steps_weigh_by_kind_and_definition() {
    let p = Profile::default();
    let m = run("EvidenceGate", false, &p);
    let c = find(&m, "src/engine/tool_runner.cpp");
    assert_eq!(c.score, 32.0);
    assert_eq!(c.reason, "definition `struct EvidenceGate` at line 1");
    let m = run("gate_evidence", false, &p);
    assert_eq!(find(&m, "src/engine/tool_runner.cpp").score, 31.0);
    let m = run("evidence", false, &p);
    let c = find(&m, "src/engine/tool_runner.cpp");
    assert_eq!(c.score, 15.0);
    assert!(c.reason.contains("contains the term"), "{}", c.reason);
    // the prototype in the class body declares: below the definition
    let m = run("replay", false, &p);
    let h = find(&m, "src/services/replay_service.h");
    assert_eq!(h.score, 31.0 - 4.0);
    assert_eq!(h.reason, "declaration `method replay` at line 2");
    assert_eq!(m[0].path, "src/services/replay_service.cpp");
}

#[test]
fn separator_pattern_reaches_exact_stem_and_partial() {
    let m = run("cursor[ _-]?binary", false, &Profile::default());
    assert_eq!(m[0].path, "src/cursor/cursor_binary.cpp");
    assert_eq!(m[0].score, 20.0);
    let m = run("cursor[ _-]?bin", false, &Profile::default());
    let c = find(&m, "src/cursor/cursor_binary.cpp");
    assert_eq!((c.score, c.step), (18.0, CodeStep::PartialStem));
    let m = run("binary", false, &Profile::default());
    let c = find(&m, "src/cursor/cursor_binary.cpp");
    assert_eq!((c.score, c.step), (18.0, CodeStep::PartialStem));
    assert_eq!(c.reason, "stem `cursor_binary` contains `binary`");
}

#[test]
fn all_words_step_scores_17() {
    // `binary` and `cursor` both occur in the stem, not as the term
    let m = run("binary[ _-]?cursor", false, &Profile::default());
    let c = find(&m, "src/cursor/cursor_binary.cpp");
    assert_eq!((c.score, c.step), (17.0, CodeStep::AllWords));
    assert_eq!(c.reason, "all words `binary`, `cursor` in stem");
}

#[test]
fn directory_step_scores_16() {
    let m = run("gating", false, &Profile::default());
    let c = find(&m, "src/gating/policy.cpp");
    assert_eq!((c.score, c.step), (16.0, CodeStep::Directory));
}

#[test]
fn impl_boost_adds_13_to_implementation_files_only() {
    let m = run("replay", true, &Profile::default());
    assert_eq!(m[0].path, "src/services/replay_service.cpp");
    assert_eq!(m[0].score, 31.0 + 13.0);
    assert!(
        m[0].reason.ends_with("; +13 implementation file"),
        "{}",
        m[0].reason
    );
    assert_eq!(find(&m, "src/services/replay_service.h").score, 27.0);
    assert_eq!(find(&m, "docs/replay.md").score, 20.0);
}

#[test]
fn weights_are_data() {
    let mut p = Profile::default();
    p.code.impl_boost = 0.0;
    p.code.partial_stem = 11.0;
    let m = run("binary", true, &p);
    assert_eq!(find(&m, "src/cursor/cursor_binary.cpp").score, 11.0);
}

#[test]
fn legacy_matches_the_separator_pattern_literally() {
    let legacy = Profile::builtin("legacy").unwrap();
    assert!(run("cursor[ _-]?binary", true, &legacy).is_empty());
    assert!(run("CommandRouter", true, &legacy).is_empty());
    let m = run("replay", true, &legacy);
    let c = find(&m, "src/services/replay_service.cpp");
    assert_eq!(c.score, 18.0, "partial stem + impl, no symbol step");
    assert_eq!(
        find(&m, "src/services/replay_service.h").step,
        CodeStep::PartialStem
    );
}

#[test]
fn tests_rank_below_implementations_for_impl_queries() {
    for profile in [Profile::default(), Profile::builtin("legacy").unwrap()] {
        let m = run("replay", true, &profile);
        let (src, test) = (
            find(&m, "src/services/replay_service.cpp"),
            find(&m, "tests/replay_service_test.cpp"),
        );
        assert!(src.score > test.score, "{}: {m:?}", profile.name);
        let penalty = format!("; -{} test file", profile.code.test_penalty);
        assert!(test.reason.ends_with(&penalty), "{}", test.reason);
        assert!(!src.reason.contains("test file"), "{}", src.reason);
    }
    // a test file by name, outside a test directory
    let m = run("replay", true, &Profile::default());
    assert!(find(&m, "web/replay_view.spec.ts").score < find(&m, "web/replay_view.ts").score);
    // without --impl too: a test is not where a thing is defined
    let m = run("replay_service", false, &Profile::default());
    let test = find(&m, "tests/replay_service_test.cpp");
    assert_eq!((test.score, test.step), (18.0 - 0.5, CodeStep::PartialStem));
    assert!(test.reason.ends_with("; -0.5 test file"), "{}", test.reason);
}

#[test]
fn test_patterns_and_penalty_are_data() {
    let mut p = Profile::default();
    p.code.test_penalty = 2.5;
    let m = run("replay", true, &p);
    let test = find(&m, "tests/replay_service_test.cpp");
    assert!(test.reason.ends_with("; -2.5 test file"), "{}", test.reason);
    p.code.test_dirs.clear();
    p.code.test_names = vec!["*.spec.*".into()];
    let m = run("replay", true, &p);
    assert!(!find(&m, "tests/replay_service_test.cpp")
        .reason
        .contains("test file"));
    assert!(find(&m, "web/replay_view.spec.ts")
        .reason
        .contains("test file"));
}

#[test]
fn top_n_equals_the_head_of_the_full_ranking() {
    let t = tree();
    let mut r = CodeRequest::new("replay");
    r.impl_query = true;
    let all = rank(&t, &r, &Profile::default().code);
    for n in [1, 2, 3, all.len(), all.len() + 5] {
        let (total, top) = rank_top(&t, &r, &Profile::default().code, n);
        assert_eq!(total, all.len());
        assert_eq!(top[..], all[..n.min(all.len())]);
    }
    // the symbol step names its line for the read step
    assert_eq!(all[0].path, "src/services/replay_service.cpp");
    assert_eq!(all[0].line, Some(2));
}

#[test]
fn the_name_bag_skips_files_but_no_match() {
    let t = Tree::from_memory(
        "t",
        [
            ("src/straße.cpp", "int x;\n"),
            ("src/größe/util.cpp", "int y;\n"),
            ("src/other.cpp", "struct Größenordnung {};\n"),
        ],
    );
    let mut r = CodeRequest::new("STRASSE");
    r.limit = 10;
    let w = &Profile::default().code;
    let m = find_code(&t, &r, w).unwrap().matches;
    assert_eq!(m.len(), 1);
    assert_eq!(
        (m[0].path.as_str(), m[0].step),
        ("src/straße.cpp", CodeStep::ExactStem)
    );
    r.term = "größe".into();
    let m = find_code(&t, &r, w).unwrap().matches;
    let p: Vec<&str> = m.iter().map(|x| x.path.as_str()).collect();
    // the path holds the term: above the file that only holds a symbol containing it
    assert_eq!(p, ["src/größe/util.cpp", "src/other.cpp"], "{m:?}");
    let none = Tree::from_memory("t", [("src/abc.cpp", "int abc;\n")]);
    r.term = "abd".into();
    assert!(find_code(&none, &r, w).unwrap().matches.is_empty());
}

#[test]
fn empty_term_is_invalid() {
    let err = find_code(&tree(), &CodeRequest::new("  "), &CodeWeights::default()).unwrap_err();
    assert_eq!(err.exit_code(), 2);
}

/// (path, step) of every match of `term` over `files`, best first.
fn ranked(files: &[(&str, &str)], term: &str) -> Vec<(String, CodeStep, f64)> {
    let t = Tree::from_memory("t", files.iter().copied());
    let mut r = CodeRequest::new(term);
    r.limit = 50;
    find_code(&t, &r, &Profile::default().code)
        .unwrap()
        .matches
        .into_iter()
        .map(|m| (m.path, m.step, m.score))
        .collect()
}

fn paths(m: &[(String, CodeStep, f64)]) -> Vec<&str> {
    m.iter().map(|x| x.0.as_str()).collect()
}

#[test]
fn a_file_named_after_the_term_outranks_files_that_open_its_namespace_or_mention_it() {
    let m = ranked(
        &[
            (
                "include/llvm/Support/Compression.h",
                "namespace llvm {\nnamespace zlib {\nbool isAvailable();\n}\n}\n",
            ),
            (
                "include/zlib.h",
                "#define ZLIB_VERSION \"1.2\"\nint deflate(int);\n",
            ),
            ("src/codec.cpp", "int zlib_compress_level(int x) {\n}\n"),
            ("src/zlib/inflate.c", "int inflate(int x) {\n}\n"),
            ("src/zlib_wrapper.cpp", "int wrap(int x) {\n}\n"),
            ("src/gz.cpp", "int zlib(int x) {\n}\n"),
        ],
        "zlib",
    );
    assert_eq!(
        paths(&m),
        [
            // defines the exact name
            "src/gz.cpp",
            // is named after it
            "include/zlib.h",
            // opens a namespace named after it
            "include/llvm/Support/Compression.h",
            // its path holds it: the stem, then a directory
            "src/zlib_wrapper.cpp",
            "src/zlib/inflate.c",
            // only mentions it
            "src/codec.cpp",
        ],
        "{m:?}"
    );
}

#[test]
fn an_exact_definition_in_a_test_or_sample_outranks_files_that_only_mention_the_words() {
    let m = ranked(
        &[
            ("src/tokenizer_util.rs", "pub fn tokenizer_state() {}\n"),
            ("src/tokenizer/mod.rs", "pub fn run() {}\n"),
            ("src/lex.rs", "pub struct TokenizerConfig;\n"),
            (
                "tests/samples/parser.rb",
                "class Tokenizer\n  def next_token\n  end\nend\n",
            ),
        ],
        "Tokenizer",
    );
    assert_eq!(m[0].0, "tests/samples/parser.rb", "{m:?}");
    assert_eq!(m[0].1, CodeStep::Symbol);
    assert!(m.iter().skip(1).all(|x| x.2 < m[0].2), "{m:?}");
}

#[test]
fn the_non_test_prior_breaks_ties_between_equal_evidence_only() {
    let m = ranked(
        &[
            ("a/tests/cases.rs", "fn tokenize_all() {}\n"),
            ("src/lexer_impl.rs", "fn tokenize_all() {}\n"),
        ],
        "tokenize_all",
    );
    assert_eq!(
        paths(&m),
        ["src/lexer_impl.rs", "a/tests/cases.rs"],
        "the shorter path would win a plain tie: {m:?}"
    );
    assert_eq!(m[0].2 - m[1].2, Profile::default().code.test_penalty);
}

#[test]
fn a_function_assigned_to_a_property_outranks_the_tests_that_call_it() {
    let m = ranked(
        &[
            (
                "lib/request.js",
                "var req = Object.create(http.IncomingMessage.prototype);\n\
                 req.accepts = function(){\n  var accept = accepts(this);\n};\n",
            ),
            (
                "test/req.accepts.js",
                "describe('req', function(){\n  it('accepts', function(){\n    req.accepts('x');\n  });\n});\n",
            ),
        ],
        "accepts",
    );
    assert_eq!(paths(&m)[0], "lib/request.js", "{m:?}");
}

#[test]
fn a_definition_of_the_inflected_name_outranks_files_whose_path_holds_the_term() {
    let m = ranked(
        &[
            ("test/fixtures/load/ambiguous.bash", "echo ambiguous\n"),
            (
                "test/test_helper.bash",
                "fixtures() {\n  FIXTURE_ROOT=$1\n}\n",
            ),
            ("lib/parser.py", "class Parser:\n    pass\n"),
        ],
        "fixture",
    );
    assert_eq!(
        paths(&m),
        ["test/test_helper.bash", "test/fixtures/load/ambiguous.bash"],
        "{m:?}"
    );
    assert_eq!(m[0].1, CodeStep::Symbol);
    // an agent noun is another name, not an inflection
    let m = ranked(&[("lib/parser.py", "class Parser:\n    pass\n")], "parse");
    assert_eq!(m[0].2, Profile::default().code.partial_stem, "{m:?}");
}

#[test]
fn a_term_written_as_a_path_names_the_file_it_ends() {
    let files = [
        ("lib/helpers/isAbsoluteURL.js", "module.exports = 1;\n"),
        ("lib/core/isAbsoluteURL.js", "module.exports = 2;\n"),
        ("lib/myhelpers/isAbsoluteURL.js", "module.exports = 3;\n"),
        ("src/walk.rs", "pub fn step() {}\n"),
    ];
    let found = |term: &str| -> Vec<String> {
        ranked(&files, term)
            .into_iter()
            .filter(|m| m.1 == CodeStep::ExactStem)
            .map(|m| m.0)
            .collect()
    };
    // at a directory boundary only: `myhelpers/` does not end with `helpers/`
    assert_eq!(
        found("helpers/isAbsoluteURL"),
        ["lib/helpers/isAbsoluteURL.js"]
    );
    assert_eq!(
        found("./lib/core/isAbsoluteURL.js"),
        ["lib/core/isAbsoluteURL.js"]
    );
    assert_eq!(found("src/walk.rs"), ["src/walk.rs"]);
    // a file name with its extension is a path of one component
    assert_eq!(found("walk.rs"), ["src/walk.rs"]);
    assert!(found("alk.rs").is_empty());
    assert!(found("src/walk.py").is_empty());
    assert!(found("elpers/isAbsoluteURL").is_empty());
    let tree = Tree::from_memory("t", files);
    let request = CodeRequest::new("helpers/isAbsoluteURL");
    let m = &find_code(&tree, &request, &Profile::default().code)
        .unwrap()
        .matches[0];
    assert_eq!(m.reason, "path ends with `helpers/isabsoluteurl`");
}

/// Two readers of one abstract class and a function named with the class's words: a
/// qualified term (`JsonReader.peek`) names the member its owner declares.
fn readers() -> Tree {
    Tree::from_memory(
        "readers",
        [
            (
                "src/JsonReader.java",
                "public abstract class JsonReader {\n  public abstract Token peek() throws IOException;\n}\n",
            ),
            (
                "src/JsonUtf8Reader.java",
                "final class JsonUtf8Reader extends JsonReader {\n  @Override public Token peek() { return null; }\n}\n",
            ),
            ("tools/readers.rs", "fn json_reader() {}\nfn peek() {}\n"),
        ],
    )
}

fn found_in(tree: &Tree, term: &str, w: &CodeWeights) -> Vec<(String, f64, String)> {
    find_code(tree, &CodeRequest::new(term), w)
        .unwrap()
        .matches
        .into_iter()
        .map(|m| (m.path, m.score, m.reason))
        .collect()
}

#[test]
fn a_qualified_member_is_found_in_the_file_that_defines_its_owner() {
    let tree = readers();
    let w = Profile::default().code;
    for term in [
        "JsonReader.peek",
        "JsonReader#peek",
        "JsonReader::peek",
        "app.JsonReader.peek",
    ] {
        let found = found_in(&tree, term, &w);
        // the owner's declaration (31 - 4) with the bonus, above the two definitions of a
        // `peek` elsewhere; a function named `json_reader` is no owner
        let paths: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(
            paths[..3],
            [
                "src/JsonReader.java",
                "tools/readers.rs",
                "src/JsonUtf8Reader.java"
            ],
            "{term}: {found:?}"
        );
        assert_eq!(found[0].1, 33.0, "{term}");
        assert_eq!(
            found[0].2,
            "declaration `method peek` at line 2; +6 the file defines the owner `JsonReader` too"
        );
        assert_eq!((found[1].1, found[2].1), (31.0, 31.0), "{term}: {found:?}");
    }
    // the bonus is the profile's: without it the file scores its best name alone, the
    // owner's class
    let mut none = w.clone();
    none.symbol_qualified = 0.0;
    let found = found_in(&tree, "JsonReader.peek", &none);
    assert_eq!(found[0].0, "src/JsonReader.java", "{found:?}");
    assert_eq!(found[0].1, 32.0);
    assert_eq!(
        found[0].2,
        "definition `class JsonReader` at line 1; the owner of `peek`"
    );
    // a C++ member defined out of its class (`CommandRouter::route`) is its owner's
    let found = found_in(&self::tree(), "CommandRouter::route", &w);
    assert_eq!(found[0].0, "src/app/command_router.cpp", "{found:?}");
    assert_eq!(found[0].1, 37.0);
    assert_eq!(found[1].0, "include/app/command_router.h", "{found:?}");
}

#[test]
fn a_qualified_member_the_tree_does_not_hold_finds_its_owner() {
    let tree = readers();
    let w = Profile::default().code;
    let found = found_in(&tree, "JsonReader.readJsonValue", &w);
    assert_eq!(found[0].0, "src/JsonReader.java", "{found:?}");
    assert_eq!(
        found[0].2,
        "definition `class JsonReader` at line 1; the owner of `readJsonValue`"
    );
    // a file name with its extension is that file's, not a member `java` of `JsonReader`
    let found = found_in(&tree, "JsonReader.java", &w);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].2, "path ends with `jsonreader.java`");
    // a lower-case owner with a member not shaped as a name is no qualified term
    assert!(found_in(&tree, "jsonreader.peekit", &w).is_empty());
    // nor under a profile without the symbol step (legacy)
    assert_eq!(
        qualified::split("JsonReader.peek", &CodeWeights::legacy()),
        None
    );
    assert_eq!(
        qualified::split("a::b::Owner::member", &w),
        Some(("Owner", "member"))
    );
    assert_eq!(
        qualified::split("logger.ReplaceHooks", &w),
        Some(("logger", "ReplaceHooks"))
    );
    assert_eq!(qualified::split("walk.rs", &w), None);
    assert_eq!(qualified::split("Owner.1x", &w), None);
    assert_eq!(qualified::split("guide.md#usage", &w), None);
    assert_eq!(qualified::split("Use[ _-]?Rack::File#serving", &w), None);
    assert_eq!(
        qualified::split("Rack::File#serving", &w),
        Some(("File", "serving"))
    );
    // a file whose path or symbols only hold the owner's name is no evidence: the owner
    // `Reader` defined nowhere, the files that define `peek` alone are found
    let found = found_in(&tree, "Zed::Reader#peek", &w);
    let paths: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(
        paths,
        [
            "tools/readers.rs",
            "src/JsonUtf8Reader.java",
            "src/JsonReader.java"
        ],
        "{found:?}"
    );
}

#[test]
fn a_term_is_a_path_when_it_holds_a_slash_or_is_a_file_name_with_its_extension() {
    for (term, tail) in [
        ("walk.rs", Some("walk.rs")),
        ("./src/Walk.rs", Some("src/walk.rs")),
        ("src/walk", Some("src/walk")),
        ("Makefile.am", Some("makefile.am")),
        ("a.abcdefghij", Some("a.abcdefghij")),
        // no stem, an extension too long, not starting with a letter or not alphanumeric
        (".rs", None),
        ("a.abcdefghijk", None),
        ("v1.2", None),
        ("a.b-c", None),
        ("walk", None),
        // more than one word, or a directory
        ("the walk.rs", None),
        ("walk[ _-]?file.rs", None),
        ("src/", None),
        ("src/walk/", None),
    ] {
        assert_eq!(cascade::path_tail(term).as_deref(), tail, "{term}");
    }
}

#[test]
fn the_keys_of_a_qualified_term_are_its_own_its_members_and_its_owners() {
    let w = Profile::default().code;
    assert_eq!(
        lookup_keys("JsonReader.peek", &w),
        ["json_reader_peek", "peek", "json_reader"]
    );
    assert_eq!(lookup_keys("peek", &w), ["peek"]);
    assert_eq!(lookup_keys("walk.rs", &w).len(), 1);
}

#[test]
fn an_owner_is_a_type_a_module_or_a_symbol_written_as_it_is() {
    let w = Profile::default().code;
    let tree = Tree::from_memory(
        "owners",
        [
            // the owner a later symbol of its file, not the first
            (
                "src/Owner.java",
                "interface Helper {}\nclass Owner {\n  void run() {}\n}\n",
            ),
            // named for the owner without defining it: no module in Java
            ("src/Named.java", "class Other {\n  void run() {}\n}\n"),
            ("src/Third.java", "class Third {\n  void run() {}\n}\n"),
            // a Python module is the owner its stem names
            ("pkg/utils.py", "def parse_date():\n    pass\n"),
            ("pkg/dates.py", "def parse_date():\n    pass\n"),
            // a package's `__init__.py` is the module its directory names
            ("lib/timing/__init__.py", "def tick_now():\n    pass\n"),
            ("lib/clock.py", "def tick_now():\n    pass\n"),
            // a function written as the owner (a JavaScript constructor)
            (
                "web/Widget.js",
                "function Widget() {}\nfunction render() {}\n",
            ),
            ("web/other.js", "function render() {}\n"),
            // a file whose symbol only holds the member's name is no member
            ("src/Runner.java", "class Runner {\n  void runAll() {}\n}\n"),
        ],
    );
    let first = |term: &str| {
        let found = found_in(&tree, term, &w);
        let top = found[0].clone();
        (top, found)
    };
    let ((path, score, reason), found) = first("Owner.run");
    assert_eq!(
        (path.as_str(), score),
        ("src/Owner.java", 37.0),
        "{found:?}"
    );
    assert!(
        reason.contains("+6 the file defines the owner `Owner` too"),
        "{reason}"
    );
    assert!(found.iter().all(|f| f.0 != "src/Runner.java"), "{found:?}");
    let ((path, score, _), found) = first("Named.run");
    assert_eq!(score, 31.0, "{found:?}");
    assert!(
        found.iter().all(|f| !f.2.contains("+6")),
        "{path} {found:?}"
    );
    let ((path, score, _), found) = first("utils.parse_date");
    assert_eq!((path.as_str(), score), ("pkg/utils.py", 37.0), "{found:?}");
    let ((path, score, _), found) = first("timing.tick_now");
    assert_eq!(
        (path.as_str(), score),
        ("lib/timing/__init__.py", 37.0),
        "{found:?}"
    );
    let ((path, score, _), found) = first("Widget.render");
    assert_eq!((path.as_str(), score), ("web/Widget.js", 37.0), "{found:?}");
    // the rule on one symbol: a type, module or namespace owns; a function only when
    // written as the owner is
    use crate::tree::symbols::SymbolKind as K;
    assert!(qualified::owner_symbol(K::Struct, "Logger", "logger"));
    assert!(qualified::owner_symbol(K::Module, "walk", "walk"));
    assert!(qualified::owner_symbol(K::Namespace, "app", "app"));
    assert!(qualified::owner_symbol(K::Function, "Widget", "Widget"));
    assert!(qualified::owner_symbol(K::Function, "ns::Widget", "Widget"));
    assert!(!qualified::owner_symbol(
        K::Function,
        "walk_builder",
        "WalkBuilder"
    ));
    assert!(!qualified::owner_symbol(K::Function, "widget", "Widget"));
}

#[test]
fn a_qualified_term_links_only_names() {
    let w = Profile::default().code;
    assert_eq!(
        qualified::split("Own_er::member", &w),
        Some(("Own_er", "member"))
    );
    assert_eq!(
        qualified::split("$scope::member", &w),
        Some(("$scope", "member"))
    );
    assert_eq!(qualified::split("Own-er::member", &w), None);
    assert_eq!(qualified::split("Owner::mem-ber", &w), None);
    assert_eq!(qualified::split("Owner::", &w), None);
}
