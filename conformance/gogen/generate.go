package main

// gogen generate: every scenarios/**/*.yaml becomes goldens/**/*.json.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v2"
)

const (
	scenarioFormat = "smd-scenarios/v1"
	goldenFormat   = "smd-goldens/v1"
)

type generateOptions struct {
	scenarios string
	goldens   string
	replays   int
	out       io.Writer // progress
}

// generate writes every golden it can and returns the number of problems.
func generate(o generateOptions) (problems int, err error) {
	files, err := scenarioFiles(o.scenarios)
	if err != nil {
		return 0, err
	}
	if files == nil {
		// No scenarios directory: fine only if there is nothing to keep in step.
		if _, statErr := os.Stat(o.goldens); statErr == nil {
			return 0, fmt.Errorf("the scenarios directory %s does not exist but %s does; refusing to treat every golden as stale", o.scenarios, o.goldens)
		}
		fmt.Fprintf(o.out, "gogen: no scenarios directory %s, nothing to do\n", o.scenarios)
		return 0, nil
	}
	wanted := map[string]bool{}
	var written, unchanged int
	for _, rel := range files {
		goldenRel := strings.TrimSuffix(rel, ".yaml") + ".json"
		wanted[goldenRel] = true
		text, errs := generateFile(filepath.Join(o.scenarios, rel), o.replays)
		if len(errs) > 0 {
			for _, e := range errs {
				fmt.Fprintf(o.out, "gogen: ERROR %s: %v\n", filepath.ToSlash(filepath.Join(o.scenarios, rel)), e)
			}
			problems += len(errs)
			continue
		}
		changed, err := writeIfChanged(filepath.Join(o.goldens, goldenRel), text)
		if err != nil {
			return problems, err
		}
		if changed {
			written++
			fmt.Fprintf(o.out, "gogen: wrote %s\n", filepath.ToSlash(filepath.Join(o.goldens, goldenRel)))
		} else {
			unchanged++
		}
	}
	removed, err := removeStale(o.goldens, wanted, o.out)
	if err != nil {
		return problems, err
	}
	fmt.Fprintf(o.out, "gogen: %d scenario files, %d goldens written, %d unchanged, %d stale removed, %d problems\n",
		len(files), written, unchanged, removed, problems)
	return problems, nil
}

// scenarioFiles lists the *.yaml files under dir (relative, sorted); nil
// when dir does not exist.
func scenarioFiles(dir string) ([]string, error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	files := []string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files = append(files, rel)
		return nil
	})
	sort.Strings(files)
	return files, err
}

// generateFile replays every case of one scenario file and renders its
// golden, or returns every problem found.
func generateFile(path string, replays int) ([]byte, []error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, []error{err}
	}
	var doc any
	if err := yaml.UnmarshalStrict(data, &doc); err != nil {
		return nil, []error{fmt.Errorf("not valid YAML: %v", err)}
	}
	tree, err := plainTree("file", doc)
	if err != nil {
		return nil, []error{err}
	}
	file, err := newSpec("file", tree)
	if err != nil {
		return nil, []error{err}
	}
	format, err := file.str("format")
	if err != nil {
		return nil, []error{err}
	}
	if format != scenarioFormat {
		return nil, []error{fmt.Errorf("format is %q, expected %q", format, scenarioFormat)}
	}
	cases, err := file.list("cases")
	if err != nil {
		return nil, []error{err}
	}
	if err := file.finish(); err != nil {
		return nil, []error{err}
	}

	var errs []error
	results := jObject{}
	seen := map[string]bool{}
	for i, raw := range cases {
		name, run, err := decodeCase(fmt.Sprintf("cases[%d]", i), raw, true)
		if name != "" {
			// A malformed case still claims its name.
			if seen[name] {
				errs = append(errs, genErrorf("case %q: duplicate name", name))
				continue
			}
			seen[name] = true
		}
		var result any
		if err == nil {
			result, err = replay(fmt.Sprintf("case %q", name), run, replays)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		results[name] = result
		if obj, ok := result.(jObject); ok {
			if p, ok := obj["panic"]; ok {
				fmt.Fprintf(os.Stderr, "gogen: note: %s: case %q: Go panicked (recorded in the golden): %v\n", path, name, p)
			}
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	text, err := writeJSON(jObject{
		"format": goldenFormat,
		"generator": jObject{
			// Only the library version: goldens must not change with the Go toolchain.
			"structured-merge-diff": smdVersion(),
		},
		"results": results,
	}, true)
	if err != nil {
		return nil, []error{err}
	}
	return text, nil
}

// writeCorpus writes a generated corpus as pretty canonical JSON to path (if it changed) and
// says so; the exit code of a gogen command: 1 (with the error on stderr) when it cannot.
func writeCorpus(cmd, path string, corpus any) int {
	text, err := writeJSON(corpus, true)
	if err == nil {
		var changed bool
		if changed, err = writeIfChanged(path, text); err == nil {
			if changed {
				fmt.Printf("gogen: wrote %s\n", filepath.ToSlash(path))
			} else {
				fmt.Printf("gogen: %s unchanged\n", filepath.ToSlash(path))
			}
			return 0
		}
	}
	fmt.Fprintf(os.Stderr, "gogen: %s: %v\n", cmd, err)
	return 1
}

func writeIfChanged(path string, text []byte) (bool, error) {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, text) {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".gogen-*.tmp")
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(text); err != nil {
		tmp.Close()
		return false, err
	}
	if err := tmp.Close(); err != nil {
		return false, err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return false, err
	}
	return true, os.Rename(tmp.Name(), path)
}

// removeStale deletes the goldens gogen wrote whose scenario file is gone
// (recognised by their "format"), and warns about any other file it finds
// under the goldens directory without touching it.
func removeStale(dir string, wanted map[string]bool, out io.Writer) (removed int, err error) {
	if _, statErr := os.Stat(dir); errors.Is(statErr, fs.ErrNotExist) {
		return 0, nil
	}
	var stale []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if wanted[rel] {
			return nil
		}
		if strings.HasSuffix(rel, ".json") && isGolden(p) {
			stale = append(stale, rel)
			return nil
		}
		fmt.Fprintf(out, "gogen: warning: %s was not written by gogen and matches no scenario file; left alone\n", filepath.ToSlash(p))
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, rel := range stale {
		p := filepath.Join(dir, rel)
		if err := os.Remove(p); err != nil {
			return removed, err
		}
		removed++
		fmt.Fprintf(out, "gogen: removed stale %s (its scenario file is gone)\n", filepath.ToSlash(p))
		// Drop directories this left empty, up to (not including) dir.
		for d := filepath.Dir(p); d != filepath.Clean(dir); d = filepath.Dir(d) {
			if os.Remove(d) != nil {
				break
			}
		}
	}
	return removed, nil
}

func isGolden(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var head struct {
		Format string `json:"format"`
	}
	return json.Unmarshal(data, &head) == nil && head.Format == goldenFormat
}
