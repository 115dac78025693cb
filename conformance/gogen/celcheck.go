package main

// gogen celcheck [--out DIR] writes, from the Kubernetes 1.37 CEL environment
// for CRD validation rules (environment.MustBaseEnvSet(1.37).StoredExpressionsEnv()):
//   - DIR/../../src/check/declarations.txt: every function overload the
//     environment declares, one a line: name, overload id, "member" or
//     "global", result type and parameter types, tab-separated, types in
//     cel-go's notation with type parameters written ~A; functions sorted by
//     name, overloads in their declared order (the checker's order);
//   - DIR/cel_check.json: expressions compiled (env.Compile: parse, check and
//     the environment's AST validators) with the variables of celCheckVars
//     declared, each with "type" (the checked output type, cel-go's
//     FormatCELType) or "error" (iss.Err().Error()). "hand" cases cover each
//     function family and each checker error; "random" ones call random
//     overloads with random, mostly well-typed arguments; "format" ones
//     exercise the strings extension's validator of literal format strings
//     (every clause against every kind of element, argument counts, bad
//     clauses and precisions, calls it leaves alone, several calls at once).
// DIR defaults to ../../cel/tests/data from the module directory.

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apiserver/pkg/cel/environment"
)

// celCheckVars are the variables every case is compiled with; the Rust test
// declares the same ones (cel/tests/check.rs).
var celCheckVars = []struct {
	name string
	t    *types.Type
}{
	{"i", types.IntType},
	{"u", types.UintType},
	{"d", types.DoubleType},
	{"s", types.StringType},
	{"b", types.BytesType},
	{"t", types.BoolType},
	{"x", types.DynType},
	{"du", types.DurationType},
	{"ts", types.TimestampType},
	{"l", types.NewListType(types.IntType)},
	{"ls", types.NewListType(types.StringType)},
	{"lx", types.NewListType(types.DynType)},
	{"ll", types.NewListType(types.NewListType(types.IntType))},
	{"m", types.NewMapType(types.StringType, types.IntType)},
	{"mx", types.NewMapType(types.StringType, types.DynType)},
	{"mm", types.NewMapType(types.StringType, types.NewMapType(types.StringType, types.StringType))},
	{"mi", types.NewMapType(types.IntType, types.StringType)},
	{"o", types.NewOptionalType(types.IntType)},
	{"os", types.NewOptionalType(types.StringType)},
}

func runCELCheck(args []string) int {
	out, ok := parseOut("celcheck", args, "directory", "cel", "tests", "data")
	if !ok {
		return 2
	}
	base := environment.MustBaseEnvSet(version.MajorMinor(1, 37)).StoredExpressionsEnv()
	decls := celDeclarations(base)
	var opts []cel.EnvOption
	for _, v := range celCheckVars {
		opts = append(opts, cel.Variable(v.name, v.t))
	}
	env, err := base.Extend(opts...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gogen: celcheck: %v\n", err)
		return 1
	}
	answer := func(exprs []string) []any {
		var rows []any
		for _, e := range exprs {
			rows = append(rows, celCheckAnswer(env, e))
		}
		return rows
	}
	r := rand.New(rand.NewSource(3737))
	corpus := jObject{
		"hand":   answer(celCheckHandCases()),
		"random": answer(celCheckRandomCases(r, base, 3000)),
		"format": answer(celCheckFormatCases()),
	}
	files := []struct {
		path string
		text []byte
	}{{filepath.Join(out, "..", "..", "src", "check", "declarations.txt"), []byte(decls)}}
	text, err := writeJSON(corpus, true)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gogen: celcheck: %v\n", err)
		return 1
	}
	files = append(files, struct {
		path string
		text []byte
	}{filepath.Join(out, "cel_check.json"), text})
	for _, f := range files {
		changed, err := writeIfChanged(f.path, f.text)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gogen: celcheck: %v\n", err)
			return 1
		}
		if changed {
			fmt.Printf("gogen: wrote %s\n", filepath.ToSlash(filepath.Clean(f.path)))
		} else {
			fmt.Printf("gogen: %s unchanged\n", filepath.ToSlash(filepath.Clean(f.path)))
		}
	}
	return 0
}

// celCheckAnswer compiles one expression. cel-go's homogeneous-aggregate
// validator panics on some optional list entries ([?o]); such a case is
// recorded with "panic" (the API server's handler recovers from it).
func celCheckAnswer(env *cel.Env, e string) (row jObject) {
	row = jObject{"expr": e}
	defer func() {
		if p := recover(); p != nil {
			row = jObject{"expr": e, "panic": fmt.Sprint(p)}
		}
	}()
	checked, iss := env.Compile(e)
	if iss != nil && iss.Err() != nil {
		row["error"] = iss.Err().Error()
	} else {
		row["type"] = checker.FormatCELType(checked.OutputType())
	}
	return row
}

// celDeclType writes a declared type, type parameters marked with ~.
func celDeclType(t *types.Type) string {
	if t.Kind() == types.TypeParamKind {
		return "~" + t.TypeName()
	}
	if len(t.Parameters()) == 0 {
		return checker.FormatCELType(t)
	}
	var ps []string
	for _, p := range t.Parameters() {
		ps = append(ps, celDeclType(p))
	}
	return t.TypeName() + "(" + strings.Join(ps, ", ") + ")"
}

func celDeclarations(env *cel.Env) string {
	fns := env.Functions()
	names := make([]string, 0, len(fns))
	for n := range fns {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("# Generated by `gogen celcheck` from the Kubernetes 1.37 CEL environment; do not edit.\n")
	b.WriteString("# name\toverload id\tmember|global\tresult\tparameters...\n")
	for _, n := range names {
		for _, o := range fns[n].OverloadDecls() {
			kind := "global"
			if o.IsMemberFunction() {
				kind = "member"
			}
			fields := []string{n, o.ID(), kind, celDeclType(o.ResultType())}
			for _, a := range o.ArgTypes() {
				fields = append(fields, celDeclType(a))
			}
			b.WriteString(strings.Join(fields, "\t"))
			b.WriteString("\n")
		}
	}
	return b.String()
}

func celCheckHandCases() []string {
	return []string{
		// literals and variables
		"1", "1u", "1.0", "'a'", "b'a'", "true", "null", "i", "x", "l", "m", "o",
		"nope", "a.b.c", "i.j", "s.size", "du.seconds",
		// types as values
		"int", "uint", "double", "string", "bytes", "bool", "null_type", "list", "map", "type",
		"dyn", "duration", "timestamp", "optional_type", "google.protobuf.Duration", "type(i)", "type(1) == int",
		"int == type", "type(l)",
		// aggregates
		"[]", "[1, 2]", "[1, 'a']", "[1, 2u]", "[x, 1]", "[1, x]", "[[1], ['a']]", "[[1], [x]]", "[[], [1]]",
		"{}", "{'a': 1}", "{'a': 1, 'b': 'c'}", "{'a': 1, 2: 3}", "{x: 1, 'a': 2}", "{'a': [1], 'b': []}",
		"[null, 1]", "[1, null]", "[null, du]", "[ts, null]", "[o, null]", "{'a': null, 'b': o}",
		"[?o]", "[?x]", "[?i]", "{?'a': o}", "{?'a': i}", "[?o, 1]", "[?os, 1]",
		"Foo{a: 1}", "google.protobuf.Duration{seconds: 1}",
		// selection
		"m.a", "mm.a.b", "mx.a.b.c", "x.a", "l.a", "i.a", "has(m.a)", "has(x.a)", "has(i.a)", "has(mm.a.b)",
		"o.a", "m.?a", "mm.?a.b", "x.?a", "i.?a", "o.?a", "mm.a.?b", "mi.a",
		// indexing
		"l[0]", "l[0u]", "l[1.0]", "l['a']", "l[x]", "m['a']", "m[1]", "m[x]", "mi[1]", "mi[1u]", "mi[1.0]", "x[0]", "x['a']",
		"s[0]", "ll[0][1]", "l[?0]", "m[?'a']", "o[0]", "lx[0].a", "x[?0]",
		// arithmetic and comparison
		"1 + 2", "1 + 2u", "1 + 2.0", "i + u", "i + x", "x + x", "s + s", "s + 1", "b + b", "l + l", "l + ls", "l + lx", "l + []",
		"du + du", "ts + du", "du + ts", "ts - ts", "ts - du", "ts + ts", "-i", "-u", "-d", "-s", "!t", "!i",
		"i * d", "i / i", "d % d", "i % i", "u % u",
		"i < d", "i < u", "u <= d", "s < s", "s < i", "b > b", "t >= t", "ts < ts", "du < du", "ts < du", "x < 1", "l < l",
		"i == u", "i == x", "l == l", "l == ls", "m == m", "m == mi", "i != s", "null == o", "null == i", "o == o", "os == o",
		"x == x", "[] == []", "{} == m", "t && i", "i && t", "i || s", "t && x", "t ? 1 : 2", "t ? 1 : 'a'", "i ? 1 : 2", "x ? l : ls",
		"t ? x : 1", "t ? 1 : x", "t ? [] : [1]", "t ? null : o", "i in l", "s in l", "s in m", "1 in mi", "x in x", "i in m",
		// standard functions
		"size(s)", "size(b)", "size(l)", "size(m)", "size(i)", "size(x)", "s.size()", "l.size()", "i.size()",
		"s.contains('a')", "s.contains(1)", "s.startsWith(s)", "s.endsWith(s)", "s.matches('a')", "matches(s, 'a')", "i.contains(s)",
		"int(s)", "int(u)", "int(d)", "int(ts)", "int(du)", "int(b)", "uint(i)", "double(s)", "string(i)", "string(b)", "string(ts)",
		"string(l)", "bytes(s)", "bool(s)", "bool(i)", "duration(s)", "timestamp(s)", "timestamp(i)", "dyn(i)", "type(x)",
		"ts.getFullYear()", "ts.getHours('UTC')", "du.getHours()", "du.getFullYear()", "ts.getDayOfWeek(1)",
		"nosuch(1)", "i.nosuch()", "x.nosuch()",
		// strings extension
		"s.charAt(0)", "s.indexOf('a')", "s.indexOf('a', 1)", "s.lastIndexOf('a')", "s.lowerAscii()", "s.upperAscii()",
		"s.replace('a', 'b')", "s.replace('a', 'b', 1)", "s.split(',')", "s.split(',', 2)", "s.substring(1)", "s.substring(1, 2)",
		"s.trim()", "ls.join()", "ls.join(',')", "l.join()", "strings.quote(s)", "s.reverse()", "s.format([1])", "s.format(l)", "s.format(1)",
		"'%d'.format([i])",
		// lists and sets
		"l.slice(0, 1)", "l.flatten()", "ll.flatten()", "ll.flatten(1)", "lists.range(3)", "l.reverse()", "l.distinct()", "l.sort()",
		"ls.sort()", "l.sortBy(e, -e)", "l.first()", "l.last()", "sets.contains(l, l)", "sets.equivalent(l, ls)", "sets.intersects(l, lx)",
		"l.isSorted()", "l.sum()", "ls.sum()", "l.min()", "l.max()", "l.indexOf(1)", "l.lastIndexOf('a')", "lx.sum()", "[1.0].sum()",
		// optionals
		"optional.of(1)", "optional.none()", "optional.ofNonZeroValue(i)", "o.value()", "o.hasValue()", "o.orValue(1)", "o.orValue('a')",
		"o.or(o)", "o.or(os)", "o.optMap(v, v + 1)", "o.optFlatMap(v, optional.of(v))", "optional.none().orValue(1)", "x.value()",
		"os.orValue(s)",
		// comprehensions
		"l.all(e, e > 0)", "l.all(e, e)", "l.exists(e, e == 's')", "l.exists_one(e, e > 1)", "l.map(e, e * 2)", "l.map(e, e > 0, e)",
		"l.map(e, e, e)", "l.filter(e, e > 0)", "m.all(k, k == 'a')", "m.map(k, m[k])", "x.all(e, e)", "i.all(e, e)", "s.exists(c, c == 'a')",
		"l.all(i, v, i < v)", "m.all(k, v, v > 0)", "l.exists(i, v, v == i)", "l.transformList(i, v, v * i)", "m.transformMap(k, v, v + 1)",
		"l.transformMap(i, v, v)", "m.transformMapEntry(k, v, {k: v})", "l.transformList(i, v, i > 0, v)",
		"mm.all(k, mm[k].all(k2, mm[k][k2] == k))", "ll.all(l2, l2.all(e, e > 0))", "l.map(e, [e]).filter(e, e.size() > 0)",
		"[1, 2].all(e, e > 0)", "[].all(e, e)", "[].map(e, e)", "{}.all(k, k)", "lx.map(e, e.a)",
		// Kubernetes libraries
		"quantity('1')", "quantity(s).add(1)", "quantity(s).isGreaterThan(quantity('1'))", "isQuantity(s)", "quantity(s).asInteger()",
		"url(s)", "url(s).getHost()", "isURL(s)", "ip(s)", "ip(s).family()", "cidr(s).containsIP(ip(s))", "cidr(s).containsIP(s)",
		"isIP(s)", "isCIDR(s)", "ip.isCanonical(s)", "semver(s)", "semver(s).major()", "isSemver(s)", "isSemver(s, true)",
		"s.find('a')", "s.findAll('a')", "s.findAll('a', 2)", "format.dns1123Label()", "format.named('dns1123Label')",
		"format.dns1123Label().validate(s)", "l.isSorted()", "ls.indexOf('a')", "quantity(s) == quantity(s)", "ip(s) == ip(s)",
		"ip(s) < ip(s)", "string(ip(s))", "string(cidr(s))", "cidr(s).ip()", "cidr(s).masked()", "cidr(s).prefixLength()",
		"authorizer", "url(s).getQuery()", "url(s).getEscapedPath()",
		// literal validators
		"duration('1s')", "duration('x')", "timestamp('2020-01-01T00:00:00Z')", "timestamp('x')", "s.matches('[')", "matches(s, '(')",
		// several errors
		"'%s-%d'.format([s, 1])", "'%s'.format([[1, 'a']])", "size([1, 'a'])", "[t ? 1 : 'a']", "{'a': [1, 'a']}",
		"nope + i.a", "[1, 'a', 2u]", "size(1) + size(true)", "l.all(e, e.a.b)", "nope1.a && nope2",
	}
}

// celCheckRandomCases calls random declared overloads with arguments drawn
// from values of the parameter types (now and then of other types).
func celCheckRandomCases(r *rand.Rand, env *cel.Env, n int) []string {
	type ov struct {
		name   string
		member bool
		args   []*types.Type
	}
	var ovs []ov
	fns := env.Functions()
	names := make([]string, 0, len(fns))
	for n := range fns {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for _, o := range fns[n].OverloadDecls() {
			ovs = append(ovs, ov{n, o.IsMemberFunction(), o.ArgTypes()})
		}
	}
	pool := map[string][]string{
		"int":  {"i", "1", "-2", "l[0]", "m['a']", "size(s)"},
		"uint": {"u", "1u"}, "double": {"d", "1.5"},
		"string": {"s", "'a'", "ls[0]", "mm.a.b", "mi[1]"}, "bytes": {"b", "b'a'"}, "bool": {"t", "true", "i < 2"},
		"duration": {"du", "duration('1s')"}, "timestamp": {"ts"},
		"list(int)": {"l", "[1, 2]"}, "list(string)": {"ls", "['a']"}, "list(dyn)": {"lx", "[x]"},
		"map(string, int)": {"m", "{'a': 1}"}, "map(string, dyn)": {"mx"},
		"optional_type(int)": {"o", "optional.of(1)"}, "optional_type(string)": {"os"},
		"dyn":       {"x", "lx[0]", "mx.a"},
		"null_type": {"null"},
	}
	keys := make([]string, 0, len(pool))
	for k := range pool {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	pick := func(t *types.Type) string {
		want := checker.FormatCELType(t)
		if r.Intn(8) == 0 {
			want = keys[r.Intn(len(keys))]
		}
		if c, ok := pool[want]; ok {
			return c[r.Intn(len(c))]
		}
		switch t.Kind() {
		case types.TypeParamKind, types.DynKind:
			k := keys[r.Intn(len(keys))]
			return pool[k][r.Intn(len(pool[k]))]
		case types.ListKind:
			return "[" + pickElem(r, pool, keys) + "]"
		}
		k := keys[r.Intn(len(keys))]
		return pool[k][r.Intn(len(pool[k]))]
	}
	var out []string
	for len(out) < n {
		o := ovs[r.Intn(len(ovs))]
		// "in" is a reserved word: in(a, b) does not parse.
		if strings.HasPrefix(o.name, "@") || o.name == "in" || o.name == "_?_:_" && r.Intn(2) == 0 {
			continue
		}
		var args []string
		for _, a := range o.args {
			args = append(args, pick(a))
		}
		var e string
		switch {
		case strings.HasPrefix(o.name, "_") && strings.HasSuffix(o.name, "_") && len(args) == 2 && o.name != "_[_]" && o.name != "_[?_]":
			e = args[0] + " " + strings.Trim(o.name, "_") + " " + args[1]
		case o.name == "_[_]" && len(args) == 2:
			e = args[0] + "[" + args[1] + "]"
		case o.name == "_[?_]" && len(args) == 2:
			e = args[0] + "[?" + args[1] + "]"
		case o.name == "_?_:_" && len(args) == 3:
			e = args[0] + " ? " + args[1] + " : " + args[2]
		case (o.name == "-_" || o.name == "!_") && len(args) == 1:
			e = o.name[:1] + args[0]
		case strings.ContainsAny(o.name, "_@"):
			continue
		case o.member && len(args) > 0:
			e = args[0] + "." + o.name + "(" + strings.Join(args[1:], ", ") + ")"
		default:
			e = o.name + "(" + strings.Join(args, ", ") + ")"
		}
		if r.Intn(4) == 0 {
			e = "[" + e + "][0]"
		}
		out = append(out, e)
	}
	return out
}

func pickElem(r *rand.Rand, pool map[string][]string, keys []string) string {
	k := keys[r.Intn(len(keys))]
	return pool[k][r.Intn(len(pool[k]))]
}

// celCheckFormatCases cover the strings extension's static validator of
// 'literal'.format([list literal]) calls (cel-go's stringFormatValidator):
// a separate group, so that celestimate, which reuses the hand cases, is
// unchanged by them.
func celCheckFormatCases() []string {
	clauses := []string{"%s", "%d", "%f", "%.3f", "%e", "%b", "%x", "%X", "%o"}
	elements := []string{
		"i", "u", "d", "s", "b", "t", "l", "m", "null", "du", "ts", "type(i)", "int", "x", "o",
		"1", "1u", "1.5", "'a'", "b'a'", "true", "[1]", "{'a': 1}", "lx[0]", "mx.a", "dyn(1)",
		"optional.none()", "[o]", "{'a': o}",
	}
	var out []string
	for _, c := range clauses {
		for _, e := range elements {
			out = append(out, "'"+c+"'.format(["+e+"])")
		}
	}
	return append(out,
		// %% takes no argument
		"'100%%'.format([])", "'%%'.format([1])", "'%%%d'.format([i])", "'%d%%'.format([i, 2])", "'%%d'.format(['a'])",
		// nested aggregates in %s
		"'%s'.format([[1, o]])", "'%s'.format([{'a': o}])", "'%s'.format([[[o]]])", "'%s'.format([[x, [ts, du]]])",
		"'%s'.format([[?o]])", "'%s'.format([{?'a': o}])", "'%s'.format([{'a': [1, {'b': o}]}])",
		"'%s'.format([[1, 'a'], [o]])", "'%s'.format([{1: 'a', 'b': [os]}])", "'%s'.format([[null, type(1), int]])",
		"'%d'.format([[1]])", "'%s'.format([[optional.none(), o]])", "'%s'.format([ll])", "'%s'.format([[ll, [mm]]])",
		// too many arguments
		"'a'.format([x])", "''.format([1])", "'%d'.format([1, 2])", "'%s %s'.format([1, 2, 3])", "'%s'.format([o, 1])",
		"'a'.format([o])", "''.format([[], {}])",
		// too few: an index out of range
		"'%d %d'.format([1])", "'%s'.format([])", "'%z'.format([])", "'%.3f %s'.format([1.0])", "'%'.format([])",
		// bad clauses and precisions
		"'%z'.format([1])", "'%5d'.format([1])", "'%'.format([1])", "'a%'.format([1])", "'%é'.format([1])",
		`'%\u00e9'.format([1])`, "'%.'.format([1.0])", "'%.f'.format([1.0])", "'%.3'.format([1.0])", "'%.3d'.format([1])",
		"'%.3s'.format(['a'])", "'%.3X'.format([1])", "'%.99999999999999999999f'.format([1.0])",
		"'%.9223372036854775807f'.format([1.0])", "'%.9223372036854775808f'.format([1.0])", "'%.1000f'.format([1.0])",
		"'%.-1f'.format([1.0])", "'%.007f'.format([1.0])", "'%D'.format([1])", "'%S'.format([1])", "'%.3z'.format([1])",
		"'%.3e'.format(['a'])", "'%-d'.format([1])", "'% d'.format([1])", "'%.3.f'.format([1.0])",
		// an error after good clauses
		"'%d %d'.format([1, 'a'])", "'%d %z'.format([1, 2])", "'%s %d'.format([o, 'a'])", "'%s %s %d'.format([1, 2, 3, 4])",
		"'%d %s'.format(['a', o])", "'%x %o %b'.format([s, i, d])",
		// escapes and raw or triple-quoted targets
		`'\x25d'.format(['a'])`, "r'%d'.format(['a'])", "'''%d'''.format(['a'])", `"%d".format(['a'])`, `'\045d'.format(['a'])`,
		`'%s\n%d'.format([1, 'a'])`,
		// not validated: a non-literal target or a non-list-literal argument
		"s.format(['%d'])", "s.format([o])", "('%d' + '').format(['a'])", "'%d'.format(lx)", "'%d'.format(['a'] + [])",
		"'%d'.format(x)", "x.format([o])", "'%d'.format(t ? ['a'] : [1])", "'%z'.format(lx)", "ls[0].format([o])",
		"'%d'.format(l.map(e, 'a'))",
		// inside other expressions
		"size('%d'.format(['a']))", "['%d'.format(['a'])]", "l.map(e, '%d'.format([e]))", "l.map(e, '%s'.format([e, 'a']))",
		"l.map(e, '%f'.format([e]))", "t ? '%s'.format([o]) : ''", "'%s'.format(['%d'.format(['a'])])",
		"{'k': '%x'.format([t])}", "'%s'.format(['%d'.format([1])]).size()", "m.all(k, '%d'.format([k]) == k)",
		"optional.of('%d'.format(['a']))", "'%d'.format(['a']) in ls",
		// several calls: every one reports, in position order
		"'%d'.format(['a']) + '%s'.format([o])", "'%s'.format([o]) + '%d'.format(['a'])",
		"'%d'.format(['a']).size() + '%z'.format([1]).size()", "'%d'.format(['a']) == '%d'.format(['a'])",
		"'%d'.format(['a']) +\n'%s'.format([o])", "'%s'.format(['%d'.format(['a']), o])",
		"'%s'.format(['a', '%d'.format(['a'])])", "'a'.format([1]) + ''.format([2])",
		// with the other validators
		"'%d'.format([duration('x')])", "'%d'.format([timestamp('x')])", "'%s'.format([s.matches('[')])",
		"size([1, 'a']) + size('%d'.format(['a']))", "'%d'.format([[1, 'a']])", "'%s'.format([[1, 'a'], duration('x')])",
		"'%d'.format([size([1, 'a'])])",
		// checker errors come first: the validators do not run
		"'%d'.format(['a']) + nope", "'%d'.format([nope])",
	)
}
