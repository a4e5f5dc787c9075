//! `weigh_references` on ranked files of known scores: each lift and factor worked by hand.

use super::*;
use crate::retrieval::kind::FileKind;
use crate::retrieval::tokens::question_terms;

/// Ranked files of `tree` by path, with their scores by the question's words.
fn ranked(tree: &Tree, scores: &[(&str, f64)]) -> Vec<Scored> {
    scores
        .iter()
        .map(|&(path, score)| Scored {
            file: id(tree, path),
            score,
            found: Vec::new(),
            lines: None,
            kind: FileKind::Source,
        })
        .collect()
}

fn id(tree: &Tree, path: &str) -> u32 {
    tree.files().iter().position(|f| f.path == path).unwrap() as u32
}

fn scores(ranked: &[Scored]) -> Vec<f64> {
    ranked.iter().map(|s| s.score).collect()
}

fn terms(question: &str) -> Vec<String> {
    question_terms(question, &Profile::default().task_ranking.stop_words)
}

/// Two of the three names quoted are defined among the best four (`missing_name` by none,
/// so it takes no share): parse.c defines both, x (1 + 0.5 x 2/2); print.c one, x (1 + 0.5
/// x 1/2); a declaration, a use and a definer below the best four are not lifted.
#[test]
fn the_definers_lift_worked_by_hand() {
    let tree = Tree::from_memory(
        "defines",
        [
            // first in path order: a lift given to the tree's first file alone is wrong
            ("src/far.c", "int parse_number(int v) { return v; }\n"),
            (
                "src/main.c",
                "int main(void) { return parse_number(1) + print_value(2); }\n",
            ),
            (
                "src/parse.c",
                "int parse_number(int v) { return v; }\nint print_value(int v) { return v; }\n",
            ),
            ("src/parse.h", "int parse_number(int v);\n"),
            ("src/print.c", "int print_value(int v) { return v; }\n"),
        ],
    );
    let mut profile = Profile::default();
    profile.task_ranking.defines_named = 0.5;
    let question = "fix parseNumber and printValue in `missing_name`";
    let mut files = ranked(
        &tree,
        &[
            ("src/main.c", 4.0),
            ("src/parse.c", 2.0),
            ("src/print.c", 2.0),
            ("src/parse.h", 1.0),
            ("src/far.c", 0.5),
        ],
    );
    let out = weigh_references(&tree, &profile, question, &terms(question), &mut files, 4);
    assert_eq!(scores(&files), [4.0, 3.0, 2.5, 1.0, 0.5]);
    let named = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    let want = HashMap::from([
        (
            id(&tree, "src/parse.c"),
            named(&["parseNumber", "printValue"]),
        ),
        (id(&tree, "src/print.c"), named(&["printValue"])),
    ]);
    assert_eq!(out.defines, want);
    assert!(out.referenced.is_empty() && out.uses.is_empty());
}

fn lexer_tree() -> Tree {
    Tree::from_memory(
        "referenced",
        [
            (
                "src/a.rs",
                "fn go() { tokenize_input(\"\"); read_input(); }\n",
            ),
            ("src/b.rs", "fn other() { tokenize_input(\"\"); }\n"),
            (
                "src/far.rs",
                "fn far() { tokenize_input(\"\"); read_input(); }\n",
            ),
            (
                "src/lexer.rs",
                "pub fn tokenize_input(s: &str) {}\nfn alpha() {}\n",
            ),
            (
                "src/reader.rs",
                "pub fn read_input() {}\nfn run() { tokenize_input(\"\"); }\n",
            ),
        ],
    )
}

/// Of the best four, lexer.rs's `tokenize_input` is written by the three others (x (1 +
/// ln 4 / ln 4)), reader.rs's `read_input` by a.rs alone (x (1 + ln 2 / ln 4), a file
/// writing its own name not counted); a.rs and b.rs define no name of the question's words;
/// far.rs, below the best four, counts for none. Of the best two, lexer.rs is written by
/// reader.rs (x (1 + ln 2 / ln 2)) and reader.rs by none.
#[test]
fn the_referenced_factor_worked_by_hand() {
    let tree = lexer_tree();
    let mut profile = Profile::default();
    profile.task_ranking.referenced = 1.0;
    let question = "tokenize the input";
    let best = [
        ("src/lexer.rs", 4.0),
        ("src/reader.rs", 3.0),
        ("src/a.rs", 2.0),
        ("src/b.rs", 1.5),
        ("src/far.rs", 1.0),
    ];
    let mut files = ranked(&tree, &best);
    let out = weigh_references(&tree, &profile, question, &terms(question), &mut files, 4);
    assert_eq!(scores(&files), [8.0, 4.5, 2.0, 1.5, 1.0]);
    let want = HashMap::from([
        (id(&tree, "src/lexer.rs"), 3),
        (id(&tree, "src/reader.rs"), 1),
    ]);
    assert_eq!(out.referenced, want);
    assert!(out.defines.is_empty() && out.uses.is_empty());

    let mut files = ranked(&tree, &best);
    let out = weigh_references(&tree, &profile, question, &terms(question), &mut files, 2);
    assert_eq!(scores(&files), [8.0, 3.0, 2.0, 1.5, 1.0]);
    assert_eq!(
        out.referenced,
        HashMap::from([(id(&tree, "src/lexer.rs"), 1)])
    );
    // one best file: no other writes its names
    let mut files = ranked(&tree, &best);
    let out = weigh_references(&tree, &profile, question, &terms(question), &mut files, 1);
    assert_eq!(scores(&files), [4.0, 3.0, 2.0, 1.5, 1.0]);
    assert!(out.referenced.is_empty());
}

/// The best two lend their names: lexer.rs (score 4) `tokenize_input` and `tokenize_all`,
/// reader.rs (score 3) `read_input`. user.rs writes one of lexer.rs's two (a lift of 0.5
/// x 4 x 1/2) and reader.rs's one (of 0.5 x 3 x 1/1): lifted by the most, 1.5; both.rs writes
/// lexer.rs's two, lifted by 0.5 x 4 = 2; near.rs writes `tokenize_inputs`, no name of
/// theirs; far.rs, below the best five, is not lifted. A weight of 0 for the definers
/// names none, though the question quotes a name the best file defines.
#[test]
fn the_users_lift_worked_by_hand() {
    let tree = Tree::from_memory(
        "uses",
        [
            (
                "src/both.rs",
                "fn go() { tokenize_input(); tokenize_all(); }\n",
            ),
            ("src/far.rs", "fn far() { tokenize_input(); }\n"),
            (
                "src/lexer.rs",
                "pub fn tokenize_input() {}\npub fn tokenize_all() {}\n",
            ),
            ("src/near.rs", "fn near() { tokenize_inputs(); }\n"),
            ("src/reader.rs", "pub fn read_input() {}\n"),
            (
                "src/user.rs",
                "fn main() { tokenize_input(); read_input(); }\n",
            ),
        ],
    );
    let mut profile = Profile::default();
    profile.task_ranking.uses_defined = 0.5;
    profile.task_ranking.uses_defined_files = 2;
    profile.task_ranking.defines_named = 0.0;
    let question = "tokenize the input in `tokenize_input`";
    let mut files = ranked(
        &tree,
        &[
            ("src/lexer.rs", 4.0),
            ("src/reader.rs", 3.0),
            ("src/user.rs", 1.0),
            ("src/both.rs", 0.9),
            ("src/near.rs", 0.8),
            ("src/far.rs", 0.5),
        ],
    );
    let out = weigh_references(&tree, &profile, question, &terms(question), &mut files, 5);
    assert_eq!(scores(&files), [4.0, 3.0, 2.5, 2.9, 0.8, 0.5]);
    let uses = |best: &str, names: &[&str], of: usize| Uses {
        best: id(&tree, best),
        names: names.iter().map(|n| n.to_string()).collect(),
        of,
    };
    let want = HashMap::from([
        (
            id(&tree, "src/user.rs"),
            uses("src/reader.rs", &["read_input"], 1),
        ),
        (
            id(&tree, "src/both.rs"),
            uses("src/lexer.rs", &["tokenize_input", "tokenize_all"], 2),
        ),
    ]);
    assert_eq!(out.uses, want);
    assert!(out.defines.is_empty() && out.referenced.is_empty());
}

/// The names a file defines that hold a term of "scan the input ast": `scan_input` (two
/// terms) first, then `scan` and `input_of` (one each) in line order; not `ast` (under four
/// bytes), `alpha` (no term), the trait's `read_input` (declared only), the test
/// `scan_input_works`, nor the second `scan_input`.
#[test]
fn the_names_a_file_defines_worked_by_hand() {
    let tree = Tree::from_memory(
        "names",
        [(
            "src/scan.rs",
            "pub fn scan() {}\nfn ast() {}\npub fn alpha() {}\npub fn scan_input() {}\n\
             trait Reader { fn read_input(&self); }\n#[test]\nfn scan_input_works() {}\n\
             mod inner { pub fn scan_input() {} }\npub fn input_of() {}\n",
        )],
    );
    let file = tree.file("src/scan.rs").unwrap();
    let question = terms("scan the input ast");
    assert_eq!(question, ["scan", "input", "ast"]);
    assert_eq!(
        subject_names(file, &question),
        ["scan_input", "scan", "input_of"]
    );
}
