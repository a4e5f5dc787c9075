; Written for this probe: tree-sitter-bash ships no tags query.
(function_definition name: (word) @name) @definition.function
