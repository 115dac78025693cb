package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The reset fields and scale paths gogen gives the built-in endpoints (read
// from the strategies) are those docs/reset-fields-1.37.yaml catalogues,
// which smd's table is kept from.
func TestBuiltinEndpointsMatchResetFieldsDoc(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "reset-fields-1.37.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Resources []struct {
			Group string `yaml:"group"`
			Kind  string `yaml:"kind"`
			Main  struct {
				ResetFields map[string][]string `yaml:"resetFields"`
			} `yaml:"main"`
			Subresources map[string]struct {
				ResetFields          map[string][]string `yaml:"resetFields"`
				ReplicasPathInParent map[string]string   `yaml:"replicasPathInParent"`
			} `yaml:"subresources"`
		} `yaml:"resources"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	paths := func(ps [][]string) []string {
		var out []string
		for _, p := range ps {
			out = append(out, "."+strings.Join(p, "."))
		}
		sort.Strings(out)
		return out
	}
	sorted := func(m map[string][]string) map[string][]string {
		out := map[string][]string{}
		for k, v := range m {
			c := append([]string(nil), v...)
			sort.Strings(c)
			out[k] = c
		}
		return out
	}
	for gvk, b := range builtinEndpoints {
		var found bool
		for _, r := range doc.Resources {
			if r.Group != gvk.Group || r.Kind != gvk.Kind {
				continue
			}
			found = true
			for sub, byVersion := range b.resets {
				got := map[string][]string{}
				for v, ps := range byVersion {
					got[v] = paths(ps)
				}
				want := map[string][]string{}
				if sub == "" {
					want = sorted(r.Main.ResetFields)
				} else {
					want = sorted(r.Subresources[sub].ResetFields)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s %q: gogen resets %v, the doc %v", gvk, sub, got, want)
				}
			}
			if _, ok := r.Subresources["status"]; ok != (b.resets["status"] != nil) {
				t.Errorf("%s: status subresource: gogen %v, the doc %v", gvk, b.resets["status"] != nil, ok)
			}
			scale, ok := r.Subresources["scale"]
			if ok != (b.scale != nil) {
				t.Errorf("%s: scale subresource: gogen %v, the doc %v", gvk, b.scale != nil, ok)
				continue
			}
			for v, p := range b.scale {
				if want := scale.ReplicasPathInParent[v]; "."+strings.Join(p, ".") != want {
					t.Errorf("%s: replicas path of %s: gogen %v, the doc %q", gvk, v, p, want)
				}
			}
			if len(scale.ReplicasPathInParent) != len(b.scale) {
				t.Errorf("%s: replicas paths: gogen %v, the doc %v", gvk, b.scale, scale.ReplicasPathInParent)
			}
		}
		if !found && len(b.resets[""]) > 0 {
			t.Errorf("%s: not in the doc", gvk)
		}
	}
}

func TestPrefixFromUserAgent(t *testing.T) {
	for in, want := range map[string]string{
		"kubectl/v1.37.2 (linux/amd64)": "kubectl",
		"":                              "",
		"a\tb/c":                        "ab",
		strings.Repeat("x", 130):        strings.Repeat("x", 128),
		strings.Repeat("x", 127) + "é":  strings.Repeat("x", 127),
	} {
		if got := prefixFromUserAgent(in); got != want {
			t.Errorf("prefixFromUserAgent(%q) = %q, want %q", in, got, want)
		}
	}
}

// The notes' [derive] on custom resources (docs/managedfields-notes.md §2.4):
// an unstructured object holds each entry's fieldsV1 as a map, so the stored
// JSON (encoding/json) has its keys sorted by bytes, unlike SMD's Set.ToJSON
// order, which the API server writes for built-in kinds. With ports 80 and
// 443 as keys, SMD writes 80 first (numbers compare as numbers), the stored
// CR 443 first.
func TestCRManagedFieldsStoredAsMaps(t *testing.T) {
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gates.example.com}
spec:
  group: example.com
  names: {kind: Gate, plural: gates}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port]
                items: {type: object, required: [port], properties: {port: {type: integer}}}
`
	crds, err := loadCRDs("test", []string{crd})
	if err != nil {
		t.Fatal(err)
	}
	e, err := crdEndpointFor("test", schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Gate"}, crds)
	if err != nil {
		t.Fatal(err)
	}
	fm, err := e.fieldManager("")
	if err != nil {
		t.Fatal(err)
	}
	patch := &unstructured.Unstructured{}
	if err := json.Unmarshal([]byte(`{"apiVersion":"example.com/v1","kind":"Gate","metadata":{"name":"g","namespace":"default"},"spec":{"ports":[{"port":80},{"port":443}]}}`), &patch.Object); err != nil {
		t.Fatal(err)
	}
	live, _ := fakeCreater{}.New(e.gvk)
	out, err := fm.Apply(live, patch, "kubectl", false)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := json.Marshal(out.(*unstructured.Unstructured).Object)
	if err != nil {
		t.Fatal(err)
	}
	wantStored := `"fieldsV1":{"f:spec":{"f:ports":{"k:{\"port\":443}":{".":{},"f:port":{}},"k:{\"port\":80}":{".":{},"f:port":{}}}}}`
	if !strings.Contains(string(stored), wantStored) {
		t.Errorf("stored CR: %s\nwant it to contain %s", stored, wantStored)
	}
	set, err := parseSet(out.(*unstructured.Unstructured).GetManagedFields()[0].FieldsV1.Raw)
	if err != nil {
		t.Fatal(err)
	}
	smdText, err := toJSON(set)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"f:spec":{"f:ports":{"k:{\"port\":80}":{".":{},"f:port":{}},"k:{\"port\":443}":{".":{},"f:port":{}}}}}`; smdText != want {
		t.Errorf("SMD order: %s, want %s", smdText, want)
	}
}
