; Trait methods without a body (`fn next(&mut self) -> Option<u8>;`).
(function_signature_item name: (identifier) @name) @definition.method
