(preproc_def name: (identifier) @name) @definition.macro
(preproc_function_def name: (identifier) @name) @definition.macro
(alias_declaration name: (type_identifier) @name) @definition.type
(struct_specifier name: (template_type name: (type_identifier) @name) body: (_)) @definition.class
(class_specifier name: (template_type name: (type_identifier) @name)) @definition.class
(function_declarator declarator: (destructor_name) @name) @definition.method
(function_declarator declarator: (operator_name) @name) @definition.method
(function_declarator declarator: (template_function name: (identifier) @name)) @definition.function
(function_declarator declarator: (qualified_identifier scope: (template_type) name: (identifier) @name)) @definition.method
(function_declarator declarator: (qualified_identifier name: (qualified_identifier name: (identifier) @name))) @definition.method
