package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The committed examples are what gogen examples writes (CI's regen step
// checks the same; this keeps go test honest on its own).
func TestExamplesUpToDate(t *testing.T) {
	in := filepath.Join("..", "..", "examples")
	out := t.TempDir()
	var log bytes.Buffer
	problems, err := generateExamples(examplesOptions{in: in, out: out, replays: 3, log: &log})
	if err != nil || problems != 0 {
		t.Fatalf("gogen examples: %v, %d problems\n%s", err, problems, log.String())
	}
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		got, _ := os.ReadFile(p)
		want, err := os.ReadFile(filepath.Join(in, rel))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("examples/%s is not what gogen examples writes (run conformance/regen)", filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// An example whose expected error is not Go's is a problem, and nothing of
// it is written.
func TestExamplesCheckGoAnswer(t *testing.T) {
	const manifest = "{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}, data: {k: theirs}}\n"
	sequences := func(wantError string) string {
		return `format: smd-examples/v1
examples:
- name: cm
  resource: {apiVersion: v1, kind: ConfigMap}
  steps:
  - {op: apply, manager: a, object: {yaml: "{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}, data: {k: mine}}"}}
  applies:
  - {manifest: theirs.yaml, manager: b, error: '` + wantError + `'}
`
	}
	for _, tc := range []struct {
		wantError string
		problems  int
	}{
		{`Apply failed with 1 conflict: conflict with "a": .data.k`, 0},
		{`Apply failed with 1 conflict: conflict with "someone else": .data.k`, 1},
	} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "cm"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "sequences.yaml"), []byte(sequences(tc.wantError)), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "cm", "theirs.yaml"), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		var log bytes.Buffer
		problems, err := generateExamples(examplesOptions{in: dir, out: dir, replays: 3, log: &log})
		if err != nil || problems != tc.problems {
			t.Errorf("expecting %q: %v, %d problems (want %d)\n%s", tc.wantError, err, problems, tc.problems, log.String())
		}
		_, statErr := os.Stat(filepath.Join(dir, "cm", "live.yaml"))
		if written := statErr == nil; written != (tc.problems == 0) {
			t.Errorf("expecting %q: live.yaml written: %v", tc.wantError, written)
		}
		if tc.problems > 0 && !strings.Contains(log.String(), `Go refuses it: Apply failed with 1 conflict: conflict with "a": .data.k`) {
			t.Errorf("the problem does not quote Go's error:\n%s", log.String())
		}
	}
}
