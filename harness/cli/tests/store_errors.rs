//! A store that is not one, or that breaks off or holds a value of the wrong kind, is
//! invalid input: exit 2, with a message that names the file, the line, the item (its
//! place in its list and its id) and the field, in plain words rather than the JSON
//! library's (`EOF while parsing an object`, `expected struct Item`).

mod common;

use common::{assert_exit, findbench_in, stdout_json};
use std::path::Path;

/// `find task` on a store holding `text`: (exit code, the error line of stderr).
fn find_task(name: &str, text: &str) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), text).unwrap();
    let out = findbench_in(
        dir.path(),
        &[
            "find",
            "task",
            "auth",
            "--store",
            name,
            "-f",
            "text",
            "--no-cache",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let error = stderr
        .lines()
        .find(|l| l.starts_with("error: "))
        .unwrap_or_else(|| panic!("no error line in {stderr:?}"))
        .to_string();
    (out.status.code().unwrap_or(-1), error)
}

#[test]
fn an_object_of_the_wrong_shape_is_not_an_empty_store() {
    let (code, error) = find_task("store.json", r#"{"foo": 1}"#);
    assert_eq!(code, 2);
    assert_eq!(
        error,
        "error: store.json:1:1: no list of items: expected {\"tasks\": [...]} (with optional \
         `archive`, `goals` and `reading` lists), a JSON array of items, or JSON Lines (one \
         item per line); the object has `foo`"
    );
    // an empty list is an empty store, not an error
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("store.json"), r#"{"tasks": []}"#).unwrap();
    let out = findbench_in(
        dir.path(),
        &[
            "find",
            "task",
            "auth",
            "--store",
            "store.json",
            "--no-cache",
        ],
    );
    assert_exit(&out, 100);
}

#[test]
fn a_file_cut_off_says_it_may_be_truncated() {
    let text = "{\"tasks\": [\n  {\"id\": \"T-1\", \"title\": \"a\"},\n  {\"id\": \"T-7\", \"title\": \"b\"\n";
    let (code, error) = find_task("store.json", text);
    assert_eq!(code, 2);
    assert_eq!(
        error,
        "error: store.json:4:1: the file ends in the middle of item 2 of `tasks` (id `T-7`) \
         — is it truncated?"
    );
}

#[test]
fn a_field_of_the_wrong_type_names_the_item_and_the_field() {
    let text = "{\"tasks\": [\n  {\"id\": \"T-1\", \"title\": \"a\"},\n  {\"id\": \"T-2\", \"title\": \"b\"},\n  {\"id\": \"T-7\", \"title\": 5}\n]}\n";
    let (code, error) = find_task("store.json", text);
    assert_eq!(code, 2);
    assert_eq!(
        error,
        "error: store.json:4:26: item 3 of `tasks` (id `T-7`): field `title` should be text, \
         got the number 5"
    );
    // the same in JSON Lines, where the line is the item's
    let text = "{\"id\": \"a\", \"title\": \"x\"}\n{\"id\": \"b\", \"title\": [\"y\"]}\n";
    let (code, error) = find_task("store.jsonl", text);
    assert_eq!(code, 2);
    assert_eq!(
        error,
        "error: store.jsonl:2:21: item 2 (id `b`): field `title` should be text, got a list"
    );
}

#[test]
fn an_item_that_is_not_an_object_says_what_an_item_is() {
    let (code, error) = find_task(
        "store.json",
        "[\n  {\"id\": \"T-1\", \"title\": \"a\"},\n  5\n]",
    );
    assert_eq!(code, 2);
    assert_eq!(
        error,
        "error: store.json:3:3: item 2: should be an object with `id` and `title`, got the \
         number 5"
    );
}

#[test]
fn a_number_out_of_range_names_the_field_and_a_way_out() {
    let text = "{\"tasks\": [\n  {\"id\": \"T-1\", \"title\": \"a\", \"priority\": 1e400}\n]}";
    let (code, error) = find_task("store.json", text);
    assert_eq!(code, 2);
    assert_eq!(
        error,
        "error: store.json:2:47: item 1 of `tasks` (id `T-1`): field `priority`: the number \
         1e400 is too large to read; write it in quotes as text"
    );
}

#[test]
fn the_json_envelope_carries_the_same_message() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("store.json"), r#"{"foo": 1}"#).unwrap();
    let out = findbench_in(
        dir.path(),
        &[
            "find",
            "task",
            "auth",
            "--store",
            "store.json",
            "-f",
            "json",
            "--no-cache",
        ],
    );
    assert_exit(&out, 2);
    let doc = stdout_json(&out);
    assert_eq!(doc["success"], false);
    assert_eq!(doc["error"]["code"], "E_PARSE");
    let message = doc["error"]["message"].as_str().unwrap();
    assert!(message.contains("no list of items"), "{message}");
    assert!(Path::new(&dir.path().join("store.json")).exists());
}
