//! A profile by name: a built-in one, or one read from a JSON file (missing sections and
//! fields take today's defaults).

use super::sections::Profile;
use crate::error::{EngineError, Result};

impl Profile {
    /// A built-in profile by name, or a profile read from a JSON file (missing sections and
    /// fields take today's defaults).
    pub fn resolve(name_or_path: &str) -> Result<Profile> {
        if let Some(p) = Profile::builtin(name_or_path) {
            return Ok(p);
        }
        let path = std::path::Path::new(name_or_path);
        if !name_or_path.ends_with(".json") && !path.is_file() {
            return Err(EngineError::invalid_with_hint(
                format!("unknown profile `{name_or_path}`"),
                format!(
                    "built-in profiles are: {}; or pass a profile JSON file",
                    Profile::builtin_names().join(", ")
                ),
            ));
        }
        let bytes = std::fs::read(path).map_err(|e| EngineError::File {
            path: path.to_path_buf(),
            message: format!("cannot read profile: {e}"),
            hint: None,
        })?;
        serde_json::from_slice(&bytes).map_err(|e| EngineError::Parse {
            path: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })
    }
}
