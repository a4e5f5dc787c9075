//! The symbol reader on lines shaped like real C and C++: export macros, namespaces and
//! out-of-class definitions, function-pointer typedefs, return types on the line above the
//! name, and calls and macros that look alike but define nothing.

mod symbol_reading;

use findbench_engine::tree::symbols::{Language, SymbolKind};
use symbol_reading::{expect, names, pairs, read};
use SymbolKind::*;

#[test]
fn c_and_cpp_export_macros_namespaces_and_out_of_class_definitions() {
    let src = "CJSON_PUBLIC(cJSON *) cJSON_Parse(const char *value)\n{\n}\n\
               CJSON_PUBLIC(void) cJSON_Delete(cJSON *item);\n";
    let got = read(Language::C, src);
    assert_eq!(
        got.iter().map(|s| (s.1.as_str(), s.3)).collect::<Vec<_>>(),
        [("cJSON_Parse", true), ("cJSON_Delete", false)]
    );
    let src = "namespace fmt\n{\nclass GTEST_API_ TestInfo {\n public:\n  void Run();\n};\n\
               auto detail::buffer<T>::grow(size_t n) -> void {\n}\n}\n";
    expect(
        Language::Cpp,
        src,
        &[
            (Namespace, "fmt"),
            (Class, "TestInfo"),
            (Method, "Run"),
            (Method, "detail::buffer<T>::grow"),
        ],
    );
}

#[test]
fn cpp_forms_of_real_headers() {
    // include/nlohmann/thirdparty/hedley/hedley.hpp:1280-1288: a define indented under an
    // `#if` continued over lines
    let src = "#if \\\n    JSON_HEDLEY_HAS_ATTRIBUTE(nonnull) || \\\n    JSON_HEDLEY_GCC_VERSION_CHECK(3,3,0)\n\
               \x20   #define JSON_HEDLEY_NON_NULL(...) __attribute__((__nonnull__(__VA_ARGS__)))\n\
               #else\n    #define JSON_HEDLEY_NON_NULL(...)\n#endif\n";
    expect(
        Language::Cpp,
        src,
        &[
            (Macro, "JSON_HEDLEY_NON_NULL"),
            (Macro, "JSON_HEDLEY_NON_NULL"),
        ],
    );
    // tests/thirdparty/doctest/doctest.h:226-228: a define below a macro call that ends its
    // line with `)`, which leaves no statement open
    let src = "DOCTEST_MSVC_SUPPRESS_WARNING(4623) // default constructor\n\n#define DOCTEST_CLEAN_BEGIN                                 \\\n    DOCTEST_MSVC_SUPPRESS_WARNING_PUSH\n";
    expect(Language::Cpp, src, &[(Macro, "DOCTEST_CLEAN_BEGIN")]);
    // include/nlohmann/detail/exceptions.hpp:199 and json.hpp:4081: a macro call above a
    // declaration annotates it; it is not itself a method
    let src = "class lexer {\n  public:\n    JSON_HEDLEY_NON_NULL(2)\n    static bool sax_parse(InputType&& i, SAX* sax)\n    {\n        return true;\n    }\n};\n";
    let got = read(Language::Cpp, src);
    assert_eq!(
        got.iter().map(|s| (s.1.as_str(), s.3)).collect::<Vec<_>>(),
        [("lexer", true), ("sax_parse", true)],
        "{got:?}"
    );
    // tests/thirdparty/Fuzzer/FuzzerMutate.h:96: a nested struct after an access label
    let src = "class MutationDispatcher {\npublic:\n  void SetCorpus(const InputCorpus *Corpus) { this->Corpus = Corpus; }\n\
               private:\n\n  struct Mutator {\n    const char *Name;\n  };\n};\n";
    expect(
        Language::Cpp,
        src,
        &[
            (Class, "MutationDispatcher"),
            (Method, "SetCorpus"),
            (Struct, "Mutator"),
        ],
    );
    // tests/thirdparty/doctest/doctest.h:2049: an export macro before the name, the brace on
    // the next line
    let src = "struct DOCTEST_INTERFACE IReporter\n{\n    virtual void report_query(const QueryData&) = 0;\n};\n";
    expect(
        Language::Cpp,
        src,
        &[(Struct, "IReporter"), (Method, "report_query")],
    );
    // include/fmt/base.h:1612: a struct defined inside a function's body
    let src = "template <typename Char, typename Handler>\nFMT_CONSTEXPR auto parse_replacement_field(const Char* begin, Handler&& handler) -> const Char* {\n\
               \x20 switch (*begin) {\n  default: {\n    struct id_adapter {\n      Handler& handler;\n      int arg_id;\n    };\n  }\n  }\n}\n";
    let got = names(Language::Cpp, src);
    assert!(got.contains(&"id_adapter".to_string()), "{got:?}");
}

#[test]
fn c_function_pointer_typedefs_wrapped_and_aliases_in_blocks() {
    // ktor's vendored include/curl/curl.h:490: the parameters on the lines below
    let src = "typedef int (*curl_debug_callback)\n       (CURL *handle,\n        curl_infotype type,\n        void *userptr);\n";
    expect(Language::C, src, &[(Type, "curl_debug_callback")]);
    // fmt's test/gtest/gmock/gmock.h:3283: an alias inside a function body
    let src = "template <typename From, typename To>\nbool Check(From from) {\n  if (true) {\n      using ToType = typename std::remove_cv<To>::type;\n      return true;\n  }\n}\n";
    let got = pairs(Language::Cpp, src);
    assert!(got.contains(&(Type, "ToType".to_string())), "{got:?}");
    // gmock.h:6592: a typedef whose type is a macro call
    let src = "template <typename Optional>
class Impl : public MatcherInterface<Optional> {
 public:
  typedef GTEST_REMOVE_REFERENCE_AND_CONST_(Optional) OptionalView;
  typedef typename OptionalView::value_type ValueType;
};
";
    expect(
        Language::Cpp,
        src,
        &[(Class, "Impl"), (Type, "OptionalView"), (Type, "ValueType")],
    );
}

#[test]
fn cpp_a_return_type_on_the_line_above_the_name() {
    // googletest's gmock-more-matchers / gmock.h: a function template whose return type ends
    // the line above its name, the parameters below
    let src = "namespace testing {\n\
               template <typename... Args>\n\
               internal::AnyOfMatcher<typename std::decay<const Args&>::type...>\n\
               AnyOf(Args&&... matchers) {\n\
               \x20 return internal::AnyOfMatcher<typename std::decay<const Args&>::type...>(\n\
               \x20     matchers...);\n}\n\
               template <typename T>\n\
               typename std::enable_if<std::is_integral<T>::value, const T&>::type\n\
               Collect(const T& item,\n        int limit);\n\
               \x20 template <typename T>\n\
               \x20 std::vector<T>\n\
               \x20 Indented(T item) {\n    return {item};\n  }\n}\n";
    let got = read(Language::Cpp, src);
    assert_eq!(
        got,
        [
            (Namespace, "testing".to_string(), 1, true),
            (Function, "AnyOf".to_string(), 4, true),
            (Function, "Collect".to_string(), 10, false),
            (Function, "Indented".to_string(), 14, true),
        ],
        "{got:?}"
    );
}

#[test]
fn cpp_a_pack_expansion_in_the_return_type_before_the_name() {
    // fmt's test/gtest/gmock/gmock.h:7778: the return type expands a pack (`...`) before
    // the name, the parameters on the line below
    let src = "template <typename... Args>\n\
               internal::AnyOfMatcher<typename std::decay<const Args&>::type...> AnyOf(\n\
               \x20   const Args&... matchers) {\n\
               \x20 return internal::AnyOfMatcher<typename std::decay<const Args&>::type...>(\n\
               \x20     matchers...);\n}\n";
    let got = read(Language::Cpp, src);
    assert_eq!(got, [(Function, "AnyOf".to_string(), 2, true)], "{got:?}");
    // a member called on an object stays a call: `handler.run(` at file scope
    let src = "auto done = handler.run(\n    1);\nstd::vector<int> values...run(x);\n";
    assert_eq!(read(Language::Cpp, src), []);
}

#[test]
fn cpp_calls_and_macros_below_a_type_line_are_no_functions() {
    // calls in a function's body, at column 0 or indented, below a line ending in a type;
    // a macro call below a return type; a statement left open by `&&`
    let src = "void Run() {\n\
               std::vector<int>\n\
               Fill(values);\n\
               \x20 const Foo&\n\
               \x20 Apply(x);\n}\n\
               template <typename T>\n\
               internal::Matcher<T>\n\
               GMOCK_MATCHER_(T) {\n}\n\
               static const bool kReady = enabled &&\n\
               Check(flags);\n";
    let got = read(Language::Cpp, src);
    assert_eq!(got, [(Function, "Run".to_string(), 1, true)], "{got:?}");
}
