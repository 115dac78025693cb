package main

// Reading the inputs of a case. Scenario files (YAML) and serve requests
// (JSON) are first turned into the same plain tree: map[string]any, []any,
// string, bool, int64, float64, nil. Everything below reads that tree and
// reports anything unexpected as a generator error (a malformed case), which
// is never written into a golden.

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// genError is a problem of the case itself (or of gogen), as opposed to an
// error returned by the Go libraries, which is a result.
type genError struct{ msg string }

func (e *genError) Error() string { return e.msg }

func genErrorf(format string, args ...any) error {
	return &genError{fmt.Sprintf(format, args...)}
}

func isGenError(err error) bool {
	var ge *genError
	return errors.As(err, &ge)
}

// plainTree converts what yaml.v2 or encoding/json (UseNumber) decoded into
// the plain tree described above.
func plainTree(where string, v any) (any, error) {
	switch t := v.(type) {
	case nil, bool, string, float64:
		return t, nil
	case int:
		return int64(t), nil
	case int64:
		return t, nil
	case uint64:
		return nil, genErrorf("%s: integer %d is out of range", where, t)
	case json.Number:
		if i, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return i, nil
		}
		f, err := t.Float64()
		if err != nil {
			return nil, genErrorf("%s: bad number %s", where, t)
		}
		return f, nil
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			c, err := plainTree(fmt.Sprintf("%s[%d]", where, i), e)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			ks, ok := k.(string)
			if !ok {
				return nil, genErrorf("%s: key %#v is not a string", where, k)
			}
			c, err := plainTree(where+"."+ks, e)
			if err != nil {
				return nil, err
			}
			out[ks] = c
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			c, err := plainTree(where+"."+k, e)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	}
	return nil, genErrorf("%s: unexpected %T", where, v)
}

// spec is one object of a case (the case itself, a value spec, a structured
// path element, a manager entry) with the keys read so far, so that unknown
// keys can be reported by finish.
type spec struct {
	where string
	m     map[string]any
	used  map[string]bool
}

func newSpec(where string, v any) (*spec, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, genErrorf("%s: expected a map, got %s", where, describe(v))
	}
	return &spec{where: where, m: m, used: map[string]bool{}}, nil
}

func (s *spec) at(key string) string { return s.where + "." + key }

func (s *spec) has(key string) bool {
	_, ok := s.m[key]
	return ok
}

func (s *spec) get(key string) (any, bool) {
	v, ok := s.m[key]
	if ok {
		s.used[key] = true
	}
	return v, ok
}

func (s *spec) need(key string) (any, error) {
	v, ok := s.get(key)
	if !ok {
		return nil, genErrorf("%s: missing %q", s.where, key)
	}
	return v, nil
}

func (s *spec) str(key string) (string, error) {
	v, err := s.need(key)
	if err != nil {
		return "", err
	}
	return asString(s.at(key), v)
}

func (s *spec) optStr(key string) (string, bool, error) {
	v, ok := s.get(key)
	if !ok {
		return "", false, nil
	}
	str, err := asString(s.at(key), v)
	return str, true, err
}

func (s *spec) optBool(key string) (bool, error) {
	v, ok := s.get(key)
	if !ok {
		return false, nil
	}
	b, isBool := v.(bool)
	if !isBool {
		return false, genErrorf("%s: expected true or false, got %s", s.at(key), describe(v))
	}
	return b, nil
}

func (s *spec) list(key string) ([]any, error) {
	v, err := s.need(key)
	if err != nil {
		return nil, err
	}
	return asList(s.at(key), v)
}

// finish reports the keys nobody read.
func (s *spec) finish() error {
	var unknown []string
	for k := range s.m {
		if !s.used[k] {
			unknown = append(unknown, strconv.Quote(k))
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	return genErrorf("%s: unknown key(s) %s", s.where, strings.Join(unknown, ", "))
}

// inputBytes reads exactly one of `input` (text) and `inputBase64`
// (standard base64 with padding).
func (s *spec) inputBytes() ([]byte, error) {
	text, hasText, err := s.optStr("input")
	if err != nil {
		return nil, err
	}
	b64, hasB64, err := s.optStr("inputBase64")
	if err != nil {
		return nil, err
	}
	switch {
	case hasText && hasB64:
		return nil, genErrorf("%s: give either \"input\" or \"inputBase64\", not both", s.where)
	case hasText:
		return []byte(text), nil
	case hasB64:
		b, err := base64.StdEncoding.Strict().DecodeString(b64)
		if err != nil {
			return nil, genErrorf("%s: bad base64: %v", s.at("inputBase64"), err)
		}
		return b, nil
	}
	return nil, genErrorf("%s: missing \"input\" (or \"inputBase64\")", s.where)
}

func asString(where string, v any) (string, error) {
	str, ok := v.(string)
	if !ok {
		return "", genErrorf("%s: expected a string, got %s", where, describe(v))
	}
	return str, nil
}

func asList(where string, v any) ([]any, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, genErrorf("%s: expected a list, got %s", where, describe(v))
	}
	return l, nil
}

func asInt(where string, v any) (int, error) {
	i, ok := v.(int64)
	if !ok {
		return 0, genErrorf("%s: expected an integer, got %s", where, describe(v))
	}
	if i < math.MinInt || i > math.MaxInt {
		return 0, genErrorf("%s: integer %d is out of range", where, i)
	}
	return int(i), nil
}

func asStringList(where string, v any) ([]string, error) {
	l, err := asList(where, v)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(l))
	for i, e := range l {
		if out[i], err = asString(fmt.Sprintf("%s[%d]", where, i), e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// sortedKeys lists a map's keys in byte order, so that work done per key
// (and the first error met) does not depend on Go's map iteration order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func describe(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		return "string " + strconv.Quote(t)
	case bool:
		return "boolean " + strconv.FormatBool(t)
	case int64:
		return "integer " + strconv.FormatInt(t, 10)
	case float64:
		return "number " + strconv.FormatFloat(t, 'g', -1, 64)
	case []any:
		return "a list"
	case map[string]any:
		return "a map"
	}
	return fmt.Sprintf("%T", v)
}
