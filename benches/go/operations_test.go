package benches

import (
	"bytes"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v2"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// The operations suite: end-to-end applies and updates through merge.Updater, as upstream's
// merge benchmarks time them with the fixture of internal/fixture (internal to the module, so
// its flow is redone here with the public API; see runFlow). The Rust twins are in
// ../src/operations.rs; both sides read the same inputs and reach the same final state
// (TestOperationsFinalState, ../data/operations-state.txt).

// operationsData is the file of the small upstream merge benchmarks' schemas and operations.
const operationsData = "../data/operations.yaml"

// operationsState holds, for every flow, a digest of its final state as Go computes it.
const operationsState = "../data/operations-state.txt"

var updateState = flag.Bool("update-operations-state", false, "rewrite "+operationsState)

// opKind is what an operation does.
type opKind int

const (
	opUpdate opKind = iota
	opApply
	opForceApply
)

// op is one pre-parsed operation (the fixture's UpdateObject, ApplyObject, ForceApplyObject).
type op struct {
	kind      opKind
	manager   string
	version   fieldpath.APIVersion
	object    *typed.TypedValue
	conflicts merge.Conflicts // expected by an apply; nil: none
}

// flow is a TestCase with its operations pre-parsed (PreprocessOperations) and its parser.
type flow struct {
	typ               typed.ParseableType // the type of every version (SameVersionParser)
	converter         merge.Converter
	returnInputOnNoop bool
	ops               []op
}

// identityConverter is the fixture's dummyConverter: every object is at every version.
type identityConverter struct{}

func (identityConverter) Convert(v *typed.TypedValue, version fieldpath.APIVersion) (*typed.TypedValue, error) {
	if len(version) == 0 {
		return nil, fmt.Errorf("cannot convert to invalid version: %q", version)
	}
	return v, nil
}

func (identityConverter) IsMissingVersionError(error) bool { return false }

var errMissingVersion = fmt.Errorf("cannot convert to invalid version")

// repeatingConverter is merge/multiple_appliers_test.go's: at version vN, every map key below
// the top level is its first letter repeated N times (by way of yaml.Marshal and back).
type repeatingConverter struct{ typ typed.ParseableType }

func (r repeatingConverter) Convert(v *typed.TypedValue, version fieldpath.APIVersion) (*typed.TypedValue, error) {
	if len(version) < 2 || string(version)[0] != 'v' {
		return nil, errMissingVersion
	}
	versionNumber, err := strconv.Atoi(string(version)[1:len(version)])
	if err != nil {
		return nil, errMissingVersion
	}
	y, err := yaml.Marshal(v.AsValue().Unstructured())
	if err != nil {
		return nil, err
	}
	str := string(y)
	var str2 string
	for i, line := range strings.Split(str, "\n") {
		if i == 0 {
			str2 = line
		} else {
			spaces := strings.Repeat(" ", countLeadingSpace(line))
			if len(spaces) == 0 {
				break
			}
			c := line[len(spaces) : len(spaces)+1]
			c = strings.Repeat(c, versionNumber)
			str2 = fmt.Sprintf("%v\n%v%v:", str2, spaces, c)
		}
	}
	v2, err := r.typ.FromYAML(typed.YAMLObject(str2))
	if err != nil {
		return nil, err
	}
	return v2, nil
}

func countLeadingSpace(line string) int {
	spaces := 0
	for _, letter := range line {
		if letter == ' ' {
			spaces++
		} else {
			break
		}
	}
	return spaces
}

func (repeatingConverter) IsMissingVersionError(err error) bool { return err == errMissingVersion }

// runFlow is one iteration of upstream's TestCase.BenchWithConverter: a new updater, an empty
// state, then the operations as fixture.State runs them (the live object starts as the typed
// null of FromUnstructured(nil) and is converted to each operation's version first; a no-op
// apply's nil object keeps the live one; an apply's conflicts must be the expected ones).
func runFlow(f *flow) (*typed.TypedValue, fieldpath.ManagedFields, error) {
	updater := (&merge.UpdaterBuilder{
		Converter:         f.converter,
		ReturnInputOnNoop: f.returnInputOnNoop,
	}).BuildUpdater()
	var live *typed.TypedValue
	var managers fieldpath.ManagedFields
	for i := range f.ops {
		o := &f.ops[i]
		if live == nil {
			obj, err := f.typ.FromUnstructured(nil)
			if err != nil {
				return nil, nil, fmt.Errorf("failed to create new empty object: %v", err)
			}
			live = obj
		}
		converted, err := f.converter.Convert(live, o.version)
		if err != nil {
			return nil, nil, fmt.Errorf("failed operation %d: %v", i, err)
		}
		live = converted
		switch o.kind {
		case opUpdate:
			obj, m, err := updater.Update(live, o.object, o.version, managers, o.manager)
			if err != nil {
				return nil, nil, fmt.Errorf("failed operation %d: %v", i, err)
			}
			live, managers = obj, m
		default:
			obj, m, err := updater.Apply(live, o.object, o.version, managers, o.manager, o.kind == opForceApply)
			if err != nil {
				got, ok := err.(merge.Conflicts)
				if !ok || o.conflicts == nil {
					return nil, nil, fmt.Errorf("failed operation %d: %v", i, err)
				}
				if !sameConflicts(got, o.conflicts) {
					return nil, nil, fmt.Errorf("failed operation %d: expected conflicts\n%v\ngot\n%v", i, o.conflicts.Error(), got.Error())
				}
				continue
			}
			if o.conflicts != nil {
				return nil, nil, fmt.Errorf("failed operation %d: expected conflicts\n%v\ngot none", i, o.conflicts.Error())
			}
			managers = m
			if obj != nil {
				live = obj
			}
		}
	}
	return live, managers, nil
}

// sameConflicts is the fixture's check: no conflict added, none removed.
func sameConflicts(a, b merge.Conflicts) bool {
	has := func(cs merge.Conflicts, c merge.Conflict) bool {
		for i := range cs {
			if c.Equals(cs[i]) {
				return true
			}
		}
		return false
	}
	for _, c := range a {
		if !has(b, c) {
			return false
		}
	}
	for _, c := range b {
		if !has(a, c) {
			return false
		}
	}
	return true
}

func mustParser(tb testing.TB, text []byte) *typed.Parser {
	p, err := typed.NewParser(typed.YAMLObject(text))
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func readTestdata(tb testing.TB, dir, file string) []byte {
	data, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// realObjects are upstream BenchmarkOperations' schema and object pairs.
var realObjects = []struct{ name, schema, typename, file string }{
	{"Pod", "k8s-schema.yaml", "io.k8s.api.core.v1.Pod", "pod.yaml"},
	{"Node", "k8s-schema.yaml", "io.k8s.api.core.v1.Node", "node.yaml"},
	{"Endpoints", "k8s-schema.yaml", "io.k8s.api.core.v1.Endpoints", "endpoints.yaml"},
	{"Node100%override", "k8s-schema-100pct-fieldoverride.yaml", "io.k8s.api.core.v1.Node", "node.yaml"},
	{"Node10%override", "k8s-schema-10pct-fieldoverride.yaml", "io.k8s.api.core.v1.Node", "node.yaml"},
	{"Endpoints100%override", "k8s-schema-100pct-fieldoverride.yaml", "io.k8s.api.core.v1.Endpoints", "endpoints.yaml"},
	{"Endpoints10%override", "k8s-schema-10pct-fieldoverride.yaml", "io.k8s.api.core.v1.Endpoints", "endpoints.yaml"},
	{"PrometheusCRD", "k8s-schema.yaml", "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinition", "prometheus-crd.yaml"},
	{"apiresourceimport", "apiresourceimport.yaml", "apiresourceimport", "apiresourceimport-cr.yaml"},
}

// opSpec is an operation before its object is parsed.
type opSpec struct {
	kind    opKind
	manager string
	version fieldpath.APIVersion
}

// realOps are upstream BenchmarkOperations' operation lists, in its order.
var realOps = []struct {
	name              string
	returnInputOnNoop bool
	ops               []opSpec
}{
	{"Create", false, []opSpec{{opUpdate, "controller", "v1"}}},
	{"Apply", false, []opSpec{{opApply, "controller", "v1"}}},
	{"ApplyTwice", false, []opSpec{{opApply, "controller", "v1"}, {opApply, "other-controller", "v1"}}},
	{"ApplyTwiceNoCompare", true, []opSpec{{opApply, "controller", "v1"}, {opApply, "other-controller", "v1"}}},
	{"Update", false, []opSpec{{opUpdate, "controller", "v1"}, {opUpdate, "other-controller", "v1"}}},
	{"UpdateVersion", false, []opSpec{{opUpdate, "controller", "v1"}, {opUpdate, "other-controller", "v2"}}},
}

// preprocess parses obj once per operation, as PreprocessOperations does: updates allow
// duplicates, applies do not.
func preprocess(tb testing.TB, typ typed.ParseableType, obj []byte, specs []opSpec) []op {
	ops := make([]op, len(specs))
	for i, s := range specs {
		var opts []typed.ValidationOptions
		if s.kind == opUpdate {
			opts = append(opts, typed.AllowDuplicates)
		}
		tv, err := typ.FromYAML(typed.YAMLObject(obj), opts...)
		if err != nil {
			tb.Fatal(err)
		}
		ops[i] = op{kind: s.kind, manager: s.manager, version: s.version, object: tv}
	}
	return ops
}

// namedFlow is a flow and its benchmark name (after the benchmark function's name).
type namedFlow struct {
	name string
	flow *flow
}

// realFlows are upstream BenchmarkOperations' 54 flows, named <Obj>/<Op>.
func realFlows(tb testing.TB) []namedFlow {
	dir := smdTestdata(tb)
	parsers := map[string]*typed.Parser{}
	var out []namedFlow
	for _, obj := range realObjects {
		p, ok := parsers[obj.schema]
		if !ok {
			p = mustParser(tb, readTestdata(tb, dir, obj.schema))
			parsers[obj.schema] = p
		}
		typ := p.Type(obj.typename)
		text := readTestdata(tb, dir, obj.file)
		for _, t := range realOps {
			out = append(out, namedFlow{obj.name + "/" + t.name, &flow{
				typ:               typ,
				converter:         identityConverter{},
				returnInputOnNoop: t.returnInputOnNoop,
				ops:               preprocess(tb, typ, text, t.ops),
			}})
		}
	}
	return out
}

// fixtureFile is ../data/operations.yaml.
type fixtureFile struct {
	Schemas    map[string]string `yaml:"schemas"`
	Benchmarks []struct {
		Name      string `yaml:"name"`
		Schema    string `yaml:"schema"`
		Type      string `yaml:"type"`
		Converter string `yaml:"converter"`
		Ops       []struct {
			Op        string `yaml:"op"`
			Manager   string `yaml:"manager"`
			Version   string `yaml:"version"`
			Object    string `yaml:"object"`
			Conflicts []struct {
				Manager string   `yaml:"manager"`
				Path    []string `yaml:"path"`
			} `yaml:"conflicts"`
		} `yaml:"ops"`
	} `yaml:"benchmarks"`
}

// fixtureFlows are the small upstream merge benchmarks of ../data/operations.yaml, named as
// their upstream function without "Benchmark".
func fixtureFlows(tb testing.TB) []namedFlow {
	data, err := os.ReadFile(operationsData)
	if err != nil {
		tb.Fatal(err)
	}
	var file fixtureFile
	if err := yaml.UnmarshalStrict(data, &file); err != nil {
		tb.Fatalf("%s: %v", operationsData, err)
	}
	var out []namedFlow
	for _, b := range file.Benchmarks {
		typ := typed.DeducedParseableType
		if b.Schema != "deduced" {
			text, ok := file.Schemas[b.Schema]
			if !ok {
				tb.Fatalf("%s: no schema %q", b.Name, b.Schema)
			}
			typ = mustParser(tb, []byte(text)).Type(b.Type)
		}
		f := &flow{typ: typ}
		switch b.Converter {
		case "identity":
			f.converter = identityConverter{}
		case "repeating":
			f.converter = repeatingConverter{typ}
		default:
			tb.Fatalf("%s: unknown converter %q", b.Name, b.Converter)
		}
		for _, o := range b.Ops {
			var kind opKind
			var opts []typed.ValidationOptions
			switch o.Op {
			case "update":
				kind, opts = opUpdate, []typed.ValidationOptions{typed.AllowDuplicates}
			case "apply":
				kind = opApply
			case "force-apply":
				kind = opForceApply
			default:
				tb.Fatalf("%s: unknown op %q", b.Name, o.Op)
			}
			tv, err := typ.FromYAML(typed.YAMLObject(o.Object), opts...)
			if err != nil {
				tb.Fatalf("%s: %v", b.Name, err)
			}
			var conflicts merge.Conflicts
			for _, c := range o.Conflicts {
				parts := make([]interface{}, len(c.Path))
				for i, p := range c.Path {
					parts[i] = p
				}
				conflicts = append(conflicts, merge.Conflict{Manager: c.Manager, Path: fieldpath.MakePathOrDie(parts...)})
			}
			f.ops = append(f.ops, op{kind: kind, manager: o.Manager, version: fieldpath.APIVersion(o.Version), object: tv, conflicts: conflicts})
		}
		out = append(out, namedFlow{b.Name, f})
	}
	return out
}

// scalingSizes are the numbers of items of the scaling flows.
var scalingSizes = []int{100, 1000, 10000}

// endpointsWithAddresses is the YAML of an Endpoints with n addresses in one subset (an atomic
// list): address i is 10.<i>>16&255>.<i>>8&255>.<i&255>, its target pod-<i>. The Rust twin
// (operations.rs) writes the same bytes.
func endpointsWithAddresses(n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: scale\n  namespace: default\nsubsets:\n- addresses:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  - ip: 10.%d.%d.%d\n    nodeName: node-%d\n    targetRef:\n      kind: Pod\n      name: pod-%d\n      namespace: default\n      uid: 00000000-0000-0000-0000-%012d\n",
			i>>16&255, i>>8&255, i&255, i%100, i, i)
	}
	b.WriteString("  ports:\n  - name: http\n    port: 8080\n    protocol: TCP\n")
	return b.String()
}

// podWithContainers is the YAML of a Pod with n containers (an associative list keyed by name):
// container-<i>, with an image, one port and one environment variable. The Rust twin
// (operations.rs) writes the same bytes.
func podWithContainers(n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Pod\nmetadata:\n  name: scale\n  namespace: default\nspec:\n  containers:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  - name: container-%d\n    image: registry.example/app:%d\n    ports:\n    - containerPort: 8080\n      protocol: TCP\n    env:\n    - name: INDEX\n      value: \"%d\"\n",
			i, i, i)
	}
	return b.String()
}

// scalingObjects are the generated objects of the scaling flows.
var scalingObjects = []struct {
	name     string
	typename string
	generate func(int) string
}{
	{"EndpointsAddresses", "io.k8s.api.core.v1.Endpoints", endpointsWithAddresses},
	{"PodContainers", "io.k8s.api.core.v1.Pod", podWithContainers},
}

// scalingFlows are Apply and ApplyTwice (as in BenchmarkOperations) of each generated object at
// each size, named <Obj>-<n>/<Op>.
func scalingFlows(tb testing.TB) []namedFlow {
	p := mustParser(tb, readTestdata(tb, smdTestdata(tb), "k8s-schema.yaml"))
	var out []namedFlow
	for _, obj := range scalingObjects {
		typ := p.Type(obj.typename)
		for _, n := range scalingSizes {
			text := []byte(obj.generate(n))
			for _, t := range realOps[1:3] {
				out = append(out, namedFlow{fmt.Sprintf("%s-%d/%s", obj.name, n, t.name), &flow{
					typ:       typ,
					converter: identityConverter{},
					ops:       preprocess(tb, typ, text, t.ops),
				}})
			}
		}
	}
	return out
}

func benchFlows(b *testing.B, flows []namedFlow) {
	for _, nf := range flows {
		f := nf.flow
		b.Run(nf.name, func(b *testing.B) {
			b.ReportAllocs()
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				if _, _, err := runFlow(f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkOperations is upstream merge/real_test.go's: <Obj>/<Op>, each iteration a fresh
// state, then the operations (objects parsed beforehand).
func BenchmarkOperations(b *testing.B) { benchFlows(b, realFlows(b)) }

// BenchmarkFixtureOps are upstream's BenchmarkDeducedSimple, BenchmarkDeducedNested,
// BenchmarkDeducedNestedAcrossVersion, BenchmarkLeafConflictAcrossVersion and
// BenchmarkMultipleApplierRecursiveRealConversion, named without "Benchmark".
func BenchmarkFixtureOps(b *testing.B) { benchFlows(b, fixtureFlows(b)) }

// BenchmarkConvertUnstructured is upstream typed/parser_test.go's "From": FromUnstructured
// (validation) of an object unmarshalled into map[string]interface{} once.
func BenchmarkConvertUnstructured(b *testing.B) {
	dir := smdTestdata(b)
	parser := mustParser(b, readTestdata(b, dir, "k8s-schema.yaml"))
	for _, test := range convertObjects {
		pt := parser.Type(test.typename)
		obj := map[string]interface{}{}
		if err := yaml.Unmarshal(readTestdata(b, dir, test.file), &obj); err != nil {
			b.Fatal(err)
		}
		b.Run(test.typename[strings.LastIndex(test.typename, ".")+1:], func(b *testing.B) {
			b.Run("From", func(b *testing.B) {
				b.ReportAllocs()
				b.ResetTimer()
				for n := 0; n < b.N; n++ {
					if _, err := pt.FromUnstructured(obj); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// BenchmarkOperationsScaling times Apply and ApplyTwice of objects with n items.
func BenchmarkOperationsScaling(b *testing.B) { benchFlows(b, scalingFlows(b)) }

// convertObjects are BenchmarkConvertUnstructured's types and objects.
var convertObjects = []struct{ typename, file string }{
	{"io.k8s.api.core.v1.Pod", "pod.yaml"},
	{"io.k8s.api.core.v1.Node", "node.yaml"},
	{"io.k8s.api.core.v1.Endpoints", "endpoints.yaml"},
	{"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinition", "prometheus-crd.yaml"},
}

// stateDigest is one line of operationsState: the flow's name, its number of managers, the
// size of the live object's field set in fieldsV1 bytes, and the FNV-1a 64 of every manager's
// name, version, applied flag and fieldsV1 (sorted by name) then of the live object's field set.
func stateDigest(name string, live *typed.TypedValue, managers fieldpath.ManagedFields) (string, error) {
	h := fnv.New64a()
	names := make([]string, 0, len(managers))
	for m := range managers {
		names = append(names, m)
	}
	sort.Strings(names)
	for _, m := range names {
		vs := managers[m]
		js, err := vs.Set().ToJSON()
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\n%s\n%t\n%s\n", m, vs.APIVersion(), vs.Applied(), js)
	}
	set, err := live.ToFieldSet()
	if err != nil {
		return "", err
	}
	js, err := set.ToJSON()
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "live\n%s\n", js)
	return fmt.Sprintf("%s managers=%d live-fields-bytes=%d fnv=%016x", name, len(managers), len(js), h.Sum64()), nil
}

// TestOperationsFinalState runs every flow once and checks its final state against
// ../data/operations-state.txt, which the Rust side checks too: both sides do the same work.
// -update-operations-state rewrites the file.
func TestOperationsFinalState(t *testing.T) {
	var lines []string
	for _, group := range []struct {
		prefix string
		flows  []namedFlow
	}{{"", realFlows(t)}, {"", fixtureFlows(t)}, {"Scaling/", scalingFlows(t)}} {
		for _, nf := range group.flows {
			live, managers, err := runFlow(nf.flow)
			if err != nil {
				t.Fatalf("%s: %v", nf.name, err)
			}
			line, err := stateDigest(group.prefix+nf.name, live, managers)
			if err != nil {
				t.Fatalf("%s: %v", nf.name, err)
			}
			lines = append(lines, line)
		}
	}
	got := strings.Join(lines, "\n") + "\n"
	if *updateState {
		if err := os.WriteFile(operationsState, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(operationsState)
	if err != nil {
		t.Fatalf("%v (run with -update-operations-state to write it)", err)
	}
	if !bytes.Equal(want, []byte(got)) {
		t.Errorf("final states differ from %s:\n%s", operationsState, got)
	}
}

// scalingDigests pin the generated objects' bytes: length and FNV-1a 64. The Rust generators
// are checked against the same figures (../tests/operations.rs).
var scalingDigests = map[string]string{
	"EndpointsAddresses-100":   "16425 05e25bfff90dfaa0",
	"EndpointsAddresses-1000":  "164505 abb229e63b38a172",
	"EndpointsAddresses-10000": "1661169 23cd6356b0127b50",
	"PodContainers-100":        "16060 9f947d40b98f6288",
	"PodContainers-1000":       "162760 27477d4ead40088e",
	"PodContainers-10000":      "1656760 29871eb2017cda5a",
}

// TestScalingGenerators checks the generated objects against scalingDigests.
func TestScalingGenerators(t *testing.T) {
	for _, obj := range scalingObjects {
		for _, n := range scalingSizes {
			text := obj.generate(n)
			h := fnv.New64a()
			h.Write([]byte(text))
			name := fmt.Sprintf("%s-%d", obj.name, n)
			if got := fmt.Sprintf("%d %016x", len(text), h.Sum64()); got != scalingDigests[name] {
				t.Errorf("%s: %s, want %s", name, got, scalingDigests[name])
			}
		}
	}
}
