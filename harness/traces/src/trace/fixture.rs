//! A trace's `fixture` as written: a directory name under `--fixtures` (a string, as every
//! trace before `findbench import` wrote it), or an object naming the tree itself: `{root:
//! DIR}` (the directory an agent session ran in) or `{git: DIR, rev: COMMIT}` (that commit
//! of the repository at `DIR`, materialized as a corpus `{git, rev}` fixture is).
//!
//! A string keeps its check that it stays inside `--fixtures`; an object names its tree
//! outright, as `replay --root` does.

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::path::{Path, PathBuf};

/// The tree an object `fixture` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixtureSource {
    /// The directory itself (absolute, or relative to where replay runs).
    Root(String),
    /// Commit `rev` of the repository at `git` (a clone, its `.git`, or a bare repository).
    Git { git: String, rev: String },
}

impl FixtureSource {
    /// The name replay and clusters show for the fixture: the root as written, or
    /// `DIR@REV`.
    pub fn label(&self) -> String {
        match self {
            FixtureSource::Root(root) => root.clone(),
            FixtureSource::Git { git, rev } => format!("{git}@{rev}"),
        }
    }

    /// The directory to load: the root (when it is a directory here), or the commit's
    /// tree materialized into the git cache (`findbench_eval::corpus::git`).
    pub fn tree_dir(&self) -> Result<PathBuf, String> {
        match self {
            FixtureSource::Root(root) if Path::new(root).is_dir() => Ok(PathBuf::from(root)),
            FixtureSource::Root(_) => Err("not a directory on this machine".into()),
            FixtureSource::Git { git, rev } => {
                findbench_eval::corpus::git::materialize(Path::new(git), rev)
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
            _ => None,
        }
    }
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
            FixtureField::Source(FixtureSource::Git { git, rev }) => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("git", git)?;
                map.serialize_entry("rev", rev)?;
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
        let (mut root, mut git, mut rev) = (None, None, None);
        while let Some(key) = map.next_key::<String>()? {
            let slot = match key.as_str() {
                "root" => &mut root,
                "git" => &mut git,
                "rev" => &mut rev,
                other => {
                    return Err(de::Error::custom(format!(
                        "unknown key `{other}` in `fixture` (one of root, git, rev)"
                    )))
                }
            };
            *slot = Some(map.next_value::<String>()?);
        }
        let source = match (root, git, rev) {
            (Some(root), None, None) => FixtureSource::Root(root),
            (None, Some(git), Some(rev)) => FixtureSource::Git { git, rev },
            _ => {
                return Err(de::Error::custom(
                    "`fixture` is either `{root: DIR}` or `{git: DIR, rev: COMMIT}`",
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
        };
        assert_eq!(git.label(), "/r@abc");
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
