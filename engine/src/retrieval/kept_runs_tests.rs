//! The statistics written a segment at a time against those written from memory, on
//! this crate's own sources and the repository's docs: the same bytes whatever the
//! segment's size, no temporary file left, and the same answers once kept.

use super::*;
use crate::retrieval::bm25f::FieldIndex;
use crate::retrieval::field_index::Terms;
use crate::tree::{Indexed, Tree, TreeOptions};

/// The files of this crate's `src/retrieval` and of the repository's `docs`, as (path,
/// text): code and prose, a few dozen files.
fn texts() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut texts = Vec::new();
    for (dir, under) in [("src/retrieval", "src/retrieval"), ("../docs", "docs")] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            texts.push((
                format!("{under}/{name}"),
                std::fs::read_to_string(&path).unwrap(),
            ));
        }
    }
    texts.sort();
    assert!(texts.len() > 30, "{}", texts.len());
    texts
}

/// The texts, with files that hold no term, a binary one, one that holds a word more
/// times than a posting counts, and enough small ones that a run a file makes more runs
/// than are merged at once ([`FAN_IN`]).
fn tree(texts: &[(String, String)]) -> Tree {
    let saturated = "word ".repeat(70_000);
    let small: Vec<(String, String)> = (0..FAN_IN)
        .map(|i| {
            let text = format!("fn small_{i}() {{ shared_{} word{i} }}\n", i % 5);
            (format!("small/{i:03}.rs"), text)
        })
        .collect();
    let mut files: Vec<(&str, &str)> = texts
        .iter()
        .chain(&small)
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    files.extend([
        ("empty.txt", ""),
        ("data.bin", "\0binary"),
        ("big.txt", saturated.as_str()),
        ("zz/1.txt", "1 2 3\n"),
    ]);
    Tree::from_memory("t", files)
}

/// What `kept::write` writes from the statistics built in memory.
fn written_from_memory(tree: &Tree, profile: &Profile, path: &Path, key: u64) {
    let built = FieldIndex::build(tree, profile);
    let Terms::Memory {
        vocabulary,
        postings,
    } = &built.terms
    else {
        panic!("built in memory");
    };
    let mut terms: Vec<(&str, &[Posting])> = vocabulary
        .iter()
        .map(|(t, &id)| (t.as_str(), postings[id as usize].as_slice()))
        .collect();
    terms.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let stats = kept::Statistics {
        lengths: &built.lengths,
        average: built.average,
        terms,
    };
    kept::write(path, key, &stats).unwrap();
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A segment of one posting (a run for each file), of seven, of a
/// thousand, and of the whole tree: the file written from memory, byte for byte, and
/// nothing else left beside it. An empty tree too, and averages measured on a sample.
#[test]
fn the_file_written_in_runs_is_the_one_written_from_memory() {
    let texts = texts();
    let tree = tree(&texts);
    let dir = tempfile::tempdir().unwrap();
    let memory = dir.path().join("memory.fields");
    let runs = dir.path().join("runs.fields");
    let mut sampled = Profile::default();
    sampled.task_ranking.length_sample = 5;
    for profile in [Profile::default(), sampled] {
        written_from_memory(&tree, &profile, &memory, 42);
        let expected = std::fs::read(&memory).unwrap();
        assert!(expected.len() > 10_000, "{}", expected.len());
        for budget in [1, 7, 1000, SEGMENT_POSTINGS] {
            let written = write(&tree, &profile, &runs, 42, budget).unwrap();
            match budget {
                // every file holds a term, of its path at least
                1 => assert_eq!(written, tree.len(), "budget 1"),
                7 | 1000 => assert!(written > 3, "budget {budget}: {written} runs"),
                _ => assert_eq!(written, 1),
            }
            assert!(
                std::fs::read(&runs).unwrap() == expected,
                "budget {budget}: the bytes differ"
            );
            assert_eq!(names_in(dir.path()), ["memory.fields", "runs.fields"]);
        }
    }
    let empty = Tree::from_memory("e", std::iter::empty::<(&str, &str)>());
    written_from_memory(&empty, &Profile::default(), &memory, 1);
    assert_eq!(write(&empty, &Profile::default(), &runs, 1, 1), Ok(0));
    assert_eq!(
        std::fs::read(&runs).unwrap(),
        std::fs::read(&memory).unwrap()
    );
}

/// A write that fails after its runs are written (the kept file's name taken by a
/// directory), or before (its directory is a file), leaves no temporary file.
#[test]
fn a_failed_write_leaves_no_temporary_file() {
    let texts = texts();
    let tree = tree(&texts);
    let dir = tempfile::tempdir().unwrap();
    let taken = dir.path().join("t.fields");
    std::fs::create_dir(&taken).unwrap();
    std::fs::write(taken.join("inside"), "x").unwrap();
    for budget in [1, 1000, SEGMENT_POSTINGS] {
        let err = write(&tree, &Profile::default(), &taken, 1, budget).unwrap_err();
        assert!(err.contains("t.fields"), "{err}");
        assert_eq!(names_in(dir.path()), ["t.fields"], "budget {budget}");
        assert_eq!(names_in(&taken), ["inside"]);
    }
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    assert!(write(&tree, &Profile::default(), &file.join("t.fields"), 1, 1).is_err());
    assert_eq!(names_in(dir.path()), ["file", "t.fields"]);
}

/// Writes `texts` under `root`, an hour old (statistics are kept only for files whose
/// mtime is trusted).
fn write_tree(root: &Path, texts: &[(String, String)]) {
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for (path, text) in texts {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        let f = std::fs::File::options().write(true).open(&p).unwrap();
        f.set_modified(past).unwrap();
    }
}

/// `texts` written under `root` (their mtimes trusted), and the options of a tree whose
/// index is kept under `cache`.
fn written_and_cached(root: &Path, cache: &Path, texts: &[(String, String)]) -> TreeOptions {
    write_tree(root, texts);
    TreeOptions {
        cache_dir: Some(cache.to_path_buf()),
        ..TreeOptions::default()
    }
}

/// The statistics of a tree from the kept index are written in runs and read from disk,
/// and rank as those built in memory; when they cannot be written they are built in
/// memory, and answer the same.
#[test]
fn statistics_kept_in_runs_answer_as_those_built_in_memory() {
    let texts = texts();
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let options = written_and_cached(dir.path(), cache.path(), &texts);
    let memory = Tree::load(
        dir.path(),
        &TreeOptions {
            no_cache: true,
            ..options.clone()
        },
    )
    .unwrap();
    let profile = Profile::default();
    let built = FieldIndex::build(&memory, &profile);
    let questions = [
        "where are the kept statistics written",
        "how is the average field length estimated",
        "posting varint delta",
    ];
    let ranked = |tree: &Tree| -> Vec<Vec<(String, String)>> {
        questions
            .iter()
            .map(|q| {
                crate::retrieval::rank_files(tree, q, &profile, 10)
                    .into_iter()
                    .map(|f| (f.path, format!("{:.9}", f.score)))
                    .collect()
            })
            .collect()
    };
    let expected = ranked(&memory);
    assert!(expected.iter().all(|r| r.len() >= 3), "{expected:?}");
    for writable in [true, false] {
        let (tree, _) = Tree::index_and_load(dir.path(), &options).unwrap();
        let path = kept::path_beside(&tree.kept().unwrap().index_path);
        let _ = std::fs::remove_file(&path);
        if !writable {
            // the kept file's name taken: it cannot be written
            std::fs::create_dir(&path).unwrap();
        }
        let index = FieldIndex::for_tree(&tree, &profile);
        assert_eq!(matches!(index.terms, Terms::Kept(_)), writable);
        assert_eq!(FieldIndex::is_kept(&tree, &profile), writable);
        assert_eq!(
            (index.average, &index.lengths),
            (built.average, &built.lengths)
        );
        for term in ["kept", "averag", "post", "delta", "varint", "absent"] {
            let (k, b) = (index.holding(term).unwrap(), built.holding(term).unwrap());
            assert_eq!(k.files(), b.files(), "{term}");
            for f in b.files() {
                assert_eq!(k.tf_of(f), b.tf_of(f), "{term} in {f}");
            }
        }
        assert_eq!(ranked(&tree), expected, "writable {writable}");
        let trees = path.parent().unwrap();
        assert!(
            names_in(trees).iter().all(|n| !n.starts_with('.')),
            "{:?}",
            names_in(trees)
        );
        if !writable {
            std::fs::remove_dir(&path).unwrap();
        }
    }
}

/// A run's varints read back as `put_varint` wrote them, a byte of 0x80 (a value's low
/// seven bits all zero, with more to come) included, and a cut one is an error.
#[test]
fn a_run_reads_its_varints_back() {
    let values = [0u32, 1, 127, 128, 256, 300, 16_384, 2_097_152, u32::MAX];
    let mut bytes = Vec::new();
    for v in values {
        put_varint(&mut bytes, v);
    }
    // 128 is written 0x80 0x01
    assert_eq!(&bytes[3..5], &[0x80, 0x01]);
    let mut reader = &bytes[..];
    for v in values {
        assert_eq!(read_varint(&mut reader).unwrap(), v);
    }
    assert!(read_varint(&mut reader).is_err(), "past the end");
    let mut cut = &[0x80u8][..];
    assert!(
        read_varint(&mut cut).is_err(),
        "a continuation byte with nothing after it"
    );
}

/// What `findbench index` keeps after a build, a refresh or no change, counted from the
/// index's records a batch at a time (`tree/record_files.rs`), is byte for byte what is
/// kept from the tree of the same index; after a few changes laid over the index it counts
/// what the tree holds as the tree with those changes counts it.
#[test]
fn statistics_kept_from_the_records_are_those_kept_from_the_tree() {
    let mut texts = texts();
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let options = written_and_cached(dir.path(), cache.path(), &texts);
    let profile = Profile::default();
    let kept_from_tree = |path: &Path| {
        let _ = std::fs::remove_file(path);
        let (tree, stats) = Tree::index_and_load(dir.path(), &options).unwrap();
        assert!(crate::retrieval::keep_statistics(&tree, &profile));
        let counts = (stats.files, stats.text_files, stats.symbols, stats.report);
        (std::fs::read(path).unwrap(), counts)
    };
    // built, then refreshed (more files changed than are laid over the index), then as is
    for (step, expect_records) in [("built", true), ("refreshed", true), ("unchanged", true)] {
        if step == "refreshed" {
            for (i, (_, text)) in texts.iter_mut().enumerate().take(300) {
                text.push_str(&format!("\nrefreshed_word_{i} kept records\n"));
            }
            texts.push(("src/added.rs".into(), "fn added_after() {}\n".into()));
            write_tree(dir.path(), &texts);
            // the directories' mtimes out of the racy window too, so that the next index
            // finds nothing changed
            let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
            for d in ["", "src", "src/retrieval", "docs"] {
                let d = std::fs::File::open(dir.path().join(d)).unwrap();
                d.set_modified(past).unwrap();
            }
        }
        let (indexed, stats) = Tree::index_for_statistics(dir.path(), &options).unwrap();
        assert_eq!(
            matches!(indexed, Indexed::Records(_)),
            expect_records,
            "{step}: {:?}",
            stats.state
        );
        assert_eq!(stats.files, texts.len(), "{step}");
        assert!(crate::retrieval::keep_index_statistics(&indexed, &profile));
        let stamp = match &indexed {
            Indexed::Records(files) => files.kept().unwrap().clone(),
            Indexed::Tree(tree) => tree.kept().unwrap().clone(),
        };
        drop(indexed);
        let path = kept::path_beside(&stamp.index_path);
        let from_records = std::fs::read(&path).unwrap();
        let counts = (stats.files, stats.text_files, stats.symbols, stats.report);
        // the same bytes, and the same counts of what the index holds
        assert_eq!((from_records, counts), kept_from_tree(&path), "{step}");
    }
    // two files edited, one added, one removed: laid over the index, their records kept
    // beside it, the statistics kept under the index's stamp as they were
    let kept_before = std::fs::read(kept::path_beside(&cache_index(cache.path()))).unwrap();
    for (_, text) in texts.iter_mut().take(2) {
        text.push_str("\nedited_after_the_index\n");
    }
    write_tree(dir.path(), &texts[..2]);
    let added = (
        "src/retrieval/added_later.rs".to_string(),
        "fn added_later() {}\n".to_string(),
    );
    write_tree(dir.path(), std::slice::from_ref(&added));
    let removed = texts.pop().unwrap();
    std::fs::remove_file(dir.path().join(&removed.0)).unwrap();
    texts.push(added);
    let (indexed, stats) = Tree::index_for_statistics(dir.path(), &options).unwrap();
    assert!(matches!(indexed, Indexed::Records(_)), "{:?}", stats.state);
    assert_eq!(stats.state, crate::tree::IndexState::ChangesKept);
    assert_eq!((stats.files, stats.files_read), (texts.len(), 3));
    assert!(crate::retrieval::keep_index_statistics(&indexed, &profile));
    drop(indexed);
    let kept_after = std::fs::read(kept::path_beside(&cache_index(cache.path()))).unwrap();
    assert!(
        kept_after == kept_before,
        "the kept statistics were written again"
    );
    let (tree, tree_stats) = Tree::index_and_load(dir.path(), &options).unwrap();
    assert_eq!(tree_stats.state, crate::tree::IndexState::ChangesKept);
    assert_eq!(tree.len(), texts.len());
    let counts = |s: &crate::tree::IndexStats| (s.files, s.text_files, s.symbols, s.report.clone());
    assert_eq!(counts(&stats), counts(&tree_stats));
}

/// The one index file under `cache`.
fn cache_index(cache: &Path) -> std::path::PathBuf {
    let trees = cache.join("trees");
    let mut found = std::fs::read_dir(&trees)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "idx"));
    let index = found.next().unwrap();
    assert!(found.next().is_none());
    index
}
