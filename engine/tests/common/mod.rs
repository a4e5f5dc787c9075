//! What several of the engine's integration tests share: answers compared without their
//! timings, and a tree's mtimes moved out of the kept index's racy window.

use serde_json::Value;
use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// Removes every `duration_ms` from an answer, at any depth: the rest must be equal.
pub fn strip_durations(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.remove("duration_ms");
            map.values_mut().for_each(strip_durations);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_durations),
        _ => {}
    }
}

/// Moves every mtime under `root` (itself included) an hour back, so that the kept index
/// trusts them (a file written in the same clock tick as the index read it is looked at
/// again).
#[allow(dead_code)] // not every test file that shares this module backdates
pub fn backdate(root: &Path) {
    let past = SystemTime::now() - Duration::from_secs(3600);
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path.clone());
            }
            fs::File::open(&path).unwrap().set_modified(past).unwrap();
        }
        fs::File::open(&dir).unwrap().set_modified(past).unwrap();
    }
}
