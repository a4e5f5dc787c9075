//! The symbol reader follows each language's strings and comments to their real ends: a
//! string over several lines, a raw string, a character literal beside a lifetime, a nested
//! block comment, a here-document, a template literal. Each text holds a definition after
//! the construct, which a reader that lost its place would miss (or a definition-looking
//! line inside the construct, which it would find).

#[allow(dead_code)]
mod symbol_reading;

use findbench_engine::tree::symbols::Language;
use symbol_reading::names;

fn assert_names(language: Language, src: &str, expected: &[&str]) {
    assert_eq!(names(language, src), expected, "{language:?}: {src}");
}

#[test]
fn rust_strings_over_several_lines_open_no_comment() {
    // a glob such as "src/*.rs" on a string's second line is no comment's start
    let src = "fn a() { let g = \"\n src/*.rs\n \"; }\nfn after_multi() {}\n";
    assert_names(Language::Rust, src, &["a", "after_multi"]);
    // a definition-looking line inside the string declares nothing
    let src = "const HELP: &str = \"usage:\nfn not_a_function() {}\n\";\nfn after_help() {}\n";
    assert_names(Language::Rust, src, &["HELP", "after_help"]);
    // an escaped quote keeps the string open
    let src = "fn a() { let s = \"say \\\"\n/* still a string \\\" \"; }\nfn after_escape() {}\n";
    assert_names(Language::Rust, src, &["a", "after_escape"]);
}

#[test]
fn rust_raw_strings_close_at_their_hashes() {
    let src = "fn a() {\n    let r = r#\"a \" quote\n/* not a comment\nfn inside() {}\n\"#;\n}\nfn after_raw() {}\n";
    assert_names(Language::Rust, src, &["a", "after_raw"]);
    let src = "const Q: &[u8] = br##\"\"# not closed\n\"##;\nfn after_byte_raw() {}\n";
    assert_names(Language::Rust, src, &["Q", "after_byte_raw"]);
    // `\` escapes nothing in a raw string: it closes at its first quote
    let src = "const P: &str = r\"C:\\\";\nfn after_backslash() {}\n";
    assert_names(Language::Rust, src, &["P", "after_backslash"]);
}

#[test]
fn rust_character_literals_and_lifetimes() {
    let src = "fn quote() -> char { '\"' }\nfn after_char() {}\n\
               fn life<'a>(s: &'a str) -> &'a str { s }\nfn after_lifetime() {}\n\
               fn esc() -> char { '\\'' }\nfn after_escaped_char() {}\n\
               fn slash() -> u8 { b'/' }\nfn after_byte() {}\n";
    assert_names(
        Language::Rust,
        src,
        &[
            "quote",
            "after_char",
            "life",
            "after_lifetime",
            "esc",
            "after_escaped_char",
            "slash",
            "after_byte",
        ],
    );
}

#[test]
fn rust_block_comments_nest() {
    let src = "/* outer /* inner */\nfn hidden() {}\n*/\nfn after_nested() {}\n";
    assert_names(Language::Rust, src, &["after_nested"]);
    let src = "fn a() {} /* one /* two */ three */ \nfn after_same_line() {}\n";
    assert_names(Language::Rust, src, &["a", "after_same_line"]);
}

#[test]
fn java_text_blocks_span_lines() {
    let src = "class A {\n    String s = \"\"\"\n        /* not a comment\n        \"\"\";\n    void after() {}\n}\n";
    assert_names(Language::Java, src, &["A", "after"]);
}

#[test]
fn php_strings_over_several_lines() {
    let src = "<?php\n$sql = \"SELECT *\n  /* not a comment\";\nfunction after_double() {}\n\
               $x = 'a\n/* still a string';\nfunction after_single() {}\n";
    assert_names(Language::Php, src, &["after_double", "after_single"]);
}

#[test]
fn script_template_literals_span_lines() {
    let src = "const t = `line\n/* not a comment\n${x}`;\nfunction afterTemplate() {}\n";
    assert_names(Language::JavaScript, src, &["t", "afterTemplate"]);
    assert_names(Language::TypeScript, src, &["t", "afterTemplate"]);
}

#[test]
fn go_raw_strings_span_lines() {
    let src = "package p\nvar q = `a\n/* not a comment\n`\nfunc AfterRaw() {}\n";
    assert_names(Language::Go, src, &["q", "AfterRaw"]);
}

#[test]
fn csharp_verbatim_and_raw_strings_span_lines() {
    let src = "class A {\n    string s = @\"a\n/* not a comment\";\n    void After() {}\n\
               string r = \"\"\"\n/* not a comment\n\"\"\";\n    void AfterRaw() {}\n}\n";
    assert_names(Language::CSharp, src, &["A", "After", "AfterRaw"]);
}

#[test]
fn triple_quoted_strings_span_lines() {
    for language in [Language::Kotlin, Language::Swift, Language::Scala] {
        let keyword = match language {
            Language::Swift => "func",
            Language::Kotlin => "fun",
            _ => "def",
        };
        let src =
            format!("val s = \"\"\"\n/* not a comment\n\"\"\"\n{keyword} afterTriple() {{}}\n");
        let found = names(language, &src);
        assert!(
            found.contains(&"afterTriple".to_string()),
            "{language:?}: {found:?}"
        );
    }
    let src = "s = \"\"\"\ndef not_a_function():\n\"\"\"\ndef after_docstring():\n    pass\n";
    assert_names(Language::Python, src, &["after_docstring"]);
}

#[test]
fn here_documents_are_passed_over() {
    let src = "cat <<EOF\nnot_a_function() {\nEOF\nafter_heredoc() {\n  :\n}\n";
    assert_names(Language::Shell, src, &["after_heredoc"]);
    let src = "x = <<~SQL\n  def not_a_method\nSQL\ndef after_heredoc\nend\n";
    assert_names(Language::Ruby, src, &["after_heredoc"]);
}

#[test]
fn script_templates_nest_in_their_expressions() {
    // the inner template's backticks do not close the outer one
    let src = "const a = `outer ${ `inner ${x} /* no` } end`;\nfunction afterNested() {}\n";
    assert_names(Language::JavaScript, src, &["a", "afterNested"]);
    // a nested template over several lines, an expression's braces counted
    let src = "const b = `line ${ f({ k: `deep\n/* not a comment\n${y}` }) }\n/* still text\n`;\n\
               function afterDeep() {}\n";
    assert_names(Language::JavaScript, src, &["b", "afterDeep"]);
    assert_names(Language::TypeScript, src, &["b", "afterDeep"]);
}

#[test]
fn cpp_raw_strings_close_at_their_delimiter() {
    let src = "const char *s = R\"x(\n/* not a comment\nint lost_in_raw() {\n)\" still )x\";\n\
               int after_raw(void) { return 0; }\n";
    assert_names(Language::Cpp, src, &["after_raw"]);
    // an encoding prefix; `\` escapes nothing, `"` inside is text
    let src = "auto p = u8R\"(C:\\ \"quoted\" /*)\";\nint after_prefixed(void) { return 0; }\n";
    assert_names(Language::Cpp, src, &["after_prefixed"]);
    // `R` ending another word opens no raw string
    let src = "const char *t = OR\"/*(\";\nint after_word(void) { return 0; }\n";
    assert_names(Language::Cpp, src, &["after_word"]);
}

#[test]
fn php_heredocs_and_nowdocs_are_passed_over() {
    let src = "<?php\n$s = <<<EOT\nfunction lost_in_heredoc() {\n/* not a comment\nEOT;\n\
               function after_heredoc() {}\n$t = <<<'NOW'\n*/ class Lost {}\n  NOW;\n\
               class AfterNowdoc {}\n$u = <<<\"Q\"\nQUERY line\nQ;\nfunction after_quoted() {}\n";
    assert_names(
        Language::Php,
        src,
        &["after_heredoc", "AfterNowdoc", "after_quoted"],
    );
}
