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

/// The package that parses arguments, and so the only one that may turn clap on.
const CLI: &str = "findbench";

/// A package's features that turn clap on: through `dep:clap` (or `clap/...`), another of
/// its features that does, or a feature of a workspace dependency that does.
fn features_enabling_clap(packages: &[Value], p: &Value) -> Vec<String> {
    let Some(features) = p["features"].as_object() else {
        return Vec::new();
    };
    let mut enabling: Vec<String> = Vec::new();
    loop {
        let before = enabling.len();
        for (feature, turns_on) in features {
            if enabling.contains(feature) {
                continue;
            }
            let enables = turns_on.as_array().into_iter().flatten().any(|e| {
                let e = e.as_str().unwrap_or_default();
                let (dep, dep_feature) = e.split_once('/').unwrap_or((e, ""));
                let dep = dep.trim_start_matches("dep:").trim_end_matches('?');
                dep.starts_with("clap")
                    || enabling.iter().any(|f| f == e)
                    || (!dep_feature.is_empty()
                        && dep != p["name"]
                        && packages.iter().any(|q| {
                            q["name"] == dep
                                && features_enabling_clap(packages, q)
                                    .iter()
                                    .any(|f| f == dep_feature)
                        }))
            });
            if enables {
                enabling.push(feature.clone());
            }
        }
        if enabling.len() == before {
            return enabling;
        }
    }
}

/// Why a workspace breaks "nothing below the CLI depends on clap": a crate other than the
/// CLI that depends on clap other than optionally, enables clap by default, or turns on a
/// feature of a workspace crate that enables clap. A crate may offer clap derives behind an
/// optional feature (findbench-tools does), for the CLI alone to turn on.
fn clap_violations(packages: &[Value]) -> Vec<String> {
    let mut out = Vec::new();
    for p in packages {
        let name = p["name"].as_str().unwrap_or_default();
        if name == CLI {
            continue;
        }
        if features_enabling_clap(packages, p)
            .iter()
            .any(|f| f == "default")
        {
            out.push(format!("{name}: its default features enable clap"));
        }
        for d in p["dependencies"].as_array().into_iter().flatten() {
            let dep = d["name"].as_str().unwrap_or_default();
            if dep.starts_with("clap") && d["optional"] != true {
                out.push(format!("{name} depends on {dep} (not optional)"));
            }
            let Some(target) = packages.iter().find(|q| q["name"] == dep) else {
                continue;
            };
            let enabling = features_enabling_clap(packages, target);
            for f in d["features"].as_array().into_iter().flatten() {
                let f = f.as_str().unwrap_or_default();
                if enabling.iter().any(|e| e == f) {
                    out.push(format!(
                        "{name} turns on {dep}'s feature `{f}`, which enables clap"
                    ));
                }
            }
            if d["uses_default_features"] != false && enabling.iter().any(|e| e == "default") {
                out.push(format!(
                    "{name} takes {dep}'s default features, which enable clap"
                ));
            }
        }
    }
    out
}

#[test]
fn no_crate_below_the_cli_depends_on_clap() {
    let packages = workspace_packages();
    for name in [
        "findbench-engine",
        "findbench-tools",
        "findbench-eval",
        "findbench-traces",
        "findbench-mcp",
        "findbench-benches",
    ] {
        package(&packages, name);
    }
    let violations = clap_violations(&packages);
    assert!(
        violations.is_empty(),
        "only the findbench CLI crate parses arguments: {violations:?}"
    );
    // the CLI is where clap belongs, and it alone turns on findbench-tools' clap derives:
    // the checks above are about something real
    let cli = package(&packages, CLI);
    assert!(dependencies(cli).contains(&"clap".to_string()));
    let tools = package(&packages, "findbench-tools");
    assert_eq!(features_enabling_clap(&packages, tools), ["clap"]);
    let tools_dep = cli["dependencies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "findbench-tools")
        .expect("the CLI depends on findbench-tools");
    assert_eq!(tools_dep["features"], serde_json::json!(["clap"]));

    // and each way of breaking the rule is caught
    let broken = |edit: &dyn Fn(&mut Vec<Value>)| {
        let mut copy = packages.clone();
        edit(&mut copy);
        clap_violations(&copy)
    };
    let find = |ps: &mut Vec<Value>, name: &str| ps.iter().position(|p| p["name"] == name).unwrap();
    let eval_turns_it_on = broken(&|ps| {
        let eval = find(ps, "findbench-eval");
        let deps = ps[eval]["dependencies"].as_array_mut().unwrap();
        let tools = deps
            .iter_mut()
            .find(|d| d["name"] == "findbench-tools")
            .unwrap();
        tools["features"] = serde_json::json!(["clap"]);
    });
    assert_eq!(
        eval_turns_it_on,
        ["findbench-eval turns on findbench-tools's feature `clap`, which enables clap"]
    );
    let not_optional = broken(&|ps| {
        let tools = find(ps, "findbench-tools");
        let deps = ps[tools]["dependencies"].as_array_mut().unwrap();
        let clap = deps.iter_mut().find(|d| d["name"] == "clap").unwrap();
        clap["optional"] = Value::Bool(false);
    });
    assert_eq!(
        not_optional,
        ["findbench-tools depends on clap (not optional)"]
    );
    let by_default = broken(&|ps| {
        let tools = find(ps, "findbench-tools");
        ps[tools]["features"]["default"] = serde_json::json!(["clap"]);
    });
    assert!(
        by_default.contains(&"findbench-tools: its default features enable clap".to_string()),
        "{by_default:?}"
    );
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

/// The files that are a `#[cfg(test)] mod tests;` of their own: `dir/tests.rs` beside the
/// `dir/mod.rs`, or below the `dir.rs`, that declares it so.
fn test_module_files(sources: &[(String, String)]) -> Vec<String> {
    let mut files: Vec<String> = sources
        .iter()
        .filter(|(_, text)| text.contains("#[cfg(test)]\nmod tests;"))
        .map(|(file, _)| match file.strip_suffix("mod.rs") {
            Some(dir) => format!("{dir}tests.rs"),
            None => format!("{}/tests.rs", file.trim_end_matches(".rs")),
        })
        .collect();
    // and `#[cfg(test)] #[path = "x.rs"] mod ...;`, a test module in a file beside its own
    const PATH: &str = "#[cfg(test)]\n#[path = \"";
    for (file, text) in sources {
        let dir = file.rfind('/').map_or("", |i| &file[..=i]);
        for (at, _) in text.match_indices(PATH) {
            let rest = &text[at + PATH.len()..];
            if let Some(end) = rest.find('"') {
                files.push(format!("{dir}{}", &rest[..end]));
            }
        }
    }
    files
}

#[test]
fn the_engine_never_prints_and_reads_files_only_where_fixtures_and_profiles_load() {
    // the loaders: the walk (which also reads a tree file's text on first use), the store,
    // the path list, profile files, and the kept store cache and tree index (mapped and
    // checked by tree/blob.rs, built in segments spilled beside it: tree/index_build.rs and
    // tree/segments/mod.rs, and laid over by the files changed since: tree/edits.rs)
    let loaders = [
        "profile/load.rs",
        "retrieval/kept.rs",
        "retrieval/kept_runs.rs",
        "store/cache.rs",
        "store/open.rs",
        "tree/blob.rs",
        "tree/cache.rs",
        "tree/content.rs",
        "tree/edits.rs",
        "tree/index_build.rs",
        "tree/index_read.rs",
        "tree/index_wanted.rs",
        "tree/kept_changes.rs",
        "tree/paths.rs",
        "tree/root.rs",
        "tree/segments/mod.rs",
        "tree/stamp.rs",
        "tree/walk.rs",
    ];
    let sources = engine_sources();
    assert!(sources.len() > 10);
    let test_modules = test_module_files(&sources);
    for (file, text) in &sources {
        let code = if test_modules.contains(file) {
            ""
        } else {
            non_test(text)
        };
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
