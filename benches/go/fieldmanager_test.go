package benches

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/spec3"
	openapispec "k8s.io/kube-openapi/pkg/validation/spec"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// The fieldmanager suite: the API server's field manager, k8s.io/apimachinery's
// managedfields.NewDefaultFieldManager (the whole chain: version check, last-applied, skip
// non-applied, manager cap, manager info, managedFields times, strip meta, the structured merge)
// on *unstructured.Unstructured objects, typed by managedfields.NewTypeConverter over the
// Kubernetes 1.37 OpenAPI v3 documents (the schema smd embeds). The Rust twin is
// ../src/fieldmanager.rs; both read ../data/fieldmanager and reach the same results
// (TestFieldManagerState, ../data/fieldmanager-state.txt).

// fmState holds, for every benchmark, a digest of its result as Go computes it.
const fmState = "../data/fieldmanager-state.txt"

var updateFMState = flag.Bool("update-fieldmanager-state", false, "rewrite "+fmState)

// The managers of the suite: kubectl applies the manifest; gitops applies the changed manifest
// without force and conflicts with kubectl.
const (
	fmApplier    = "kubectl"
	fmConflicter = "gitops"
)

// fmResets are the reset fields of the suite's kinds, as their registry strategies give them
// (k8s.io/kubernetes v1.37.2; conformance/gogen's builtinEndpoints): kind -> subresource ->
// apiVersion -> paths. ConfigMap's store has none, and the installer passes an empty map.
var fmResets = map[string]map[string]map[string][][]string{
	"Deployment": {
		"":       {"apps/v1": {{"status"}}},
		"status": {"apps/v1": {{"spec"}, {"metadata", "labels"}}},
	},
	"Pod": {
		"":       {"v1": {{"status"}}},
		"status": {"v1": {{"spec"}, {"metadata", "deletionTimestamp"}, {"metadata", "ownerReferences"}}},
	},
	"ConfigMap": {"": {}},
}

// The fakes of managedfields/internal/testing (conformance/gogen's): an identity convertor, a
// defaulter that does nothing, a creater of empty unstructured objects.

type fakeConvertor struct{}

func (fakeConvertor) Convert(in, out, context any) error { return nil }
func (fakeConvertor) ConvertToVersion(in runtime.Object, _ runtime.GroupVersioner) (runtime.Object, error) {
	return in, nil
}
func (fakeConvertor) ConvertFieldLabel(_ schema.GroupVersionKind, _, _ string) (string, string, error) {
	return "", "", fmt.Errorf("not implemented")
}

type fakeDefaulter struct{}

func (fakeDefaulter) Default(runtime.Object) {}

type fakeCreater struct{}

func (fakeCreater) New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	u := unstructured.Unstructured{Object: map[string]any{}}
	u.SetAPIVersion(gvk.GroupVersion().String())
	u.SetKind(gvk.Kind)
	return &u, nil
}

// kubernetesModuleDir is the module cache directory of kubernetesModule, downloaded if need be.
func kubernetesModuleDir() (string, error) {
	dir, err := goModuleDir(kubernetesModule)
	if err != nil {
		return "", fmt.Errorf("cannot locate the Kubernetes OpenAPI spec: %w", err)
	}
	return dir, nil
}

const gvkExtension = "x-kubernetes-group-version-kind"

// kubernetesV3Models is the union of the OpenAPI v3 documents of kubernetesModule
// (api/openapi-spec/v3/*.json), merged as conformance/gogen's unionModels merges them: what
// gogen embed converts into the schema smd embeds.
func kubernetesV3Models() (map[string]*openapispec.Schema, error) {
	dir, err := kubernetesModuleDir()
	if err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(dir, "api", "openapi-spec", "v3", "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no v3 documents under %s", dir)
	}
	sort.Strings(files)
	out := map[string]*openapispec.Schema{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var doc spec3.OpenAPI
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if doc.Components == nil {
			continue
		}
		names := make([]string, 0, len(doc.Components.Schemas))
		for k := range doc.Components.Schemas {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, name := range names {
			s := doc.Components.Schemas[name]
			prev, ok := out[name]
			if !ok {
				out[name] = s
				continue
			}
			merged, err := mergeDefinition(name, prev, s)
			if err != nil {
				return nil, err
			}
			out[name] = merged
		}
	}
	return out, nil
}

// mergeDefinition is conformance/gogen's: a name defined twice must be defined alike, except for
// its x-kubernetes-group-version-kind list, whose union keeps each entry once, first-seen first.
func mergeDefinition(name string, a, b *openapispec.Schema) (*openapispec.Schema, error) {
	strip := func(s *openapispec.Schema) openapispec.Schema {
		c := *s
		c.Extensions = openapispec.Extensions{}
		for k, v := range s.Extensions {
			if k != gvkExtension {
				c.Extensions[k] = v
			}
		}
		return c
	}
	sa, sb := strip(a), strip(b)
	if !reflect.DeepEqual(sa, sb) {
		return nil, fmt.Errorf("definition %s differs between documents beyond %s", name, gvkExtension)
	}
	ga, _ := a.Extensions[gvkExtension].([]any)
	gb, _ := b.Extensions[gvkExtension].([]any)
	merged := append([]any{}, ga...)
	for _, g := range gb {
		seen := false
		for _, h := range merged {
			if reflect.DeepEqual(g, h) {
				seen = true
				break
			}
		}
		if !seen {
			merged = append(merged, g)
		}
	}
	m := *a
	m.Extensions = openapispec.Extensions{}
	for k, v := range a.Extensions {
		m.Extensions[k] = v
	}
	if len(merged) > 0 {
		m.Extensions[gvkExtension] = merged
	}
	return &m, nil
}

var (
	fmTCOnce sync.Once
	fmTC     managedfields.TypeConverter
	fmTCErr  error
)

// kubernetesTypeConverter is managedfields.NewTypeConverter(kubernetesV3Models(), false), built
// once.
func kubernetesTypeConverter() (managedfields.TypeConverter, error) {
	fmTCOnce.Do(func() {
		m, err := kubernetesV3Models()
		if err != nil {
			fmTCErr = err
			return
		}
		fmTC, fmTCErr = managedfields.NewTypeConverter(m, false)
	})
	return fmTC, fmTCErr
}

// newFieldManager is the field manager the API server builds for a built-in kind's endpoint
// (the installer: NewDefaultFieldManager with the registry's reset fields as an exclude filter).
func newFieldManager(tc managedfields.TypeConverter, gvk schema.GroupVersionKind, subresource string) (*managedfields.FieldManager, error) {
	resets, ok := fmResets[gvk.Kind][subresource]
	if !ok {
		return nil, fmt.Errorf("no reset fields for %s subresource %q", gvk.Kind, subresource)
	}
	sets := map[fieldpath.APIVersion]*fieldpath.Set{}
	for v, paths := range resets {
		s := fieldpath.NewSet()
		for _, p := range paths {
			s.Insert(pathOfNames(p))
		}
		sets[fieldpath.APIVersion(v)] = s
	}
	filter := fieldpath.NewExcludeFilterSetMap(sets)
	return managedfields.NewDefaultFieldManager(tc, fakeConvertor{}, fakeDefaulter{}, fakeCreater{}, gvk, gvk.GroupVersion(), subresource, filter)
}

func pathOfNames(fields []string) fieldpath.Path {
	p := make(fieldpath.Path, len(fields))
	for i := range fields {
		name := fields[i]
		p[i] = fieldpath.PathElement{FieldName: &name}
	}
	return p
}

// mergePatch applies a JSON merge patch (RFC 7386) to dst: maps merge, null deletes, anything
// else replaces (a copy of the patch's value).
func mergePatch(dst, patch map[string]any) {
	for k, v := range patch {
		switch pv := v.(type) {
		case nil:
			delete(dst, k)
		case map[string]any:
			dm, ok := dst[k].(map[string]any)
			if !ok {
				dm = map[string]any{}
				dst[k] = dm
			}
			mergePatch(dm, pv)
		default:
			dst[k] = runtime.DeepCopyJSONValue(v)
		}
	}
}

// fmObject is one object of the suite, read and prepared: everything a benchmark needs, built
// outside the timer.
type fmObject struct {
	name       string
	main       *managedfields.FieldManager // the main resource's
	controller *managedfields.FieldManager // where the controller writes (main or status)
	ctlManager string
	empty      runtime.Object // the live object of a create (creater.New)
	manifest   *unstructured.Unstructured
	changed    *unstructured.Unstructured
	// stored is the object after kubectl's create by apply and the controller's first update.
	stored *unstructured.Unstructured
	// ctlNew is the controller's second update: stored with the second patch (copied for each
	// call: Update writes into it).
	ctlNew *unstructured.Unstructured
}

func readUnstructured(raw json.RawMessage) (*unstructured.Unstructured, error) {
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(raw); err != nil {
		return nil, err
	}
	return u, nil
}

// fmObjectNames reads objects.json: the objects' names in benchmark order.
func fmObjectNames() ([]string, error) {
	data, err := os.ReadFile(filepath.Join(fmDataDir, "objects.json"))
	if err != nil {
		return nil, err
	}
	var names []string
	return names, json.Unmarshal(data, &names)
}

func loadFMObject(tc managedfields.TypeConverter, name string) (*fmObject, error) {
	data, err := os.ReadFile(filepath.Join(fmDataDir, name+".json"))
	if err != nil {
		return nil, err
	}
	var file struct {
		Controller struct {
			Manager     string `json:"manager"`
			Subresource string `json:"subresource"`
		} `json:"controller"`
		Manifest          json.RawMessage   `json:"manifest"`
		Changed           json.RawMessage   `json:"changed"`
		ControllerPatches []json.RawMessage `json:"controllerPatches"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, err
	}
	o := &fmObject{name: name, ctlManager: file.Controller.Manager}
	if o.manifest, err = readUnstructured(file.Manifest); err != nil {
		return nil, err
	}
	if o.changed, err = readUnstructured(file.Changed); err != nil {
		return nil, err
	}
	if len(file.ControllerPatches) != 2 {
		return nil, fmt.Errorf("%s: %d controller patches, want 2", name, len(file.ControllerPatches))
	}
	var patches [2]map[string]any
	for i, raw := range file.ControllerPatches {
		// The API server's JSON reading: integers are int64.
		if err := utiljson.Unmarshal(raw, &patches[i]); err != nil {
			return nil, err
		}
	}
	gvk := o.manifest.GroupVersionKind()
	if o.main, err = newFieldManager(tc, gvk, ""); err != nil {
		return nil, err
	}
	if file.Controller.Subresource == "" {
		o.controller = o.main
	} else if o.controller, err = newFieldManager(tc, gvk, file.Controller.Subresource); err != nil {
		return nil, err
	}
	if o.empty, err = (fakeCreater{}).New(gvk); err != nil {
		return nil, err
	}
	created, err := o.main.Apply(o.empty, o.manifest, fmApplier, false)
	if err != nil {
		return nil, fmt.Errorf("%s: create by apply: %w", name, err)
	}
	first := created.(*unstructured.Unstructured).DeepCopy()
	mergePatch(first.Object, patches[0])
	stored, err := o.controller.Update(created, first, o.ctlManager)
	if err != nil {
		return nil, fmt.Errorf("%s: the controller's first update: %w", name, err)
	}
	o.stored = stored.(*unstructured.Unstructured)
	o.ctlNew = o.stored.DeepCopy()
	mergePatch(o.ctlNew.Object, patches[1])
	return o, nil
}

func loadFMObjects(tb testing.TB) []*fmObject {
	tb.Helper()
	tc, err := kubernetesTypeConverter()
	if err != nil {
		tb.Fatalf("the Kubernetes 1.37 type converter: %v", err)
	}
	names, err := fmObjectNames()
	if err != nil {
		tb.Fatal(err)
	}
	var out []*fmObject
	for _, n := range names {
		o, err := loadFMObject(tc, n)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, o)
	}
	return out
}

// fmOp is one benchmark of an object: `call` is the timed work; `input`, when set, makes the
// object it is given (outside the timer: Update writes into its new object, which the API
// server decodes afresh for every request).
type fmOp struct {
	name    string
	input   func() runtime.Object
	call    func(in runtime.Object) (runtime.Object, error)
	wantErr bool
}

func (o *fmObject) ops() []fmOp {
	return []fmOp{
		{name: "apply-create", call: func(runtime.Object) (runtime.Object, error) {
			return o.main.Apply(o.empty, o.manifest, fmApplier, false)
		}},
		{name: "apply-noop", call: func(runtime.Object) (runtime.Object, error) {
			return o.main.Apply(o.stored, o.manifest, fmApplier, false)
		}},
		{name: "apply-change", call: func(runtime.Object) (runtime.Object, error) {
			return o.main.Apply(o.stored, o.changed, fmApplier, false)
		}},
		{name: "apply-conflict", wantErr: true, call: func(runtime.Object) (runtime.Object, error) {
			return o.main.Apply(o.stored, o.changed, fmConflicter, false)
		}},
		{
			name:  "update",
			input: func() runtime.Object { return o.ctlNew.DeepCopy() },
			call: func(in runtime.Object) (runtime.Object, error) {
				return o.controller.Update(o.stored, in, o.ctlManager)
			},
		},
	}
}

func (op fmOp) check(out runtime.Object, err error) error {
	switch {
	case op.wantErr && err == nil:
		return fmt.Errorf("%s: no error, want a conflict", op.name)
	case !op.wantErr && err != nil:
		return fmt.Errorf("%s: %v", op.name, err)
	case !op.wantErr && out == nil:
		return fmt.Errorf("%s: no object", op.name)
	}
	return nil
}

// fmInputBatch is how many inputs an update benchmark makes at a time, with the timer stopped.
const fmInputBatch = 64

// BenchmarkFieldManager times each operation of each object: fieldmanager/<Obj>/<op> of
// benches/compare (see ../README.md).
func BenchmarkFieldManager(b *testing.B) {
	for _, o := range loadFMObjects(b) {
		b.Run(o.name, func(b *testing.B) {
			for _, op := range o.ops() {
				b.Run(op.name, func(b *testing.B) {
					b.ReportAllocs()
					if op.input == nil {
						for i := 0; i < b.N; i++ {
							if err := op.check(op.call(nil)); err != nil {
								b.Fatal(err)
							}
						}
						return
					}
					inputs := make([]runtime.Object, fmInputBatch)
					for i := 0; i < b.N; {
						n := min(fmInputBatch, b.N-i)
						b.StopTimer()
						for j := 0; j < n; j++ {
							inputs[j] = op.input()
						}
						b.StartTimer()
						for j := 0; j < n; j++ {
							if err := op.check(op.call(inputs[j])); err != nil {
								b.Fatal(err)
							}
							inputs[j] = nil
						}
						i += n
					}
				})
			}
		})
	}
}

// fmDigest is a result's line of fmState: the object as canonical JSON (keys sorted, every
// managedFields time "T": Go's clock is not Rust's fixed one), its length and FNV-1a 64; or the
// error's text.
func fmDigest(name string, out runtime.Object, err error) (string, error) {
	if err != nil {
		return fmt.Sprintf("%s error %s", name, strings.ReplaceAll(err.Error(), "\n", `\n`)), nil
	}
	u, ok := out.(*unstructured.Unstructured)
	if !ok {
		return "", fmt.Errorf("%s: result is a %T", name, out)
	}
	c := runtime.DeepCopyJSON(u.Object)
	if meta, ok := c["metadata"].(map[string]any); ok {
		if entries, ok := meta["managedFields"].([]any); ok {
			for _, e := range entries {
				if m, ok := e.(map[string]any); ok {
					if _, has := m["time"]; has {
						m["time"] = "T"
					}
				}
			}
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c); err != nil {
		return "", err
	}
	text := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	h := fnv.New64a()
	h.Write(text)
	return fmt.Sprintf("%s %d %016x", name, len(text), h.Sum64()), nil
}

// TestFieldManagerState checks every benchmark's result against fmState (with
// -update-fieldmanager-state: writes it), and that no call changes the objects it is given
// (the benchmarks reuse them).
func TestFieldManagerState(t *testing.T) {
	var lines []string
	for _, o := range loadFMObjects(t) {
		for _, op := range o.ops() {
			name := o.name + "/" + op.name
			before := []*unstructured.Unstructured{o.empty.(*unstructured.Unstructured).DeepCopy(), o.manifest.DeepCopy(), o.changed.DeepCopy(), o.stored.DeepCopy(), o.ctlNew.DeepCopy()}
			var in runtime.Object
			if op.input != nil {
				in = op.input()
			}
			out, err := op.call(in)
			if cerr := op.check(out, err); cerr != nil {
				t.Fatalf("%s: %v", name, cerr)
			}
			after := []*unstructured.Unstructured{o.empty.(*unstructured.Unstructured), o.manifest, o.changed, o.stored, o.ctlNew}
			for i := range before {
				if !reflect.DeepEqual(before[i].Object, after[i].Object) {
					t.Fatalf("%s: input %d changed", name, i)
				}
			}
			line, err := fmDigest(name, out, err)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, line)
		}
	}
	got := strings.Join(lines, "\n") + "\n"
	if *updateFMState {
		if err := os.WriteFile(fmState, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(fmState)
	if err != nil {
		t.Fatalf("%v (run with -update-fieldmanager-state to write it)", err)
	}
	if !bytes.Equal(want, []byte(got)) {
		t.Errorf("results differ from %s:\n%s", fmState, got)
	}
}
