package main

// The regular-expression half of gogen crdchecks (see crdchecks.go): go_regexp.json, a
// schema's pattern through regexp.Compile and MatchString.

import (
	"fmt"
	"math/rand"
	"regexp"
	"strings"
)

// regexpSubjects are the strings every pattern is matched against.
var regexpSubjects = []string{
	"", "a", "A", "b", "ab", "abc", "ABC", "aBc", "abcabc", "xyz", "0", "5", "123", "a1", "_", "-", " ", "\t", "\n", "\r",
	"\r\n", "\v", "\f", "a\nb", "\na", "a\n", "foo bar", "foo\nbar", "a.b", "a-b", "a_b", "k", "K", "\u212a", "s", "S",
	"\u017f", "é", "É", "e\u0301", "ß", "ẞ", "ǅ", "ǆ", "Ǆ", "µ", "μ", "Μ", "Σ", "σ", "ς", "İ", "ı", "i", "I", "日本", "٣",
	"１", "\u00a0", "\u2028", "\u0085", "😀", "a😀b", "\u1c89", "\u0951", "\u0378", "{", "}", "{1}", "a{1}", "[", "]", "\\",
	"^", "$", ".", "*", "+", "?", "(", ")", "|", "aaa", "aaaa", strings.Repeat("a", 50), "x@y.z", "2020-01-01", "abc\n",
	"\x00", "\x7f", "a b", "aé", "éa", "aéb", "a\u00a0b", "Ab1_", "ab12", "ABab", "hello world",
}

type regexpCase struct {
	pattern  string
	subjects []string
	built    *built
}

func rc(pattern string, subjects ...string) regexpCase {
	return regexpCase{pattern: pattern, subjects: subjects}
}

// regexpHand are patterns chosen for where Go's syntax or matching differs
// from other engines (and from Rust's regex crate).
var regexpHand = []regexpCase{
	// ASCII-only Perl classes, and their Unicode look-alikes.
	rc(`\d`, "٣", "１", "9"), rc(`^\d+$`, "٣", "12٣"), rc(`\D`), rc(`\w`, "é", "_"), rc(`^\w+$`, "héllo", "hello"), rc(`\W`),
	rc(`\s`, "\u00a0", "\u2028", "\u0085", "\v"), rc(`^\s$`), rc(`\S`), rc(`[\d]`), rc(`[\D]`), rc(`[\w-]`), rc(`[^\w]`),
	rc(`[\s\d]`), rc(`[^\s]`), rc(`(?i)\w`), rc(`(?i)\W`), rc(`(?i)[\W]`), rc(`(?i)[^\W]`), rc(`(?i)[^\w]`), rc(`(?i)\S`),
	rc(`\b`), rc(`\bfoo\b`, "foo", "éfooé", "afoo", "foo_"), rc(`\B`), rc(`a\B`, "ab", "aé"), rc(`\Bé`, "aé", "é"),
	rc(`é\b`, "é", "éa"), rc(`\b\B`), rc(`^\b`), rc(`\b$`), rc(`x\b`, "x", "xé", "x1"), rc(`\B$`), rc(`^\B`),
	// POSIX classes.
	rc(`[[:alpha:]]`), rc(`[[:^alpha:]]`), rc(`[[:alnum:]_]`), rc(`[[:ascii:]]`), rc(`[[:blank:]]`), rc(`[[:cntrl:]]`),
	rc(`[[:digit:]]`), rc(`[[:graph:]]`), rc(`[[:lower:]]`), rc(`(?i)[[:lower:]]`), rc(`[[:print:]]`), rc(`[[:punct:]]`),
	rc(`[[:space:]]`, "\v"), rc(`[[:upper:]]`), rc(`(?i)[[:upper:]]`), rc(`[[:word:]]`), rc(`[[:xdigit:]]`), rc(`[[:^space:]]`),
	rc(`[[:foo:]]`), rc(`[[:alpha:]`), rc(`[[:alpha]`), rc(`[[:]`), rc(`[[:a]b:]`), rc(`[:alpha:]`), rc(`[[:alpha:][:digit:]]`),
	rc(`[[:^ascii:]]`), rc(`(?i)[[:^upper:]]`), rc(`[a[:digit:]]`), rc(`[[:Alpha:]]`), rc(`[[=a=]]`), rc(`[[.a.]]`),
	// Unicode classes.
	rc(`\pL`), rc(`\p{L}`), rc(`\PL`), rc(`\p{^L}`), rc(`\P{^L}`), rc(`\p{Lu}`), rc(`\p{Ll}`), rc(`(?i)\p{Lu}`),
	rc(`(?i)\P{Lu}`), rc(`(?i)[\P{Lu}]`), rc(`(?i)[^\p{Lu}]`), rc(`\p{Greek}`), rc(`\p{greek}`), rc(`\p{GREEK}`),
	rc(`\p{Devanagari}`, "\u0951", "क"), rc(`\p{Bengali}`, "\u0951"), rc(`\p{Inherited}`, "\u0951"), rc(`\p{Han}`),
	rc(`\p{Latin}`), rc(`\p{Common}`), rc(`\p{Cyrillic}`, "\u1c89", "Ж"), rc(`\p{Old_Italic}`), rc(`\p{OldItalic}`),
	rc(`\p{Letter}`), rc(`\p{letter}`), rc(`\p{Uppercase_Letter}`), rc(`\p{uppercase letter}`), rc(`\p{Lu }`),
	rc(`\p{L_u}`), rc(`\p{LC}`), rc(`\p{Lc}`), rc(`\p{L&}`), rc(`\p{Any}`), rc(`\p{any}`), rc(`\p{ASCII}`), rc(`\p{Ascii}`),
	rc(`(?i)\p{ASCII}`), rc(`(?i)\P{ASCII}`), rc(`\p{Assigned}`), rc(`\P{Assigned}`), rc(`\p{Cn}`), rc(`\p{C}`), rc(`\p{Cs}`),
	rc(`\p{Co}`, "\ue000"), rc(`\p{Cc}`), rc(`\p{Cf}`, "\u200b", "\u00ad"), rc(`\p{Other}`), rc(`\p{Is_Greek}`),
	rc(`\p{sc=Greek}`), rc(`\p{Foo}`), rc(`\pX`), rc(`\p`), rc(`\p{`), rc(`\p{}`), rc(`\p{^}`), rc(`\p^`), rc(`\pé`),
	rc(`\p{L`), rc(`[\p{L`), rc(`\p{Nd}`), rc(`\p{N}`), rc(`\p{digit}`), rc(`\p{punct}`), rc(`\p{Zs}`), rc(`\p{Z}`),
	rc(`\p{Sm}`, "+", "<"), rc(`\p{S}`), rc(`[\p{Greek}\d]`), rc(`[^\p{Greek}\d]`), rc(`\p{Lt}`), rc(`(?i)\p{Lt}`),
	rc(`\p{Nko}`), rc(`\p{SignWriting}`), rc(`\p{Kawi}`), rc(`\p{Garay}`), rc(`\p{Hanunoo}`), rc(`\p{Unassigned}`),
	rc(`\p{Alphabetic}`), rc(`\p{White_Space}`), rc(`\p{Emoji}`), rc(`\pN`), rc(`\pZ`), rc(`\p{M}`, "\u0301"), rc(`\pC`),
	// Case folding.
	rc(`(?i)k`), rc(`(?i)K`), rc(`(?i)s`), rc(`(?i)ſ`), rc(`(?i)σ`), rc(`(?i)Σ`), rc(`(?i)ß`), rc(`(?i)ẞ`), rc(`(?i)ǅ`),
	rc(`(?i)µ`), rc(`(?i)i`), rc(`(?i)İ`), rc(`(?i)[a-z]`), rc(`(?i)[k]`), rc(`(?i)[^k]`), rc(`(?i)[^a-z]`), rc(`(?i)abc`),
	rc(`(?i:a)b`), rc(`a(?i)b`), rc(`(?i)a(?-i)b`), rc(`(?i)(?-i:a)b`), rc(`((?i)a)b`), rc(`(?i)\x{212a}`), rc(`(?i)[\x{212a}]`),
	rc(`(?i)[^\x{212a}]`), rc(`[kK]`), rc(`(?i)[k-k]`), rc(`(?i)é`), rc(`(?i)\x{1c89}`, "\u1c8a"), rc(`(?i)ǆ`), rc(`(?i)Ǆ`), rc(`(?i)ɤ`, "\ua7cb"),
	rc(`(?i)\p{Lu}`, "ɤ", "\ua7cb"),
	// Anchors and flags.
	rc(`^a`), rc(`a$`), rc(`^$`), rc(`^`), rc(`$`), rc(`(?m)^a`), rc(`(?m)a$`), rc(`(?m)^$`), rc(`(?m)^b`), rc(`(?m)a$\n`),
	rc(`\Aa`), rc(`a\z`), rc(`a\Z`), rc(`(?m)\Ab`), rc(`(?m)a\z`), rc(`(?m:^)b`), rc(`a(?m)$`), rc(`(?s).`), rc(`.`),
	rc(`(?s:.)`), rc(`a.b`), rc(`(?s)a.b`), rc(`[^a]`), rc(`[^a]b`, "\nb"), rc(`(?U)a+`), rc(`(?U)a+?`), rc(`a+?`),
	rc(`(?i-i)a`), rc(`(?i-s:a.)`), rc(`(?ims-U)a`), rc(`(?-m)^b`), rc(`(?m-m)^b`), rc(`(?)`), rc(`(?)a`), rc(`(?-)a`),
	rc(`(?i-)a`), rc(`(?-i)a`), rc(`(?--i)a`), rc(`(?i--)a`), rc(`(?ii)a`), rc(`(?x)a`), rc(`(?x) a`), rc(`(?u)a`),
	rc(`(?R)`), rc(`(?U`), rc(`(?i`), rc(`(?`), rc(`(?:`), rc(`(?#comment)a`), rc(`(?=a)`), rc(`(?!a)`), rc(`(?<=a)b`),
	rc(`(?<!a)b`), rc(`(?>a)`), rc(`(?|a)`), rc(`(?P=n)`), rc(`(?P>n)`), rc(`(?&n)`), rc(`(?1)`), rc(`(?C)`),
	rc(`\Ab|a`), rc(`a|\zb`), rc(`^$|a`), rc(`(?m:$)`), rc(`(?s)^.*$`), rc(`^.*$`), rc(`(?m)^.*$`),
	// Groups and names.
	rc(`(a)`), rc(`(?:a)`), rc(`(?P<n>a)`), rc(`(?<n>a)`), rc(`(?'n'a)`), rc(`(?P<n>a)(?P<n>b)`), rc(`(?<n>a)(?P<n>b)`),
	rc(`(?P<>a)`), rc(`(?<>a)`), rc(`(?P<n-m>a)`), rc(`(?P<né>a)`), rc(`(?P<1>a)`), rc(`(?P<_>a)`), rc(`(?P<n`),
	rc(`(?<n`), rc(`(?P<n)>`), rc(`(?P<`), rc(`(?<`), rc(`(?P`), rc(`(?P<n>`), rc(`(?<n>a`), rc(`()`), rc(`(|)`),
	rc(`(a|)`), rc(`(|a)`), rc(`a|`), rc(`|a`), rc(`|`), rc(`||`), rc(`a||b`), rc(`(`), rc(`)`), rc(`a)`), rc(`(a`),
	rc(`((a)`), rc(`(a))`), rc(`)(`), rc(`a|b)`), rc(`(a|b`), rc(`(?i)(`), rc(`(?i))`), rc(`x(?i))`), rc(`[a](`),
	// Repetition.
	rc(`a*`), rc(`a+`), rc(`a?`), rc(`a{2}`), rc(`a{2,}`), rc(`a{2,3}`), rc(`^a{2,3}$`), rc(`a{,2}`, "a{,2}"), rc(`^a{,2}$`, "a{,2}"),
	rc(`a{}`, "a{}"), rc(`a{x}`, "a{x}"), rc(`a{1`, "a{1"), rc(`a{1,`, "a{1,"), rc(`a{1,2`), rc(`a{01}`, "a{01}"), rc(`a{1,02}`, "a{1,02}"),
	rc(`a{0}`), rc(`a{0,0}`), rc(`a{0,}`), rc(`^a{0}$`), rc(`a{1000}`), rc(`a{1001}`), rc(`a{1000,}`), rc(`a{1001,}`), rc(`a{0,1000}`),
	rc(`a{0,1001}`), rc(`a{2,1}`), rc(`a{100000000}`), rc(`a{99999999}`), rc(`a{1,100000000}`), rc(`a{ 1}`, "a{ 1}"),
	rc(`a{1 }`, "a{1 }"), rc(`a{1,2,3}`, "a{1,2,3}"), rc(`a{-1}`, "a{-1}"), rc(`{`), rc(`}`), rc(`{1}`), rc(`{1`), rc(`x{`),
	rc(`a**`), rc(`a*+`), rc(`a*?`), rc(`a*??`), rc(`a+?`), rc(`a??`), rc(`a???`), rc(`a*?*`), rc(`a{2}{3}`), rc(`a{2}*`),
	rc(`a*{2}`), rc(`a{2}?`), rc(`a{2}??`), rc(`*`), rc(`+a`), rc(`?`), rc(`(*)`), rc(`(?:*)`), rc(`a|*`), rc(`(?i)*`),
	rc(`a(?i)*`), rc(`^*`), rc(`$*`), rc(`\b*`), rc(`\A*`), rc(`(?:)*`), rc(`()*`), rc(`(a*)*`), rc(`(a*)+`), rc(`(a+)?`),
	rc(`(a|b)*c`), rc(`a*(?i)*`), rc(`\Q\E*`), rc(`a\Q\E*`), rc(`a*\Q\E*`), rc(`(a{10}){100}`), rc(`(a{10}){101}`),
	rc(`(?:a{2}){500}`), rc(`(?:a{2}){501}`), rc(`((a{2}){2}){250}`), rc(`((a{2}){2}){251}`), rc(`(a{0}){1000}`),
	rc(`(a{0,}){1000}`), rc(`(a*){1000}`), rc(`(a{1,}){1000}`), rc(`(a{2,}){1000}`), rc(`(a{1000}){1}`), rc(`(a{1000}){0}`),
	rc(`(a{1001}){0}`), rc(`(a{3}){333}`), rc(`(a{4}){333}`), rc(`(a{3}|b{400}){3}`), rc(`(a{3}|b{400}){2}`), rc(`(a|b{2}){1000}`),
	rc(`(?:a{10}b{10}){100}`), rc(`(?:(?:a{10}){10}){10}`), rc(`(?:(?:a{10}){10}){11}`), rc(`(?i)a{2}{3}`), rc(`a{1000}{1}`),
	rc(`x{2}{,3}`), rc(`a{2}{`), rc(`a*{`), rc(`a*{,}`), rc(`a{1}?{2}`),
	// Escapes.
	rc(`\a\f\t\n\r\v`, "\a\f\t\n\r\v"), rc(`\x41`), rc(`\x4`), rc(`\x`), rc(`\xZZ`), rc(`\x4G`), rc(`\x{41}`), rc(`\x{}`),
	rc(`\x{110000}`), rc(`\x{10FFFF}`), rc(`\x{D800}`), rc(`[\x{D800}]`), rc(`[^\x{D800}]`), rc(`[\x{D7FF}-\x{E000}]`, "\ud7ff", "\ue000"),
	rc(`\x{g}`), rc(`\x{41`), rc(`\x{0041}`), rc(`\x{00000000000041}`), rc(`\0`, "\x00"), rc(`\00`), rc(`\000`), rc(`\0000`, "\x000"),
	rc(`\08`, "\x008"), rc(`\1`), rc(`\12`, "\n"), rc(`\123`, "S"), rc(`\1234`, "S4"), rc(`\777`, "ǿ"), rc(`\8`), rc(`\9`),
	rc(`\b`), rc(`\B`), rc(`\C`), rc(`\Q`), rc(`\Qa.b`, "a.b", "axb"), rc(`\Qa.b\E.`, "a.bx"), rc(`\Q\E`), rc(`\Q\`, "\\"),
	rc(`\Q*\E+`, "**"), rc(`[\Q]`), rc(`\E`), rc(`\z`), rc(`\Z`), rc(`\G`), rc(`\K`), rc(`\R`), rc(`\X`), rc(`\h`), rc(`\H`),
	rc(`\N`), rc(`\o{101}`), rc(`\u0041`), rc(`\U00000041`), rc(`\cA`), rc(`\e`), rc(`\g1`), rc(`\k<n>`), rc(`\<`), rc(`\>`),
	rc(`\_`, "_"), rc(`\-`), rc(`\.`), rc(`\*`), rc(`\\`), rc(`\ `, " "), rc(`\#`, "#"), rc(`\~`, "~"), rc(`\@`, "@"),
	rc(`\%`, "%"), rc(`\é`), rc(`\日`), rc(`\`), rc(`a\`), rc(`[\`), rc(`[a\`), rc(`\m`), rc(`\y`), rc(`\i`),
	// Classes.
	rc(`[abc]`), rc(`[^abc]`), rc(`[a-c]`), rc(`[c-a]`), rc(`[a-a]`), rc(`[]a]`, "]"), rc(`[^]a]`, "]"), rc(`[]`), rc(`[^]`),
	rc(`[a-]`, "-"), rc(`[-a]`, "-"), rc(`[--a]`, "-", "."), rc(`[a-\d]`), rc(`[\d-z]`, "-", "z"), rc(`[a-b-c]`, "-"),
	rc(`[a`), rc(`[a-`), rc(`[a-b`), rc(`[`), rc(`[^`), rc(`]`), rc(`[]]`, "]"), rc(`[[]`, "["), rc(`[a[b]`, "[", "b"),
	rc(`[a[b]]`, "a]", "b]"), rc(`[a&&b]`, "&"), rc(`[a--b]`, "-"), rc(`[a~~b]`, "~"), rc(`[a||b]`, "|"), rc(`[\[\]]`),
	rc(`[\-]`, "-"), rc(`[\^]`, "^"), rc(`[^^]`, "^"), rc(`[\b]`), rc(`[\n]`), rc(`[^\n]`), rc(`[\x00-\x{10FFFF}]`),
	rc(`[^\x00-\x{10FFFF}]`), rc(`(?i)[^\x00-\x{10FFFF}]`), rc(`[\x{0}-\x{D7FF}\x{E000}-\x{10FFFF}]`), rc(`[^\x{0}-\x{D7FF}]`),
	rc(`[\x{E000}-\x{D800}]`), rc(`[é-ê]`), rc(`[é-e]`), rc(`[\pL-z]`), rc(`[a-\pL]`), rc(`[\p{Foo}]`), rc(`[\PL]`),
	rc(`[\d\D]`), rc(`[^\d\D]`), rc(`[.]`, "."), rc(`[*+?{}()|$^]`), rc(`[\w&&[^a]]`), rc(`[z-a]`), rc(`[\x{10FFFF}-\x{0}]`),
	rc(`[\0-\x1f]`), rc(`[\a-\r]`), rc(`[\Q]`), rc(`[\E]`), rc(`[\z]`), rc(`[\A]`), rc(`[\pN\s]`), rc(`[^\S\n]`, "\n", " "),
	rc(`(?i)[^\S]`), rc(`[^[:^alpha:]]`), rc(`(?i)[^[:^lower:]]`), rc(`[[:alpha:]-z]`), rc(`[a-[:alpha:]]`),
	// Literals, Unicode and the rest.
	rc(`abc`), rc(`a.c`), rc(`é`), rc(`日本`), rc(`😀`), rc(`a😀b`), rc(`(?i)日`), rc(`\x{1F600}`), rc(`[😀-😃]`, "😂"),
	rc(`a|b|c`), rc(`ab|ac`), rc(`abc|abd|x`), rc(`(a|b)(c|d)`), rc(`(?:ab|cd)+$`), rc(`^(?:a|ab)(?:c|bcd)(?:d*)$`, "abcd"),
	rc(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`, "my-name", "My-name", "-a"), rc(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`, "a.b-c"),
	rc(`^(\d+)(m|Mi|Gi)?$`, "10Gi", "١٠Gi"), rc(`^\+?[1-9]\d{1,14}$`, "+4412345678"), rc(`^[^@\s]+@[^@\s]+$`, "a@b"),
	rc(`^https?://`, "https://x"), rc(`^(?i)(true|false)$`, "TRUE", "True"), rc(`^[A-Z_][A-Z0-9_]*$`, "ENV_1"),
	rc(`^([01]?\d|2[0-3]):[0-5]\d$`, "23:59", "24:00"), rc(`^v\d+(\.\d+){2}$`, "v1.2.3"), rc(`\$\{[^}]+\}`, "${x}"),
	rc(`^[\p{L}\p{N}_-]+$`, "ünïcode_1"), rc(`^\S+$`, "a\u00a0b"), rc(`^[[:alnum:]]+$`, "abc1", "ab c"), rc(`a\nb`),
	rc(`(?m)^#`, "x\n#"), rc(`\x{2028}`), rc(`(?s)a.b`, "a\u2028b"), rc(`a.b`, "a\u2028b", "a\rb"), rc(`^\x{0}$`, "\x00"),
	rc(`[\x{0}]`), rc(`(?i)[\x{17f}]`), rc(`(?i)[ſ-ſ]`), rc(`(?i)[^ſ]`), rc(`(?i)\x{3a3}`), rc(`(?i)[^σ]`),
}

// deepPatterns sit at Go's limits: nesting depth 1000, 1000 repeats, the
// compiled size estimate. They are written built (open×times, inner,
// close×times) to keep the corpus small.
func deepPatterns() []regexpCase {
	b := func(open, inner, close string, times int) regexpCase {
		return regexpCase{built: &built{open, inner, close, times}}
	}
	return []regexpCase{
		b("(", "a", ")", 998), b("(", "a", ")", 999), b("(", "a", ")", 1000), b("(", "a", ")", 1001),
		b("(?:", "a", ")", 5000), b("(?:", "a", ")*", 998), b("(?:", "a", ")*", 999), b("(?:", "a", ")*", 1000),
		b("(?:b|", "a", ")", 3000), b("(b|", "a", ")", 499), b("(b|", "a", ")", 500), b("(b|", "a", ")", 501),
		b("(?:bc|", "a", ")c", 498), b("(?:bc|", "a", ")c", 499), b("(?:bc|", "a", ")c", 500), b("(?:bc|", "a", ")c", 501),
		b("a{1000}", "", "", 3350), b("a{1000}", "", "", 3360), b("(?:ab){1000}", "", "", 1700),
		b("", "("+strings.Repeat("a", 3400)+"){1000}", "", 0), b(`\pL{1000}`, "", "", 20), b("", `[\pL\pN]{1000}`, "", 0),
		b("(a)", "", "", 20000), b("a|", "", "", 20000), b("[a-z]", "", "", 20000), b("((a{2}){2}", "", "){2})", 300),
		b("a{1000}", "", "", 3355), b("a{1000}", "", "", 3356), b("(?:ab){1000}", "", "", 1677), b("(?:ab){1000}", "", "", 1678),
		b("", "(?:"+strings.Repeat("a", 3360)+"){1000}", "", 0), b("", "(?:"+strings.Repeat("a", 3360)+"){1000}x", "", 0),
		b("", "("+strings.Repeat("a", 3353)+"){1000}", "", 0), b("", "("+strings.Repeat("a", 3354)+"){1000}", "", 0),
		b("", "(?:"+strings.Repeat("a", 3353)+"){1000}", "", 0), b("", "x(?:"+strings.Repeat("a", 3360)+"){1000}", "", 0),
		b("", "(?:(?:"+strings.Repeat("a", 3360)+"){1000})", "", 0), b("", "(?:"+strings.Repeat("a", 1700)+"){1000}|b", "", 0),
		b("", "(?:"+strings.Repeat("a", 1700)+"|b){1000}", "", 0), b("", "(?:"+strings.Repeat("ab", 1700)+"){1000}", "", 0),
		b("", "(?i:"+strings.Repeat("a", 3360)+"){1000}", "", 0), b("", strings.Repeat("(a*)", 1000), "", 0),
		b("(", "a", ")", 500), b("(?:b|(", "a", "))", 499), b("(?:b|(", "a", "))", 500), b("(?:b|(", "a", "))", 501),
		b("(?:(", "a", ")b)", 499), b("(?:(", "a", ")b)", 500), b("(?:(", "a", ")b)", 501), b("(?:(", "a", ")b)", 502),
		b("(?:(", "a", ")|b)", 499), b("(?:(", "a", ")|b)", 500), b("(?:(", "a", ")|b)", 501), b("(?:(", "a", ")|b)", 502),
		b("(?:a*", "a", ")", 998), b("(?:a*", "a", ")", 999), b("(?:a*", "a", ")", 1000), b("((?:a|b)", "a", ")", 499),
		b("((?:a|b)", "a", ")", 500), b("((?:a|bc)", "a", ")", 333), b("((?:a|bc)", "a", ")", 334), b("((?:a|bc)", "a", ")", 499),
		b("((?:a|bc)", "a", ")", 500), b("(?:", "a", "){1}", 999), b("(?:", "a", "){1}", 1000), b("(?:", "a", ")?", 999),
		b("(?:", "a", ")?", 1000), b("(?:x", "a", ")?", 499), b("(?:x", "a", ")?", 500), b("(?:x", "a", ")?", 501),
	}
}

// built is a long pattern: open repeated times, inner, close repeated times.
type built struct {
	open, inner, close string
	times              int
}

func (b *built) pattern() string {
	return strings.Repeat(b.open, b.times) + b.inner + strings.Repeat(b.close, b.times)
}

func regexpCorpus() any {
	cases := append(append([]regexpCase(nil), regexpHand...), deepPatterns()...)
	r := rand.New(rand.NewSource(2037))
	for i := 0; i < 2000; i++ {
		p := randPattern(r, 0)
		subjects := make([]string, 0, 6)
		for j := 0; j < 6; j++ {
			subjects = append(subjects, randSubject(r, p))
		}
		cases = append(cases, regexpCase{pattern: p, subjects: subjects})
	}
	rows := make([]any, 0, len(cases))
	seen := map[string]bool{}
	for _, c := range cases {
		row := jObject{"pattern": c.pattern}
		if c.built != nil {
			c.pattern = c.built.pattern()
			row = jObject{"built": jObject{"open": c.built.open, "inner": c.built.inner, "close": c.built.close, "times": c.built.times}}
		}
		if seen[c.pattern] {
			continue
		}
		seen[c.pattern] = true
		re, err := regexp.Compile(c.pattern)
		if err != nil {
			text := err.Error()
			if c.built != nil {
				// The error quotes the whole pattern (too large, too deep, a
				// parenthesis): the corpus names it.
				if t, ok := strings.CutSuffix(text, "`"+c.pattern+"`"); ok {
					text = t + "`«pattern»`"
				}
			}
			row["error"] = text
			rows = append(rows, row)
			continue
		}
		var shared strings.Builder
		for _, s := range regexpSubjects {
			if re.MatchString(s) {
				shared.WriteByte('1')
			} else {
				shared.WriteByte('0')
			}
		}
		var match, miss []any
		for _, s := range c.subjects {
			if re.MatchString(s) {
				match = append(match, s)
			} else {
				miss = append(miss, s)
			}
		}
		row["shared"] = shared.String()
		row["match"] = orEmpty(match)
		row["miss"] = orEmpty(miss)
		rows = append(rows, row)
	}
	subjects := make([]any, len(regexpSubjects))
	for i, s := range regexpSubjects {
		subjects[i] = s
	}
	return jObject{"subjects": subjects, "cases": rows}
}

var (
	randLiterals = []string{"a", "b", "c", "A", "B", "0", "1", "_", "-", " ", ".", "é", "K", "k", "\u212a", "ſ", "s", "σ", "Σ", "日", "\n", ":", "/", "@"}
	randEscapes  = []string{`\d`, `\D`, `\w`, `\W`, `\s`, `\S`, `\b`, `\B`, `\A`, `\z`, `\pL`, `\p{Greek}`, `\PL`, `\p{^Lu}`, `\pN`,
		`\x41`, `\x{263a}`, `\x{212a}`, `\n`, `\t`, `\.`, `\\`, `\*`, `\(`, `\[`, `\{`, `\-`, `\Qa.\E`, `\Q*`, `\0`, `\101`, `\v`,
		`\p{Latin}`, `\p{Lu}`, `\p{Any}`, `\p{Letter}`, `\x{D800}`}
	randBadEscapes = []string{`\q`, `\8`, `\C`, `\x{zz}`, `\p{Foo}`, `\Z`, `\p{Old_Italic}`, `\<`}
	randClassItems = []string{"a", "b", "z", "0", "9", "a-z", "A-Z", "0-9", "-", "^", `\d`, `\W`, `\s`, `[:alpha:]`, `[:^digit:]`,
		`[:word:]`, `\pL`, `\P{Greek}`, `\n`, `\x{263a}`, "é", "k-m", "ſ", `\]`, `\-`, `\\`, "[", "&&", "--", "~~", "K"}
	randBadClassItems = []string{"z-a", `[:foo:]`, `\q`, `\b`}
	randFlags         = []string{"i", "m", "s", "U", "-i", "-m", "-s", "i-s", "im", "is", "-U"}
	randBadFlags      = []string{"x", "", "-", "ii", "i-"}
	randOps           = []string{"*", "+", "?", "*?", "+?", "??", "{2}", "{0,3}", "{1,}", "{,2}", "{0}", "{1", "{01}", "{2,5}"}
	randBadOps        = []string{"{3,1}", "{1001}", "**", "{2}{2}", "*+"}
)

// pick takes from good, and once in rare times from bad.
func pick(r *rand.Rand, good, bad []string, rare int) string {
	if r.Intn(rare) == 0 {
		return bad[r.Intn(len(bad))]
	}
	return good[r.Intn(len(good))]
}

// randPattern writes a random pattern in Go's syntax, now and then invalid.
func randPattern(r *rand.Rand, depth int) string {
	var b strings.Builder
	n := 1 + r.Intn(4)
	if depth > 2 {
		n = 1 + r.Intn(2)
	}
	for i := 0; i < n; i++ {
		atom := true
		switch k := r.Intn(20); {
		case k < 6:
			b.WriteString(randLiterals[r.Intn(len(randLiterals))])
		case k < 9:
			b.WriteString(pick(r, randEscapes, randBadEscapes, 40))
		case k < 11:
			b.WriteByte('[')
			if r.Intn(3) == 0 {
				b.WriteByte('^')
			}
			for j, m := 0, 1+r.Intn(3); j < m; j++ {
				b.WriteString(pick(r, randClassItems, randBadClassItems, 40))
			}
			if r.Intn(60) != 0 {
				b.WriteByte(']')
			}
		case k < 12:
			b.WriteString([]string{"^", "$", ".", "^", "$"}[r.Intn(5)])
		case k < 16 && depth < 4:
			switch g := r.Intn(8); g {
			case 0, 1:
				b.WriteByte('(')
			case 2, 3:
				b.WriteString("(?:")
			case 4:
				b.WriteString("(?" + pick(r, randFlags, randBadFlags, 30) + ":")
			case 5:
				b.WriteString("(?P<g" + fmt.Sprint(r.Intn(3)) + ">")
			case 6:
				b.WriteString("(?<n>")
			default:
				if r.Intn(10) == 0 {
					b.WriteString([]string{"(?=", "(?P=n)(", "(?#", "(?<", "(?P<a-b>"}[r.Intn(5)])
				} else {
					b.WriteByte('(')
				}
			}
			b.WriteString(randPattern(r, depth+1))
			if r.Intn(2) == 0 {
				b.WriteByte('|')
				b.WriteString(randPattern(r, depth+1))
			}
			if r.Intn(60) != 0 {
				b.WriteByte(')')
			}
		case k < 17:
			b.WriteString("(?" + pick(r, randFlags, randBadFlags, 30) + ")")
			atom = false
		case k < 18 && i > 0:
			b.WriteByte('|')
			atom = false
		default:
			b.WriteString(randLiterals[r.Intn(len(randLiterals))])
			if r.Intn(80) == 0 {
				b.WriteString(")")
			}
		}
		if atom && r.Intn(3) == 0 {
			b.WriteString(pick(r, randOps, randBadOps, 25))
		}
	}
	return b.String()
}

// randSubject makes a string from the pattern's own characters and a few others.
func randSubject(r *rand.Rand, pattern string) string {
	pool := []rune(pattern + "aAbB01 \n_-.é\u212aſσΣς日😀")
	var b strings.Builder
	for i, n := 0, r.Intn(9); i < n; i++ {
		b.WriteRune(pool[r.Intn(len(pool))])
	}
	return b.String()
}
