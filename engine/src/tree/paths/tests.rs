//! Tests of `PathList`: loading, folding and the views `find path` scans.

use super::*;

fn name_depth(list: &PathList, i: usize) -> (usize, u32) {
    let mut buf = Vec::new();
    let v = list.view(i, &mut buf);
    (v.name, v.depth)
}

#[test]
fn spans_names_and_depths() {
    let list = PathList::from_text("t", "src/Auth_Middleware.py\r\n\nREADME.md\n");
    assert_eq!(list.len(), 2);
    assert_eq!(list.path(0), "src/Auth_Middleware.py");
    assert_eq!(&*list.folded(0), b"src/auth_middleware.py");
    assert_eq!(name_depth(&list, 0), (4, 1));
    assert_eq!(name_depth(&list, 1), (0, 0));
    assert_eq!(list.listing_bytes(), 22 + 9 + 2);
}

#[test]
fn listing_and_pushed_paths_agree() {
    let text = "a/B_c.rs\r\n\nx\nd/e/f.txt\nü/Straße/ΩMEGA.md";
    let listed = PathList::from_text("t", text);
    let mut pushed = PathList::with_capacity("t", 0, 0);
    let given = ["a/B_c.rs", "x", "d/e/f.txt", "ü/Straße/ΩMEGA.md"];
    for p in given {
        pushed.push(p);
    }
    assert_eq!(listed.len(), 4);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for (i, p) in given.iter().enumerate() {
        assert_eq!(listed.path(i), pushed.path(i));
        assert_eq!(listed.folded(i), pushed.folded(i));
        assert_eq!(listed.bag(i), pushed.bag(i));
        assert_eq!(listed.scan(i), (listed.bag(i), listed.scan_bytes(i)));
        let (va, vb) = (listed.view(i, &mut a), pushed.view(i, &mut b));
        assert_eq!((va.folded, va.shape), (vb.folded, vb.shape));
        assert_eq!((va.name, va.depth), (vb.name, vb.depth));
        // the view, the bag and the folding of the path as one text agree
        let mut folded = Vec::new();
        fold_bytes(p, &mut folded);
        assert_eq!(va.folded, &folded[..]);
        assert_eq!(&*listed.folded(i), &folded[..]);
        assert_eq!(listed.bag(i), bag_of(&folded));
        assert_eq!(listed.shape(i), va.shape);
    }
    assert_eq!(listed.listing_bytes(), pushed.listing_bytes());
}

#[test]
fn a_listing_indexed_in_pieces_is_the_listing_indexed_whole() {
    // several pieces' worth, with non-ASCII lines, CRLF and blank lines throughout
    let mut given = Vec::new();
    let mut text = String::new();
    for i in 0..40_000 {
        let p = match i % 7 {
            0 => format!("src/Straße/{i}.rs"),
            1 => format!("docs/ﬁle_{i}.md"),
            _ => format!("lib/a{i}/b/C_{i}.py"),
        };
        text.push_str(&p);
        text.push_str(if i % 5 == 0 { "\r\n\n" } else { "\n" });
        given.push(p);
    }
    assert!(pieces(text.as_bytes()).len() > 1 || rayon::current_num_threads() == 1);
    let mut pushed = PathList::default();
    for p in &given {
        pushed.push(p);
    }
    let owned = PathList::from_text("t", &text);
    let shared = PathList::from_shared("t", Arc::new(text.clone().into_bytes()));
    assert!(matches!(shared.text, Text::Shared(_)));
    for list in [&owned, &shared] {
        assert_eq!(list.len(), given.len());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for (i, p) in given.iter().enumerate() {
            assert_eq!(list.path(i), p);
            let (va, vb) = (list.view(i, &mut a), pushed.view(i, &mut b));
            assert_eq!((va.folded, va.shape), (vb.folded, vb.shape), "{p}");
            assert_eq!(list.origin(i, 6), pushed.origin(i, 6), "{p}");
        }
    }
    // bytes that are not UTF-8, late in the listing: shown lossily, as from a Vec
    let mut odd = text.into_bytes();
    odd.extend_from_slice(b"caf\xe9.rs\n");
    let shared = PathList::from_shared("t", Arc::new(odd.clone()));
    let owned = PathList::from_bytes("t", odd);
    assert!(matches!(shared.text, Text::Owned(_)));
    assert_eq!(shared.path(given.len()), "caf\u{fffd}.rs");
    assert_eq!(owned.path(given.len()), "caf\u{fffd}.rs");
}

#[test]
fn ascii_bags_read_off_the_text_are_folded_bags() {
    // every ASCII byte, upper case and punctuation included, in paths of every length
    // the four-at-a-time loop splits differently
    let all: String = (1u8..128)
        .map(char::from)
        .filter(|c| *c != '\n' && *c != '\r')
        .collect();
    for len in 0..12 {
        for start in 0..all.len().saturating_sub(len) {
            let p = &all[start..start + len];
            let mut list = PathList::default();
            list.push(p);
            let mut folded = Vec::new();
            fold_bytes(p, &mut folded);
            assert_eq!(list.bag(0), bag_of(&folded), "{p:?}");
        }
    }
}

#[test]
fn bags_are_subsets() {
    let q = bag_of(b"auth");
    let list = PathList::from_text("t", "src/auth.py\nsrc/main.py");
    assert_eq!(list.bag(0) & q, q);
    assert_ne!(list.bag(1) & q, q);
}

#[test]
fn folding_is_full_case_folding() {
    let mut out = Vec::new();
    fold_bytes("Straße/ÄRGER/ﬁle", &mut out);
    assert_eq!(String::from_utf8(out).unwrap(), "strasse/arger/file");
}

#[test]
fn unaligned_paths_map_folded_bytes_back() {
    let text = "a/ΩMEGA.md\nStraße/X.txt\r\nb/ﬁ.rs\nÄrger.md";
    let listed = PathList::from_text("t", text);
    let mut pushed = PathList::with_capacity("t", 0, 0);
    for p in ["a/ΩMEGA.md", "Straße/X.txt", "b/ﬁ.rs", "Ärger.md"] {
        pushed.push(p);
    }
    for list in [&listed, &pushed] {
        assert_eq!(list.len(), 4);
        // `Ω` folds to `ω`, one character of the same length: aligned
        assert_eq!(list.origin(0, 3), 3);
        assert_eq!(&*list.folded(0), "a/ωmega.md".as_bytes());
        assert_eq!(list.shape(0), "a/ΩMEGA.md".as_bytes());
        assert_eq!(list.path(1), "Straße/X.txt");
        assert_eq!(&*list.folded(1), b"strasse/x.txt");
        assert_eq!(list.shape(1), b"Strasse/X.txt");
        assert_eq!(name_depth(list, 1), (8, 1));
        // `ß` folds to two characters: both `s` come from it, at byte 4
        assert_eq!((list.origin(1, 4), list.origin(1, 5)), (4, 4));
        assert_eq!(list.origin(1, 6), 6);
        assert_eq!(&*list.folded(2), b"b/fi.rs");
        assert_eq!(list.origin(2, 3), 2);
        assert_eq!(list.origin(2, 4), 5);
        // `Ä` loses its diacritic: one byte standing for two
        assert_eq!(&*list.folded(3), b"arger.md");
        assert_eq!((list.origin(3, 0), list.origin(3, 1)), (0, 2));
    }
    // only the non-ASCII paths are folded when listed
    assert_eq!(listed.folds.len(), 4);
    let ascii = PathList::from_text("t", "a/b.rs\nC/D.md\n");
    assert!(ascii.folds.is_empty());
    assert_eq!(ascii.span(1).folded, ASCII);
}

#[test]
fn a_path_list_past_its_32_bit_offsets_is_refused_by_name() {
    let list = Path::new("/data/all-paths.txt");
    assert!(check_listing_size(list, MAX_LISTING_BYTES).is_ok());
    let e = check_listing_size(list, MAX_LISTING_BYTES + 1).unwrap_err();
    assert_eq!(e.exit_code(), 2);
    let text = e.to_string();
    assert!(
        text.starts_with("/data/all-paths.txt: the path list is 4294967296 bytes"),
        "{text}"
    );
    assert!(text.contains("split it"), "{text}");
}
