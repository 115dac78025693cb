package benches

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// fieldsV1Siblings is the document of fieldsv1_read/*: n sibling keys f:k000000, f:k000001, ...,
// the even ones members, the odd ones with a child, in Go's order or reversed; the same bytes
// as smd_benches::fieldsv1_siblings.
func fieldsV1Siblings(n int, reversed bool) []byte {
	keys := make([]string, n)
	for i := range keys {
		if i%2 == 0 {
			keys[i] = fmt.Sprintf(`"f:k%06d":{}`, i)
		} else {
			keys[i] = fmt.Sprintf(`"f:k%06d":{"f:x":{}}`, i)
		}
	}
	if reversed {
		for i, j := 0, len(keys)-1; i < j; i, j = i+1, j-1 {
			keys[i], keys[j] = keys[j], keys[i]
		}
	}
	return []byte("{" + strings.Join(keys, ",") + "}")
}

// BenchmarkFieldsV1Read reads the document with Set.FromJSON, as the API server reads a
// managedFields entry.
func BenchmarkFieldsV1Read(b *testing.B) {
	for _, thousands := range []int{1, 10, 100} {
		for _, order := range []string{"sorted", "reversed"} {
			text := fieldsV1Siblings(thousands*1000, order == "reversed")
			b.Run(fmt.Sprintf("%s-%dk", order, thousands), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					s := fieldpath.NewSet()
					if err := s.FromJSON(bytes.NewReader(text)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
