(typealias_declaration name: (type_identifier) @name) @definition.type
