//! A trace's `fixture` as written: a directory name under `--fixtures` (a string, as every
//! trace before `findbench import` wrote it), or an object naming the tree itself: `{root:
//! DIR}` (the directory an agent session ran in, or the store or path list a recorded call
//! read) or `{git: DIR, rev: COMMIT}` (that commit of the repository at `DIR`, materialized
//! as a corpus `{git, rev}` fixture is). `findbench serve --record` pins a call made in a git
//! work tree this way, with `path` (the fixture inside the repository, when it is not the
//! top) and `dirty: true` when the work tree had uncommitted changes.
//!
//! A string keeps its check that it stays inside `--fixtures`; an object names its tree
//! outright, as `replay --root` does, and `replay --map OLD=NEW` moves it.

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::path::{Component, Path, PathBuf};

/// What the label of a fixture recorded on a work tree with uncommitted changes ends with.
pub const DIRTY_MARK: &str = "+dirty";

/// The tree an object `fixture` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixtureSource {
    /// The directory itself (absolute, or relative to where replay runs); for a recorded
    /// store or path list, the file.
    Root(String),
    /// Commit `rev` of the repository at `git` (a work tree, its `.git`, or a bare
    /// repository); `path` is the fixture inside that commit's tree (a directory, or a
    /// store's file), the whole tree when absent; `dirty` says the recording's work tree
    /// had uncommitted changes (the commit is what replays).
    Git {
        git: String,
        rev: String,
        path: Option<String>,
        dirty: bool,
    },
}

/// One `--map OLD=NEW`: a recorded path under `OLD` is read under `NEW`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathMap {
    pub old: PathBuf,
    pub new: PathBuf,
}

impl std::str::FromStr for PathMap {
    type Err = String;

    fn from_str(s: &str) -> Result<PathMap, String> {
        match s.split_once('=') {
            Some((old, new)) if !old.is_empty() && !new.is_empty() => Ok(PathMap {
                old: PathBuf::from(old),
                new: PathBuf::from(new),
            }),
            _ => Err(format!("`{s}` is not OLD=NEW (two paths joined by `=`)")),
        }
    }
}

/// `path` moved by the first map whose `old` holds it (compared component by component).
fn mapped(path: &str, maps: &[PathMap]) -> String {
    for map in maps {
        if let Ok(rest) = Path::new(path).strip_prefix(&map.old) {
            // joining an empty rest would add a trailing `/`
            let moved = match rest.as_os_str().is_empty() {
                true => map.new.clone(),
                false => map.new.join(rest),
            };
            return moved.display().to_string();
        }
    }
    path.to_string()
}

impl FixtureSource {
    /// The name replay and clusters show for the fixture: the root as written, or
    /// `DIR@REV`, with `:PATH` for a fixture inside the commit and [`DIRTY_MARK`] when the
    /// recording's work tree had uncommitted changes.
    pub fn label(&self) -> String {
        match self {
            FixtureSource::Root(root) => root.clone(),
            FixtureSource::Git {
                git,
                rev,
                path,
                dirty,
            } => format!(
                "{git}@{rev}{}{}",
                path.as_deref().map(|p| format!(":{p}")).unwrap_or_default(),
                if *dirty { DIRTY_MARK } else { "" }
            ),
        }
    }

    /// True when a fixture label ([`FixtureSource::label`]) is of a recording made on a work
    /// tree with uncommitted changes.
    pub fn label_is_dirty(label: &str) -> bool {
        label.ends_with(DIRTY_MARK)
    }

    /// The same source with its paths moved by `--map` (the first map that holds a path).
    pub fn mapped(&self, maps: &[PathMap]) -> FixtureSource {
        match self {
            FixtureSource::Root(root) => FixtureSource::Root(mapped(root, maps)),
            FixtureSource::Git {
                git,
                rev,
                path,
                dirty,
            } => FixtureSource::Git {
                git: mapped(git, maps),
                rev: rev.clone(),
                path: path.clone(),
                dirty: *dirty,
            },
        }
    }

    /// The directory to load: the root (when it is a directory here), or the commit's
    /// tree materialized into the git cache (`findbench_eval::corpus::git`), at `path`.
    pub fn tree_dir(&self) -> Result<PathBuf, String> {
        match self {
            FixtureSource::Root(root) if Path::new(root).is_dir() => Ok(PathBuf::from(root)),
            FixtureSource::Root(_) => Err("not a directory on this machine".into()),
            FixtureSource::Git { .. } => self.place(),
        }
    }

    /// The file or directory the source names: the root as written, or `path` inside the
    /// commit's materialized tree.
    pub fn place(&self) -> Result<PathBuf, String> {
        match self {
            FixtureSource::Root(root) => Ok(PathBuf::from(root)),
            FixtureSource::Git { git, rev, path, .. } => {
                let tree = findbench_eval::corpus::git::materialize(&repository(git)?, rev)?;
                Ok(match path {
                    Some(p) => tree.join(p),
                    None => tree,
                })
            }
        }
    }

    /// Why the object cannot name a tree, if it cannot.
    pub fn problem(&self) -> Option<String> {
        match self {
            FixtureSource::Root(root) if root.trim().is_empty() => {
                Some("empty `fixture.root`".into())
            }
            FixtureSource::Git { git, .. } if git.trim().is_empty() => {
                Some("empty `fixture.git`".into())
            }
            FixtureSource::Git { rev, .. } if rev.trim().is_empty() => {
                Some("empty `fixture.rev`".into())
            }
            // the path is read inside the materialized commit: it may not climb out of it
            FixtureSource::Git {
                path: Some(path), ..
            } if path.is_empty()
                || !Path::new(path)
                    .components()
                    .all(|c| matches!(c, Component::Normal(_))) =>
            {
                Some(format!(
                    "`fixture.path` `{path}` must be a path inside the repository (no `..`, \
                     not absolute)"
                ))
            }
            _ => None,
        }
    }
}

/// The git directory to read commits from: a linked work tree's `.git` is a file naming its
/// git directory, which [`findbench_eval::corpus::git::materialize`] does not follow; git
/// itself resolves it.
fn repository(git: &str) -> Result<PathBuf, String> {
    let dir = Path::new(git);
    if !dir.join(".git").is_file() {
        return Ok(dir.to_path_buf());
    }
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["rev-parse", "--absolute-git-dir"])
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "`{git}` is not a git work tree: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(PathBuf::from(
        String::from_utf8_lossy(&out.stdout).trim().to_string(),
    ))
}

/// The `fixture` field on the wire: a name or an object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixtureField {
    Name(String),
    Source(FixtureSource),
}

impl Serialize for FixtureField {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            FixtureField::Name(name) => serializer.serialize_str(name),
            FixtureField::Source(FixtureSource::Root(root)) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("root", root)?;
                map.end()
            }
            FixtureField::Source(FixtureSource::Git {
                git,
                rev,
                path,
                dirty,
            }) => {
                let mut map = serializer.serialize_map(None)?;
                map.serialize_entry("git", git)?;
                map.serialize_entry("rev", rev)?;
                if let Some(path) = path {
                    map.serialize_entry("path", path)?;
                }
                if *dirty {
                    map.serialize_entry("dirty", &true)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for FixtureField {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(FieldVisitor)
    }
}

struct FieldVisitor;

impl<'de> Visitor<'de> for FieldVisitor {
    type Value = FixtureField;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a fixture name, `{root: DIR}` or `{git: DIR, rev: COMMIT}`")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<FixtureField, E> {
        Ok(FixtureField::Name(v.to_string()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<FixtureField, E> {
        Ok(FixtureField::Name(v))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FixtureField, A::Error> {
        let (mut root, mut git, mut rev, mut path) = (None, None, None, None);
        let mut dirty = None;
        while let Some(key) = map.next_key::<String>()? {
            let slot = match key.as_str() {
                "root" => &mut root,
                "git" => &mut git,
                "rev" => &mut rev,
                "path" => &mut path,
                "dirty" => {
                    dirty = Some(map.next_value::<bool>()?);
                    continue;
                }
                other => {
                    return Err(de::Error::custom(format!(
                        "unknown key `{other}` in `fixture` (one of root, git, rev, path, dirty)"
                    )))
                }
            };
            *slot = Some(map.next_value::<String>()?);
        }
        let source = match (root, git, rev) {
            (Some(root), None, None) if path.is_none() && dirty.is_none() => {
                FixtureSource::Root(root)
            }
            (None, Some(git), Some(rev)) => FixtureSource::Git {
                git,
                rev,
                path,
                dirty: dirty.unwrap_or(false),
            },
            _ => {
                return Err(de::Error::custom(
                    "`fixture` is either `{root: DIR}` or `{git: DIR, rev: COMMIT}` (with \
                     `path` and `dirty` optional)",
                ))
            }
        };
        Ok(FixtureField::Source(source))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(json: &str) -> Result<FixtureField, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn a_name_and_both_objects_round_trip() {
        for json in [
            r#""agent-cpp""#,
            r#"{"root":"/home/dev/proj"}"#,
            r#"{"git":"/home/dev/proj","rev":"4f2c"}"#,
        ] {
            let parsed = field(json).unwrap();
            assert_eq!(serde_json::to_string(&parsed).unwrap(), json);
        }
        let git = FixtureSource::Git {
            git: "/r".into(),
            rev: "abc".into(),
            path: None,
            dirty: false,
        };
        assert_eq!(git.label(), "/r@abc");
    }

    #[test]
    fn a_pinned_recording_round_trips_with_its_path_and_dirt() {
        let json = r#"{"git":"/home/dev/proj","rev":"4f2c","path":"sub/dir","dirty":true}"#;
        let parsed = field(json).unwrap();
        assert_eq!(serde_json::to_string(&parsed).unwrap(), json);
        let FixtureField::Source(source) = parsed else {
            panic!("an object")
        };
        assert_eq!(source.label(), "/home/dev/proj@4f2c:sub/dir+dirty");
        assert!(FixtureSource::label_is_dirty(&source.label()));
        // `dirty: false` is the default and is not written
        let clean = field(r#"{"git":"/r","rev":"1","dirty":false}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&clean).unwrap(),
            r#"{"git":"/r","rev":"1"}"#
        );
        let e = field(r#"{"root":"/r","dirty":true}"#).unwrap_err();
        assert!(e.contains("either"), "{e}");
        let climbing = FixtureSource::Git {
            git: "/r".into(),
            rev: "1".into(),
            path: Some("../etc".into()),
            dirty: false,
        };
        assert!(climbing
            .problem()
            .unwrap()
            .contains("inside the repository"));
    }

    #[test]
    fn maps_move_recorded_paths_component_by_component() {
        let maps: Vec<PathMap> = ["/home/a/proj=/srv/proj", "/x=/y"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let git = FixtureSource::Git {
            git: "/home/a/proj".into(),
            rev: "1".into(),
            path: None,
            dirty: false,
        };
        match git.mapped(&maps) {
            FixtureSource::Git { git, .. } => assert_eq!(git, "/srv/proj"),
            other => panic!("{other:?}"),
        }
        let root = FixtureSource::Root("/home/a/proj/sub".into());
        assert_eq!(
            root.mapped(&maps),
            FixtureSource::Root("/srv/proj/sub".into())
        );
        // `/home/a/project` is not under `/home/a/proj`
        let other = FixtureSource::Root("/home/a/project".into());
        assert_eq!(other.mapped(&maps), other);
        assert!("nonsense".parse::<PathMap>().is_err());
        assert!("=/y".parse::<PathMap>().is_err());
    }

    #[test]
    fn unknown_keys_and_half_objects_are_refused_by_name() {
        let e = field(r#"{"root":"/x","store":"y"}"#).unwrap_err();
        assert!(e.contains("unknown key `store`"), "{e}");
        let e = field(r#"{"git":"/x"}"#).unwrap_err();
        assert!(e.contains("either `{root: DIR}`"), "{e}");
        let e = field("3").unwrap_err();
        assert!(e.contains("a fixture name"), "{e}");
        assert_eq!(
            FixtureSource::Root(" ".into()).problem().as_deref(),
            Some("empty `fixture.root`")
        );
    }
}
