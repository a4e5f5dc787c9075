//! The kept store: answers are the same with and without the cache, a changed store is seen
//! on the next load, and a cache file that is corrupt, truncated or another store's is
//! never trusted.

use findbench_engine::modes::get::GetRequest;
use findbench_engine::modes::name::NameRequest;
use findbench_engine::modes::outline::OutlineRequest;
use findbench_engine::modes::task::{TaskField, TaskRequest};
use findbench_engine::{Engine, Fixture, Request, Store, StoreOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

fn cached(dir: &Path) -> StoreOptions {
    StoreOptions {
        cache: true,
        cache_dir: Some(dir.to_path_buf()),
    }
}

fn uncached() -> StoreOptions {
    StoreOptions {
        cache: false,
        cache_dir: None,
    }
}

/// Writes `text` and dates the file `age` seconds back, past the cache's settle window.
fn write_store(path: &Path, text: &str, age: u64) {
    std::fs::write(path, text).unwrap();
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(age))
        .unwrap();
}

fn cache_files(dir: &Path) -> Vec<PathBuf> {
    match std::fs::read_dir(dir.join("stores")) {
        Ok(entries) => entries.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    }
}

fn store_text(titles: &[&str]) -> String {
    let tasks: Vec<serde_json::Value> = titles
        .iter()
        .enumerate()
        .map(|(i, t)| {
            serde_json::json!({
                "id": format!("T{}", i + 1),
                "title": t,
                "description": format!("Details of {t}; see Straße café notes"),
                "status": if i % 3 == 0 { "done" } else { "pending" },
                "priority": PRIORITIES[i % 3],
                "labels": ["backend", "ops"],
                "notes": [format!("note {i}")],
                "comments": if i % 2 == 0 { vec!["c"] } else { vec![] },
                "parent": if i > 0 { Some(format!("T{}", i.div_ceil(2))) } else { None },
                "list": "Work",
            })
        })
        .collect();
    serde_json::json!({
        "tasks": tasks,
        "archive": [{"id": "A1", "title": "Old auth middleware", "status": "done"}],
        "goals": [{"id": "G1", "title": "Ünïcode goal for émails", "status": "active"}],
    })
    .to_string()
}

/// Every item mode's answer to a few requests, as JSON.
fn answers(store: Store) -> Vec<serde_json::Value> {
    let fixture = Fixture::Store(Arc::new(store));
    let mut task = TaskRequest::new("auth middleware");
    task.fields = TaskField::ALL.to_vec();
    task.include_archive = true;
    task.verbose = true;
    let mut typo = TaskRequest::new("midleware");
    typo.id = Some("T1*".into());
    let mut goal = NameRequest::new("emails");
    goal.domain = findbench_engine::Domain::Goal;
    let mut get = GetRequest::new("T2");
    get.children = true;
    let requests = [
        Request::Task(task),
        Request::Task(typo),
        Request::Name(NameRequest::new("the email task")),
        Request::Name(goal),
        Request::Outline(OutlineRequest::new("notes")),
        Request::Get(get),
        Request::Get(GetRequest::new("t9")),
    ];
    let engine = Engine::default();
    let mut out: Vec<serde_json::Value> = requests
        .iter()
        .map(|r| serde_json::to_value(engine.execute(&fixture, r).unwrap()).unwrap())
        .collect();
    out.push(serde_json::json!([
        fixture.item_count(),
        fixture.dump_bytes()
    ]));
    out
}

const PRIORITIES: [&str; 3] = ["high", "low", "medium"];

const TITLES: &[&str] = &[
    "Fix auth middleware timeout",
    "Email the accountant",
    "Read emails",
    "Auth middleware logging",
    "Book dentist",
    "Refactor session cache",
    "Write the auth docs",
    "Calendar cleanup",
    "Emails zero",
];

#[test]
fn answers_are_the_same_with_and_without_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let path = dir.path().join("todo.json");
    write_store(&path, &store_text(TITLES), 60);

    let plain = answers(Store::load_with(&path, &uncached()).unwrap());
    assert!(cache_files(&cache).is_empty());
    let building = answers(Store::load_with(&path, &cached(&cache)).unwrap());
    assert_eq!(
        cache_files(&cache).len(),
        1,
        "the first load keeps the store"
    );
    let from_cache = answers(Store::load_with(&path, &cached(&cache)).unwrap());
    assert_eq!(plain, building);
    assert_eq!(plain, from_cache);
    // the answers are real ones, not empty lists equal by accident
    assert_eq!(plain[0]["matches"][0]["id"], "T1");
    assert_eq!(plain[3]["results"][0]["id"], "G1");
}

#[test]
fn a_store_that_changes_between_calls_is_read_again() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let path = dir.path().join("todo.json");
    write_store(&path, &store_text(TITLES), 120);
    let before = answers(Store::load_with(&path, &cached(&cache)).unwrap());
    assert_eq!(cache_files(&cache).len(), 1);

    // same size, other content, later modification time
    let mut changed: Vec<&str> = TITLES.to_vec();
    changed[0] = "Fix auth middleware timeoux";
    changed[3] = "Xuth middleware logging";
    let text = store_text(&changed);
    assert_eq!(text.len(), store_text(TITLES).len());
    write_store(&path, &text, 60);
    let after = answers(Store::load_with(&path, &cached(&cache)).unwrap());
    assert_ne!(before, after);
    assert_eq!(
        after,
        answers(Store::load_with(&path, &uncached()).unwrap())
    );
    // and the refreshed cache answers the same once more
    assert_eq!(
        after,
        answers(Store::load_with(&path, &cached(&cache)).unwrap())
    );

    // an item added: a different size
    let mut grown = changed.clone();
    grown.push("Auth middleware rewrite");
    write_store(&path, &store_text(&grown), 30);
    let grown_answers = answers(Store::load_with(&path, &cached(&cache)).unwrap());
    assert_eq!(
        grown_answers,
        answers(Store::load_with(&path, &uncached()).unwrap())
    );
    assert_ne!(grown_answers, after);
}

#[test]
fn a_corrupt_truncated_or_foreign_cache_is_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let path = dir.path().join("todo.json");
    write_store(&path, &store_text(TITLES), 60);
    let want = answers(Store::load_with(&path, &uncached()).unwrap());
    Store::load_with(&path, &cached(&cache)).unwrap();
    let file = cache_files(&cache).pop().unwrap();
    let good = std::fs::read(&file).unwrap();

    // every truncation, and flipped bytes all through the file
    let mut damaged: Vec<Vec<u8>> = (0..good.len())
        .step_by(97)
        .map(|n| good[..n].to_vec())
        .collect();
    for at in (0..good.len()).step_by(89) {
        let mut bytes = good.clone();
        bytes[at] ^= 0xff;
        damaged.push(bytes);
    }
    damaged.push(b"not a cache at all".to_vec());
    for bytes in damaged {
        std::fs::write(&file, &bytes).unwrap();
        let store = Store::load_with(&path, &cached(&cache)).unwrap();
        // a flipped byte inside a title may survive every structural check; what must hold
        // is that loading never fails or panics and a rebuilt cache is whole again
        let _ = answers(store);
    }
    std::fs::write(&file, &good[..good.len() / 2]).unwrap();
    assert_eq!(
        want,
        answers(Store::load_with(&path, &cached(&cache)).unwrap())
    );
    assert_eq!(
        std::fs::read(&file).unwrap(),
        good,
        "the truncated cache was rewritten"
    );

    // another store's cache under this store's name: its header names another file
    let other = dir.path().join("other.json");
    write_store(&other, &store_text(&TITLES[..3]), 60);
    let other_cache = dir.path().join("other-cache");
    Store::load_with(&other, &cached(&other_cache)).unwrap();
    let foreign = cache_files(&other_cache).pop().unwrap();
    std::fs::copy(&foreign, &file).unwrap();
    assert_eq!(
        want,
        answers(Store::load_with(&path, &cached(&cache)).unwrap())
    );
}

#[test]
fn a_store_written_just_now_is_not_kept_yet() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let path = dir.path().join("todo.json");
    std::fs::write(&path, store_text(TITLES)).unwrap();
    Store::load_with(&path, &cached(&cache)).unwrap();
    assert!(cache_files(&cache).is_empty());
}

#[test]
fn an_unwritable_cache_directory_only_skips_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("todo.json");
    write_store(&path, &store_text(TITLES), 60);
    // a file where the cache directory should be
    let blocked = dir.path().join("blocked");
    std::fs::write(&blocked, "x").unwrap();
    let store = Store::load_with(&path, &cached(&blocked)).unwrap();
    assert_eq!(
        answers(store),
        answers(Store::load_with(&path, &uncached()).unwrap())
    );
}
