//! The symbol reader on lines shaped like each language's real code: the definition forms
//! each language uses (assignments and exports in JavaScript, receivers in Go, extension
//! functions in Kotlin, `def self.x` in Ruby, ...), and lines that look alike but define
//! nothing (calls, control flow, strings, comments, here-documents).

mod symbol_reading;

use findbench_engine::tree::symbols::{Language, SymbolKind};
use symbol_reading::{expect, names, pairs, read};
use SymbolKind::*;

#[test]
fn extensions_name_every_language() {
    for (ext, language) in [
        ("jsx", Language::JavaScript),
        ("mjs", Language::JavaScript),
        ("cjs", Language::JavaScript),
        ("tsx", Language::TypeScript),
        ("mts", Language::TypeScript),
        ("cts", Language::TypeScript),
        ("kt", Language::Kotlin),
        ("kts", Language::Kotlin),
        ("cs", Language::CSharp),
        ("rb", Language::Ruby),
        ("php", Language::Php),
        ("swift", Language::Swift),
        ("scala", Language::Scala),
        ("sh", Language::Shell),
        ("bash", Language::Shell),
        ("zsh", Language::Shell),
    ] {
        assert_eq!(Language::from_extension(ext), Some(language), "{ext}");
    }
    assert_eq!(Language::from_extension("md"), None);
}

#[test]
fn javascript_functions_assigned_to_exports_and_properties() {
    let src = "'use strict';\n\
               var deprecate = require('depd')('express');\n\
               exports.parseHeader = function (str) {\n  return str;\n};\n\
               module.exports.compileTrust = function(val) {\n};\n\
               app.listen = function listen() {\n  var server = http.createServer(this);\n};\n\
               proto.handle = (req, res, next) => {\n  next();\n};\n\
               res.contentType = res.type = function contentType(type) {\n};\n\
               Router.prototype.route = function route(path) {\n};\n\
               exports.etag = createETagGenerator({ weak: false });\n\
               app.enabled = true;\n\
               const render = (view, opts) => view(opts);\n\
               const load = function (name) {};\n\
               let shim = async (x) => x;\n\
               module.exports = function createApplication() {\n};\n";
    expect(
        Language::JavaScript,
        src,
        &[
            (Function, "parseHeader"),
            (Function, "compileTrust"),
            (Method, "listen"),
            (Method, "handle"),
            (Method, "contentType"),
            (Method, "route"),
            (Function, "render"),
            (Function, "load"),
            (Function, "shim"),
            (Function, "createApplication"),
        ],
    );
    let got = read(Language::JavaScript, src);
    assert!(
        got.iter().all(|s| s.3),
        "assigned functions define: {got:?}"
    );
}

#[test]
fn javascript_object_literal_members_and_nested_named_functions() {
    let src = "module.exports = {\n\
               \x20 get header() {\n    return this.req.headers;\n  },\n\
               \x20 set header(val) {\n    this.req.headers = val;\n  },\n\
               \x20 toJSON() {\n    return only(this, ['method']);\n  },\n\
               \x20 inspect: function () {\n    return this.toJSON();\n  },\n\
               \x20 accepts: (types) => this.accept.types(types),\n\
               \x20 status: 404,\n\
               \x20 body: {},\n\
               };\n\
               function createETagGenerator(options) {\n\
               \x20 return function generateETag(body, encoding) {\n\
               \x20   if (/^https?:\\/\\//i.test(body)) {\n      return body;\n    }\n\
               \x20   send(body, encoding);\n  };\n}\n\
               module.exports = class Application extends Emitter {\n\
               \x20 listen(...args) {\n    return server.listen(...args);\n  }\n}\n";
    expect(
        Language::JavaScript,
        src,
        &[
            (Method, "header"),
            (Method, "header"),
            (Method, "toJSON"),
            (Method, "inspect"),
            (Method, "accepts"),
            (Function, "createETagGenerator"),
            (Function, "generateETag"),
            (Class, "Application"),
            (Method, "listen"),
        ],
    );
}

#[test]
fn javascript_calls_control_flow_and_templates_define_nothing() {
    let src = "foo(x);\nif (ready) {\n  run(x);\n}\nfor (const k of keys) {\n}\n\
               app.use(function (req, res) {\n  res.end();\n});\n\
               const html = `\n  function fake() {}\n  ${value}\n`;\n\
               switch (x) {\n  case 1: {\n    call(y);\n  }\n}\n\
               x == function () {};\n";
    assert_eq!(names(Language::JavaScript, src), ["html"]);
}

#[test]
fn typescript_exports_members_and_multi_line_heads() {
    let src = "export default function createInstance(defaults?: Options): KyInstance {\n}\n\
               export const isObject = (value: unknown): value is object => value !== null;\n\
               export const identity = <T,>(x: T) => x;\n\
               export const LIMIT = 10;\n\
               export class ZodObject<\n  T extends ZodRawShape,\n  Output = T,\n\
               > extends ZodType<Output> {\n\
               \x20 public async parseAsync(data: unknown): Promise<T> {\n    return data;\n  }\n\
               \x20 private static readonly cache: Map<string, T> = new Map();\n\
               \x20 protected catch(def: T): ZodCatch<this>;\n\
               \x20 get shape() {\n    return this._def.shape();\n  }\n}\n\
               export declare namespace z {\n}\n\
               export abstract class Base {}\n";
    expect(
        Language::TypeScript,
        src,
        &[
            (Function, "createInstance"),
            (Function, "isObject"),
            (Function, "identity"),
            (Const, "LIMIT"),
            (Class, "ZodObject"),
            (Method, "parseAsync"),
            (Method, "catch"),
            (Method, "shape"),
            (Namespace, "z"),
            (Class, "Base"),
        ],
    );
    let got = read(Language::TypeScript, src);
    let catch = got.iter().find(|s| s.1 == "catch").unwrap();
    assert!(!catch.3, "an overload signature declares: {got:?}");
}

#[test]
fn ruby_methods_classes_and_modules() {
    let src = "# frozen_string_literal: true\nmodule Rack\n  class Request < Base\n\
               \x20   def self.ip_filter(ip)\n      ip\n    end\n\
               \x20   def initialize(env)\n      @env = env\n    end\n\
               \x20   def media_type?\n    end\n\
               \x20   def body=(value)\n    end\n\
               \x20   private def parse_query(qs, d = '&;')\n    end\n\
               \x20   class << self\n      def default_app\n      end\n    end\n\
               \x20 end\n\
               \x20 class Utils::Escape\n  end\nend\n\
               def helper; end\n";
    expect(
        Language::Ruby,
        src,
        &[
            (Namespace, "Rack"),
            (Class, "Request"),
            (Method, "ip_filter"),
            (Method, "initialize"),
            (Method, "media_type?"),
            (Method, "body="),
            (Method, "parse_query"),
            (Method, "default_app"),
            (Class, "Utils::Escape"),
            (Function, "helper"),
        ],
    );
}

#[test]
fn ruby_comments_docs_and_here_documents_define_nothing() {
    let src = "# def commented\n=begin\ndef in_block_comment\nend\n=end\n\
               html = <<~HTML\n  def in_heredoc\n  class NotAClass\nHTML\n\
               list << item\nfoo.def_bar(1)\nclassify(x)\n";
    assert!(names(Language::Ruby, src).is_empty());
}

#[test]
fn php_functions_classes_traits_and_methods() {
    let src = "<?php\nnamespace GuzzleHttp;\n\nuse Psr\\Http\\Message\\RequestInterface;\n\
               # a comment: function commented() {}\n\
               function describe_type($input): string\n{\n    return gettype($input);\n}\n\
               #[\\Attribute]\nfinal class Client implements ClientInterface\n{\n\
               \x20   use ClientTrait;\n\
               \x20   public function __construct(array $config = [])\n    {\n\
               \x20       $this->configureDefaults($config);\n\
               \x20       $fn = function ($x) { return $x; };\n    }\n\
               \x20   public static function &getInstance(): self\n    {\n    }\n\
               \x20   abstract protected function transfer(RequestInterface $r);\n}\n\
               interface ClientInterface\n{\n    public function send(RequestInterface $request);\n}\n\
               trait ClientTrait\n{\n}\nenum Suit: string\n{\n}\n";
    expect(
        Language::Php,
        src,
        &[
            (Function, "describe_type"),
            (Class, "Client"),
            (Method, "__construct"),
            (Method, "getInstance"),
            (Method, "transfer"),
            (Interface, "ClientInterface"),
            (Method, "send"),
            (Trait, "ClientTrait"),
            (Enum, "Suit"),
        ],
    );
    let got = read(Language::Php, src);
    let transfer = got.iter().find(|s| s.1 == "transfer").unwrap();
    assert!(!transfer.3, "an abstract method declares: {got:?}");
}

#[test]
fn swift_types_functions_extensions_and_protocols() {
    let src = "import Foundation\n\n\
               public final class Session: @unchecked Sendable {\n\
               \x20   @discardableResult\n\
               \x20   open func request(_ convertible: URLConvertible) -> DataRequest {\n\
               \x20       perform(convertible)\n    }\n\
               \x20   class func makeDefault() -> Session { Session() }\n\
               \x20   static func == (lhs: Session, rhs: Session) -> Bool { true }\n\
               \x20   private(set) var count = 0\n}\n\
               public struct HTTPHeaders {\n}\n\
               public enum AFError: Error {\n    case explicitlyCancelled\n}\n\
               public protocol RequestInterceptor {\n    func adapt(_ request: URLRequest) throws -> URLRequest\n}\n\
               extension DataRequest.Validation {\n    func validate() -> Self { self }\n}\n\
               actor Counter {}\n\
               public typealias AFResult<Success> = Result<Success, AFError>\n\
               func topLevel<T: Decodable>(_ type: T.Type) async throws -> T {\n}\n";
    expect(
        Language::Swift,
        src,
        &[
            (Class, "Session"),
            (Method, "request"),
            (Method, "makeDefault"),
            (Struct, "HTTPHeaders"),
            (Enum, "AFError"),
            (Interface, "RequestInterceptor"),
            (Method, "adapt"),
            (Extension, "Validation"),
            (Method, "validate"),
            (Class, "Counter"),
            (Type, "AFResult"),
            (Function, "topLevel"),
        ],
    );
    let got = read(Language::Swift, src);
    let def = |n: &str| got.iter().find(|s| s.1 == n).unwrap().3;
    assert!(!def("adapt"), "a protocol requirement declares: {got:?}");
    assert!(
        !def("Validation"),
        "an extension declares its type: {got:?}"
    );
    assert!(def("request") && def("topLevel"));
}

#[test]
fn kotlin_functions_extensions_objects_and_classes() {
    let src = "package io.ktor.server\n\nimport io.ktor.http.*\n\n\
               @Suppress(\"unused\")\n\
               public data class HttpMethod(val value: String) {\n\
               \x20   public companion object {\n\
               \x20       public fun parse(method: String): HttpMethod = HttpMethod(method)\n    }\n}\n\
               public fun <T : Any> ApplicationCall.receiveNullable(type: TypeInfo): T? {\n}\n\
               fun String?.orEmptyHeader(): String = this ?: \"\"\n\
               internal suspend inline fun withRetry(block: () -> Unit) {\n    block()\n}\n\
               public object Compression\n\
               sealed interface Event\n\
               enum class Level { INFO, DEBUG }\n\
               fun interface Handler {\n    fun handle(call: Call)\n}\n\
               typealias Pipeline = List<Phase>\n\
               const val MAX_RETRIES = 3\n\
               val lazyValue = lazy { compute() }\n\
               abstract class Base {\n    abstract fun start(): Job\n}\n";
    expect(
        Language::Kotlin,
        src,
        &[
            (Class, "HttpMethod"),
            (Method, "parse"),
            (Function, "receiveNullable"),
            (Function, "orEmptyHeader"),
            (Function, "withRetry"),
            (Object, "Compression"),
            (Interface, "Event"),
            (Enum, "Level"),
            (Interface, "Handler"),
            (Method, "handle"),
            (Type, "Pipeline"),
            (Const, "MAX_RETRIES"),
            (Class, "Base"),
            (Method, "start"),
        ],
    );
    let got = read(Language::Kotlin, src);
    let def = |n: &str| got.iter().find(|s| s.1 == n).unwrap().3;
    assert!(
        def("parse") && def("orEmptyHeader"),
        "an expression body defines"
    );
    assert!(
        !def("start") && !def("handle"),
        "abstract members declare: {got:?}"
    );
}

#[test]
fn kotlin_lambdas_and_multi_line_strings_define_nothing() {
    let src = "fun main() {\n    routing { call ->\n        call.respond(\"ok\")\n    }\n\
               \x20   val sql = \"\"\"\n        fun fake() {}\n        class Fake\n    \"\"\"\n}\n";
    assert_eq!(names(Language::Kotlin, src), ["main"]);
}

#[test]
fn scala_defs_objects_traits_and_case_classes() {
    let src = "package fastparse\n\nimport scala.annotation.tailrec\n\n\
               sealed trait Parsed[+T] {\n  def isSuccess: Boolean\n}\n\
               object Parsed {\n\
               \x20 final case class Success[+T](value: T, index: Int) extends Parsed[T] {\n\
               \x20   def isSuccess = true\n  }\n\
               \x20 case object Empty\n}\n\
               private[fastparse] class ParsingRun[+T](val input: ParserInput) {\n\
               \x20 @tailrec\n  private[this] def loop(i: Int): Int = if (i > 0) loop(i - 1) else i\n\
               \x20 def this(s: String) = this(IndexedParserInput(s))\n\
               \x20 override def toString(): String = \"run\"\n}\n\
               implicit class EagerOps[T](val parse0: T) {}\n\
               enum Color { case Red }\n\
               type Parser[T] = ParsingRun[T] => ParsingRun[T]\n";
    expect(
        Language::Scala,
        src,
        &[
            (Trait, "Parsed"),
            (Method, "isSuccess"),
            (Object, "Parsed"),
            (Class, "Success"),
            (Method, "isSuccess"),
            (Object, "Empty"),
            (Class, "ParsingRun"),
            (Method, "loop"),
            (Method, "toString"),
            (Class, "EagerOps"),
            (Enum, "Color"),
            (Type, "Parser"),
        ],
    );
    let got = read(Language::Scala, src);
    assert!(!got[1].3, "an abstract def declares: {got:?}");
    assert!(got[4].3, "`def x = value` defines: {got:?}");
}

#[test]
fn csharp_types_methods_constructors_and_properties() {
    let src = "\u{feff}using System;\nusing System.Collections.Generic;\n\n\
               namespace Newtonsoft.Json.Linq\n{\n\
               \x20   [Serializable]\n\
               \x20   public partial class JArray : JContainer, IList<JToken>\n    {\n\
               \x20       private readonly List<JToken> _values = new List<JToken>();\n\
               \x20       public JArray(params object[] content) : this()\n        {\n\
               \x20           Add(content);\n            if (content == null) { return; }\n        }\n\
               \x20       public override JTokenType Type => JTokenType.Array;\n\
               \x20       public int Count { get; private set; }\n\
               \x20       public static new JArray Load(JsonReader reader, JsonLoadSettings? settings)\n        {\n\
               \x20           return new JArray();\n        }\n\
               \x20       public Dictionary<string, int> Index<T>(T key) where T : class\n        {\n        }\n\
               \x20       public override global::System.Data.DataSet Clone() { return null; }\n\
               \x20       void IDisposable.Dispose() { }\n\
               \x20       public event EventHandler Changed;\n\
               \x20       public string this[int index] { get { return null; } }\n\
               \x20       internal abstract Task<IList<int>> ReadAsync(CancellationToken token);\n\
               \x20       private const string Verbatim = @\"C:\\temp\\\";\n\
               \x20   }\n\
               \x20   public interface IJsonLineInfo\n    {\n        bool HasLineInfo();\n    }\n\
               \x20   public readonly record struct Point(int X, int Y);\n\
               \x20   public enum Formatting { None, Indented }\n\
               \x20   public delegate void Handler(object sender);\n\
               }\n";
    expect(
        Language::CSharp,
        src,
        &[
            (Namespace, "Linq"),
            (Class, "JArray"),
            (Method, "JArray"),
            (Property, "Type"),
            (Property, "Count"),
            (Method, "Load"),
            (Method, "Index"),
            (Method, "Clone"),
            (Method, "Dispose"),
            (Method, "ReadAsync"),
            (Interface, "IJsonLineInfo"),
            (Method, "HasLineInfo"),
            (Record, "Point"),
            (Enum, "Formatting"),
            (Type, "Handler"),
        ],
    );
    let got = read(Language::CSharp, src);
    let def = |n: &str| got.iter().find(|s| s.1 == n).unwrap().3;
    assert!(def("Load") && def("Type") && def("Count"));
    assert!(!def("ReadAsync") && !def("HasLineInfo"), "no body: {got:?}");
}

#[test]
fn csharp_verbatim_strings_keep_the_braces_counted() {
    let src = "namespace N\n{\n    public class Tests\n    {\n\
               \x20       public void First()\n        {\n\
               \x20           Check(() => { Parse(@\"a[\\\"); }, \"b\");\n\
               \x20           var json = @\"{\n  \"\"key\"\": 1\n}\";\n        }\n\
               \x20       public void Second()\n        {\n        }\n    }\n}\n";
    assert_eq!(
        names(Language::CSharp, src),
        ["N", "Tests", "First", "Second"]
    );
}

#[test]
fn shell_functions_in_every_form() {
    let src = "#!/usr/bin/env bash\n\
               nvm_ls_remote() {\n  local PATTERN\n}\n\
               bats_all_in() { # <sorted-array> <values...>\n  :\n}\n\
               function nvm_die_on_prefix {\n  return 1\n}\n\
               function nvm_cd() (\n  cd \"$@\"\n)\n\
               nvm-install-latest-npm () {\n}\n\
               IFS=. read -ra parts <<<\"$1\"\n\
               after_here_string() {\n}\n";
    assert_eq!(
        names(Language::Shell, src),
        [
            "nvm_ls_remote",
            "bats_all_in",
            "nvm_die_on_prefix",
            "nvm_cd",
            "nvm-install-latest-npm",
            "after_here_string"
        ]
    );
}

#[test]
fn shell_calls_cases_comments_and_here_documents_define_nothing() {
    let src = "# fake() { }\nnvm_echo \"x\"\ncase \"$1\" in\n  install)\n    ;;\nesac\n\
               arr=(a b)\ncat <<EOF\nfake_in_heredoc() {\n}\nEOF\n\
               cat <<- 'END'\n\tfunction fake2 {\n\tEND\n\
               if [ -n \"$x\" ]; then\n  run() { :; }\nfi\n";
    assert_eq!(names(Language::Shell, src), ["run"]);
}

#[test]
fn go_methods_by_receiver_and_generics() {
    let src = "package cobra\n\n\
               func (c *Command) ExecuteC() (cmd *Command, err error) {\n}\n\
               func (s *Set[K]) Add(k K) {\n}\n\
               func Map[T, U any](xs []T, f func(T) U) []U {\n}\n\
               var initializers []func()\n";
    let got = pairs(Language::Go, src);
    assert_eq!(
        got[..3],
        [
            (Method, "ExecuteC".to_string()),
            (Method, "Add".to_string()),
            (Function, "Map".to_string())
        ]
    );
}

#[test]
fn java_generic_methods_annotations_and_throws() {
    let src = "package com.google.gson;\n\npublic final class JsonObject extends JsonElement {\n\
               \x20 public Map<String, JsonElement> asMap() {\n    return map;\n  }\n\
               \x20 public <T> TypeAdapter<T> create(Gson gson, TypeToken<T> type) {\n  }\n\
               \x20 public void write(Writer out) throws IOException, JsonIOException {\n  }\n\
               \x20 public boolean remove(JsonElement element) {\n  }\n\
               \x20 JsonObject(int capacity) {\n    super(capacity);\n  }\n\
               \x20 private final Gson gson = new Gson(\n      first(a),\n      second(b));\n}\n\
               public @interface Expose {\n  boolean serialize() default true;\n}\n";
    expect(
        Language::Java,
        src,
        &[
            (Class, "JsonObject"),
            (Method, "asMap"),
            (Method, "create"),
            (Method, "write"),
            (Method, "remove"),
            (Method, "JsonObject"),
            (Interface, "Expose"),
            (Method, "serialize"),
        ],
    );
}

#[test]
fn javascript_a_property_set_in_a_function_body_declares() {
    let src = "const createInstance = (defaults) => {\n\
               \x20 const ky = (input) => Ky.create(input, defaults);\n\
               \x20 ky.create = (newDefaults) => createInstance(newDefaults);\n\
               \x20 return ky;\n};\n\
               class Ky {\n  static create(input, options) {\n    return new Ky(input, options);\n  }\n}\n";
    let got = read(Language::JavaScript, src);
    let create: Vec<bool> = got
        .iter()
        .filter(|s| s.1 == "create")
        .map(|s| s.3)
        .collect();
    assert_eq!(create, [false, true], "{got:?}");
}

#[test]
fn javascript_and_typescript_constructors_are_methods() {
    // koa lib/application.js:39, zod packages/zod/src/v4/core/memoizer.ts:6
    let src = "module.exports = class Application extends Emitter {\n  constructor (options) {\n    super()\n  }\n}\n";
    expect(
        Language::JavaScript,
        src,
        &[(Class, "Application"), (Method, "constructor")],
    );
    let src =
        "export class Memoizer<T> {\n  constructor() {\n    this.value = undefined;\n  }\n}\n";
    expect(
        Language::TypeScript,
        src,
        &[(Class, "Memoizer"), (Method, "constructor")],
    );
}

#[test]
fn javascript_a_named_class_expression_defines_its_class() {
    // ky's test/headers.ts: a class expression assigned to a property in a test's body
    let src = "test('custom headers', async t => {\n\
               \tconst original = globalThis.Headers;\n\
               \tglobalThis.Headers = class Headers extends globalThis.Headers {\n\
               \t\tconstructor(init) {\n\t\t\tsuper(init);\n\t\t}\n\t};\n\
               \tglobalThis.Headers = original;\n});\n";
    for language in [Language::TypeScript, Language::JavaScript] {
        let got = read(language, src);
        assert_eq!(
            got,
            [
                (Class, "Headers".to_string(), 3, true),
                (Method, "constructor".to_string(), 4, true),
            ],
            "{language:?}"
        );
    }
    // passed as an argument, returned by a mixin, exported as the default
    let src = "register(class Store extends Base {\n  get() {}\n});\n\
               const mixin = (B) => {\n  return class Mixed extends B {\n  };\n};\n\
               export default class Router {\n}\n";
    let got = read(Language::JavaScript, src);
    let classes: Vec<(&str, bool)> = got
        .iter()
        .filter(|s| s.0 == Class)
        .map(|s| (s.1.as_str(), s.3))
        .collect();
    assert_eq!(
        classes,
        [("Store", true), ("Mixed", true), ("Router", true)],
        "{got:?}"
    );
}

#[test]
fn javascript_class_words_that_are_no_class_expression_define_nothing() {
    // an anonymous class, a property named `class`, a `className`, a comparison
    let src = "function setup() {\n\
               \x20 globalThis.Headers = class {\n  };\n\
               \x20 el.className = pick(className, 'x');\n\
               \x20 const kind = node.class;\n\
               \x20 if (a == class_) { run(klass); }\n}\n";
    let got = read(Language::JavaScript, src);
    assert_eq!(got, [(Function, "setup".to_string(), 1, true)], "{got:?}");
}
