//! Tests of the first call's passes over the files and of the keys and words it looks up.

use super::word_search::non_ascii_runs;
use super::*;
use crate::text::camel::snake_letters;
use crate::text::fold::fold;
use crate::tree::symbols::scan_file;
use crate::tree::symbols::SymbolList;
use memchr::memmem;

#[test]
fn runs_with_non_ascii_characters_are_found_from_them() {
    let text = "© 2024 Café crème, straße—ok naïve_x1 ascii";
    let runs: Vec<&str> = non_ascii_runs(text, |_| true).collect();
    assert_eq!(runs, ["Café", "crème", "straße", "naïve"]);
}

/// What a file held before the pass searched raw bytes: the lossily decoded text's
/// ASCII-folded copy searched for every word, and the Unicode folding of its runs
/// outside ASCII for a word missed in a text that is not ASCII.
fn held_by_the_decoded_text(text: &str, words: &Words, ids: std::ops::Range<usize>) -> u128 {
    let folded = text.to_ascii_lowercase();
    let runs: Vec<String> = non_ascii_runs(text, |_| true).map(fold).collect();
    ids.filter(|&id| {
        let finder = memmem::Finder::new(&words.list[id]);
        finder.find(folded.as_bytes()).is_some()
            || (!text.is_ascii() && runs.iter().any(|r| finder.find(r.as_bytes()).is_some()))
    })
    .fold(0, |mask, id| mask | 1 << id)
}

/// A tree loaded without its kept index (none in `cache`) of files whose text searched as bytes
/// could differ from their decoded text: mixed case, invalid UTF-8, letters outside
/// ASCII, a binary file, a file over the size limit, an empty one; and the same tree
/// read into memory (each file's kind and text as `read_content` gives them).
fn unindexed_tree(root: &std::path::Path, cache: &std::path::Path) -> (Tree, Tree) {
    let files: [(&str, &[u8]); 11] = [
        (
            "mixed.rs",
            b"pub fn RePlay_Cursor() {}\n// IMPLEMENTED in REPLAY\n",
        ),
        (
            "invalid.rs",
            b"fn a\xffb() {}\n// re\xfeplay CURSOR \xc3 cut \xe2\x82 x\n",
        ),
        (
            "cafe.py",
            "def Café():\n    pass  # naïve STRAẞE \u{212A}elvin\n".as_bytes(),
        ),
        (
            "accents.md",
            "Crème brûlée: a café, not a cafe; execute".as_bytes(),
        ),
        (
            "replacement.txt",
            "a literal \u{FFFD} in valid text".as_bytes(),
        ),
        // other scripts (whose folding adds no ASCII letter) around Latin letters with
        // diacritics, which fold into ASCII words the bytes do not hold
        (
            "scripts.md",
            "Привет мир: cursor日本語 and дcafé; Ра\u{301}бота r\u{e9}play ΚΈΛΒΙΝ".as_bytes(),
        ),
        ("binary.rs", b"fn replay_cursor() {}\0"),
        ("big.rs", &[b'x'; 20_000]),
        ("empty.rs", b""),
        // both words of `replay_cursor`, in two names, never one after the other
        ("apart.rs", b"fn replay() {}\nfn x_cursor() {}\n"),
        (
            "late_nul.rs",
            &[b"fn replay_cursor() {}\n".as_slice(), &[b' '; 9000], b"\0"].concat(),
        ),
    ];
    for (name, bytes) in files {
        std::fs::write(root.join(name), bytes).unwrap();
    }
    let options = crate::tree::TreeOptions {
        max_file_bytes: 16 << 10,
        cache_dir: Some(cache.to_path_buf()),
        ..Default::default()
    };
    let tree = Tree::load(root, &options).unwrap();
    assert!(tree.is_unindexed());
    // every file read into memory as the walk without a cache reads it
    let no_cache = crate::tree::TreeOptions {
        no_cache: true,
        ..options
    };
    (tree, Tree::load(root, &no_cache).unwrap())
}

/// The pass over a file's bytes holds what the decoded text held, word for word, in
/// every file and over two rounds (the second searching only words added since), scans
/// the symbols of the files that hold a key's words, and learns every file's kind from
/// its read (none is probed).
#[test]
fn the_pass_over_bytes_holds_what_the_decoded_text_held() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let (tree, read) = unindexed_tree(dir.path(), cache.path());
    let files = tree.files();
    let mut words = Words::default();
    let first = [
        "replay",
        "CURSOR",
        "implemented",
        "ab",
        "cut",
        "x",
        "cafe",
        "café",
        "naive",
    ];
    let second = [
        "strasse",
        "kelvin",
        "\u{FFFD}",
        "creme",
        "brûlée",
        "fn",
        "привет",
        "日本",
    ];
    let key_replay_cursor = PassKey::new("replay_cursor", &mut words);
    for w in first {
        words.id(w.as_bytes());
    }
    let mut held = vec![0u128; files.len()];
    let mut symbols = unscanned(files);
    // ranking terms among the words: `implement` (a stem, held by `implemented`) and
    // `cut` (whose letters `cutter` and `execute` hold, as a term or not)
    let term_ids = bit(words.id(b"implement")) | bit(words.ids[&b"cut"[..]]);
    let mut as_terms = vec![0u128; files.len()];
    // the sample's lengths measured by the passes as they read (every file of this small
    // tree in the first; in the second, which reads no file known to hold no text, seven
    // of them) are those the statistics measure by reading each sampled file
    let every = crate::profile::Profile::default();
    let mut seven = every.clone();
    seven.task_ranking.length_sample = 7;
    let measured = |profile: &crate::profile::Profile| -> Vec<crate::retrieval::Sampled> {
        crate::retrieval::length_sample(&tree, profile.task_ranking.length_sample)
            .into_iter()
            .map(|i| {
                let mut bytes = Vec::new();
                crate::retrieval::sampled_lengths(&files[i], profile, 0, &mut bytes)
            })
            .collect()
    };
    // the first pass counts its sampled files for the ranking terms as it measures them
    let rank_terms = vec!["implement".to_string(), "cut".to_string()];
    let first_measures = Measures::new(&tree, &every, &rank_terms);
    let first_pass = Pass {
        words: &words,
        searched: 0,
        keys: &[],
        ahead: &[],
        term_ids,
        measures: Some(&first_measures),
    };
    scan(&tree, &first_pass, &mut held, &mut as_terms, &mut symbols);
    let (first_sample, counted) = first_measures.into_sample().unwrap();
    assert_eq!(first_sample.len(), files.len());
    assert_eq!(first_sample, measured(&every));
    // each file counted as the ranking would count it, for those terms only
    let mut counted_terms = 0;
    for (i, f) in files.iter().enumerate() {
        let mut bytes = Vec::new();
        let read = f.read_into(&mut bytes);
        let counts =
            crate::retrieval::counted_of_read(f, &every, &rank_terms, read.then_some(&bytes[..]));
        let ahead = counted.get(&rank_terms, i as u32);
        if read {
            assert_eq!(ahead, Some(&counts), "{}", f.path);
            counted_terms += counts.0 .1.len();
        }
        assert_eq!(counted.get(&rank_terms[..1], i as u32), None);
    }
    assert!(counted_terms > 1, "{counted_terms}");
    assert!(first_sample
        .iter()
        .any(|s| s.1 > 0 && s.0.iter().all(|&n| n > 0)));
    let searched = words.list.len();
    let key_cafe = PassKey::new("cafe", &mut words);
    for w in second {
        words.id(w.as_bytes());
    }
    let keys = [key_replay_cursor, key_cafe];
    let second_measures = Measures::new(&tree, &seven, &[]);
    scan(
        &tree,
        &Pass {
            words: &words,
            searched,
            keys: &keys,
            ahead: &[],
            term_ids,
            measures: Some(&second_measures),
        },
        &mut held,
        &mut as_terms,
        &mut symbols,
    );
    assert_eq!(second_measures.into_sample().unwrap().0, measured(&seven));
    for (i, f) in files.iter().enumerate() {
        let content = &read.files()[i];
        assert_eq!(content.path, f.path);
        assert_eq!(f.known_kind(), Some(content.content_kind()), "{}", f.path);
        let want = content.text().map_or(0, |text| {
            held_by_the_decoded_text(text, &words, 0..words.list.len())
        });
        assert_eq!(held[i], want, "{}: {:b} != {want:b}", f.path, held[i]);
        // a ranking term is held as a term where the decoded text's terms hold it
        let text_terms = content
            .text()
            .map(crate::retrieval::tokens::terms)
            .unwrap_or_default();
        let want_terms = (0..TRACKED)
            .filter(|&id| term_ids & bit(id) != 0)
            .filter(|&id| text_terms.iter().any(|t| t.as_bytes() == words.list[id]))
            .fold(0u128, |m, id| m | bit(id));
        assert_eq!(as_terms[i], want_terms, "{}", f.path);
        // a key's words held, and for `replay_cursor` its letters one after the other:
        // the keys the file is scanned for, and what a lookup of them finds kept
        let wanted: Vec<String> = content.text().map_or(Vec::new(), |text| {
            let mut letters = Vec::new();
            snake_letters(text, &mut letters);
            let letters = String::from_utf8(letters).unwrap();
            let held = |w: &str| want & 1 << words.ids[w.as_bytes()] != 0;
            let replay_cursor =
                held("replay") && held("cursor") && letters.contains("replaycursor");
            [("cafe", held("cafe")), ("replay_cursor", replay_cursor)]
                .into_iter()
                .filter(|(_, wanted)| *wanted)
                .map(|(key, _)| key.to_string())
                .collect()
        });
        let want_symbols = match (f.language, content.text()) {
            (None, _) | (_, None) => Scanned::Whole(PackedSymbols::default()),
            (Some(_), _) if wanted.is_empty() => Scanned::Not,
            (Some(language), Some(text)) => Scanned::for_keys(&scan_file(language, text), wanted),
        };
        assert_eq!(symbols[i], want_symbols, "{}", f.path);
    }
    // the cases the comparison must meet, by name
    let holds = |path: &str, word: &str| {
        let i = files.iter().position(|f| f.path == path).unwrap();
        held[i] & 1 << words.ids[word.as_bytes()] != 0
    };
    assert!(holds("mixed.rs", "replay") && holds("mixed.rs", "implemented"));
    assert!(holds("invalid.rs", "replay") == holds("invalid.rs", "ab"));
    assert!(!holds("invalid.rs", "ab") && holds("invalid.rs", "cursor"));
    assert!(holds("invalid.rs", "\u{FFFD}") && holds("replacement.txt", "\u{FFFD}"));
    assert!(holds("cafe.py", "cafe") && holds("cafe.py", "café"));
    // `cut`'s letters in `execute` are no term; the word `cut` is
    let as_term = |path: &str, word: &str| {
        let i = files.iter().position(|f| f.path == path).unwrap();
        as_terms[i] & 1 << words.ids[word.as_bytes()] != 0
    };
    assert!(holds("accents.md", "cut") && !as_term("accents.md", "cut"));
    assert!(as_term("invalid.rs", "cut") && as_term("mixed.rs", "implement"));
    assert!(holds("cafe.py", "naive") && holds("cafe.py", "strasse"));
    assert!(holds("cafe.py", "kelvin") && holds("accents.md", "creme"));
    assert!(holds("late_nul.rs", "replay") && !holds("binary.rs", "replay"));
    assert!(!holds("big.rs", "x") && !holds("empty.rs", "x"));
    let scanned = |path: &str| &symbols[files.iter().position(|f| f.path == path).unwrap()];
    for path in ["mixed.rs", "cafe.py", "late_nul.rs"] {
        assert_ne!(*scanned(path), Scanned::Not, "{path}");
    }
    // a lookup of `replay_cursor` finds `replay_cursor`, kept, not `re_play_cursor`
    assert_eq!(scanned("late_nul.rs").symbols().count(), 1);
    assert_eq!(scanned("mixed.rs").symbols().count(), 0);
    assert_eq!(scanned("cafe.py").keys(), ["cafe"]);
    // its words held, its letters not: never scanned
    assert!(holds("apart.rs", "replay") && holds("apart.rs", "cursor"));
    assert_eq!(*scanned("apart.rs"), Scanned::Not);
    // the walk knew nothing of the content; the pass's reads told the tree all of it
    let report = tree.report();
    assert_eq!((report.binary, report.too_large), (1, 1), "{report:?}");
}

#[test]
fn the_keys_and_grep_words_of_a_question() {
    let profile = Profile::default();
    let question = "where is the cursor binary";
    let plan = planner::plan(question, &profile.planner);
    let (keys, grep) = looked_up(question, plan.as_ref(), &profile);
    assert!(keys.contains(&"cursor_binary".to_string()), "{keys:?}");
    // a word of the term alone waits for the cascade to look it up
    assert!(!keys.contains(&"binary".to_string()), "{keys:?}");
    assert!(grep.contains(&b"binary".to_vec()), "{grep:?}");
}

/// The keys scanned before the cascade runs when the first round's keys name nothing: each
/// word of a term of several words, for a question that is not a task; none when a file's
/// name is a key or holds every word (a `find` of the term may find it by its name).
#[test]
fn the_words_alone_are_looked_up_when_no_key_of_the_first_round_names_anything() {
    let profile = Profile::default();
    let words_alone = |question: &str, profile: &Profile| {
        words_alone(planner::plan(question, &profile.planner).as_ref(), profile)
    };
    assert_eq!(
        words_alone("find cursor binary", &profile),
        ["cursor", "binary"]
    );
    // one word: no word to look up alone
    assert!(words_alone("where is replay implemented", &profile).is_empty());
    // a task: ranked by its words when the whole term names nothing, never looked up alone
    assert!(words_alone("where is the deserializer for yaml anchors", &profile).is_empty());
    let mut no_fallback = Profile::default();
    no_fallback.planner.word_fallback = false;
    assert!(words_alone("find cursor binary", &no_fallback).is_empty());
    let named = |names: &[&str]| {
        let dir = tempfile::tempdir().unwrap();
        let cache = tempfile::tempdir().unwrap();
        for name in names {
            std::fs::write(dir.path().join(name), "fn other() {}\n").unwrap();
        }
        let options = crate::tree::TreeOptions {
            cache_dir: Some(cache.path().to_path_buf()),
            ..Default::default()
        };
        let tree = Tree::load(dir.path(), &options).unwrap();
        let keys = [
            "cursor_binary".to_string(),
            "find_cursor_binary".to_string(),
        ];
        named_by_a_file(tree.files(), &keys, &["cursor".into(), "binary".into()])
    };
    assert!(!named(&["cursor.rs", "binary.rs", "other.rs"]));
    assert!(named(&["cursor.rs", "CursorBinary.rs"]));
    assert!(named(&["binary_cursor_test.rs"]));
}

/// The term's words alone are scanned for in the first pass, ahead of the round that looks
/// them up, while no file is scanned for one of the round's keys: when none is, every file
/// that may declare them is scanned for them, and the next round has none left to read.
#[test]
fn the_words_alone_are_scanned_ahead_while_no_key_names_anything() {
    let scanned = |files: &[(&str, &str)]| {
        let dir = tempfile::tempdir().unwrap();
        let cache = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        let options = crate::tree::TreeOptions {
            cache_dir: Some(cache.path().to_path_buf()),
            ..Default::default()
        };
        let tree = Tree::load(dir.path(), &options).unwrap();
        assert!(tree.is_unindexed());
        let mut words = Words::default();
        let keys = [PassKey::new("cursor_binary", &mut words)];
        let ahead = [
            PassKey::new("cursor", &mut words),
            PassKey::new("binary", &mut words),
        ];
        let n = tree.len();
        let (mut held, mut as_terms) = (vec![0u128; n], vec![0u128; n]);
        let mut symbols = unscanned(tree.files());
        let pass = Pass {
            words: &words,
            searched: 0,
            keys: &keys,
            ahead: &ahead,
            term_ids: 0,
            measures: None,
        };
        let counts = scan(&tree, &pass, &mut held, &mut as_terms, &mut symbols);
        let by_name: Vec<(String, Scanned)> = tree
            .files()
            .iter()
            .map(|f| f.path.clone())
            .zip(symbols)
            .collect();
        (counts, by_name)
    };
    let files = [
        ("a.rs", "fn cursor_move() {}\nfn other() {}\n"),
        ("b.rs", "struct BinaryReader;\n"),
        ("c.md", "cursor binary\n"),
        ("d.rs", "fn unrelated() {}\n"),
    ];
    let (counts, by_name) = scanned(&files);
    assert_eq!(counts, (0, 2));
    let find = |name: &str| &by_name.iter().find(|(n, _)| n == name).unwrap().1;
    assert!(find("a.rs").answers("cursor") && !find("a.rs").answers("binary"));
    assert_eq!(find("a.rs").symbols().count(), 1);
    assert!(find("b.rs").answers("binary") && !find("b.rs").answers("cursor"));
    assert_eq!(*find("d.rs"), Scanned::Not);
    // a file scanned for the round's key: counted apart (the words alone are then not
    // needed; files read before it may have been scanned for them)
    let mut named = files.to_vec();
    named.push(("e.rs", "fn cursor_binary() {}\n"));
    let ((for_keys, all), by_name) = scanned(&named);
    assert_eq!(for_keys, 1);
    assert!(all >= 1);
    let e = &by_name.iter().find(|(n, _)| n == "e.rs").unwrap().1;
    assert!(e.answers("cursor_binary"));
}

proptest::proptest! {
    /// [`word_search::ids_in`] gives the ids of the bits a mask holds, ascending, as trying
    /// every tracked id does.
    #[test]
    fn the_ids_of_a_mask_are_its_bits(high in proptest::prelude::any::<u64>(), low in proptest::prelude::any::<u64>()) {
        let mask = (u128::from(high) << 64) | u128::from(low);
        let tried: Vec<usize> = (0..TRACKED).filter(|&id| mask & bit(id) != 0).collect();
        let found: Vec<usize> = word_search::ids_in(mask).collect();
        proptest::prop_assert_eq!(found, tried);
    }
}
