//! `rank_candidates` worked by hand: the coverage rules' numbers and their wording, the
//! proximity factor, a built copy's factor and the code-shaped terms named in a reason;
//! and `keep_statistics`. A factor's score is compared with the same file's score under a
//! profile that leaves the factor out, so that the BM25F part cancels; scores are rounded
//! to 4 decimals, hence the tolerances.

use super::*;

/// Three terms of a question meet in `src/parser.rs`: `read` and `head` on line 1, `gzip`
/// on line 2. `src/gzip.rs` holds `gzip` in its path only, no line of its text. The other
/// files hold none of them (they make the terms rarer).
fn parser_tree() -> Tree {
    Tree::from_memory(
        "t",
        [
            ("src/parser.rs", "fn read_header() {}\n// the gzip magic\n"),
            ("src/gzip.rs", "fn main() {}\n"),
            (
                "src/config.rs",
                "pub struct Config { pub threads: usize }\n",
            ),
            ("src/walk.rs", "pub fn walk(root: &Path) {}\n"),
            ("docs/intro.md", "# Intro\nHow to install it.\n"),
        ],
    )
}

fn score_of(ranking: &Ranking, path: &str) -> f64 {
    let file = ranking.files.iter().find(|f| f.path == path);
    file.unwrap_or_else(|| panic!("{path} not ranked: {ranking:?}"))
        .score
}

fn with_proximity(proximity: f64) -> Profile {
    let mut p = Profile::default();
    p.task_ranking.proximity = proximity;
    p
}

#[test]
fn the_proximity_factor_worked_by_hand() {
    let stop = &Profile::default().task_ranking.stop_words;
    assert_eq!(
        tokens::question_terms("read header gzip", stop),
        ["read", "head", "gzip"]
    );
    let t = parser_tree();
    let plain = rank_candidates(&t, "read header gzip", &with_proximity(0.0), 5);
    let near = rank_candidates(&t, "read header gzip", &with_proximity(2.0), 5);
    assert_eq!(near.absent, None);
    // parser.rs's best line holds 2 of the 3 terms: its share is (2 - 1) / (3 - 1) = 0.5,
    // its factor 1 + 2.0 x 0.5 = 2; each score rounded by up to 0.00005
    let (p0, p2) = (
        score_of(&plain, "src/parser.rs"),
        score_of(&near, "src/parser.rs"),
    );
    assert!(p0 > 0.1, "{p0}");
    assert!((p2 - 2.0 * p0).abs() < 2e-4, "{p2} against 2 x {p0}");
    // gzip.rs holds no term on a line (its path holds `gzip`): no line, no factor
    let (g0, g2) = (
        score_of(&plain, "src/gzip.rs"),
        score_of(&near, "src/gzip.rs"),
    );
    assert!(g0 > 0.0 && g0 == g2, "{g0} {g2}");
    let gzip = near.files.iter().find(|f| f.path == "src/gzip.rs").unwrap();
    assert!(gzip.evidence_lines.is_empty(), "{gzip:?}");
}

#[test]
fn a_built_copys_score_is_its_factor_times_its_own() {
    // dist/app.js has a source map beside it; the map holds none of the terms
    let t = Tree::from_memory(
        "t",
        [
            ("dist/app.js", "// read the header first\nvar a = 1;\n"),
            ("dist/app.js.map", "{\"version\":3}"),
            (
                "src/config.rs",
                "pub struct Config { pub threads: usize }\n",
            ),
            ("docs/intro.md", "# Intro\nHow to install it.\n"),
        ],
    );
    let mut copies = Profile::default();
    copies.task_ranking.built_copy = 0.2;
    let mut alike = Profile::default();
    alike.task_ranking.built_copy = 1.0;
    let weighed = rank_candidates(&t, "read header", &copies, 5);
    let whole = rank_candidates(&t, "read header", &alike, 5);
    let (w, s) = (
        score_of(&weighed, "dist/app.js"),
        score_of(&whole, "dist/app.js"),
    );
    // 0.2 x its score under a factor of 1, each rounded by up to 0.00005
    assert!(s > 0.1, "{s}");
    assert!((w - 0.2 * s).abs() < 1e-4, "{w} against 0.2 x {s}");
    assert!(
        weighed.files[0]
            .reason
            .contains("; built copy: a source map beside it;"),
        "{}",
        weighed.files[0].reason
    );
    // a factor of 1 weighs no copy and names none
    assert!(
        !whole.files[0].reason.contains("built copy"),
        "{}",
        whole.files[0].reason
    );
}

#[test]
fn the_code_shaped_terms_are_named_when_they_weigh_otherwise() {
    let t = parser_tree();
    let q = "read_header gzip";
    let mut shaped = Profile::default();
    shaped.task_ranking.code_tokens = 2.0;
    // the reason below is the code shape's alone
    shaped.task_ranking.defines_named = 0.0;
    let ranked = rank_candidates(&t, q, &shaped, 5);
    let parser = &ranked.files[0];
    assert_eq!(parser.path, "src/parser.rs");
    // `read_header` is a snake name, `gzip` a word: the two terms of the first are named
    assert!(
        parser
            .reason
            .contains("source file; code-shaped: `read`, `head`; line 1 holds 2"),
        "{}",
        parser.reason
    );
    // under a weight of 1 they weigh as words and none is named
    let ranked = rank_candidates(&t, q, &Profile::default(), 5);
    assert!(
        ranked
            .files
            .iter()
            .all(|f| !f.reason.contains("code-shaped")),
        "{ranked:?}"
    );
}

#[test]
fn the_coverage_rules_numbers_and_wording() {
    let t = parser_tree();
    let p = Profile::default();
    // one term of three in the tree; min_coverage 0.5 needs ceil(0.5 x 3) = 2
    let absent = rank_candidates(&t, "gzip kubernetes operator", &p, 5).absent;
    let held = Absent::InTree {
        held: 1,
        needed: 2,
        terms: 3,
    };
    assert_eq!(absent, Some(held));
    assert_eq!(
        held.to_string(),
        "the tree holds 1 of the question's 3 terms, fewer than the 2 its subject needs"
    );
    // `main` (gzip.rs) and `head` (parser.rs) are held, never together;
    // min_joint_coverage 0.4 needs ceil(0.4 x 3) = 2 in one file
    let absent = rank_candidates(&t, "main header kubernetes", &p, 5).absent;
    let apart = Absent::Together {
        most: 1,
        needed: 2,
        terms: 3,
    };
    assert_eq!(absent, Some(apart));
    assert_eq!(
        apart.to_string(),
        "no file holds 2 of the question's 3 terms together (the best holds 1)"
    );
    // a limit of 0 asks for nothing: no file, and no rule looked at
    assert_eq!(
        rank_candidates(&t, "gzip kubernetes operator", &p, 0),
        Ranking::default()
    );
}

/// Keeping a tree's statistics builds them into its slot and writes them beside its
/// index; a tree held in memory has no index to keep them beside.
#[test]
fn statistics_are_kept_beside_an_index_only() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    std::fs::create_dir_all(root.join("src")).unwrap();
    let path = root.join("src/gzip.rs");
    std::fs::write(&path, "pub fn read_header() {}\n").unwrap();
    // an hour old: statistics are kept only for files whose mtime is trusted
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(past).unwrap();
    let options = crate::tree::TreeOptions {
        cache_dir: Some(cache.path().to_path_buf()),
        ..Default::default()
    };
    let (tree, _) = Tree::index_and_load(&root, &options).unwrap();
    let profile = Profile::default();
    assert!(!FieldIndex::is_kept(&tree, &profile));
    assert!(keep_statistics(&tree, &profile));
    assert!(FieldIndex::is_kept(&tree, &profile));
    assert!(index_for(&tree, &profile).get().is_some());
    let memory = Tree::from_memory("m", [("a.md", "alpha\n")]);
    // statistics that cannot be kept are not built for nothing; a resident server warms
    // them in memory
    assert!(!keep_statistics(&memory, &profile));
    assert!(index_for(&memory, &profile).get().is_none());
    warm_statistics(&memory, &profile);
    assert!(index_for(&memory, &profile).get().is_some());
}

/// A subject's scope as written (`gzip:`): the file whose path names it scores its factor
/// (2 at the default weight, 1) times its own, the ranking's words being the same, and its
/// reason says so; the words alone (`rank_candidates` of the question as written, with the
/// scope's colon) rank as the words without a scope when the weight is 0.
#[test]
fn a_subjects_scope_weighs_the_files_it_names_by_its_factor() {
    let t = parser_tree();
    let words = "gzip read header";
    let scoped = rank_written(&t, words, "gzip: read header", &Profile::default(), 5);
    let plain = rank_written(&t, words, words, &Profile::default(), 5);
    let (s, p) = (
        score_of(&scoped, "src/gzip.rs"),
        score_of(&plain, "src/gzip.rs"),
    );
    assert!(p > 0.01, "{p}");
    assert!((s - 2.0 * p).abs() < 1e-3, "{s} against 2 x {p}");
    // a file out of the scope keeps its score
    let (s, p) = (
        score_of(&scoped, "src/parser.rs"),
        score_of(&plain, "src/parser.rs"),
    );
    assert!((s - p).abs() < 1e-9, "{s} {p}");
    let gzip = scoped
        .files
        .iter()
        .find(|f| f.path == "src/gzip.rs")
        .unwrap();
    assert!(
        gzip.reason.contains("; in the subject's scope `gzip`"),
        "{}",
        gzip.reason
    );
    assert!(plain.files.iter().all(|f| !f.reason.contains("scope")));
    let mut off = Profile::default();
    off.task_ranking.subject_scope = 0.0;
    let unweighed = rank_written(&t, words, "gzip: read header", &off, 5);
    let u = score_of(&unweighed, "src/gzip.rs");
    assert!((u - score_of(&plain, "src/gzip.rs")).abs() < 1e-9, "{u}");
}
