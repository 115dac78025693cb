package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/goldens with gogen generate")

// goVersionLine is the only line of a golden that depends on the toolchain.
var goVersionLine = regexp.MustCompile(`(?m)^  "go": "[^"]*",$`)

// TestGenerateTestdata replays testdata/scenarios and compares with
// testdata/goldens (which gogen itself wrote: go test -update).
func TestGenerateTestdata(t *testing.T) {
	out := t.TempDir()
	if *update {
		out = filepath.Join("testdata", "goldens")
	}
	var log bytes.Buffer
	problems, err := generate(generateOptions{
		scenarios: filepath.Join("testdata", "scenarios"),
		goldens:   out,
		replays:   defaultReplays,
		out:       &log,
	})
	if err != nil || problems != 0 {
		t.Fatalf("generate: %v, %d problems\n%s", err, problems, log.String())
	}
	if *update {
		return
	}
	files, err := scenarioFiles(filepath.Join("testdata", "scenarios"))
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range files {
		golden := strings.TrimSuffix(rel, ".yaml") + ".json"
		want, err := os.ReadFile(filepath.Join("testdata", "goldens", golden))
		if err != nil {
			t.Fatalf("%v (run go test -update)", err)
		}
		got, err := os.ReadFile(filepath.Join(out, golden))
		if err != nil {
			t.Fatal(err)
		}
		want = goVersionLine.ReplaceAll(want, nil)
		got = goVersionLine.ReplaceAll(got, nil)
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from testdata/goldens (run go test -update and review the diff):\n%s", golden, got)
		}
	}
}

func TestServe(t *testing.T) {
	in := strings.Join([]string{
		`{"kind":"value","op":"compare","a":{"yaml":"1"},"b":{"json":"1.0"}}`,
		`not json`,
		``,
		`{"kind":"value","op":"string","a":{"yaml":"{a: 1, b: 2}"}}`,
		`{"kind":"fieldset","op":"parse","inputBase64":"eyJmOmH/Ijp7fX0="}`,
		`{"kind":"pathElement","op":"parse","input":"x"}`,
	}, "\n")
	var out bytes.Buffer
	if err := serve(strings.NewReader(in), &out, defaultReplays); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{
		`{"compare":0,"equals":true,"reverse":0}`,
		`{"generatorError":`,
		`{"generatorError":"empty request line"}`,
		`{"generatorError":"request: the result varies between replays`,
		`{"empty":false,"fieldsV1":{"$base64":"eyJmOmH/Ijp7fX0="},`,
		`{"error":{"message":"key must be 2 characters long:","stable":"key must be 2 characters long:"}}`,
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines for %d requests:\n%s", len(lines), len(want), out.String())
	}
	for i := range want {
		if !strings.HasPrefix(lines[i], want[i]) {
			t.Errorf("line %d: got %s\nwant prefix %s", i+1, lines[i], want[i])
		}
	}
}

func TestCanonicalFloat(t *testing.T) {
	for f, want := range map[float64]string{
		1: "1.0", 1e21: "1e+21", 1e-7: "1e-07", 123456: "123456.0", 1.5e6: "1.5e+06", 0.0001: "0.0001",
	} {
		if got := canonicalFloat(f); got != jNumber(want) {
			t.Errorf("%v: got %v, want %s", f, got, want)
		}
	}
}

func TestCutAfterGot(t *testing.T) {
	for in, want := range map[string]string{
		".a: expected string, got &value.valueUnstructured{Value:1}": ".a: expected string, got",
		"expected map, got nil": "expected map, got",
		"errors:\n  .a: expected boolean, got &{1}\n  .b: field not declared in schema\n  .c: expected numeric (int or float), got string": "errors:\n  .a: expected boolean, got\n  .b: field not declared in schema\n  .c: expected numeric (int or float), got",
		"got x":                             "got",
		".forgot x: expected string, got 1": ".forgot x: expected string, got",
		"no match here":                     "no match here",
		"ends with got":                     "ends with got",
	} {
		if got := cutAfterGot(in); got != want {
			t.Errorf("cutAfterGot(%q) = %q, want %q", in, got, want)
		}
	}
}

// The kube-openapi whose test data scenarios read is the one go.mod requires.
func TestKubeOpenAPIModuleIsPinned(t *testing.T) {
	data, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(kubeOpenAPIModule, "@", " ", 1)
	if !strings.Contains(string(data), want) {
		t.Fatalf("go.mod does not require %s", want)
	}
}
