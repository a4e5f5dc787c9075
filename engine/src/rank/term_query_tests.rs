//! Term matching against values worked by hand: each kind of exact and typo hit, the
//! field weights, the mean over the terms, the phrase bonus and the exact title, each
//! scored both from the items' text and narrowed by the store's word index (the flags of
//! `TermQuery::candidates`), which must agree; the candidates themselves; and the flags
//! read in place of the text, shown with a word index of other texts.

use super::*;
use crate::item::Item;
use crate::store::Store;
use TaskField::{Description, Labels, Notes, Title};

const ALL: [TaskField; 4] = TaskField::ALL;

/// Weights no two of which multiply, divide or add to another's value by chance.
fn weights() -> TaskWeights {
    TaskWeights {
        title: 2.0,
        description: 0.5,
        labels: 0.25,
        notes: 1.5,
        whole_word: 0.8,
        word_prefix: 0.6,
        mid_word: 0.4,
        typo_word: 0.7,
        typo_prefix: 0.3,
        min_typo_len: 5,
        exact_floor: 0.1,
        exact_span: 0.5,
        typo_floor: 0.05,
        typo_span: 0.25,
        phrase_bonus: 0.125,
        exact_ceiling: 10.0,
        exact_title: 3.0,
        ..TaskWeights::default()
    }
}

/// An item's title, description, labels and notes.
type Fields<'a> = (&'a str, &'a str, &'a [&'a str], &'a [&'a str]);

fn store(items: &[Fields]) -> Store {
    let items = items
        .iter()
        .enumerate()
        .map(|(i, (title, description, labels, notes))| {
            let item = serde_json::json!({
                "id": format!("T{i}"),
                "title": title,
                "description": description,
                "labels": labels,
                "notes": notes,
            });
            serde_json::from_value::<Item>(item).unwrap()
        })
        .collect();
    Store::from_items("terms", items).unwrap()
}

fn titles(titles: &[&'static str]) -> Store {
    let items: Vec<Fields> = titles.iter().map(|t| (*t, "", &[][..], &[][..])).collect();
    store(&items)
}

type Scored = Option<(f64, Vec<TaskField>)>;
type Want<'a> = Option<(f64, &'a [TaskField])>;

/// Every item's score, each matched against its text.
fn scored(store: &Store, query: &str, fields: &[TaskField], w: &TaskWeights) -> Vec<Scored> {
    let q = TermQuery::new(query);
    (0..store.len())
        .map(|i| q.score(store.item(i), fields, w))
        .collect()
}

/// The candidates `index` gives for the items of `store`, and every item's score after
/// narrowing by it (`None` for an item it leaves out).
fn narrowed_by(
    index: &WordIndex,
    store: &Store,
    query: &str,
    fields: &[TaskField],
    w: &TaskWeights,
) -> (Option<Vec<u32>>, Vec<Scored>) {
    let mut q = TermQuery::new(query);
    let candidates = q.candidates(index, store.len(), fields, w);
    let scores = (0..store.len())
        .map(|i| match &candidates {
            Some(c) if !c.contains(&(i as u32)) => None,
            _ => q.score(store.item(i), fields, w),
        })
        .collect();
    (candidates, scores)
}

fn assert_scores(got: &[Scored], want: &[Want], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let same = match (g, w) {
            (None, None) => true,
            (Some((gs, gf)), Some((ws, wf))) => (gs - ws).abs() < 1e-12 && gf == wf,
            _ => false,
        };
        assert!(same, "{what}, item {i}: {g:?} against {w:?}");
    }
}

/// Scored from the text and narrowed by the store's own word index, both give `want`.
fn check(store: &Store, query: &str, fields: &[TaskField], w: &TaskWeights, want: &[Want]) {
    assert_scores(&scored(store, query, fields, w), want, query);
    let (_, narrowed) = narrowed_by(store.word_index(), store, query, fields, w);
    assert_scores(&narrowed, want, &format!("{query}, narrowed"));
}

#[test]
fn exact_hits_worked_by_hand() {
    let store = store(&[
        ("parse flags", "", &[], &[]),
        ("parser", "sparse parse", &[], &[]),
        ("other", "sparse parse", &[], &[]),
        ("x", "", &[], &["reparsed"]),
        ("y", "", &["parse"], &[]),
        ("sparse", "", &[], &["parse"]),
        ("Parse", "", &[], &[]),
        ("pears", "", &[], &[]),
        ("parse it", "parse", &[], &[]),
    ]);
    // one term: 0.1 + 0.5 x (its best kind x its field's weight)
    let want: [Want; 9] = [
        // a whole word of the title: 0.8 x 2 (one term: no phrase bonus)
        Some((0.1 + 0.5 * 1.6, &[Title])),
        // the title's prefix (0.6 x 2) beats the description's whole word (0.8 x 0.5)
        Some((0.1 + 0.5 * 1.2, &[Title, Description])),
        // a mid-word occurrence before a whole word: the whole word's 0.8 x 0.5
        Some((0.1 + 0.5 * 0.4, &[Description])),
        Some((0.1 + 0.5 * (0.4 * 1.5), &[Notes])),
        Some((0.1 + 0.5 * (0.8 * 0.25), &[Labels])),
        // the notes' whole word (0.8 x 1.5) beats the title's mid-word (0.4 x 2)
        Some((0.1 + 0.5 * 1.2, &[Title, Notes])),
        // the whole title: its own weight
        Some((3.0, &[Title])),
        // every letter, but neither the word nor one edit from it
        None,
        // the same letters in two fields: the title's whole word (1.6) beats the
        // description's (0.4)
        Some((0.1 + 0.5 * 1.6, &[Title, Description])),
    ];
    check(&store, "parse", &ALL, &weights(), &want);
    // the title not searched: the whole title is no match, the description alone counts
    let want: [Want; 9] = [
        None,
        Some((0.1 + 0.5 * 0.4, &[Description])),
        Some((0.1 + 0.5 * 0.4, &[Description])),
        None,
        None,
        None,
        None,
        None,
        Some((0.1 + 0.5 * 0.4, &[Description])),
    ];
    check(&store, "parse", &[Description], &weights(), &want);
}

#[test]
fn terms_are_averaged_and_a_phrase_in_the_title_adds_its_bonus() {
    let store = store(&[
        ("to parse flags", "", &[], &[]),
        ("flags of parse", "", &[], &[]),
        ("parser", "flags", &[], &[]),
        ("z", "parse flags", &[], &[]),
        ("parse", "", &[], &[]),
        ("Parse  Flags", "", &[], &[]),
    ]);
    let want: [Want; 6] = [
        // both whole words of the title (1.6 each), the phrase in it: + 0.125
        Some((0.1 + 0.5 * 1.6 + 0.125, &[Title])),
        // both in the title, not as the phrase
        Some((0.1 + 0.5 * 1.6, &[Title])),
        // (a prefix in the title 1.2 + a whole word of the description 0.4) / 2
        Some((0.1 + 0.5 * 0.8, &[Title, Description])),
        // the phrase in the description: no bonus
        Some((0.1 + 0.5 * 0.4, &[Description])),
        // `flags` nowhere
        None,
        // the whole title, whitespace collapsed
        Some((3.0, &[Title])),
    ];
    check(&store, "parse flags", &ALL, &weights(), &want);
    // the title not searched: no bonus for the phrase in it
    let want: [Want; 6] = [
        None,
        None,
        None,
        Some((0.1 + 0.5 * 0.4, &[Description])),
        None,
        None,
    ];
    check(&store, "parse flags", &[Description], &weights(), &want);
    // the ceiling caps an exact score
    let w = TaskWeights {
        exact_ceiling: 0.95,
        ..weights()
    };
    assert_eq!(
        scored(&store, "parse flags", &ALL, &w)[0],
        Some((0.95, vec![Title]))
    );
}

#[test]
fn typo_hits_worked_by_hand() {
    let store = store(&[
        ("parsre", "", &[], &[]),
        ("x", "parsor", &[], &[]),
        ("parsrexyz", "", &[], &[]),
        ("parsrexyz parsre", "", &[], &[]),
        ("parsre parsrexyz", "", &[], &[]),
        ("parsrex", "", &[], &[]),
        ("pastries", "", &[], &[]),
        ("parsrxyz", "", &[], &[]),
        ("parsxerxyz", "", &[], &[]),
        ("parsr", "", &[], &[]),
        ("parsre", "parser", &[], &[]),
        ("reparser", "", &[], &["parsre"]),
    ]);
    // a typo: 0.05 + 0.25 x (its kind x its field's weight)
    let word = 0.05 + 0.25 * (0.7 * 2.0);
    let prefix = 0.05 + 0.25 * (0.3 * 2.0);
    let want: [Want; 12] = [
        // two letters swapped
        Some((word, &[Title])),
        // a wrong letter (one of the term's absent), in the description
        Some((0.05 + 0.25 * (0.7 * 0.5), &[Description])),
        // a word starting with a swap
        Some((prefix, &[Title])),
        // a prefix typo first, a whole-word one after: the whole word's
        Some((word, &[Title])),
        Some((word, &[Title])),
        // one letter more than the term after a swap: two edits, and too short to start
        // with a typo of it
        None,
        None,
        // a start one letter short (`parsr`) and one letter long (`parsxer`)
        Some((prefix, &[Title])),
        Some((prefix, &[Title])),
        // a letter missing
        Some((word, &[Title])),
        // an exact hit anywhere beats a typo anywhere: the description's whole word
        Some((0.1 + 0.5 * (0.8 * 0.5), &[Title, Description])),
        // a mid-word exact hit (0.8) beats the notes' heavier typo (1.05)
        Some((0.1 + 0.5 * (0.4 * 2.0), &[Title, Notes])),
    ];
    check(&store, "parser", &ALL, &weights(), &want);
}

#[test]
fn short_terms_need_an_exact_hit_and_typos_count_characters() {
    let w = weights();
    let word = 0.05 + 0.25 * (0.7 * 2.0);
    let store = titles(&["flags", "acb", "alphα", "foo-bar baz", "foo bar"]);
    // five letters, one wrong: a typo; four, one wrong: none
    check(
        &store,
        "flogs",
        &ALL,
        &w,
        &[Some((word, &[Title])), None, None, None, None],
    );
    check(&store, "flog", &ALL, &w, &[None; 5]);
    // three letters swapped: too short for a typo
    check(&store, "abc", &ALL, &w, &[None; 5]);
    // the last letter Greek: one wrong character, though two bytes
    check(
        &store,
        "alpha",
        &ALL,
        &w,
        &[None, None, Some((word, &[Title])), None, None],
    );
    // a term of two runs matches across the `-` only
    let whole = Some((0.1 + 0.5 * 1.6, &[Title][..]));
    check(
        &store,
        "foo-bar",
        &ALL,
        &w,
        &[None, None, None, whole, None],
    );
}

#[test]
fn the_flags_give_the_texts_answer_under_any_order_of_the_weights() {
    // a whole word weighing less than a prefix: the first occurrence at least as good as
    // a whole word is taken (here the whole word, not the later prefix)
    let w = TaskWeights {
        whole_word: 0.5,
        word_prefix: 0.9,
        ..weights()
    };
    let store = titles(&["ab abc", "ab xab"]);
    let whole = Some((0.1 + 0.5 * 1.0, &[Title][..]));
    check(&store, "ab", &ALL, &w, &[whole, whole]);
    // a whole word weighing less than a mid-word occurrence
    let w = TaskWeights {
        whole_word: 0.5,
        word_prefix: 0.4,
        mid_word: 0.9,
        ..weights()
    };
    check(&store, "ab", &ALL, &w, &[whole, whole]);
    // a whole-word typo weighing less than a prefix one: the first typo is taken
    let w = TaskWeights {
        typo_word: 0.3,
        typo_prefix: 0.85,
        ..weights()
    };
    let store = titles(&["parsrexyz parsre", "parsre parsrexyz"]);
    check(
        &store,
        "parser",
        &ALL,
        &w,
        &[
            Some((0.05 + 0.25 * (0.85 * 2.0), &[Title])),
            Some((0.05 + 0.25 * (0.3 * 2.0), &[Title])),
        ],
    );
}

#[test]
fn the_candidates_are_the_items_every_term_can_match() {
    let mut items: Vec<Fields> = vec![("zeta", "", &[], &[]); 70];
    items[2] = ("parse flags", "", &[], &[]);
    items[3] = ("pears flgas", "", &[], &[]);
    items[40] = ("flags", "", &[], &[]);
    items[65] = ("zeta", "parse the flags", &[], &[]);
    items[69] = ("flags", "", &[], &["parser"]);
    let store = store(&items);
    let w = weights();
    let candidates =
        |query: &str, n: usize| TermQuery::new(query).candidates(store.word_index(), n, &ALL, &w);
    // `pears` holds every letter of `parse` but not the word; `flgas` is a typo of `flags`
    assert_eq!(candidates("parse", 70), Some(vec![2, 65, 69]));
    assert_eq!(candidates("flags", 70), Some(vec![2, 3, 40, 65, 69]));
    assert_eq!(candidates("flags parse", 70), Some(vec![2, 65, 69]));
    // a term of no letter or digit narrows nothing
    assert_eq!(candidates("-- parse", 70), Some(vec![2, 65, 69]));
    assert_eq!(candidates("- !", 70), None);
    assert_eq!(candidates("", 70), None);
    assert_eq!(candidates("zzzq", 70), Some(vec![]));
    // a list naming items past the store (a damaged cache) is cut at its end
    assert_eq!(candidates("flags parse", 69), Some(vec![2, 65]));
    // and the narrowed scores are those of every item scored
    let mut want: Vec<Want> = vec![None; 70];
    want[2] = Some((0.1 + 0.5 * 1.6, &[Title]));
    want[65] = Some((0.1 + 0.5 * 0.4, &[Description]));
    // (the title's whole word 1.6 + the notes' prefix 0.6 x 1.5) / 2
    want[69] = Some((0.1 + 0.5 * 1.25, &[Title, Notes]));
    check(&store, "flags parse", &ALL, &w, &want);
}

/// Narrowed, a field's words are read off the index's flags, not its text: with the word
/// index of other texts the answer follows that index (what shows that the text is not
/// read, the point of the flags).
#[test]
fn a_narrowed_query_reads_how_a_field_matches_off_the_index() {
    let w = weights();
    let items = titles(&["pears", "pars x", "foo-bar x"]);
    let other = titles(&["parse", "parse", "zzz", "parse"]);
    let whole = 0.1 + 0.5 * 1.6;
    let typo = 0.05 + 0.25 * 1.4;
    // by its text: `pears` no match, `pars` a typo; by the other index, whose item 3 is
    // past the store: the whole word `parse`, and (a letter absent) its typo
    let (candidates, narrowed) = narrowed_by(other.word_index(), &items, "parse", &ALL, &w);
    assert_eq!(candidates, Some(vec![0, 1]));
    assert_scores(
        &narrowed,
        &[Some((whole, &[Title])), Some((typo, &[Title])), None],
        "parse, by the other index",
    );
    assert_scores(
        &scored(&items, "parse", &ALL, &w),
        &[None, Some((typo, &[Title])), None],
        "parse",
    );
    // a term of two runs whose run no word of the index holds: no match, whatever the text
    let mut q = TermQuery::new("foo-bar");
    assert_eq!(q.candidates(other.word_index(), 3, &ALL, &w), Some(vec![]));
    assert_eq!(q.score(items.item(2), &ALL, &w), None);
    assert!(TermQuery::new("foo-bar")
        .score(items.item(2), &ALL, &w)
        .is_some());
    // typos: by the index's flags when a whole-word typo weighs at least a prefix one,
    // else by the text
    let items = titles(&["rapers", "parsre"]);
    let other = titles(&["parsre", "zzzzzz"]);
    let by_other = |w: &TaskWeights| {
        let mut q = TermQuery::new("parser");
        q.candidates(other.word_index(), 2, &ALL, w);
        [0, 1].map(|i| q.score(items.item(i), &ALL, w))
    };
    assert_eq!(by_other(&w), [Some((typo, vec![Title])), None]);
    let typo_first = TaskWeights {
        typo_word: 0.3,
        typo_prefix: 0.85,
        ..weights()
    };
    assert_eq!(by_other(&typo_first), [None, None]);
    // the phrase is looked for only when the flags put every term in the title
    let items = store(&[("to parse flags", "parse flags", &[], &[])]);
    let other = store(&[("zzz", "parse flags", &[], &[])]);
    let fields = [Title, Description];
    let (_, narrowed) = narrowed_by(other.word_index(), &items, "parse flags", &fields, &w);
    assert_scores(
        &narrowed,
        &[Some((0.1 + 0.5 * 0.4, &fields[1..]))],
        "the phrase, by the other index",
    );
    assert_scores(
        &scored(&items, "parse flags", &fields, &w),
        &[Some((0.1 + 0.5 * 1.6 + 0.125, &fields[..]))],
        "the phrase",
    );
}

#[test]
fn the_flags_name_the_best_kind_of_hit() {
    let w = weights();
    assert_eq!(exact_from(HOLDS_RUN, &w), None);
    assert_eq!(exact_from(HOLDS_RUN | WHOLE | MID, &w), Some(0.8));
    assert_eq!(exact_from(HOLDS_RUN | PREFIX, &w), Some(0.6));
    assert_eq!(
        exact_from(HOLDS_RUN | PREFIX | MID | TYPO_WORD, &w),
        Some(0.6)
    );
    assert_eq!(exact_from(HOLDS_RUN | MID, &w), Some(0.4));
    assert_eq!(typo_from(TYPO_WORD, &w), Some(0.7));
    assert_eq!(typo_from(TYPO_WORD | TYPO_PREFIX, &w), Some(0.7));
    assert_eq!(typo_from(HOLDS_RUN | TYPO_PREFIX, &w), Some(0.3));
    assert_eq!(typo_from(HOLDS_RUN | WHOLE, &w), None);
    assert_eq!(typo_from(0, &w), None);
}

#[test]
fn a_query_is_its_folded_terms_and_its_collapsed_title() {
    assert!(TermQuery::new(" \t ").is_empty());
    assert!(!TermQuery::new("a").is_empty());
    let q = TermQuery::new("  Parse   the FLAGS ");
    assert_eq!(q.exact_title(), "parse the flags");
    assert_eq!(q.terms.len(), 3);
}
