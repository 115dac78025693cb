# Writes conformance/apiserver/scenarios/crd-rules.yaml (the scenarios of x-kubernetes-validations
# rules): one property of the Gadget CRD per rule family, cases that set one property each (Go walks
# properties in random order, so one failing property per request keeps the goldens reproducible).
# Run from this directory: python3 crd-rules.py > crd-rules.yaml (needs PyYAML); then regen.

props = []   # (name, schema dict, [(value, note)])
def p(name, schema, rules, values):
    s = dict(schema)
    s["x-kubernetes-validations"] = [r if isinstance(r, dict) else {"rule": r} for r in rules]
    props.append((name, s, values))

S = {"type": "string", "maxLength": 32}
I = {"type": "integer"}
N = {"type": "number"}
B = {"type": "boolean"}
def L(items, **kw): d = {"type": "array", "maxItems": 8, "items": items}; d.update(kw); return d
def M(values, **kw): d = {"type": "object", "maxProperties": 8, "additionalProperties": values}; d.update(kw); return d

# arithmetic and comparisons
p("even", I, ["self % 2 == 0"], [(4, "even"), (3, "odd"), (-2, "negative even")])
p("positive", I, [{"rule": "self > 0", "message": "must be positive"}], [(1, "ok"), (0, "zero")])
p("overflow", I, ["self * 4 > 0"], [(5, "fits"), (4611686018427387904, "overflows int64")])
p("divisor", I, ["100 / self >= 1"], [(10, "ok"), (0, "division by zero"), (200, "quotient 0")])
p("modulo", I, ["100 % self == 0"], [(0, "modulus by zero"), (7, "not a divisor")])
p("ratio", N, ["self > 0.5", "self < 2"], [(0.75, "inside"), (0.25, "below"), (3, "above: a whole number as double")])
p("mixed", N, ["self > 1"], [(1.5, "double against int literal"), (0.5, "below")])
p("uintcmp", I, ["uint(self) > 3u"], [(4, "ok"), (2, "below"), (-1, "negative to uint: error")])
p("dbl", I, ["double(self) / 2.0 == 1.5"], [(3, "ok"), (4, "no")])
p("intconv", S, ["int(self) > 10"], [("42", "parses"), ("4", "small"), ("x", "does not parse")])
p("flag", B, ["self"], [(True, "true"), (False, "false")])
p("notflag", B, ["!self || true"], [(False, "always")])
# strings
p("prefix", S, ["self.startsWith('a') && self.endsWith('z')"], [("abz", "ok"), ("bz", "no prefix")])
p("lower", S, ["self.lowerAscii() == self"], [("abc", "ok"), ("aBc", "upper")])
p("upper", S, ["self.upperAscii() == 'ABC'"], [("abc", "ok"), ("abd", "other")])
p("matches", S, ["self.matches('^[a-z]+[0-9]?$')"], [("abc1", "ok"), ("1abc", "digit first"), ("ab\u00e9", "non-ascii")])
p("unanchored", S, ["self.matches('b+')"], [("abbc", "unanchored"), ("ac", "none")])
p("contains", S, ["!self.contains('..')"], [("a.b", "ok"), ("a..b", "double dot")])
p("size", S, ["size(self) <= 5", "self.size() >= 2"], [("abc", "ok"), ("a", "short"), ("abcdef", "long"), ("\u00e9\u00e9\u00e9\u00e9\u00e9", "five code points")])
p("charat", S, ["self.charAt(1) == 'b'"], [("abc", "ok"), ("a", "at end: empty"), ("", "out of range")])
p("indexof", S, ["self.indexOf('b') == 1", "self.lastIndexOf('b') == self.size() - 1"], [("abb", "ok"), ("bab", "first at 0"), ("ab", "ok 2")])
p("indexfrom", S, ["self.indexOf('a', 1) == -1"], [("ab", "ok"), ("aa", "found"), ("", "offset past end")])
p("split", S, ["self.split(',').size() == 3", "self.split(',', 2).size() <= 2"], [("a,b,c", "three"), ("a,b", "two")])
p("join", L(S), ["self.join('-') == 'a-b'"], [(["a", "b"], "ok"), (["a"], "one")])
p("replace", S, ["self.replace('a', 'x') == 'xbx'", "self.replace('a', 'y', 1) == 'yba'"], [("aba", "ok"), ("abc", "no")])
p("substring", S, ["self.substring(1, 3) == 'bc'"], [("abcd", "ok"), ("ab", "end past size")])
p("substring1", S, ["self.substring(2) == 'cd'"], [("abcd", "ok"), ("abcde", "longer")])
p("trim", S, ["self.trim() == 'x'"], [(" x ", "ok"), ("\tx\n", "whitespace"), ("yy", "no")])
p("quote", S, ["strings.quote(self) == '\"a\\\\nb\"'"], [("a\nb", "newline quoted"), ("ab", "no")])
p("format", S, ["'%s-%d'.format([self, 3]) == 'a-3'"], [("a", "ok"), ("b", "no")])
p("formatf", N, ["'%.2f'.format([self]) == '1.50'"], [(1.5, "ok"), (1.25, "rounded")])
p("concat", S, ["self + '!' == 'hi!'"], [("hi", "ok"), ("ho", "no")])
p("bytes", S, ["bytes(self).size() == 4"], [("\u00e9\u00e9", "two code points, four bytes"), ("ab", "two")])
p("strcmp", S, ["self < 'm'"], [("abc", "less"), ("z", "more")])
# string formats that CEL reads as other types
p("when", {"type": "string", "format": "date-time"}, ["self > timestamp('2020-01-01T00:00:00Z')", "self.getFullYear() < 2100"], [("2024-05-06T07:08:09Z", "ok"), ("2019-01-01T00:00:00Z", "before"), ("2150-01-01T00:00:00Z", "after 2100")])
p("day", {"type": "string", "format": "date"}, ["self.getDayOfWeek() != 0"], [("2024-05-06", "a monday"), ("2024-05-05", "a sunday")])
p("timeout", {"type": "string", "format": "duration"}, ["self <= duration('1h')", "self.getSeconds() >= 1"], [("30m", "ok"), ("2h", "too long"), ("500ms", "under a second")])
p("blob", {"type": "string", "format": "byte"}, ["self.size() == 3"], [("YWJj", "three bytes"), ("YQ==", "one")])
p("hours", S, ["duration(self).getHours() < 5"], [("3h", "ok"), ("6h30m", "too many"), ("x", "bad duration")])
p("stamp", S, ["timestamp(self).getMonth() == 0"], [("2024-01-15T00:00:00Z", "january"), ("2024-02-15T00:00:00Z", "february"), ("nope", "bad timestamp")])
p("tzhours", S, ["timestamp(self).getHours('+02:00') == 1"], [("2024-01-15T23:00:00Z", "crosses midnight"), ("2024-01-15T01:00:00Z", "no")])
p("addtime", S, ["timestamp(self) + duration('24h') > timestamp('2024-01-02T00:00:00Z')"], [("2024-01-01T12:00:00Z", "ok"), ("2023-12-31T00:00:00Z", "no")])
# int-or-string
p("port", {"x-kubernetes-int-or-string": True}, ["type(self) == int ? self < 65536 : self.matches('^[a-z]+$')"], [(80, "int"), (70000, "int too big"), ("http", "name"), ("HTTP", "upper name")])
p("percent", {"x-kubernetes-int-or-string": True}, ["self < 10"], [(5, "int"), ("5%", "string: no overload")])
# lists
p("tags", L(S), ["self.all(t, t.size() <= 3)"], [(["a", "bb"], "ok"), (["a", "bbbb"], "long tag")])
p("anytag", L(S), ["self.exists(t, t == 'x')"], [(["x"], "ok"), (["yy"], "missing")])
p("onetag", L(S), ["self.exists_one(t, t.startsWith('a'))"], [(["ab", "b"], "one"), (["ab", "ac"], "two")])
p("mapped", L(I), ["self.map(x, x * 2).sum() < 10"], [([1, 2], "ok"), ([3, 4], "sum too big")])
p("filtered", L(I), ["self.filter(x, x > 2).size() == 0"], [([1, 2], "ok"), ([1, 5], "one above")])
p("map3", L(I), ["self.map(x, x > 0, x).size() == self.size()"], [([1, 2], "ok"), ([1, -1], "a negative")])
p("inlist", L(S), ["'a' in self"], [(["a", "b"], "ok"), (["b"], "missing")])
p("listidx", L(I), ["self[1] == 2"], [([1, 2], "ok"), ([1], "index out of range")])
p("listcat", L(I), ["self + [3] == [1, 2, 3]"], [([1, 2], "ok"), ([2, 1], "order")])
p("setlist", L(S, **{"x-kubernetes-list-type": "set"}), ["self == ['a', 'b']"], [(["b", "a"], "a set: order does not matter"), (["a", "c"], "other")])
p("atomiclist", L(S), ["self == ['a', 'b']"], [(["b", "a"], "atomic: order matters"), (["a", "b"], "same")])
p("sorted", L(I), ["self.isSorted()"], [([1, 2, 2], "sorted"), ([2, 1], "not")])
p("listmin", L(I), ["self.min() >= 1", "self.max() <= 9"], [([3, 1], "ok"), ([0, 5], "min 0"), ([], "empty: error")])
p("listidxof", L(S), ["self.indexOf('b') == 1 && self.lastIndexOf('b') == 2"], [(["a", "b", "b"], "ok"), (["b"], "first")])
p("distinct", L(I), ["self.distinct().size() == self.size()"], [([1, 2], "ok"), ([1, 1], "dup")])
p("slice", L(I), ["self.slice(1, 3) == [2, 3]"], [([1, 2, 3, 4], "ok"), ([1, 2], "past end")])
p("flatten", L(L(I)), ["self.flatten().size() == 3"], [([[1], [2, 3]], "ok"), ([[1]], "one")])
p("sortl", L(I), ["self.sort() == [1, 2, 3]", "self.reverse()[0] == 3"], [([3, 1, 2], "sorted but reverse of input"), ([2, 1, 3], "ok")])
p("firstl", L(I), ["self.first().orValue(0) == 1", "self.last().hasValue()"], [([1], "ok"), ([], "empty")])
p("rangel", I, ["lists.range(3).size() == self"], [(3, "ok"), (2, "no")])
p("sets", L(I), ["sets.contains(self, [1])", "sets.intersects(self, [5, 6])", "sets.equivalent(self, [1, 5, 1])"], [([1, 5], "ok"), ([1, 2], "no intersect")])
p("twovar", L(S), ["self.all(i, v, i < 2 || v == 'z')"], [(["a", "b", "z"], "ok"), (["a", "b", "c"], "third not z")])
p("existsone2", L(I), ["self.existsOne(i, v, i == v)"], [([0, 5], "one"), ([0, 1], "two")])
p("transform", L(I), ["self.transformList(i, v, i + v) == [0, 2]"], [([0, 1], "ok"), ([1, 1], "no")])
p("transformmap", L(S), ["self.transformMap(i, v, v + 'x').size() == 1"], [(["a"], "ok"), (["a", "b"], "two")])
# maps
p("labels", M(S), ["self.all(k, k.startsWith('a'))", "size(self) <= 2"], [({"ab": "x"}, "ok"), ({"ba": "x"}, "key"), ({"a1": "", "a2": "", "a3": ""}, "three")])
p("mapget", M(S), ["self['k'] == 'v'"], [({"k": "v"}, "ok"), ({"j": "v"}, "no such key")])
p("maphas", M(S), ["has(self.k) && !('j' in self)"], [({"k": "v"}, "ok"), ({"k": "v", "j": "w"}, "j present")])
p("mapopt", M(I), ["self.?k.orValue(0) < 5", "self[?'j'].hasValue() == false"], [({"k": 3}, "ok"), ({}, "absent"), ({"k": 9}, "too big"), ({"j": 1}, "j present")])
p("mapvalues", M(I), ["self.all(k, self[k] > 0)"], [({"a": 1}, "ok"), ({"a": 0}, "zero")])
p("transformmapentry", M(I), ["self.transformMapEntry(k, v, {v: k}).size() == 1"], [({"a": 1}, "ok"), ({"a": 1, "b": 2}, "two")])
p("mapeq", M(I), ["self == {'a': 1, 'b': 2}"], [({"b": 2, "a": 1}, "order does not matter"), ({"a": 1}, "other")])
# objects
OBJ = {"type": "object", "properties": {"min": I, "max": I, "name": S, "x-y": I, "namespace": S, "in": S}}
p("range", OBJ, [{"rule": "self.min <= self.max", "message": "min must not exceed max"}], [({"min": 1, "max": 2}, "ok"), ({"min": 3, "max": 2}, "crossed"), ({"min": 1}, "max absent: no such key")])
p("rangehas", OBJ, ["!has(self.min) || !has(self.max) || self.min <= self.max"], [({"min": 1}, "one side"), ({"min": 5, "max": 2}, "crossed")])
p("escaped", OBJ, ["self.x__dash__y > 0", "self.__namespace__ != 'kube-system'", "self.__in__ != 'x'"], [({"x-y": 1, "namespace": "a", "in": "yy"}, "ok"), ({"x-y": 0, "namespace": "kube-system", "in": "x"}, "all three fail")])
p("optobj", OBJ, ["self.?name.orValue('none') != 'bad'", "!has(self.name) || self.name.size() > 1"], [({}, "absent"), ({"name": "bad"}, "bad"), ({"name": "b"}, "short")])
p("objeq", OBJ, ["self == self"], [({"min": 1}, "an object equals itself")])
p("reasonf", OBJ, [{"rule": "has(self.name)", "reason": "FieldValueRequired", "message": "name is required", "fieldPath": ".name"}], [({"min": 1}, "required with fieldPath"), ({"name": "a"}, "ok")])
p("reasonforbid", OBJ, [{"rule": "!has(self.max)", "reason": "FieldValueForbidden", "message": "max is forbidden", "fieldPath": ".max"}], [({"max": 1}, "forbidden")])
p("reasondup", OBJ, [{"rule": "self.min != self.max", "reason": "FieldValueDuplicate", "fieldPath": ".max"}], [({"min": 1, "max": 1}, "duplicate")])
p("reasoninvalid", OBJ, [{"rule": "self.min < 10", "reason": "FieldValueInvalid", "fieldPath": "['min']"}], [({"min": 11}, "invalid, bracket path")])
p("msgexpr", OBJ, [{"rule": "self.min < 10", "messageExpression": "'min is above 9 in ' + self.name"}], [({"min": 12, "name": "g1"}, "message from an expression")])
p("msgexprfail", OBJ, [{"rule": "self.min < 10", "message": "fallback", "messageExpression": "'min ' + self.name"}], [({"min": 12}, "the message expression errs: the message")])
p("msgexprempty", OBJ, [{"rule": "self.min < 10", "messageExpression": "'  '"}], [({"min": 12}, "an empty message expression: the rule")])
p("msgexprnl", OBJ, [{"rule": "self.min < 10", "messageExpression": "'a\\nb'"}], [({"min": 12}, "a line break in the message")])
p("msgtrim", OBJ, [{"rule": "self.min < 10", "message": "  padded message  "}], [({"min": 12}, "a message trimmed")])
LO = L({"type": "object", "properties": {"name": S, "value": I}, "required": ["name"],
        "x-kubernetes-validations": [{"rule": "self.value >= 0", "message": "item value must not be negative"}]},
       **{"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]})
p("items", LO, ["self.all(i, i.name != 'bad')"], [([{"name": "a", "value": 1}], "ok"), ([{"name": "a", "value": -1}, {"name": "b", "value": -2}], "two items fail"), ([{"name": "bad", "value": 1}], "list rule")])
p("itemsmissing", LO, [], [([{"name": "a"}], "value absent: no such key in the item rule")])
MO = M({"type": "object", "properties": {"v": I}, "x-kubernetes-validations": [{"rule": "self.v < 3"}]})
p("mapitems", MO, [], [({"a": {"v": 1}}, "ok"), ({"a": {"v": 5}}, "value rule fails at its key")])
p("nullable", {"type": "string", "nullable": True, "maxLength": 8}, ["self.size() > 1"], [(None, "null: rules skipped"), ("a", "short")])
p("quantity", S, ["quantity(self).isLessThan(quantity('2Gi'))", "isQuantity(self)"], [("1Gi", "ok"), ("3Gi", "more"), ("x", "not a quantity")])
p("quantityadd", S, ["quantity(self).add(quantity('500m')).asApproximateFloat() == 1.5"], [("1", "ok"), ("2", "no")])
p("ip", S, ["isIP(self) && ip(self).family() == 4"], [("10.0.0.1", "v4"), ("::1", "v6"), ("x", "not an ip")])
p("cidr", S, ["cidr(self).containsIP(ip('10.0.0.5'))"], [("10.0.0.0/24", "contains"), ("10.1.0.0/24", "no"), ("bad", "not a cidr")])
p("url", S, ["isURL(self) && url(self).getHost() == 'example.com'"], [("https://example.com/a", "ok"), ("https://other.com", "other"), ("::", "not a url")])
p("fmtlib", S, ["format.dns1123Label().validate(self).hasValue() == false"], [("abc", "a label"), ("Abc", "upper")])
p("semver", S, ["isSemver(self) && semver(self).isGreaterThan(semver('1.2.0'))"], [("1.3.0", "newer"), ("1.0.0", "older"), ("v1", "not semver")])
p("regexfind", S, ["self.find('[0-9]+') == '42'", "self.findAll('[a-z]').size() == 2"], [("ab42", "ok"), ("a42", "one letter")])
p("typeof", S, ["type(self) == string", "type(1) == int"], [("a", "types")])
p("ternary", I, ["self > 0 ? self < 10 : self > -10"], [(5, "ok"), (-20, "negative")])
p("logic", I, ["self == 1 || self / 0 == 1"], [(1, "short-circuit absorbs the error"), (2, "error")])
p("logicand", I, ["self != 1 && 1 / (self - 1) > 0"], [(1, "absorbed"), (0, "false side")])

def dump(v):
    return json.dumps(v, ensure_ascii=False)

out = []
w = out.append
w("format: smd-apiserver-scenarios/v1")
w("# x-kubernetes-validations: a custom resource's CEL rules as a 1.37 server runs them (issue 13,")
w("# item 5): the standard library and the extensions the server turns on (strings, sets, lists,")
w("# two-variable comprehensions, optional types), the Kubernetes libraries (quantity, IP, CIDR,")
w("# URL, format, semver, regex, lists), values as the schema types them (formats date-time, date,")
w("# duration and byte, int-or-string, sets, maps, objects, escaped property names), runtime errors,")
w("# messages, messageExpression, reason and fieldPath, rules on list items and map values, transition")
w("# rules with oldSelf (map-list items correlated by key), optionalOldSelf, ratcheting, and the rules")
w("# not run while the object has a blocking error. Each rule case sets one property of the spec.")
crd = {
  "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {"name": "gadgets.rules.example.com"},
  "spec": {"group": "rules.example.com", "scope": "Namespaced",
           "names": {"plural": "gadgets", "singular": "gadget", "kind": "Gadget", "listKind": "GadgetList"},
           "versions": [
             {"name": "v1beta1", "served": True, "storage": False, "subresources": {"status": {}},
              "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                 "spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
                 "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}}}},
             {"name": "v1", "served": True, "storage": True, "subresources": {"status": {}},
             "schema": {"openAPIV3Schema": {"type": "object",
               "x-kubernetes-validations": [
                 {"rule": "self.metadata.name != 'forbidden'", "message": "that name is taken"},
                 {"rule": "!has(self.spec) || !has(self.spec.frozen) || !has(oldSelf.spec) || !has(oldSelf.spec.frozen) || self.spec.frozen == oldSelf.spec.frozen", "message": "frozen is immutable"}],
               "properties": {
                 "spec": {"type": "object", "properties": {}},
                 "status": {"type": "object", "properties": {
                    "phase": {"type": "string", "maxLength": 16, "x-kubernetes-validations": [{"rule": "self in ['Ready', 'Failed']"}]},
                    "count": {"type": "integer", "x-kubernetes-validations": [{"rule": "self >= oldSelf", "message": "count may not decrease"}]}}}}}}}]}}
spec_props = crd["spec"]["versions"][1]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
for name, schema, _ in props:
    spec_props[name] = schema
# transition rules and ratcheting
spec_props["frozen"] = {"type": "string", "maxLength": 16}
spec_props["immutable"] = {"type": "string", "maxLength": 16, "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "immutable is immutable"}]}
spec_props["grow"] = {"type": "integer", "x-kubernetes-validations": [{"rule": "self >= oldSelf", "message": "grow may only grow"}, {"rule": "self < 100"}]}
spec_props["optold"] = {"type": "integer", "x-kubernetes-validations": [{"rule": "oldSelf.hasValue() ? self >= oldSelf.value() : self < 10", "optionalOldSelf": True, "message": "optold: below 10 at first, then never down"}]}
spec_props["pool"] = {"type": "array", "maxItems": 8, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
  "items": {"type": "object", "required": ["name"], "properties": {"name": S, "size": I},
            "x-kubernetes-validations": [{"rule": "self.size >= oldSelf.size", "message": "a pool's size may not shrink"}]}}
spec_props["legacy"] = {"type": "string", "maxLength": 16, "x-kubernetes-validations": [{"rule": "self.startsWith('v2')", "message": "legacy must start with v2"}]}
spec_props["bounded"] = {"type": "string", "maxLength": 3, "x-kubernetes-validations": [{"rule": "self != 'no'"}]}
spec_props["embedded"] = {"type": "object", "x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True,
  "x-kubernetes-validations": [{"rule": "self.kind == 'ConfigMap' && self.metadata.name.startsWith('cm-')", "message": "embedded must be a cm- ConfigMap"}]}

w("crds:")
import yaml as _y  # PyYAML, only to write the scenarios
def ydump(obj, indent):
    text = _y.safe_dump(obj, default_flow_style=None, sort_keys=False, allow_unicode=True, width=100)
    return "\n".join((" " * indent + l) if l else l for l in text.splitlines())
w(ydump([crd], 0))
w("cases:")
P = "/apis/rules.example.com/v1/namespaces/{namespace}/gadgets"
cases = []
def body(spec, name="g", extra=None):
    b = {"apiVersion": "rules.example.com/v1", "kind": "Gadget", "metadata": {"name": name}}
    if spec is not None: b["spec"] = spec
    if extra: b.update(extra)
    return b
def post(spec, name="g", extra=None, stored=False):
    s = {"method": "POST", "path": P, "body": body(spec, name, extra)}
    if stored: s["stored"] = True
    return s
def put(spec, name="g", extra=None):
    b = body(spec, name, extra); b["metadata"]["resourceVersion"] = "{resourceVersion}"
    return {"method": "PUT", "path": P + "/" + name, "body": b}
def apply(spec, name="g", manager="kubectl", extra=None):
    return {"method": "PATCH", "path": P + "/" + name, "contentType": "application/apply-patch+yaml",
            "query": {"fieldManager": manager}, "body": body(spec, name, extra)}
def case(name, note, steps): cases.append({"name": name, "note": note, "steps": steps})

for pname, _, values in props:
    for i, (v, note) in enumerate(values):
        case(f"rule-{pname.lower()}-{i}", f"{pname}: {note}", [post({pname: v})])

case("rule-root-name", "the root rule reads metadata.name", [post({}, name="forbidden")])
case("rule-root-ok", "a plain create passes the root rules", [post({"even": 2}, stored=True)])
case("rule-blocking", "a schema type error: the rules are not run, the server says so", [post({"even": "x", "positive": 0})])
case("rule-blocking-required", "a missing required field blocks the rules", [post({"items": [{"value": -1}]})])
case("rule-nonblocking", "a maxLength error blocks; an enum-free value error does not", [post({"bounded": "long", "positive": 0})])
case("rule-transition-frozen", "the root transition rule: frozen cannot change", [
    post({"frozen": "a"}), put({"frozen": "b"})])
case("rule-transition-frozen-set", "frozen may be set when it was absent", [
    post({}), put({"frozen": "b"})])
case("rule-transition-immutable", "self == oldSelf: an update changes it", [
    post({"immutable": "a"}), put({"immutable": "b"}), put({"immutable": "a"})])
case("rule-transition-create", "a transition rule is not run on create", [post({"immutable": "a", "grow": 5}, stored=True)])
case("rule-transition-added", "a field added by an update has no old value: its transition rule is not run", [
    post({}), put({"immutable": "z", "grow": 1})])
case("rule-transition-grow", "grow may only grow; its second rule is a plain one", [
    post({"grow": 5}), put({"grow": 4}), put({"grow": 200})])
case("rule-transition-apply", "transition rules under apply", [
    apply({"grow": 5}), apply({"grow": 3}), apply({"grow": 7})])
case("rule-optional-old", "optionalOldSelf: run on create with none, then against the old value", [
    post({"optold": 20}), post({"optold": 5}, name="g2"), put({"optold": 3}, name="g2"), put({"optold": 6}, name="g2")])
case("rule-maplist-correlated", "items of a map list are correlated by key: the old item's size", [
    post({"pool": [{"name": "a", "size": 3}, {"name": "b", "size": 1}]}),
    put({"pool": [{"name": "b", "size": 1}, {"name": "a", "size": 2}]}),
    put({"pool": [{"name": "c", "size": 0}, {"name": "a", "size": 3}, {"name": "b", "size": 1}]})])
P1 = "/apis/rules.example.com/v1beta1/namespaces/{namespace}/gadgets"
def post_beta(spec, name="g"):
    b = body(spec, name); b["apiVersion"] = "rules.example.com/v1beta1"
    return {"method": "POST", "path": P1, "body": b}
case("rule-ratchet-unchanged", "an object stored through v1beta1 (no rules) where v1's rule fails: a v1 update leaving the field unchanged is accepted with a warning", [
    post_beta({"legacy": "x1", "even": 4}), put({"legacy": "x1", "even": 4, "positive": 1})])
case("rule-ratchet-changed", "the failing field changed to another failing value: refused", [
    post_beta({"legacy": "x1"}), put({"legacy": "x2"})])
case("rule-ratchet-fixed", "the failing field fixed: accepted, no warning", [
    post_beta({"legacy": "x1"}), put({"legacy": "v2x"})])
case("rule-ratchet-parent", "a map list item unchanged under a changed list: the item's rule ratchets by its correlated item", [
    post_beta({"items": [{"name": "a", "value": -1}]}),
    put({"items": [{"name": "a", "value": -1}, {"name": "b", "value": 1}]}),
    put({"items": [{"name": "a", "value": -2}, {"name": "b", "value": 1}]})])
case("rule-ratchet-transition", "transition rules are never ratcheted", [
    post_beta({"grow": 5}), put({"grow": 4})])
case("rule-ratchet-apply", "ratcheting under apply", [
    post_beta({"legacy": "x1"}), apply({"legacy": "x1", "even": 2}, manager="applier")])
case("rule-ratchet-status", "a status update leaving a failing spec field unchanged: the spec's rule ratchets too", [
    post_beta({"legacy": "x1"}),
    {"method": "PUT", "path": P + "/g/status", "body": {**body({"legacy": "x1"}), "metadata": {"name": "g", "resourceVersion": "{resourceVersion}"}, "status": {"phase": "Ready"}}}])
case("rule-status", "status rules on the status subresource, with a transition rule", [
    post({}),
    {"method": "PUT", "path": P + "/g/status", "body": {**body({}), "metadata": {"name": "g", "resourceVersion": "{resourceVersion}"}, "status": {"phase": "Ready", "count": 3}}},
    {"method": "PUT", "path": P + "/g/status", "body": {**body({}), "metadata": {"name": "g", "resourceVersion": "{resourceVersion}"}, "status": {"phase": "Gone", "count": 3}}}])
case("rule-status-create", "a create's status is dropped before validation (status subresource)", [post({}, extra={"status": {"phase": "Gone"}}, stored=True)])
case("rule-embedded-ok", "an embedded resource's rule", [post({"embedded": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm-a"}}}, stored=True)])
case("rule-embedded-bad", "an embedded resource's rule fails", [post({"embedded": {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}}})])
case("rule-dryrun", "a dry-run create is validated alike", [
    {"method": "POST", "path": P, "query": {"dryRun": "All"}, "body": body({"even": 3})}])
case("rule-apply-create", "an apply that creates", [apply({"even": 3, "positive": 1})])

for c in cases:
    w(ydump([c], 0))
print("\n".join(out))
