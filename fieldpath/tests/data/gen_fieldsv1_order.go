//go:build ignore

// Generates fieldsv1_order.txt: fieldsV1 documents whose sibling keys arrive out of Go's order,
// repeat, or compare equal while differing (v:0 and v:-0), and the set structured-merge-diff
// v6.4.2's Set.FromJSON makes of each, as its ToJSON bytes, so that smd's reader, which sorts a
// node once instead of inserting key by key, can be checked to leave what Go's insertions leave
// (fieldpath/tests/fieldsv1_order.rs).
//
// Regenerate (needs Go and the module, which the Go module proxy serves):
//
//	dir=$(mktemp -d) && cp fieldpath/tests/data/gen_fieldsv1_order.go "$dir" && (cd "$dir" &&
//	  go mod init gen >/dev/null 2>&1 &&
//	  go get sigs.k8s.io/structured-merge-diff/v6/fieldpath@v6.4.2 >/dev/null 2>&1 &&
//	  go run gen_fieldsv1_order.go) > fieldpath/tests/data/fieldsv1_order.txt
//
// Each line: the input, then OK or ERR (FromJSON's error), then ToJSON of the set FromJSON
// left (on an error, the part it read), tab-separated. Inputs are printable ASCII.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

var rng = rand.New(rand.NewPCG(20261203, 11))

// keys is the pool of sibling keys: every kind, and pairs that compare equal but are written
// differently (v:0 and v:-0, k: fields in either order, v:1 and v:1.0).
var keys = []string{
	`"f:a"`, `"f:b"`, `"f:c"`, `"f:"`, `"v:0"`, `"v:-0"`, `"v:1"`, `"v:1.0"`, `"v:-1.5"`,
	`"v:\"s\""`, `"v:true"`, `"v:null"`, `"v:[1]"`, `"v:{\"a\":1}"`,
	`"k:{\"a\":1}"`, `"k:{\"a\":1,\"b\":2}"`, `"k:{\"b\":2,\"a\":1}"`, `"k:{\"a\":-0}"`,
	`"k:{\"a\":0}"`, `"i:0"`, `"i:1"`, `"i:-1"`, `"i:01"`, `"x:dropped"`,
}

func node(depth int) string {
	if depth > 2 || rng.IntN(3) == 0 {
		return "{}"
	}
	var parts []string
	if rng.IntN(4) == 0 {
		parts = append(parts, `".":{}`)
	}
	for n := rng.IntN(7); n > 0; n-- {
		parts = append(parts, keys[rng.IntN(len(keys))]+":"+node(depth+1))
	}
	if rng.IntN(30) == 0 {
		// An invalid key: Go reports it and goes on, so the set is partial.
		parts = append(parts, `"i:x":{}`)
	}
	rng.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
	return "{" + strings.Join(parts, ",") + "}"
}

func main() {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	inputs := []string{
		`{"v:0":{"f:a":{}},"v:-0":{"f:b":{}}}`,
		`{"v:-0":{"f:a":{}},"v:0":{"f:b":{}}}`,
		`{"v:-0":{},"v:0":{}}`,
		`{"v:0":{},"v:-0":{}}`,
		`{"f:a":{"f:x":{}},"f:a":{}}`,
		`{"f:a":{},"f:a":{"f:x":{}}}`,
		`{"f:a":{"f:x":{}},"f:a":{"f:y":{}}}`,
		`{"f:a":{".":{},"f:x":{}},"f:a":{"f:y":{}}}`,
		`{"f:b":{},"i:x":{},"f:a":{}}`,
		`{"i:2":{},"v:1":{},"k:{\"a\":1}":{},"f:z":{}}`,
		`{"k:{\"a\":-0}":{"f:x":{}},"k:{\"a\":0}":{"f:y":{}},"f:a":{}}`,
	}
	for i := 0; i < 600; i++ {
		inputs = append(inputs, node(0))
	}
	for _, in := range inputs {
		s := fieldpath.NewSet()
		err := s.FromJSON(bytes.NewReader([]byte(in)))
		verdict := "OK"
		if err != nil {
			verdict = "ERR"
		}
		out, jerr := s.ToJSON()
		if jerr != nil {
			panic(jerr)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", in, verdict, out)
	}
}
