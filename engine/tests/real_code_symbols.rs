//! The symbol reader on code shaped like real trees: every declaration wherever it stands
//! in the file (past the first 80 lines), methods of every language, and whether the line
//! defines the symbol or only declares it.

use findbench_engine::tree::symbols::{scan_file, Language, Symbol, SymbolKind};

/// 100 lines of a file's preamble that declare nothing.
fn preamble(comment: &str) -> String {
    format!("{comment} preamble line\n").repeat(100)
}

/// (kind, name, line, definition) of every symbol.
fn read(language: Language, src: &str) -> Vec<(SymbolKind, String, u32, bool)> {
    scan_file(language, src)
        .into_iter()
        .map(|s: Symbol| (s.kind, s.name, s.line, s.definition))
        .collect()
}

fn find<'a>(
    got: &'a [(SymbolKind, String, u32, bool)],
    name: &str,
) -> &'a (SymbolKind, String, u32, bool) {
    got.iter()
        .find(|s| s.1 == name)
        .unwrap_or_else(|| panic!("`{name}` not read: {got:?}"))
}

#[test]
fn rust_items_impl_and_trait_methods_and_macros_past_line_80() {
    let src = preamble("//")
        + "pub struct ThreadPool {\n    workers: usize,\n}\n\
           impl ThreadPool {\n    pub fn install<OP, R>(&self, op: OP) -> R\n    where\n        OP: FnOnce() -> R,\n    {\n        op()\n    }\n}\n\
           pub trait IntoParallelIterator {\n    type Iter;\n    fn into_par_iter(self) -> Self::Iter;\n    fn par_len(&self) -> usize {\n        0\n    }\n}\n\
           impl<'a, T: Sync> IntoParallelIterator for &'a [T] {\n    type Iter = Iter<'a, T>;\n    #[inline]\n    fn into_par_iter(self) -> Self::Iter {\n        Iter { slice: self }\n    }\n}\n\
           macro_rules! forward_to_par {\n    () => {};\n}\n\
           pub(crate) unsafe extern \"C\" fn raw_entry() {}\n\
           mod detail;\n\
           static GLOB: &str = \"**/*.rs\";\n\
           pub fn after_a_glob_string() {}\n";
    let got = read(Language::Rust, &src);
    assert!(
        find(&got, "after_a_glob_string").3,
        "a `/*` inside a string opens no comment"
    );
    assert_eq!(find(&got, "ThreadPool").2, 101);
    let install = find(&got, "install");
    assert_eq!(
        (install.0, install.2, install.3),
        (SymbolKind::Function, 105, true),
        "a method whose where clause puts the body lines below"
    );
    // the trait's method without a body declares; the impl's defines
    let par: Vec<_> = got.iter().filter(|s| s.1 == "into_par_iter").collect();
    assert_eq!(par.len(), 2, "{got:?}");
    assert_eq!((par[0].2, par[0].3), (114, false));
    assert_eq!((par[1].2, par[1].3), (122, true));
    assert!(find(&got, "par_len").3, "a default method body defines");
    let iter: Vec<_> = got.iter().filter(|s| s.1 == "Iter").collect();
    assert_eq!(
        iter.iter().map(|s| s.3).collect::<Vec<_>>(),
        [false, true],
        "an associated type declares in the trait, defines in the impl"
    );
    assert_eq!(find(&got, "forward_to_par").0, SymbolKind::Macro);
    assert!(find(&got, "raw_entry").3);
    assert!(
        !find(&got, "detail").3,
        "`mod detail;` declares a module kept elsewhere"
    );
}

#[test]
fn c_definitions_prototypes_typedefs_and_macros_past_line_80() {
    let src = preamble("/*").replace("preamble line\n", "preamble line */\n")
        + "#ifndef _NETDB_H\n# define _NETDB_H 1\n\
           extern int getaddrinfo (const char *__restrict __name,\n\
           \t\t\tconst char *__restrict __service,\n\
           \t\t\tstruct addrinfo **__restrict __pai);\n\
           extern int pthread_mutex_lock (pthread_mutex_t *__mutex)\n     __THROWNL __nonnull ((1));\n\
           __attribute__((visibility(\"default\"))) int exported_fn(void);\n\
           LIBFOO_API void foo_init(struct foo *f);\n\
           typedef struct sockaddr_storage_s {\n  int family;\n  char data[14];\n} sockaddr_storage_t;\n\
           typedef int (*compare_fn)(const void *, const void *);\n\
           typedef unsigned long my_size_t;\n\
           typedef void (APIENTRYP PFNGLDRAWPROC) (GLenum mode);\n\
           struct sockaddr_in {\n  short sin_family;\n};\n\
           static int\nparse_header (const char *buf,\n              size_t len)\n{\n  int x = helper(buf);\n  return x;\n}\n\
           struct node *next_node(struct node *n) {\n  return n->next;\n}\n\
           #define MAX_HEADER_LEN(x) \\\n    ((x) * 2 \\\n     + 1)\n\
           #endif\n";
    let got = read(Language::C, &src);
    let lines: Vec<(&str, u32, bool)> = got.iter().map(|s| (s.1.as_str(), s.2, s.3)).collect();
    for (name, line, definition) in [
        ("_NETDB_H", 102, true),
        ("getaddrinfo", 103, false),
        ("pthread_mutex_lock", 106, false),
        ("exported_fn", 108, false),
        ("foo_init", 109, false),
        ("sockaddr_storage_s", 110, true),
        ("sockaddr_storage_t", 113, true),
        ("compare_fn", 114, true),
        ("my_size_t", 115, true),
        ("PFNGLDRAWPROC", 116, true),
        ("sockaddr_in", 117, true),
        ("parse_header", 121, true),
        ("next_node", 127, true),
        ("MAX_HEADER_LEN", 130, true),
    ] {
        assert!(
            lines.contains(&(name, line, definition)),
            "({name}, {line}, {definition}) not in {lines:?}"
        );
    }
    // statements in bodies, the return type line and macro continuations declare nothing
    for not in ["helper", "int", "x"] {
        assert!(!lines.iter().any(|l| l.0 == not), "{not} in {lines:?}");
    }
    assert_eq!(got.len(), 14, "{lines:?}");
}

#[test]
fn cpp_class_members_and_out_of_class_definitions_past_line_80() {
    let src = preamble("//")
        + "namespace net {\nclass Resolver;\n\
           template <typename T>\nclass Cache final : public Base {\n public:\n  explicit Cache(int n);\n  \
           T lookup(const std::string& key) const;\n  int size() const { return n_; }\n\
           private:\n  int n_;\n};\n\
           template <typename T>\nT Cache<T>::lookup(const std::string& key) const {\n  return get(key);\n}\n\
           void Resolver::resolve(const Query& q)\n{\n}\n}  // namespace net\n\
           namespace {\n  struct ForceLinking {\n    ForceLinking() {\n      touch();\n    }\n  } linker;\n}\n";
    let got = read(Language::Cpp, &src);
    assert_eq!(
        (find(&got, "Resolver").2, find(&got, "Resolver").3),
        (102, false),
        "a forward declaration declares"
    );
    assert_eq!(find(&got, "Cache").0, SymbolKind::Class);
    let lookups: Vec<_> = got.iter().filter(|s| s.1.ends_with("lookup")).collect();
    let shown: Vec<(SymbolKind, &str, bool)> =
        lookups.iter().map(|s| (s.0, s.1.as_str(), s.3)).collect();
    assert_eq!(
        shown,
        [
            (SymbolKind::Method, "lookup", false),
            (SymbolKind::Method, "Cache<T>::lookup", true)
        ]
    );
    assert!(find(&got, "size").3, "a member defined in the class body");
    assert!(find(&got, "Resolver::resolve").3, "Allman-style body");
    assert!(
        find(&got, "ForceLinking").3,
        "a struct in an anonymous namespace"
    );
}

#[test]
fn python_classes_and_methods_past_line_80_not_in_docstrings() {
    let src = preamble("#")
        + "class FeedParser:\n    \"\"\"A feed-style parser.\n\n    class Example:\n        def not_a_method(self): ...\n    \"\"\"\n\n\
           \x20   def feed(self, data):\n        self._buffer.push(data)\n\n\
           \x20   async def _call_parse(self):\n        pass\n\n    def feed_eof(self):\n        pass\n\n\
           def message_from_string(s, *args, **kws):\n    return Parser(*args, **kws).parsestr(s)\n\
           x = eval(\"\"\"'''quoted\"\"\")\ndef after_quotes():\n    pass\n";
    let got = read(Language::Python, &src);
    let names: Vec<(&str, SymbolKind, u32)> =
        got.iter().map(|s| (s.1.as_str(), s.0, s.2)).collect();
    assert_eq!(
        names,
        [
            ("FeedParser", SymbolKind::Class, 101),
            ("feed", SymbolKind::Method, 108),
            ("_call_parse", SymbolKind::Method, 111),
            ("feed_eof", SymbolKind::Method, 114),
            ("message_from_string", SymbolKind::Function, 117),
            ("after_quotes", SymbolKind::Function, 120),
        ]
    );
}

#[test]
fn go_methods_groups_and_interfaces_past_line_80() {
    let src = preamble("//")
        + "type (\n\tHandler interface {\n\t\tServeHTTP(w ResponseWriter, r *Request)\n\t}\n\
           \tHeader map[string][]string\n\tconn struct {\n\t\tserver *Server\n\t}\n)\n\
           func (srv *Server) ListenAndServe() error {\n\treturn nil\n}\n\
           func (s *Set[T]) Add(v T) {\n}\n\
           func NewServeMux() *ServeMux {\n\tmux := new(ServeMux)\n\treturn mux\n}\n";
    let got = read(Language::Go, &src);
    let names: Vec<(&str, SymbolKind, bool)> =
        got.iter().map(|s| (s.1.as_str(), s.0, s.3)).collect();
    assert_eq!(
        names,
        [
            ("Handler", SymbolKind::Interface, true),
            ("ServeHTTP", SymbolKind::Method, false),
            ("Header", SymbolKind::Type, true),
            ("conn", SymbolKind::Struct, true),
            ("ListenAndServe", SymbolKind::Method, true),
            ("Add", SymbolKind::Method, true),
            ("NewServeMux", SymbolKind::Function, true),
        ]
    );
    assert_eq!(find(&got, "ListenAndServe").2, 110);
}

#[test]
fn typescript_and_javascript_class_methods_past_line_80() {
    let src = preamble("//")
        + "export class HttpClient {\n  private readonly base: string;\n  constructor(base: string) {\n    this.base = base;\n  }\n\
           \x20 async request<T>(\n    url: string,\n  ): Promise<T> {\n    if (url) {\n      log(url);\n    }\n    return fetch(url);\n  }\n\
           \x20 static create(): HttpClient {\n    return new HttpClient('');\n  }\n  handle = (e: Event) => {\n    e.stop();\n  };\n}\n\
           export interface Transport {\n  send(data: string): void;\n}\n\
           export function retryPolicy(n: number) {\n  return n;\n}\n";
    let got = read(Language::TypeScript, &src);
    let names: Vec<(&str, SymbolKind, bool)> =
        got.iter().map(|s| (s.1.as_str(), s.0, s.3)).collect();
    assert_eq!(
        names,
        [
            ("HttpClient", SymbolKind::Class, true),
            ("constructor", SymbolKind::Method, true),
            ("request", SymbolKind::Method, true),
            ("create", SymbolKind::Method, true),
            ("handle", SymbolKind::Method, true),
            ("Transport", SymbolKind::Interface, true),
            ("send", SymbolKind::Method, false),
            ("retryPolicy", SymbolKind::Function, true),
        ]
    );
    let js = read(Language::JavaScript, &src.replace(": Promise<T>", ""));
    assert!(js
        .iter()
        .any(|s| s.1 == "request" && s.0 == SymbolKind::Method));
}

#[test]
fn java_methods_and_constructors_past_line_80() {
    let src = preamble("//")
        + "package org.example;\n\npublic final class ConnectionPool {\n    private final int size;\n\n\
           \x20   public ConnectionPool(int size) {\n        this.size = size;\n    }\n\n\
           \x20   @Override\n    public synchronized Connection acquire(\n            long timeout) throws InterruptedException {\n\
           \x20       return take(timeout);\n    }\n}\n\
           interface Closer {\n    void closeAll();\n}\n";
    let got = read(Language::Java, &src);
    let names: Vec<(&str, SymbolKind, bool)> =
        got.iter().map(|s| (s.1.as_str(), s.0, s.3)).collect();
    assert_eq!(
        names,
        [
            ("ConnectionPool", SymbolKind::Class, true),
            ("ConnectionPool", SymbolKind::Method, true),
            ("acquire", SymbolKind::Method, true),
            ("Closer", SymbolKind::Interface, true),
            ("closeAll", SymbolKind::Method, false),
        ]
    );
    assert_eq!(find(&got, "acquire").2, 111);
}
