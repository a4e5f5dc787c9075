//! A test and its subject: a question whose words a test file holds is about the file the
//! test exercises, and a task changes that file more often than its test.
//!
//! The subject's file name is what the test's name is without the pattern that makes it a
//! test (`code.test_names`): the first run a `*` matches, with the test's extension
//! (`walk_test.go` -> `walk.go`, `test_walk.py` -> `walk.py`, `WalkTest.java` ->
//! `Walk.java`, `walk.spec.ts` -> `walk.ts`); a file that is a test by its directory alone
//! (`test/walk.js`) names a file of its own name. Of the source files so named, the one
//! sharing most leading directories with the test is its subject (then the shorter path,
//! then path order).

use super::best_files::Scored;
use super::kind::FileKind;
use crate::profile::Profile;
use crate::tree::Tree;
use std::collections::HashMap;

/// The file name a test named `name` tests, by the first pattern of `patterns` it matches.
pub fn subject_name(name: &str, patterns: &[String]) -> String {
    for pattern in patterns {
        if let Some(stem) = first_capture(pattern.as_bytes(), name.as_bytes()) {
            let stem = &name[stem.0..stem.1];
            if stem.is_empty() {
                continue;
            }
            return match name.rsplit_once('.') {
                Some((_, ext)) if !stem.ends_with(&format!(".{ext}")) => format!("{stem}.{ext}"),
                _ => stem.to_string(),
            };
        }
    }
    name.to_string()
}

/// For each test file of `tests` (indices into the tree's files), its subject: a source
/// file, not a test, named as [`subject_name`] says, nearest to it.
pub fn subjects(tree: &Tree, profile: &Profile, tests: &[u32]) -> HashMap<u32, u32> {
    let files = tree.files();
    let file_name = |i: u32| {
        let p = &files[i as usize].path;
        p.rsplit('/').next().unwrap_or(p).to_string()
    };
    let wanted: HashMap<u32, String> = tests
        .iter()
        .map(|&t| (t, subject_name(&file_name(t), &profile.code.test_names)))
        .collect();
    let mut named: HashMap<&str, Vec<u32>> =
        wanted.values().map(|n| (n.as_str(), vec![])).collect();
    for (i, f) in files.iter().enumerate() {
        let name = f.path.rsplit('/').next().unwrap_or(&f.path);
        if let Some(list) = named.get_mut(name) {
            if FileKind::of(f, profile) == FileKind::Source {
                list.push(i as u32);
            }
        }
    }
    let shared = |a: &str, b: &str| {
        let (da, db) = (
            a.rsplit_once('/').map_or("", |d| d.0),
            b.rsplit_once('/').map_or("", |d| d.0),
        );
        da.split('/')
            .zip(db.split('/'))
            .take_while(|(x, y)| x == y && !x.is_empty())
            .count()
    };
    let mut out = HashMap::new();
    for (&test, name) in &wanted {
        let test_path = &files[test as usize].path;
        let best = named[name.as_str()].iter().copied().max_by(|&a, &b| {
            let (pa, pb) = (&files[a as usize].path, &files[b as usize].path);
            shared(test_path, pa)
                .cmp(&shared(test_path, pb))
                .then(pb.len().cmp(&pa.len()))
                .then(pb.cmp(pa))
        });
        if let Some(subject) = best {
            out.insert(test, subject);
        }
    }
    out
}

/// Lifts the subject of each test among the best `depth` of `ranked`: its score rises by
/// `tested_subject` times the best score of a test of it (a subject not ranked enters with
/// that score). Returns each lifted subject with the test that lifted it.
pub(super) fn lift_subjects(
    tree: &Tree,
    profile: &Profile,
    ranked: &mut Vec<Scored>,
    depth: usize,
) -> HashMap<u32, u32> {
    let share = profile.task_ranking.tested_subject;
    if share <= 0.0 {
        return HashMap::new();
    }
    let best = depth.min(ranked.len());
    let tests: Vec<u32> = ranked[..best]
        .iter()
        .filter(|s| s.kind == FileKind::Test)
        .map(|s| s.file)
        .collect();
    if tests.is_empty() {
        return HashMap::new();
    }
    let subject_of = subjects(tree, profile, &tests);
    // each subject's best test, in the order of the ranking
    let mut lift: Vec<(u32, u32, f64)> = Vec::new();
    for s in &ranked[..best] {
        let Some(&subject) = subject_of.get(&s.file) else {
            continue;
        };
        if !lift.iter().any(|l| l.0 == subject) {
            lift.push((subject, s.file, share * s.score));
        }
    }
    let mut tested_by = HashMap::new();
    for (subject, test, add) in lift {
        match ranked.iter_mut().find(|s| s.file == subject) {
            Some(entry) => entry.score += add,
            None => ranked.push(Scored {
                file: subject,
                score: add,
                found: Vec::new(),
                lines: None,
                kind: FileKind::of(&tree.files()[subject as usize], profile),
            }),
        }
        tested_by.insert(subject, test);
    }
    tested_by
}

/// The byte range of `text` the first `*` of `pattern` matches, when `pattern` (`*`-only
/// glob) matches the whole of `text`; the empty range at 0 when it has no `*`.
fn first_capture(pattern: &[u8], text: &[u8]) -> Option<(usize, usize)> {
    fn matches(p: &[u8], t: &[u8]) -> bool {
        match p.split_first() {
            None => t.is_empty(),
            Some((b'*', rest)) => (0..=t.len()).any(|k| matches(rest, &t[k..])),
            Some((c, rest)) => t.first() == Some(c) && matches(rest, &t[1..]),
        }
    }
    let Some(star) = pattern.iter().position(|&b| b == b'*') else {
        return (pattern == text).then_some((0, 0));
    };
    if !text.starts_with(&pattern[..star]) {
        return None;
    }
    // the shortest run that lets the rest match: `a.spec.ts` by `*.spec.*` is `a`
    (star..=text.len())
        .find(|&end| matches(&pattern[star + 1..], &text[end..]))
        .map(|end| (star, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_names_the_file_it_tests() {
        let patterns = Profile::default().code.test_names;
        for (test, subject) in [
            ("walk_test.go", "walk.go"),
            ("test_walk.py", "walk.py"),
            ("WalkTest.java", "Walk.java"),
            ("walk.spec.ts", "walk.ts"),
            ("walk.test.js", "walk.js"),
            ("walk.js", "walk.js"),
        ] {
            assert_eq!(subject_name(test, &patterns), subject, "{test}");
        }
    }

    #[test]
    fn the_subject_is_the_nearest_source_file_of_that_name() {
        let tree = Tree::from_memory(
            "t",
            [
                (
                    "gson/src/main/java/com/google/gson/JsonReader.java",
                    "class JsonReader {}\n",
                ),
                (
                    "gson/src/test/java/com/google/gson/JsonReaderTest.java",
                    "class JsonReaderTest {}\n",
                ),
                (
                    "extras/src/main/java/JsonReader.java",
                    "class JsonReader {}\n",
                ),
                ("tests/test_parser.py", "def test_parse(): pass\n"),
                ("src/click/parser.py", "def parse(): pass\n"),
                ("docs/parser.py", "x = 1\n"),
                ("tests/test_orphan.py", "def test_orphan(): pass\n"),
            ],
        );
        let profile = Profile::default();
        let index = |p: &str| tree.files().iter().position(|f| f.path == p).unwrap() as u32;
        let tests = [
            index("gson/src/test/java/com/google/gson/JsonReaderTest.java"),
            index("tests/test_parser.py"),
            index("tests/test_orphan.py"),
        ];
        let found = subjects(&tree, &profile, &tests);
        let path = |t: u32| {
            found
                .get(&t)
                .map(|&s| tree.files()[s as usize].path.as_str())
        };
        assert_eq!(
            path(tests[0]),
            Some("gson/src/main/java/com/google/gson/JsonReader.java")
        );
        // of two sources named `parser.py` sharing no directory with it, the shorter path
        assert_eq!(path(tests[1]), Some("docs/parser.py"));
        assert_eq!(path(tests[2]), None);
    }

    /// A pattern whose run keeps the extension (`test_*` on `test_walk.py` matches
    /// `walk.py`) names that run, without a second extension; one that does not names the
    /// run with the test's extension.
    #[test]
    fn a_run_that_keeps_the_extension_is_the_whole_name() {
        let patterns = vec!["test_*".to_string(), "*-check.*".to_string()];
        assert_eq!(subject_name("test_walk.py", &patterns), "walk.py");
        assert_eq!(subject_name("walk-check.rs", &patterns), "walk.rs");
        // no pattern matches: the test's own name
        assert_eq!(subject_name("walk.rs", &patterns), "walk.rs");
        // an empty run names nothing: the next pattern, then the name itself
        assert_eq!(subject_name("test_", &patterns), "test_");
    }

    /// The byte range the first `*` matches, worked by hand: the shortest run that lets the
    /// rest match, `None` when the text is not the pattern's, and the empty range at 0 for
    /// a pattern with no `*` that is the whole text.
    #[test]
    fn the_first_star_matches_the_shortest_run() {
        assert_eq!(first_capture(b"*.spec.*", b"a.spec.ts"), Some((0, 1)));
        assert_eq!(first_capture(b"*_test.*", b"walk_test.go"), Some((0, 4)));
        assert_eq!(first_capture(b"test_*.py", b"test_walk.py"), Some((5, 9)));
        assert_eq!(first_capture(b"*Test.java", b"WalkTest.java"), Some((0, 4)));
        assert_eq!(first_capture(b"test_*.py", b"walk.py"), None);
        assert_eq!(first_capture(b"*_test.*", b"walk.go"), None);
        assert_eq!(first_capture(b"*_test.*", b"walk_test"), None);
        assert_eq!(first_capture(b"Makefile", b"Makefile"), Some((0, 0)));
        assert_eq!(first_capture(b"Makefile", b"makefile"), None);
    }

    /// Of two sources of the test's subject name, the one sharing more leading directories
    /// with the test, though its path is longer: `a/bb/x/t_test.go` shares `a/bb` with
    /// `a/bb/q/t.go` and only `a` with `a/z/w/t.go`.
    #[test]
    fn more_shared_directories_outweigh_a_shorter_path() {
        let tree = Tree::from_memory(
            "t",
            [
                ("a/bb/x/t_test.go", "package x\n"),
                ("a/bb/q/t.go", "package q\n"),
                ("a/z/w/t.go", "package w\n"),
            ],
        );
        let index = |p: &str| tree.files().iter().position(|f| f.path == p).unwrap() as u32;
        let test = index("a/bb/x/t_test.go");
        let found = subjects(&tree, &Profile::default(), &[test]);
        assert_eq!(found.get(&test), Some(&index("a/bb/q/t.go")));
    }

    /// Worked by hand with `tested_subject` 0.5 and a depth of 4: `walk_test.go` (4.0)
    /// lifts `walk.go` from 1.0 by 0.5 x 4.0 to 3.0, once (`walk.test.go`, a lower test of
    /// it, adds nothing); `read_test.go` (2.0) brings in the unranked `read.go` at
    /// 0.5 x 2.0 = 1.0; `other_test.go`, below the depth, lifts nothing.
    #[test]
    fn each_subject_rises_by_its_best_tests_share_once() {
        let tree = Tree::from_memory(
            "t",
            [
                ("src/walk.go", "package src\n"),
                ("src/walk_test.go", "package src\n"),
                ("src/walk.test.go", "package src\n"),
                ("src/read.go", "package src\n"),
                ("src/read_test.go", "package src\n"),
                ("src/other.go", "package src\n"),
                ("src/other_test.go", "package src\n"),
            ],
        );
        let mut profile = Profile::default();
        profile.task_ranking.tested_subject = 0.5;
        let index = |p: &str| tree.files().iter().position(|f| f.path == p).unwrap() as u32;
        let plain = Profile::default();
        let scored = |path: &str, score: f64| Scored {
            file: index(path),
            score,
            found: Vec::new(),
            lines: None,
            kind: FileKind::of(&tree.files()[index(path) as usize], &plain),
        };
        let start = || {
            vec![
                scored("src/walk_test.go", 4.0),
                scored("src/read_test.go", 2.0),
                scored("src/walk.test.go", 1.5),
                scored("src/walk.go", 1.0),
                scored("src/other.go", 0.5),
                scored("src/other_test.go", 0.25),
            ]
        };
        let mut ranked = start();
        let tested_by = lift_subjects(&tree, &profile, &mut ranked, 4);
        let scores: Vec<(&str, f64)> = ranked
            .iter()
            .map(|s| (tree.files()[s.file as usize].path.as_str(), s.score))
            .collect();
        assert_eq!(
            scores,
            [
                ("src/walk_test.go", 4.0),
                ("src/read_test.go", 2.0),
                ("src/walk.test.go", 1.5),
                ("src/walk.go", 3.0),
                ("src/other.go", 0.5),
                ("src/other_test.go", 0.25),
                ("src/read.go", 1.0),
            ]
        );
        assert_eq!(ranked[6].kind, FileKind::Source);
        let mut lifted: Vec<(u32, u32)> = tested_by.into_iter().collect();
        lifted.sort();
        let mut expected = vec![
            (index("src/walk.go"), index("src/walk_test.go")),
            (index("src/read.go"), index("src/read_test.go")),
        ];
        expected.sort();
        assert_eq!(lifted, expected);
        // a share of 0 lifts nothing
        profile.task_ranking.tested_subject = 0.0;
        let mut ranked = start();
        assert!(lift_subjects(&tree, &profile, &mut ranked, 4).is_empty());
        assert_eq!(ranked.len(), 6);
        assert_eq!(ranked[3].score, 1.0);
    }
}
