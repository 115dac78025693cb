package main

// gogen celparse [--out DIR] writes DIR/cel_parse.json (default
// ../../cel/tests/data): what cel-go's parser, configured as a Kubernetes 1.37
// API server configures it for CRD validation rules
// (k8s.io/apiserver/pkg/cel/environment.MustBaseEnvSet at compatibility
// version 1.37), makes of each expression:
//   - "macros": the keys (name:args:receiver, * for any number of arguments)
//     of every macro the environment's parser expands;
//   - "hand", "celgo", "random", "mutated": cases {"expr": text} with either
//     "ast" (the tree in debug.ToDebugString's layout, every node and map or
//     message entry followed by ^#id:offset#, the offset in code points where
//     the parser placed it) or "error" (iss.Err().Error());
//   - "built": the same for long expressions written as head + open×times +
//     inner + close×times + tail, where an answer longer than 4096 bytes is
//     given as "astFnv"/"errorFnv": the FNV-1a 64 hash of its text, in hex.
// "celgo" holds the inputs of cel-go's own parser tests, read from
// parser_test.go in the module cache when the corpus is generated. The
// expressions are parsed by both the new- and the stored-expressions
// environment; generation fails if the two ever answer differently.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"hash/fnv"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/debug"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apiserver/pkg/cel/environment"
)

func runCELParse(args []string) int {
	out, ok := parseOut("celparse", args, "directory", "cel", "tests", "data")
	if !ok {
		return 2
	}
	corpus, err := celParseCorpus()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gogen: celparse: %v\n", err)
		return 1
	}
	return writeCorpus("celparse", filepath.Join(out, "cel_parse.json"), corpus)
}

type celParsers struct{ envs []*cel.Env }

func (p celParsers) answer(expr string) (jObject, error) {
	var first jObject
	for i, env := range p.envs {
		var got jObject
		parsed, iss := env.Parse(expr)
		if iss != nil && iss.Err() != nil {
			got = jObject{"error": iss.Err().Error()}
		} else {
			native := parsed.NativeRep()
			got = jObject{"ast": debug.ToAdornedDebugString(native.Expr(), offsetAdorner{native.SourceInfo()})}
		}
		if i == 0 {
			first = got
		} else if fmt.Sprint(got) != fmt.Sprint(first) {
			return nil, genErrorf("the new- and stored-expressions environments parse %q differently", expr)
		}
	}
	return first, nil
}

// offsetAdorner writes each node's id and start offset.
type offsetAdorner struct{ info *celast.SourceInfo }

func (a offsetAdorner) GetMetadata(elem any) string {
	var id int64
	switch e := elem.(type) {
	case celast.Expr:
		id = e.ID()
	case celast.EntryExpr:
		id = e.ID()
	default:
		return ""
	}
	if r, ok := a.info.GetOffsetRange(id); ok {
		return fmt.Sprintf("^#%d:%d#", id, r.Start)
	}
	return fmt.Sprintf("^#%d:-#", id)
}

func celParseCorpus() (jObject, error) {
	set := environment.MustBaseEnvSet(version.MajorMinor(1, 37))
	p := celParsers{envs: []*cel.Env{set.NewExpressionsEnv(), set.StoredExpressionsEnv()}}
	var macros []any
	keys := []string{}
	for _, m := range p.envs[0].Macros() {
		keys = append(keys, m.MacroKey())
	}
	sort.Strings(keys)
	for _, k := range keys {
		macros = append(macros, k)
	}
	celgo, err := celGoParserTestInputs()
	if err != nil {
		return nil, err
	}
	hand := celParseHandCases()
	r := rand.New(rand.NewSource(2029))
	var random []string
	for len(random) < 2500 {
		random = append(random, genCELExpr(r, 0))
	}
	pool := append(append(append([]string{}, hand...), celgo...), random...)
	var mutated []string
	for len(mutated) < 2500 {
		mutated = append(mutated, mutateCEL(r, pool[r.Intn(len(pool))]))
	}
	out := jObject{"macros": macros}
	for _, g := range []struct {
		name  string
		exprs []string
	}{{"hand", hand}, {"celgo", celgo}, {"random", random}, {"mutated", mutated}} {
		seen := map[string]bool{}
		var cases []any
		for _, e := range g.exprs {
			if seen[e] {
				continue
			}
			seen[e] = true
			c, err := p.answer(e)
			if err != nil {
				return nil, err
			}
			c["expr"] = e
			cases = append(cases, c)
		}
		out[g.name] = cases
	}
	var built []any
	for _, b := range celBuiltCases() {
		c, err := p.answer(b.head + strings.Repeat(b.open, b.times) + b.inner + strings.Repeat(b.close, b.times) + b.tail)
		if err != nil {
			return nil, err
		}
		for _, k := range []string{"ast", "error"} {
			if v, ok := c[k].(string); ok && len(v) > 4096 {
				h := fnv.New64a()
				h.Write([]byte(v))
				delete(c, k)
				c[k+"Fnv"] = fmt.Sprintf("%016x", h.Sum64())
			}
		}
		c["head"], c["open"], c["times"], c["inner"], c["close"], c["tail"] = b.head, b.open, b.times, b.inner, b.close, b.tail
		built = append(built, c)
	}
	out["built"] = built
	return out, nil
}

// celGoParserTestInputs reads the I: inputs of cel-go's parser_test.go.
func celGoParserTestInputs() ([]string, error) {
	cache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return nil, genErrorf("go env GOMODCACHE: %v", err)
	}
	path := filepath.Join(strings.TrimSpace(string(cache)), "github.com", "google", "cel-go@v0.29.2", "parser", "parser_test.go")
	file, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		return nil, genErrorf("reading cel-go's parser tests: %v", err)
	}
	var inputs []string
	ast.Inspect(file, func(n ast.Node) bool {
		kv, ok := n.(*ast.KeyValueExpr)
		if !ok {
			return true
		}
		if key, ok := kv.Key.(*ast.Ident); !ok || key.Name != "I" {
			return true
		}
		if lit, ok := kv.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				inputs = append(inputs, s)
			}
		}
		return true
	})
	if len(inputs) < 100 {
		return nil, genErrorf("only %d inputs found in %s", len(inputs), path)
	}
	return inputs, nil
}

type celBuilt struct {
	head  string
	open  string
	times int
	inner string
	close string
	tail  string
}

func celBuiltCases() []celBuilt {
	var out []celBuilt
	for _, n := range []int{24, 248, 249, 250, 251, 300, 2000} {
		out = append(out,
			celBuilt{"", "(", n, "1", ")", ""},
			celBuilt{"", "[", n, "1", "]", ""},
			celBuilt{"", "{1:", n, "1", "}", ""},
			celBuilt{"", "f(", n, "1", ")", ""},
			celBuilt{"", "a.b(", n, "1", ")", ""},
			celBuilt{"", "", n, "a", ".b", ""},
			celBuilt{"", "", n, "a", "[0]", ""},
			celBuilt{"", "", n, "a", ".f()", ""},
			celBuilt{"", "", n, "1", " + 1", ""},
			celBuilt{"", "1 + ", n, "1", "", ""},
			celBuilt{"", "", n, "1", " < 2", ""},
			celBuilt{"", "x ? 1 : ", n, "1", "", ""},
			celBuilt{"", "!", n, "a", "", ""},
			celBuilt{"", "-", n, "a", "", ""},
			celBuilt{"", "", n, "a", " && b", ""},
			celBuilt{"", "a.all(x, ", n, "1", ")", ""},
			celBuilt{"", "", n, "a", ".?b", ""},
			celBuilt{"", "(", n, "", "", ""},
			celBuilt{"", "", n, "", ")", ""},
		)
	}
	out = append(out,
		celBuilt{"'", "a", 99998, "", "", "'"},
		celBuilt{"'", "a", 99999, "", "", "'"},
		celBuilt{"'", "é", 99998, "", "", "'"},
		celBuilt{"'", "é", 99999, "", "", "'"},
		celBuilt{"", "a", 100000, "", "", ""},
		celBuilt{"", "a", 100001, "", "", ""},
		celBuilt{"", "1 +", 40, "", "", ""},
		celBuilt{"", "#", 200, "", "", ""},
		celBuilt{"", ")", 200, "", "", ""},
		celBuilt{"", "1 1 ", 120, "", "", ""},
		celBuilt{"", "a.b(", 120, "", "", ""},
		celBuilt{"", "[1, ", 300, "", "]", ""},
	)
	return out
}

func celParseHandCases() []string {
	cases := []string{
		// literals
		`0`, `1`, `-1`, `- 1`, `--1`, `---1`, `-(-1)`, `1u`, `1U`, `0u`, `-1u`, `0x0`, `0xff`, `0XFF`, `0xFFu`, `0x1Fu`, `-0x10`, `0x`, `0xg`,
		`9223372036854775807`, `9223372036854775808`, `-9223372036854775808`, `-9223372036854775809`, `-0x8000000000000000`, `0x8000000000000000`, `0x7fffffffffffffff`,
		`18446744073709551615u`, `18446744073709551616u`, `0xffffffffffffffffu`, `0x10000000000000000u`, `00`, `007`, `08u`,
		`1.0`, `1.5`, `-1.5`, `0.0`, `-0.0`, `.5`, `-.5`, `1e3`, `1E3`, `1e+3`, `1e-3`, `1.5e10`, `1e`, `1e+`, `1.`, `1.e3`, `1.5e`, `.e3`, `.5e-3`,
		`1e308`, `1e309`, `-1e309`, `1e-400`, `123456789.0`, `0.0001`, `0.00001`, `1e21`, `1e20`, `100000.0`, `1000000.0`, `3.141592653589793`, `2.5e-7`, `0.1`, `1.7976931348623157e308`, `4.9e-324`,
		`true`, `false`, `null`, `True`, `NULL`,
		`""`, `''`, `"a"`, `'a'`, `"a'b"`, `'a"b'`, `"""a"""`, `'''a'''`, `"""a"b"""`, `'''a'b'''`, `"""a""b"""`, `""""""`, `"""a""""`, `"""\""""`, `"""`, `"""a`, `"""a"`,
		"\"\"\"a\nb\"\"\"", "'''a\r\nb'''", "'''a\rb'''", "\"a\nb\"", "'a\rb'", "r'''a\r\nb'''",
		`r"a\nb"`, `R"a\nb"`, `r'\'`, `r"\"`, `r""`, `r""""""`, `r"""a\"""`, `r'''\'''`, `r"a`, `r`, `R`, `rb"a"`, `br"a\x"`, `BR'a'`, `bR"""x"""`, `Rb"a"`, `b"abc"`, `B'abc'`, `b""`, `b"""a"""`, `b'''a'''`, `b`, `bb"a"`,
		`"\a\b\f\n\r\t\v\\\"\'\?\` + "`" + `"`, `'\a\b\f\n\r\t\v\\\"\'\?\` + "`" + `'`, `b"\a\b\f\n\r\t\v\\\"\'\?\` + "`" + `"`,
		`"\x41"`, `"\X41"`, `"\x4"`, `"\xg1"`, `"\xff"`, `b"\xff"`, `b"\xFF\x00"`, `"\u0041"`, `"\u00e9"`, `"\uD800"`, `"\udfff"`, `"\uFFFF"`, `"\U0001F600"`, `"\U00110000"`, `"\U0010FFFF"`, `"\u004"`, `b"\u0041"`, `b"\U00000041"`,
		`"\101"`, `"\377"`, `"\400"`, `"\0"`, `"\00"`, `"\000"`, `"\08"`, `b"\377"`, `b"\000"`, `"\q"`, `"\"`, `"\ "`, `'\`, `"\u12"`, `"\x"`,
		`"é"`, `b"é"`, `"日本語"`, `'🙂'`, `b'🙂'`, `"\t"`, "\"\t\"", `"\x00"`, `"\x7f"`, `"\u00a0"`, `"\u00ad"`, `"\u200b"`, `"\ufeff"`, `"\ue000"`, `"\u0378"`, `"\u2028"`, `"\U000E0001"`, `"\U0001FFFF"`, "\"\u0085\"",
		// identifiers and reserved words
		`a`, `_`, `_a1`, `A_b`, `.a`, `.a.b`, `a.b.c`, `. a`, `a .b`, `a. b`, `.1a`, `1a`, `a1`, `é`, `aé`,
		`as`, `break`, `const`, `continue`, `else`, `for`, `function`, `if`, `import`, `in`, `let`, `loop`, `package`, `namespace`, `return`, `var`, `void`, `while`,
		`a.as`, `a.in`, `a.true`, `a.null`, `a.if`, `a.while()`, `a.in()`, `as()`, `if(1)`, `.if`, `.in`, `a.true()`, `{as: 1}`, `A{as: 1}`, `A{in: 1}`, `A{true: 1}`, `A{null: 1}`, `A{if: 1}`, `true.a`, `null.x`, `in.a`, `x.null.y`, `in(1)`, `true()`, `null()`, `[true, in]`,
		"a.`b`", "a.`b c`", "a.`b.c`", "a.`b-c/d`", "a.``", "a.`b`()", "`a`", "a.?`b`", "A{`b c`: 1}", "A{?`b`: 1}", "{`a`: 1}", "a.`b\\c`", "a.`é`", "a.`in`", "has(a.`b c`)",
		// operators and precedence
		`a + b`, `a - b`, `a * b`, `a / b`, `a % b`, `a + b * c`, `(a + b) * c`, `a * b + c`, `a - b - c`, `a - (b - c)`, `a / b / c`, `a % b * c`, `a + b - c + d`,
		`a == b`, `a != b`, `a < b`, `a <= b`, `a > b`, `a >= b`, `a in b`, `a < b < c`, `a == b == c`, `a + 1 < b * 2`, `a in b == c`, `a < b && c > d`, `a in [1, 2]`, `1 in {1: 2}`,
		`a && b`, `a || b`, `a && b && c`, `a || b || c`, `a && b || c && d`, `a || b && c`, `a && b && c && d`, `a && b && c && d && e`, `a || b || c || d || e || f || g`, `a && (b || c)`, `(a && b) && c`,
		`a ? b : c`, `a ? b : c ? d : e`, `a ? b ? c : d : e`, `(a ? b : c) ? d : e`, `a || b ? c : d`, `a ? b || c : d && e`, `!a ? b : c`,
		`!a`, `!!a`, `!!!a`, `-a`, `--a`, `---a`, `!-1`, `!-a`, `-!a`, `!true`, `-a.b`, `!a.b()`, `-a[0]`, `-(a)`, `!(a)`, `- -a`, `! !a`, `-1.5`, `-1u`, `-0x1`, `-"a"`, `-true`, `-[1]`,
		`a+b`, `a-1`, `a -1`, `a - 1`, `1-1`, `1 -1`, `a--1`, `a---1`, `a*-1`, `a<-1`, `a<=-1`, `a==-1`, `a&&-1`, `a?-1:-2`,
		// member access, calls, index
		`a.b`, `a.b.c.d`, `a.b()`, `a.b(c)`, `a.b(c, d)`, `a.b.c(d)`, `a().b`, `f()`, `f(a)`, `f(a, b, c)`, `.f()`, `.f(a)`, `a.f().g()`, `f(a)(b)`, `a.b(c)(d)`, `(a).b`, `(a.b).c`, `(a)(b)`, `a[b]`, `a[b][c]`, `a[b].c`, `a.b[c]`, `a[b.c]`, `a[0]`, `[1][0]`, `{1:2}[1]`, `"abc"[0]`, `a.b.c[d](e)`,
		`f(,)`, `f(a,)`, `f(,a)`, `a.b(,)`, `a.b(a,)`, `[1,]`, `[,]`, `[,1]`, `{1:2,}`, `{,}`, `A{a:1,}`, `A{,}`, `a.()`, `a.1`, `a.b.`, `a..b`, `a[]`, `a[1,2]`, `a[`, `a]`, `a)`, `(a`, `a(`, `f(a b)`,
		// optional syntax
		`a.?b`, `a.?b.c`, `a.?b.?c`, `a[?b]`, `a[?0][?1]`, `a.?b[?c]`, `[?a]`, `[?a, b]`, `[a, ?b, ?c]`, `[?a, ?b]`, `{?a: b}`, `{a: b, ?c: d}`, `{?1: 2}`, `A{?a: b}`, `A{a: b, ?c: d}`, `a?.b`, `a.??b`, `a[??b]`, `[??a]`, `{??a: b}`, `a.?b()`, `.?a`, `a.? b`, `a . ? b`, `a[ ? b]`, `?a`, `a?`, `a ? .b : c`, `a?.b:c`, `a?[b]:c`, `a ?[b] : c`, `a.?1`, `a[?]`, `{?: 1}`,
		`a.?b.optMap(x, x + 1)`, `a.optMap(x, x)`, `a.optFlatMap(x, x.?c)`, `a.optMap(1, x)`, `a.optFlatMap(a.b, x)`, `optMap(x, y)`, `a.optMap(x)`, `a.optMap(x, y, z)`, `a.b.optMap(x, x).optFlatMap(y, y)`, `{'k': 1}.optMap(x, x)`, `[1].optMap(x, x)`, `A{f: 1}.optMap(x, x)`, `a.?b.optMap(x, [x, {x: x}, A{f: x}])`, `a[0].optMap(x, x)`, `a.optMap(@result, x)`,
		// lists, maps, messages
		`[]`, `[1]`, `[1, 2, 3]`, `[[1], [2]]`, `[a, b.c, f(d)]`, `{}`, `{1: 2}`, `{'a': 1, 'b': 2}`, `{a: b}`, `{a.b: c}`, `{[1]: {2: 3}}`, `{1: 2, 1: 3}`, `{1}`, `{1:}`, `{:1}`, `{1 2}`, `{1:2 3:4}`,
		`A{}`, `A{a: 1}`, `A{a: 1, b: 2}`, `a.B{}`, `a.b.C{c: 1}`, `.A{}`, `.a.B{b: 1}`, `A{a: B{b: 1}}`, `A{a.b: 1}`, `A{1: 2}`, `A{"a": 1}`, `A{a}`, `A{a:}`, `a.B{}.c`, `A{}.b()`, `A{}[0]`, `a.b{}`, `a().B{}`, `(a).B{}`, `a[0]{}`, `f(){}`, `A {}`, `A . B {}`, `a.?B{}`, "a.`B`{}",
		// macros
		`has(a.b)`, `has(a.b.c)`, `has(a)`, `has(a[0])`, `has(a.b())`, `has(a.?b)`, `has()`, `has(a.b, c)`, `x.has(a.b)`, `has(A{}.b)`, `has({'a': 1}.a)`, `has(.a.b)`,
		`a.all(x, x > 0)`, `a.exists(x, x > 0)`, `a.exists_one(x, x > 0)`, `a.existsOne(x, x > 0)`, `a.map(x, x * 2)`, `a.map(x, x > 0, x * 2)`, `a.filter(x, x > 0)`,
		`a.all(x)`, `a.all(x, y, z, w)`, `a.all(1, x)`, `a.all(x.y, x)`, `a.exists(@result, x)`, `a.map(@result, x)`, `a.filter(@result, x)`, `a.all(__result__, x)`, `a.map(__result__, x)`, `a.map(1, x)`, `a.filter(1, x)`, `a.map(x)`, `a.filter(x)`, `a.exists_one(1, x)`,
		`all(a, x, y)`, `exists(a, x, y)`, `map(a, x, y)`, `filter(a, x, y)`, `.a.all(x, x)`, `a.b.all(x, x.all(y, y))`, `[1, 2].map(x, [x].map(y, y + x))`, `{'a': 1}.all(k, k == 'a')`, `a.all(x, has(x.y))`, `a.map(x, x).filter(y, y)`,
		`a.all(i, v, i < v)`, `a.exists(i, v, i < v)`, `a.existsOne(i, v, i < v)`, `a.exists_one(i, v, i < v)`, `a.transformList(i, v, v * 2)`, `a.transformList(i, v, i > 0, v * 2)`, `a.transformMap(k, v, v + 1)`, `a.transformMap(k, v, k != 'a', v + 1)`, `a.transformMapEntry(k, v, {k: v})`, `a.transformMapEntry(k, v, v > 0, {v: k})`,
		`a.all(x, x, x > 0)`, `a.all(x, 1, x)`, `a.all(1, x, x)`, `a.all(x, @result, x)`, `a.all(@result, x, x)`, `a.transformList(x, x, x)`, `a.transformMap(k, v)`, `a.transformMapEntry(k, v, w, x, y)`, `a.transformList(k, v, w, x, y)`, `a.transformList(i.j, v, v)`, `a.existsOne(x, x, x)`, `a.transformMap(@result, v, v)`, `a.transformMapEntry(k, __result__, v)`,
		`a.sortBy(x, x)`, `a.sortBy(x, -x.b)`, `[3, 1].sortBy(x, x)`, `a.b.sortBy(x, x)`, `f().sortBy(x, x)`, `a.map(y, y).sortBy(x, x)`, `1.sortBy(x, x)`, `"a".sortBy(x, x)`, `{1: 2}.sortBy(x, x)`, `A{}.sortBy(x, x)`, `a[0].sortBy(x, x)`, `a.sortBy(1, x)`, `a.sortBy(x)`, `sortBy(a, x, x)`, `a.sortBy(@result, x)`, `(a).sortBy(x, x)`, `a.?b.sortBy(x, x)`,
		`cel.bind(x, 1, x)`, `math.least(1, 2)`, `math.greatest(1)`, `a.optMap(x, x.map(y, y))`, `a.all(x, x.exists(y, y))`, `a.map(x, a.filter(y, y > x))`,
		// whitespace and comments
		` a `, "\ta\n", "a\n+\nb", "a\r\n+ b", "a // c\n+ b", "// c\na", "a // c", "a /* c */", "a\f+\fb", "a\v+b", "a\u00a0+b", "\n\n\na +", "a\n.b\n.c(", "a\r.b +", "\r\n\r\n)", "a +\n\n\n", "// only",
		// errors
		``, ` `, `(`, `)`, `()`, `[`, `]`, `{`, `}`, `.`, `,`, `:`, `?`, `+`, `-`, `!`, `a +`, `+ a`, `a + + b`, `a * * b`, `a b`, `1 2`, `a ? b`, `a ? b :`, `a : b`, `a ? : b`, `a &&`, `&& a`, `a || || b`, `a & b`, `a | b`, `a = b`, `a === b`, `a !== b`, `a <> b`, `a => b`, `a ! b`, `a ^ b`, `a ~ b`, `a $ b`, `a # b`, `a @ b`, `@a`, `a;`, `a\b`, "\"abc", `'abc`, `"abc'`, `'abc"`, "'''abc''", `"""abc""`, `1.2.3`, `1..2`, `a.1.b`, `1.a`, `1.e`, `1.0.a`, `1.0.a()`, `1.a()`, `1u.a`, `"a".b`, `"a".b()`, `b"a".c`, `[1].a`, `{}.a`,
		`f(a`, `f(a,`, `f(a, b`, `a.b(`, `a[1`, `[1, 2`, `{1: 2`, `A{a: 1`, `(1 + 2`, `1 + 2)`, `((a)`, `(a))`, `[a]]`, `{a: b}}`, `f(a))`, `a.b)`, `a ? b : c :`, `a ? b c`,
		`#`, `a #`, `#a`, "a \x00 b", "\x01", `§`, `a§b`, `é + 1`, `a.é`, `"a" "b"`, `1 "a"`, `a.b c`, `true false`, `null null`, `in in`, `a in`, `in a`, `a.b.c.d e`, `f(a) g(b)`, `a[0] b[1]`, `[] []`, `{} {}`,
		`-`, `--`, `!`, `!!`, `-!`, `a.-b`, `a.!b`, `a[-]`, `a[!]`, `f(-)`, `f(!)`, `[-]`, `{-: 1}`, `1 + -`, `1 + !`, `-(`, `!(`, `-[`, `-{`, `!{`,
		`a.b.c.d.e.f.g.h`, `f(g(h(i(j(k)))))`, `[[[[[[1]]]]]]`, `{1: {2: {3: {4: 5}}}}`, `a[b[c[d[e]]]]`, `((((((((a))))))))`, `!!!!!!!!a`, `--------a`, `a ? b : c ? d : e ? f : g ? h : i`,
	}
	return cases
}

// genCELExpr writes a random expression, mostly well formed.
func genCELExpr(r *rand.Rand, depth int) string {
	if depth > 3 || r.Intn(4) == 0 {
		return genCELAtom(r)
	}
	sub := func() string { return genCELExpr(r, depth+1) }
	ws := func() string { return []string{"", " ", " ", "\n", "\t", " // c\n", "  "}[r.Intn(7)] }
	switch r.Intn(20) {
	case 0, 1, 2:
		ops := []string{"+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "in", "&&", "||"}
		return sub() + ws() + ops[r.Intn(len(ops))] + ws() + sub()
	case 3:
		return sub() + " ? " + sub() + " : " + sub()
	case 4:
		return []string{"!", "-", "!!", "--", "- "}[r.Intn(5)] + sub()
	case 5:
		return "(" + sub() + ")"
	case 6:
		return sub() + "." + genCELIdent(r)
	case 7:
		return sub() + ".?" + genCELIdent(r)
	case 8:
		return sub() + "[" + sub() + "]"
	case 9:
		return sub() + "[?" + sub() + "]"
	case 10:
		return genCELIdent(r) + "(" + genCELArgs(r, depth) + ")"
	case 11:
		return sub() + "." + genCELIdent(r) + "(" + genCELArgs(r, depth) + ")"
	case 12:
		elems := []string{}
		for i := r.Intn(4); i > 0; i-- {
			if r.Intn(4) == 0 {
				elems = append(elems, "?"+sub())
			} else {
				elems = append(elems, sub())
			}
		}
		return "[" + strings.Join(elems, ", ") + []string{"", ","}[r.Intn(2)] + "]"
	case 13:
		entries := []string{}
		for i := r.Intn(4); i > 0; i-- {
			entries = append(entries, []string{"", "?"}[r.Intn(2)]+sub()+": "+sub())
		}
		return "{" + strings.Join(entries, ", ") + "}"
	case 14:
		fields := []string{}
		for i := r.Intn(3); i > 0; i-- {
			fields = append(fields, []string{"", "?"}[r.Intn(2)]+genCELIdent(r)+": "+sub())
		}
		return []string{"", "."}[r.Intn(2)] + genCELIdent(r) + []string{"", ".B", ".b.C"}[r.Intn(3)] + "{" + strings.Join(fields, ", ") + "}"
	case 15, 16:
		macros := []string{"all", "exists", "exists_one", "existsOne", "map", "filter", "transformList", "transformMap", "transformMapEntry", "sortBy", "optMap", "optFlatMap"}
		vars := []string{"x", "y", "k", "v"}
		args := []string{vars[r.Intn(4)]}
		if r.Intn(3) == 0 {
			args = append(args, vars[r.Intn(4)])
		}
		for i := 1 + r.Intn(2); i > 0; i-- {
			args = append(args, sub())
		}
		return sub() + "." + macros[r.Intn(len(macros))] + "(" + strings.Join(args, ", ") + ")"
	case 17:
		return "has(" + sub() + "." + genCELIdent(r) + ")"
	default:
		return sub() + ws() + []string{"+", "&&", "||", "*"}[r.Intn(4)] + ws() + sub()
	}
}

func genCELArgs(r *rand.Rand, depth int) string {
	args := []string{}
	for i := r.Intn(4); i > 0; i-- {
		args = append(args, genCELExpr(r, depth+1))
	}
	return strings.Join(args, ", ")
}

func genCELIdent(r *rand.Rand) string {
	names := []string{"a", "b", "c", "x", "y", "_z", "self", "oldSelf", "spec", "items", "size", "A1", "ab_1", "a", "b", "x"}
	if r.Intn(12) == 0 {
		names = []string{"in", "as", "true", "null", "if", "`a b`", "`x.y`", "`a-b/c`"}
	}
	return names[r.Intn(len(names))]
}

func genCELAtom(r *rand.Rand) string {
	switch r.Intn(12) {
	case 0:
		return strconv.Itoa(r.Intn(1000) - 100)
	case 1:
		return []string{"0x1f", "0xFFu", "7u", "-0x10", "9223372036854775807", "18446744073709551615u", "-9223372036854775808", "0"}[r.Intn(8)]
	case 2:
		return []string{"1.5", ".5", "1e3", "2.5e-3", "-0.0", "1e100", "3.0", "123456789.5"}[r.Intn(8)]
	case 3:
		return genCELString(r)
	case 4:
		return []string{"true", "false", "null"}[r.Intn(3)]
	case 5:
		return []string{"[]", "{}", "A{}"}[r.Intn(3)]
	default:
		return []string{"", "", "", "."}[r.Intn(4)] + genCELIdent(r)
	}
}

func genCELString(r *rand.Rand) string {
	parts := []string{"a", "b", " ", "é", "日", "🙂", `\n`, `\t`, `\\`, `\"`, `\'`, `\x41`, `\xff`, `\u00e9`, `\U0001F600`, `\101`, `\377`, `\a`, `\?`, "\\`", "'", `"`, "\t"}
	var body strings.Builder
	for i := r.Intn(6); i > 0; i-- {
		body.WriteString(parts[r.Intn(len(parts))])
	}
	prefix := []string{"", "", "", "r", "b", "B", "br", "R"}[r.Intn(8)]
	quote := []string{`"`, `'`, `"""`, `'''`}[r.Intn(4)]
	return prefix + quote + body.String() + quote
}

// mutateCEL edits a text a few times, mostly breaking it.
func mutateCEL(r *rand.Rand, s string) string {
	alphabet := []string{"(", ")", "[", "]", "{", "}", ".", ",", ":", "?", "!", "-", "+", "*", "/", "%", "<", ">", "=", "&", "|", "\"", "'", "`", "\\", " ", "\n", "a", "1", "0x", "u", "e", "in", "r", "b", "#", "é", ".?", "[?", "&&", "||", "==", "//"}
	runes := []rune(s)
	for n := 1 + r.Intn(3); n > 0; n-- {
		pos := 0
		if len(runes) > 0 {
			pos = r.Intn(len(runes) + 1)
		}
		switch r.Intn(4) {
		case 0:
			if pos < len(runes) {
				runes = append(runes[:pos], runes[pos+1:]...)
			}
		case 1, 2:
			ins := []rune(alphabet[r.Intn(len(alphabet))])
			runes = append(runes[:pos], append(ins, runes[pos:]...)...)
		default:
			if pos+1 < len(runes) {
				runes[pos], runes[pos+1] = runes[pos+1], runes[pos]
			}
		}
	}
	return string(runes)
}
