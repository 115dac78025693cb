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
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	apiextensionsvalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/util/version"
	openapispec "k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
)

func runCRDChecks(args []string) int {
	fs := flag.NewFlagSet("crdchecks", flag.ContinueOnError)
	out := fs.String("out", "", "output directory (default ../../smd/tests/data from the module directory)")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
	if *out == "" {
		dir, err := moduleDir()
		if err != nil {
			fmt.Fprintf(os.Stderr, "gogen: %v; pass --out\n", err)
			return 2
		}
		*out = filepath.Join(dir, "..", "..", "smd", "tests", "data")
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
		text, err := writeJSON(f.corpus, true)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gogen: crdchecks: %v\n", err)
			return 1
		}
		path := filepath.Join(*out, f.name)
		changed, err := writeIfChanged(path, text)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gogen: crdchecks: %v\n", err)
			return 1
		}
		if changed {
			fmt.Printf("gogen: wrote %s\n", filepath.ToSlash(path))
		} else {
			fmt.Printf("gogen: %s unchanged\n", filepath.ToSlash(path))
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

// regexpSubjects are the strings every pattern is matched against.
var regexpSubjects = []string{
	"", "a", "A", "b", "ab", "abc", "ABC", "aBc", "abcabc", "xyz", "0", "5", "123", "a1", "_", "-", " ", "\t", "\n", "\r",
	"\r\n", "\v", "\f", "a\nb", "\na", "a\n", "foo bar", "foo\nbar", "a.b", "a-b", "a_b", "k", "K", "\u212a", "s", "S",
	"\u017f", "é", "É", "e\u0301", "ß", "ẞ", "ǅ", "ǆ", "Ǆ", "µ", "μ", "Μ", "Σ", "σ", "ς", "İ", "ı", "i", "I", "日本", "٣",
	"１", "\u00a0", "\u2028", "\u0085", "😀", "a😀b", "\u1c89", "\u0951", "\u0378", "{", "}", "{1}", "a{1}", "[", "]", "\\",
	"^", "$", ".", "*", "+", "?", "(", ")", "|", "aaa", "aaaa", strings.Repeat("a", 50), "x@y.z", "2020-01-01", "abc\n",
	"\x00", "\x7f", "a b", "aé", "éa", "aéb", "a\u00a0b", "Ab1_", "ab12", "ABab", "hello world",
}

type regexpCase struct {
	pattern  string
	subjects []string
	built    *built
}

func rc(pattern string, subjects ...string) regexpCase {
	return regexpCase{pattern: pattern, subjects: subjects}
}

// regexpHand are patterns chosen for where Go's syntax or matching differs
// from other engines (and from Rust's regex crate).
var regexpHand = []regexpCase{
	// ASCII-only Perl classes, and their Unicode look-alikes.
	rc(`\d`, "٣", "１", "9"), rc(`^\d+$`, "٣", "12٣"), rc(`\D`), rc(`\w`, "é", "_"), rc(`^\w+$`, "héllo", "hello"), rc(`\W`),
	rc(`\s`, "\u00a0", "\u2028", "\u0085", "\v"), rc(`^\s$`), rc(`\S`), rc(`[\d]`), rc(`[\D]`), rc(`[\w-]`), rc(`[^\w]`),
	rc(`[\s\d]`), rc(`[^\s]`), rc(`(?i)\w`), rc(`(?i)\W`), rc(`(?i)[\W]`), rc(`(?i)[^\W]`), rc(`(?i)[^\w]`), rc(`(?i)\S`),
	rc(`\b`), rc(`\bfoo\b`, "foo", "éfooé", "afoo", "foo_"), rc(`\B`), rc(`a\B`, "ab", "aé"), rc(`\Bé`, "aé", "é"),
	rc(`é\b`, "é", "éa"), rc(`\b\B`), rc(`^\b`), rc(`\b$`), rc(`x\b`, "x", "xé", "x1"), rc(`\B$`), rc(`^\B`),
	// POSIX classes.
	rc(`[[:alpha:]]`), rc(`[[:^alpha:]]`), rc(`[[:alnum:]_]`), rc(`[[:ascii:]]`), rc(`[[:blank:]]`), rc(`[[:cntrl:]]`),
	rc(`[[:digit:]]`), rc(`[[:graph:]]`), rc(`[[:lower:]]`), rc(`(?i)[[:lower:]]`), rc(`[[:print:]]`), rc(`[[:punct:]]`),
	rc(`[[:space:]]`, "\v"), rc(`[[:upper:]]`), rc(`(?i)[[:upper:]]`), rc(`[[:word:]]`), rc(`[[:xdigit:]]`), rc(`[[:^space:]]`),
	rc(`[[:foo:]]`), rc(`[[:alpha:]`), rc(`[[:alpha]`), rc(`[[:]`), rc(`[[:a]b:]`), rc(`[:alpha:]`), rc(`[[:alpha:][:digit:]]`),
	rc(`[[:^ascii:]]`), rc(`(?i)[[:^upper:]]`), rc(`[a[:digit:]]`), rc(`[[:Alpha:]]`), rc(`[[=a=]]`), rc(`[[.a.]]`),
	// Unicode classes.
	rc(`\pL`), rc(`\p{L}`), rc(`\PL`), rc(`\p{^L}`), rc(`\P{^L}`), rc(`\p{Lu}`), rc(`\p{Ll}`), rc(`(?i)\p{Lu}`),
	rc(`(?i)\P{Lu}`), rc(`(?i)[\P{Lu}]`), rc(`(?i)[^\p{Lu}]`), rc(`\p{Greek}`), rc(`\p{greek}`), rc(`\p{GREEK}`),
	rc(`\p{Devanagari}`, "\u0951", "क"), rc(`\p{Bengali}`, "\u0951"), rc(`\p{Inherited}`, "\u0951"), rc(`\p{Han}`),
	rc(`\p{Latin}`), rc(`\p{Common}`), rc(`\p{Cyrillic}`, "\u1c89", "Ж"), rc(`\p{Old_Italic}`), rc(`\p{OldItalic}`),
	rc(`\p{Letter}`), rc(`\p{letter}`), rc(`\p{Uppercase_Letter}`), rc(`\p{uppercase letter}`), rc(`\p{Lu }`),
	rc(`\p{L_u}`), rc(`\p{LC}`), rc(`\p{Lc}`), rc(`\p{L&}`), rc(`\p{Any}`), rc(`\p{any}`), rc(`\p{ASCII}`), rc(`\p{Ascii}`),
	rc(`(?i)\p{ASCII}`), rc(`(?i)\P{ASCII}`), rc(`\p{Assigned}`), rc(`\P{Assigned}`), rc(`\p{Cn}`), rc(`\p{C}`), rc(`\p{Cs}`),
	rc(`\p{Co}`, "\ue000"), rc(`\p{Cc}`), rc(`\p{Cf}`, "\u200b", "\u00ad"), rc(`\p{Other}`), rc(`\p{Is_Greek}`),
	rc(`\p{sc=Greek}`), rc(`\p{Foo}`), rc(`\pX`), rc(`\p`), rc(`\p{`), rc(`\p{}`), rc(`\p{^}`), rc(`\p^`), rc(`\pé`),
	rc(`\p{L`), rc(`[\p{L`), rc(`\p{Nd}`), rc(`\p{N}`), rc(`\p{digit}`), rc(`\p{punct}`), rc(`\p{Zs}`), rc(`\p{Z}`),
	rc(`\p{Sm}`, "+", "<"), rc(`\p{S}`), rc(`[\p{Greek}\d]`), rc(`[^\p{Greek}\d]`), rc(`\p{Lt}`), rc(`(?i)\p{Lt}`),
	rc(`\p{Nko}`), rc(`\p{SignWriting}`), rc(`\p{Kawi}`), rc(`\p{Garay}`), rc(`\p{Hanunoo}`), rc(`\p{Unassigned}`),
	rc(`\p{Alphabetic}`), rc(`\p{White_Space}`), rc(`\p{Emoji}`), rc(`\pN`), rc(`\pZ`), rc(`\p{M}`, "\u0301"), rc(`\pC`),
	// Case folding.
	rc(`(?i)k`), rc(`(?i)K`), rc(`(?i)s`), rc(`(?i)ſ`), rc(`(?i)σ`), rc(`(?i)Σ`), rc(`(?i)ß`), rc(`(?i)ẞ`), rc(`(?i)ǅ`),
	rc(`(?i)µ`), rc(`(?i)i`), rc(`(?i)İ`), rc(`(?i)[a-z]`), rc(`(?i)[k]`), rc(`(?i)[^k]`), rc(`(?i)[^a-z]`), rc(`(?i)abc`),
	rc(`(?i:a)b`), rc(`a(?i)b`), rc(`(?i)a(?-i)b`), rc(`(?i)(?-i:a)b`), rc(`((?i)a)b`), rc(`(?i)\x{212a}`), rc(`(?i)[\x{212a}]`),
	rc(`(?i)[^\x{212a}]`), rc(`[kK]`), rc(`(?i)[k-k]`), rc(`(?i)é`), rc(`(?i)\x{1c89}`, "\u1c8a"), rc(`(?i)ǆ`), rc(`(?i)Ǆ`), rc(`(?i)ɤ`, "\ua7cb"),
	rc(`(?i)\p{Lu}`, "ɤ", "\ua7cb"),
	// Anchors and flags.
	rc(`^a`), rc(`a$`), rc(`^$`), rc(`^`), rc(`$`), rc(`(?m)^a`), rc(`(?m)a$`), rc(`(?m)^$`), rc(`(?m)^b`), rc(`(?m)a$\n`),
	rc(`\Aa`), rc(`a\z`), rc(`a\Z`), rc(`(?m)\Ab`), rc(`(?m)a\z`), rc(`(?m:^)b`), rc(`a(?m)$`), rc(`(?s).`), rc(`.`),
	rc(`(?s:.)`), rc(`a.b`), rc(`(?s)a.b`), rc(`[^a]`), rc(`[^a]b`, "\nb"), rc(`(?U)a+`), rc(`(?U)a+?`), rc(`a+?`),
	rc(`(?i-i)a`), rc(`(?i-s:a.)`), rc(`(?ims-U)a`), rc(`(?-m)^b`), rc(`(?m-m)^b`), rc(`(?)`), rc(`(?)a`), rc(`(?-)a`),
	rc(`(?i-)a`), rc(`(?-i)a`), rc(`(?--i)a`), rc(`(?i--)a`), rc(`(?ii)a`), rc(`(?x)a`), rc(`(?x) a`), rc(`(?u)a`),
	rc(`(?R)`), rc(`(?U`), rc(`(?i`), rc(`(?`), rc(`(?:`), rc(`(?#comment)a`), rc(`(?=a)`), rc(`(?!a)`), rc(`(?<=a)b`),
	rc(`(?<!a)b`), rc(`(?>a)`), rc(`(?|a)`), rc(`(?P=n)`), rc(`(?P>n)`), rc(`(?&n)`), rc(`(?1)`), rc(`(?C)`),
	rc(`\Ab|a`), rc(`a|\zb`), rc(`^$|a`), rc(`(?m:$)`), rc(`(?s)^.*$`), rc(`^.*$`), rc(`(?m)^.*$`),
	// Groups and names.
	rc(`(a)`), rc(`(?:a)`), rc(`(?P<n>a)`), rc(`(?<n>a)`), rc(`(?'n'a)`), rc(`(?P<n>a)(?P<n>b)`), rc(`(?<n>a)(?P<n>b)`),
	rc(`(?P<>a)`), rc(`(?<>a)`), rc(`(?P<n-m>a)`), rc(`(?P<né>a)`), rc(`(?P<1>a)`), rc(`(?P<_>a)`), rc(`(?P<n`),
	rc(`(?<n`), rc(`(?P<n)>`), rc(`(?P<`), rc(`(?<`), rc(`(?P`), rc(`(?P<n>`), rc(`(?<n>a`), rc(`()`), rc(`(|)`),
	rc(`(a|)`), rc(`(|a)`), rc(`a|`), rc(`|a`), rc(`|`), rc(`||`), rc(`a||b`), rc(`(`), rc(`)`), rc(`a)`), rc(`(a`),
	rc(`((a)`), rc(`(a))`), rc(`)(`), rc(`a|b)`), rc(`(a|b`), rc(`(?i)(`), rc(`(?i))`), rc(`x(?i))`), rc(`[a](`),
	// Repetition.
	rc(`a*`), rc(`a+`), rc(`a?`), rc(`a{2}`), rc(`a{2,}`), rc(`a{2,3}`), rc(`^a{2,3}$`), rc(`a{,2}`, "a{,2}"), rc(`^a{,2}$`, "a{,2}"),
	rc(`a{}`, "a{}"), rc(`a{x}`, "a{x}"), rc(`a{1`, "a{1"), rc(`a{1,`, "a{1,"), rc(`a{1,2`), rc(`a{01}`, "a{01}"), rc(`a{1,02}`, "a{1,02}"),
	rc(`a{0}`), rc(`a{0,0}`), rc(`a{0,}`), rc(`^a{0}$`), rc(`a{1000}`), rc(`a{1001}`), rc(`a{1000,}`), rc(`a{1001,}`), rc(`a{0,1000}`),
	rc(`a{0,1001}`), rc(`a{2,1}`), rc(`a{100000000}`), rc(`a{99999999}`), rc(`a{1,100000000}`), rc(`a{ 1}`, "a{ 1}"),
	rc(`a{1 }`, "a{1 }"), rc(`a{1,2,3}`, "a{1,2,3}"), rc(`a{-1}`, "a{-1}"), rc(`{`), rc(`}`), rc(`{1}`), rc(`{1`), rc(`x{`),
	rc(`a**`), rc(`a*+`), rc(`a*?`), rc(`a*??`), rc(`a+?`), rc(`a??`), rc(`a???`), rc(`a*?*`), rc(`a{2}{3}`), rc(`a{2}*`),
	rc(`a*{2}`), rc(`a{2}?`), rc(`a{2}??`), rc(`*`), rc(`+a`), rc(`?`), rc(`(*)`), rc(`(?:*)`), rc(`a|*`), rc(`(?i)*`),
	rc(`a(?i)*`), rc(`^*`), rc(`$*`), rc(`\b*`), rc(`\A*`), rc(`(?:)*`), rc(`()*`), rc(`(a*)*`), rc(`(a*)+`), rc(`(a+)?`),
	rc(`(a|b)*c`), rc(`a*(?i)*`), rc(`\Q\E*`), rc(`a\Q\E*`), rc(`a*\Q\E*`), rc(`(a{10}){100}`), rc(`(a{10}){101}`),
	rc(`(?:a{2}){500}`), rc(`(?:a{2}){501}`), rc(`((a{2}){2}){250}`), rc(`((a{2}){2}){251}`), rc(`(a{0}){1000}`),
	rc(`(a{0,}){1000}`), rc(`(a*){1000}`), rc(`(a{1,}){1000}`), rc(`(a{2,}){1000}`), rc(`(a{1000}){1}`), rc(`(a{1000}){0}`),
	rc(`(a{1001}){0}`), rc(`(a{3}){333}`), rc(`(a{4}){333}`), rc(`(a{3}|b{400}){3}`), rc(`(a{3}|b{400}){2}`), rc(`(a|b{2}){1000}`),
	rc(`(?:a{10}b{10}){100}`), rc(`(?:(?:a{10}){10}){10}`), rc(`(?:(?:a{10}){10}){11}`), rc(`(?i)a{2}{3}`), rc(`a{1000}{1}`),
	rc(`x{2}{,3}`), rc(`a{2}{`), rc(`a*{`), rc(`a*{,}`), rc(`a{1}?{2}`),
	// Escapes.
	rc(`\a\f\t\n\r\v`, "\a\f\t\n\r\v"), rc(`\x41`), rc(`\x4`), rc(`\x`), rc(`\xZZ`), rc(`\x4G`), rc(`\x{41}`), rc(`\x{}`),
	rc(`\x{110000}`), rc(`\x{10FFFF}`), rc(`\x{D800}`), rc(`[\x{D800}]`), rc(`[^\x{D800}]`), rc(`[\x{D7FF}-\x{E000}]`, "\ud7ff", "\ue000"),
	rc(`\x{g}`), rc(`\x{41`), rc(`\x{0041}`), rc(`\x{00000000000041}`), rc(`\0`, "\x00"), rc(`\00`), rc(`\000`), rc(`\0000`, "\x000"),
	rc(`\08`, "\x008"), rc(`\1`), rc(`\12`, "\n"), rc(`\123`, "S"), rc(`\1234`, "S4"), rc(`\777`, "ǿ"), rc(`\8`), rc(`\9`),
	rc(`\b`), rc(`\B`), rc(`\C`), rc(`\Q`), rc(`\Qa.b`, "a.b", "axb"), rc(`\Qa.b\E.`, "a.bx"), rc(`\Q\E`), rc(`\Q\`, "\\"),
	rc(`\Q*\E+`, "**"), rc(`[\Q]`), rc(`\E`), rc(`\z`), rc(`\Z`), rc(`\G`), rc(`\K`), rc(`\R`), rc(`\X`), rc(`\h`), rc(`\H`),
	rc(`\N`), rc(`\o{101}`), rc(`\u0041`), rc(`\U00000041`), rc(`\cA`), rc(`\e`), rc(`\g1`), rc(`\k<n>`), rc(`\<`), rc(`\>`),
	rc(`\_`, "_"), rc(`\-`), rc(`\.`), rc(`\*`), rc(`\\`), rc(`\ `, " "), rc(`\#`, "#"), rc(`\~`, "~"), rc(`\@`, "@"),
	rc(`\%`, "%"), rc(`\é`), rc(`\日`), rc(`\`), rc(`a\`), rc(`[\`), rc(`[a\`), rc(`\m`), rc(`\y`), rc(`\i`),
	// Classes.
	rc(`[abc]`), rc(`[^abc]`), rc(`[a-c]`), rc(`[c-a]`), rc(`[a-a]`), rc(`[]a]`, "]"), rc(`[^]a]`, "]"), rc(`[]`), rc(`[^]`),
	rc(`[a-]`, "-"), rc(`[-a]`, "-"), rc(`[--a]`, "-", "."), rc(`[a-\d]`), rc(`[\d-z]`, "-", "z"), rc(`[a-b-c]`, "-"),
	rc(`[a`), rc(`[a-`), rc(`[a-b`), rc(`[`), rc(`[^`), rc(`]`), rc(`[]]`, "]"), rc(`[[]`, "["), rc(`[a[b]`, "[", "b"),
	rc(`[a[b]]`, "a]", "b]"), rc(`[a&&b]`, "&"), rc(`[a--b]`, "-"), rc(`[a~~b]`, "~"), rc(`[a||b]`, "|"), rc(`[\[\]]`),
	rc(`[\-]`, "-"), rc(`[\^]`, "^"), rc(`[^^]`, "^"), rc(`[\b]`), rc(`[\n]`), rc(`[^\n]`), rc(`[\x00-\x{10FFFF}]`),
	rc(`[^\x00-\x{10FFFF}]`), rc(`(?i)[^\x00-\x{10FFFF}]`), rc(`[\x{0}-\x{D7FF}\x{E000}-\x{10FFFF}]`), rc(`[^\x{0}-\x{D7FF}]`),
	rc(`[\x{E000}-\x{D800}]`), rc(`[é-ê]`), rc(`[é-e]`), rc(`[\pL-z]`), rc(`[a-\pL]`), rc(`[\p{Foo}]`), rc(`[\PL]`),
	rc(`[\d\D]`), rc(`[^\d\D]`), rc(`[.]`, "."), rc(`[*+?{}()|$^]`), rc(`[\w&&[^a]]`), rc(`[z-a]`), rc(`[\x{10FFFF}-\x{0}]`),
	rc(`[\0-\x1f]`), rc(`[\a-\r]`), rc(`[\Q]`), rc(`[\E]`), rc(`[\z]`), rc(`[\A]`), rc(`[\pN\s]`), rc(`[^\S\n]`, "\n", " "),
	rc(`(?i)[^\S]`), rc(`[^[:^alpha:]]`), rc(`(?i)[^[:^lower:]]`), rc(`[[:alpha:]-z]`), rc(`[a-[:alpha:]]`),
	// Literals, Unicode and the rest.
	rc(`abc`), rc(`a.c`), rc(`é`), rc(`日本`), rc(`😀`), rc(`a😀b`), rc(`(?i)日`), rc(`\x{1F600}`), rc(`[😀-😃]`, "😂"),
	rc(`a|b|c`), rc(`ab|ac`), rc(`abc|abd|x`), rc(`(a|b)(c|d)`), rc(`(?:ab|cd)+$`), rc(`^(?:a|ab)(?:c|bcd)(?:d*)$`, "abcd"),
	rc(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`, "my-name", "My-name", "-a"), rc(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`, "a.b-c"),
	rc(`^(\d+)(m|Mi|Gi)?$`, "10Gi", "١٠Gi"), rc(`^\+?[1-9]\d{1,14}$`, "+4412345678"), rc(`^[^@\s]+@[^@\s]+$`, "a@b"),
	rc(`^https?://`, "https://x"), rc(`^(?i)(true|false)$`, "TRUE", "True"), rc(`^[A-Z_][A-Z0-9_]*$`, "ENV_1"),
	rc(`^([01]?\d|2[0-3]):[0-5]\d$`, "23:59", "24:00"), rc(`^v\d+(\.\d+){2}$`, "v1.2.3"), rc(`\$\{[^}]+\}`, "${x}"),
	rc(`^[\p{L}\p{N}_-]+$`, "ünïcode_1"), rc(`^\S+$`, "a\u00a0b"), rc(`^[[:alnum:]]+$`, "abc1", "ab c"), rc(`a\nb`),
	rc(`(?m)^#`, "x\n#"), rc(`\x{2028}`), rc(`(?s)a.b`, "a\u2028b"), rc(`a.b`, "a\u2028b", "a\rb"), rc(`^\x{0}$`, "\x00"),
	rc(`[\x{0}]`), rc(`(?i)[\x{17f}]`), rc(`(?i)[ſ-ſ]`), rc(`(?i)[^ſ]`), rc(`(?i)\x{3a3}`), rc(`(?i)[^σ]`),
}

// deepPatterns sit at Go's limits: nesting depth 1000, 1000 repeats, the
// compiled size estimate. They are written built (open×times, inner,
// close×times) to keep the corpus small.
func deepPatterns() []regexpCase {
	b := func(open, inner, close string, times int) regexpCase {
		return regexpCase{built: &built{open, inner, close, times}}
	}
	return []regexpCase{
		b("(", "a", ")", 998), b("(", "a", ")", 999), b("(", "a", ")", 1000), b("(", "a", ")", 1001),
		b("(?:", "a", ")", 5000), b("(?:", "a", ")*", 998), b("(?:", "a", ")*", 999), b("(?:", "a", ")*", 1000),
		b("(?:b|", "a", ")", 3000), b("(b|", "a", ")", 499), b("(b|", "a", ")", 500), b("(b|", "a", ")", 501),
		b("(?:bc|", "a", ")c", 498), b("(?:bc|", "a", ")c", 499), b("(?:bc|", "a", ")c", 500), b("(?:bc|", "a", ")c", 501),
		b("a{1000}", "", "", 3350), b("a{1000}", "", "", 3360), b("(?:ab){1000}", "", "", 1700),
		b("", "("+strings.Repeat("a", 3400)+"){1000}", "", 0), b(`\pL{1000}`, "", "", 20), b("", `[\pL\pN]{1000}`, "", 0),
		b("(a)", "", "", 20000), b("a|", "", "", 20000), b("[a-z]", "", "", 20000), b("((a{2}){2}", "", "){2})", 300),
		b("a{1000}", "", "", 3355), b("a{1000}", "", "", 3356), b("(?:ab){1000}", "", "", 1677), b("(?:ab){1000}", "", "", 1678),
		b("", "(?:"+strings.Repeat("a", 3360)+"){1000}", "", 0), b("", "(?:"+strings.Repeat("a", 3360)+"){1000}x", "", 0),
		b("", "("+strings.Repeat("a", 3353)+"){1000}", "", 0), b("", "("+strings.Repeat("a", 3354)+"){1000}", "", 0),
		b("", "(?:"+strings.Repeat("a", 3353)+"){1000}", "", 0), b("", "x(?:"+strings.Repeat("a", 3360)+"){1000}", "", 0),
		b("", "(?:(?:"+strings.Repeat("a", 3360)+"){1000})", "", 0), b("", "(?:"+strings.Repeat("a", 1700)+"){1000}|b", "", 0),
		b("", "(?:"+strings.Repeat("a", 1700)+"|b){1000}", "", 0), b("", "(?:"+strings.Repeat("ab", 1700)+"){1000}", "", 0),
		b("", "(?i:"+strings.Repeat("a", 3360)+"){1000}", "", 0), b("", strings.Repeat("(a*)", 1000), "", 0),
		b("(", "a", ")", 500), b("(?:b|(", "a", "))", 499), b("(?:b|(", "a", "))", 500), b("(?:b|(", "a", "))", 501),
		b("(?:(", "a", ")b)", 499), b("(?:(", "a", ")b)", 500), b("(?:(", "a", ")b)", 501), b("(?:(", "a", ")b)", 502),
		b("(?:(", "a", ")|b)", 499), b("(?:(", "a", ")|b)", 500), b("(?:(", "a", ")|b)", 501), b("(?:(", "a", ")|b)", 502),
		b("(?:a*", "a", ")", 998), b("(?:a*", "a", ")", 999), b("(?:a*", "a", ")", 1000), b("((?:a|b)", "a", ")", 499),
		b("((?:a|b)", "a", ")", 500), b("((?:a|bc)", "a", ")", 333), b("((?:a|bc)", "a", ")", 334), b("((?:a|bc)", "a", ")", 499),
		b("((?:a|bc)", "a", ")", 500), b("(?:", "a", "){1}", 999), b("(?:", "a", "){1}", 1000), b("(?:", "a", ")?", 999),
		b("(?:", "a", ")?", 1000), b("(?:x", "a", ")?", 499), b("(?:x", "a", ")?", 500), b("(?:x", "a", ")?", 501),
	}
}

// built is a long pattern: open repeated times, inner, close repeated times.
type built struct {
	open, inner, close string
	times              int
}

func (b *built) pattern() string {
	return strings.Repeat(b.open, b.times) + b.inner + strings.Repeat(b.close, b.times)
}

func regexpCorpus() any {
	cases := append(append([]regexpCase(nil), regexpHand...), deepPatterns()...)
	r := rand.New(rand.NewSource(2037))
	for i := 0; i < 2000; i++ {
		p := randPattern(r, 0)
		subjects := make([]string, 0, 6)
		for j := 0; j < 6; j++ {
			subjects = append(subjects, randSubject(r, p))
		}
		cases = append(cases, regexpCase{pattern: p, subjects: subjects})
	}
	rows := make([]any, 0, len(cases))
	seen := map[string]bool{}
	for _, c := range cases {
		row := jObject{"pattern": c.pattern}
		if c.built != nil {
			c.pattern = c.built.pattern()
			row = jObject{"built": jObject{"open": c.built.open, "inner": c.built.inner, "close": c.built.close, "times": c.built.times}}
		}
		if seen[c.pattern] {
			continue
		}
		seen[c.pattern] = true
		re, err := regexp.Compile(c.pattern)
		if err != nil {
			text := err.Error()
			if c.built != nil {
				// The error quotes the whole pattern (too large, too deep, a
				// parenthesis): the corpus names it.
				if t, ok := strings.CutSuffix(text, "`"+c.pattern+"`"); ok {
					text = t + "`«pattern»`"
				}
			}
			row["error"] = text
			rows = append(rows, row)
			continue
		}
		var shared strings.Builder
		for _, s := range regexpSubjects {
			if re.MatchString(s) {
				shared.WriteByte('1')
			} else {
				shared.WriteByte('0')
			}
		}
		var match, miss []any
		for _, s := range c.subjects {
			if re.MatchString(s) {
				match = append(match, s)
			} else {
				miss = append(miss, s)
			}
		}
		row["shared"] = shared.String()
		row["match"] = orEmpty(match)
		row["miss"] = orEmpty(miss)
		rows = append(rows, row)
	}
	subjects := make([]any, len(regexpSubjects))
	for i, s := range regexpSubjects {
		subjects[i] = s
	}
	return jObject{"subjects": subjects, "cases": rows}
}

var (
	randLiterals = []string{"a", "b", "c", "A", "B", "0", "1", "_", "-", " ", ".", "é", "K", "k", "\u212a", "ſ", "s", "σ", "Σ", "日", "\n", ":", "/", "@"}
	randEscapes  = []string{`\d`, `\D`, `\w`, `\W`, `\s`, `\S`, `\b`, `\B`, `\A`, `\z`, `\pL`, `\p{Greek}`, `\PL`, `\p{^Lu}`, `\pN`,
		`\x41`, `\x{263a}`, `\x{212a}`, `\n`, `\t`, `\.`, `\\`, `\*`, `\(`, `\[`, `\{`, `\-`, `\Qa.\E`, `\Q*`, `\0`, `\101`, `\v`,
		`\p{Latin}`, `\p{Lu}`, `\p{Any}`, `\p{Letter}`, `\x{D800}`}
	randBadEscapes = []string{`\q`, `\8`, `\C`, `\x{zz}`, `\p{Foo}`, `\Z`, `\p{Old_Italic}`, `\<`}
	randClassItems = []string{"a", "b", "z", "0", "9", "a-z", "A-Z", "0-9", "-", "^", `\d`, `\W`, `\s`, `[:alpha:]`, `[:^digit:]`,
		`[:word:]`, `\pL`, `\P{Greek}`, `\n`, `\x{263a}`, "é", "k-m", "ſ", `\]`, `\-`, `\\`, "[", "&&", "--", "~~", "K"}
	randBadClassItems = []string{"z-a", `[:foo:]`, `\q`, `\b`}
	randFlags         = []string{"i", "m", "s", "U", "-i", "-m", "-s", "i-s", "im", "is", "-U"}
	randBadFlags      = []string{"x", "", "-", "ii", "i-"}
	randOps           = []string{"*", "+", "?", "*?", "+?", "??", "{2}", "{0,3}", "{1,}", "{,2}", "{0}", "{1", "{01}", "{2,5}"}
	randBadOps        = []string{"{3,1}", "{1001}", "**", "{2}{2}", "*+"}
)

// pick takes from good, and once in rare times from bad.
func pick(r *rand.Rand, good, bad []string, rare int) string {
	if r.Intn(rare) == 0 {
		return bad[r.Intn(len(bad))]
	}
	return good[r.Intn(len(good))]
}

// randPattern writes a random pattern in Go's syntax, now and then invalid.
func randPattern(r *rand.Rand, depth int) string {
	var b strings.Builder
	n := 1 + r.Intn(4)
	if depth > 2 {
		n = 1 + r.Intn(2)
	}
	for i := 0; i < n; i++ {
		atom := true
		switch k := r.Intn(20); {
		case k < 6:
			b.WriteString(randLiterals[r.Intn(len(randLiterals))])
		case k < 9:
			b.WriteString(pick(r, randEscapes, randBadEscapes, 40))
		case k < 11:
			b.WriteByte('[')
			if r.Intn(3) == 0 {
				b.WriteByte('^')
			}
			for j, m := 0, 1+r.Intn(3); j < m; j++ {
				b.WriteString(pick(r, randClassItems, randBadClassItems, 40))
			}
			if r.Intn(60) != 0 {
				b.WriteByte(']')
			}
		case k < 12:
			b.WriteString([]string{"^", "$", ".", "^", "$"}[r.Intn(5)])
		case k < 16 && depth < 4:
			switch g := r.Intn(8); g {
			case 0, 1:
				b.WriteByte('(')
			case 2, 3:
				b.WriteString("(?:")
			case 4:
				b.WriteString("(?" + pick(r, randFlags, randBadFlags, 30) + ":")
			case 5:
				b.WriteString("(?P<g" + fmt.Sprint(r.Intn(3)) + ">")
			case 6:
				b.WriteString("(?<n>")
			default:
				if r.Intn(10) == 0 {
					b.WriteString([]string{"(?=", "(?P=n)(", "(?#", "(?<", "(?P<a-b>"}[r.Intn(5)])
				} else {
					b.WriteByte('(')
				}
			}
			b.WriteString(randPattern(r, depth+1))
			if r.Intn(2) == 0 {
				b.WriteByte('|')
				b.WriteString(randPattern(r, depth+1))
			}
			if r.Intn(60) != 0 {
				b.WriteByte(')')
			}
		case k < 17:
			b.WriteString("(?" + pick(r, randFlags, randBadFlags, 30) + ")")
			atom = false
		case k < 18 && i > 0:
			b.WriteByte('|')
			atom = false
		default:
			b.WriteString(randLiterals[r.Intn(len(randLiterals))])
			if r.Intn(80) == 0 {
				b.WriteString(")")
			}
		}
		if atom && r.Intn(3) == 0 {
			b.WriteString(pick(r, randOps, randBadOps, 25))
		}
	}
	return b.String()
}

// randSubject makes a string from the pattern's own characters and a few others.
func randSubject(r *rand.Rand, pattern string) string {
	pool := []rune(pattern + "aAbB01 \n_-.é\u212aſσΣς日😀")
	var b strings.Builder
	for i, n := 0, r.Intn(9); i < n; i++ {
		b.WriteRune(pool[r.Intn(len(pool))])
	}
	return b.String()
}
