//! The merge of segments against the tables one segment gives: the same bytes whatever the
//! segments, spilled to files or kept in memory, and an index built in segments the same
//! as one built at once.

use super::*;
use crate::tree::postings::{words_of, Builder};
use crate::tree::symbols::{scan_file, Language, Symbol};
use crate::tree::TreeOptions;
use std::path::Path;

/// The sources of this crate: real files, real symbols and words.
fn sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths: Vec<_> = walk_rs(&root);
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p.display().to_string(), text)
        })
        .collect()
}

fn walk_rs(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk_rs(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The symbol table and posting lists of `files`, split into segments of `per_segment`
/// files, spilled through `scratch` and merged.
fn merged(
    files: &[(Vec<Symbol>, Vec<u8>)],
    per_segment: usize,
    scratch: &Scratch,
) -> (Vec<u8>, [Vec<u8>; 4]) {
    let mut segments = Vec::new();
    for (k, chunk) in files.chunks(per_segment).enumerate() {
        let table = SymbolTable::build(chunk.iter().map(|(s, _)| s.as_slice()));
        let mut builder = Builder::new();
        for (i, (_, words)) in chunk.iter().enumerate() {
            builder.add_listed((k * per_segment + i) as u32, words);
        }
        segments.push(Segment::spill(scratch, &table, &builder.finish()).unwrap());
    }
    let (table, postings) = merge(segments, scratch).unwrap().into_parts();
    (
        table.into_bytes().unwrap(),
        postings.map(|p| p.into_bytes().unwrap()),
    )
}

#[test]
fn segments_merged_are_the_tables_of_one_segment() {
    let files: Vec<(Vec<Symbol>, Vec<u8>)> = sources()
        .iter()
        .map(|(_, text)| {
            let symbols = scan_file(Language::Rust, text);
            (symbols, words_of(text.to_ascii_lowercase().as_bytes()))
        })
        .collect();
    assert!(files.len() > 2 * FAN_IN, "{} files", files.len());
    assert!(files.iter().map(|f| f.0.len()).sum::<usize>() > 1000);
    // the reference: one table and one builder over every file, no merge
    let table = SymbolTable::build(files.iter().map(|(s, _)| s.as_slice()));
    let mut builder = Builder::new();
    for (i, (_, words)) in files.iter().enumerate() {
        builder.add_listed(i as u32, words);
    }
    let enc = builder.finish();
    let reference: [&[u8]; 4] = [&enc.vocab, &enc.starts, &enc.offsets, &enc.lists];
    let dir = tempfile::tempdir().unwrap();
    // one file a segment (merged in groups, then the groups), a few, and all in one
    for per_segment in [1, 5, FAN_IN + 1, files.len()] {
        for scratch in [Scratch::memory(), Scratch::in_dir(dir.path().into(), "t")] {
            let (merged_table, merged_postings) = merged(&files, per_segment, &scratch);
            assert!(
                merged_table == table.bytes(),
                "symbol table, {per_segment} a segment"
            );
            for (part, (m, r)) in merged_postings.iter().zip(reference).enumerate() {
                assert!(m == r, "posting table {part}, {per_segment} a segment");
            }
        }
    }
    // every spilled file removed once read back
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let back = SymbolTable::from_bytes(crate::tree::blob::Blob::owned(table.bytes().to_vec()));
    assert_eq!(back.map(|t| t.len()), Some(table.len()));
}

#[test]
fn a_damaged_segment_is_an_error_not_a_panic() {
    let files: Vec<(Vec<Symbol>, Vec<u8>)> = sources()
        .iter()
        .take(4)
        .map(|(_, text)| (scan_file(Language::Rust, text), words_of(b"alpha beta")))
        .collect();
    let scratch = Scratch::memory();
    let mut segments = Vec::new();
    for (k, (symbols, words)) in files.iter().enumerate() {
        let table = SymbolTable::build(std::iter::once(symbols.as_slice()));
        let mut builder = Builder::new();
        builder.add_listed(k as u32, words);
        segments.push(Segment::spill(&scratch, &table, &builder.finish()).unwrap());
    }
    // the second segment's lists cut short: its offsets point past them
    if let Spilled::Memory(lists) = &mut segments[1].postings[3] {
        lists.clear();
    }
    let err = merge(segments, &scratch)
        .err()
        .expect("a damaged segment merged");
    assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof, "{err}");
}

/// The stamps, the symbol table and the posting tables of the index file at `path`.
fn parts_of(path: &Path) -> Vec<Vec<u8>> {
    use crate::tree::index_format::{HEADER_BYTES, PARTS};
    let bytes = std::fs::read(path).unwrap();
    let len_at = |i: usize| u64::from_le_bytes(bytes[20 + i * 8..28 + i * 8].try_into().unwrap());
    let mut at = HEADER_BYTES;
    let mut parts = Vec::new();
    for i in 0..PARTS {
        let len = len_at(i) as usize;
        parts.push(bytes[at..at + len].to_vec());
        at += len;
    }
    assert_eq!(at, bytes.len());
    parts.remove(0);
    parts
}

#[test]
fn an_index_built_in_segments_is_the_index_built_at_once() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let options = TreeOptions::default();
    let built = |segment_bytes: usize| {
        let cache = tempfile::tempdir().unwrap();
        let (tree, stats) =
            crate::tree::cache::open_in_segments(&root, &options, cache.path(), segment_bytes)
                .unwrap();
        assert_eq!(stats.write_error, None);
        let trees = cache.path().join("trees");
        let left: Vec<String> = std::fs::read_dir(&trees)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
        let paths: Vec<String> = tree.files().iter().map(|f| f.path.clone()).collect();
        (
            parts_of(&stats.cache_path),
            paths,
            stats.symbols,
            stats.words,
        )
    };
    let at_once = built(usize::MAX);
    assert!(at_once.2 > 1000 && at_once.3 > 1000, "{:?}", &at_once.2);
    for segment_bytes in [1, 256 << 10] {
        let segmented = built(segment_bytes);
        assert!(segmented == at_once, "{segment_bytes} bytes a segment");
    }
}

/// The records of the index at `path` over `root` (path, size, mtime, kind, name bag).
fn records_of(path: &Path, root: &Path) -> Vec<crate::tree::stamp::FileRecord> {
    let canonical = root.canonicalize().unwrap();
    let key = crate::tree::index_format::OptionsKey::of(&TreeOptions::default());
    let read = crate::tree::index_read::read_mapped(path, &canonical.to_string_lossy(), &key);
    read.unwrap().head.records.decode_all().unwrap()
}

/// A refresh takes every unchanged file from the last index, met in path order beside the
/// files found (`tree/reused_records.rs`), whether that index's records are still mapped
/// (`findbench index`) or were decoded to look for changes (a call): it reads only the
/// files changed or added, and writes the index a fresh build writes.
#[test]
fn a_refreshed_index_is_the_index_built_fresh_from_reading_only_what_changed() {
    let sources = sources();
    let root_dir = tempfile::tempdir().unwrap();
    let root = root_dir.path();
    let rels: Vec<String> = (0..sources.len())
        .map(|i| format!("m{}/s{i:03}.rs", i % 7))
        .collect();
    let an_hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
    };
    for (rel, (_, text)) in rels.iter().zip(&sources) {
        write(rel, text);
        // out of the racy window of the first build: trusted by the refresh
        let file = std::fs::File::options()
            .write(true)
            .open(root.join(rel))
            .unwrap();
        file.set_modified(an_hour_ago).unwrap();
    }
    let options = TreeOptions::default();
    let caches = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let built = crate::tree::cache::open_for_index(root, &options, caches[0].path()).unwrap();
    assert_eq!(built.1.files_read, sources.len());
    crate::tree::cache::open(root, &options, caches[1].path()).unwrap();

    // a fifth rewritten, a fifth removed, and more files added than a call lays over
    let mut read_again = 0;
    for (i, rel) in rels.iter().enumerate() {
        match i % 5 {
            0 => {
                write(
                    rel,
                    &format!("pub fn rewritten_{i}() {{}}\n{}", sources[i].1),
                );
                read_again += 1;
            }
            1 => std::fs::remove_file(root.join(rel)).unwrap(),
            // the same size, a letter changed: told by its mtime alone
            3 => {
                let mut text = sources[i].1.clone().into_bytes();
                if let Some(b) = text.iter_mut().find(|b| b.is_ascii_lowercase()) {
                    *b = b'a' + (*b - b'a' + 1) % 26;
                }
                write(rel, &String::from_utf8(text).unwrap());
                read_again += 1;
            }
            // grown, its mtime put back: told by its size alone
            4 if i % 10 == 4 => {
                write(rel, &format!("{}\n// grown\n", sources[i].1));
                let file = std::fs::File::options()
                    .write(true)
                    .open(root.join(rel))
                    .unwrap();
                file.set_modified(an_hour_ago).unwrap();
                read_again += 1;
            }
            _ => {}
        }
    }
    let added = crate::tree::edits::MAX_READ + 10;
    for i in 0..added {
        write(
            &format!("m{}/added_{i:03}.rs", i % 9),
            &format!("pub fn added_{i}() {{}}\n"),
        );
    }
    read_again += added;

    let fresh_cache = tempfile::tempdir().unwrap();
    let fresh = crate::tree::cache::open_for_index(root, &options, fresh_cache.path())
        .unwrap()
        .1;
    let refreshed = [
        crate::tree::cache::open_for_index(root, &options, caches[0].path())
            .unwrap()
            .1,
        crate::tree::cache::open(root, &options, caches[1].path())
            .unwrap()
            .1,
    ];
    for (k, stats) in refreshed.iter().enumerate() {
        let from = ["mapped records", "decoded records"][k];
        assert_eq!(stats.state, crate::tree::IndexState::Refreshed, "{from}");
        assert_eq!(stats.files_read, read_again, "{from}");
        assert_eq!(
            (stats.files, stats.symbols),
            (fresh.files, fresh.symbols),
            "{from}"
        );
        assert!(
            parts_of(&stats.cache_path) == parts_of(&fresh.cache_path),
            "{from}"
        );
        assert_eq!(
            records_of(&stats.cache_path, root),
            records_of(&fresh.cache_path, root),
            "{from}"
        );
    }
}
