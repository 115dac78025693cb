// Command gogen is smd's Go oracle: it replays conformance scenarios through
// the public API of sigs.k8s.io/structured-merge-diff/v6 (the version pinned
// in go.mod) and records Go's answers.
//
//	gogen generate [--scenarios DIR] [--goldens DIR] [--replays N]
//	gogen serve [--replays N]
//	gogen examples [--in DIR] [--out DIR] [--replays N]
//	gogen apiserver [--scenarios DIR] [--goldens DIR] [--parallel N]
//	gogen gotypes [--out DIR]
//	gogen quantities [--out FILE]
//	gogen crdchecks [--out DIR]
//	gogen crdcost [--out FILE]
//	gogen crdserver --scenarios DIR
//	gogen yamlcorpus [--out FILE]
//	gogen celeval [--out FILE]
//	gogen celparse [--out DIR]
//	gogen celk8s [--out FILE]
//	gogen celcheck [--out DIR]
//	gogen celestimate [--out FILE]
//	gogen extract [--out FILE]
//	gogen apiserver serve [--parallel N]
//
// See ../README.md for the scenario and golden formats.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

const usage = `usage:
  gogen generate [--scenarios DIR] [--goldens DIR] [--replays N]
      replay every scenarios/**/*.yaml, write goldens/**/*.json
      (defaults: ../scenarios and ../goldens, relative to the gogen module directory)
  gogen serve [--replays N]
      read one case per stdin line (JSON), write one result per stdout line
  gogen examples [--in DIR] [--out DIR] [--replays N]
      replay every example of IN/sequences.yaml, write OUT/<name>/live.yaml and the results
      of applying its manifests (defaults: ../../examples, relative to the gogen module directory)
  gogen embed [--out DIR]
      write the Kubernetes v1.37 built-in schema smd embeds
      (default ../../schema/src/kubernetes, relative to the gogen module directory)
  gogen gotypes [--out DIR]
      write the Go types of every built-in kind and version (DIR/gotypes.json)
      (default ../../smd/src/builtin, relative to the gogen module directory)
  gogen quantities [--out FILE]
      write the quantity corpus: texts with resource.Quantity's canonical form or error
      (default ../../smd/tests/data/quantities.json, relative to the gogen module directory)
  gogen crdchecks [--out DIR]
      write the corpora of a custom resource's string checks: DIR/crd_formats.json (strfmt's
      formats, the post-processor's kept formats) and DIR/go_regexp.json (regexp.Compile and
      MatchString) (default ../../smd/tests/data, relative to the gogen module directory)
  gogen crdcost [--out FILE]
      write the sizes and cardinalities behind the estimated cost of CRD rules: for each schema
      node of the CRDs of scenarios/crd/{cost,rules}.yaml, how many times it can occur and, for
      nodes with rules, the size estimate of every path from self up to three steps
      (default ../../schema/tests/data/crd_cost.json, relative to the gogen module directory)
  gogen crdserver --scenarios DIR
      send every CRD of DIR's crd scenarios to a real kube-apiserver as a dry-run create (the
      server of SMD_APISERVER_URL, SMD_APISERVER_TOKEN and SMD_APISERVER_CA) and compare its
      verdict and field errors with Go's validation, which writes the crd goldens; exit 1 on a
      difference
  gogen yamlcorpus [--out FILE]
      write the corpus of kubectl's YAML: JSON texts and what sigs.k8s.io/yaml.Marshal writes
      for them (default ../../fieldpath/tests/data/sigs_yaml.json, relative to the gogen
      module directory)
  gogen celeval [--out FILE]
      write the corpus of CEL evaluation: expressions, their parsed trees and what cel-go
      answers in the Kubernetes 1.37 base environment, with the actual cost
      (default ../../cel/tests/data/cel_eval.json, relative to the gogen module directory)
  gogen celparse [--out DIR]
      write the corpus of cel-go's parser as a Kubernetes 1.37 API server configures it:
      expressions with their tree (ids and offsets) or error text (DIR/cel_parse.json)
      (default ../../cel/tests/data, relative to the gogen module directory)
  gogen celk8s [--out FILE]
      write the corpus of the Kubernetes CEL libraries (quantity, IP, CIDR, URL, semver,
      format): expressions, trees, cel-go's answers and costs at compatibility version 1.37
      (default ../../smd/tests/data/cel_k8s.json, relative to the gogen module directory)
  gogen celcheck [--out DIR]
      write the corpus of cel-go's type checker in the Kubernetes 1.37 environment: expressions
      with their checked type or compile errors (DIR/cel_check.json), and the environment's
      function declarations (DIR/../../src/check/declarations.txt)
      (default ../../cel/tests/data, relative to the gogen module directory)
  gogen celestimate [--out FILE]
      write the corpus of cel-go's static cost estimate as the Kubernetes 1.37 API server
      estimates a CRD rule: expressions, size tables by path, cel-go's {min, max}
      (default ../../cel/tests/data/cel_estimate.json, relative to the gogen module directory)
  gogen extract [--out FILE]
      write managedfields.ExtractInto's answers (the applied configuration a manager owns, with
      what client-go's ExtractX functions add: name, namespace, kind, apiVersion) for the cases
      of ../../smd/tests/data/extract-cases.yaml
      (default ../../smd/tests/data/extract.json, relative to the gogen module directory)
  gogen apiserver [--scenarios DIR] [--goldens DIR] [--parallel N]
      replay every apiserver scenario against the kube-apiserver named by SMD_APISERVER_URL,
      SMD_APISERVER_TOKEN and SMD_APISERVER_CA, write its answers as goldens
      (defaults: ../apiserver/scenarios and ../apiserver/goldens; see conformance/apiserver/regen)
  gogen apiserver serve [--parallel N]
      the real-server side of conformance/apiserver/differential: the first stdin line is
      {"crds": [...]}, every later line one case; each answer line is the case's golden result
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	switch os.Args[1] {
	case "generate":
		os.Exit(runGenerate(os.Args[2:]))
	case "serve":
		os.Exit(runServe(os.Args[2:]))
	case "examples":
		os.Exit(runExamples(os.Args[2:]))
	case "embed":
		os.Exit(runEmbed(os.Args[2:]))
	case "apiserver":
		os.Exit(runAPIServer(os.Args[2:]))
	case "gotypes":
		os.Exit(runGoTypes(os.Args[2:]))
	case "quantities":
		os.Exit(runQuantities(os.Args[2:]))
	case "crdchecks":
		os.Exit(runCRDChecks(os.Args[2:]))
	case "crdcost":
		os.Exit(runCRDCost(os.Args[2:]))
	case "crdserver":
		os.Exit(runCRDServer(os.Args[2:]))
	case "yamlcorpus":
		os.Exit(runYAMLCorpus(os.Args[2:]))
	case "celeval":
		os.Exit(runCELEval(os.Args[2:]))
	case "celparse":
		os.Exit(runCELParse(os.Args[2:]))
	case "celk8s":
		os.Exit(runCELK8s(os.Args[2:]))
	case "celcheck":
		os.Exit(runCELCheck(os.Args[2:]))
	case "celestimate":
		os.Exit(runCELEstimate(os.Args[2:]))
	case "extract":
		os.Exit(runExtract(os.Args[2:]))
	case "-h", "--help", "help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "gogen: unknown command %q\n%s", os.Args[1], usage)
		os.Exit(2)
	}
}

func runGenerate(args []string) int {
	fs := flag.NewFlagSet("generate", flag.ContinueOnError)
	scenarios := fs.String("scenarios", "", "scenario directory (default ../scenarios from the module directory)")
	goldens := fs.String("goldens", "", "golden directory (default ../goldens from the module directory)")
	replays := fs.Int("replays", defaultReplays, "replays per case (at least 3); any difference fails the case")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || *replays < 3 {
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
	if *scenarios == "" || *goldens == "" {
		dir, err := moduleDir()
		if err != nil {
			fmt.Fprintf(os.Stderr, "gogen: %v; pass --scenarios and --goldens\n", err)
			return 2
		}
		if *scenarios == "" {
			*scenarios = filepath.Join(dir, "..", "scenarios")
		}
		if *goldens == "" {
			*goldens = filepath.Join(dir, "..", "goldens")
		}
	}
	fmt.Printf("gogen: structured-merge-diff %s, %s, %d replays per case\n", smdVersion(), runtime.Version(), *replays)
	fmt.Printf("gogen: scenarios %s -> goldens %s\n", filepath.Clean(*scenarios), filepath.Clean(*goldens))
	problems, err := generate(generateOptions{
		scenarios: filepath.Clean(*scenarios),
		goldens:   filepath.Clean(*goldens),
		replays:   *replays,
		out:       os.Stdout,
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "gogen: %v\n", err)
		return 1
	}
	if problems > 0 {
		fmt.Fprintf(os.Stderr, "gogen: %d problem(s); the goldens of the files concerned were not written\n", problems)
		return 1
	}
	return 0
}

func runServe(args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	replays := fs.Int("replays", defaultReplays, "replays per case (at least 1); a difference is a generatorError")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || *replays < 1 {
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
	if err := serve(os.Stdin, os.Stdout, *replays); err != nil {
		fmt.Fprintf(os.Stderr, "gogen: %v\n", err)
		return 1
	}
	return 0
}

func runExamples(args []string) int {
	fs := flag.NewFlagSet("examples", flag.ContinueOnError)
	in := fs.String("in", "", "the examples directory, with sequences.yaml (default ../../examples from the module directory)")
	out := fs.String("out", "", "where to write (default: the --in directory)")
	replays := fs.Int("replays", defaultReplays, "replays per example (at least 1); any difference fails it")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || *replays < 1 {
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
	if *in == "" {
		dir, err := moduleDir()
		if err != nil {
			fmt.Fprintf(os.Stderr, "gogen: %v; pass --in\n", err)
			return 2
		}
		*in = filepath.Join(dir, "..", "..", "examples")
	}
	if *out == "" {
		*out = *in
	}
	problems, err := generateExamples(examplesOptions{
		in:      filepath.Clean(*in),
		out:     filepath.Clean(*out),
		replays: *replays,
		log:     os.Stdout,
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "gogen: %v\n", err)
		return 1
	}
	if problems > 0 {
		fmt.Fprintf(os.Stderr, "gogen: %d problem(s); the files of the examples concerned were not written\n", problems)
		return 1
	}
	return 0
}

// parseOut reads the only flag of a command that writes one corpus, --out, whose default is
// rel (a file or a directory, as kind says) under the repository beside this module; false
// once it has said why it cannot.
func parseOut(name string, args []string, kind string, rel ...string) (string, bool) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	out := fs.String("out", "", fmt.Sprintf("output %s (default ../../%s from the module directory)", kind, strings.Join(rel, "/")))
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprint(os.Stderr, usage)
		return "", false
	}
	if *out != "" {
		return *out, true
	}
	dir, err := moduleDir()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gogen: %v; pass --out\n", err)
		return "", false
	}
	return filepath.Join(append([]string{dir, "..", ".."}, rel...)...), true
}

// moduleDir finds the gogen module directory: the source directory recorded
// at build time (go run / go build from the module), else the working
// directory if it holds gogen's go.mod.
func moduleDir() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if ok && filepath.IsAbs(file) {
		dir := filepath.Dir(file)
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
	}
	wd, err := os.Getwd()
	if err == nil {
		if _, err := os.Stat(filepath.Join(wd, "go.mod")); err == nil && filepath.Base(wd) == "gogen" {
			return wd, nil
		}
	}
	return "", fmt.Errorf("cannot find the gogen module directory")
}
