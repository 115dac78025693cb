package main

// gogen celk8s [--out FILE] writes the corpus of the Kubernetes CEL libraries
// smd implements outside smd-cel (default ../../smd/tests/data/cel_k8s.json):
// quantity, IP, CIDR, URL, semver and format, as k8s.io/apiserver v0.37.2
// registers them in the base environment at compatibility version 1.37.
// Rows have celeval's form (see celeval.go: "expr", "ast", "value" or
// "compileError", "cost"), evaluated by the same celEvalCase. Rows that test
// one library function on one string also carry "fn" (the function) and
// "arg" (the string), so that smd's plain parsers are compared with Go's
// answers before any expression is evaluated.
//
// The cases are written by hand for every function and error path, then
// drawn at random (seeded) from generators of IP, CIDR, URL, quantity and
// semver texts and their mutations.

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"

	"github.com/google/cel-go/cel"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apiserver/pkg/cel/environment"
)

// k8sCase is one expression; fn and arg name a single-string call when set.
type k8sCase struct {
	expr string
	fn   string
	arg  string
}

func runCELK8s(args []string) int {
	out, ok := parseOut("celk8s", args, "file", "smd", "tests", "data", "cel_k8s.json")
	if !ok {
		return 2
	}
	base := environment.MustBaseEnvSet(version.MajorMinor(1, 37)).StoredExpressionsEnv()
	cases := append(k8sHandCases(), k8sRandomCases(rand.New(rand.NewSource(1337)))...)
	var rows []any
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.expr] {
			continue
		}
		seen[c.expr] = true
		row, err := k8sRow(base, c)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gogen: celk8s: %q: %v\n", c.expr, err)
			return 1
		}
		rows = append(rows, row)
	}
	return writeCorpus("celk8s", out, jObject{"cases": rows})
}

func k8sRow(base *cel.Env, c k8sCase) (jObject, error) {
	row, err := celEvalCase(base, celCase{expr: c.expr})
	if err != nil {
		return nil, err
	}
	if c.fn != "" {
		row["fn"] = c.fn
		row["arg"] = c.arg
	}
	return row, nil
}

// k8sQuote is a CEL string literal of s (valid UTF-8 only; Go's escapes are CEL's).
func k8sQuote(s string) string { return strconv.Quote(s) }

// k8sCall is fn(k8sQuote(arg)), recorded as a single-string call.
func k8sCall(fn, arg string) k8sCase {
	return k8sCase{expr: fn + "(" + k8sQuote(arg) + ")", fn: fn, arg: arg}
}

func k8sExprs(es ...string) []k8sCase {
	out := make([]k8sCase, 0, len(es))
	for _, e := range es {
		out = append(out, k8sCase{expr: e})
	}
	return out
}

var k8sHandExprs = []string{
	// quantity
	`quantity("1.5G")`, `quantity("200K")`, `quantity("Three")`, `quantity("Mi")`, `quantity("")`, `quantity("1e")`,
	`quantity("1.2.3")`, `quantity("99999999999999999999999999")`, `quantity("5Ki").isInteger()`,
	`quantity("50000000G").isInteger()`, `quantity("50k").isInteger()`, `quantity("1000m").isInteger()`,
	`quantity("1.0").isInteger()`, `quantity("9999999999999999999999999999999999999G").asInteger()`,
	`quantity("9999999999999999999999999999999999999G").isInteger()`, `quantity("50k").asInteger() == 50000`,
	`quantity("50k").sub(20000).asApproximateFloat() == 30000.0`, `quantity("50k").add(quantity("20k")) == quantity("70k")`,
	`quantity("70k") == quantity("50k").add(quantity("20k"))`, `quantity("50k").add(20) == quantity("50020")`,
	`quantity("50k").sub(quantity("20k")) == quantity("30k")`, `quantity("50k").sub(20000) == quantity("30k")`,
	`quantity("50k").add(20).sub(quantity("100k")).sub(-50000) == quantity("20")`,
	`quantity("200M").compareTo(quantity("0.2G"))`, `quantity("50M").compareTo(quantity("50Mi"))`,
	`quantity("50Mi").compareTo(quantity("50M"))`, `quantity("150Mi").isGreaterThan(quantity("100Mi"))`,
	`quantity("50Mi").isGreaterThan(quantity("100Mi"))`, `quantity("50M").isLessThan(quantity("100M"))`,
	`quantity("100M").isLessThan(quantity("50M"))`, `sign(quantity("-1"))`, `sign(quantity("0"))`, `sign(quantity("1m"))`, `quantity("1").sign()`,
	`quantity("0.3").asApproximateFloat()`, `quantity("300m").asApproximateFloat()`, `quantity("1.5Gi").asApproximateFloat()`,
	`quantity("1e400").asApproximateFloat()`, `quantity("1e400").isInteger()`, `quantity("1e-400").asApproximateFloat()`,
	`quantity("0.1n").asApproximateFloat()`, `quantity("1n").asApproximateFloat()`, `quantity("1e3").asInteger()`,
	`quantity("9223372036854775807").asInteger()`, `quantity("9223372036854775808").asInteger()`,
	`quantity("9223372036854775807").add(1).isInteger()`, `quantity("9223372036854775807").add(1).asApproximateFloat()`,
	`quantity("-9223372036854775808").asInteger()`, `quantity("-9223372036854775807").sub(1).asInteger()`,
	`quantity("-9223372036854775807").sub(2).asApproximateFloat()`, `quantity("0").sub(quantity("1")).isInteger()`,
	`quantity("0").add(quantity("1")).isInteger()`, `quantity("0").sub(1).asInteger()`, `quantity("1").sub(1).isInteger()`,
	`quantity("1").add(quantity("1m")).asApproximateFloat()`, `quantity("1").add(quantity("0.1n")).asApproximateFloat()`,
	`quantity("1k").add(quantity("1Ki")).asApproximateFloat()`, `quantity("1k").add(quantity("1Ki")).asInteger()`,
	`quantity("1Ki").add(quantity("1.5")).asApproximateFloat()`, `quantity("1.5Ki").isInteger()`,
	`quantity("1.5Ki").asApproximateFloat()`, `quantity("1Ei").asInteger()`, `quantity("8Ei").asApproximateFloat()`,
	`quantity("8Ei").isInteger()`, `quantity("1e18").asInteger()`, `quantity("1e19").isInteger()`,
	`quantity("1").compareTo(quantity("0.1n"))`, `quantity("1") == quantity("1000m")`, `quantity("1") != quantity("1001m")`,
	`quantity("1") == quantity("1.0")`, `type(quantity("1"))`, `isQuantity("1.3G")`, `isQuantity("1,3G")`,
	`isQuantity("10000k")`, `isQuantity("+1")`, `isQuantity("-0.0")`, `isQuantity(".5")`, `isQuantity("5.")`, `isQuantity("1e+3")`,
	`isQuantity("1E3")`, `isQuantity("1Ki ")`, `isQuantity(" 1Ki")`, `quantity("1.5").add(quantity("2.5")).isInteger()`,
	`quantity("0.5").add(quantity("0.5")).asApproximateFloat()`, `quantity("1m").add(quantity("1u")).asApproximateFloat()`,
	`sign(quantity("7").sub(quantity("7")))`, `quantity("1").add(quantity("-1")).isInteger()`,
	`quantity("1e3").add(quantity("1")).asInteger()`, `quantity("1e3").add(quantity("1e-3")).asApproximateFloat()`,
	`quantity("123456789012345678").add(quantity("1")).asApproximateFloat()`,
	`quantity("1234567890123456789").asApproximateFloat()`, `quantity("12345678901234567890").asApproximateFloat()`,
	`dyn(quantity("1")) == 1`, `dyn(quantity("1")) == null`, `[quantity("1"), quantity("2")].exists(q, q.isGreaterThan(quantity("1500m")))`,
	`[quantity("1")].all(x, x.compareTo(quantity("0.1n")) == 1 && x.isInteger())`, `[quantity("1")].all(x, x.isGreaterThan(quantity("0.1n")) && x.isInteger())`, `[quantity("1")].all(x, x == quantity("0.1n") || x.isInteger())`,
	`[quantity("0.1n")].map(x, [quantity("0").sub(x).asApproximateFloat(), x.asApproximateFloat()])`, `[quantity("0.1n")].map(x, [quantity("0").add(x).asApproximateFloat(), x.asApproximateFloat()])`,

	// IP
	`ip("192.168.0.1")`, `ip("192.168.0.1.0")`, `ip("::1")`, `ip("fe80::1%eth0")`, `ip("::ffff:192.168.0.1")`, `ip("")`,
	`ip("1.2.3")`, `ip("01.2.3.4")`, `ip("256.1.1.1")`, `ip("2001:DB8::1")`, `ip("2001:db8::1:0:0:1")`, `ip("::")`,
	`ip("0.0.0.0")`, `ip.isCanonical("127.0.0.1")`, `ip.isCanonical("2001:db8::abcd")`, `ip.isCanonical("2001:DB8::ABCD")`,
	`ip.isCanonical("2001:db8:0:0:0:0:2:1")`, `ip.isCanonical("bad")`, `ip("127.0.0.1").family()`, `ip("::1").family()`,
	`ip("0.0.0.0").isUnspecified()`, `ip("::").isUnspecified()`, `ip("127.0.0.1").isUnspecified()`, `ip("127.0.0.1").isLoopback()`,
	`ip("::1").isLoopback()`, `ip("127.255.0.1").isLoopback()`, `ip("224.0.0.1").isLinkLocalMulticast()`,
	`ip("ff02::1").isLinkLocalMulticast()`, `ip("ff05::1").isLinkLocalMulticast()`, `ip("169.254.169.254").isLinkLocalUnicast()`,
	`ip("fe80::1").isLinkLocalUnicast()`, `ip("192.168.0.1").isGlobalUnicast()`, `ip("255.255.255.255").isGlobalUnicast()`,
	`ip("2001:db8::1").isGlobalUnicast()`, `ip("ff00::1").isGlobalUnicast()`, `isIP("1.2.3.4")`, `isIP("::ffff:1.2.3.4")`,
	`isIP("fe80::1%eth0")`, `string(ip("2001:0db8:0000::0001"))`, `ip("1.2.3.4") == ip("1.2.3.4")`, `ip("::1") == ip("::0:1")`,
	`ip("1.2.3.4") != ip("1.2.3.5")`, `type(ip("1.2.3.4"))`, `dyn(ip("1.2.3.4")) == "1.2.3.4"`, `ip("::1.2.3.4")`,
	`ip("1:2:3:4:5:6:7:8:9")`, `ip("1::2::3")`, `ip("1:2:3:4:5:6:7::")`, `ip("::1:2:3:4:5:6:7")`, `ip("12345::")`, `ip("[::1]")`,

	// CIDR
	`cidr("192.168.0.0/24")`, `cidr("192.168.0.1/24")`, `cidr("::1/128")`, `cidr("192.168.0.0/33")`, `cidr("192.168.0.0")`,
	`cidr("::ffff:1.2.3.4/120")`, `cidr("fe80::1%eth0/64")`, `cidr("1.2.3.4/024")`, `cidr("1.2.3.4/-1")`, `cidr("1.2.3.4/+1")`,
	`cidr("1.2.3.4/")`, `cidr("")`, `cidr("/24")`, `cidr("2001:db8::/129")`, `cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))`,
	`cidr("192.168.0.0/24").containsIP(ip("192.168.1.1"))`, `cidr("192.168.0.0/24").containsIP("192.168.0.1")`,
	`cidr("192.168.0.0/24").containsIP("bad")`, `cidr("192.168.0.0/24").containsIP("::1")`,
	`cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25"))`, `cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23"))`,
	`cidr("192.168.0.0/24").containsCIDR("192.168.0.128/25")`, `cidr("192.168.0.0/24").containsCIDR("bad")`,
	`cidr("::/0").containsCIDR("1.2.3.4/32")`, `cidr("192.168.0.1/24").ip()`, `cidr("192.168.0.1/24").masked()`,
	`cidr("192.168.0.1/24").prefixLength()`, `string(cidr("2001:DB8::1/64").masked())`, `string(cidr("2001:DB8::1/64"))`,
	`isCIDR("1.2.3.0/24")`, `isCIDR("1.2.3.0")`, `cidr("1.2.3.0/24") == cidr("1.2.3.0/24")`, `cidr("1.2.3.1/24") == cidr("1.2.3.0/24")`,
	`type(cidr("1.2.3.0/24"))`, `cidr("1.2.3.0/24").ip().family()`, `cidr("10.0.0.0/8").containsIP(cidr("10.1.0.0/16").ip())`,
	`cidr("2001:db8::/32").containsIP("2001:db8:ffff::1")`, `cidr("0.0.0.0/0").containsIP("255.255.255.255")`,

	// URL
	`url("https://user:pass@example.com:80/path?query=val#fragment")`, `url("/absolute-path")`, `url("https://a:b:c/")`,
	`url("../relative-path")`, `url("")`, `url("*")`, `url("http://[::1]:8080/")`, `url("http://[::1")`, `url("http://host:port/")`,
	`url("http://%41/")`, `url("http://a b/")`, `url("http://example.com/%zz")`, `url(":foo")`, `url("foo:bar")`, `url("http://a\x7f/")`,
	`url("/path").getScheme()`, `url("https://example.com/").getScheme()`, `url("HTTPS://example.com/").getScheme()`,
	`url("https://example.com:80/").getHost()`, `url("https://example.com/").getHost()`, `url("https://[::1]:80/").getHost()`,
	`url("https://[::1]/").getHost()`, `url("/path").getHost()`, `url("https://example.com:80/").getHostname()`,
	`url("https://127.0.0.1:80/").getHostname()`, `url("https://[::1]:80/").getHostname()`, `url("/path").getHostname()`,
	`url("https://example.com:80/").getPort()`, `url("https://example.com/").getPort()`, `url("/path").getPort()`,
	`url("https://example.com/path").getEscapedPath()`, `url("https://example.com/path with spaces/").getEscapedPath()`,
	`url("https://example.com").getEscapedPath()`, `url("https://example.com/a%2Fb").getEscapedPath()`,
	`url("https://example.com/a%2fb/c%20d").getEscapedPath()`, `url("https://example.com/ä").getEscapedPath()`,
	`url("https://example.com/path?k1=a&k2=b&k2=c").getQuery()`, `url("https://example.com/path?key with spaces=value with spaces").getQuery()`,
	`url("https://example.com/path?").getQuery()`, `url("https://example.com/path").getQuery()`, `url("https://e.com/?a=1;b=2&c=3").getQuery()`,
	`url("https://e.com/?a=%zz&b=2").getQuery()`, `url("https://e.com/?a&b=&=c").getQuery()`, `url("https://e.com/?a+b=c+d%20e").getQuery()`,
	`url("https://e.com/p#frag?x=1").getQuery()`, `url("https://e.com/p#frag").getEscapedPath()`, `isURL("https://example.com")`,
	`isURL("/absolute-path")`, `isURL("https://a:b:c/")`, `isURL("../relative-path")`, `isURL("mailto:x@y.z")`, `isURL("http://a/#b c")`,
	`url("https://e.com/") == url("https://e.com/")`, `url("https://e.com/") == url("https://E.com/")`, `type(url("/p"))`,
	`url("http://user@host/").getHost()`, `url("http://host:/").getPort()`, `url("http://[fe80::1%25en0]:8/").getHostname()`,
	`url("http://[fe80::1%en0]/")`, `url("mailto:someone@example.com").getEscapedPath()`, `url("http://h/a;b").getEscapedPath()`,

	// semver
	`semver("1.2.3")`, `semver("v1.2.3")`, `semver("1.2")`, `semver("01.2.3")`, `semver("1.2.3-alpha.01")`, `semver("1.2.3+build")`,
	`semver("")`, `semver("1.2.3-")`, `semver("1.2.3+")`, `semver("1.2.3-a..b")`, `semver("1.2.3.4")`, `semver("a.b.c")`,
	`semver("1.2.3 ")`, `semver("99999999999999999999.0.0")`, `semver("v1.2.3", true)`, `semver("1.2", true)`, `semver("1", true)`,
	`semver("01.02.03", true)`, `semver("1.2-alpha", true)`, `semver("v01.002.0003-rc.1+b", true)`, `semver("", true)`,
	`semver("vv1", true)`, `semver("1.2.3", false)`, `isSemver("1.2.3")`, `isSemver("v1.2.3")`, `isSemver("v1.2.3", true)`,
	`isSemver("1.2", false)`, `semver("1.2.3").major()`, `semver("1.2.3").minor()`, `semver("1.2.3").patch()`,
	`semver("18446744073709551615.0.0").major()`, `semver("9223372036854775808.0.0").major()`,
	`semver("1.0.0").isGreaterThan(semver("1.0.0-rc.1"))`, `semver("1.0.0-rc.1").isLessThan(semver("1.0.0-rc.2"))`,
	`semver("1.0.0-alpha").compareTo(semver("1.0.0-alpha.1"))`, `semver("1.0.0-alpha.1").compareTo(semver("1.0.0-alpha.beta"))`,
	`semver("1.0.0-2").compareTo(semver("1.0.0-10"))`, `semver("1.0.0-a").compareTo(semver("1.0.0-10"))`,
	`semver("1.0.0+a") == semver("1.0.0+b")`, `semver("1.0.0") == semver("1.0.0-0")`, `type(semver("1.0.0"))`,
	`semver("2.0.0").compareTo(semver("10.0.0"))`, `semver("1.2.3-0a").compareTo(semver("1.2.3-0"))`,
	`semver("1.2.3-00")`, `semver("1.2.3-0a")`, `semver("1.2.3-a+b+c")`, `semver("1.2.3-é")`, `semver("1.2.3+ü")`,

	// format
	`format.dns1123Label().validate("my-name")`, `format.dns1123Label().validate("My_Name")`,
	`format.dns1123Subdomain().validate("a.b.c")`, `format.dns1123Subdomain().validate("-a.b")`,
	`format.dns1035Label().validate("1abc")`, `format.qualifiedName().validate("example.com/name")`,
	`format.qualifiedName().validate("/name")`, `format.dns1123LabelPrefix().validate("abc-")`,
	`format.dns1123SubdomainPrefix().validate("abc.-")`, `format.dns1035LabelPrefix().validate("a-")`,
	`format.labelValue().validate("a b")`, `format.labelValue().validate("")`, `format.uri().validate("https://x")`,
	`format.uri().validate("x")`, `format.uri().validate("http://a:b:c/")`, `format.uuid().validate("123e4567-e89b-12d3-a456-426614174000")`,
	`format.uuid().validate("nope")`, `format.byte().validate("aGVsbG8=")`, `format.byte().validate("a")`,
	`format.date().validate("2024-02-29")`, `format.date().validate("2023-02-29")`, `format.datetime().validate("2024-02-29T12:00:00Z")`,
	`format.datetime().validate("2024-02-29 12:00")`, `format.named("dns1123Label").hasValue()`, `format.named("bogus").hasValue()`,
	`format.named("dns1123Label").value().validate("x_y")`, `format.named("labelValue").value() == format.labelValue()`,
	`format.dns1123Label() == format.dns1035Label()`, `format.dns1123Label() == format.dns1123Label()`, `type(format.uri())`,
	`format.dns1123Label().validate("` + strings.Repeat("a", 64) + `")`,
	`format.dns1123Subdomain().validate("` + strings.Repeat("a.", 127) + `")`,
	`format.labelValue().validate("` + strings.Repeat("x", 64) + `")`,
	`format.qualifiedName().validate("` + strings.Repeat("a", 254) + `/b")`,
	`format.named("uri").value().validate("` + strings.Repeat("/p", 50) + `")`,
}

func k8sHandCases() []k8sCase {
	out := k8sExprs(k8sHandExprs...)
	for _, s := range []string{"1.2.3.4", "::1", "fe80::1%eth0", "::ffff:1.2.3.4", "1.2.3.04", "1.2.3", "", "::ffff:0:1.2.3.4", "a::g"} {
		out = append(out, k8sCall("isIP", s), k8sCall("ip", s), k8sCall("ip.isCanonical", s))
	}
	return out
}

func k8sRandomCases(r *rand.Rand) []k8sCase {
	var out []k8sCase
	for i := 0; i < 400; i++ {
		s := randomIP(r)
		out = append(out, k8sCall("isIP", s), k8sCall("ip", s), k8sCall("ip.isCanonical", s))
		if r.Intn(3) == 0 {
			out = append(out, k8sCase{expr: fmt.Sprintf(`isIP(%[1]s) ? [dyn(ip(%[1]s).family()), ip(%[1]s).isUnspecified(), ip(%[1]s).isLoopback(), ip(%[1]s).isLinkLocalMulticast(), ip(%[1]s).isLinkLocalUnicast(), ip(%[1]s).isGlobalUnicast()] : []`, k8sQuote(s))})
		}
	}
	for i := 0; i < 400; i++ {
		s := randomCIDR(r)
		out = append(out, k8sCall("isCIDR", s), k8sCall("cidr", s))
		if r.Intn(2) == 0 {
			out = append(out, k8sCase{expr: fmt.Sprintf(`isCIDR(%[1]s) ? [dyn(cidr(%[1]s).prefixLength()), dyn(string(cidr(%[1]s).masked())), dyn(string(cidr(%[1]s).ip()))] : []`, k8sQuote(s))})
			o := randomCIDR(r)
			out = append(out, k8sCase{expr: fmt.Sprintf(`cidr(%s).containsCIDR(%s)`, k8sQuote(s), k8sQuote(o))})
			ip := randomIP(r)
			out = append(out, k8sCase{expr: fmt.Sprintf(`cidr(%s).containsIP(%s)`, k8sQuote(s), k8sQuote(ip))})
		}
	}
	for i := 0; i < 500; i++ {
		s := randomURL(r)
		out = append(out, k8sCall("isURL", s), k8sCall("url", s))
		out = append(out, k8sCase{expr: fmt.Sprintf(`isURL(%[1]s) ? [url(%[1]s).getScheme(), url(%[1]s).getHost(), url(%[1]s).getHostname(), url(%[1]s).getPort(), url(%[1]s).getEscapedPath()] : []`, k8sQuote(s))})
		if r.Intn(3) == 0 {
			out = append(out, k8sCase{expr: fmt.Sprintf(`url(%s).getQuery()`, k8sQuote(s))})
		}
		if r.Intn(3) == 0 {
			out = append(out, k8sCase{expr: fmt.Sprintf(`format.uri().validate(%s)`, k8sQuote(s))})
		}
	}
	for i := 0; i < 500; i++ {
		s := randomQuantity(r)
		out = append(out, k8sCall("isQuantity", s), k8sCall("quantity", s))
		if r.Intn(2) == 0 {
			out = append(out, k8sCase{expr: fmt.Sprintf(`isQuantity(%[1]s) ? [dyn(sign(quantity(%[1]s))), dyn(quantity(%[1]s).isInteger()), dyn(quantity(%[1]s).asApproximateFloat())] : []`, k8sQuote(s))})
			out = append(out, k8sCase{expr: fmt.Sprintf(`quantity(%s).asInteger()`, k8sQuote(s))})
		}
		o := randomQuantity(r)
		ops := []string{"add", "sub", "compareTo", "isGreaterThan", "isLessThan"}
		op := ops[r.Intn(len(ops))]
		tail := ""
		if op == "add" || op == "sub" {
			tail = []string{".asApproximateFloat()", ".isInteger()", ".isInteger()", ".asInteger()", ".compareTo(quantity(\"1\"))"}[r.Intn(5)]
		}
		out = append(out, k8sCase{expr: fmt.Sprintf(`quantity(%s).%s(quantity(%s))%s`, k8sQuote(s), op, k8sQuote(o), tail)})
		if r.Intn(4) == 0 {
			n := []int64{0, 1, -1, 1000, 9223372036854775807, -9223372036854775807, r.Int63n(1 << 40)}[r.Intn(7)]
			out = append(out, k8sCase{expr: fmt.Sprintf(`quantity(%s).%s(%d)%s`, k8sQuote(s), []string{"add", "sub"}[r.Intn(2)], n, []string{".asApproximateFloat()", ".isInteger()", ".asInteger()"}[r.Intn(3)])})
		}
		if r.Intn(4) == 0 {
			out = append(out, k8sCase{expr: fmt.Sprintf(`quantity(%s) == quantity(%s)`, k8sQuote(s), k8sQuote(o))})
		}
	}
	for i := 0; i < 400; i++ {
		s := randomSemver(r)
		out = append(out, k8sCall("isSemver", s), k8sCall("semver", s))
		out = append(out, k8sCase{expr: fmt.Sprintf(`isSemver(%s, true)`, k8sQuote(s))})
		out = append(out, k8sCase{expr: fmt.Sprintf(`isSemver(%[1]s, true) ? [semver(%[1]s, true).major(), semver(%[1]s, true).minor(), semver(%[1]s, true).patch()] : [dyn(semver(%[1]s, true))]`, k8sQuote(s))})
		o := randomSemver(r)
		out = append(out, k8sCase{expr: fmt.Sprintf(`semver(%s, true).compareTo(semver(%s, true))`, k8sQuote(s), k8sQuote(o))})
		if r.Intn(4) == 0 {
			out = append(out, k8sCase{expr: fmt.Sprintf(`semver(%s, true) == semver(%s, true)`, k8sQuote(s), k8sQuote(o))})
		}
	}
	formats := []string{"dns1123Label", "dns1123Subdomain", "dns1035Label", "qualifiedName", "dns1123LabelPrefix",
		"dns1123SubdomainPrefix", "dns1035LabelPrefix", "labelValue", "uri", "uuid", "byte", "date", "datetime"}
	for i := 0; i < 400; i++ {
		f := formats[r.Intn(len(formats))]
		s := randomName(r)
		out = append(out, k8sCase{expr: fmt.Sprintf(`format.%s().validate(%s)`, f, k8sQuote(s))})
	}
	return out
}

func k8sPick(r *rand.Rand, options ...string) string { return options[r.Intn(len(options))] }

// k8sMutate changes a valid text a little: a character dropped, doubled,
// replaced or inserted.
func k8sMutate(r *rand.Rand, s string, alphabet string) string {
	if s == "" || r.Intn(3) != 0 {
		return s
	}
	i := r.Intn(len(s))
	c := string(alphabet[r.Intn(len(alphabet))])
	switch r.Intn(4) {
	case 0:
		return s[:i] + s[i+1:]
	case 1:
		return s[:i] + s[i:i+1] + s[i:]
	case 2:
		return s[:i] + c + s[i+1:]
	default:
		return s[:i] + c + s[i:]
	}
}

func randomV4(r *rand.Rand) string {
	parts := make([]string, 4)
	for i := range parts {
		switch r.Intn(10) {
		case 0:
			parts[i] = "0" + strconv.Itoa(r.Intn(100))
		case 1:
			parts[i] = strconv.Itoa(250 + r.Intn(10))
		case 2:
			parts[i] = k8sPick(r, "0", "127", "169", "224", "255", "10", "192", "254", "1")
		default:
			parts[i] = strconv.Itoa(r.Intn(256))
		}
	}
	return strings.Join(parts, ".")
}

func randomV6(r *rand.Rand) string {
	n := 8
	embed := r.Intn(6) == 0
	if embed {
		n = 6
	}
	groups := make([]string, n)
	for i := range groups {
		switch r.Intn(8) {
		case 0:
			groups[i] = "0"
		case 1:
			groups[i] = k8sPick(r, "fe80", "ff02", "ff05", "2001", "db8", "FFFF", "ffff", "0000", "00ab", "fc00")
		default:
			groups[i] = strconv.FormatInt(int64(r.Intn(1<<16)), 16)
			if r.Intn(4) == 0 {
				groups[i] = strings.ToUpper(groups[i])
			}
		}
	}
	if r.Intn(3) == 0 {
		for i := range groups {
			if r.Intn(2) == 0 {
				groups[i] = "0"
			}
		}
	}
	s := strings.Join(groups, ":")
	if r.Intn(2) == 0 {
		// Compress a run of groups.
		i := r.Intn(n)
		j := i + r.Intn(n-i+1)
		s = strings.Join(groups[:i], ":") + "::" + strings.Join(groups[j:], ":")
	}
	if embed {
		if strings.HasSuffix(s, "::") {
			s += randomV4(r)
		} else {
			s += ":" + randomV4(r)
		}
	}
	if r.Intn(12) == 0 {
		s += "%" + k8sPick(r, "eth0", "1", "")
	}
	return s
}

func randomIP(r *rand.Rand) string {
	switch r.Intn(10) {
	case 0:
		return k8sMutate(r, "::ffff:"+randomV4(r), "0123456789abcdef:.")
	case 1:
		return k8sPick(r, "", "::", "::1", "0.0.0.0", "localhost", "1.2.3.4.5", "1.2.3", "1:2:3:4:5:6:7:8:9", "::1::", "[::1]", " 1.2.3.4", "1.2.3.4 ")
	case 2, 3, 4:
		return k8sMutate(r, randomV4(r), "0123456789.:x")
	default:
		return k8sMutate(r, randomV6(r), "0123456789abcdefABCDEFg:.%")
	}
}

func randomCIDR(r *rand.Rand) string {
	addr := randomIP(r)
	bits := strconv.Itoa(r.Intn(40))
	if strings.Contains(addr, ":") {
		bits = strconv.Itoa(r.Intn(140))
	}
	switch r.Intn(12) {
	case 0:
		bits = "0" + bits
	case 1:
		bits = k8sPick(r, "", "-1", "+8", "x", "8 ")
	}
	return k8sMutate(r, addr+"/"+bits, "0123456789/:.")
}

func randomURL(r *rand.Rand) string {
	scheme := k8sPick(r, "http://", "https://", "HTTP://", "ftp://", "s3://", "git+ssh://", "", "mailto:", "urn:", "1http://", "//", "/", ":")
	user := ""
	if r.Intn(6) == 0 {
		user = k8sPick(r, "user@", "user:pass@", "u%20s@", "a b@", "@", "user:p@ss@", "%zz@")
	}
	host := k8sPick(r, "example.com", "EXAMPLE.com", "127.0.0.1", "[::1]", "[fe80::1%25en0]", "[::1", "::1", "a_b.c", "a b", "%41b",
		"h%C3%A9", "é.com", "", "x.y.z", "[1.2.3.4]", "[::ffff:1.2.3.4]", "a.b:c")
	port := ""
	if r.Intn(3) == 0 {
		port = k8sPick(r, ":80", ":", ":8080", ":x", ":99999", "::80", ":8a")
	}
	path := k8sPick(r, "", "/", "/path", "/a/b/", "/a b", "/a%20b", "/a%2Fb", "/%zz", "/ä", "/a;b", "/a?b", "/a#b", "/~x/!$&'()*+,;=:@",
		"relative", "../x", "/a%", "//double")
	query := ""
	if r.Intn(3) == 0 {
		query = k8sPick(r, "?", "?a=1", "?a=1&a=2&b", "?a=1;b=2", "?x=%zz", "?k+1=v+2", "?=v", "?a=b=c", "?a%20=b%2B", "?#")
	}
	frag := ""
	if r.Intn(5) == 0 {
		frag = k8sPick(r, "#", "#frag", "#a b", "#%zz", "#x?y")
	}
	s := scheme
	if strings.HasSuffix(scheme, "//") {
		s += user + host + port
	} else if scheme == "mailto:" || scheme == "urn:" {
		s += k8sPick(r, "a@b.c", "isbn:123", "", "/x")
	}
	s += path + query + frag
	return k8sMutate(r, s, "/:?#[]@%!$&'()*+,;= aZ9._~\x01")
}

func randomQuantity(r *rand.Rand) string {
	var b strings.Builder
	switch r.Intn(10) {
	case 0:
		b.WriteString("-")
	case 1:
		b.WriteString("+")
	}
	digits := func(n int) {
		for i := 0; i < n; i++ {
			b.WriteByte(byte('0' + r.Intn(10)))
		}
	}
	switch r.Intn(6) {
	case 0:
		digits(1 + r.Intn(25))
	case 1:
		b.WriteString(k8sPick(r, "0", "1", "5", "9", "10", "100", "1000", "1024", "7", "999999999", "123456789", "9223372036854775807", "9223372036854775808"))
	default:
		digits(1 + r.Intn(4))
	}
	if r.Intn(3) == 0 {
		b.WriteString(".")
		digits(r.Intn(12))
	}
	switch r.Intn(4) {
	case 0:
	case 1:
		b.WriteString(k8sPick(r, "e", "E"))
		b.WriteString(k8sPick(r, "", "-", "+"))
		b.WriteString(strconv.Itoa(r.Intn(30)))
	default:
		b.WriteString(k8sPick(r, "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "K", "i", "mi"))
	}
	return k8sMutate(r, b.String(), "0123456789.eEikKmMG+-")
}

func randomSemver(r *rand.Rand) string {
	num := func() string {
		switch r.Intn(8) {
		case 0:
			return "0" + strconv.Itoa(r.Intn(20))
		case 1:
			return k8sPick(r, "0", "00", "18446744073709551615", "18446744073709551616", "9223372036854775808")
		default:
			return strconv.Itoa(r.Intn(30))
		}
	}
	s := k8sPick(r, "", "", "", "v", "V", "vv")
	n := 3
	switch r.Intn(6) {
	case 0:
		n = 1 + r.Intn(2)
	case 1:
		n = 4
	}
	parts := make([]string, n)
	for i := range parts {
		parts[i] = num()
	}
	s += strings.Join(parts, ".")
	ident := func() string {
		return k8sPick(r, "alpha", "beta", "rc", "0", "1", "01", "10", "a-b", "x.y", "", "-", "é", "0a", "00")
	}
	if r.Intn(2) == 0 {
		s += "-" + ident()
		if r.Intn(2) == 0 {
			s += "." + ident()
		}
	}
	if r.Intn(3) == 0 {
		s += "+" + k8sPick(r, "build", "001", "a.b", "", "x+y", "sha.5114f85")
	}
	return k8sMutate(r, s, "0123456789.-+vx ")
}

func randomName(r *rand.Rand) string {
	alphabet := "abcz019-._/AZ :+=TZ"
	n := r.Intn(20)
	if r.Intn(10) == 0 {
		n = 60 + r.Intn(200)
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteByte(alphabet[r.Intn(len(alphabet))])
	}
	s := b.String()
	if r.Intn(4) == 0 {
		s = k8sPick(r, "123e4567-e89b-12d3-a456-426614174000", "aGVsbG8=", "2024-02-29", "2024-02-29T12:00:00Z",
			"2024-02-29T12:00:00.5+01:00", "example.com/name", "my-name", "https://example.com/x", "a.b", "A_b.c-d")
		s = k8sMutate(r, s, alphabet)
	}
	return s
}
