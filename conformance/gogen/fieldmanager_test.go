package main

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v2"
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
