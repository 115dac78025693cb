//go:build ignore

// gen_strings writes strings.txt: strings with the three texts Go gives them, so the Rust tests
// can check smd's escapers without Go.
//
// Each line is four tab-separated fields: the string's bytes in hex; Go's %q of it
// (strconv.Quote, used by value.ToString); json-iterator's plain WriteString (object keys in
// fieldsV1); json-iterator's WriteStringWithHTMLEscaped (string values). None of the three
// writes a raw tab or newline. The strings are every code point below U+0300, the two code points
// on each side of every edge of Go's printable set (strconv.IsPrint), random code points, random
// mixes, and byte strings that are not UTF-8 (for those, only the plain escaper applies and the
// other two fields are "-").
//
// Regenerate (from this directory; json-iterator comes from the module cache):
//
//	GOFLAGS=-mod=mod go run gen_strings.go > strings.txt
package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"unicode"
	"unicode/utf8"

	jsoniter "github.com/json-iterator/go"
)

func valid(r rune) bool { return utf8.ValidRune(r) }

func main() {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	var inputs []string
	for r := rune(0); r < 0x300; r++ {
		inputs = append(inputs, string(r))
	}
	for r := rune(0x300); r <= unicode.MaxRune; r++ {
		if strconv.IsPrint(r) != strconv.IsPrint(r-1) {
			s := ""
			for _, c := range []rune{r - 1, r} {
				if valid(c) {
					s += string(c)
				}
			}
			inputs = append(inputs, s)
		}
	}
	rng := rand.New(rand.NewPCG(3, 5))
	randomRune := func() rune {
		for {
			var r rune
			switch rng.IntN(4) {
			case 0:
				r = rune(rng.IntN(0x80))
			case 1:
				r = rune(rng.IntN(0x3000))
			case 2:
				r = rune(rng.IntN(0x10000))
			default:
				r = rune(rng.IntN(unicode.MaxRune + 1))
			}
			if valid(r) {
				return r
			}
		}
	}
	for i := 0; i < 300; i++ {
		inputs = append(inputs, string(randomRune()))
	}
	specials := []string{"<", ">", "&", "\"", "\\", "\u2028", "\u2029", "\x7f", "\n", "\t", "\x00", "é", "a"}
	for i := 0; i < 200; i++ {
		s := ""
		for j := rng.IntN(8); j >= 0; j-- {
			if rng.IntN(2) == 0 {
				s += specials[rng.IntN(len(specials))]
			} else {
				s += string(randomRune())
			}
		}
		inputs = append(inputs, s)
	}
	inputs = append(inputs, "", "plain text", "\xff", "a\xc3", "\xe2\x80", "\xed\xa0\x80", "\xc3\xa9\xff<")

	for _, s := range inputs {
		q, html := "-", "-"
		if utf8.ValidString(s) {
			q = strconv.Quote(s)
			st := jsoniter.ConfigCompatibleWithStandardLibrary.BorrowStream(nil)
			st.WriteStringWithHTMLEscaped(s)
			html = string(st.Buffer())
		}
		st := jsoniter.ConfigCompatibleWithStandardLibrary.BorrowStream(nil)
		st.WriteString(s)
		fmt.Fprintf(w, "%x\t%s\t%s\t%s\n", s, q, st.Buffer(), html)
	}
}
