package main

// kind: roundtrip — a body decoded into the Go type of its kind and encoded
// back, as the API server's JSON serializer does it
// (k8s.io/apimachinery/pkg/runtime/serializer/json with Strict: the YAML body
// made JSON by sigs.k8s.io/yaml, sigs.k8s.io/json's UnmarshalStrict into the
// scheme's type for the body's apiVersion and kind, then encoding/json's
// Marshal). No defaulting, no conversion.
//
//	op: decode, input: TEXT (one YAML or JSON object)
//
// Result: {"object": the marshalled object read back with ints preserved,
// "unknownFields": [paths of the strict errors]} or {"error": {"stable": TEXT}}
// (the decoder's fatal error).
//
// gogen quantities [--out FILE] writes the quantity corpus: edge texts and
// seeded random ones with what ParseQuantity and MarshalJSON make of each
// (default ../../smd/tests/data/quantities.json).

import (
	"encoding/json"
	"errors"
	"math/rand"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "sigs.k8s.io/json"
	sigsyaml "sigs.k8s.io/yaml"
)

func decodeRoundTripOp(op string, c *spec) (func() (any, error), error) {
	switch op {
	case "decode":
		input, err := c.inputBytes()
		if err != nil {
			return nil, err
		}
		return func() (any, error) { return roundTrip(input) }, nil
	}
	return nil, unknownOp(c, "roundtrip", op)
}

func roundTrip(input []byte) (any, error) {
	s, err := builtinScheme()
	if err != nil {
		return nil, err
	}
	data, err := sigsyaml.YAMLToJSON(input)
	if err != nil {
		return nil, genErrorf("the input is not YAML: %v", err)
	}
	var meta metav1.TypeMeta
	if err := json.Unmarshal(data, &meta); err != nil {
		return nil, genErrorf("the input has no apiVersion and kind: %v", err)
	}
	gv, err := schema.ParseGroupVersion(meta.APIVersion)
	if err != nil {
		return nil, genErrorf("apiVersion %q: %v", meta.APIVersion, err)
	}
	obj, err := s.New(gv.WithKind(meta.Kind))
	if err != nil {
		return nil, genErrorf("not a built-in kind: %v", err)
	}
	strictErrs, err := kjson.UnmarshalStrict(data, obj)
	if err != nil {
		return jObject{"error": jObject{"stable": err.Error()}}, nil
	}
	unknown := []any{}
	for _, e := range strictErrs {
		var fp interface{ FieldPath() string }
		if !errors.As(e, &fp) || !strings.HasPrefix(e.Error(), "unknown field ") {
			return nil, genErrorf("a strict error that is not an unknown field: %v", e)
		}
		unknown = append(unknown, fp.FieldPath())
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return jObject{"marshalError": err.Error()}, nil
	}
	var back any
	if err := kjson.UnmarshalCaseSensitivePreserveInts(out, &back); err != nil {
		return nil, err
	}
	object, err := canonicalValue(back)
	if err != nil {
		return nil, err
	}
	return jObject{"object": object, "unknownFields": unknown}, nil
}

func runQuantities(args []string) int {
	out, ok := parseOut("quantities", args, "file", "smd", "tests", "data", "quantities.json")
	if !ok {
		return 2
	}
	return writeCorpus("quantities", out, quantityCorpus())
}

// quantityEdges are texts chosen for the branches of ParseQuantity and
// CanonicalizeBytes: the int64 fast path and the decimal one, kept
// canonical texts, every suffix, rounding up to nano, the binary cap, int32
// exponents that wrap. (Not exponents near -2^31, whose rounding makes Go build
// a power of ten with two billion digits.)
var quantityEdges = []string{
	"0", "-0", "+0", "00", "0.0", ".", "+.", "-.", ".5", "5.", "0.5", "1", "+1", "-1", "01", "1.0", "1.00",
	"1000m", "100m", "10m", "1m", "0.1m", "0.001m", "1n", "0.1n", "0.0000000001", "-0.0000000001", "1u", "1500m", "1.5",
	"1k", "1000", "1000k", "1M", "1G", "1T", "1P", "1E", "1000E", "1e3", "1E3", "1e-3", "1e+3", "1.5e3", "1e0", "1e", "1E-", "1e1",
	"1e2", "1e-1", "1e-2", "1e-9", "1e-10", "1e18", "1e19", "1e21", "1000e5", "12e-7",
	"1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei", "8Ki", "1024Mi", "1536Mi", "1.5Gi", "0.5Gi", "0.5Ki", "1.1Ki", "1023", "1024", "2048",
	"1.5Ki", "0.001Ki", "-1Ki", "-1.5Gi", "9Ei", "8Ei", "7Ei", "100000000000000000000Ei", "3Ki", "1025Ki", "1048576", "1048576Ki",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808", "99999999999999999999", "123456789012345678",
	"1234567890123456789", "0.123456789", "0.1234567891", "1.000000001", "1.0000000001", "-1.0000000001",
	"1e2147483647", "1e4294967296", "1e9223372036854775807", "1e9223372036854775808",
	"1Qi", "1i", "Ki", "e3", "1 Ki", " 1", "1 ", "1.2.3", "1..2", "+-1", "--1", "1-", "abc", "1KiB", "1Kii", "1mi", "1m1", "1k2",
	"1e3e3", "1.e3", "0x10", "1_000", "\t1", "1\n", "½", "1m ", "5m5", "1Mi5", "1E+", "1e+", "1e-0", "-1e-0",
	"1.5m", "0.25", "0.75Mi", "123.456k", "999999999999999999", "1000000000000000000", "0.000000001", "0.0000000015",
}

// quantityCorpus is the edge texts plus seeded random ones, each with
// {"in", "out"} or {"in", "error"}: MarshalJSON of ParseQuantity(in).
func quantityCorpus() any {
	r := rand.New(rand.NewSource(37))
	texts := append([]string(nil), quantityEdges...)
	suffixes := []string{"", "", "", "m", "n", "u", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "e3", "e-3", "E2", "e-7", "e12", "e-12", "i", "x"}
	digits := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteByte(byte('0' + r.Intn(10)))
		}
		return b.String()
	}
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		switch r.Intn(6) {
		case 0:
			b.WriteByte('-')
		case 1:
			b.WriteByte('+')
		}
		b.WriteString(digits(r.Intn(22)))
		if r.Intn(2) == 0 {
			b.WriteByte('.')
			b.WriteString(digits(r.Intn(14)))
		}
		b.WriteString(suffixes[r.Intn(len(suffixes))])
		texts = append(texts, b.String())
	}
	rows := make([]any, 0, len(texts))
	for _, t := range texts {
		q, err := resource.ParseQuantity(t)
		if err != nil {
			rows = append(rows, jObject{"in": t, "error": err.Error()})
			continue
		}
		out, err := q.MarshalJSON()
		if err != nil {
			rows = append(rows, jObject{"in": t, "marshalError": err.Error()})
			continue
		}
		var s string
		if err := json.Unmarshal(out, &s); err != nil {
			rows = append(rows, jObject{"in": t, "marshalError": err.Error()})
			continue
		}
		rows = append(rows, jObject{"in": t, "out": s})
	}
	return jObject{"cases": rows}
}
