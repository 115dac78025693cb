//go:build ignore

// Generates jsoniter_cases.txt: random and hand-picked inputs, and what Go's json-iterator
// v1.1.12 and structured-merge-diff v6.4.2 make of each, so that smd's JSON reader can be
// checked against them (value/src/json/read/tests/corpus.rs).
//
// Regenerate (needs Go and the two modules, which the Go module proxy serves):
//
//	dir=$(mktemp -d) && cp value/tests/data/gen_jsoniter_cases.go "$dir" && (cd "$dir" &&
//	  go mod init gen >/dev/null 2>&1 &&
//	  go get github.com/json-iterator/go@v1.1.12 sigs.k8s.io/structured-merge-diff/v6/fieldpath@v6.4.2 >/dev/null 2>&1 &&
//	  go run gen_jsoniter_cases.go) > value/tests/data/jsoniter_cases.txt
//
// Each line is a mode, the input (with `\\` and `\xNN` escapes) and the outcome, tab-separated:
//
//	value   value.FromJSON                  OK <dump> | ERR <#N> <message>
//	pe      fieldpath.DeserializePathElement OK <dump> | ERR <#N> <message>
//	set     Set.FromJSON(bytes.Reader)       OK <trace> | ERR <#N> <message> <trace>
//	skip    Iterator.Skip over ParseBytes    OK <ended at io.EOF> | ERR <#N> <message>
//	skipstream  the same over Parse(reader, 4096)
//	objkeys / mapkeys  ReadObjectCB / ReadMapCB skipping each value: <verdict> [<keys>]
//
// <message> is Go's error text up to ", error found in #"; <#N> is the N of the last such context
// (-1 without). The set trace records what readIterV1 did, key by key (see traced), so that a
// port can check that it goes on after an error exactly as Go does.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"

	jsoniter "github.com/json-iterator/go"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

var cfg = jsoniter.ConfigCompatibleWithStandardLibrary

func esc(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		switch {
		case c == '\\':
			sb.WriteString(`\\`)
		case c >= 0x20 && c < 0x7f:
			sb.WriteByte(c)
		default:
			fmt.Fprintf(&sb, `\x%02x`, c)
		}
	}
	return sb.String()
}

// lossy mirrors Rust's String::from_utf8_lossy (maximal subparts).
func lossy(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			out = append(out, c)
			i++
			continue
		}
		n := 0
		lo, hi := byte(0x80), byte(0xbf)
		switch {
		case c >= 0xc2 && c <= 0xdf:
			n = 2
		case c == 0xe0:
			n, lo = 3, 0xa0
		case c >= 0xe1 && c <= 0xec, c == 0xee, c == 0xef:
			n = 3
		case c == 0xed:
			n, hi = 3, 0x9f
		case c == 0xf0:
			n, lo = 4, 0x90
		case c >= 0xf1 && c <= 0xf3:
			n = 4
		case c == 0xf4:
			n, hi = 4, 0x8f
		}
		if n == 0 {
			out = append(out, "\uFFFD"...)
			i++
			continue
		}
		j := i + 1
		ok := true
		for k := 1; k < n; k++ {
			if j >= len(b) {
				ok = false
				break
			}
			l, h := byte(0x80), byte(0xbf)
			if k == 1 {
				l, h = lo, hi
			}
			if b[j] < l || b[j] > h {
				ok = false
				break
			}
			j++
		}
		if ok {
			out = append(out, b[i:j]...)
		} else {
			out = append(out, "\uFFFD"...)
		}
		i = j
	}
	return out
}

func dump(v interface{}) string {
	switch x := v.(type) {
	case nil:
		return "n"
	case bool:
		if x {
			return "t"
		}
		return "f"
	case float64:
		return fmt.Sprintf("d%016x", math.Float64bits(x))
	case string:
		return `s"` + esc(lossy([]byte(x))) + `"`
	case []interface{}:
		parts := []string{}
		for _, e := range x {
			parts = append(parts, dump(e))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case map[string]interface{}:
		keys := []string{}
		for k := range x {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return string(lossy([]byte(keys[i]))) < string(lossy([]byte(keys[j]))) })
		parts := []string{}
		for _, k := range keys {
			parts = append(parts, `"`+esc(lossy([]byte(k)))+`":`+dump(x[k]))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return fmt.Sprintf("?%T", v)
}

// stable cuts Go's error at the first ", error found in #"; n is the #N of the last context.
func stable(err error) (string, int) {
	s := err.Error()
	n := -1
	if i := strings.LastIndex(s, ", error found in #"); i >= 0 {
		rest := s[i+len(", error found in #"):]
		j := strings.IndexByte(rest, ' ')
		n, _ = strconv.Atoi(rest[:j])
	}
	if i := strings.Index(s, ", error found in #"); i >= 0 {
		s = s[:i]
	}
	return s, n
}

func errLine(in []byte, err error, extra string) string {
	s, n := stable(err)
	line := fmt.Sprintf("%s\tERR\t%d\t%s", esc(in), n, esc(lossy([]byte(s))))
	if extra != "" {
		line += "\t" + extra
	}
	return line
}

// traced mirrors readIterV1's control flow and records what it does, so the
// Rust side can check that its reader continues after an error exactly as Go's.
func traced(iter *jsoniter.Iterator, tr *[]string) (children *fieldpath.Set, isMember bool) {
	iter.ReadMapCB(func(iter *jsoniter.Iterator, key string) bool {
		if key == "." {
			isMember = true
			*tr = append(*tr, ".")
			iter.Skip()
			return true
		}
		_, err := fieldpath.DeserializePathElement(key)
		if err == fieldpath.ErrUnknownPathElementType {
			*tr = append(*tr, "u")
			iter.Skip()
			return true
		} else if err != nil {
			*tr = append(*tr, "e")
			iter.ReportError("parsing key as path element", err.Error())
			iter.Skip()
			return true
		}
		*tr = append(*tr, "("+esc([]byte(key)))
		grandchildren, childIsMember := traced(iter, tr)
		if childIsMember {
			*tr = append(*tr, "m")
			if children == nil {
				children = &fieldpath.Set{}
			}
		}
		if grandchildren != nil {
			*tr = append(*tr, "c")
			if children == nil {
				children = &fieldpath.Set{}
			}
		}
		*tr = append(*tr, ")")
		return true
	})
	if children == nil {
		isMember = true
	}
	return children, isMember
}

func setCase(in []byte) string {
	s := fieldpath.NewSet()
	err := s.FromJSON(bytes.NewReader(in))
	iter := jsoniter.Parse(cfg, bytes.NewReader(in), 4096)
	var tr []string
	traced(iter, &tr)
	var err2 error
	if iter.Error != nil {
		err2 = iter.Error
	} else if iter.WhatIsNext(); iter.Error == nil {
		iter.ReportError("managedFields parsing", "unexpected trailing data after JSON object")
		err2 = iter.Error
	} else if iter.Error != io.EOF {
		err2 = iter.Error
	}
	if fmt.Sprint(err) != fmt.Sprint(err2) {
		panic(fmt.Sprintf("mirror differs for %q: %v vs %v", in, err, err2))
	}
	trace := strings.Join(tr, " ")
	if err != nil {
		return errLine(in, err, trace)
	}
	return fmt.Sprintf("%s\tOK\t%s", esc(in), trace)
}

func peDump(pe fieldpath.PathElement) string {
	switch {
	case pe.FieldName != nil:
		return "f:" + esc([]byte(*pe.FieldName))
	case pe.Value != nil:
		return "v:" + dump((*pe.Value).Unstructured())
	case pe.Key != nil:
		parts := []string{}
		for _, f := range *pe.Key {
			parts = append(parts, esc(lossy([]byte(f.Name)))+"="+dump(f.Value.Unstructured()))
		}
		return "k:" + strings.Join(parts, ";")
	case pe.Index != nil:
		return fmt.Sprintf("i:%d", *pe.Index)
	}
	return "?"
}

var rng = rand.New(rand.NewPCG(3, 4))

func pick(options ...string) string { return options[rng.IntN(len(options))] }

var space = []string{"", "", "", " ", "\n", "\t", "\r", "  "}

func ws() string { return space[rng.IntN(len(space))] }

func str() string {
	var sb strings.Builder
	sb.WriteByte('"')
	for n := rng.IntN(5); n > 0; n-- {
		sb.WriteString(pick("a", "b", "xyz", "\\n", "\\\"", "\\\\", "\\/", "\\u0041", "\\u00e9",
			"\\ud83d\\ude02", "\\ud800", "\\udc00x", "\\ud800\\u0041", "\\ud800\\n", "\\ud800\\ud800",
			"\\uzzzz", "\\x41", "\\q", "\x01", "\x1f", "\xff", "\xc3\xa9", "\xe2\x82", "é", " ", "<&>",
			"\\u00", "\\"))
	}
	if rng.IntN(12) > 0 {
		sb.WriteByte('"')
	}
	return sb.String()
}

func num() string {
	return pick("0", "1", "-1", "42", "1.5", "-0", "0.5", "1e3", "1E-3", "-1.25e+2", "123456789.123456",
		"9007199254740993", "1e400", "-1e400", "01", "-01", "-01e1", "00", "1.", "-1.", ".5", "-.5", "-.5e1",
		"-.5e", "-.5-", "--1", "-+1", "+1", "1.2.3", "1..2", "1e", "1e+", "1ee2", "1e5.5", "0e1", "0.5e40",
		"0.5e-50", "0x1", "-", "1.0000001", "0.0000001", "-0.5e99999999999999999999", "-.5e2147483647",
		"-01.5e-2147483648", "18446744073709551616", "1_0")
}

func value_(depth int) string {
	if depth > 3 {
		return pick(num(), str(), "null", "true")
	}
	switch rng.IntN(10) {
	case 0, 1:
		return num()
	case 2, 3:
		return str()
	case 4:
		return pick("null", "true", "false", "nul", "tru", "fals", "nulx", "truex", "n", "t")
	case 5, 6:
		var parts []string
		for n := rng.IntN(4); n > 0; n-- {
			parts = append(parts, ws()+value_(depth+1)+ws())
		}
		return "[" + strings.Join(parts, pick(",", ",", ",", ",,", " ", ":")) + pick("]", "]", "]", "}", "")
	default:
		var parts []string
		for n := rng.IntN(4); n > 0; n-- {
			key := pick(str(), `"k"`, `"a"`, `"a"`, "null", "1", "k", "")
			parts = append(parts, ws()+key+ws()+pick(":", ":", ":", "", "::", " ")+ws()+value_(depth+1))
		}
		return "{" + strings.Join(parts, pick(",", ",", ",", ",,", " ")) + pick("}", "}", "}", "]", "")
	}
}

// fieldsKey makes a fieldsV1 key: the known kinds, unknown ones, and broken ones.
func fieldsKey() string {
	k := pick("f:a", "f:b", "f:", "f:\\u0041", "f:\xff", "f:a\\\"b", ".", ".", "x:y", "r:", "", "z", "zz",
		"i:0", "i:7", "i:-1", "i:+2", "i:x", "i: 1", "i:99999999999999999999",
		"v:1", "v:1.0", "v:\\\"s\\\"", "v:null", "v:[1,2]", "v:{\\\"a\\\":1}", "v:", "v:1 2", "v:1e400", "v:01",
		"v:[1,", "v:\\\"\\\\x41\\\"", "v: 3 ", "v:tru",
		"k:{\\\"name\\\":\\\"a\\\"}", "k:{\\\"a\\\":1,\\\"a\\\":2}", "k:{}", "k:null", "k:[]", "k:{\\\"a\\\" 1}",
		"k:{\\\"a\\\":}", "k:{\\\"a\\\":1", "k:{\\\"a\\\":1} x", "k:{\\\"a\\\":1,}")
	if rng.IntN(15) == 0 {
		return `"` + k
	}
	return `"` + k + `"`
}

func fields(depth int) string {
	if depth > 3 || rng.IntN(5) == 0 {
		return pick("{}", "{}", "null", "1", "[]", `"s"`, "{", "")
	}
	var parts []string
	for n := rng.IntN(4); n > 0; n-- {
		key := fieldsKey()
		var val string
		if strings.HasPrefix(key, `"."`) || strings.HasPrefix(key, `"x:`) || rng.IntN(6) == 0 {
			val = value_(2)
		} else {
			val = fields(depth + 1)
		}
		parts = append(parts, ws()+key+ws()+pick(":", ":", ":", ":", "", " ")+ws()+val)
	}
	return "{" + strings.Join(parts, pick(",", ",", ",", ",", ",,", " ")) + pick("}", "}", "}", "}", "]", "")
}

func mutate(s string) string {
	if s == "" || rng.IntN(3) > 0 {
		return s
	}
	i := rng.IntN(len(s))
	switch rng.IntN(4) {
	case 0:
		return s[:i] + s[i+1:]
	case 1:
		return s[:i] + pick("{", "}", "[", "]", ",", ":", `"`, "\\", " ", "n", "-", "0", ".", "e") + s[i:]
	case 2:
		return s[:i]
	default:
		return s + pick(" ", "}", "x", "{}", " 1", "\x00")
	}
}

// straddle puts a token across the end of json-iterator's 4096-byte buffer, where its fast
// paths stop and its slow paths take over: as the value of "." (skipped) or as a key (read).
func straddle(token string, shift int, asKey bool) string {
	pad := strings.Repeat(" ", 4090+shift)
	if asKey {
		return "{" + pad + token + `:{}}`
	}
	return `{".":` + pad + token + "}"
}

// unquoteKey turns a quoted key from fieldsKey into the key itself, as a fieldsV1 reader would.
func unquoteKey(quoted string) string {
	iter := jsoniter.ParseString(cfg, quoted)
	key := iter.ReadString()
	if iter.Error != nil && iter.Error != io.EOF {
		return strings.Trim(quoted, `"`)
	}
	return key
}

func main() {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	emit := func(mode string, in []byte) {
		fmt.Fprintf(w, "%s\t%s\n", mode, run(mode, in))
	}
	for i := 0; i < 700; i++ {
		emit("value", []byte(mutate(ws()+value_(0)+ws())))
	}
	for i := 0; i < 300; i++ {
		emit("skip", []byte(mutate(value_(0)+ws())))
		emit("skipstream", []byte(mutate(value_(0)+ws())))
	}
	for i := 0; i < 250; i++ {
		in := []byte(mutate(value_(0)))
		emit("objkeys", in)
		emit("mapkeys", in)
	}
	for i := 0; i < 500; i++ {
		emit("pe", []byte(mutate(unquoteKey(fieldsKey()))))
	}
	for i := 0; i < 900; i++ {
		emit("set", []byte(mutate(ws()+fields(0)+ws())))
	}
	// Buffer boundaries: strings with raw control characters or escapes, numbers with leading
	// zeros or odd forms, each placed so the 4096-byte boundary falls inside or next to it.
	for _, token := range []string{"\"ab\x01cd\"", "\"ab\\ncd\"", "\"\\u0041\x01\"", "0123", "-0123", "1.5e3",
		"-.5e1", "123.456", "0.5e40", "nul", "null", "[1,2]", `{"a":1}`, "1e400", "\"f:ab\x01cd\"",
		"\"f:\\u0041\x01\"", "\"f:abcdefgh\""} {
		for shift := -5; shift <= 4; shift++ {
			emit("set", []byte(straddle(token, shift, false)))
			if strings.HasPrefix(token, `"`) {
				emit("set", []byte(straddle(token, shift, true)))
			}
		}
	}
}

func run(mode string, in []byte) string {
	switch mode {
	case "value":
		v, err := value.FromJSON(in)
		if err != nil {
			return errLine(in, err, "")
		}
		return fmt.Sprintf("%s\tOK\t%s", esc(in), dump(v.Unstructured()))
	case "pe":
		pe, err := fieldpath.DeserializePathElement(string(in))
		if err != nil {
			return errLine(in, err, "")
		}
		return fmt.Sprintf("%s\tOK\t%s", esc(in), peDump(pe))
	case "set":
		return setCase(in)
	case "skip", "skipstream":
		iter := jsoniter.ParseBytes(cfg, in)
		if mode == "skipstream" {
			iter = jsoniter.Parse(cfg, bytes.NewReader(in), 4096)
		}
		iter.Skip()
		if iter.Error != nil && iter.Error != io.EOF {
			return errLine(in, iter.Error, "")
		}
		return fmt.Sprintf("%s\tOK\t%v", esc(in), iter.Error == io.EOF)
	default:
		iter := jsoniter.ParseBytes(cfg, in)
		keys := []string{}
		cb := func(it *jsoniter.Iterator, k string) bool {
			keys = append(keys, esc([]byte(k)))
			it.Skip()
			return true
		}
		var ok bool
		if mode == "objkeys" {
			ok = iter.ReadObjectCB(cb)
		} else {
			ok = iter.ReadMapCB(cb)
		}
		trace := fmt.Sprintf("%v [%s]", ok, strings.Join(keys, ","))
		if iter.Error != nil && iter.Error != io.EOF {
			return errLine(in, iter.Error, trace)
		}
		return fmt.Sprintf("%s\tOK\t%s", esc(in), trace)
	}
}
