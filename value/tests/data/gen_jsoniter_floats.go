//go:build ignore

// Generates jsoniter_floats.txt: number texts and what Go's structured-merge-diff
// value.FromJSON (json-iterator v1.1.12) reads them as, to pin smd's float reading bit for bit.
//
// Regenerate (needs Go and the two modules, which the Go module proxy serves):
//
//	dir=$(mktemp -d) && cp value/tests/data/gen_jsoniter_floats.go "$dir" && (cd "$dir" &&
//	  go mod init gen >/dev/null 2>&1 &&
//	  go get github.com/json-iterator/go@v1.1.12 sigs.k8s.io/structured-merge-diff/v6/value@v6.4.2 >/dev/null 2>&1 &&
//	  go run gen_jsoniter_floats.go) > value/tests/data/jsoniter_floats.txt
//
// Each line: the input with `\\` and `\xNN` escapes, a tab, then `OK`, a tab and the float64
// bits in hex, or `ERR`, a tab and Go's error text up to ", error found in #". The random
// choices are seeded, so the file only changes when the generator does.
package main

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/value"
)

var rng = rand.New(rand.NewPCG(1, 2))

func digits(n int) string {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		sb.WriteByte(byte('0' + rng.IntN(10)))
	}
	return sb.String()
}

// nonZeroLead returns n random digits whose first is not 0.
func nonZeroLead(n int) string {
	return string(byte('1'+rng.IntN(9))) + digits(n-1)
}

// exactDecimal writes the binary value m·2^e exactly in decimal, as "<digits>e<exp>".
func exactDecimal(m *big.Int, e int) (string, int) {
	if e >= 0 {
		return new(big.Int).Lsh(m, uint(e)).String(), 0
	}
	five := new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(-e)), nil)
	return new(big.Int).Mul(m, five).String(), e
}

// halfway returns the exact decimal midpoint between x and the next float64 above it,
// plus texts just below and just above it.
func halfway(x float64) []string {
	bits := math.Float64bits(x)
	mant := bits & (1<<52 - 1)
	exp := int(bits >> 52 & 0x7ff)
	if exp == 0 {
		exp = 1
	} else {
		mant |= 1 << 52
	}
	// midpoint = (2·mant + 1) · 2^(exp - 1075 - 1)
	m := new(big.Int).SetUint64(2*mant + 1)
	d, e := exactDecimal(m, exp-1076)
	below := new(big.Int)
	below.SetString(d, 10)
	below.Sub(below, big.NewInt(1))
	return []string{
		fmt.Sprintf("%se%d", d, e),
		fmt.Sprintf("%s9999999e%d", below.String(), e-7),
		fmt.Sprintf("%s0000001e%d", d, e-7),
	}
}

func randomFloat() float64 {
	for {
		f := math.Float64frombits(rng.Uint64() &^ (1 << 63))
		if !math.IsInf(f, 0) && !math.IsNaN(f) && f < math.MaxFloat64 {
			return f
		}
	}
}

func texts() []string {
	var out []string
	add := func(s ...string) { out = append(out, s...) }
	// Fast-path shapes: up to 16 digits, up to 6 decimal places.
	for i := 0; i < 600; i++ {
		n := 1 + rng.IntN(16)
		d := nonZeroLead(n)
		places := rng.IntN(7)
		if places > 0 && places < n {
			d = d[:n-places] + "." + d[n-places:]
		} else if places > 0 {
			d = "0." + d
		}
		if rng.IntN(4) == 0 {
			d = "-" + d
		}
		add(d)
	}
	// Integers around the fast path's limits.
	for _, base := range []uint64{1 << 53, 1 << 63, math.MaxUint64 / 10, math.MaxUint64 - 20} {
		for delta := uint64(0); delta < 12; delta++ {
			add(fmt.Sprint(base + delta))
		}
	}
	add("18446744073709551615", "18446744073709551616", "99999999999999999999", "100000000000000000000")
	add("9007199254740993.5", "9007199254740991.5", "900719925474099.15", "4503599627370497.5")
	// Slow-path decimals: more places, more digits.
	for i := 0; i < 500; i++ {
		n := 7 + rng.IntN(24)
		d := nonZeroLead(n)
		cut := rng.IntN(n)
		add(d[:cut+1] + "." + d[cut+1:])
		add("0." + strings.Repeat("0", rng.IntN(20)) + d)
	}
	// Exponents.
	for i := 0; i < 600; i++ {
		m := nonZeroLead(1 + rng.IntN(20))
		if rng.IntN(2) == 0 && len(m) > 1 {
			m = m[:1] + "." + m[1:]
		}
		e := rng.IntN(700) - 350
		sep := []string{"e", "E", "e+", "E-", "e-"}[rng.IntN(5)]
		if strings.HasSuffix(sep, "-") {
			e = -e
		}
		add(fmt.Sprintf("%s%s%d", m, sep, e))
	}
	// Halfway cases, normal and subnormal, and their neighbours.
	for i := 0; i < 300; i++ {
		add(halfway(randomFloat())...)
	}
	for i := 0; i < 40; i++ {
		add(halfway(math.Float64frombits(uint64(rng.IntN(1 << 20))))...)
	}
	add(halfway(math.MaxFloat64 * (1 - 1e-16))...)
	add(halfway(5e-324)...)
	add(halfway(1)...)
	// Shortest round-trip texts of random floats.
	for i := 0; i < 400; i++ {
		f := randomFloat()
		add(fmt.Sprint(f), fmt.Sprintf("%.17g", f), fmt.Sprintf("%.25e", f))
	}
	// Long mantissas, past Go's 800-digit decimal buffer.
	for i := 0; i < 40; i++ {
		add(nonZeroLead(50+rng.IntN(900)) + "e-" + fmt.Sprint(rng.IntN(700)))
	}
	for i := 0; i < 10; i++ {
		h := halfway(math.Float64frombits(uint64(rng.IntN(1<<40)) + 1))[0]
		mant, exp, _ := strings.Cut(h, "e")
		add(mant + strings.Repeat("0", 900) + "1e" + fmt.Sprint(mustAtoi(exp)-901))
	}
	// Over 800 digits before the point: Go's decimal fallback then misplaces the point, which
	// shows whenever its fast algorithm gives up (ties left open, subnormal or huge results).
	for i := 0; i < 60; i++ {
		for _, h := range halfway(randomFloat()) {
			mant, exp, _ := strings.Cut(h, "e")
			pad := 801 - len(mant) + rng.IntN(50)
			if pad < 0 {
				pad = rng.IntN(50)
			}
			add(mant + strings.Repeat("0", pad) + "e" + fmt.Sprint(mustAtoi(exp)-pad))
		}
		k := 801 + rng.IntN(200)
		m := nonZeroLead(k)
		for _, e := range []int{-k - 300, -k - 315, -k - 307, -k + 308, -k + 309, -k, -k - 330} {
			add(fmt.Sprintf("%se%d", m, e))
		}
		add(m + "." + digits(1+rng.IntN(30)) + "e" + fmt.Sprint(-k-310))
		add(m[:5] + "." + m[5:] + "e-320")
	}
	// Range edges and Go's exponent cap.
	add("1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "1e309",
		"2.4703282292062327e-324", "2.4703282292062328e-324", "4.9406564584124654e-324",
		"1e-400", "0e99999", "1e99999", "1e-99999", "1e100000", "0.000001e10005",
		"1e0000000000000000000000000000000001", "1"+strings.Repeat("0", 400)+"e-400",
		"0."+strings.Repeat("0", 400)+"1e400", "-0", "-0.0", "0.000000", "0.0000001", "0e0",
		"123456789012345678901234567890")
	// What json-iterator refuses or lets through.
	add("", "-", "--1", "-+1", "+1", ".5", "-.5", "01", "-01", "00", "0.", "1.", "1.e5", "1..2",
		"1.2.3", "1e", "1e+", "1e-", "1ee5", "1e5.5", "1e5e5", "1-2", "1+2", "0x10", "1E5",
		"1e+05", "0e", "5.", "-0.", "0.e1", "1.5E-3", "1_000", "١")
	return out
}

func mustAtoi(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}

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

func main() {
	for _, t := range texts() {
		// Alone (the number runs to the end: slow path) and followed by a space (fast path).
		for _, in := range []string{t, t + " "} {
			v, err := value.FromJSON([]byte(in))
			switch {
			case err != nil:
				msg := err.Error()
				if i := strings.Index(msg, ", error found in #"); i >= 0 {
					msg = msg[:i]
				}
				fmt.Printf("%s\tERR\t%s\n", esc([]byte(in)), esc([]byte(msg)))
			case v.IsFloat():
				fmt.Printf("%s\tOK\t%016x\n", esc([]byte(in)), math.Float64bits(v.AsFloat()))
			default:
				panic(fmt.Sprintf("%q read as %v", in, v))
			}
		}
	}
}
