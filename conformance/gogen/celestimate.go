package main

// gogen celestimate [--out FILE] writes the corpus of cel-go's static cost
// estimate (default ../../cel/tests/data/cel_estimate.json): expressions
// compiled in the Kubernetes 1.37 environment for CRD rules with the variables
// of celCheckVars and "self" (an object, declared as the API server declares a
// schema's types: apiserver DeclTypes), estimated as the API server estimates
// a rule: env.EstimateCost(ast, &library.CostEstimator{SizeEstimator: ...}).
// The size estimator answers from a size table (by path: a variable, then
// field names, "@items", "@keys", "@values") and, like the API server's, has
// no answer for a node without a path.
//
// "tables" holds the size tables by name; each case has "expr", "table" and
// cel-go's "min" and "max", or "error" (EstimateCost's error) or "panic".
// Cases are every expression of the celcheck corpus (hand and random) that
// compiles here and random rules over "self" (celEstimateRandomCases),
// estimated with the "none" and "small" tables, and hand cases for each costed
// construct, estimated with every table.

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"strconv"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"k8s.io/apimachinery/pkg/util/version"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"
)

// celEstimateSelf is the type of "self"; the Rust test declares the same
// objects (cel/tests/estimate.rs).
func celEstimateSelf() *apiservercel.DeclType {
	field := func(name string, t *apiservercel.DeclType) *apiservercel.DeclField {
		return apiservercel.NewDeclField(name, t, false, nil, nil)
	}
	str := apiservercel.StringType
	item := apiservercel.NewObjectType("Item", map[string]*apiservercel.DeclField{
		"name":  field("name", str),
		"value": field("value", str),
	})
	spec := apiservercel.NewObjectType("Spec", map[string]*apiservercel.DeclField{
		"replicas": field("replicas", apiservercel.IntType),
		"host":     field("host", str),
		"ports":    field("ports", apiservercel.NewListType(apiservercel.IntType, -1)),
		"items":    field("items", apiservercel.NewListType(item, -1)),
		"config":   field("config", apiservercel.NewMapType(str, item, -1)),
	})
	return apiservercel.NewObjectType("Self", map[string]*apiservercel.DeclField{
		"name":   field("name", str),
		"tags":   field("tags", apiservercel.NewListType(str, -1)),
		"labels": field("labels", apiservercel.NewMapType(str, str, -1)),
		"spec":   field("spec", spec),
	})
}

type sizeRow struct {
	path     []string
	min, max uint64
}

// celEstimateTables are the size tables by name.
func celEstimateTables() map[string][]sizeRow {
	p := func(s string) []string { return strings.Split(s, ".") }
	const huge = uint64(1) << 62
	return map[string][]sizeRow{
		"none": nil,
		"small": {
			{p("s"), 0, 10}, {p("b"), 0, 5}, {p("x"), 0, 9},
			{p("l"), 0, 3}, {p("ls"), 0, 4}, {p("ls.@items"), 1, 8},
			{p("lx"), 0, 2}, {p("ll"), 0, 3}, {p("ll.@items"), 0, 5},
			{p("m"), 0, 6}, {p("m.@keys"), 1, 10}, {p("mx"), 2, 4},
			{p("mm"), 0, 2}, {p("mm.@keys"), 0, 3}, {p("mm.@values"), 0, 3},
			{p("mm.@values.@values"), 0, 7}, {p("mi"), 1, 1}, {p("mi.@values"), 3, 3},
			{p("os"), 0, 6},
			{p("self.name"), 1, 63}, {p("self.tags"), 0, 10}, {p("self.tags.@items"), 0, 20},
			{p("self.labels"), 0, 16}, {p("self.labels.@keys"), 1, 30}, {p("self.labels.@values"), 0, 40},
			{p("self.spec.host"), 0, 253}, {p("self.spec.ports"), 0, 8},
			{p("self.spec.items"), 0, 50}, {p("self.spec.items.@items.name"), 0, 12},
			{p("self.spec.items.@items.value"), 0, 100},
			{p("self.spec.config"), 0, 5}, {p("self.spec.config.@keys"), 0, 60},
			{p("x.a.@keys.c"), 0, 20}, {p("x.a"), 0, 3}, {p("ll.@indices"), 0, 50},
			{p("self.spec.config.@values"), 0, 7}, {p("self.spec.config.@values.name"), 0, 9},
			{p("self.spec.config.@values.value"), 0, 11},
		},
		"huge": {
			{p("s"), 0, huge}, {p("l"), huge, huge}, {p("ls"), 0, math.MaxUint64},
			{p("ls.@items"), 0, huge}, {p("m"), 0, huge}, {p("ll"), 1 << 33, 1 << 33},
			{p("ll.@items"), 1 << 33, 1 << 33},
			{p("self.name"), 0, huge}, {p("self.spec.items"), 0, huge},
			{p("self.spec.items.@items.name"), 0, huge},
		},
	}
}

// tableSizes is the SizeEstimator the API server would have: a schema's
// sizes by path, none for a node without a path.
type tableSizes map[string]checker.SizeEstimate

func (t tableSizes) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	if len(n.Path()) == 0 {
		return nil
	}
	if sz, ok := t[strings.Join(n.Path(), "\x00")]; ok {
		return &sz
	}
	return nil
}

func (t tableSizes) EstimateCallCost(string, string, *checker.AstNode, []checker.AstNode) *checker.CallEstimate {
	return nil
}

func runCELEstimate(args []string) int {
	out, ok := parseOut("celestimate", args, "file", "cel", "tests", "data", "cel_estimate.json")
	if !ok {
		return 2
	}
	baseSet := environment.MustBaseEnvSet(version.MajorMinor(1, 37))
	self := celEstimateSelf()
	var opts []cel.EnvOption
	for _, v := range celCheckVars {
		opts = append(opts, cel.Variable(v.name, v.t))
	}
	opts = append(opts, cel.Variable("self", self.CelType()))
	set, err := baseSet.Extend(environment.VersionedOptions{
		IntroducedVersion: version.MajorMinor(1, 0),
		EnvOptions:        opts,
		DeclTypes:         []*apiservercel.DeclType{self},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "gogen: celestimate: %v\n", err)
		return 1
	}
	env := set.StoredExpressionsEnv()

	tables := celEstimateTables()
	jTables := jObject{}
	estimators := map[string]*library.CostEstimator{}
	for name, rows := range tables {
		sizes := tableSizes{}
		var jRows []any
		for _, r := range rows {
			sizes[strings.Join(r.path, "\x00")] = checker.SizeEstimate{Min: r.min, Max: r.max}
			var path []any
			for _, e := range r.path {
				path = append(path, e)
			}
			jRows = append(jRows, jObject{"path": path, "min": jUint(r.min), "max": jUint(r.max)})
		}
		if jRows == nil {
			jRows = []any{}
		}
		jTables[name] = jRows
		estimators[name] = &library.CostEstimator{SizeEstimator: sizes}
	}

	var cases []any
	add := func(exprs []string, tableNames []string, mustCompile bool) error {
		var bad []string
		for _, e := range exprs {
			ast, iss, panicked := celEstimateCompile(env, e)
			if panicked || iss != nil && iss.Err() != nil {
				if mustCompile {
					bad = append(bad, fmt.Sprintf("%q: %v", e, iss.Err()))
				}
				continue
			}
			for _, t := range tableNames {
				cases = append(cases, celEstimateAnswer(env, ast, e, t, estimators[t]))
			}
		}
		if bad != nil {
			return fmt.Errorf("hand cases do not compile:\n%s", strings.Join(bad, "\n"))
		}
		return nil
	}
	r := rand.New(rand.NewSource(3737))
	checkExprs := append(celCheckHandCases(), celCheckRandomCases(r, set.StoredExpressionsEnv(), 3000)...)
	if err := add(celEstimateHandCases(), []string{"none", "small", "huge"}, true); err != nil {
		fmt.Fprintf(os.Stderr, "gogen: celestimate: %v\n", err)
		return 1
	}
	_ = add(checkExprs, []string{"none", "small"}, false)
	_ = add(celEstimateRandomCases(rand.New(rand.NewSource(1337)), 600), []string{"none", "small"}, false)
	return writeCorpus("celestimate", out, jObject{"tables": jTables, "cases": cases})
}

// celEstimateCompile compiles an expression; cel-go's homogeneous-aggregate
// validator panics on some optional list entries (see celCheckAnswer), and
// such expressions are left out.
func celEstimateCompile(env *cel.Env, e string) (ast *cel.Ast, iss *cel.Issues, panicked bool) {
	defer func() {
		if p := recover(); p != nil {
			ast, iss, panicked = nil, nil, true
		}
	}()
	ast, iss = env.Compile(e)
	return ast, iss, false
}

func jUint(v uint64) jNumber { return jNumber(strconv.FormatUint(v, 10)) }

func celEstimateAnswer(env *cel.Env, ast *cel.Ast, e, table string, est *library.CostEstimator) (row jObject) {
	row = jObject{"expr": e, "table": table}
	defer func() {
		if p := recover(); p != nil {
			row = jObject{"expr": e, "table": table, "panic": fmt.Sprint(p)}
		}
	}()
	cost, err := env.EstimateCost(ast, est)
	if err != nil {
		row["error"] = err.Error()
		return row
	}
	row["min"] = jUint(cost.Min)
	row["max"] = jUint(cost.Max)
	return row
}

func celEstimateHandCases() []string {
	return []string{
		// literals, variables, selection
		"1", "'abc'", "b'ab'", "null", "[]", "{}", "[1, 2, 3]", "[s, s]", "[l, l]", "[[1, 2], [3]]", "{'a': 1}",
		"{'a': s, 'b': 'cc'}", "{s: [1, 2]}", "s", "x", "x.a", "x.a.b", "m.a", "mm.a.b", "mx.a.b", "self", "self.name",
		"self.spec.host", "self.spec.items[0].name", "self.spec.config['a'].value", "int", "type(s)",
		// strings
		"size(s)", "s.size()", "size('héllo')", "s.contains('abc')", "s.contains(s)", "'abc'.contains(s)",
		"s.startsWith('a')", "s.endsWith(s)", "s.matches('[a-z]+')", "matches(s, s)", "'abc'.matches(s)",
		"s + s", "s + 'abc'", "'ab' + 'cd'", "(s + s).size()", "(s + 'a' + s).contains(s)", "s < s", "s <= 'a'",
		"s > s", "s >= s", "s == 'abc'", "s != s", "'a' == 'b'", "b + b", "b < b", "b == b'a'", "bytes(s)",
		"string(b)", "bytes(s).size()", "string(b) + s", "strings.quote(s)", "strings.quote(s).size()",
		"s.format([1])", "'%d'.format([i])", "int(s)", "double(s)", "duration(s)", "timestamp(s)", "string(i)",
		// scalars
		"1 + 2", "i * i", "d / d", "-i", "!t", "du + du", "ts - ts", "i < 1", "i == i", "u == u", "d == d",
		"t == t", "du == du", "ts == ts", "null == null", "x == x", "x == 1", "i == x", "o == o", "os == os",
		// lists and maps
		"size(l)", "l.size()", "1 in l", "'a' in ls", "s in ls", "i in l", "l + l", "l + [1, 2]", "[1] + [2, 3]",
		"(l + [1, 2]).size()", "(l + l).all(e, e > 0)", "l[0]", "ll[0]", "ll[0][1]", "ll[0].size()", "ls[0].size()",
		"ls[0] + ls[1]", "l == l", "ls == ls", "ll == ll", "m == m", "[1, 2] == [1, 2]", "{'a': 1} == m",
		"m['a']", "mm['a']", "mm['a']['b'].size()", "mm.a.b.size()", "'a' in m", "s in mm", "size(m)", "m.size()",
		"mi[1].size()", "mx['a']", "[s, 'abc'][0].size()", "{'a': s}['a'].size()", "['a', 'bc'].all(e, e.size() > 0)",
		"[[1, 2], [3]].all(e, e.size() > 0)", "{'a': [1, 2]}.all(k, v, v.size() > 1)", "lx[0]", "lx[0].a",
		"size(x)", "x[0]", "x['a']", "dyn(s).size()", "dyn(l)[0]", "dyn(ls).all(e, e.size() > 0)",
		// comprehensions
		"l.all(e, e > 0)", "ls.all(e, e.size() < 10)", "ls.exists(e, e.startsWith('a'))", "ls.exists_one(e, e == s)",
		"l.map(e, e * 2)", "ls.map(e, e + e)", "ls.map(e, e + e).all(e, e.size() > 2)", "l.filter(e, e > 0)",
		"ls.filter(e, e.contains('a')).map(e, e.size())", "ls.map(e, e.size() > 0, e)", "m.all(k, k.size() > 0)",
		"m.exists(k, k.contains('a'))", "m.map(k, k + k)", "m.filter(k, m[k] > 0)", "m.all(k, v, v > 0 && k.size() > 0)",
		"mm.all(k, mm[k].all(k2, mm[k][k2].size() > 1))", "mm.all(k, v, v.all(k2, v2, v2.size() > k2.size()))",
		"ll.all(l2, l2.all(e, e > 0))", "ll.map(l2, l2.map(e, e + 1))", "ll.exists(l2, l2.exists(e, e == 1))",
		"ll.map(l2, l2.size()).all(n, n > 0)", "l.all(i, v, i < v)", "ls.exists(i, v, v.size() == i)",
		"ls.all(i, v, v.size() > 0)", "l.transformList(i, v, v * i)", "ls.transformList(i, v, v + v)",
		"m.transformMap(k, v, v + 1)", "m.transformMapEntry(k, v, {k: v})", "ls.transformMap(i, v, v + v)",
		"[1, 2, 3].map(e, [e, e]).all(y, y.size() == 2)", "ls.map(e, [e]).all(y, y[0].size() > 0)",
		"ls.map(e, {e: e}).all(y, y.all(k, k.size() > 0))", "lx.all(e, e.a == 1)", "mx.all(k, v, v.b == k)",
		"x.all(e, e > 0)", "[].all(e, e)", "{}.all(k, k)", "l.exists(e, e > 0) ? 1 : 2",
		"ls.map(e, e).map(e, e).all(e, e.size() > 0)", "ll.filter(l2, l2.size() > 0).all(l2, l2.all(e, e > 0))",
		// optionals
		"o.orValue(1)", "os.orValue('a')", "os.orValue('a').size()", "os.value().size()", "m.?a", "m.?a.orValue(0)",
		"mm.?a.?b", "mm.?a.?b.orValue('').size()", "[?o, 1]", "[?os, 'a']", "{?'a': o}", "optional.of(s).value().size()",
		"os.hasValue()", "l[?0]", "m[?'a']", "os.optMap(v, v.size())", "os.optMap(v, v + v).value().size()",
		"optional.none()", "optional.ofNonZeroValue(s)", "o.or(o)", "self.?spec.?host.orValue('').size()",
		// has
		"has(m.a)", "has(mm.a.b)", "has(x.a)", "has(self.spec)", "has(self.spec.host)", "has(self.spec.host) && self.spec.host.size() > 0",
		// conditionals and logic
		"t ? s : 'abc'", "(t ? s : 'ab').size()", "(t ? l : [1, 2]).all(e, e > 0)", "(t ? ls : ['a']).exists(e, e == 'b')",
		"(t ? [s] : ['ab', 'c']).all(e, e.size() > 0)", "t ? 1 : 2", "t && s == 'a'", "t || s.contains('a')",
		"s.contains('a') || t", "t && t && t", "!(t || t)", "t ? (t ? s : s + s) : 'a'",
		// the Kubernetes lists library
		"l.isSorted()", "ls.isSorted()", "l.sum()", "[1, 2].sum()", "l.min()", "l.max()", "ls.min()", "ls.max()",
		"l.indexOf(1)", "ls.indexOf(s)", "ls.lastIndexOf('a')", "s.indexOf('a')", "s.lastIndexOf('a')", "s.indexOf('a', 1)",
		"self.tags.isSorted()", "self.tags.indexOf('a')", "['a', 'bc'].isSorted()", "ll.indexOf([1])", "lx.sum()",
		"[1.0].sum()", "[du].sum()",
		// regex
		"s.find('[0-9]+')", "s.findAll('[0-9]+')", "s.findAll('x', 2)", "s.findAll('[a-z]').size()", "s.find(s)",
		"s.findAll('[a-z]').all(e, e.size() > 0)", "'abc'.find('b')",
		// url
		"url(s)", "url('https://a.b/c')", "url(s).getHost()", "url(s).getScheme()", "url(s).getHostname()",
		"url(s).getPort()", "url(s).getEscapedPath()", "url(s).getQuery()", "isURL(s)", "url(s) == url(s)",
		"url('https://x') == url(s)", "url(s) == url('https://x/abcdef')", "url('https://x') == url('https://y/z')",
		// ip and cidr
		"ip(s)", "ip('1.2.3.4')", "isIP(s)", "ip.isCanonical(s)", "ip(s).family()", "ip(s).isUnspecified()",
		"ip(s).isLoopback()", "ip(s).isLinkLocalMulticast()", "ip(s).isLinkLocalUnicast()", "ip(s).isGlobalUnicast()",
		"ip(s) == ip(s)", "string(ip(s))", "cidr(s)", "isCIDR(s)", "cidr(s).containsIP(ip(s))", "cidr(s).containsIP(s)",
		"cidr(s).containsCIDR(cidr(s))", "cidr(s).containsCIDR(s)", "cidr(s).ip()", "cidr(s).masked()",
		"cidr(s).prefixLength()", "cidr(s) == cidr(s)", "string(cidr(s))", "cidr('10.0.0.0/8').containsIP('10.1.2.3')",
		// quantity
		"quantity(s)", "isQuantity(s)", "quantity(s).isInteger()", "quantity(s).asInteger()",
		"quantity(s).asApproximateFloat()", "quantity(s).isGreaterThan(quantity('1'))", "quantity(s).isLessThan(quantity(s))",
		"quantity(s).compareTo(quantity(s))", "quantity(s).add(quantity(s))", "quantity(s).add(1)", "quantity(s).sub(1)",
		"quantity(s).sub(quantity('1'))", "quantity(s) == quantity('1')", "quantity('10Mi')",
		// semver
		"semver(s)", "isSemver(s)", "isSemver(s, true)", "semver(s, true)", "semver(s).major()", "semver(s).minor()",
		"semver(s).patch()", "semver(s).isGreaterThan(semver(s))", "semver(s).isLessThan(semver('1.0.0'))",
		"semver(s).compareTo(semver(s))", "semver(s) == semver(s)",
		// format
		"format.dns1123Label()", "format.named('dns1123Label')", "format.dns1123Label().validate(s)",
		"format.named(s).value().validate(s)", "format.dns1123Label() == format.dns1123Label()",
		"format.dns1123Subdomain().validate('abc')", "format.uri().validate(s)",
		// strings extension
		"s.charAt(0)", "s.replace('a', 'bb')", "s.replace('', 'x')", "s.replace('ab', 'c')", "s.replace(s, s)",
		"s.replace('a', 'b', 1)", "s.replace('abc', '').size()", "s.replace('a', 'bb').size()", "s.replace('', 'x').size()",
		"s.replace(s, 'xyz').size()", "s.split(',')", "s.split(',', 2)", "s.split(',').size()", "s.split(',', 2).all(e, e.size() > 0)",
		"s.split(',', -1).size()", "s.split(',', i).size()", "ls.join()", "ls.join(',')", "ls.join(s)", "ls.join(', ').size()",
		"['a', 'bc'].join(',').size()", "s.lowerAscii()", "s.upperAscii()", "s.substring(1)", "s.substring(1, 3)",
		"s.trim()", "s.lowerAscii().size()", "s.trim().contains('a')", "s.substring(2).size()", "s.split(',').all(e, e.size() > 0)",
		"s.upperAscii() == 'A'", "self.spec.items.map(i, i.name).join(',')", "self.tags.join(',').size()",
		"s.lowerAscii().upperAscii().trim().size()", "s.replace('a', 'bb').contains('x')", "s.replace('', 'x').contains(s)",
		"s.replace('abc', 'x').contains('y')", "s.replace(s, s).contains(s)", "s.split(',', -1).all(e, e.size() > 0)",
		"s.split(',', 3).all(e, e.size() > 0)", "s.findAll('a').all(e, e.size() > 0)", "url(s).getHost().size()",
		// result sizes past 2^64 wrap as cel-go's do
		"strings.quote(s) + 'a'", "strings.quote(s).contains('a')", "bytes(s) + b'a'", "string(bytes(s)).contains('a')",
		"(bytes(s) + bytes(s)).size()", "l.slice(2, 1).all(e, e > 0)", "lists.range(-1).all(e, e > 0)",
		// lists extension
		"l.slice(0, 1)", "l.slice(2, 1)", "l.slice(i, 2)", "l.slice(0, 2).size()", "ll.flatten()", "ll.flatten(1)",
		"ll.flatten().size()", "lists.range(3)", "lists.range(i)", "lists.range(3).all(e, e > 0)", "l.reverse()",
		"l.reverse().size()", "l.distinct()", "ls.distinct().size()", "l.sort()", "ls.sort()", "l.sortBy(e, -e)",
		"ls.sortBy(e, e)", "ls.sortBy(e, e.size())", "l.first()", "l.last()", "ls.first().orValue('').size()",
		"[du].sort()", "[b'a'].sort()", "[1u].sort()",
		// sets
		"sets.contains(l, l)", "sets.equivalent(ls, ls)", "sets.intersects(l, [1, 2])", "sets.contains([1], [1, 2, 3])",
		// self: a schema's object
		"self.name.size() < 10", "self.tags.all(t, t.size() < 5)", "self.labels.all(k, k.size() < 5)",
		"self.labels.all(k, v, k.size() + v.size() < 10)", "self.labels.exists(k, self.labels[k] == 'a')",
		"self.spec.items.all(i, i.name.size() > 0 && i.value.matches('x'))", "self.spec.config.all(k, v, v.name.size() < 10)",
		"self.spec.config.all(k, v, k.size() < 10)", "self.spec.config.all(k, k.size() < 10)",
		"self.spec.config.exists(k, v, k == v.name)", "self.spec.ports.exists(p, p == 80)", "self.spec.host.matches(self.name)",
		"self.spec.items.exists(i, i.name == self.name)", "self.spec.items[0].name.size()", "self.spec.config['a'].value.contains('x')",
		"self.spec.items.all(i, self.spec.items.exists(j, j.name == i.name))", "self.spec.items.all(i, v, v.name.size() > i)",
		"self.spec.items.all(e, self.spec.items.all(f, f.name == e.name))", "self.spec.replicas < 10",
		"self.spec.items.map(i, i.value).all(v, v.size() < 5)", "self.spec.items.filter(i, i.name == 'a').all(i, i.value.size() > 0)",
		"self.spec.config.transformMap(k, v, v.value).all(k, v, v.size() > k.size())",
		"self.spec.items.exists(i, i.name.startsWith(self.spec.host))", "self.tags.map(t, t + t).all(t, t.size() < 3)",
		"self.spec.config.all(k, v, self.spec.config.all(k2, v2, k2 == k))", "self.spec.items.all(i, v, self.spec.items[i].name == v.name)",
		"self.spec.items.exists(i, i.name.contains(self.spec.items[0].value))", "self.labels.map(k, self.labels[k]).all(v, v.size() > 0)",
		// paths sharing a Go array: the key's path is overwritten by the value's
		"self.spec.config.all(k, v, k == 'abcdefghijklmnopqrstuvwxyz0123456789')",
		"self.spec.config.all(k, v, k.matches('[a-z]+'))", "self.spec.config.exists(k, v, k.startsWith(v.name))",
		"self.spec.config.transformMap(k, v, k + v.name).all(k, v, v.size() > 0)",
		"x.a.all(e, sets.contains(e.b, e.c))", "x.a.all(e, e.b.contains(e.c))", "x.a.all(e, e.c.contains(e.b))",
		"x.a.all(k, v, k == v)", "x.a.all(e, e.b.all(f, e.c.size() > 0))",
		// a two-variable comprehension's index has its own path
		"ll.all(i, v, i == i)", "ll.all(i, v, v.size() == i)",
		// an indexed literal's element size
		"['abc', 'de'][0].contains('a')", "{'a': 'xyz'}['a'].contains('y')", "[['a', 'b']][0].all(e, e == 'a')",
		"size(self.spec.items) < 5", "self.spec.items.size() + self.tags.size() < 9", "self == self", "self.spec == self.spec",
		"self.tags == ['a']", "self.labels == {'a': 'b'}", "self.spec.items.all(i, i == self.spec.items[0])",
	}
}

// celEstimateRandomCases composes random well-typed rules over "self" and
// the variables: comprehensions nested over the schema's lists and maps, with
// string functions and comparisons of what they bind.
func celEstimateRandomCases(r *rand.Rand, n int) []string {
	type scoped struct{ name, kind string }
	roots := []scoped{
		{"self.name", "str"}, {"self.spec.host", "str"}, {"s", "str"}, {"self.tags", "liststr"},
		{"ls", "liststr"}, {"self.spec.items", "listitem"}, {"self.labels", "mapstr"}, {"m", "mapint"},
		{"self.spec.config", "mapitem"}, {"self.spec.ports", "listint"}, {"l", "listint"}, {"i", "int"},
		{"self.spec.replicas", "int"}, {"mm", "mapmap"}, {"ll", "listlist"}, {"x.a", "dyn"},
	}
	var gen func(kind string, depth int, scope []scoped) string
	pick := func(kind string, scope []scoped) []string {
		var out []string
		for _, v := range scope {
			if v.kind == kind {
				out = append(out, v.name)
			}
		}
		return out
	}
	fresh := 0
	newVar := func() string { fresh++; return fmt.Sprintf("v%d", fresh) }
	// comprehension over a container of kind k, binding variables in scope
	comp := func(depth int, scope []scoped) string {
		kinds := []string{"liststr", "listitem", "mapstr", "mapitem", "listint", "mapint", "mapmap", "listlist", "dyn"}
		k := kinds[r.Intn(len(kinds))]
		rng := gen(k, depth-1, scope)
		a, b := newVar(), newVar()
		var inner []scoped
		elem := map[string]string{"liststr": "str", "listitem": "item", "listint": "int", "listlist": "listint", "dyn": "dyn"}
		key := map[string]string{"mapstr": "str", "mapitem": "str", "mapint": "str", "mapmap": "str"}
		val := map[string]string{"mapstr": "str", "mapitem": "item", "mapint": "int", "mapmap": "mapstr"}
		two := r.Intn(3) == 0
		macro := []string{"all", "exists", "exists_one"}[r.Intn(3)]
		switch {
		case strings.HasPrefix(k, "map") && two:
			inner = append([]scoped{{a, key[k]}, {b, val[k]}}, scope...)
			return fmt.Sprintf("%s.%s(%s, %s, %s)", rng, []string{"all", "exists"}[r.Intn(2)], a, b, gen("bool", depth-1, inner))
		case strings.HasPrefix(k, "map"):
			inner = append([]scoped{{a, key[k]}}, scope...)
		case two:
			inner = append([]scoped{{a, "int"}, {b, elem[k]}}, scope...)
			return fmt.Sprintf("%s.%s(%s, %s, %s)", rng, []string{"all", "exists"}[r.Intn(2)], a, b, gen("bool", depth-1, inner))
		default:
			inner = append([]scoped{{a, elem[k]}}, scope...)
		}
		return fmt.Sprintf("%s.%s(%s, %s)", rng, macro, a, gen("bool", depth-1, inner))
	}
	gen = func(kind string, depth int, scope []scoped) string {
		vars := pick(kind, append(scope, roots...))
		if depth <= 0 || r.Intn(3) == 0 {
			if len(vars) > 0 {
				return vars[r.Intn(len(vars))]
			}
		}
		d := depth - 1
		switch kind {
		case "str":
			opts := []func() string{
				func() string { return "'abc'" },
				func() string { return gen("str", d, scope) + " + " + gen("str", d, scope) },
				func() string { return gen("str", d, scope) + ".lowerAscii()" },
				func() string { return gen("str", d, scope) + ".replace('a', 'bc')" },
				func() string { return gen("item", d, scope) + ".name" },
				func() string { return gen("item", d, scope) + ".value" },
				func() string { return gen("liststr", d, scope) + "[0]" },
				func() string { return gen("mapstr", d, scope) + "['k']" },
				func() string { return gen("liststr", d, scope) + ".join(',')" },
				func() string {
					return "(" + gen("bool", d, scope) + " ? " + gen("str", d, scope) + " : " + gen("str", d, scope) + ")"
				},
			}
			return opts[r.Intn(len(opts))]()
		case "bool":
			opts := []func() string{
				func() string { return gen("str", d, scope) + ".contains(" + gen("str", d, scope) + ")" },
				func() string { return gen("str", d, scope) + ".startsWith(" + gen("str", d, scope) + ")" },
				func() string { return gen("str", d, scope) + ".matches('^[a-z]+$')" },
				func() string { return gen("str", d, scope) + " == " + gen("str", d, scope) },
				func() string { return gen("str", d, scope) + ".size() < " + gen("int", d, scope) },
				func() string { return gen("int", d, scope) + " in " + gen("listint", d, scope) },
				func() string { return gen("str", d, scope) + " in " + gen("liststr", d, scope) },
				func() string { return gen("bool", d, scope) + " && " + gen("bool", d, scope) },
				func() string { return gen("bool", d, scope) + " || " + gen("bool", d, scope) },
				func() string { return "has(self.spec.host)" },
				func() string { return comp(depth, scope) },
				func() string { return comp(depth, scope) },
				func() string { return gen("dyn", d, scope) + " == " + gen("dyn", d, scope) },
			}
			return opts[r.Intn(len(opts))]()
		case "int":
			opts := []func() string{
				func() string { return "1" },
				func() string { return gen("str", d, scope) + ".size()" },
				func() string { return gen("liststr", d, scope) + ".size()" },
				func() string { return gen("listint", d, scope) + "[0]" },
				func() string { return gen("mapint", d, scope) + "['k']" },
			}
			return opts[r.Intn(len(opts))]()
		case "liststr":
			a := newVar()
			opts := []func() string{
				func() string { return gen("str", d, scope) + ".split(',')" },
				func() string { return "[" + gen("str", d, scope) + ", 'x']" },
				func() string {
					return gen("liststr", d, scope) + ".map(" + a + ", " + gen("str", d, append([]scoped{{a, "str"}}, scope...)) + ")"
				},
				func() string {
					return gen("liststr", d, scope) + ".filter(" + a + ", " + gen("bool", d, append([]scoped{{a, "str"}}, scope...)) + ")"
				},
				func() string {
					return gen("listitem", d, scope) + ".map(" + a + ", " + gen("str", d, append([]scoped{{a, "item"}}, scope...)) + ")"
				},
				func() string { return gen("liststr", d, scope) + " + " + gen("liststr", d, scope) },
				func() string { return gen("mapstr", d, scope) + ".map(" + a + ", " + a + ")" },
			}
			return opts[r.Intn(len(opts))]()
		case "listitem":
			return "self.spec.items"
		case "item":
			opts := []func() string{
				func() string { return gen("listitem", d, scope) + "[0]" },
				func() string { return gen("mapitem", d, scope) + "['k']" },
			}
			return opts[r.Intn(len(opts))]()
		case "listint":
			return []string{"self.spec.ports", "l", "[1, 2]", "ll[0]"}[r.Intn(4)]
		case "mapstr":
			return []string{"self.labels", "mm['k']", "{'a': 'b'}"}[r.Intn(3)]
		case "dyn":
			return []string{"x", "x.a", "x.a.b", "lx[0]"}[r.Intn(4)]
		}
		if len(vars) > 0 {
			return vars[r.Intn(len(vars))]
		}
		return map[string]string{"mapitem": "self.spec.config", "mapint": "m", "mapmap": "mm", "listlist": "ll"}[kind]
	}
	var out []string
	for len(out) < n {
		fresh = 0
		out = append(out, gen("bool", 4, nil))
	}
	return out
}
