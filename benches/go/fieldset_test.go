// Package benches times Go's structured-merge-diff on the same data files as the Rust
// benchmarks in ../benches, so that benches/compare can report Go/Rust ratios.
package benches

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// dataDir holds the files written by ./cmd/gendata; go test runs in the package directory.
const dataDir = "../data/fieldset"

// sizes are upstream BenchmarkFieldSet's set sizes; each names a directory of dataDir.
var sizes = []int{20, 50, 100, 500, 1000}

// operandCount is how many NN.json operand sets each size directory holds.
const operandCount = 50

type fieldSetData struct {
	operands   []*fieldpath.Set
	serialized [][]byte
	// insertPaths are one upstream makeSet call's paths, in generation order.
	insertPaths []fieldpath.Path
	// hasPaths are the probes of the has benchmark.
	hasPaths []fieldpath.Path
}

func readSet(data []byte) (*fieldpath.Set, error) {
	s := fieldpath.NewSet()
	if err := s.FromJSON(bytes.NewReader(data)); err != nil {
		return nil, err
	}
	return s, nil
}

// readPaths reads a file of one-path fieldsV1 objects, one per line.
func readPaths(name string) ([]fieldpath.Path, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var paths []fieldpath.Path
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		s, err := readSet(sc.Bytes())
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, len(paths)+1, err)
		}
		var p fieldpath.Path
		n := 0
		s.Iterate(func(q fieldpath.Path) { p = q.Copy(); n++ })
		if n != 1 {
			return nil, fmt.Errorf("%s:%d: %d paths, want 1", name, len(paths)+1, n)
		}
		paths = append(paths, p)
	}
	return paths, sc.Err()
}

func loadFieldSetData(size int) (*fieldSetData, error) {
	dir := filepath.Join(dataDir, fmt.Sprint(size))
	d := &fieldSetData{}
	for i := 0; i < operandCount; i++ {
		name := filepath.Join(dir, fmt.Sprintf("%02d.json", i))
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		s, err := readSet(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		d.operands = append(d.operands, s)
		d.serialized = append(d.serialized, data)
	}
	var err error
	if d.insertPaths, err = readPaths(filepath.Join(dir, "insert.jsonl")); err != nil {
		return nil, err
	}
	if d.hasPaths, err = readPaths(filepath.Join(dir, "has.jsonl")); err != nil {
		return nil, err
	}
	return d, nil
}

// Sinks keep results alive so that no call can be optimised away.
var (
	sinkSet   *fieldpath.Set
	sinkBool  bool
	sinkBytes []byte
)

// BenchmarkFieldSet is upstream's BenchmarkFieldSet on stored operands. Upstream draws operands
// with math/rand on every iteration; here iteration i uses operand i%50 and, for binary
// operations, operand (i+1)%50 as the second operand, so Go and Rust do the same work.
func BenchmarkFieldSet(b *testing.B) {
	for _, size := range sizes {
		d, err := loadFieldSetData(size)
		if err != nil {
			b.Fatal(err)
		}
		ops, n := d.operands, len(d.operands)

		b.Run(fmt.Sprintf("insert-%v", size), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				x := fieldpath.NewSet()
				for _, p := range d.insertPaths {
					x.Insert(p)
				}
				sinkSet = x
			}
		})
		b.Run(fmt.Sprintf("has-%v", size), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkBool = ops[i%n].Has(d.hasPaths[i%len(d.hasPaths)])
			}
		})
		b.Run(fmt.Sprintf("serialize-%v", size), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkBytes, _ = ops[i%n].ToJSON()
			}
		})
		b.Run(fmt.Sprintf("deserialize-%v", size), func(b *testing.B) {
			b.ReportAllocs()
			s := fieldpath.NewSet()
			for i := 0; i < b.N; i++ {
				if err := s.FromJSON(bytes.NewReader(d.serialized[i%n])); err != nil {
					b.Fatal(err)
				}
			}
			sinkSet = s
		})
		b.Run(fmt.Sprintf("union-%v", size), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkSet = ops[i%n].Union(ops[(i+1)%n])
			}
		})
		b.Run(fmt.Sprintf("intersection-%v", size), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkSet = ops[i%n].Intersection(ops[(i+1)%n])
			}
		})
		b.Run(fmt.Sprintf("difference-%v", size), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkSet = ops[i%n].Difference(ops[(i+1)%n])
			}
		})
		b.Run(fmt.Sprintf("recursive-difference-%v", size), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkSet = ops[i%n].RecursiveDifference(ops[(i+1)%n])
			}
		})
		b.Run(fmt.Sprintf("leaves-%v", size), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkSet = ops[i%n].Leaves()
			}
		})
	}
}

// TestFieldSetData checks the stored data: every size has its operands, and the insert list
// holds one makeSet call's worth of paths.
func TestFieldSetData(t *testing.T) {
	for _, size := range sizes {
		d, err := loadFieldSetData(size)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.operands) != operandCount {
			t.Errorf("size %d: %d operands, want %d", size, len(d.operands), operandCount)
		}
		if len(d.insertPaths) != size {
			t.Errorf("size %d: %d insert paths, want %d", size, len(d.insertPaths), size)
		}
		if len(d.hasPaths) == 0 {
			t.Errorf("size %d: no has paths", size)
		}
		for i, s := range d.operands {
			out, err := s.ToJSON()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, d.serialized[i]) {
				t.Errorf("size %d operand %02d: does not serialize back to its file", size, i)
			}
		}
	}
}
