package main

// gogen examples: examples/sequences.yaml -> examples/<name>/live.yaml, and
// Go's answer to applying each hand-written manifest of examples/<name>/ to
// that object.
//
// An example is a kind fieldmanager sequence (the keys resource, crds, live
// and steps, read and replayed exactly as a scenario case: the same
// endpoints, scripted clock and uid) whose last stored object is written as
// `kubectl get -o yaml --show-managed-fields` prints it: sigs.k8s.io/yaml of
// the unstructured object (keys sorted, managedFields in the server's
// order). Every step must succeed. Then each entry of `applies` is one more
// step, a server-side apply of a manifest file to that object: Go must
// refuse it with exactly the `error` given, or accept it, and the object it
// stores is written to `result`. So what the README says about an example
// is what Go does.

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	sigsyaml "sigs.k8s.io/yaml"
)

const examplesFormat = "smd-examples/v1"

// resultSuffix ends the name of every result file.
const resultSuffix = ".result.yaml"

// generatedHeader starts every file gogen examples writes.
const generatedHeader = "# Written by gogen examples (conformance/regen) from examples/sequences.yaml. Do not edit.\n"

type example struct {
	name    string // the directory under the examples directory
	fc      *fmCase
	applies []exampleApply
}

// exampleApply is a manifest of the example's directory applied to the
// example's live object.
type exampleApply struct {
	step      fmStep // op apply
	wantError string // Go's error text, or "" when the apply must succeed
	result    string // where to write the stored object when it succeeds
}

type examplesOptions struct {
	in      string // holds sequences.yaml and the examples' directories
	out     string // where live.yaml and the results go (usually in)
	replays int
	log     io.Writer
}

// generateExamples writes every example it can and returns the number of
// problems; an example with a problem writes nothing.
func generateExamples(o examplesOptions) (problems int, err error) {
	examples, err := readExamples(o.in)
	if err != nil {
		return 0, err
	}
	var written, unchanged, removed int
	wanted := map[string]bool{}
	for _, ex := range examples {
		files, err := ex.replay(o.replays)
		if err != nil {
			fmt.Fprintf(o.log, "gogen: ERROR example %q: %v\n", ex.name, err)
			problems++
			continue
		}
		for _, name := range sortedKeys(files) {
			path := filepath.Join(o.out, ex.name, name)
			wanted[path] = true
			changed, err := writeIfChanged(path, files[name])
			if err != nil {
				return problems, err
			}
			if changed {
				written++
				fmt.Fprintf(o.log, "gogen: wrote %s\n", filepath.ToSlash(path))
			} else {
				unchanged++
			}
		}
	}
	if problems == 0 {
		if removed, err = removeStaleExampleFiles(o.out, wanted, o.log); err != nil {
			return problems, err
		}
	}
	fmt.Fprintf(o.log, "gogen: %d examples, %d files written, %d unchanged, %d stale removed, %d problems\n",
		len(examples), written, unchanged, removed, problems)
	return problems, nil
}

// removeStaleExampleFiles deletes what gogen examples wrote before (named
// live.yaml or *.result.yaml, starting with generatedHeader) and no longer
// writes.
func removeStaleExampleFiles(dir string, wanted map[string]bool, log io.Writer) (removed int, err error) {
	var paths []string
	for _, pattern := range []string{"live.yaml", "*" + resultSuffix} {
		matches, err := filepath.Glob(filepath.Join(dir, "*", pattern))
		if err != nil {
			return 0, err
		}
		paths = append(paths, matches...)
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return removed, err
		}
		if wanted[path] || !bytes.HasPrefix(data, []byte(generatedHeader)) {
			continue
		}
		if err := os.Remove(path); err != nil {
			return removed, err
		}
		removed++
		fmt.Fprintf(log, "gogen: removed stale %s\n", filepath.ToSlash(path))
	}
	return removed, nil
}

// readExamples reads DIR/sequences.yaml, with the files its examples name
// (CRDs, manifests) from DIR/<name>/.
func readExamples(dir string) ([]*example, error) {
	path := filepath.Join(dir, "sequences.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc any
	if err := yaml.UnmarshalStrict(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: not valid YAML: %v", path, err)
	}
	tree, err := plainTree("file", doc)
	if err != nil {
		return nil, err
	}
	file, err := newSpec("file", tree)
	if err != nil {
		return nil, err
	}
	format, err := file.str("format")
	if err != nil {
		return nil, err
	}
	if format != examplesFormat {
		return nil, fmt.Errorf("%s: format is %q, expected %q", path, format, examplesFormat)
	}
	list, err := file.list("examples")
	if err != nil {
		return nil, err
	}
	if err := file.finish(); err != nil {
		return nil, err
	}
	var out []*example
	seen := map[string]bool{}
	for i, raw := range list {
		ex, err := decodeExample(dir, fmt.Sprintf("examples[%d]", i), raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		if seen[ex.name] {
			return nil, fmt.Errorf("%s: example %q: duplicate name", path, ex.name)
		}
		seen[ex.name] = true
		out = append(out, ex)
	}
	return out, nil
}

// decodeExample reads one example: name, note, crdFiles (files of its
// directory, which become the sequence's crds), applies, and the keys of a
// fieldmanager sequence.
func decodeExample(dir, where string, raw any) (*example, error) {
	s, err := newSpec(where, raw)
	if err != nil {
		return nil, err
	}
	ex := &example{}
	if ex.name, err = s.str("name"); err != nil {
		return nil, err
	}
	if ex.name == "" || ex.name != filepath.Base(ex.name) || strings.HasPrefix(ex.name, ".") {
		return nil, genErrorf("%s: the name %q must be a plain directory name", where, ex.name)
	}
	s.where = fmt.Sprintf("example %q", ex.name)
	readFile := func(where, name string) (string, error) {
		if err := checkExampleFile(where, name, false); err != nil {
			return "", err
		}
		data, err := os.ReadFile(filepath.Join(dir, ex.name, name))
		return string(data), err
	}
	if _, _, err := s.optStr("note"); err != nil {
		return nil, err
	}
	if raw, ok := s.get("crdFiles"); ok {
		if s.has("crds") {
			return nil, genErrorf("%s: give either crds or crdFiles", s.where)
		}
		names, err := asStringList(s.at("crdFiles"), raw)
		if err != nil {
			return nil, err
		}
		texts := make([]any, len(names))
		for i, name := range names {
			if texts[i], err = readFile(s.at("crdFiles"), name); err != nil {
				return nil, err
			}
		}
		s.m["crds"] = texts
	}
	if ex.fc, err = decodeFMCase(s); err != nil {
		return nil, err
	}
	var applies []any
	if raw, ok := s.get("applies"); ok {
		if applies, err = asList(s.at("applies"), raw); err != nil {
			return nil, err
		}
	}
	results := map[string]bool{"live.yaml": true}
	for i, raw := range applies {
		a, err := newSpec(peWhere(s.at("applies"), i), raw)
		if err != nil {
			return nil, err
		}
		var ea exampleApply
		ea.step.op = "apply"
		manifest, err := a.str("manifest")
		if err != nil {
			return nil, err
		}
		text, err := readFile(a.at("manifest"), manifest)
		if err != nil {
			return nil, err
		}
		ea.step.object = valueSpec{where: filepath.ToSlash(filepath.Join(ex.name, manifest)), lang: "yaml", text: text}
		if ea.step.manager, err = a.str("manager"); err != nil {
			return nil, err
		}
		if ea.step.force, err = a.optBool("force"); err != nil {
			return nil, err
		}
		wantError, hasError, err := a.optStr("error")
		if err != nil {
			return nil, err
		}
		result, hasResult, err := a.optStr("result")
		if err != nil {
			return nil, err
		}
		switch {
		case hasError == hasResult:
			return nil, genErrorf("%s: give either error (Go refuses the apply) or result (the file to write)", a.where)
		case hasError:
			ea.wantError = wantError
		default:
			if err := checkExampleFile(a.at("result"), result, true); err != nil {
				return nil, err
			}
			if results[result] {
				return nil, genErrorf("%s: %q is written twice", a.at("result"), result)
			}
			results[result] = true
			ea.result = result
		}
		if err := a.finish(); err != nil {
			return nil, err
		}
		ex.applies = append(ex.applies, ea)
	}
	return ex, s.finish()
}

// checkExampleFile refuses a name that is not a file of the example's
// directory, and keeps what gogen writes (live.yaml, *.result.yaml) apart
// from what people write.
func checkExampleFile(where, name string, generated bool) error {
	if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") {
		return genErrorf("%s: %q must name a file of the example's directory", where, name)
	}
	if isGenerated := name == "live.yaml" || strings.HasSuffix(name, resultSuffix); isGenerated != generated {
		if generated {
			return genErrorf("%s: %q: a result's name must end in %s", where, name, resultSuffix)
		}
		return genErrorf("%s: %q is a name for what gogen writes (live.yaml, *%s)", where, name, resultSuffix)
	}
	return nil
}

// replay runs the example `replays` times; every run must give the same
// files.
func (ex *example) replay(replays int) (map[string][]byte, error) {
	var first map[string][]byte
	for i := 0; i < replays; i++ {
		files, err := ex.run()
		if err != nil {
			return nil, err
		}
		if i == 0 {
			first = files
			continue
		}
		for name, text := range files {
			if !bytes.Equal(text, first[name]) {
				return nil, genErrorf("%s differs between replays (Go map iteration order?):\n%s\n---\n%s", name, first[name], text)
			}
		}
	}
	return first, nil
}

// run replays the sequence, then each apply on its last object (all at the
// same scripted time, the step after the last), and renders the files.
func (ex *example) run() (map[string][]byte, error) {
	st, err := ex.fc.begin()
	if err != nil {
		return nil, err
	}
	for i, step := range ex.fc.steps {
		result, err := st.guardedStep(i+1, step)
		if err != nil {
			return nil, err
		}
		if problem := stepProblem(result); problem != "" {
			return nil, genErrorf("steps[%d] (%s by %s): %s", i, step.op, step.manager, problem)
		}
	}
	if st.stored == nil {
		return nil, genErrorf("the sequence leaves no object")
	}
	live := st.stored
	files := map[string][]byte{}
	if files["live.yaml"], err = objectYAML(live); err != nil {
		return nil, err
	}
	for i, a := range ex.applies {
		where := fmt.Sprintf("applies[%d] (%s by %s)", i, a.step.object.where, a.step.manager)
		st := &fmState{c: ex.fc, stored: live}
		result, err := st.guardedStep(len(ex.fc.steps)+1, a.step)
		if err != nil {
			return nil, err
		}
		problem := stepProblem(result)
		switch {
		case a.wantError == "" && problem != "":
			return nil, genErrorf("%s: %s", where, problem)
		case a.wantError == "":
			if files[a.result], err = objectYAML(st.stored); err != nil {
				return nil, err
			}
		case problem == "":
			return nil, genErrorf("%s: Go applies it, the example expects the error %q", where, a.wantError)
		case problem != "Go refuses it: "+a.wantError:
			return nil, genErrorf("%s: %s; the example expects %q", where, problem, a.wantError)
		}
	}
	return files, nil
}

// stepProblem says what went wrong in a step's result, or "".
func stepProblem(result any) string {
	r, _ := result.(jObject)
	switch {
	case r["panic"] != nil:
		return fmt.Sprintf("Go panicked: %v", r["panic"])
	case r["error"] != nil:
		return "Go refuses it: " + r["error"].(jObject)["message"].(string)
	case r["managedFieldsError"] != nil:
		return "the field manager failed (UpdateNoErrors kept the old entries): " + r["managedFieldsError"].(jObject)["message"].(string)
	case r["object"] == nil:
		return fmt.Sprintf("no object: %v", r)
	}
	return ""
}

// objectYAML is the object as kubectl get -o yaml prints it.
func objectYAML(u *unstructured.Unstructured) ([]byte, error) {
	data, err := sigsyaml.Marshal(u.Object)
	if err != nil {
		return nil, err
	}
	return append([]byte(generatedHeader), data...), nil
}
