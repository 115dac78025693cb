package main

// The cases of gogen celeval: by hand (every function and overload the
// environment has, and the error paths), then seeded random expressions.

import (
	"fmt"
	"math/rand"
	"strings"
	"time"
)

// celHandExprs are evaluated without variables.
var celHandExprs = []string{
	// literals and arithmetic
	`null`, `true`, `1`, `-1`, `1u`, `1.5`, `-0.0`, `"a"`, `b"\xff"`, `[]`, `{}`, `[1, "a", 2.0]`, `{"a": 1, 2: "b"}`,
	`1 + 2`, `1 - 2`, `2 * 3`, `7 / 2`, `-7 / 2`, `7 % 3`, `-7 % 3`, `1 / 0`, `1 % 0`, `1u / 0u`, `1u % 0u`,
	`9223372036854775807 + 1`, `-9223372036854775808 - 1`, `-(-9223372036854775808)`, `9223372036854775807 * 2`,
	`-9223372036854775808 / -1`, `-9223372036854775808 % -1`, `18446744073709551615u + 1u`, `0u - 1u`, `2u * 9223372036854775808u`,
	`1.0 / 0.0`, `-1.0 / 0.0`, `0.0 / 0.0`, `1.5 + 2.25`, `1.5 - 2.25`, `1.5 * 2.0`, `5.0 % 2.0`, `-(1.5)`, `-(1u)`,
	`"a" + "b"`, `b"a" + b"b"`, `[1] + [2]`, `[1] + ["a"]`, `{"a":1} + {"b":2}`, `1 + 1u`, `1 + 1.0`, `dyn(1) + dyn(1u)`,
	`!true`, `!false`, `!1`, `!dyn(1)`,
	// logic and errors
	`true && false`, `false && (1/0 == 1)`, `(1/0 == 1) && false`, `true || (1/0 == 1)`, `(1/0 == 1) || true`,
	`(1/0 == 1) && true`, `(1/0 == 1) || false`, `(1/0 == 1) && (1%0 == 1)`, `true ? 1 : 2`, `false ? 1 : 2`, `(1/0 == 1) ? 1 : 2`,
	`dyn(1) && true`, `true && dyn(1)`, `dyn(1) || false`, `dyn("a") ? 1 : 2`, `true ? 1 : 1/0`,
	// equality and ordering
	`1 == 1`, `1 == 1u`, `1 == 1.0`, `1u == 1.0`, `1 != 2`, `"a" == "a"`, `b"a" == b"a"`, `[1, 2] == [1, 2]`, `[1, 2] == [1.0, 2u]`,
	`[1] == [1, 2]`, `{"a": 1} == {"a": 1.0}`, `{"a": 1} == {"a": 2}`, `{1: "a"} == {1u: "a"}`, `null == null`, `1 == null`,
	`dyn(1) == "a"`, `[1, "a"] == [1, 2]`, `0.0 / 0.0 == 0.0 / 0.0`, `type(1) == int`, `int == type(2)`, `type(null) == null_type`,
	`1 < 2`, `2 <= 2`, `3 > 2`, `3 >= 4`, `1 < 2u`, `1 < 1.5`, `2u > 1.5`, `-1 < 0u`, `"a" < "b"`, `"b" <= "a"`, `b"a" < b"b"`,
	`false < true`, `true > true`, `dyn(1) < "a"`, `[1] < [2]`, `duration("1s") < duration("2s")`,
	`timestamp("2020-01-01T00:00:00Z") < timestamp("2021-01-01T00:00:00Z")`, `1.0 < 0.0 / 0.0`, `0.0/0.0 > 1`, `9223372036854775807 < 9223372036854775808u`,
	`18446744073709551615u > 1.8446744073709552e19`, `-9223372036854775808 < -9.3e18`, `1 <= 1.0`, `1u >= 1.0`,
	// in, index, size
	`1 in [1, 2]`, `3 in [1, 2]`, `1u in [1, 2]`, `"a" in {"a": 1}`, `"b" in {"a": 1}`, `1.0 in {1: "a"}`, `1.5 in {1: "a"}`, `1 in {1u: 2}`,
	`[1, 2][0]`, `[1, 2][2]`, `[1, 2][-1]`, `[1, 2][1u]`, `[1, 2][1.0]`, `[1, 2][1.5]`, `{"a": 1}["a"]`, `{"a": 1}["b"]`, `{"a": 1}.a`, `{"a": 1}.b`,
	`{1: 2}[1.0]`, `{1: 2}[1u]`, `{1u: 2}[1]`, `{true: 1}[true]`, `[1][dyn("a")]`, `{"a": 1}[1]`,
	`size("abc")`, `size("héllo")`, `"abc".size()`, `size(b"abc")`, `size([1, 2])`, `size({"a": 1})`, `[1].size()`, `size(1)`,
	`has({"a": 1}.a)`, `has({"a": 1}.b)`, `has({"a": {"b": 1}}.a.b)`,
	// strings
	`"abc".contains("b")`, `"abc".startsWith("ab")`, `"abc".endsWith("bc")`, `"abc".contains("")`, `"abc".matches("b")`,
	`"abc".matches("^b")`, `matches("abc", "a.c")`, `"abc".matches("[")`, `"aaa".matches("a{2}")`, `"é".matches("^.$")`,
	// conversions
	`int(1u)`, `int(1.9)`, `int(-1.9)`, `int("12")`, `int("-12")`, `int("1.5")`, `int("0x10")`, `int(1e19)`, `int(-1e19)`, `int(18446744073709551615u)`,
	`int(timestamp("1970-01-01T00:01:00Z"))`, `int(duration("1s"))`, `int(true)`, `int(0.0/0.0)`, `int(9.223372036854775807e18)`,
	`uint(1)`, `uint(-1)`, `uint(1.5)`, `uint(-1.5)`, `uint("12")`, `uint("-1")`, `uint(1e20)`, `uint(1.8446744073709552e19)`,
	`double(1)`, `double(1u)`, `double("1.5")`, `double("1e3")`, `double("inf")`, `double("NaN")`, `double("x")`, `double(9223372036854775807)`,
	`string(1)`, `string(1u)`, `string(1.5)`, `string(1e21)`, `string(0.1)`, `string(1e-7)`, `string(100000.0)`, `string(1e6)`, `string(-0.0)`, `string(true)`, `string(b"abc")`, `string(b"\xff")`,
	`string(duration("1m"))`, `string(duration("1.5s"))`, `string(timestamp("2020-01-01T00:00:00.5Z"))`, `string("a")`, `string(1.0/0.0)`, `string(0.0/0.0)`,
	`bytes("abc")`, `bytes(b"a")`, `bytes(1)`, `dyn(1)`, `dyn([1])`, `bool("true")`, `bool("false")`, `bool("t")`, `bool("TRUE")`, `bool("yes")`, `bool(true)`,
	`type(1)`, `type(1u)`, `type(1.0)`, `type("a")`, `type(b"a")`, `type(true)`, `type(null)`, `type([])`, `type({})`, `type(type(1))`,
	`type(duration("1s"))`, `type(timestamp("2020-01-01T00:00:00Z"))`, `type(optional.none())`, `int`, `string`, `list`, `map`, `null_type`, `type`,
	// durations and timestamps
	`duration("1h2m3s")`, `duration("1.5h")`, `duration("-1s")`, `duration("1ms")`, `duration("1us")`, `duration("1µs")`, `duration("1ns")`, `duration("0")`,
	`duration("1")`, `duration("x")`, `duration(duration("1s"))`, `duration(60)`,
	`duration("1s") + duration("2s")`, `duration("1s") - duration("2s")`, `-duration("1s")`,
	`timestamp("2020-01-01T00:00:00Z") + duration("1h")`, `duration("1h") + timestamp("2020-01-01T00:00:00Z")`,
	`timestamp("2020-01-01T00:00:00Z") - duration("1h")`, `timestamp("2020-01-02T00:00:00Z") - timestamp("2020-01-01T00:00:00Z")`,
	`timestamp("2020-01-01T00:00:00+01:00")`, `timestamp("2020-01-01T00:00:00.123456789Z")`, `timestamp("2020-01-01")`, `timestamp(0)`, `timestamp(1577836800)`,
	`timestamp("0001-01-01T00:00:00Z")`, `timestamp("9999-12-31T23:59:59.999999999Z")`, `timestamp("9999-12-31T23:59:59Z") + duration("1s")`,
	`timestamp("0001-01-01T00:00:00Z") - duration("1s")`, `duration("2562047h") + duration("1h")`,
	`timestamp("2020-03-04T05:06:07.089Z").getFullYear()`, `timestamp("2020-03-04T05:06:07.089Z").getMonth()`,
	`timestamp("2020-03-04T05:06:07.089Z").getDate()`, `timestamp("2020-03-04T05:06:07.089Z").getDayOfMonth()`,
	`timestamp("2020-03-04T05:06:07.089Z").getDayOfYear()`, `timestamp("2020-03-04T05:06:07.089Z").getDayOfWeek()`,
	`timestamp("2020-03-04T05:06:07.089Z").getHours()`, `timestamp("2020-03-04T05:06:07.089Z").getMinutes()`,
	`timestamp("2020-03-04T05:06:07.089Z").getSeconds()`, `timestamp("2020-03-04T05:06:07.089Z").getMilliseconds()`,
	`timestamp("2020-03-04T05:06:07.089Z").getHours("+05:30")`, `timestamp("2020-03-04T05:06:07.089Z").getDate("-08:00")`,
	`timestamp("2020-03-04T05:06:07.089Z").getFullYear("UTC")`, `timestamp("2020-03-04T05:06:07.089Z").getHours("America/New_York")`,
	`timestamp("2020-03-04T05:06:07.089Z").getHours("bogus")`, `timestamp("2020-03-04T05:06:07.089Z").getHours("05:30")`,
	`duration("3723.5s").getHours()`, `duration("3723.5s").getMinutes()`, `duration("3723.5s").getSeconds()`, `duration("3723.5s").getMilliseconds()`,
	// comprehensions
	`[1, 2, 3].all(x, x > 0)`, `[1, 2, 3].all(x, x > 1)`, `[1, 2, 3].exists(x, x > 2)`, `[1, 2, 3].exists_one(x, x > 1)`, `[1, 2, 3].exists_one(x, x > 2)`,
	`[1, 2, 3].map(x, x * 2)`, `[1, 2, 3].map(x, x > 1, x * 2)`, `[1, 2, 3].filter(x, x > 1)`, `{"a": 1, "b": 2}.map(k, k).sort()`, `{"a": 1}.all(k, k == "a")`,
	`[0, 1].all(x, 1 / x > 0)`, `[0, 1].exists(x, 1 / x > 0)`, `[1, 0].exists(x, 1 / x > 0)`, `[0, 1].all(x, 1 / x < 0)`, `[1, 0].exists_one(x, 1/x == 1)`,
	`[1, 2].all(i, v, i < v)`, `[1, 2].exists(i, v, i == 1 && v == 2)`, `{"a": 1}.exists(k, v, v == 1)`, `[1, 2].existsOne(i, v, v == 2)`,
	`[1, 2].transformList(i, v, i + v)`, `[1, 2].transformList(i, v, v > 1, i + v)`, `{"a": 1, "b": 2}.transformList(k, v, k).sort()`,
	`[1, 2].transformMap(i, v, v * 2)`, `{"a": 1, "b": 2}.transformMap(k, v, v > 1, v * 2)`, `{"a": 1}.transformMapEntry(k, v, {v: k})`,
	`[1, 2].transformMapEntry(i, v, {"k": v})`, `[[1], [2]].map(x, x.map(y, y + 1))`, `1.all(x, true)`, `dyn(1).exists(x, true)`,
	// maps and lists
	`{"a": 1, "a": 2}`, `{1: 1, 1u: 2}`, `{1.5: 1}`, `{[1]: 2}`, `{null: 1}`, `[1, [2, [3]]][1][1][0]`, `{"a": {"b": 1}}.a.b`,
	// strings ext
	`"abc".charAt(1)`, `"abc".charAt(3)`, `"abc".charAt(4)`, `"abc".charAt(-1)`, `"héllo".charAt(1)`,
	`"hello".indexOf("l")`, `"hello".indexOf("l", 3)`, `"hello".indexOf("")`, `"hello".indexOf("", 5)`, `"hello".indexOf("l", 6)`, `"hello".indexOf("x")`,
	`"hello".indexOf("l", -1)`, `"héllo".indexOf("l")`, `"hello".lastIndexOf("l")`, `"hello".lastIndexOf("l", 2)`, `"hello".lastIndexOf("")`,
	`"hello".lastIndexOf("", 2)`, `"hello".lastIndexOf("l", 9)`, `"hello".lastIndexOf("l", -1)`, `"héllo".lastIndexOf("l")`,
	`"AbC".lowerAscii()`, `"ÀbC".lowerAscii()`, `"aBc".upperAscii()`, `"àbc".upperAscii()`,
	`"aaa".replace("a", "b")`, `"aaa".replace("a", "b", 2)`, `"aaa".replace("a", "b", 0)`, `"aaa".replace("a", "b", -1)`, `"abc".replace("", "-")`,
	`"a,b,c".split(",")`, `"a,b,c".split(",", 2)`, `"a,b,c".split(",", 0)`, `"a,b,c".split(",", -1)`, `"abc".split("")`, `"".split(",")`, `"héllo".split("")`,
	`"hello".substring(1)`, `"hello".substring(1, 3)`, `"hello".substring(3, 1)`, `"hello".substring(6)`, `"hello".substring(-1)`, `"héllo".substring(1, 2)`, `"hello".substring(5)`,
	`"  a b  ".trim()`, `"\t\n a\u00a0".trim()`, `["a", "b"].join()`, `["a", "b"].join(", ")`, `[].join("-")`, `[1, 2].join()`,
	`strings.quote("a\"b\\c\n\t\u0007")`, `strings.quote("é\u00ff")`, `strings.quote("\u2028")`, `"abc".reverse()`,
	`"%s and %d".format(["a", 1])`, `"%d".format([1u])`, `"%f".format([1.5])`, `"%.2f".format([1.005])`, `"%e".format([1234.5])`, `"%x".format([255])`,
	`"%X".format(["hi"])`, `"%o".format([8])`, `"%b".format([5])`, `"%s".format([[1, "a"]])`, `"%s".format([{"a": 1}])`, `"%s".format([null])`,
	`"%s".format([duration("1s")])`, `"%s".format([timestamp("2020-01-01T00:00:00Z")])`, `"%d".format(["a"])`, `"%s %s".format(["a"])`, `"%%".format([])`,
	`"%s".format([1.5])`, `"%s".format([b"ab"])`, `"%s".format([true])`, `"%.3e".format([0.0])`, `"%f".format([0.0/0.0])`, `"%q".format([1])`,
	`"%d".format([1.5])`, `"%x".format([b"\x01\xff"])`, `"%s".format([type(1)])`, `"%s".format([1u])`, `"%.0f".format([2.5])`, `"%f".format([1.0/0.0])`,
	// sets
	`sets.contains([1, 2, 3], [1, 2])`, `sets.contains([1], [1.0])`, `sets.contains([1], [2])`, `sets.contains([], [])`,
	`sets.equivalent([1, 2], [2, 1, 1])`, `sets.equivalent([1], [1u])`, `sets.equivalent([1], [1, 2])`,
	`sets.intersects([1, 2], [2, 3])`, `sets.intersects([1], [2])`, `sets.intersects([], [])`,
	// lists ext
	`[1, 2, 3, 4].slice(1, 3)`, `[1, 2].slice(2, 1)`, `[1, 2].slice(-1, 1)`, `[1, 2].slice(0, 3)`, `[1, [2, [3, [4]]]].flatten()`,
	`[1, [2, [3, [4]]]].flatten(2)`, `[1, [2]].flatten(-1)`, `[1, 2, 2, 3, 1].distinct()`, `[1, 1.0, 1u, "1"].distinct()`, `lists.range(4)`, `lists.range(0)`, `lists.range(-1)`,
	`[1, 2, 3].reverse()`, `[3, 1, 2].sort()`, `["b", "a"].sort()`, `[1, "a"].sort()`, `[1, 1.5].sort()`, `[[1]].sort()`, `[2.0, 1.0].sort()`,
	`[timestamp("2021-01-01T00:00:00Z"), timestamp("2020-01-01T00:00:00Z")].sort()`, `[3, 1, 2].sortBy(x, -x)`, `["aa", "b"].sortBy(s, s.size())`,
	`[1, 2].first()`, `[].first()`, `[1, 2].last()`, `[].last()`,
	// optionals
	`optional.of(1)`, `optional.none()`, `optional.of(1).hasValue()`, `optional.none().hasValue()`, `optional.of(1).value()`, `optional.none().value()`,
	`optional.none().or(optional.of(2))`, `optional.of(1).or(optional.of(2))`, `optional.none().orValue(3)`, `optional.of(1).orValue(3)`,
	`optional.ofNonZeroValue(0)`, `optional.ofNonZeroValue("")`, `optional.ofNonZeroValue([])`, `optional.ofNonZeroValue(1)`, `optional.ofNonZeroValue(null)`,
	`optional.ofNonZeroValue(false)`, `optional.ofNonZeroValue(0.0)`, `optional.ofNonZeroValue({})`, `optional.ofNonZeroValue(duration("0s"))`,
	`optional.of(1).optMap(x, x + 1)`, `optional.none().optMap(x, x + 1)`, `optional.of(1).optFlatMap(x, optional.of(x + 1))`, `optional.of(1).optFlatMap(x, optional.none())`,
	`{"a": 1}.?a`, `{"a": 1}.?b`, `{"a": 1}[?"a"]`, `{"a": 1}[?"b"]`, `[1, 2][?1]`, `[1, 2][?2]`, `{"a": {"b": 1}}.?a.?b`, `{"a": {"b": 1}}.?a.b`,
	`{"a": 1}.?b.orValue(5)`, `[1, ?optional.of(2), ?optional.none()]`, `{"a": 1, ?"b": optional.none(), ?"c": optional.of(3)}`,
	`optional.of({"a": 1}).a`, `optional.none().a`, `optional.of({"a": 1})["a"]`, `optional.of([1])[0]`, `[?optional.of(1)].size()`,
	`optional.of(1) == optional.of(1)`, `optional.of(1) == optional.none()`, `optional.none() == optional.none()`, `{"a": 1}[?1]`,
	// kubernetes lists and regex
	`[1, 2, 3].isSorted()`, `[3, 1].isSorted()`, `["a", "b"].isSorted()`, `[].isSorted()`, `[1, 2, 3].sum()`, `[1.5, 2.5].sum()`, `[1u, 2u].sum()`,
	`[duration("1s"), duration("2s")].sum()`, `[9223372036854775807, 1].sum()`, `[1, 5, 3].max()`, `[1, 5, 3].min()`, `[].max()`, `["b", "a"].min()`,
	`[1, 2, 1].indexOf(1)`, `[1, 2, 1].lastIndexOf(1)`, `[1, 2].indexOf(3)`, `[1.0, 2.0].indexOf(2.0)`, `[1, 2, 3].includes(2)`,
	`"abc 123 def 456".find("[0-9]+")`, `"abc".find("[0-9]+")`, `"abc 123 def 456".findAll("[0-9]+")`, `"abc 123 def 456".findAll("[0-9]+", 1)`,
	`"abc 123 def 456".findAll("[0-9]+", 0)`, `"abc 123 def 456".findAll("[0-9]+", -1)`, `"abc".find("(")`,
	// the same through dyn, so that the runtime decides
	`[1, dyn("a"), 2.0]`, `{"a": 1, dyn(2): "b"}`, `dyn(5.0) % 2.0`, `-dyn(1u)`, `[1] + dyn(["a"])`, `dyn({"a":1}) + {"b":2}`,
	`dyn(1) + 1.0`, `dyn(1) == 1u`, `dyn(1) == 1.0`, `dyn(1u) == 1.0`, `[1, 2] == dyn([1.0, 2u])`, `{"a": 1} == dyn({"a": 1.0})`,
	`{1: "a"} == dyn({1u: "a"})`, `dyn(1) == null`, `dyn([1, "a"]) == [1, 2]`, `dyn([1]) < [2]`, `dyn(1u) in [1, 2]`, `dyn(1.0) in {1: "a"}`,
	`dyn(1.5) in {1: "a"}`, `dyn(1) in {1u: 2}`, `[1, 2][dyn(1u)]`, `[1, 2][dyn(1.0)]`, `[1, 2][dyn(1.5)]`, `{1: 2}[dyn(1.0)]`, `{1: 2}[dyn(1u)]`,
	`{1u: 2}[dyn(1)]`, `{"a": 1}[dyn(1)]`, `size(dyn(1))`, `"abc".matches(dyn("["))`, `int(dyn(true))`, `bytes(dyn(1))`, `duration(dyn("1"))`,
	`duration(dyn("x"))`, `timestamp(dyn("2020-01-01"))`, `dyn(1).all(x, true)`, `{1: 1, dyn(1u): 2}`, `dyn([1, [2, [3]]])[1][1][0]`,
	`dyn([1, 2]).join()`, `"%d".format([dyn("a")])`, `"%s %s".format(dyn(["a"]))`, `"%q".format(dyn([1]))`, `dyn(-9223372036854775808) / -1`,
	`dyn("a") + 1`, `dyn(1.5) + 1`, `dyn(true) < 1`, `dyn(null) < 1`, `[dyn(1), 2].sort()`, `[1, dyn("a")].sort()`, `[1, dyn(2.0)].max()`,
	`dyn(1).size()`, `dyn("a").contains(1)`, `dyn({"a": 1}).a.b`, `dyn(1).a`, `has(dyn(1).a)`, `has(dyn({"a": 1}).a.b)`, `dyn({"a": null}).a`,
	`dyn(timestamp("2020-01-01T00:00:00Z")) - dyn(duration("1s"))`, `dyn(duration("1s")) - dyn(timestamp("2020-01-01T00:00:00Z"))`,
	`sets.contains(dyn([1, "a"]), [1])`, `[1, 2].map(x, dyn(x) == 1 ? "a" : 2)`, `dyn(optional.of(1)).value()`, `dyn(1).value()`,
	`dyn(1).hasValue()`, `dyn(1).orValue(2)`, `[dyn(1), 2u, 3.0].isSorted()`, `[dyn(1), 2u].sum()`, `[dyn("a"), 1].indexOf(1)`,
	`type(dyn(1)) == int`, `dyn(int) == int`, `type(int) == type`, `string(int)`, `dyn(type(1)) == dyn(type(2))`,
	`dyn(2) in [1.0, 2.0]`, `dyn(2u) in [1, 2]`, `[[1]].exists(x, x == dyn([1.0]))`, `{1: 2}.exists(k, k == 1.0)`,
	// cost: bounded repetition
	`lists.range(100).map(x, lists.range(100).map(y, x * y)).size()`, `"abcd".replace("", "xyz").size()`,
}

// celVarCases bind variables.
func celVarCases() []celCase {
	obj := map[string]any{
		"name": "web", "replicas": int64(3), "ratio": 0.5, "labels": map[string]any{"app": "web", "tier": "front"},
		"ports": []any{int64(80), int64(443)}, "enabled": true, "nothing": nil,
		"items": []any{map[string]any{"n": "a", "v": int64(1)}, map[string]any{"n": "b", "v": int64(2)}},
	}
	var out []celCase
	for _, e := range []string{
		`self.name`, `self.replicas + 1`, `self.ratio * 2.0`, `self.labels.app`, `self.labels["tier"]`, `self.labels.missing`,
		`has(self.labels.app)`, `has(self.missing)`, `self.ports.all(p, p > 0)`, `self.ports.exists(p, p == 443)`, `self.nothing == null`,
		`self.items.map(i, i.n)`, `self.items.filter(i, i.v > 1).size()`, `self.items.exists(i, i.n == "c")`, `self.enabled && self.replicas > 2`,
		`self.?labels.?app.orValue("none")`, `self.?absent.orValue("none")`, `self.labels.all(k, k.size() > 2)`,
		`self.labels.transformMap(k, v, v + "!")`, `self.replicas == 3u`, `self.ports[1]`, `self.ports[2]`, `"web" in self.labels`,
		`self.name.startsWith("w") ? self.replicas : 0`, `int(self.ratio * 10.0)`, `self.items.map(i, i.v).sum()`,
		`size(self.labels) + size(self.ports)`, `self.name + "-" + string(self.replicas)`, `x + y`, `x * y`, `x / y`, `x % y`,
	} {
		out = append(out, celCase{expr: e, vars: map[string]any{"self": obj, "x": int64(7), "y": int64(0)}})
	}
	out = append(out,
		celCase{expr: `t.getFullYear()`, vars: map[string]any{"t": celTime("2024-02-29T23:59:59Z")}},
		celCase{expr: `t + d`, vars: map[string]any{"t": celTime("2024-02-29T23:59:59Z"), "d": time.Hour}},
		celCase{expr: `b.size()`, vars: map[string]any{"b": []byte{1, 2, 3}}},
		celCase{expr: `u + 1u`, vars: map[string]any{"u": uint64(5)}},
		celCase{expr: `m[1] + m[2u]`, vars: map[string]any{"m": map[int64]any{1: int64(10), 2: int64(20)}}},
	)
	out = append(out,
		celCase{expr: `lists.range(50).map(x, lists.range(50).map(y, x + y)).size()`, costLimit: 1000},
		celCase{expr: `[1, 2, 3].map(x, x * 2)`, costLimit: 5},
		celCase{expr: `"ab".replace("", "ab").replace("", "ab")`, costLimit: 10},
	)
	return out
}

func celHandCases() []celCase {
	var out []celCase
	for _, e := range celHandExprs {
		out = append(out, celCase{expr: e})
	}
	return append(out, celVarCases()...)
}

// celRandomCases generates expressions from a small typed grammar, so that
// most compile, mixing in dyn() so that the runtime dispatch decides.
func celRandomCases(r *rand.Rand, n int) []celCase {
	g := &celGen{r: r}
	var out []celCase
	seen := map[string]bool{}
	for len(out) < n {
		kinds := []string{"int", "uint", "double", "string", "bool", "list", "map", "bytes", "duration", "timestamp", "dyn"}
		e := g.gen(kinds[r.Intn(len(kinds))], 3+r.Intn(2))
		if seen[e] {
			continue
		}
		seen[e] = true
		out = append(out, celCase{expr: e})
	}
	return out
}

type celGen struct{ r *rand.Rand }

func (g *celGen) pick(options ...string) string { return options[g.r.Intn(len(options))] }

func (g *celGen) gen(kind string, depth int) string {
	r := g.r
	if depth <= 0 || r.Intn(4) == 0 {
		return g.leaf(kind)
	}
	d := depth - 1
	switch kind {
	case "int":
		switch r.Intn(10) {
		case 0:
			return fmt.Sprintf("(%s %s %s)", g.gen("int", d), g.pick("+", "-", "*", "/", "%"), g.gen("int", d))
		case 1:
			return fmt.Sprintf("size(%s)", g.gen(g.pick("string", "list", "map", "bytes"), d))
		case 2:
			return fmt.Sprintf("int(%s)", g.gen(g.pick("uint", "double", "string", "timestamp", "duration"), d))
		case 3:
			return fmt.Sprintf("%s.%s()", g.gen("timestamp", d), g.pick("getFullYear", "getMonth", "getDayOfYear", "getHours", "getMinutes", "getSeconds", "getMilliseconds", "getDayOfWeek", "getDate"))
		case 4:
			return fmt.Sprintf("%s.indexOf(%s)", g.gen("string", d), g.gen("string", d))
		case 5:
			return fmt.Sprintf("(%s ? %s : %s)", g.gen("bool", d), g.gen("int", d), g.gen("int", d))
		case 6:
			return fmt.Sprintf("%s[%s]", g.intList(d), g.gen("int", d))
		case 7:
			return fmt.Sprintf("-%s", g.gen("int", d))
		case 8:
			return fmt.Sprintf("%s.%s()", g.intList(d), g.pick("sum", "min", "max"))
		default:
			return fmt.Sprintf("%s.lastIndexOf(%s)", g.gen("string", d), g.gen("string", d))
		}
	case "uint":
		switch r.Intn(3) {
		case 0:
			return fmt.Sprintf("(%s %s %s)", g.gen("uint", d), g.pick("+", "-", "*", "/", "%"), g.gen("uint", d))
		case 1:
			return fmt.Sprintf("uint(%s)", g.gen(g.pick("int", "double", "string"), d))
		default:
			return fmt.Sprintf("(%s ? %s : %s)", g.gen("bool", d), g.gen("uint", d), g.gen("uint", d))
		}
	case "double":
		switch r.Intn(3) {
		case 0:
			return fmt.Sprintf("(%s %s %s)", g.gen("double", d), g.pick("+", "-", "*", "/"), g.gen("double", d))
		case 1:
			return fmt.Sprintf("double(%s)", g.gen(g.pick("int", "uint", "string"), d))
		default:
			return fmt.Sprintf("-%s", g.gen("double", d))
		}
	case "string":
		switch r.Intn(9) {
		case 0:
			return fmt.Sprintf("(%s + %s)", g.gen("string", d), g.gen("string", d))
		case 1:
			return fmt.Sprintf("string(%s)", g.gen(g.pick("int", "uint", "double", "bool", "bytes", "duration", "timestamp"), d))
		case 2:
			return fmt.Sprintf("%s.%s()", g.gen("string", d), g.pick("lowerAscii", "upperAscii", "trim"))
		case 3:
			return fmt.Sprintf("%s.substring(%s)", g.gen("string", d), g.gen("int", d))
		case 4:
			return fmt.Sprintf("%s.replace(%s, %s)", g.gen("string", d), g.gen("string", d), g.gen("string", d))
		case 5:
			return fmt.Sprintf("%s.charAt(%s)", g.gen("string", d), g.gen("int", d))
		case 6:
			return fmt.Sprintf("%s.split(%s).join(%s)", g.gen("string", d), g.gen("string", d), g.gen("string", d))
		case 7:
			return fmt.Sprintf("%s.format([%s])", g.pick(`"%s"`, `"%d"`, `"%f"`, `"%x"`, `"%.1e"`, `"%o|%s"`), g.gen(g.pick("int", "string", "double", "list", "uint"), d))
		default:
			return fmt.Sprintf("strings.quote(%s)", g.gen("string", d))
		}
	case "bool":
		switch r.Intn(9) {
		case 0:
			return fmt.Sprintf("(%s %s %s)", g.gen("bool", d), g.pick("&&", "||"), g.gen("bool", d))
		case 1:
			k := g.pick("int", "uint", "double", "string", "duration", "timestamp", "bool", "bytes")
			k2 := k
			if k == "int" || k == "uint" || k == "double" {
				k2 = g.pick("int", "uint", "double")
			}
			return fmt.Sprintf("(%s %s %s)", g.gen(k, d), g.pick("<", "<=", ">", ">=", "==", "!="), g.gen(k2, d))
		case 2:
			return fmt.Sprintf("!%s", g.gen("bool", d))
		case 3:
			return fmt.Sprintf("%s.%s(%s)", g.gen("string", d), g.pick("contains", "startsWith", "endsWith", "matches"), g.gen("string", d))
		case 4:
			return fmt.Sprintf("%s.%s(x, %s)", g.intList(d), g.pick("all", "exists", "exists_one"), g.predicate(d))
		case 5:
			return fmt.Sprintf("(%s in %s)", g.gen("int", d), g.intList(d))
		case 6:
			return fmt.Sprintf("sets.%s(%s, %s)", g.pick("contains", "equivalent", "intersects"), g.intList(d), g.intList(d))
		case 7:
			return fmt.Sprintf("(%s == %s)", g.gen("dyn", d), g.gen("dyn", d))
		default:
			return fmt.Sprintf("%s.isSorted()", g.intList(d))
		}
	case "list":
		switch r.Intn(6) {
		case 0:
			return fmt.Sprintf("%s.map(x, %s)", g.intList(d), g.pick("x * 2", "x / (x - 1)", "string(x)", "[x]", "x + 9223372036854775800"))
		case 1:
			return fmt.Sprintf("%s.filter(x, %s)", g.intList(d), g.predicate(d))
		case 2:
			return fmt.Sprintf("%s.%s()", g.intList(d), g.pick("distinct", "reverse", "sort", "flatten"))
		case 3:
			return fmt.Sprintf("%s.slice(%s, %s)", g.intList(d), g.leaf("int"), g.leaf("int"))
		case 4:
			return fmt.Sprintf("(%s + %s)", g.intList(d), g.intList(d))
		default:
			return fmt.Sprintf("%s.split(%s)", g.gen("string", d), g.gen("string", d))
		}
	case "map":
		return fmt.Sprintf("{%s: %s, %s: %s}", g.leaf("string"), g.gen("dyn", d), g.leaf("string"), g.gen("dyn", d))
	case "bytes":
		return fmt.Sprintf("bytes(%s)", g.gen("string", d))
	case "duration":
		switch r.Intn(3) {
		case 0:
			return fmt.Sprintf("(%s %s %s)", g.gen("duration", d), g.pick("+", "-"), g.gen("duration", d))
		case 1:
			return fmt.Sprintf("(%s - %s)", g.gen("timestamp", d), g.gen("timestamp", d))
		default:
			return fmt.Sprintf("duration(string(%s))", g.gen("duration", d))
		}
	case "timestamp":
		return fmt.Sprintf("(%s %s %s)", g.gen("timestamp", d), g.pick("+", "-"), g.gen("duration", d))
	default: // dyn
		k := g.pick("int", "uint", "double", "string", "bool", "list", "map", "duration")
		return fmt.Sprintf("dyn(%s)", g.gen(k, d))
	}
}

func (g *celGen) predicate(d int) string {
	return g.pick("x > 1", "x % 2 == 0", "1 / x > 0", "x == 3", "x < 0 || x > 5", "true", "x in [1, 2]")
}

func (g *celGen) intList(d int) string {
	n := g.r.Intn(4)
	parts := make([]string, n)
	for i := range parts {
		if d > 0 && g.r.Intn(3) == 0 {
			parts[i] = g.gen("int", d-1)
		} else {
			parts[i] = g.leaf("int")
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (g *celGen) leaf(kind string) string {
	switch kind {
	case "int":
		return g.pick("0", "1", "2", "3", "-1", "7", "100", "9223372036854775807", "-9223372036854775807", "42")
	case "uint":
		return g.pick("0u", "1u", "2u", "18446744073709551615u", "7u")
	case "double":
		return g.pick("0.0", "1.5", "-2.25", "1e300", "0.1", "3.0", "-0.0", "1e-10")
	case "string":
		return g.pick(`""`, `"a"`, `"abc"`, `"Hello, World"`, `"héllo"`, `"a,b,c"`, `" x "`, `"123"`, `"-5"`, `"1.5"`, `"1s"`, `"[a-c]+"`, `"true"`)
	case "bool":
		return g.pick("true", "false")
	case "list":
		return g.pick("[]", "[1, 2]", `["a", "b"]`, "[1, 1.5, 2u]", "[[1], [2, 3]]")
	case "map":
		return g.pick("{}", `{"a": 1}`, `{1: "x", 2: "y"}`)
	case "bytes":
		return g.pick(`b""`, `b"abc"`, `b"\xff\x00"`)
	case "duration":
		return g.pick(`duration("1s")`, `duration("-1h30m")`, `duration("0s")`, `duration("1.5ms")`, `duration("100000h")`)
	case "timestamp":
		return g.pick(`timestamp("2020-01-01T00:00:00Z")`, `timestamp("2024-02-29T12:34:56.789Z")`, `timestamp("1969-12-31T23:59:59Z")`, `timestamp("9999-12-31T00:00:00Z")`)
	default:
		return g.leaf(g.pick("int", "uint", "double", "string", "bool", "list", "map"))
	}
}
