//! ARCHITECTURE.md's layout invariants, checked on the workspace as Cargo resolves it
//! (`cargo metadata`: every manifest parsed, workspace inheritance applied) and on the
//! engine's source.

mod common;

use serde_json::Value;
use std::path::Path;

/// `cargo metadata --no-deps` of this workspace: its packages and their dependencies.
fn workspace_packages() -> Vec<Value> {
    let root = common::repo_root();
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(&root)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata is JSON");
    meta["packages"].as_array().expect("packages").clone()
}

fn package<'a>(packages: &'a [Value], name: &str) -> &'a Value {
    packages
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("workspace has no package {name}"))
}

/// Names of a package's dependencies of every kind (normal, dev, build).
fn dependencies(p: &Value) -> Vec<String> {
    p["dependencies"]
        .as_array()
        .expect("dependencies")
        .iter()
        .map(|d| d["name"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn the_engine_depends_on_no_other_workspace_crate() {
    let packages = workspace_packages();
    let members: Vec<String> = packages
        .iter()
        .map(|p| p["name"].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(members.len() >= 5, "{members:?}");
    let engine = package(&packages, "findbench-engine");
    let inward: Vec<String> = dependencies(engine)
        .into_iter()
        .filter(|d| members.contains(d))
        .collect();
    assert!(
        inward.is_empty(),
        "engine/Cargo.toml depends on workspace crates {inward:?}: the engine knows nothing of the harness"
    );
    // and no path dependency hides under another name
    for d in engine["dependencies"].as_array().unwrap() {
        assert!(d["path"].is_null(), "engine path dependency: {d}");
    }
}

#[test]
fn no_crate_below_the_cli_depends_on_clap() {
    let packages = workspace_packages();
    for name in [
        "findbench-engine",
        "findbench-eval",
        "findbench-traces",
        "findbench-benches",
    ] {
        let deps = dependencies(package(&packages, name));
        assert!(
            !deps.iter().any(|d| d.starts_with("clap")),
            "{name} depends on clap ({deps:?}): only the findbench CLI crate parses arguments"
        );
    }
    // the CLI is where clap belongs: the check above is about something real
    assert!(dependencies(package(&packages, "findbench")).contains(&"clap".to_string()));
}

/// Engine source files, as (path relative to engine/src, text).
fn engine_sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, base, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let rel = p.strip_prefix(base).unwrap().display().to_string();
                out.push((rel, std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    let base = common::repo_root().join("engine/src");
    let mut out = Vec::new();
    walk(&base, &base, &mut out);
    out
}

/// The engine's code without its `#[cfg(test)]` modules (tests may print and use files).
fn non_test(text: &str) -> &str {
    text.find("#[cfg(test)]").map_or(text, |i| &text[..i])
}

#[test]
fn the_engine_never_prints_and_reads_files_only_where_fixtures_and_profiles_load() {
    // the loaders: the walk (which also reads a tree file's text on first use), the store,
    // the path list, profile files, and the kept store cache and tree index (mapped and
    // checked by tree/blob.rs)
    let loaders = [
        "profile/load.rs",
        "retrieval/kept.rs",
        "store/cache.rs",
        "store/open.rs",
        "tree/blob.rs",
        "tree/cache.rs",
        "tree/content.rs",
        "tree/paths.rs",
        "tree/root.rs",
        "tree/stamp.rs",
        "tree/walk.rs",
    ];
    let sources = engine_sources();
    assert!(sources.len() > 10);
    for (file, text) in &sources {
        let code = non_test(text);
        for print in ["println!", "eprintln!", "print!(", "eprint!(", "dbg!("] {
            assert!(!code.contains(print), "engine/src/{file} prints ({print})");
        }
        if !loaders.contains(&file.as_str()) {
            for fs in ["std::fs", "File::open", "read_to_string", "read_dir"] {
                assert!(
                    !code.contains(fs),
                    "engine/src/{file} touches the filesystem ({fs}); only {loaders:?} load fixtures"
                );
            }
        }
    }
}
