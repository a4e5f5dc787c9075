//! Tests of `find path`: results, typos, the byte tests and the bounds against alignment.

use super::find::{find_path, find_path_in_listing};
use super::listing::Listing;
use super::pattern::Pat;
use super::prefilter::{greedy_prefix, subsequence_without};
use super::request::{PathMatch, PathRequest};
use super::scorer::Scorer;
use super::scratch::Scratch;
use super::typo::{droppable, typo_matches, MAX_TYPO_QUERY};
use crate::profile::PathWeights;
use crate::tree::paths::{bag_of, fold_bytes, PathList};

/// True when every byte of `q` occurs in `path` in order.
fn is_subsequence(q: &[u8], path: &[u8]) -> bool {
    let mut at = 0;
    for &c in q {
        match memchr::memchr(c, &path[at..]) {
            Some(i) => at += i + 1,
            None => return false,
        }
    }
    true
}

fn list() -> PathList {
    PathList::from_text(
        "t",
        "src/auth_middleware.py\nsrc/middleware/auth.py\ntests/test_auth_middleware.py\n\
         docs/authoring/middle/ware.md\nsrc/main.rs\nREADME.md\nsrc/FindService.cpp\n\
         lib/a/b/c/d/auth_middleware.py\n",
    )
}

fn run(q: &str) -> Vec<PathMatch> {
    let mut r = PathRequest::new(q);
    r.limit = 20;
    find_path(&list(), &r, &PathWeights::default())
        .unwrap()
        .matches
}

fn paths(m: &[PathMatch]) -> Vec<&str> {
    m.iter().map(|x| x.path.as_str()).collect()
}

#[test]
fn exact_name_ranks_first_and_shallow_above_deep() {
    let m = run("auth_middleware");
    assert_eq!(m[0].path, "src/auth_middleware.py");
    let p = paths(&m);
    let deep = p
        .iter()
        .position(|x| *x == "lib/a/b/c/d/auth_middleware.py")
        .unwrap();
    assert!(deep > 0);
    assert!(m[0].score > m[deep].score);
}

#[test]
fn positions_are_the_matched_characters() {
    let m = run("main");
    assert_eq!(m[0].path, "src/main.rs");
    assert_eq!(m[0].positions, [4, 5, 6, 7]);
    assert_eq!(
        m[0].reason,
        "1 consecutive run, boundary at `/`, in file name"
    );
}

#[test]
fn filename_ranks_above_directory() {
    // `auth` is the file name of one and a directory part of the other
    let m = run("auth");
    let p = paths(&m);
    let name = p
        .iter()
        .position(|x| *x == "src/middleware/auth.py")
        .unwrap();
    let dir = p
        .iter()
        .position(|x| *x == "docs/authoring/middle/ware.md")
        .unwrap();
    assert!(name < dir, "{p:?}");
}

#[test]
fn boundary_and_camel_hump_bonus() {
    let m = run("fs");
    assert_eq!(
        m[0].path, "src/FindService.cpp",
        "F at `/`, S at a hump: {m:?}"
    );
    assert_eq!(m[0].positions, [4, 8]);
}

#[test]
fn typos_find_the_file_below_true_matches() {
    for q in [
        "authmidlware",
        "atuh_middleware",
        "auth_midleware",
        "auth_middelware",
    ] {
        let m = run(q);
        assert!(
            paths(&m).contains(&"src/auth_middleware.py"),
            "{q}: {:?}",
            paths(&m)
        );
        let first_typo = m.iter().position(|x| x.score < 0.5);
        let last_true = m.iter().rposition(|x| x.score >= 0.5);
        if let (Some(t), Some(e)) = (first_typo, last_true) {
            assert!(e < t, "{q}: typo match above a true one");
        }
    }
    let m = run("atuh_middleware");
    assert!(m[0].score < 0.5 && m[0].reason.starts_with("one-letter typo"));
    // `authmidlware` is a true subsequence of auth_middleware
    assert!(run("authmidlware")[0].score >= 0.5);
}

#[test]
fn short_queries_get_no_typo_tolerance() {
    assert!(run("mian").is_empty());
    assert!(run("zzzzzz").is_empty());
}

#[test]
fn ties_break_by_length_then_bytes() {
    let l = PathList::from_text("t", "b/x.rs\na/x.rs\nc/xx.rs\n");
    let m = find_path(&l, &PathRequest::new("x"), &PathWeights::default()).unwrap();
    assert_eq!(paths(&m.matches)[..2], ["a/x.rs", "b/x.rs"]);
}

#[test]
fn non_ascii_positions_are_characters() {
    let l = PathList::from_text("t", "docs/Ärger/straße.md\n");
    let m = find_path(&l, &PathRequest::new("straße"), &PathWeights::default()).unwrap();
    assert_eq!(m.matches[0].positions, [11, 12, 13, 14, 15, 16]);
}

#[test]
fn full_case_folding_finds_sharp_s_and_ligatures() {
    let l = PathList::from_text(
        "t",
        "docs/Ärger/straße.txt\nSTRASSE.md\nsrc/ﬁle_util.rs\nsrc/other.rs\n",
    );
    let run = |q: &str| find_path(&l, &PathRequest::new(q), &PathWeights::default()).unwrap();
    let m = run("STRASSE");
    let p = paths(&m.matches);
    assert!(p.contains(&"docs/Ärger/straße.txt"), "{p:?}");
    let hit = m
        .matches
        .iter()
        .find(|x| x.path == "docs/Ärger/straße.txt")
        .unwrap();
    assert!(hit.score >= 0.5, "a true match, not a typo: {hit:?}");
    // s t r a ß(ss) e: `ß` is one character of the path, reported once
    assert_eq!(hit.positions, [11, 12, 13, 14, 15, 16]);
    // and the other way round
    let m = run("straße");
    assert_eq!(paths(&m.matches)[0], "STRASSE.md");
    assert_eq!(m.matches[0].positions, [0, 1, 2, 3, 4, 5, 6]);
    // `ﬁ` folds to `fi`: both query letters land on the one ligature
    let m = run("fileutil");
    assert_eq!(paths(&m.matches), ["src/ﬁle_util.rs"]);
    assert_eq!(m.matches[0].positions, [4, 5, 6, 8, 9, 10, 11]);
    // characters after an unaligned one still report the right offsets
    let m = run("txt");
    assert_eq!(m.matches[0].positions, [18, 19, 20]);
}

#[test]
fn droppable_finds_each_typo_kind() {
    let p = b"src/auth_middleware.py";
    assert!(droppable(b"atuh", p).count() > 0);
    assert_eq!(droppable(b"auth_midxdleware", p).collect::<Vec<_>>(), [8]);
}

#[test]
fn pattern_bytes_are_found_as_byte_by_byte() {
    let path: Vec<u8> = b"Src/AUTH_mw.py/\x01\x21aA\xc3\x9f/zZ.x-9 q"
        .iter()
        .copied()
        .cycle()
        .take(61)
        .collect();
    for byte in [
        b'a', b's', b'/', b'.', b'z', b'9', b' ', b'!', 0x01, 0xc3, 0x9f, b'q',
    ] {
        let p = Pat::of(byte);
        let hit = |b: u8| {
            if byte.is_ascii_lowercase() {
                b.to_ascii_lowercase() == byte
            } else {
                b == byte
            }
        };
        for from in 0..=path.len() {
            let want = path[from..].iter().position(|&b| hit(b)).map(|i| from + i);
            assert_eq!(p.find(&path, from), want, "{byte} from {from}");
            let want = path[..from].iter().rposition(|&b| hit(b));
            assert_eq!(p.rfind(&path, from), want, "{byte} before {from}");
        }
    }
}

#[test]
fn typo_matches_is_droppable_not_empty() {
    let paths: [&[u8]; 5] = [
        b"src/auth_middleware.py",
        b"a",
        b"",
        b"usr/lib/python3/dist-packages/pyhton.py",
        b"xyzzy/zyx",
    ];
    let queries: [&[u8]; 10] = [
        b"atuh",
        b"auth_midxdleware",
        b"authmw",
        b"zzzz",
        b"ab",
        b"a",
        b"pyhton3",
        b"python3",
        b"xyzzyx",
        b"yzx",
    ];
    for p in paths {
        for q in queries {
            let pattern: Vec<Pat> = q.iter().map(|&c| Pat::of(c)).collect();
            let mut pre = [0u32; MAX_TYPO_QUERY + 1];
            let matched = greedy_prefix(&pattern, p, Some(&mut pre));
            assert_eq!(matched == q.len(), is_subsequence(q, p));
            for skip in 0..q.len() {
                let without = [&q[..skip], &q[skip + 1..]].concat();
                assert_eq!(
                    subsequence_without(&pattern, p, skip),
                    is_subsequence(&without, p)
                );
            }
            // the scan asks only of paths that `q` is not a subsequence of
            if matched == q.len() {
                continue;
            }
            // as read from the path in capitals
            let upper = p.to_ascii_uppercase();
            let mut pre_upper = [0u32; MAX_TYPO_QUERY + 1];
            let matched_upper = greedy_prefix(&pattern, &upper, Some(&mut pre_upper));
            assert_eq!(
                typo_matches(&pattern, &upper, &pre_upper, matched_upper),
                droppable(q, p).next().is_some()
            );
            assert_eq!(
                typo_matches(&pattern, p, &pre, matched),
                droppable(q, p).next().is_some(),
                "{:?} in {:?}",
                String::from_utf8_lossy(q),
                String::from_utf8_lossy(p)
            );
        }
    }
}

/// Paths of every shape the bound cares about: deep and shallow, capitals and humps,
/// separators, long file names, repeated letters, non-ASCII.
fn generated(n: usize) -> PathList {
    PathList::from_text("generated", &generated_text(n))
}

/// The listing [`generated`] indexes, one path per line.
fn generated_text(n: usize) -> String {
    let parts = [
        "usr",
        "lib",
        "python3",
        "dist-packages",
        "share",
        "doc",
        "include",
        "linux",
        "sched.h",
        "locale",
        "FindService",
        "auth_middleware",
        "x86_64-linux-gnu",
        "a.b",
        "Straße",
        "LC_MESSAGES",
        "py",
        "libpython3.11.so",
        "copyright",
        "bin",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |k: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % k as u64) as usize
    };
    let mut text = String::new();
    for _ in 0..n {
        let depth = 1 + next(6);
        let mut p: Vec<&str> = (0..depth).map(|_| parts[next(parts.len())]).collect();
        if next(4) == 0 {
            p.insert(0, "");
        }
        text.push_str(&p.join("/"));
        text.push('\n');
    }
    text
}

const QUERIES: [&str; 14] = [
    "usrlibpy",
    "bin/python",
    "share/doc/copyright",
    "lcale",
    "include/linux/sched.h",
    "pyhton3",
    "fs",
    "a",
    "py",
    "straße",
    "LCmsg",
    "auth_mw",
    "libpyhton",
    "sahre/dcx",
];

#[test]
fn the_bound_is_never_below_a_score() {
    let list = generated(3000);
    let w = PathWeights::default();
    let mut all_typos = 0;
    for query in QUERIES {
        let mut q = Vec::new();
        fold_bytes(query, &mut q);
        let scorer = Scorer::new(&q, &w);
        let (mut scratch, mut fold, mut checked) = (Scratch::default(), Vec::new(), 0);
        for i in 0..list.len() {
            let bytes = list.scan_bytes(i);
            if greedy_prefix(&scorer.pattern, bytes, None) < q.len() {
                continue;
            }
            let c = scorer.view(&list, i, &mut fold);
            let raw = scorer.align(&q, c.path, c.text, c.name, &mut scratch, false);
            let score = scorer.normalise(raw.unwrap(), c.depth, q.len());
            let bound = scorer.bound(&list, i, list.scan_bytes(i), bytes);
            assert!(
                bound >= score,
                "{query} {}: {bound} < {score}",
                list.path(i)
            );
            checked += 1;
        }
        assert!(checked > 0, "{query}");
        // and a typo candidate's
        let mut typos = 0usize;
        for i in 0..list.len() {
            let (bag, bytes) = list.scan(i);
            let Some(mut hit) = scorer
                .classify(&list, i, bag, bytes)
                .filter(|h| h.tier == 1)
            else {
                continue;
            };
            let bound = scorer.typo_bound(&list, &hit);
            scorer.score_typo(&list, &mut hit, &mut scratch);
            assert!(
                bound >= hit.score,
                "{query} {}: {bound} < {}",
                list.path(i),
                hit.score
            );
            typos += 1;
        }
        all_typos += typos;
    }
    assert!(all_typos > 100, "{all_typos} typo candidates");
}

#[test]
fn classify_agrees_with_folded_subsequence_tests() {
    // the scan's tests on unfolded text, against the plain ones on folded bytes
    let mut list = generated(2000);
    for p in [
        "\u{f}.rs",
        "A/\u{e}B",
        "Ünïcödé/ﬁle.PY",
        "x/\u{1}2/.",
        "LIB/PYthon3.md",
    ] {
        list.push(p);
    }
    let w = PathWeights::default();
    let queries =
        QUERIES
            .iter()
            .copied()
            .chain(["/.", "o.rs", "ﬁle", "pyhotn", "a/b", "libpyhton", "xx/yy"]);
    for query in queries {
        let mut q = Vec::new();
        fold_bytes(query, &mut q);
        let scorer = Scorer::new(&q, &w);
        for i in 0..list.len() {
            let folded = list.folded(i);
            let cut = &folded[folded.len().saturating_sub(w.max_path_len)..];
            let want = if is_subsequence(&q, cut) {
                Some(0)
            } else if scorer.typo
                && (scorer.bag & !bag_of(&folded)).count_ones() <= 1
                && droppable(&q, cut).next().is_some()
            {
                Some(1)
            } else {
                None
            };
            let (bag, bytes) = list.scan(i);
            let got = scorer.classify(&list, i, bag, bytes).map(|h| h.tier);
            assert_eq!(got, want, "{query} in {:?}", list.path(i));
        }
    }
}

#[test]
fn skipping_changes_no_result_at_any_limit_or_thread_count() {
    let list = generated(6_000);
    let w = PathWeights::default();
    for query in QUERIES {
        // the whole ranking: no limit is reached, nothing is skipped
        let mut all = PathRequest::new(query);
        all.limit = list.len() + 1;
        let all = find_path(&list, &all, &w).unwrap();
        for limit in [1, 3, 10, 50] {
            for threads in [1, 2, 4] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let mut r = PathRequest::new(query);
                r.limit = limit;
                let got = pool.install(|| find_path(&list, &r, &w).unwrap());
                let want = &all.matches[..limit.min(all.matches.len())];
                assert_eq!(got.matches, want, "{query} limit {limit} threads {threads}");
                assert_eq!(
                    got.summary.total_matches, all.summary.total_matches,
                    "{query} limit {limit} threads {threads}"
                );
            }
        }
    }
}

#[test]
fn summary_counts_all_matches() {
    let mut r = PathRequest::new("a");
    r.limit = 2;
    let resp = find_path(&list(), &r, &PathWeights::default()).unwrap();
    assert_eq!(resp.summary.returned, 2);
    assert!(resp.summary.truncated && resp.summary.total_matches > 2);
}

#[test]
fn a_listing_answers_as_its_index_does() {
    // every kind of line a listing holds: blank, `\r\n`, non-ASCII, not UTF-8, and a last
    // line without a newline
    let mut bytes = generated_text(5_000).into_bytes();
    for extra in [
        &b"\n\r\n/usr/lib/Stra\xc3\x9fe/x.py\r\n"[..],
        b"\xef\xac\x81le/LIB/python3.md\n\n",
        b"bad/\xff\xfe/lib/py\n",
        b"\r\n/usr/share/doc/copyright\r\n",
        b"sched/\xce\xa3igma/include.h",
    ] {
        bytes.extend_from_slice(extra);
    }
    let listing = Listing::from_bytes("listing", bytes.clone());
    let list = PathList::from_bytes("listing", bytes);
    assert_eq!(listing.len(), list.len());
    assert_eq!(listing.listing_bytes(), list.listing_bytes());
    let w = PathWeights::default();
    let queries = QUERIES.iter().copied().chain([
        "straße", "ﬁle", "ssx", "sigma", "/bad/lib", "\u{fffd}", "pyth0n",
    ]);
    for query in queries {
        for limit in [1, 10, list.len() + 1] {
            let mut r = PathRequest::new(query);
            r.limit = limit;
            let want = find_path(&list, &r, &w).unwrap();
            for threads in [1, 3] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let got = pool.install(|| find_path_in_listing(&listing, &r, &w).unwrap());
                assert_eq!(got, want, "{query} limit {limit} threads {threads}");
            }
        }
    }
}

#[test]
fn a_listing_answers_random_queries_as_its_index_does() {
    // queries cut from the listing's own paths, some with a letter changed, so that each
    // has true matches, typo matches and ties
    let text = generated_text(4_000);
    let listing = Listing::from_bytes("listing", text.clone().into_bytes());
    let list = PathList::from_text("listing", &text);
    let lines: Vec<&str> = text.lines().collect();
    let w = PathWeights::default();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |k: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % k as u64) as usize
    };
    for _ in 0..60 {
        let line: Vec<char> = lines[next(lines.len())].chars().collect();
        let start = next(line.len());
        let len = 1 + next(12.min(line.len() - start));
        let mut query: Vec<char> = line[start..start + len].to_vec();
        if next(3) == 0 {
            let at = next(query.len());
            query[at] = ['x', 'q', '/', 'e'][next(4)];
        }
        let query: String = query.into_iter().filter(|&c| c != ' ').collect();
        if query.trim().is_empty() {
            continue;
        }
        let mut r = PathRequest::new(query.as_str());
        r.limit = [1, 5, 20][next(3)];
        let want = find_path(&list, &r, &w).unwrap();
        let got = find_path_in_listing(&listing, &r, &w).unwrap();
        assert_eq!(got, want, "{query:?} limit {}", r.limit);
    }
}
