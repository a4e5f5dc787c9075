; Written for this probe: tree-sitter-scala exposes no tags query constant. Definitions only.
(class_definition name: (_) @name) @definition.class
(object_definition name: (_) @name) @definition.object
(trait_definition name: (_) @name) @definition.interface
(enum_definition name: (_) @name) @definition.enum
(function_definition name: (_) @name) @definition.function
(function_declaration name: (_) @name) @definition.function
(type_definition name: (type_identifier) @name) @definition.type
(given_definition name: (_) @name) @definition.variable
