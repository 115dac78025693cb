//go:build ignore

// gen_floats writes floats.txt: for each float64, its bits and the two texts Go gives it, so the
// Rust tests can check smd's float formatting without Go.
//
// Each line is `<bits as 16 hex digits> <fmt %v text> <json-iterator text>`, where the
// json-iterator text is what ConfigCompatibleWithStandardLibrary's WriteFloat64 writes (the form
// fieldsV1 and value.ToJSON use), or `ERR:<message>` when it refuses the value.
//
// Regenerate (from this directory; json-iterator comes from the module cache):
//
//	GOFLAGS=-mod=mod go run gen_floats.go > floats.txt
package main

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"

	jsoniter "github.com/json-iterator/go"
)

func main() {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	var fs []float64
	add := func(f float64) { fs = append(fs, f, -f) }

	// Specials and extremes.
	for _, f := range []float64{0, 1, 0.5, 1.5, 2, 3, 10, 100, math.Inf(1), math.NaN(),
		math.MaxFloat64, math.SmallestNonzeroFloat64, 2.2250738585072014e-308, // smallest normal
		math.Nextafter(2.2250738585072014e-308, 0), // largest subnormal
		math.MaxInt64, math.MaxInt32, 1 << 53, 1<<53 + 2, 1.2345678901234568e17, 0.1, 0.2, 0.3,
		1.0 / 3, 2.0 / 3, math.Pi, math.E, 5e-324, 1.7976931348623157e308, 123456, 1234567,
		1e23, 8.41e21, 5e-310, 9007199254740993, 4.35, 0.000123, 1e100, 1e-100} {
		add(f)
	}
	// Every power of ten and its neighbours, across the whole range, and a few multiples near 1:
	// this crosses the thresholds of both forms (%v: exponent < -4 or >= 21; json: < 1e-6 or
	// >= 1e21) and exercises the longest digit strings.
	for e := -325; e <= 309; e++ {
		p := math.Pow10(e)
		fs = append(fs, p, math.Nextafter(p, 0), math.Nextafter(p, math.Inf(1)))
		if -30 <= e && e <= 30 {
			fs = append(fs, 1.5*p, 9.999999999999999*p, 1.2345678901234567*p)
		}
	}
	// Integral floats and short decimals.
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		fs = append(fs, float64(r.Int64N(1<<60)>>r.UintN(60)))
		fs = append(fs, -float64(r.IntN(100000))/math.Pow10(r.IntN(12)))
	}
	// Random bit patterns: every exponent, arbitrary mantissas, both signs.
	for i := 0; i < 1500; i++ {
		fs = append(fs, math.Float64frombits(r.Uint64()))
	}

	seen := map[uint64]bool{}
	for _, f := range fs {
		if seen[math.Float64bits(f)] {
			continue
		}
		seen[math.Float64bits(f)] = true
		s := jsoniter.ConfigCompatibleWithStandardLibrary.BorrowStream(nil)
		s.WriteFloat64(f)
		j := string(s.Buffer())
		if s.Error != nil {
			j = "ERR:" + s.Error.Error()
		}
		fmt.Fprintf(w, "%016x %v %s\n", math.Float64bits(f), f, j)
	}
}
