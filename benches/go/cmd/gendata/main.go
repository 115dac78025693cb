// Command gendata writes the operand data of the field-set benchmarks.
//
// Upstream's BenchmarkFieldSet (sigs.k8s.io/structured-merge-diff/v6 fieldpath/set_test.go)
// builds its operands with unseeded math/rand, so two runs never time the same sets. To compare
// Go and Rust on identical work, this program reproduces upstream's path alphabet and generator
// (randomPathAlphabet.makePath, makeSet) from a fixed seed and stores the results as fieldsV1
// files that both benchmark suites load:
//
//	<out>/<size>/NN.json      operand set NN (00..49), the set's ToJSON bytes
//	<out>/<size>/insert.jsonl the paths of one upstream makeSet call, in generation order
//	                          (duplicates kept), one single-path fieldsV1 object per line
//	<out>/<size>/has.jsonl    independently generated paths for the has benchmark, same format
//
// Paths are stored one per line rather than as one set because a set would sort and dedupe
// them, and insertion order changes what Insert costs.
//
// Usage (from benches/go):
//
//	go run ./cmd/gendata -out ../data/fieldset
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// alphabet is upstream's randomPathMaker alphabet, element for element and in the same order.
var alphabet = fieldpath.MakePathOrDie(
	"aaa",
	"aab",
	"aac",
	"aad",
	"aae",
	"aaf",
	// All alphabets
	"abcdefghijklmnopqrstuvwxyz",
	"ABCDEFGHIJKLMNOPQRSTUVWXYZ",
	// Keys
	fieldpath.KeyByFields("name", "привет"),
	fieldpath.KeyByFields("name", "你好"),
	fieldpath.KeyByFields("name", "こんにちは"),
	fieldpath.KeyByFields("name", "안녕하세요"),
	fieldpath.KeyByFields("name", "مرحبا"),
	fieldpath.KeyByFields("name", "first"),
	fieldpath.KeyByFields("name", "second"),
	fieldpath.KeyByFields("port", 443, "protocol", "tcp"),
	fieldpath.KeyByFields("port", 443, "protocol", "udp"),
	fieldpath.KeyByFields("key", " value with spaces "),
	fieldpath.KeyByFields("lang", "en-US"),
	fieldpath.KeyByFields("unicode-key", "unicode-value-🔥"),
	// Values
	value.NewValueInterface(1),
	value.NewValueInterface(2),
	value.NewValueInterface(3),
	value.NewValueInterface("aa"),
	value.NewValueInterface("ab"),
	value.NewValueInterface(true),
	value.NewValueInterface(0),
	value.NewValueInterface(-1),
	value.NewValueInterface(3.14159),
	value.NewValueInterface("string with spaces"),
	value.NewValueInterface("string with \"quotes\""),
	value.NewValueInterface("unicode-string-你好"),
	value.NewValueInterface(false),
	// Indices
	1, 2, 3, 4, 0, 5, 100, 2147483648,
)

// Size is one row of upstream's benchmark table.
type Size struct {
	Paths, MinLen, MaxLen int
}

// Sizes are upstream's (paths, minPathLen, maxPathLen) cases.
var Sizes = []Size{
	{20, 2, 3},
	{50, 2, 4},
	{100, 3, 6},
	{500, 3, 7},
	{1000, 3, 8},
}

type generator struct{ rng *rand.Rand }

// makePath is upstream's randomPathAlphabet.makePath: maxLen is exclusive.
func (g generator) makePath(minLen, maxLen int) fieldpath.Path {
	n := minLen
	if minLen < maxLen {
		n += g.rng.Intn(maxLen - minLen)
	}
	var p fieldpath.Path
	for i := 0; i < n; i++ {
		p = append(p, alphabet[g.rng.Intn(len(alphabet))])
	}
	return p
}

func (g generator) makePaths(sz Size, n int) []fieldpath.Path {
	paths := make([]fieldpath.Path, n)
	for i := range paths {
		paths[i] = g.makePath(sz.MinLen, sz.MaxLen)
	}
	return paths
}

func main() {
	out := flag.String("out", "../data/fieldset", "output directory")
	seed := flag.Int64("seed", 20260101, "math/rand seed")
	operands := flag.Int("operands", 50, "operand sets per size")
	hasPaths := flag.Int("has-paths", 500, "paths per size for the has benchmark")
	flag.Parse()

	// One generator for everything, sizes in upstream's order: the files depend only on the seed.
	g := generator{rand.New(rand.NewSource(*seed))}
	for _, sz := range Sizes {
		dir := filepath.Join(*out, fmt.Sprint(sz.Paths))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fail(err)
		}
		for i := 0; i < *operands; i++ {
			// Upstream's makeSet: size random paths inserted into a new set.
			set := fieldpath.NewSet(g.makePaths(sz, sz.Paths)...)
			writeSet(filepath.Join(dir, fmt.Sprintf("%02d.json", i)), set)
		}
		writePaths(filepath.Join(dir, "insert.jsonl"), g.makePaths(sz, sz.Paths))
		writePaths(filepath.Join(dir, "has.jsonl"), g.makePaths(sz, *hasPaths))
	}
}

// writeSet writes set's fieldsV1 bytes after checking that they read back as the same set.
func writeSet(name string, set *fieldpath.Set) {
	data, err := set.ToJSON()
	if err != nil {
		fail(fmt.Errorf("%s: %w", name, err))
	}
	var back fieldpath.Set
	if err := back.FromJSON(bytes.NewReader(data)); err != nil {
		fail(fmt.Errorf("%s: reading back: %w", name, err))
	}
	if !back.Equals(set) {
		fail(fmt.Errorf("%s: does not read back as the set written", name))
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		fail(err)
	}
}

// writePaths writes each path as a one-path fieldsV1 object on its own line, after checking that
// the line reads back as exactly that path.
func writePaths(name string, paths []fieldpath.Path) {
	var buf bytes.Buffer
	for _, p := range paths {
		data, err := fieldpath.NewSet(p).ToJSON()
		if err != nil {
			fail(fmt.Errorf("%s: %v: %w", name, p, err))
		}
		var back fieldpath.Set
		if err := back.FromJSON(bytes.NewReader(data)); err != nil {
			fail(fmt.Errorf("%s: %v: reading back: %w", name, p, err))
		}
		if back.Size() != 1 || !back.Has(p) {
			fail(fmt.Errorf("%s: %v does not read back as one path", name, p))
		}
		buf.Write(data)
		buf.WriteByte('\n')
	}
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gendata:", err)
	os.Exit(1)
}
