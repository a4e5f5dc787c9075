//! What every tool on one fixture declares alike: the fixture field (`root` for a source
//! tree, `store` for an item store) and `profile`, each with its documentation, serde
//! default and clap option, after the tool's own fields; and the [`crate::ToolArgs`]
//! methods those two fields answer. The fields stay in the tool's struct, not a nested
//! one, because serde's `flatten` does not go with `deny_unknown_fields`.

/// Declares a tool's argument struct: `tree;` or `store;`, then the struct with the tool's
/// own fields; the fixture field and `profile` are added after them, and the struct
/// derives what every tool's does (serde with unknown fields denied, JSON Schema, clap).
macro_rules! fixture_tool_args {
    (tree; $($args:tt)*) => {
        fixture_tool_args!(@ {
            /// The source tree (walked once, honouring .gitignore); default: the server's start
            /// root (the current directory on the command line).
            #[serde(default)]
            #[cfg_attr(feature = "clap", arg(long, value_name = "DIR"))]
            pub root: Option<std::path::PathBuf>,
        } $($args)*);
    };
    (store; $($args:tt)*) => {
        fixture_tool_args!(@ {
            /// The item store: todo.json (`{"tasks": [...]}`) or JSON Lines; default: the
            /// server's start store ($FINDBENCH_STORE on the command line).
            #[serde(default)]
            #[cfg_attr(
                feature = "clap",
                arg(long, env = "FINDBENCH_STORE", value_name = "PATH")
            )]
            pub store: Option<std::path::PathBuf>,
        } $($args)*);
    };
    (@ { $($fixture:tt)* } $(#[$meta:meta])* pub struct $name:ident { $($fields:tt)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
        #[cfg_attr(feature = "clap", derive(clap::Args))]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            $($fields)*
            $($fixture)*
            /// Ranking profile: default, legacy, or a profile JSON file (default: `default`).
            #[serde(default)]
            #[cfg_attr(feature = "clap", arg(long, value_name = "NAME|FILE"))]
            pub profile: Option<String>,
        }
    };
}

/// The [`crate::ToolArgs`] methods of a struct declared by [`fixture_tool_args`] (`tree` or
/// `store`, as declared): its fixture, pointing it elsewhere, its profile, and its arguments
/// as JSON (the struct itself, as a recorder writes it).
macro_rules! fixture_methods {
    (tree) => {
        fixture_methods!(@ Root, root);
    };
    (store) => {
        fixture_methods!(@ Store, store);
    };
    (@ $kind:ident, $field:ident) => {
        fn fixture(&self) -> $crate::fixture::FixtureRef {
            $crate::fixture::FixtureRef::$kind(self.$field.clone())
        }

        fn set_fixture_path(&mut self, path: std::path::PathBuf) {
            self.$field = Some(path);
        }

        fn profile(&self) -> Option<&str> {
            self.profile.as_deref()
        }

        fn arguments(&self) -> serde_json::Value {
            serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
        }
    };
}
