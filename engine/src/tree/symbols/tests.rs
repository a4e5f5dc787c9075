//! Tests of the symbol scan, language by language.

use super::*;

fn kinds(language: Language, src: &str) -> Vec<(SymbolKind, String, u32)> {
    scan_file(language, src)
        .into_iter()
        .map(|s| (s.kind, s.name, s.line))
        .collect()
}

fn names(language: Language, src: &str) -> Vec<String> {
    kinds(language, src).into_iter().map(|k| k.1).collect()
}

#[test]
fn cpp_declarations() {
    let src = "#pragma once\n#define MAX_TOOLS 8\nnamespace agent {\nclass Fwd;\n\
               class ReplayService : public Service {\n public:\n  explicit ReplayService(int n);\n\
               \x20 void replay(const Trace& t);\n  int count() const;\n};\n\
               struct FindCandidate {\n  int score;\n};\nenum class Outcome { Success };\n\
               using TraceList = std::vector<Trace>;\n\
               std::vector<FindCandidate> directory_aware_find(const std::string& term, bool impl);\n\
               void ReplayService::replay(const Trace& t) {\n  if (t.ok()) {\n    run(t);\n  }\n\
               \x20 return helper(t);\n}\n}\n";
    let got = kinds(Language::Cpp, src);
    let expected = [
        (SymbolKind::Macro, "MAX_TOOLS"),
        (SymbolKind::Namespace, "agent"),
        (SymbolKind::Class, "Fwd"),
        (SymbolKind::Class, "ReplayService"),
        (SymbolKind::Method, "ReplayService"),
        (SymbolKind::Method, "replay"),
        (SymbolKind::Method, "count"),
        (SymbolKind::Struct, "FindCandidate"),
        (SymbolKind::Enum, "Outcome"),
        (SymbolKind::Type, "TraceList"),
        (SymbolKind::Function, "directory_aware_find"),
        (SymbolKind::Method, "ReplayService::replay"),
    ];
    let got_pairs: Vec<(SymbolKind, &str)> = got.iter().map(|(k, n, _)| (*k, n.as_str())).collect();
    assert_eq!(got_pairs, expected);
    assert_eq!(got[3].2, 5, "line numbers are 1-based");
    let defined: Vec<bool> = scan_file(Language::Cpp, src)
        .iter()
        .map(|s| s.definition)
        .collect();
    // the forward declaration and the members declared in the class body declare only
    assert_eq!(
        defined,
        [true, true, false, true, false, false, false, true, true, true, false, true]
    );
}

#[test]
fn c_statements_are_not_declarations() {
    let src = "int main(void) {\n  foo(1);\n  x = bar(2);\n  return baz(3);\n  if (a) {}\n  \
               service.replay(t);\n  self->run(t);\n  \
               printf(\"%d\", f(x));\n  struct stat st;\n}\n";
    assert_eq!(names(Language::C, src), ["main"]);
}

#[test]
fn rust_declarations() {
    let src = "pub struct Engine {\n}\npub(crate) enum Mode { A }\ntrait Scorer {}\n\
               pub async fn run_replay() {}\nconst fn limit() -> usize { 1 }\n\
               pub const MAX: usize = 3;\nstatic mut COUNT: u32 = 0;\nmod tree;\n\
               type Result<T> = std::result::Result<T, E>;\nmacro_rules! bail {}\nimpl Engine {\n    \
               pub fn execute(&self) {}\n}\nlet x = 1;\n";
    let got = kinds(Language::Rust, src);
    let pairs: Vec<(SymbolKind, &str)> = got.iter().map(|(k, n, _)| (*k, n.as_str())).collect();
    assert_eq!(
        pairs,
        [
            (SymbolKind::Struct, "Engine"),
            (SymbolKind::Enum, "Mode"),
            (SymbolKind::Trait, "Scorer"),
            (SymbolKind::Function, "run_replay"),
            (SymbolKind::Function, "limit"),
            (SymbolKind::Const, "MAX"),
            (SymbolKind::Const, "COUNT"),
            (SymbolKind::Module, "tree"),
            (SymbolKind::Type, "Result"),
            (SymbolKind::Macro, "bail"),
            (SymbolKind::Function, "execute"),
        ]
    );
}

#[test]
fn python_declarations() {
    let src = "import os\nclass AuthMiddleware(Base):\n    def __call__(self, req):\n        \
               return handle(req)\n\nasync def replay_traces(path):\n    pass\n";
    let got = kinds(Language::Python, src);
    let pairs: Vec<(SymbolKind, &str)> = got.iter().map(|(k, n, _)| (*k, n.as_str())).collect();
    assert_eq!(
        pairs,
        [
            (SymbolKind::Class, "AuthMiddleware"),
            (SymbolKind::Method, "__call__"),
            (SymbolKind::Function, "replay_traces"),
        ]
    );
}

#[test]
fn go_declarations() {
    let src = "package replay\n\ntype Service struct {\n}\ntype Runner interface {\n}\n\
               type ID string\nfunc NewService() *Service {\n\treturn nil\n}\n\
               func (s *Service) Replay(t Trace) error {\n}\nconst MaxIterations = 3\n";
    let got = kinds(Language::Go, src);
    let pairs: Vec<(SymbolKind, &str)> = got.iter().map(|(k, n, _)| (*k, n.as_str())).collect();
    assert_eq!(
        pairs,
        [
            (SymbolKind::Struct, "Service"),
            (SymbolKind::Interface, "Runner"),
            (SymbolKind::Type, "ID"),
            (SymbolKind::Function, "NewService"),
            (SymbolKind::Method, "Replay"),
            (SymbolKind::Const, "MaxIterations"),
        ]
    );
}

#[test]
fn script_declarations() {
    let src = "import x from 'y';\nexport default class CommandRouter {\n  \
               async route(cmd) {\n    if (cmd) {\n      return go(cmd);\n    }\n  }\n}\n\
               export interface Candidate {}\nexport type Score = number;\n\
               export async function findFiles(term) {}\nconst selectTool = (plan) => plan[0];\n\
               const LIMIT = 10;\nenum Outcome { Success }\n";
    let got = kinds(Language::TypeScript, src);
    let pairs: Vec<(SymbolKind, &str)> = got.iter().map(|(k, n, _)| (*k, n.as_str())).collect();
    assert_eq!(
        pairs,
        [
            (SymbolKind::Class, "CommandRouter"),
            (SymbolKind::Method, "route"),
            (SymbolKind::Interface, "Candidate"),
            (SymbolKind::Type, "Score"),
            (SymbolKind::Function, "findFiles"),
            (SymbolKind::Function, "selectTool"),
            (SymbolKind::Const, "LIMIT"),
            (SymbolKind::Enum, "Outcome"),
        ]
    );
}

#[test]
fn java_declarations() {
    let src = "package a.b;\nimport java.util.List;\n@Service\npublic final class CheckpointService {\n    \
               private final int limit;\n    @Override public void run() {\n    }\n    \
               public static List<String> listCheckpoints(String dir) {\n        \
               return helper(dir);\n    }\n}\ninterface Store {}\nrecord Point(int x) {}\n";
    let got = kinds(Language::Java, src);
    let pairs: Vec<(SymbolKind, &str)> = got.iter().map(|(k, n, _)| (*k, n.as_str())).collect();
    assert_eq!(
        pairs,
        [
            (SymbolKind::Class, "CheckpointService"),
            (SymbolKind::Method, "run"),
            (SymbolKind::Method, "listCheckpoints"),
            (SymbolKind::Interface, "Store"),
            (SymbolKind::Record, "Point"),
        ]
    );
}

#[test]
fn the_whole_file_is_scanned() {
    let mut src = "\n".repeat(5000);
    src.push_str("class Late {};\n");
    let got = scan_file(Language::Cpp, &src);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].line, 5001);
}

#[test]
fn block_comments_are_skipped() {
    let src = "/*\nclass Commented {};\n*/\nclass Real {};\n";
    assert_eq!(names(Language::Cpp, src), ["Real"]);
}

/// A scan that refuses a name looks no further past it (`Scanner::line`), yet the name's
/// declaration still spends the test attribute above it: the next item is no test.
#[test]
fn a_name_refused_spends_the_test_attribute_above_it() {
    let text = "#[test]\nfn refused() {}\nfn kept() {}\n#[test]\nfn kept_test() {}\n";
    let whole = scan_file(Language::Rust, text);
    let kept = super::scan_file_keeping(Language::Rust, text, &mut |n| n != "refused");
    let wanted: Vec<_> = whole.into_iter().filter(|s| s.name != "refused").collect();
    assert_eq!(kept, wanted);
    let tests: Vec<(&str, bool)> = kept.iter().map(|s| (s.name.as_str(), s.test)).collect();
    assert_eq!(tests, [("kept", false), ("kept_test", true)]);
}

/// Skimming the lines of Rust that change nothing but the continuation flag finds what
/// reading every line finds: every symbol of this crate's sources and of snippets with
/// comments, attributes and continuations, whole, counted and kept by line.
#[test]
fn skimmed_lines_of_rust_hide_no_declaration() {
    let mut texts: Vec<String> = crate::own_sources::own_sources()
        .into_iter()
        .filter(|(p, _)| p.extension().is_some_and(|e| e == "rs"))
        .filter_map(|(_, bytes)| String::from_utf8(bytes).ok())
        .collect();
    // with lines 1, 3, 5, 8 and 13 given (or 2, 6, 9 and 13): a comment opened, an attribute
    // read and a continuation made on lines passed over change what the lines given declare
    texts.push(
        [
            "fn first() {}",
            "let a = 1; /* open",
            "fn in_comment() {}",
            "*/ fn after_comment() {}",
            "let s = \"a\\",
            "fn continued() {}\";",
            "#[test]",
            "  x();",
            "fn after_statement() {}",
            "#![allow(x)]",
            "static S: u8 = 1;",
            "#[test]",
            "fn tested() {}",
        ]
        .join("\n"),
    );
    let found = skims_as_it_reads(Language::Rust, &texts);
    assert!(found > 1000, "{found}");
}

/// Scans each text of `language` whole and given lines (none, some spread out, some near
/// the start), skimming and reading every line: the symbols found and the names the caller
/// is asked about are the same either way. Returns how many symbols the whole scans found.
fn skims_as_it_reads(language: Language, texts: &[String]) -> usize {
    let mut found = 0;
    for text in texts {
        let read = scan_skimming(language, text, None, None, false);
        found += read.len();
        assert_eq!(
            scan_skimming(language, text, None, None, true),
            read,
            "{text}"
        );
        // given no lines (a count of the names alone, keeping none, or of some), and lines
        for lines in [
            None,
            Some(vec![]),
            Some(vec![1, 3, 5, 8, 13, 21, 34, 55, 89]),
            Some(vec![2, 6, 9, 13]),
        ] {
            let kept = |skims: bool, keeps_some: bool| {
                let mut asked = Vec::new();
                let mut keep = |name: &str| {
                    asked.push(name.to_string());
                    keeps_some && !name.contains("statement")
                };
                let symbols =
                    scan_skimming(language, text, Some(&mut keep), lines.as_deref(), skims);
                (symbols, asked)
            };
            for keeps_some in [false, true] {
                assert_eq!(
                    kept(true, keeps_some),
                    kept(false, keeps_some),
                    "{lines:?}: {text}"
                );
            }
        }
    }
    found
}

/// The scan of a whole Python text (`python_text.rs`, from its quotes and declaration
/// words) finds what reading it a line at a time finds, on this repository's Python scripts
/// and on a text whose docstrings open and close around declarations, with quotes inside
/// strings, comments and docstrings.
#[test]
fn python_is_read_as_line_by_line() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut texts: Vec<String> = ["scripts", "benches"]
        .into_iter()
        .flat_map(|dir| {
            std::fs::read_dir(root.join(dir))
                .into_iter()
                .flatten()
                .flatten()
        })
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "py"))
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .collect();
    let scripts = texts.len();
    assert!(scripts > 5, "{scripts}");
    texts.push(
        [
            "def first(): pass",
            "x = \"\"\"open",
            "def in_string(): pass",
            "s = ''' # not closed \"\"\"",
            "def after_close(): pass",
            "t = \"'''\"  # a quote inside a string",
            "  # a comment: \"\"\" opens nothing",
            "def after_comment(): pass",
            "class Spaced:",
            "    '''doc",
            "    def in_doc(self): pass",
            "    '''",
            "    def method(self): pass",
            // a line that starts in a string declares nothing, though the string closes
            // on it and a declaration word follows in code
            "z = '''",
            "def in_string_closed(): ''' ; class AfterClose: pass",
            "\u{feff}class AfterMark:\r",
            "async def coroutine(): return 'def x():' # class Y:",
            "u = 'open \\",
            "def after_escaped_end(): pass",
        ]
        .join("\n"),
    );
    let found = reads_python_as_line_by_line(&texts);
    assert!(found > 50, "{found}");
}

/// Scans each Python text whole, keeping every name, none and some, and given lines (which
/// a scan of Python reads all of): the symbols found and the names the caller is asked
/// about are those of [`python_line_by_line`]. Returns how many symbols the texts hold.
fn reads_python_as_line_by_line(texts: &[String]) -> usize {
    let mut found = 0;
    for text in texts {
        let all = scan_file(Language::Python, text);
        assert_eq!(all, python_line_by_line(text, None), "{text}");
        found += all.len();
        for lines in [None, Some(vec![1, 3, 5, 8, 13])] {
            for keeps_some in [false, true] {
                let kept = |by_lines: bool| {
                    let mut asked = Vec::new();
                    let mut keep = |name: &str| {
                        asked.push(name.to_string());
                        keeps_some && !name.contains("string")
                    };
                    let symbols = match (by_lines, &lines) {
                        (true, _) => python_line_by_line(text, Some(&mut keep)),
                        (false, Some(lines)) => {
                            scan_lines_keeping(Language::Python, text, lines, &mut keep)
                        }
                        (false, None) => scan_file_keeping(Language::Python, text, &mut keep),
                    };
                    (symbols, asked)
                };
                assert_eq!(kept(false), kept(true), "{lines:?}: {text}");
            }
        }
    }
    found
}

/// Python read a line at a time, every byte of each: a line that starts outside a
/// triple-quoted string declares what `python_declaration` finds on it.
fn python_line_by_line<'a>(
    text: &'a str,
    keep: Option<&'a mut dyn FnMut(&str) -> bool>,
) -> Vec<Symbol> {
    let mut scanner = Scanner::new(Language::Python, text, keep, None, false);
    let mut open = None;
    for (number, raw) in (1..).zip(text.split_inclusive('\n')) {
        let mut line = raw.trim_end_matches(['\n', '\r']);
        while let Some(rest) = line.strip_prefix(BYTE_ORDER_MARK) {
            line = rest;
        }
        let inside = open.is_some();
        open = python_string_after(line, open);
        if !inside {
            if let Some((kind, name)) = python::python_declaration(line) {
                scanner.push(kind, name, number, true);
            }
        }
    }
    scanner.out
}

/// The triple-quoted string a Python line leaves open (`Some(delimiter)`), given the one it
/// starts in, a byte at a time: quotes are followed left to right, so `'''` inside `"..."`
/// opens nothing, and `#` in code ends the line.
pub(super) fn python_string_after(
    line: &str,
    mut open: Option<&'static str>,
) -> Option<&'static str> {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if let Some(delimiter) = open {
            match line[i..].find(delimiter) {
                Some(at) => {
                    i += at + 3;
                    open = None;
                    continue;
                }
                None => return open,
            }
        }
        match bytes[i] {
            b'#' => return None,
            b'"' | b'\'' => {
                let triple = if bytes[i] == b'"' { "\"\"\"" } else { "'''" };
                if line[i..].starts_with(triple) {
                    open = Some(triple);
                    i += 3;
                    continue;
                }
                i = lexical::skip_string(bytes, i);
            }
            _ => {}
        }
        i += 1;
    }
    open
}

/// [`skims_as_it_reads`] on every Rust file, and [`reads_python_as_line_by_line`] on every
/// Python file, of the trees this repository ships beside its engine (whose Rust
/// [`skimmed_lines_of_rust_hide_no_declaration`] reads), or of the tree `FINDBENCH_SKIM_TREE`
/// names (by hand on a real tree, such as Python's library:
/// `FINDBENCH_SKIM_TREE=/usr/lib/python3.11 cargo test --release -p findbench-engine --lib
/// -- every_file_of_a_tree`).
#[test]
fn every_file_of_a_tree_skims_as_it_reads() {
    let sources = crate::own_sources::tree_sources(
        "FINDBENCH_SKIM_TREE",
        &["benches", "scripts", "engines", "corpora/fixtures"],
        &[Language::Rust, Language::Python],
    );
    let files = sources.len();
    let (mut rust, mut python) = (0, 0);
    for (_, language, text) in sources {
        match language {
            Language::Python => python += reads_python_as_line_by_line(&[text]),
            _ => rust += skims_as_it_reads(language, &[text]),
        }
    }
    assert!(rust + python > 150, "{rust} {python}");
    eprintln!("{files} files, {rust} Rust and {python} Python symbols");
}

/// The code of every line is the same whether the next byte that may open a string or a
/// comment is found from the text, once for the lines up to it (`Scanner::next_opener`), or
/// in each line alone (a line that is no slice of the scanned text): over this crate's own
/// sources and texts of every language with strings and comments that span lines.
#[test]
fn the_code_of_a_line_found_from_the_text_is_its_code_alone() {
    let mut texts: Vec<(Language, String)> = crate::own_sources::own_sources_by_language()
        .into_iter()
        .map(|(_, language, bytes)| (language, String::from_utf8_lossy(&bytes).into_owned()))
        .collect();
    let far = format!("let a = 1;{}\n", " ".repeat(70));
    for (language, text) in [
        (
            Language::Kotlin,
            "val s = \"\"\"a /* b\n c \"\"\" + 'x' // d\nfun f() {}\n",
        ),
        (
            Language::CSharp,
            "var p = @\"C:\\dir\n\"\"q\"\"\"; /* x\n y */ class A {}\n",
        ),
        (
            Language::JavaScript,
            "const r = /a\\/b/g; const t = `x ${y}\n z`;\nfunction f() {}\n",
        ),
        (
            Language::Go,
            "s := `raw // no\ncomment` // yes\nfunc F() {}\n",
        ),
        (
            Language::C,
            "int a; /* open\n still */ char c = '\\'', d = '\"';\nint f(void) { return 0; }\n",
        ),
        (
            Language::Rust,
            "fn f<'a>(x: &'a str) -> char { '\"' } // \"\n/* a\n*/ struct S;\n",
        ),
    ] {
        texts.push((language, text.to_string()));
        // the same with long lines of code and no opener between the openers
        texts.push((language, format!("{far}{far}{text}{far}{text}")));
    }
    let mut lines_read = 0;
    for (language, text) in &texts {
        let copies: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
        let mut from_text = Scanner::new(*language, text, None, None, false);
        let mut alone = Scanner::new(*language, "", None, None, false);
        for (line, copy) in text.split_inclusive('\n').zip(&copies) {
            let line = line.trim_end_matches(['\n', '\r']);
            let copy = copy.trim_end_matches(['\n', '\r']);
            assert_eq!(
                from_text.code_of(line),
                alone.code_of(copy),
                "{language:?}: {line:?}"
            );
            lines_read += 1;
        }
        // the text's search was taken: the place of its first opener is known
        assert!(
            from_text.opener.is_some() || !text.contains(['"', '/', '\'']),
            "{text:?}"
        );
    }
    assert!(lines_read > 10_000, "{lines_read}");
}
