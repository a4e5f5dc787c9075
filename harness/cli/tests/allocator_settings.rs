//! The allocator settings the binary makes before its first allocation (`src/main.rs`):
//! mimalloc's options as mimalloc itself reports them (`MIMALLOC_VERBOSE=1` prints every
//! option at start), so that a wrong option number fails here rather than setting another
//! option in silence (then `purge_delay` shows its default, 1000).

use std::process::Command;

#[test]
fn freed_memory_goes_back_to_the_system_after_ten_milliseconds() {
    let out = Command::new(env!("CARGO_BIN_EXE_findbench"))
        .arg("--version")
        .env("MIMALLOC_VERBOSE", "1")
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let options: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("option '"))
        .collect();
    assert!(
        options
            .iter()
            .any(|l| l.trim_end() == "option 'purge_delay': 10"),
        "mimalloc's options: {options:#?}"
    );
}
