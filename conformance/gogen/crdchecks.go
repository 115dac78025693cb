package main

// gogen crdchecks [--out DIR] writes two corpora of the checks the API server
// makes of a custom resource's string values, for smd's
// customresource/validation (default DIR ../../smd/tests/data):
//
// DIR/crd_formats.json, the string formats of a CRD schema:
//   - "registry": names strfmt.Default.ContainsName knows and does not know
//     (its normalisation drops every "-");
//   - "postProcessor": per schema type (null: no single type), the formats
//     apiextensions' StripUnsupportedFormatsPostProcessorForVersion keeps and
//     strips at compatibility version 1.37;
//   - "validates": per format name, the strings strfmt.Default.Validates
//     accepts and refuses: edge cases by hand, then seeded mutations of them.
//
// DIR/go_regexp.json, a schema's pattern as kube-openapi's validator reads it
// (regexp.Compile, then MatchString, unanchored):
//   - "subjects": strings every pattern is matched against;
//   - "cases": per pattern (or "built": a long one, open×times + inner +
//     close×times) either {"error": regexp.Compile's error text, where a
//     built pattern quoted whole is written «pattern»} or {"shared": one "1"
//     (match) or "0" per subject, "match"/"miss": the pattern's own
//     subjects}: patterns by hand, long ones, then seeded random ones.

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"

	apiextensionsvalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/util/version"
	openapispec "k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
)

func runCRDChecks(args []string) int {
	out, ok := parseOut("crdchecks", args, "directory", "smd", "tests", "data")
	if !ok {
		return 2
	}
	formats, err := formatCorpus()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gogen: crdchecks: %v\n", err)
		return 1
	}
	for _, f := range []struct {
		name   string
		corpus any
	}{{"crd_formats.json", formats}, {"go_regexp.json", regexpCorpus()}} {
		if code := writeCorpus("crdchecks", filepath.Join(out, f.name), f.corpus); code != 0 {
			return code
		}
	}
	return 0
}

// formatNames are the names the registry and the post-processor are asked
// about: every registered format, spelled as CRDs spell them and otherwise,
// the numeric formats, and names nothing registers.
var formatNames = []string{
	"bsonobjectid", "uri", "email", "hostname", "ipv4", "ipv6", "cidr", "mac", "uuid", "uuid3", "uuid4",
	"uuid5", "isbn", "isbn10", "isbn13", "creditcard", "ssn", "hexcolor", "rgbcolor", "byte", "password",
	"date", "duration", "datetime", "date-time", "k8s-short-name", "k8s-long-name", "k8sshortname",
	"k8slongname", "k8s-short-name-", "-uuid", "u-u-i-d", "--", "-", "", "DateTime", "Date-Time", "UUID",
	"Byte", "ip", "ipv4-", "int32", "int64", "float", "double", "int-or-string", "binary", "url", "uri-reference",
	"iri", "idn-email", "idn-hostname", "json-pointer", "regex", "time", "k8s-name", "k8s_short_name", "bson-object-id",
	"credit-card", "hex-color", "r-g-b-color", "is-bn", " uuid", "uuid ", "uuid\n", "ünicode", "mac-", "cidr-v4",
}

// schemaTypes are a schema's single type as the post-processor reads it;
// nil is a schema with no type (or several).
var schemaTypes = []any{nil, "", "string", "integer", "number", "boolean", "object", "array", "null", "String", "int"}

func formatCorpus() (any, error) {
	var known, unknown []any
	for _, n := range formatNames {
		if strfmt.Default.ContainsName(n) {
			known = append(known, n)
		} else {
			unknown = append(unknown, n)
		}
	}
	strip := apiextensionsvalidation.StripUnsupportedFormatsPostProcessorForVersion(version.MajorMinor(1, 37))
	var post []any
	for _, t := range schemaTypes {
		var kept, stripped []any
		for _, n := range formatNames {
			s := &openapispec.Schema{SchemaProps: openapispec.SchemaProps{Format: n}}
			if t != nil {
				s.Type = openapispec.StringOrArray{t.(string)}
			}
			if err := strip(s); err != nil {
				return nil, err
			}
			switch s.Format {
			case n:
				kept = append(kept, n)
			case "":
				stripped = append(stripped, n)
			default:
				return nil, genErrorf("the post-processor rewrote format %q as %q", n, s.Format)
			}
		}
		post = append(post, jObject{"type": t, "kept": orEmpty(kept), "stripped": orEmpty(stripped)})
	}
	r := rand.New(rand.NewSource(1337))
	var validates []any
	for _, f := range formatEdges {
		texts := append([]string(nil), f.edges...)
		seen := map[string]bool{}
		for _, t := range texts {
			seen[t] = true
		}
		gen := formatGenerators[f.name]
		for i := 0; len(texts) < len(f.edges)+f.random && i < 50*f.random; i++ {
			var t string
			if gen != nil && i%2 == 0 {
				t = gen(r)
			} else {
				t = mutate(r, f, texts)
			}
			if !seen[t] {
				seen[t] = true
				texts = append(texts, t)
			}
		}
		var valid, invalid []any
		for _, t := range texts {
			if strfmt.Default.Validates(f.name, t) {
				valid = append(valid, t)
			} else {
				invalid = append(invalid, t)
			}
		}
		validates = append(validates, jObject{"format": f.name, "valid": orEmpty(valid), "invalid": orEmpty(invalid)})
	}
	return jObject{
		"registry":      jObject{"known": orEmpty(known), "unknown": orEmpty(unknown)},
		"postProcessor": post,
		"validates":     validates,
	}, nil
}

func orEmpty(l []any) []any {
	if l == nil {
		return []any{}
	}
	return l
}

// mutate makes a new text from one of texts: a few edits with the format's
// alphabet and the general one, or two texts spliced.
func mutate(r *rand.Rand, f formatEdge, texts []string) string {
	base := []rune(texts[r.Intn(len(texts))])
	alphabet := []rune(f.alphabet + generalAlphabet)
	edits := 1 + r.Intn(3)
	for e := 0; e < edits; e++ {
		switch op := r.Intn(6); {
		case op == 0 && len(base) > 0:
			i := r.Intn(len(base))
			base = append(base[:i:i], base[i+1:]...)
		case op == 1 && len(base) > 0:
			base[r.Intn(len(base))] = alphabet[r.Intn(len(alphabet))]
		case op == 2:
			other := []rune(texts[r.Intn(len(texts))])
			cut := r.Intn(len(base) + 1)
			from := r.Intn(len(other) + 1)
			base = append(base[:cut:cut], other[from:]...)
		case op == 3 && len(base) > 1:
			i, j := r.Intn(len(base)), r.Intn(len(base))
			base[i], base[j] = base[j], base[i]
		default:
			i := r.Intn(len(base) + 1)
			c := alphabet[r.Intn(len(alphabet))]
			base = append(base[:i:i], append([]rune{c}, base[i:]...)...)
		}
	}
	return string(base)
}

const generalAlphabet = "aZ09 .-:/\t\né€\u00a0\u212a\u017f٣１"

type formatEdge struct {
	name     string
	alphabet string
	random   int
	edges    []string
}

// formatGenerators make texts close to the format's grammar, valid more often
// than mutations are; half of a format's random texts come from them.
var formatGenerators = map[string]func(r *rand.Rand) string{
	"date":     func(r *rand.Rand) string { return randDate(r) },
	"datetime": randDateTime,
	"duration": randDuration,
	"ipv4":     func(r *rand.Rand) string { return randIPv4(r) },
	"ipv6":     randIPv6,
	"cidr": func(r *rand.Rand) string {
		if r.Intn(2) == 0 {
			return randIPv4(r) + "/" + fmt.Sprint(r.Intn(40))
		}
		return randIPv6(r) + "/" + fmt.Sprint(r.Intn(140))
	},
	"mac": func(r *rand.Rand) string {
		n := []int{6, 8, 20, 5, 7}[r.Intn(5)]
		sep := []string{":", "-", ".", ""}[r.Intn(4)]
		var b strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 && (sep != "." || i%2 == 0) {
				b.WriteString(sep)
			}
			b.WriteString(randFrom(r, "0123456789abcdefABCDEF", 2))
		}
		return b.String()
	},
	"creditcard": func(r *rand.Rand) string {
		return randLuhn(r, []string{"4", "51", "55", "34", "37", "300", "36", "6011", "65", "35", "2131", "1800"}[r.Intn(12)], 12+r.Intn(8))
	},
	"isbn":   randISBN,
	"isbn10": randISBN,
	"isbn13": randISBN,
	"ssn": func(r *rand.Rand) string {
		return randFrom(r, "0123456789", 3) + randFrom(r, "- ", r.Intn(2)) + randFrom(r, "0123456789", 2) + randFrom(r, "- ", r.Intn(2)) + randFrom(r, "0123456789", 4)
	},
	"uuid":  randUUID,
	"uuid3": randUUID,
	"uuid4": randUUID,
	"uuid5": randUUID,
	"hexcolor": func(r *rand.Rand) string {
		return randFrom(r, "#", r.Intn(2)) + randFrom(r, "0123456789abcdefABCDEF", []int{3, 6, 4, 5}[r.Intn(4)])
	},
	"rgbcolor": func(r *rand.Rand) string {
		part := func() string {
			return randFrom(r, " \t", r.Intn(2)) + fmt.Sprint(r.Intn(300)) + randFrom(r, " ", r.Intn(2))
		}
		return "rgb(" + part() + "," + part() + "," + part() + ")"
	},
	"byte": func(r *rand.Rand) string {
		return randFrom(r, "ABCXYZabcxyz0189+/", r.Intn(12)) + randFrom(r, "=", r.Intn(3))
	},
	"k8s-short-name": func(r *rand.Rand) string { return randFrom(r, "abz09-", 1+r.Intn(66)) },
	"k8s-long-name":  func(r *rand.Rand) string { return randFrom(r, "abz09-.", 1+r.Intn(256)) },
	"hostname": func(r *rand.Rand) string {
		var labels []string
		for i, n := 0, 1+r.Intn(4); i < n; i++ {
			labels = append(labels, randFrom(r, "abz09-é☃+", 1+r.Intn(8)))
		}
		return strings.Join(labels, ".")
	},
	"bsonobjectid": func(r *rand.Rand) string { return randFrom(r, "0123456789abcdefABCDEF", 22+r.Intn(5)) },
}

// randFrom is n characters of alphabet.
func randFrom(r *rand.Rand, alphabet string, n int) string {
	runes := []rune(alphabet)
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteRune(runes[r.Intn(len(runes))])
	}
	return b.String()
}

func randDate(r *rand.Rand) string {
	year := []int{r.Intn(10000), 2000 + r.Intn(30), 1900, 2000, 2100, 0}[r.Intn(6)]
	return fmt.Sprintf("%04d-%02d-%02d", year, r.Intn(14), r.Intn(33))
}

func randDateTime(r *rand.Rand) string {
	t := []string{"T", "t", " "}[r.Intn(3)]
	frac := []string{"", "", ".5", ".123456789", "x1", ".", ",5"}[r.Intn(7)]
	zone := []string{"Z", "z", "+01:00", "-12:30", "+1:00", "", "+99:99", "Zt"}[r.Intn(8)]
	return randDate(r) + t + fmt.Sprintf("%02d:%02d:%02d", r.Intn(26), r.Intn(62), r.Intn(62)) + frac + zone
}

func randDuration(r *rand.Rand) string {
	units := []string{"ns", "us", "µs", "μs", "ms", "s", "m", "h", "d", "w", " sec", " seconds", " min", " minutes", " hour",
		" hours", " hr", " day", " days", " wk", " week", "x", " µs", " micro", " nano", " milli", "S", "H", " Days", ""}
	var b strings.Builder
	b.WriteString([]string{"", "", "-", "+"}[r.Intn(4)])
	for i, n := 0, 1+r.Intn(3); i < n; i++ {
		if i > 0 && r.Intn(3) == 0 {
			b.WriteByte(' ')
		}
		b.WriteString(fmt.Sprint(r.Intn(1000)))
		if r.Intn(4) == 0 {
			b.WriteString("." + fmt.Sprint(r.Intn(100)))
		}
		b.WriteString(units[r.Intn(len(units))])
	}
	return b.String()
}

func randIPv4(r *rand.Rand) string {
	parts := make([]string, 4+[]int{0, 0, 0, -1, 1}[r.Intn(5)])
	for i := range parts {
		parts[i] = []string{fmt.Sprint(r.Intn(256)), fmt.Sprint(r.Intn(300)), fmt.Sprintf("%03d", r.Intn(256)), "0" + fmt.Sprint(r.Intn(10))}[r.Intn(4)]
	}
	return strings.Join(parts, ".")
}

func randIPv6(r *rand.Rand) string {
	n := 1 + r.Intn(9)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = randFrom(r, "0123456789abcdefABCDEF", 1+r.Intn(5))
	}
	s := strings.Join(parts, ":")
	switch r.Intn(4) {
	case 0:
		i := r.Intn(len(s) + 1)
		s = s[:i] + "::" + s[i:]
	case 1:
		s += ":" + randIPv4(r)
	}
	return s
}

// randLuhn is a number with prefix and length digits in all, its check digit
// right half of the time.
func randLuhn(r *rand.Rand, prefix string, length int) string {
	b := []byte(prefix)
	for len(b) < length-1 {
		b = append(b, byte('0'+r.Intn(10)))
	}
	sum := 0
	for i := len(b) - 1; i >= 0; i-- {
		d := int(b[i] - '0')
		if (len(b)-1-i)%2 == 0 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	check := (10 - sum%10) % 10
	if r.Intn(2) == 0 {
		check = r.Intn(10)
	}
	s := string(append(b, byte('0'+check)))
	if r.Intn(3) == 0 && len(s) > 8 {
		s = s[:4] + " " + s[4:8] + "-" + s[8:]
	}
	return s
}

func randISBN(r *rand.Rand) string {
	if r.Intn(2) == 0 {
		b := []byte(randFrom(r, "0123456789", 9))
		sum := 0
		for i, c := range b {
			sum += (i + 1) * int(c-'0')
		}
		check := fmt.Sprint(sum % 11)
		if check == "10" {
			check = "X"
		}
		if r.Intn(3) == 0 {
			check = randFrom(r, "0123456789X", 1)
		}
		s := string(b) + check
		if r.Intn(3) == 0 {
			s = s[:1] + "-" + s[1:4] + " " + s[4:]
		}
		return s
	}
	b := []byte("97" + randFrom(r, "89", 1) + randFrom(r, "0123456789", 9))
	sum := 0
	for i, c := range b {
		sum += []int{1, 3}[i%2] * int(c-'0')
	}
	check := (10 - sum%10) % 10
	if r.Intn(3) == 0 {
		check = r.Intn(10)
	}
	s := string(b) + fmt.Sprint(check)
	if r.Intn(3) == 0 {
		s = s[:3] + "-" + s[3:7] + "\t" + s[7:]
	}
	return s
}

func randUUID(r *rand.Rand) string {
	hex := "0123456789abcdefABCDEF"
	groups := []string{randFrom(r, hex, 8), randFrom(r, hex, 4), randFrom(r, "345", 1) + randFrom(r, hex, 3), randFrom(r, "89abAB7c", 1) + randFrom(r, hex, 3), randFrom(r, hex, 12)}
	var b strings.Builder
	for i, g := range groups {
		if i > 0 && r.Intn(6) != 0 {
			b.WriteByte('-')
		}
		b.WriteString(g)
	}
	return b.String()
}

func digits(n int, c byte) string { return strings.Repeat(string(c), n) }

var formatEdges = []formatEdge{
	{"uri", "abcz09:/?#[]@!$&'()*+,;=%-._~ AF\"<>{}|\\^`", 400, []string{
		"http://example.com", "https://user:pass@host:8080/p?q#f", "/path", "/", "*", "**", "", "mailto:a@b",
		"http://[::1]:80/", "http://[fe80::1%25en0]/", "http://[fe80::1%25%65n0]/", "http://[fe80::1%25]/", "http://[1.2.3.4]/",
		"http://[::ffff:1.2.3.4]/", "http://[::1]x/", "http://[::1]:/", "http://[::1]:8a/", "http://x[::1]/", "http://[::1",
		"http://host:port/", "http://a:1:2/", "https://a:1:2/", "HTTP://a:1:2/", "postgres://a:1,b:2/db", "ftp://a:1:2/",
		"http://host/%zz", "http://host/%4", "http://host/%41", "http://host/%", "http://host%41/", "http://h%C3%A9/",
		"http://h%25/", "http://h%7e/", "http://[::1%25%41]/", "http://[::1%25%2F]/", "http://[::1%25%20]/", "//host/path",
		"relative/path", "http:relative", "h:", ":", ":x", "1http://x", "+x:y", "a+b-c.d:e", "http://a b/", "http://a\tb/",
		"http://é.com/", "http://user@[::1]x/", "http://x]/", "http://a[b]/", "?q", "/?", "/a?b?", "/a??", "/a?%zz",
		"http://@/", "http://:80/", "http://user:p@ss@host/", "http://us er@host/", "http://ü@host/", "http://%2@host/",
		"http://%41@host/", "http://user:%zz@host/", "http://x#frag", "http://x/#fr ag", "http://x/#%zz", "http://x/a b",
		"http://x/\u00e9", "http://a{b}/", "http://a|b/", "http://a\\b/", "http://a^b/", "http://a`b/", "http://a\"b/",
		"http://a<b>/", "http://a~b_c-d.e/", "http://a!$&'()*+,;=b/", "http://x?y/z", "http://x:80?y", "x://", "x:///",
		"x:////", "http:///path", "http://", "http:", "http:/", "mailto:%zz", "urn:isbn:0451450523", "a\x7fb", "/a\x00",
		"/\u0085", "/a#b?c", "http://[::1%25en0]:80/", "http://[::1%25]/", "http://[::ffff:1.2.3.4%25x]/",
		"http://[1::%25%C3%A9]/", "http://[1::%25é]/", "http://[1::%25a%20b]/", "http://[1::%25a%2Fb]/", "http://a%2525/",
		"http://%30/", "http://%C3%A9/", "http://[::1]%41/", "http://[::1]:8%30/", "http://[[::1]]/", "http://[::1]]/",
		"http://[]/", "http://[v1.x]/", "http://a@b@c/", "http://a:b:c@d/", "http://@a:b/", "http://a/b?c#d?e",
		"http://x:1234567890123/", "http://[::1]:99999999999/", "http://0x7f.1/", "file:///etc/passwd",
	}},
	{"email", "abz09@.<>()[]\":;,\\ \t=?_-+", 400, []string{
		"a@b.c", "A <a@b.c>", "\"q\"@x", "\"\"@x", "\"a b\"@x", "\"a\\\"b\"@x", "\"a\\\x01\"@x", "a@[1.2.3.4]", "a@[::1]",
		"a@[IPv6:::1]", "a@[1.2.3.4.5]", "a@[a]", "a@[1.2.3.4", "a.b@c", ".a@b", "a..b@c", "a.@b", "a@b.", "a@.b", "a@b..c",
		"a@", "@b", "", " ", "a", "a@b (comment)", "a@b (comment", "a@b (c) (d)", "(c) a@b", "a@b (c\\) d)", "a@b (=?utf-8?q?x?=)",
		"a@b (=?x-bad?q?x?=)", "a@b (=?x-bad?b?!!?=)", "=?utf-8?q?J=C3=B6rg?= <j@x>", "=?UTF-8?B?SsO2cmc=?= <j@x>",
		"=?x-unknown?q?a?= <a@b>", "=?x-unknown?b?YQ==?= <a@b>", "=?x-unknown?b?YQ=?= <a@b>", "=?x-unknown?q?=zz?= <a@b>",
		"=?us-ascii?q?a?= <a@b>", "=?US-ASCII?Q?a?= <a@b>", "=?u\u017f-ascii?q?a?= <a@b>", "=?iso-8859-1?q?=E9?= <a@b>",
		"John =?x-unknown?q?a?= <a@b>", "=?utf-8?q??= <a@b>", "=?x-bad?q??= <a@b>", "=?utf-8?q?a?= =?x-bad?q?b?= <a@b>",
		"=?utf-8?q??= =?x-bad?q?b?= <a@b>", "=?utf-8?q?a?= John <a@b>", "=?utf-8?q?a?==?utf-8?q?b?= <a@b>", "=?x-bad?q?a <a@b>",
		"=?x-bad?z?a?= <a@b>", "=??q?a?= <a@b>", "=?x-bad?qq?a?= <a@b>", "=?x-bad?q?a?b?= <a@b>", "=?x?q?é?= <a@b>",
		"a@b (\\=?x-bad?q?y?=)", "a@b ( )", "a@b (a\\)", "a@b ((nested) c)", "a@b ((unclosed c)", "g: a@b (c);", "g: a@b;;",
		"\"John\" <a@b>", "John Doe <a@b>", "John.Doe <a@b>", "John. <a@b>", "<a@b>",
		"< a@b >", "<a@b", "a <a@b", "John", "John Doe", "John <>", "g: a@b;", "g: a@b, c@d;", "g:;", "g: ;", "g:",
		"g: a@b", "g: (c) a@b (d);", "a@b, c@d", "a@b,", "a@b c", "a b@c", "ü@x", "a@ü", "a\t@b", "a@b\t", "\ta@b",
		"a\n@b", "a@b\r\n", "\"unterminated@x", "\"a\\", "a(b)@c", "a@b(c", "a\\b@c", "a@b@c", "\"a@b\"@c", "a@[1.2.3.4] ",
		"=?utf-8?q?a?=@b", "=?x-bad?q?a?=@b", "John <a@b> (c)", "John <a@b> x", "\"J\" \"K\" <a@b>", "J..K <a@b>",
	}},
	{"hostname", "abz09.-_+é☃\u00a0", 400, []string{
		"a", "a-b", "ab-c", "a--b", "-a", "a-", "example.com", "ex-ample.com", "a.b", "a.bc", "a.b1", "1.2.3.4", "é.com",
		"x.é", "x.éé", "a+b.com", "a_b.com", "☃.com", "a.☃☃", "localhost", "a.b.c.d.e.fg", "a..bc", ".ab", "ab.", "a.bc.",
		"1a", "1-", "-", "", " ", "a b", "a\n", "xn--bcher-kva.ch", "a-.bc", "a.-bc", "ab.c-d", "ab.cd-", "a.b-c.de",
		digits(63, 'a'), digits(64, 'a'), digits(64, 'a') + ".com", digits(63, 'a') + ".com", "a." + digits(63, 'b'),
		"a." + digits(64, 'b'), strings.Repeat("a.", 126) + "bc", strings.Repeat("a.", 127) + "bc", "é" + digits(62, 'a'),
		digits(32, 'é'), digits(32, 'é') + ".com", "\u1c89.com", "a.\u1c89\u1c89", "a.b\u1c89", "a.b\u00a0", "1.23", "a.12", "日本.jp", "a.日本", "a" + digits(62, '1'),
	}},
	{"ipv4", "0123456789.:abf/ %", 300, []string{
		"1.2.3.4", "0.0.0.0", "255.255.255.255", "01.2.3.4", "001.002.003.004", "0000000001.2.3.4", "256.1.1.1",
		"1.2.3", "1.2.3.4.5", "::ffff:1.2.3.4", "::1.2.3.4", "::ffff:01.2.3.4", "1.2.3.4:80", " 1.2.3.4", "1.2.3.4 ",
		"1.2.3.-4", "1.2.3.4/8", "::1", "", ".", "1..2.3", "16777215.0.0.0", "16777216.0.0.0", "99999999999999.1.1.1",
		"1.2.3.04", "1.2.3.4.", ".1.2.3.4", "1.2.3.a", "0x1.2.3.4", "::ffff:1.2.3", "1:2:3:4:5:6:1.2.3.4",
		"1:2:3:4:5:6:7:1.2.3.4", "::1.2.3.4.5", "::ffff:256.1.1.1", "fe80::1.2.3.4%x", "1.2.3.4%x", "١.2.3.4",
	}},
	{"ipv6", "0123456789abcdefABCDEFgG:.%", 400, []string{
		"::", "::1", "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9", "1::2::3", "::ffff:1.2.3.4", "::ffff:01.2.3.4",
		"fe80::1%en0", "fe80::1%", "%", "%en0", "12345::", "0001::", "00001::", ":::", "1:2:3:4:5:6:7::", "::1:2:3:4:5:6:7",
		"1:2:3:4:5:6:7:8::", "::1:2:3:4:5:6:7:8", "1.2.3.4", "G::", "1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:7:1.2.3.4",
		"::1.2.3", "::1.2.3.4", "1::1.2.3.4", "1:2:3:4:5::1.2.3.4", "1:2:3:4:5:6::1.2.3.4", ":1::", "1:", "1::2:",
		"ffff::", "FFFF::", "10000::", "::ffff:1.2.3.4.5", "::ffff:1.2.3.", "::ffff:.1.2.3", "::1 ", " ::1", "",
		"1:2:3:4:5:6:7:8%x", "[::1]", "::1/128", "1:2:3:4:5:6:7", "::00ff", "::0fffff",
	}},
	{"cidr", "0123456789abcdef.:/ ", 400, []string{
		"1.2.3.4/8", "1.2.3.4/32", "1.2.3.4/33", "::/0", "::/128", "::/129", "01.2.3.4/8", "1.2.3.4/08", "1.2.3.4/008",
		"1.2.3.4/", "/8", "1.2.3.4", "::ffff:1.2.3.4/96", "::ffff:1.2.3.4/120", "::ffff:1.2.3.4/129", "1.2.3.4/8/8",
		"1.2.3.4/+8", "1.2.3.4/ 8", "1.2.3.4/-1", "0000000000001.2.3.4/1", "1.2.3.4/16777215", "1.2.3.4/99999999999",
		"00001::/64", "12345::/64", "1::/64", "1::2::/64", "/", "", "1.2.3/8", "fe80::1%en0/64", "a/8", "::/", "1.2.3.4 /8",
	}},
	{"mac", "0123456789abcdefABCDEFg:-.", 400, []string{
		"00:00:5e:00:53:01", "00-00-5e-00-53-01", "0000.5e00.5301", "00005e005301", "02:00:5e:10:00:00:00:01",
		"0200.5e10.0000.0001", "02005e1000000001", "00:00:00:00:fe:80:00:00:00:00:00:00:02:00:5e:10:00:00:00:01",
		"0000.0000.fe80.0000.0000.0000.0200.5e10.0000.0001", "00000000fe8000000000000002005e1000000001",
		"00:00:5E:00:53:01", "00:00:5e:00:53", "00:00:5e:00:53:01:02", "00:00-5e:00:53:01", "00-00:5e-00:53-01",
		"0000.5e00-5301", "0:00:5e:00:53:01", "000:0:5e:00:53:01", "00:00:5e:00:53:0g", "00005e00530", "00005e0053011",
		"0000:5e00:5301", "", "00:00:5e:00:53:01:", ":00:00:5e:00:53:01", "00.00.5e.00.53.01", "0000.5e00.530",
		"01:23:45:67:89:ab:cd:ef:01:23", "0123456789abcdef0123", "0123456789AB",
	}},
	{"uuid", "0123456789abcdefABCDEFg-", 300, []string{
		"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000", "123e4567e89b12d3a456426614174000",
		"123e4567-e89b12d3-a456-426614174000", "123e4567-e89b-12d3-a456-42661417400", "123e4567-e89b-12d3-a456-4266141740000",
		"g23e4567-e89b-12d3-a456-426614174000", "{123e4567-e89b-12d3-a456-426614174000}", "", "123e4567--e89b-12d3-a456-426614174000",
		"123e4567-e89b-12d3-a456-426614174000\n",
	}},
	{"uuid3", "0123456789abcdefABCDEFg-", 300, []string{
		"a3bb189e-8bf9-3888-9912-ace4e6543002", "A3BB189E-8BF9-3888-9912-ACE4E6543002", "a3bb189e8bf938889912ace4e6543002",
		"a3bb189e-8bf9-4888-9912-ace4e6543002", "a3bb189e-8bf9-3888-c912-ace4e6543002", "", "a3bb189e-8bf9-3888-9912-ace4e654300",
	}},
	{"uuid4", "0123456789abcdefABCDEFg-", 300, []string{
		"123e4567-e89b-42d3-a456-426614174000", "123e4567-e89b-42d3-8456-426614174000", "123e4567-e89b-42d3-9456-426614174000",
		"123e4567-e89b-42d3-b456-426614174000", "123e4567-e89b-42d3-B456-426614174000", "123e4567-e89b-42d3-c456-426614174000",
		"123e4567-e89b-32d3-a456-426614174000", "123e4567e89b42d3a456426614174000", "",
	}},
	{"uuid5", "0123456789abcdefABCDEFg-", 300, []string{
		"74738ff5-5367-5958-9aee-98fffdcd1876", "74738ff5-5367-5958-aaee-98fffdcd1876", "74738FF5-5367-5958-BAEE-98FFFDCD1876",
		"74738ff5-5367-4958-9aee-98fffdcd1876", "74738ff5-5367-5958-7aee-98fffdcd1876", "74738ff553675958 9aee98fffdcd1876", "",
	}},
	{"isbn", "0123456789X- \t\n\v\u00a0x", 300, []string{
		"0306406152", "0-306-40615-2", "030640615X", "030640615x", "9780306406157", "978-0-306-40615-7", "978 0 306 40615 7",
		"978\t0306406157", "978\n0306406157", "978\v0306406157", "978\u00a00306406157", "0306406153", "9780306406158",
		"", "X", "--", "0306406152X", "97803064061570", "030640615", "123456789X", "0-306-40615-X", "999999999X",
	}},
	{"isbn10", "0123456789X- \tx", 200, []string{
		"0306406152", "0-306-40615-2", "030640615X", "123456789X", "9780306406157", "0306406153", "0 306 40615 2", "",
	}},
	{"isbn13", "0123456789X- \t", 200, []string{
		"9780306406157", "978-0-306-40615-7", "9780306406158", "0306406152", "978 0 306 40615 7", "979-10-90636-07-1", "",
	}},
	{"creditcard", "0123456789 -a./", 400, []string{
		"4111111111111111", "4111 1111 1111 1111", "4111-1111-1111-1111", "4111111111111112", "5500000000000004",
		"5500 0000 0000 0004", "340000000000009", "370000000000002", "30000000000004", "36000000000008", "38000000000006",
		"6011000000000004", "6500000000000002", "3530111333300000", "213100000000000", "180000000000002", "4111111111111",
		"4222222222222", "41111111111111111", "", "a", "4111a1111b1111c1111", "٤111111111111111", "４111111111111111",
		"0000000000000000", "5600000000000003", "3000000000000", "35301113333000000", "2131000000000008", "1800000000000008",
	}},
	{"ssn", "0123456789- a\u00a0", 300, []string{
		"123-45-6789", "123 45 6789", "123-45 6789", "123 45-6789", "123456789", "12-345-6789", "123-456-789",
		"123--456789", "1234-5-6789", "123-45-678a", "١٢٣-٤٥-٦٧٨٩", "", "123-45-67890", " 123-45-6789", "123-45-6789 ",
		"123_45_6789", "123-4５-6789", "123\u00a045-6789",
	}},
	{"hexcolor", "0123456789abcdefABCDEFg#", 200, []string{
		"#fff", "fff", "#ffff", "#FFFFFF", "ffffff", "#ggg", "#", "", "##fff", "#fffffff", "#ff", "#12345", "#1234567", "#0a0B0c",
	}},
	{"rgbcolor", "0123456789rgb(), \t\v\n", 400, []string{
		"rgb(0,0,0)", "rgb(255, 255, 255)", "rgb(256,0,0)", "rgb( 1 , 2 , 3 )", "rgb(01,2,3)", "rgb(1,2,3,4)", "RGB(1,2,3)",
		"rgb(199,1,1)", "rgb(19,1,1)", "rgb(250,1,1)", "rgb(249,1,1)", "rgb(260,1,1)", "rgb(\t1,2,3)", "rgb(\v1,2,3)",
		"rgb(\n1,2,3)", "rgb(\f1,2,3)", "rgb(\r1,2,3)", "rgb(1,2,3) ", " rgb(1,2,3)", "rgb(1,2)", "rgb()", "rgb(,,)",
		"rgb(1, 2 ,3)", "rgb(100,200,300)", "rgb(99,100,1)", "rgb(0,00,0)", "rgb(1\u00a0,2,3)", "rgb(2 5,1,1)",
		"rgb(-1,1,1)", "rgb(1.5,1,1)", "rgb(255,255,255", "rgb255,255,255)", "rgb(200,210,220)", "rgb(230,240,250)",
	}},
	{"byte", "AZaz09+/=-_\n\r ", 400, []string{
		"", "YQ==", "YWI=", "YWJj", "YQ", "YQ=", "Y===", "====", "YWJj\n", "YWJj\r\n", "a+b/", "a-b_", "YQ==YQ==", "YWJjYQ==",
		"YWJjYWJj", "Y", "YW", "YWJ", "YQ= =", "YQ==\n", " YWJj", "YWJj ", "////", "++++", "AAAA", "AA==", "AB==", "AAB=",
		"éAAA", "AAA=A", "=AAA", "A=AA",
	}},
	{"password", "a \n\x00é", 20, []string{"", "secret", " ", "\n", "é", "\u00a0"}},
	{"date", "0123456789-T:Z ", 400, []string{
		"2020-01-01", "2020-02-29", "2021-02-29", "2020-13-01", "2020-00-10", "2020-01-00", "2020-01-32", "2020-04-31",
		"2020-04-30", "2020-1-01", "2020-01-1", "20-01-01", "+020-01-01", "-020-01-01", "2020-01-01T00:00:00Z", "0000-02-29",
		"1900-02-29", "2000-02-29", "2100-02-29", "2400-02-29", " 2020-01-01", "2020-01-01 ", "２０２０-01-01", "2020/01/01",
		"20200101", "", "9999-12-31", "10000-01-01", "2020-12-31", "2020-06-31", "2020-11-31", "2020-1a-01", "202a-01-01",
	}},
	{"datetime", "0123456789-T:Zt.z+ é\n", 500, []string{
		"2020-01-01T00:00:00Z", "2020-01-01t00:00:00z", "2020-01-01T23:59:59.999Z", "2020-01-01T24:00:00Z",
		"2020-01-01T00:60:00Z", "2020-01-01T00:00:60Z", "2020-01-01T00:00:00+01:00", "2020-01-01T00:00:00-01:00",
		"2020-01-01T00:00:00+1:00", "2020-01-01T00:00:00", "2020-01-01 00:00:00Z", "2020-01-01T00:00:00ZT",
		"2020-01-01T00:00:00Zt garbage", "2020-01-01T00:00:00a5Z", "2020-01-01T00:00:00é5Z", "2020-01-01T00:00:00\n5Z",
		"2020-01-01T00:00:00+99:99", "2020-02-30T00:00:00Z", "2020-01-01TT00:00:00Z", "T00:00:00Z", "2020-01-01T00:00:00.Z",
		"2020-01-01T00:00:00+0Z", "2020-01-01T00:00:00.123456789+05:30", "2020-01-01T0:00:00Z", "2020-01-01T00:00:00z ",
		"2020-01-01T00:00:00+01:00Z", "2020-01-01T00:00:00.5+01:00", "2020-01-01T00:00:00x1+01:00", "2020-01-01T00:00:00Zz",
		"2020-01-01T09:59:59Z", "2020-01-01T19:59:59Z", "2020-01-01T23:59:59Z", "2020-01-01T20:00:00Z", "2020-01-01T1a:00:00Z",
		"2020-01-01", "", "abc", "2020-01-01T", "2020-01-01T00:00:00+01:0", "2020-01-01T00:00:00.-01:00", "2020-01-01T00:00:00..1Z",
		"2020-01-01T00:00:00\u212a1Z", "2020-01-01T00:00:00\u01301Z", "2020-01-01\u0130T00:00:00Z",
	}},
	{"duration", "0123456789.-+ nsuµμmhdwekylirocatMSHDW\t\n", 600, []string{
		"1s", "1h2m3s", "1.5h", ".5s", "5.s", ".s", "1µs", "1μs", "1us", "-1s", "+1s", "0", "-0", "+0", "1", "s", "", "1x", "1 s",
		"1 sec", "3 days", "2 weeks", "1w", "1d", "10 minutes", "1 hr", "1 hour", "5 millis", "5 milliseconds", "1 nanosecond",
		"1 micro", "abc 5s xyz", "99999999999999999999s", "9223372036854775807ns", "9223372036854775808ns", "2562048h",
		"2562047h", "1e3s", "1.5 hours", "1 MS", "1 Ms", "1 NS", "1 Hr", "1 Day", "1 WK", "1 Week", "1ſ", "5 minutes 3 seconds",
		"1 month", "1 year", "1 y", "1 µ", "1 micros", "1 nanos", "1 millisecond", "1 mins", "1 secs", "1 hours", "1 days",
		"1 weeks", "1 weekly", "1 secondary", "1 hrs", "1 dayz", "1 mi", "1 mil", "1 millis", "1 n", "1 nan", "1 wee",
		"1\ts", "1\ns", "1\vs", "1\u00a0s", "-5 minutes", "5-minutes", "1.5.5s", "1h-1m", "1h 1m", "99999999999999999999 s",
		"1 s 99999999999999999999 s", "99999999999999999999 x 1 s", "١s", "1 s٣", "0.0000000001s", "1.00000000000000000001h",
		"9223372036.854775808s", "9223372036.854775807s", "2562047.788015215h", "2562047.7880152155h", "-9223372036854775808ns",
		"-9223372036854775809ns", "9223372036854775808ns9223372036854775808ns", "9223372036854775807ns1ns",
		"-9223372036854775808ns", "4611686018427387904ns4611686018427387904ns", "1.h", "1h.5m", "1h.m", "+-1s", "--1s",
		"1.5µs", "1.5μs", "١s", "0.5", ".5", "5.", "1e9ns", "0x10s", "0h", "00h", "1h0", "1hh", "1 sx", "1 m", "1 M", "1 h", "1 ns", "1 us", "1 ms", "1 ǅ",
	}},
	{"k8s-short-name", "az09-.A_", 300, []string{
		"a", "a-b", "-a", "a-", "A", "a.b", digits(63, 'a'), digits(64, 'a'), "", "0", "a_b", "a--b", "0-0", "é", "a\n",
	}},
	{"k8s-long-name", "az09-.A_", 300, []string{
		"a", "a.b", "a..b", ".a", "a.", "a-.b", "a.-b", digits(253, 'a'), digits(254, 'a'),
		strings.Repeat("a.", 126) + "a", strings.Repeat("a.", 126) + "ab", digits(64, 'a') + ".b", "", "A.b", "a.b-c.d",
	}},
	{"bsonobjectid", "0123456789abcdefABCDEFg", 200, []string{
		"507f1f77bcf86cd799439011", "507F1F77BCF86CD799439011", "507f1f77bcf86cd79943901", "507f1f77bcf86cd7994390111",
		"507f1f77bcf86cd79943901g", "", "507f1f77bcf86cd79943901 ", "507f1f77bcf86cd7994390110a",
	}},
	// Names spelled otherwise: the registry normalises them.
	{"date-time", "", 0, []string{"2020-01-01T00:00:00Z", "2020-01-01"}},
	{"k8sshortname", "", 0, []string{"a-b", "-a"}},
	{"k-8-s-long-name", "", 0, []string{"a.b", "a..b"}},
	{"uu-id", "", 0, []string{"123e4567-e89b-12d3-a456-426614174000", "x"}},
	{"unknown-format", "", 0, []string{"", "x"}},
	{"DateTime", "", 0, []string{"2020-01-01T00:00:00Z"}},
	{"int32", "", 0, []string{"1"}},
	{"", "", 0, []string{"", "x"}},
}
