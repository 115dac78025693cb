//go:build ignore

// gen_values writes values.jsonl: random pairs of values with what Go's structured-merge-diff
// says about them (value.Compare both ways, value.Equals, value.ToString, value.ToJSON), so the
// Rust tests can check smd's Value against Go without Go.
//
// Each line is a JSON object:
//
//	{"a": V, "b": V, "cmp": -1|0|1, "rcmp": Compare(b, a), "eq": bool,
//	 "str": ToString(a) or null, "json": ToJSON(a) or null, "err": ToJSON(a)'s error or null}
//
// V encodes a value with its Go type: null, true/false, a JSON string for a string,
// {"i": "<decimal>"} for an int64, {"f": "<16 hex digits of the bits>"} for a float64, a JSON
// array for a list, and {"m": [[key, V], ...]} for a map (entries in a seeded random order).
// "str" is null when a has a map of two or more entries (Go prints those in random order); "json"
// and "err" are null when ToJSON's error changed over 200 runs (Go picks the failing map entry
// in random order).
//
// Regenerate (from this directory; the Go modules come from the module cache):
//
//	GOFLAGS=-mod=mod go run gen_values.go > values.jsonl
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"

	"sigs.k8s.io/structured-merge-diff/v6/value"
)

var (
	ints   = []int64{-1, 0, 1, 2, 3, 1<<53 + 1, math.MaxInt64, math.MinInt64}
	floats = []float64{0, math.Copysign(0, -1), 1, 1.5, 2, -1, 0.1, 1e-7, 1e21, 1 << 53,
		9.223372036854776e18, -9.223372036854776e18, math.NaN(), math.Inf(1), math.Inf(-1)}
	strs = []string{"", "a", "b", "ab", "<&>", "é", "\u2028", "a\"b", "\n\x01", "\U0001F600", "\u00ad"}
	keys = []string{"a", "b", "c", "ab", "<", "é", ""}
)

func gen(r *rand.Rand, depth int) interface{} {
	return genFrom(r, depth, 0)
}

// genContainer is gen that returns a list or map two times in three.
func genContainer(r *rand.Rand, depth int) interface{} {
	if r.IntN(3) == 0 {
		return gen(r, depth)
	}
	return genFrom(r, depth, 7)
}

func genFrom(r *rand.Rand, depth, from int) interface{} {
	n := 7
	if depth > 0 {
		n = 9
	}
	switch from + r.IntN(n-from) {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2, 3:
		return ints[r.IntN(len(ints))]
	case 4, 5:
		return floats[r.IntN(len(floats))]
	case 6:
		return strs[r.IntN(len(strs))]
	case 7:
		l := []interface{}{}
		for i := r.IntN(4); i > 0; i-- {
			l = append(l, gen(r, depth-1))
		}
		return l
	default:
		m := map[string]interface{}{}
		for i := r.IntN(4); i > 0; i-- {
			m[keys[r.IntN(len(keys))]] = gen(r, depth-1)
		}
		return m
	}
}

// mutate returns a deep copy of v with at most one small change, so that pairs are often equal
// or nearly so.
func mutate(r *rand.Rand, v interface{}) interface{} {
	switch x := v.(type) {
	case []interface{}:
		l := make([]interface{}, 0, len(x)+1)
		for _, e := range x {
			l = append(l, e)
		}
		switch {
		case len(l) > 0 && r.IntN(3) > 0:
			i := r.IntN(len(l))
			l[i] = mutate(r, l[i])
		case r.IntN(2) == 0:
			l = append(l, gen(r, 1))
		case len(l) > 0:
			l = l[:len(l)-1]
		}
		return l
	case map[string]interface{}:
		m := map[string]interface{}{}
		for k, e := range x {
			m[k] = e
		}
		k := keys[r.IntN(len(keys))]
		switch e, ok := m[k]; {
		case ok && r.IntN(3) > 0:
			m[k] = mutate(r, e)
		case ok:
			delete(m, k)
		default:
			m[k] = gen(r, 1)
		}
		return m
	case int64:
		if r.IntN(2) == 0 {
			return float64(x)
		}
		return ints[r.IntN(len(ints))]
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<62 && r.IntN(2) == 0 {
			return int64(x)
		}
		return floats[r.IntN(len(floats))]
	default:
		if r.IntN(2) == 0 {
			return v
		}
		return gen(r, 0)
	}
}

var shuffle = rand.New(rand.NewPCG(13, 17))

func encode(v interface{}) interface{} {
	switch x := v.(type) {
	case nil, bool, string:
		return x
	case int64:
		return map[string]string{"i": strconv.FormatInt(x, 10)}
	case float64:
		return map[string]string{"f": fmt.Sprintf("%016x", math.Float64bits(x))}
	case []interface{}:
		l := []interface{}{}
		for _, e := range x {
			l = append(l, encode(e))
		}
		return l
	case map[string]interface{}:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		// Sorted, then shuffled by a seeded generator: the file is reproducible and the Rust side
		// still builds maps in unsorted orders.
		sort.Strings(keys)
		shuffle.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		entries := [][2]interface{}{}
		for _, k := range keys {
			entries = append(entries, [2]interface{}{k, encode(x[k])})
		}
		return map[string]interface{}{"m": entries}
	}
	panic(fmt.Sprintf("unexpected %T", v))
}

func hasBigMap(v interface{}) bool {
	switch x := v.(type) {
	case []interface{}:
		for _, e := range x {
			if hasBigMap(e) {
				return true
			}
		}
	case map[string]interface{}:
		if len(x) > 1 {
			return true
		}
		for _, e := range x {
			if hasBigMap(e) {
				return true
			}
		}
	}
	return false
}

func main() {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	r := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 1500; i++ {
		a := genContainer(r, 1+r.IntN(3))
		var b interface{}
		if r.IntN(3) == 0 {
			b = genContainer(r, 1+r.IntN(3))
		} else {
			b = mutate(r, a)
		}
		va, vb := value.NewValueInterface(a), value.NewValueInterface(b)
		line := map[string]interface{}{
			"a": encode(a), "b": encode(b),
			"cmp": value.Compare(va, vb), "rcmp": value.Compare(vb, va), "eq": value.Equals(va, vb),
			"str": nil, "json": nil, "err": nil,
		}
		if !hasBigMap(a) {
			line["str"] = value.ToString(va)
		}
		out, err := value.ToJSON(va)
		stable := true
		for j := 0; j < 200; j++ {
			out2, err2 := value.ToJSON(va)
			if (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) ||
				(err == nil && string(out) != string(out2)) {
				stable = false
			}
		}
		if stable {
			if err != nil {
				line["err"] = err.Error()
			} else {
				line["json"] = string(out)
			}
		}
		b2, err := json.Marshal(line)
		if err != nil {
			panic(err)
		}
		w.Write(b2)
		w.WriteByte('\n')
	}
}
