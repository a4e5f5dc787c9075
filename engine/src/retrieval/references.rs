//! What the best files are to the names of the question and of each other: the file that
//! defines a name the question quotes is the one a task about that name is likely to
//! change, and a file that uses the names the best files define is likely to change with
//! them (the reference graph an engineer walks from a definition to its callers).
//!
//! Both read only what the tree already holds of the best `rerank_depth` files: each
//! file's declarations (from the symbol table, or scanned from its text on a first call,
//! the same list) and, for a use, its text, narrowed first by [`Tree::candidates`]. No
//! graph of the whole tree is built: the names are the question's few (`defines_named`),
//! those the best `uses_defined_files` define that hold a word of the question
//! (`uses_defined`), and those each of the best files defines that hold one, counted in
//! the texts of the other best files only (`referenced`, a file's in-degree among them).
//! A file the question's words did not rank is never added.

use super::best_files::Scored;
use super::code_tokens::{identifiers_in, is_identifier_byte, last_identifier, named_identifiers};
use super::tokens::{for_each_part, term_of};
use crate::profile::Profile;
use crate::text::camel::snake;
use crate::tree::Tree;
use memchr::memmem;
use std::collections::{HashMap, HashSet};

/// How many of the names a question quotes are looked for among the definitions.
const NAMED: usize = 8;
/// How many names of one best file a use is counted over: those holding most of the
/// question's words.
const DEFINED: usize = 16;

/// What the references did to a ranking: each file that defines names the question
/// quotes (those names), and each file lifted for using names a best file defines.
#[derive(Debug, Default)]
pub(super) struct References {
    pub defines: HashMap<u32, Vec<String>>,
    /// Each file weighed for how many of the other best files write its names: that many.
    pub referenced: HashMap<u32, usize>,
    pub uses: HashMap<u32, Uses>,
}

/// A file lifted for using names a best file defines: that file, the names it uses, and
/// how many names of that file were counted.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Uses {
    pub best: u32,
    pub names: Vec<String>,
    pub of: usize,
}

/// Weighs the best `depth` files of `ranked` by the references between names and files:
/// a file that defines `k` of the `n` names of `question` that some of them define is
/// multiplied by `1 + defines_named x k / n`; then a file whose names holding a term of
/// `terms` are written by `r` of the other best files is multiplied by
/// `1 + referenced x ln(1 + r) / ln(d)`, `d` the best files counted; then a file that
/// uses (writes as a word) `u` of the `m` names one of the best `uses_defined_files`
/// defines that hold a term of `terms` is lifted by `uses_defined` times that file's score
/// times `u / m` (the most such lift). Nothing when the three weights are 0.
pub(super) fn weigh_references(
    tree: &Tree,
    profile: &Profile,
    question: &str,
    terms: &[String],
    ranked: &mut [Scored],
    depth: usize,
) -> References {
    let w = &profile.task_ranking;
    let mut out = References::default();
    if ranked.is_empty() || (w.defines_named <= 0.0 && w.uses_defined <= 0.0 && w.referenced <= 0.0)
    {
        return out;
    }
    if w.defines_named > 0.0 {
        let top = best_places(tree, ranked, depth);
        out.defines = lift_definers(tree, question, ranked, &top, w.defines_named);
    }
    if w.referenced > 0.0 {
        let top = best_places(tree, ranked, depth);
        out.referenced = weigh_referenced(tree, terms, ranked, &top, w.referenced);
    }
    if w.uses_defined > 0.0 {
        let top = best_places(tree, ranked, depth);
        out.uses = lift_users(tree, profile, terms, ranked, &top);
    }
    out
}

/// The places in `ranked` of its best `depth` files, best first (ties by the shorter path,
/// then path order, as the ranking breaks them).
fn best_places(tree: &Tree, ranked: &[Scored], depth: usize) -> Vec<usize> {
    let files = tree.files();
    let path = |i: usize| files[ranked[i].file as usize].path.as_str();
    let mut order: Vec<usize> = (0..ranked.len()).collect();
    order.sort_by(|&a, &b| {
        ranked[b].score.total_cmp(&ranked[a].score).then_with(|| {
            let (pa, pb) = (path(a), path(b));
            pa.len().cmp(&pb.len()).then_with(|| pa.cmp(pb))
        })
    });
    order.truncate(depth);
    order
}

/// The files of `files` that may write every word of each name's snake form (a name the
/// question writes `parseNumber` is defined as `parse_number` too), by the tree's posting
/// lists: a superset, the caller reads each.
fn may_write(tree: &Tree, snakes: &[String]) -> HashSet<usize> {
    let mut out = HashSet::new();
    for s in snakes {
        let words: Vec<&str> = s.split('_').filter(|w| !w.is_empty()).collect();
        out.extend(tree.candidates(&words));
    }
    out
}

/// The `defines_named` lift: each of `top` that defines (not only declares; not a test)
/// a name `question` quotes.
fn lift_definers(
    tree: &Tree,
    question: &str,
    ranked: &mut [Scored],
    top: &[usize],
    weight: f64,
) -> HashMap<u32, Vec<String>> {
    let names = named_identifiers(question, NAMED);
    if names.is_empty() {
        return HashMap::new();
    }
    let snakes: Vec<String> = names.iter().map(|n| snake(n)).collect();
    let files = tree.files();
    let may = may_write(tree, &snakes);
    let mut defined: Vec<(usize, Vec<usize>)> = Vec::new();
    for &i in top {
        let file = ranked[i].file as usize;
        if !may.contains(&file) {
            continue;
        }
        let symbols = files[file].symbols_once();
        let mut which: Vec<usize> = (0..snakes.len())
            .filter(|&k| symbols.iter().any(|s| s.defines(&snakes[k])))
            .collect();
        which.sort_unstable();
        if !which.is_empty() {
            defined.push((i, which));
        }
    }
    // the names some best file defines: a name no file defines (a library's, a macro's)
    // takes no share from those that are
    let named: HashSet<usize> = defined
        .iter()
        .flat_map(|(_, k)| k.iter().copied())
        .collect();
    let mut out = HashMap::new();
    for (i, which) in defined {
        let share = which.len() as f64 / named.len() as f64;
        ranked[i].score *= 1.0 + weight * share;
        out.insert(
            ranked[i].file,
            which.iter().map(|&k| names[k].clone()).collect(),
        );
    }
    out
}

/// The `uses_defined` lift: each of `top`, not one of the best `uses_defined_files`, that
/// writes names one of them defines.
fn lift_users(
    tree: &Tree,
    profile: &Profile,
    terms: &[String],
    ranked: &mut [Scored],
    top: &[usize],
) -> HashMap<u32, Uses> {
    let w = &profile.task_ranking;
    let files = tree.files();
    let best = &top[..w.uses_defined_files.min(top.len())];
    let lent: Vec<Vec<String>> = best
        .iter()
        .map(|&b| subject_names(&files[ranked[b].file as usize], terms))
        .collect();
    let all: Vec<String> = lent.iter().flatten().map(|n| snake(n)).collect();
    if all.is_empty() {
        return HashMap::new();
    }
    let may = may_write(tree, &all);
    let best_scores: Vec<f64> = best.iter().map(|&b| ranked[b].score).collect();
    let mut out = HashMap::new();
    for &r in &top[best.len()..] {
        let file = ranked[r].file as usize;
        if !may.contains(&file) {
            continue;
        }
        let Some(text) = files[file].text_once() else {
            continue;
        };
        let lift = lent
            .iter()
            .enumerate()
            .filter(|(_, names)| !names.is_empty())
            .filter_map(|(k, names)| {
                let used: Vec<String> =
                    names.iter().filter(|n| writes(&text, n)).cloned().collect();
                let share = used.len() as f64 / names.len() as f64;
                (!used.is_empty()).then(|| (w.uses_defined * best_scores[k] * share, k, used))
            })
            .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        if let Some((add, k, used)) = lift {
            ranked[r].score += add;
            out.insert(
                ranked[r].file,
                Uses {
                    best: ranked[best[k]].file,
                    names: used,
                    of: lent[k].len(),
                },
            );
        }
    }
    out
}

/// The `referenced` prior: each of `top` whose names holding a term of `terms` are written
/// by other files of `top`, weighed by how many (each text read once, its identifiers
/// looked up among the names wanted).
fn weigh_referenced(
    tree: &Tree,
    terms: &[String],
    ranked: &mut [Scored],
    top: &[usize],
    weight: f64,
) -> HashMap<u32, usize> {
    let files = tree.files();
    if top.len() < 2 {
        return HashMap::new();
    }
    let names: Vec<Vec<String>> = top
        .iter()
        .map(|&i| subject_names(&files[ranked[i].file as usize], terms))
        .collect();
    let wanted: HashSet<&str> = names.iter().flatten().map(String::as_str).collect();
    if wanted.is_empty() {
        return HashMap::new();
    }
    // the wanted names each of the best files writes
    let written: Vec<HashSet<&str>> = top
        .iter()
        .map(|&j| {
            let mut found = HashSet::new();
            if let Some(text) = files[ranked[j].file as usize].text_once() {
                identifiers_in(&text, |id, _| {
                    if let Some(&name) = wanted.get(id) {
                        found.insert(name);
                    }
                });
            }
            found
        })
        .collect();
    let scale = (top.len() as f64).ln();
    let mut out = HashMap::new();
    for (k, &i) in top.iter().enumerate() {
        if names[k].is_empty() {
            continue;
        }
        let users = (0..top.len())
            .filter(|&j| j != k && names[k].iter().any(|n| written[j].contains(n.as_str())))
            .count();
        if users > 0 {
            ranked[i].score *= 1.0 + weight * (1.0 + users as f64).ln() / scale;
            out.insert(ranked[i].file, users);
        }
    }
    out
}

/// The names `file` defines (not only declares; not a test) that hold a term of `terms`,
/// as written (the last identifier of a qualified name), most terms first, then in line
/// order; at most [`DEFINED`], distinct, of four bytes or more.
fn subject_names(file: &crate::tree::TreeFile, terms: &[String]) -> Vec<String> {
    let mut found: Vec<(usize, u32, String)> = Vec::new();
    for s in file.symbols_once().iter() {
        if !s.definition || s.test {
            continue;
        }
        let name = last_identifier(&s.name);
        if name.len() < 4 || found.iter().any(|(_, _, n)| n == name) {
            continue;
        }
        let mut held: Vec<usize> = Vec::new();
        for_each_part(name, |part| {
            if let Some(k) = terms.iter().position(|t| *t == term_of(part)) {
                if !held.contains(&k) {
                    held.push(k);
                }
            }
        });
        if !held.is_empty() {
            found.push((held.len(), s.line, name.to_string()));
        }
    }
    found.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    found.truncate(DEFINED);
    found.into_iter().map(|(_, _, n)| n).collect()
}

/// True when `text` writes `name` as a whole identifier (no identifier byte on either
/// side), as written: case and all.
fn writes(text: &str, name: &str) -> bool {
    let b = text.as_bytes();
    memmem::find_iter(b, name.as_bytes()).any(|at| {
        let before = at.checked_sub(1).map(|i| b[i]);
        let after = b.get(at + name.len()).copied();
        !before.is_some_and(is_identifier_byte) && !after.is_some_and(is_identifier_byte)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::rank_files;

    fn ranked(tree: &Tree, question: &str, profile: &Profile) -> Vec<(String, f64, String)> {
        rank_files(tree, question, profile, 5)
            .into_iter()
            .map(|r| (r.path, r.score, r.reason))
            .collect()
    }

    fn paths(ranked: &[(String, f64, String)]) -> Vec<&str> {
        ranked.iter().map(|r| r.0.as_str()).collect()
    }

    #[test]
    fn the_file_that_defines_a_name_the_question_quotes_is_lifted() {
        let tree = Tree::from_memory(
            "defines",
            [
                (
                    "src/print.c",
                    "/* fix the overflow when a number is parsed: parse the number once */\n\
                     int print_value(int v) { return parse_number(v); }\n",
                ),
                (
                    "src/parse.c",
                    "/* no overflow */\nint parse_number(int v) { return v; }\n",
                ),
                ("src/parse.h", "int parse_number(int v);\n"),
            ],
        );
        let mut profile = Profile::default();
        profile.task_ranking.defines_named = 0.0;
        let question = "fix overflow in parseNumber()";
        let before = ranked(&tree, question, &profile);
        assert_eq!(paths(&before)[0], "src/print.c", "{before:?}");
        profile.task_ranking.defines_named = 2.0;
        let after = ranked(&tree, question, &profile);
        assert_eq!(paths(&after)[0], "src/parse.c", "{after:?}");
        let was = |p: &str| before.iter().find(|r| r.0 == p).unwrap();
        // the only name quoted, defined: x (1 + 2 x 1/1)
        assert!((after[0].1 - 3.0 * was("src/parse.c").1).abs() < 1e-3);
        assert!(
            after[0].2.contains("; defines `parseNumber`"),
            "{}",
            after[0].2
        );
        // a declaration and a use do not define
        for p in ["src/parse.h", "src/print.c"] {
            let r = after.iter().find(|r| r.0 == p).unwrap();
            assert_eq!(r, was(p));
        }
        // weight 0: the ranking without references, reasons and scores alike
        profile.task_ranking.defines_named = 0.0;
        assert_eq!(ranked(&tree, question, &profile), before);
    }

    #[test]
    fn a_file_that_uses_a_name_the_best_file_defines_is_lifted_by_a_share_of_its_score() {
        let tree = Tree::from_memory(
            "uses",
            [
                (
                    "src/lexer.rs",
                    "/// Tokenize the input.\npub fn tokenize_input(s: &str) -> Vec<u8> { vec![] }\n",
                ),
                (
                    "src/driver.rs",
                    "fn run(s: &str) { let _ = lexer::tokenize_input(s); }\n\
                     fn more() { reader(); writer(); other(); }\n",
                ),
                ("src/notes.rs", "// the input, read once\nfn notes() {}\n"),
                (
                    "src/tokenizer.rs",
                    "// tokenize each input, then tokenize the next input\nfn next_input() {}\n",
                ),
            ],
        );
        let mut profile = Profile::default();
        profile.task_ranking.uses_defined_files = 1;
        let question = "tokenize the input";
        let before = ranked(&tree, question, &profile);
        assert_eq!(paths(&before)[0], "src/lexer.rs", "{before:?}");
        let place = |r: &[(String, f64, String)], p: &str| r.iter().position(|x| x.0 == p);
        let driver_before = place(&before, "src/driver.rs").unwrap();
        profile.task_ranking.uses_defined = 0.5;
        let after = ranked(&tree, question, &profile);
        assert_eq!(after[0], before[0], "the best file is not lifted");
        assert_eq!(paths(&after)[1], "src/driver.rs", "{after:?}");
        assert!(driver_before > 1, "the lift changes the order: {before:?}");
        let lift = 0.5 * before[0].1;
        assert!((after[1].1 - (before[driver_before].1 + lift)).abs() < 1e-3);
        assert!(
            after[1]
                .2
                .contains("; uses `tokenize_input` of the 1 names `src/lexer.rs` defines"),
            "{}",
            after[1].2
        );
        // a file that writes no name the best file defines is not lifted
        let tokenizer = place(&after, "src/tokenizer.rs").unwrap();
        assert!(!after[tokenizer].2.contains("; uses"));
        profile.task_ranking.uses_defined = 0.0;
        assert_eq!(ranked(&tree, question, &profile), before);
    }

    #[test]
    fn a_file_whose_names_the_other_best_files_write_is_weighed_by_how_many() {
        let user = "fn run(s: &str) { tokenize_input(s); }\n";
        let tree = Tree::from_memory(
            "referenced",
            [
                (
                    "src/lexer.rs",
                    "pub fn tokenize_input(s: &str) {}\nfn alpha() {}\nfn beta() {}\nfn gamma() {}\n",
                ),
                (
                    "src/tokenizer.rs",
                    "// tokenize each input, then tokenize the next input\n\
                     fn next_input() {}\n/// Tokenize all input.\nfn tokenize_all() {}\n",
                ),
                ("src/a.rs", user),
                ("src/b.rs", user),
            ],
        );
        let mut profile = Profile::default();
        let question = "tokenize the input";
        let before = ranked(&tree, question, &profile);
        assert_eq!(paths(&before)[0], "src/tokenizer.rs", "{before:?}");
        profile.task_ranking.referenced = 1.0;
        let after = ranked(&tree, question, &profile);
        assert_eq!(paths(&after)[0], "src/lexer.rs", "{after:?}");
        let was = |p: &str| before.iter().find(|r| r.0 == p).unwrap();
        // written by a.rs and b.rs of the four best: x (1 + ln 3 / ln 4)
        let lexer = was("src/lexer.rs").1 * (1.0 + 3f64.ln() / 4f64.ln());
        assert!((after[0].1 - lexer).abs() < 1e-3, "{after:?}");
        assert!(after[0]
            .2
            .contains("; its names written by 2 of the best files"));
        // the others define no name of the question's words that another file writes
        for p in ["src/tokenizer.rs", "src/a.rs", "src/b.rs"] {
            assert_eq!(after.iter().find(|r| r.0 == p).unwrap(), was(p));
        }
        profile.task_ranking.referenced = 0.0;
        assert_eq!(ranked(&tree, question, &profile), before);
    }

    #[test]
    fn a_name_is_written_when_no_identifier_byte_touches_it() {
        assert!(writes("a(tokenize_input)", "tokenize_input"));
        assert!(writes("tokenize_input", "tokenize_input"));
        assert!(!writes(
            "tokenize_inputs and my_tokenize_input",
            "tokenize_input"
        ));
        assert!(!writes("Tokenize_input", "tokenize_input"));
        assert_eq!(last_identifier("CommandRouter::route"), "route");
        assert_eq!(last_identifier("Gson.fromJson"), "fromJson");
        assert_eq!(last_identifier("plain"), "plain");
    }
}

#[cfg(test)]
#[path = "references_tests.rs"]
mod worked_tests;
