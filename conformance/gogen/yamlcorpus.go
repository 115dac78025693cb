package main

// gogen yamlcorpus [--out FILE] writes the corpus of how `kubectl get -o yaml`
// prints values (default FILE ../../value/tests/data/sigs_yaml.json): a
// list of {"json": a JSON text, "yaml": its YAML}, the JSON read as kubectl
// reads an object (k8s.io/apimachinery's util/json: int64 where the number is
// an integer, else float64) and written by sigs.k8s.io/yaml.Marshal, which
// kubectl's YAML printer calls. The texts: strings YAML 1.1 would read as
// something else or that need quoting, as values, keys and list items; numbers
// at the edges of int64, uint64 and float64; key orders; empty and nested
// collections; long and multi-line strings; then seeded random strings over an
// alphabet of YAML's special characters. Key sets whose order yaml.v2 leaves
// to Go's random map iteration are refused (the output must be the same at
// every run). Where Marshal fails, the case has
// "error" (its text) instead of "yaml".

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"strings"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	sigsyaml "sigs.k8s.io/yaml"
)

func runYAMLCorpus(args []string) int {
	out, ok := parseOut("yamlcorpus", args, "file", "value", "tests", "data", "sigs_yaml.json")
	if !ok {
		return 2
	}
	cases := []any{}
	for _, text := range yamlCorpusTexts() {
		var value any
		if err := utiljson.Unmarshal([]byte(text), &value); err != nil {
			fmt.Fprintf(os.Stderr, "gogen: yamlcorpus: %s: %v\n", text, err)
			return 1
		}
		written, err := sigsyaml.Marshal(value)
		if err == nil {
			// yaml.v2's key order is not transitive for some key sets (v1alpha1 < v2 <
			// v10 < v1alpha1), and Go's map iteration is random: such a case would make
			// the corpus differ from run to run. Refuse it.
			for i := 0; i < 30; i++ {
				again, _ := sigsyaml.Marshal(value)
				if string(again) != string(written) {
					fmt.Fprintf(os.Stderr, "gogen: yamlcorpus: %s: Go's output varies from run to run\n", text)
					return 1
				}
			}
		}
		if err != nil {
			// kubectl cannot print such an object either (an empty key, say): its error.
			cases = append(cases, jObject{"json": text, "error": err.Error()})
			continue
		}
		cases = append(cases, jObject{"json": text, "yaml": string(written)})
	}
	return writeCorpus("yamlcorpus", out, jObject{"cases": cases})
}

// yamlCorpusStrings are strings chosen by hand: each is written as a value, a
// key and a list item.
var yamlCorpusStrings = []string{
	"", " ", "  ", "a", "-", "--", "-c", "--since=24h", "-1", "- a", "-a b", "--- ", "---", "...",
	"yes", "Yes", "YES", "no", "No", "on", "On", "off", "OFF", "y", "Y", "n", "N", "true", "True",
	"false", "yEs", "null", "Null", "NULL", "~", "nul", "0", "1", "-1", "+1", "010", "08", "0x1F",
	"0x1f", "0o17", "0b101", "1_000", "1e3", "1E3", "1.", ".5", "1.5", "-.5", "+.5", "1e400",
	".inf", "-.inf", ".Inf", ".INF", ".nan", ".NaN", "inf", "nan", "Infinity", "1:20", "1:20:30",
	"190:20:30", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2026-01-01T00:00:00Z", "12:30",
	"a:b", "a: b", "a:", ":a", ":", "::", "a :b", "http://x.y/z", "k:{\"name\":\"nginx\"}", "#",
	"#a", "a#b", "a #b", "a# b", "?", "? a", "?a", ",", "a,b", "[", "]", "[a]", "{", "}", "{a}",
	"a[0]", "a{b}", "&a", "*a", "!a", "!!str", "|", ">", "|-", "'", "\"", "'a'", "\"a\"", "a'b",
	"a\"b", "%", "%TAG", "@a", "`a", "a@b", "a`b", "<<", "=", "a=b", " a", "a ", " a ", "a  b",
	"\ta", "a\t", "a\tb", "\n", "a\n", "a\nb", "a\nb\n", "a\n\n", "\na", " a\nb", "a \nb",
	"a\n b", "a\n\nb", "a\r\nb", "a\rb", "\r", "a\\b", "\\", "é", "日本語", "a\u00a0b", "\u00a0",
	"\u2028", "a\u2029b", "\u0085", "\ufeff", "\ufeffa", "\u200b", "\u202e", "\u0000", "\u0001",
	"\u001b[31m", "\u007f", "\u0080", "\u009b", "\U0001F600", "a\U0001F600b", "\ud7ff", "\ue000",
	"\ufffd", "\uffff", "a b c", "a: b: c", "a - b", "a -b", "0.0.0.0", "1.2.3", "v1", "1Gi",
	"500m", "0.5", "1e-3", "1_0", "0_1", "0.1e", "e3", "x1", "NaN", "-0", "00", "0o", "0x",
	"+", "+a", "-.inf ", "true ", " null",
}

func yamlCorpusTexts() []string {
	var texts []string
	quote := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b)
	}
	add := func(s string) {
		q := quote(s)
		texts = append(texts,
			fmt.Sprintf(`{"v":%s}`, q),
			fmt.Sprintf(`{%s:"v"}`, q),
			fmt.Sprintf(`{"l":[%s],"m":{"n":[{"o":%s}]}}`, q, q),
		)
	}
	for _, s := range yamlCorpusStrings {
		add(s)
	}
	long := strings.Repeat("word ", 40)
	for _, s := range []string{
		strings.TrimSpace(long), long, strings.Repeat("x", 200), strings.Repeat("x", 79),
		strings.Repeat("x", 80) + " " + strings.Repeat("y", 80), strings.Repeat("ab ", 30) + "\n" + strings.Repeat("cd ", 30),
		strings.Repeat("k", 1100), "a " + strings.Repeat("b", 100) + " c", strings.Repeat("a b ", 25) + "#c",
		strings.Repeat("line\n", 5), "first line\n  indented\nlast", "# not a comment\nx",
		"key: value\nother: 1\n", "- item\n- item\n", "trailing \nspace", "tab\there\nnext",
	} {
		add(s)
	}
	for _, n := range []string{
		"0", "-0", "1", "-1", "42", "9223372036854775807", "-9223372036854775808",
		"9223372036854775808", "-9223372036854775809", "18446744073709551615",
		"18446744073709551616", "1e3", "1E3", "1.0", "2.5", "-2.5", "0.1", "1e19", "1e20", "1e21",
		"1e22", "1e-7", "1.5e-7", "123456789.123", "1e308", "1.7976931348623157e308", "5e-324",
		"-0.0", "1e6", "100000", "1e15", "1e16", "1e17", "0.000001", "0.0000001", "3.14159",
		"12345678901234567890", "1.0e2", "100.5",
	} {
		texts = append(texts, fmt.Sprintf(`{"n":%s,"l":[%s]}`, n, n), n)
	}
	texts = append(texts,
		`{}`, `[]`, `null`, `true`, `"s"`, `""`, `"yes"`, `[1,"a",null,true,1.5]`, `[[]]`, `[{}]`,
		`[[1,2],[3]]`, `[[{"a":1}]]`, `[{"a":[{"b":[]}]}]`,
		`{"a":{},"b":[],"c":[{}],"d":[[]],"e":{"f":{}},"g":null,"h":[null],"i":true,"j":false}`,
		`{"a":1,"B":1,"b":1,"1":1,"10":1,"2":1,"_":1,"-":1,"é":1,"A":1,"Z":1,"z":1,"a.b":1,"a-b":1,"a_b":1,"a/b":1,"~":1,"":1}`,
		`{"a10":1,"a9":1,"a1":1,"a100":1,"a01":1,"a001":1}`, `{"x2y":1,"x3y":1,"x1y":1}`, `{"x1y":1,"x01y":1,"x001y":1}`,
		`{"10a":1,"9a":1}`, `{"1.5":1,"1.10":1}`, `{"v1":1,"v10":1,"v2":1}`, `{"v1beta1":1,"v1":1,"v1alpha1":1}`,
		`{"a":[{"b":1,"c":[1,2]},{"d":{"e":[{"f":"g"}]}}],"h":[[["i"]]]}`,
		`{"metadata":{"name":"web","labels":{"app":"web","tier":"1"},"annotations":{"a":"","b":"--since=24h"}},"spec":{"containers":[{"name":"c","args":["-c","--since=24h",""],"command":["sh","-c","echo yes"]}]}}`,
	)
	r := rand.New(rand.NewSource(1))
	alphabet := []rune("-:#?,[]{}&*!|>'\"%@` \t\na0.1exyno~é\\=+_<")
	for i := 0; i < 400; i++ {
		n := 1 + r.Intn(6)
		var b strings.Builder
		for j := 0; j < n; j++ {
			b.WriteRune(alphabet[r.Intn(len(alphabet))])
		}
		texts = append(texts, fmt.Sprintf(`{"v":%s,%s:1}`, quote(b.String()), quote(b.String()+"k")))
	}
	return texts
}
