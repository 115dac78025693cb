package main

// Canonical JSON: the only way gogen writes JSON (goldens and serve lines).
//
// Results are built as trees of: nil, bool, string, int64, jNumber (a JSON
// number already formatted), []any and jObject. The writer sorts object keys
// by bytes and writes either the golden layout or a compact line. The golden
// layout is encoding/json's MarshalIndent(v, "", " ") (one space per level),
// except that a non-empty array whose elements are all scalars is written on
// one line, elements separated by ", " (paths and matrices stay readable).
//
// Strings: a string that is valid UTF-8 is written as a JSON string (only
// '"', '\\' and control characters are escaped; nothing else, so non-ASCII
// text stays readable). A string that is not valid UTF-8 is written as
// {"$base64": "<standard base64 with padding>"} of its bytes, which keeps
// every Go string lossless.
//
// Canonical values (value.Value's Unstructured form) keep Go's kinds; see
// canonicalValue.

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jObject is a JSON object; it is always written with sorted keys.
type jObject map[string]any

// jNumber is a JSON number written verbatim.
type jNumber string

// writeJSON renders a result tree. pretty selects the golden layout.
func writeJSON(v any, pretty bool) ([]byte, error) {
	var b bytes.Buffer
	if err := writeNode(&b, v, pretty, 0); err != nil {
		return nil, err
	}
	if pretty {
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

func writeNode(b *bytes.Buffer, v any, pretty bool, depth int) error {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case int:
		b.WriteString(strconv.Itoa(t))
	case int64:
		b.WriteString(strconv.FormatInt(t, 10))
	case jNumber:
		b.WriteString(string(t))
	case string:
		if !utf8.ValidString(t) {
			return writeNode(b, jObject{"$base64": base64.StdEncoding.EncodeToString([]byte(t))}, pretty, depth)
		}
		writeString(b, t)
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return nil
		}
		if pretty && allScalars(t) {
			b.WriteByte('[')
			for i, e := range t {
				if i > 0 {
					b.WriteString(", ")
				}
				if err := writeNode(b, e, false, 0); err != nil {
					return err
				}
			}
			b.WriteByte(']')
			return nil
		}
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(b, pretty, depth+1)
			if err := writeNode(b, e, pretty, depth+1); err != nil {
				return err
			}
		}
		newline(b, pretty, depth)
		b.WriteByte(']')
	case jObject:
		if len(t) == 0 {
			b.WriteString("{}")
			return nil
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			if !utf8.ValidString(k) {
				return genErrorf("internal: object key %q is not valid UTF-8", k)
			}
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(b, pretty, depth+1)
			writeString(b, k)
			b.WriteByte(':')
			if pretty {
				b.WriteByte(' ')
			}
			if err := writeNode(b, t[k], pretty, depth+1); err != nil {
				return err
			}
		}
		newline(b, pretty, depth)
		b.WriteByte('}')
	default:
		return genErrorf("internal: cannot write %T as JSON", v)
	}
	return nil
}

// allScalars reports whether every element is written without nesting (a
// string that is not UTF-8 becomes an object, so it does not count).
func allScalars(l []any) bool {
	for _, e := range l {
		switch t := e.(type) {
		case nil, bool, int, int64, jNumber:
		case string:
			if !utf8.ValidString(t) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func newline(b *bytes.Buffer, pretty bool, depth int) {
	if pretty {
		b.WriteByte('\n')
		for i := 0; i < depth; i++ {
			b.WriteByte(' ')
		}
	}
}

// writeString writes a valid UTF-8 string as a JSON string.
func writeString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// canonicalFloat renders a float64 so that it stays a float when read back:
// Go's shortest 'g' text, with ".0" appended when it has neither a '.' nor an
// exponent; non-finite values become {"$float": ...}.
func canonicalFloat(f float64) any {
	switch {
	case math.IsNaN(f):
		return jObject{"$float": "NaN"}
	case math.IsInf(f, 1):
		return jObject{"$float": "+Inf"}
	case math.IsInf(f, -1):
		return jObject{"$float": "-Inf"}
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return jNumber(s)
}

// canonicalKey escapes a map key of a canonical value. Keys starting with '$'
// get one more '$' in front, so that a map can never be mistaken for one of
// the tagged forms ({"$float": …}, {"$uint64": …}, {"$base64": …}); a key
// that is not valid UTF-8 becomes "$base64:" followed by the base64 of its
// bytes (unambiguous, since real keys starting with '$' were doubled).
func canonicalKey(k string) string {
	if !utf8.ValidString(k) {
		return "$base64:" + base64.StdEncoding.EncodeToString([]byte(k))
	}
	if strings.HasPrefix(k, "$") {
		return "$" + k
	}
	return k
}

// canonicalValue converts the Unstructured() form of a value.Value (what
// yaml.v2 or value.FromJSON produced) into a result tree.
func canonicalValue(v any) (any, error) {
	switch t := v.(type) {
	case nil:
		return nil, nil
	case bool:
		return t, nil
	case string:
		return t, nil
	case int:
		return int64(t), nil
	case int8:
		return int64(t), nil
	case int16:
		return int64(t), nil
	case int32:
		return int64(t), nil
	case int64:
		return t, nil
	case uint:
		// value.Value reads it as int64(t); yaml.v2 never produces it.
		return int64(t), nil
	case uint8:
		return int64(t), nil
	case uint16:
		return int64(t), nil
	case uint32:
		return int64(t), nil
	case uint64:
		return jObject{"$uint64": strconv.FormatUint(t, 10)}, nil
	case float32:
		return canonicalFloat(float64(t)), nil
	case float64:
		return canonicalFloat(t), nil
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			c, err := canonicalValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case map[string]any:
		out := make(jObject, len(t))
		for k, e := range t {
			c, err := canonicalValue(e)
			if err != nil {
				return nil, err
			}
			out[canonicalKey(k)] = c
		}
		return out, nil
	case map[any]any:
		out := make(jObject, len(t))
		for k, e := range t {
			ks, ok := k.(string)
			if !ok {
				return nil, nonStringKeyError(k)
			}
			c, err := canonicalValue(e)
			if err != nil {
				return nil, err
			}
			out[canonicalKey(ks)] = c
		}
		return out, nil
	}
	return nil, genErrorf("a value holds a Go %T, which smd-goldens/v1 cannot express", v)
}

func nonStringKeyError(k any) error {
	return genErrorf("a YAML map has the non-string key %s (Go %T); smd-goldens/v1 cannot express it "+
		"(value.Value silently skips such keys when iterating) — quote the key", fmt.Sprintf("%#v", k), k)
}

// checkStringKeys fails when a yaml.v2 tree has a map key that is not a
// string: such a value cannot be written in a scenario-neutral way.
func checkStringKeys(v any) error {
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			if err := checkStringKeys(e); err != nil {
				return err
			}
		}
	case map[any]any:
		for k, e := range t {
			if _, ok := k.(string); !ok {
				return nonStringKeyError(k)
			}
			if err := checkStringKeys(e); err != nil {
				return err
			}
		}
	case map[string]any:
		for _, e := range t {
			if err := checkStringKeys(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// stableMessage cuts json-iterator's byte-offset context off an error text.
func stableMessage(msg string) string {
	if i := strings.Index(msg, ", error found in #"); i >= 0 {
		return msg[:i]
	}
	return msg
}

// errorNode describes an error returned by the Go libraries.
func errorNode(err error) jObject {
	msg := settleModalVerb(err.Error())
	return jObject{"message": msg, "stable": stableMessage(msg)}
}

// settleModalVerb undoes a deliberate randomness: the JSON package kube-openapi vendors
// (go-json-experiment) says "json: cannot …" or "json: unable to …", chosen once per process
// from Go's random map order, so that nobody depends on the wording. Goldens must not vary
// between runs, so they always say "cannot"; the replays inside one process cannot catch this.
func settleModalVerb(msg string) string {
	return strings.ReplaceAll(msg, "json: unable to ", "json: cannot ")
}

// errorResult is the whole result of an op that failed.
func errorResult(err error) jObject {
	return jObject{"error": errorNode(err)}
}
