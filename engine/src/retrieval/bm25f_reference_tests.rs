//! BM25F against values computed apart from the code: idf and the field-weighted frequency
//! by hand (the numbers in the comments are Python's `math.log` and arithmetic), the
//! saturation through a whole ranking, and the statistics kept on disk against those built
//! in memory.

use super::*;
use crate::tree::TreeOptions;

/// Six files sorted by path; what each holds is plain prose, so the holders of a word are
/// known by reading the texts (and the paths).
fn tree() -> Tree {
    Tree::from_memory(
        "t",
        [
            ("docs/alpha.md", "alpha alpha beta\n"),
            ("docs/beta.md", "beta gamma\n"),
            ("docs/gamma.md", "gamma gamma gamma delta\n"),
            ("notes/delta.txt", "delta\n"),
            ("notes/five.txt", "epsilon\n"),
            ("notes/six.txt", "zeta\n"),
        ],
    )
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn idf_is_the_reference_formula() {
    let index = FieldIndex::build(&tree(), &Profile::default());
    assert_eq!(index.files(), 6);
    // ln(1 + (N - df + 0.5) / (df + 0.5)) with N = 6
    assert!(close(index.idf(1), 1.540_445_040_947_149));
    assert!(close(index.idf(2), 1.029_619_417_181_158_1));
    assert!(close(index.idf(3), std::f64::consts::LN_2));
    assert!(close(index.idf(6), 0.074_107_972_153_721_77));
    // rarer is worth more
    assert!(index.idf(1) > index.idf(2) && index.idf(2) > index.idf(6));
}

#[test]
fn the_holders_of_a_term_are_the_files_that_hold_it() {
    let index = FieldIndex::build(&tree(), &Profile::default());
    let files = |t: &str| index.holding(t).unwrap().files();
    assert_eq!(files("alpha"), [0]);
    // in the text of beta.md and gamma.md, in alpha.md's text and beta.md's path
    assert_eq!(files("beta"), [0, 1]);
    assert_eq!(files("gamma"), [1, 2]);
    assert_eq!(files("delta"), [2, 3]);
    assert_eq!(files("omega"), Vec::<u32>::new());
    // three times in gamma.md's text, once in its path
    let gamma = index.holding("gamma").unwrap();
    let tf = gamma.tf_of(2).unwrap();
    assert_eq!(tf.iter().map(|&n| u32::from(n)).sum::<u32>(), 4, "{tf:?}");
    assert_eq!(tf[super::super::fields::Field::Path.index()], 1, "{tf:?}");
    assert_eq!(gamma.tf_of(0), None);
}

#[test]
fn the_weighted_frequency_is_the_reference_formula() {
    let mut index = FieldIndex::build(&tree(), &Profile::default());
    index.average = [4.0, 10.0, 50.0, 100.0];
    let mut w = TaskRankingWeights {
        path: FieldWeight {
            weight: 3.0,
            b: 0.5,
        },
        symbols: FieldWeight {
            weight: 2.0,
            b: 0.75,
        },
        prose: FieldWeight {
            weight: 1.0,
            b: 0.3,
        },
        code: FieldWeight {
            weight: 0.5,
            b: 1.0,
        },
        ..TaskRankingWeights::default()
    };
    // Σ w·tf / (1 − b + b·len/avg), a field without the term adding nothing:
    // 3·1/(0.5 + 0.5·2/4) + 2·2/(0.25 + 0.75·20/10) + 0 + 0.5·5/(0 + 300/100)
    let weighted = index.weighted_tf(&[1, 2, 0, 5], &[2, 20, 7, 300], &w);
    assert!(close(weighted, 7.119_047_619_047_619), "{weighted}");
    // b = 0: no length normalisation
    w.code.b = 0.0;
    let plain = index.weighted_tf(&[0, 0, 0, 5], &[2, 20, 7, 300], &w);
    assert!(close(plain, 2.5), "{plain}");
}

/// A whole ranking with priors, coverage and proximity neutral scores each file
/// `Σ_t idf(t) · weighted / (k1 + weighted)`, computed here from the statistics' numbers.
#[test]
fn a_files_score_is_the_saturated_sum_over_its_terms() {
    let tree = tree();
    let mut profile = Profile::default();
    let w = &mut profile.task_ranking;
    w.k1 = 0.9;
    (
        w.source_prior,
        w.test_prior,
        w.docs_prior,
        w.data_prior,
        w.other_prior,
    ) = (1.0, 1.0, 1.0, 1.0, 1.0);
    w.coverage = 0.0;
    w.proximity = 0.0;
    w.min_coverage = 0.0;
    w.min_joint_coverage = 0.0;
    let index = FieldIndex::build(&tree, &profile);
    let terms = ["gamma", "delta"];
    let ranked = crate::retrieval::rank_files(&tree, "gamma delta", &profile, 10);
    assert_eq!(ranked.len(), 3, "{ranked:?}");
    for file in &ranked {
        let i = tree
            .files()
            .iter()
            .position(|f| f.path == file.path)
            .unwrap() as u32;
        let expected: f64 = terms
            .iter()
            .filter_map(|t| {
                let holding = index.holding(t).unwrap();
                let tf = holding.tf_of(i)?;
                let weighted = index.weighted_tf(&tf, &index.lengths[i as usize], w_of(&profile));
                Some(index.idf(holding.len()) * weighted / (0.9 + weighted))
            })
            .sum();
        assert!(
            (file.score - expected).abs() < 1e-4,
            "{}: {} vs {expected}",
            file.path,
            file.score
        );
    }
    // gamma.md holds both words, and each more often than any other file
    assert_eq!(ranked[0].path, "docs/gamma.md");
}

fn w_of(profile: &Profile) -> &TaskRankingWeights {
    &profile.task_ranking
}

/// Statistics kept beside an index are those built in memory, are found again only for
/// the tree and the profile rules they were kept for, and never count by reading.
#[test]
fn kept_statistics_are_the_built_ones_for_their_key_only() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    for (path, text) in [
        ("docs/alpha.md", "alpha alpha beta\n"),
        ("docs/beta.md", "beta gamma\n"),
        ("src/gamma.rs", "/// gamma\npub fn gamma_delta() {}\n"),
    ] {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        // an hour old: statistics are kept only for files whose mtime is trusted
        let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        let f = std::fs::File::options().write(true).open(&p).unwrap();
        f.set_modified(past).unwrap();
    }
    let options = TreeOptions {
        cache_dir: Some(cache.path().to_path_buf()),
        ..TreeOptions::default()
    };
    let (tree, _) = Tree::index_and_load(&root, &options).unwrap();
    assert!(tree.kept().is_some());
    let profile = Profile::default();
    assert!(!FieldIndex::is_kept(&tree, &profile));
    let built = FieldIndex::build(&tree, &profile);
    let _ = FieldIndex::for_tree(&tree, &profile);
    assert!(FieldIndex::is_kept(&tree, &profile));
    let kept = FieldIndex::for_tree(&tree, &profile);
    assert!(matches!(kept.terms, Terms::Kept(_)));
    assert!(!kept.counts_by_reading() && !built.counts_by_reading());
    assert_eq!(kept.average, built.average);
    assert_eq!(kept.lengths, built.lengths);
    for term in ["alpha", "beta", "gamma", "delta", "absent"] {
        let (k, b) = (kept.holding(term).unwrap(), built.holding(term).unwrap());
        assert_eq!(k.files(), b.files(), "{term}");
        for f in b.files() {
            assert_eq!(k.tf_of(f), b.tf_of(f), "{term} in {f}");
        }
    }
    // another sample size or other source extensions: other statistics
    let mut sampled = Profile::default();
    sampled.task_ranking.length_sample = 3;
    assert!(!FieldIndex::is_kept(&tree, &sampled));
    let mut sources = Profile::default();
    sources.grep.source_extensions.push("md".into());
    assert!(!FieldIndex::is_kept(&tree, &sources));
    // the key follows the content stamp
    let stamp = tree.kept().unwrap().stamp;
    assert_eq!(kept_key(stamp, &profile), kept_key(stamp, &profile));
    assert_ne!(kept_key(stamp, &profile), kept_key(stamp ^ 1, &profile));
    assert_ne!(kept_key(stamp, &profile), kept_key(stamp, &sampled));
    // a tree held in memory keeps nothing
    assert!(!FieldIndex::is_kept(
        &Tree::from_memory("m", [("a.md", "alpha\n")]),
        &profile
    ));
    // statistics of some terms count a file by reading it
    let some = FieldIndex::for_terms(
        &tree,
        &profile,
        &["gamma".to_string()],
        Arc::new(Mutex::new(Vec::new())),
        None,
        Counted::default(),
    );
    assert!(some.counts_by_reading());
}

/// Statistics of some terms name each other term looked up to the caller once, in the
/// order they were first looked up.
#[test]
fn each_term_outside_the_statistics_is_named_once() {
    let tree = tree();
    let missed = Arc::new(Mutex::new(Vec::new()));
    let some = FieldIndex::for_terms(
        &tree,
        &Profile::default(),
        &["gamma".to_string()],
        missed.clone(),
        None,
        Counted::default(),
    );
    assert_eq!(some.holding("gamma").unwrap().files(), [1, 2]);
    for term in ["delta", "alpha", "delta", "gamma", "alpha", "zeta"] {
        let _ = some.holding(term).unwrap();
    }
    assert_eq!(*missed.lock().unwrap(), ["delta", "alpha", "zeta"]);
}

fn without_durations(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(map) => {
            map.remove("duration_ms");
            map.values_mut().for_each(without_durations);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(without_durations),
        _ => {}
    }
}

/// The first `ask` on a root ranks with the statistics of the question's terms alone,
/// knowing a term's holders from their paths and from the words the first pass found in
/// their text: a file that holds a term in its text only is among them, and the answer is
/// the one every file's statistics give.
#[test]
fn a_first_ask_holds_a_term_found_in_a_files_text_only() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    for (path, text) in [
        (
            "docs/guide.md",
            "How the gamma reader decodes delta frames.\n",
        ),
        ("docs/other.md", "Nothing about it here.\n"),
        ("notes/gamma.txt", "gamma\n"),
        ("src/frames.rs", "/// Delta frames.\npub fn decode() {}\n"),
    ] {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
    }
    let options = TreeOptions {
        cache_dir: Some(cache.path().to_path_buf()),
        ..TreeOptions::default()
    };
    let first_tree = Tree::load(dir.path(), &options).unwrap();
    assert!(first_tree.is_unindexed());
    let memory = Tree::load(
        dir.path(),
        &TreeOptions {
            no_cache: true,
            ..options
        },
    )
    .unwrap();
    let profile = Profile::default();
    let request = crate::modes::ask::AskRequest::new("how does the reader decode gamma frames");
    let answer = |a: crate::modes::ask::AskResponse| {
        let mut v = serde_json::to_value(a).unwrap();
        without_durations(&mut v);
        v
    };
    let first = answer(crate::first_call::ask(&first_tree, &request, &profile).unwrap());
    let every = answer(crate::modes::ask::ask(&memory, &request, &profile).unwrap());
    assert_eq!(first, every);
    // the files holding the words in their text alone are in the answer
    let text = first.to_string();
    for path in ["docs/guide.md", "src/frames.rs"] {
        assert!(text.contains(path), "{path} not in {text}");
    }
}
