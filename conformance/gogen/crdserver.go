package main

// gogen crdserver: every CustomResourceDefinition of the crd scenarios sent to a real
// kube-apiserver as a dry-run create, its verdict (created, or refused with its field errors)
// compared with validation.ValidateCustomResourceDefinition's, which writes the crd goldens:
// the real server's word that the Go oracle of CRD creation is the server's.

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	sigsyaml "sigs.k8s.io/yaml"
)

const crdCollection = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"

func runCRDServer(args []string) int {
	fs := flag.NewFlagSet("crdserver", flag.ContinueOnError)
	dir := fs.String("scenarios", "", "the crd scenario directory (e.g. conformance/scenarios/crd)")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || *dir == "" {
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
	client, err := newAPIClient()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gogen: crdserver: %v\n", err)
		return 2
	}
	files, err := filepath.Glob(filepath.Join(*dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		fmt.Fprintf(os.Stderr, "gogen: crdserver: no scenario files in %s\n", *dir)
		return 2
	}
	sort.Strings(files)
	crdSetup()
	var crds, refused, differ int
	for _, file := range files {
		cases, err := crdCases(file)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gogen: crdserver: %s: %v\n", file, err)
			return 2
		}
		for _, c := range cases {
			docs, err := splitYAMLDocuments([]byte(c.Input))
			if err != nil {
				// Not a CRD stream the server could be sent; the goldens hold the read error.
				continue
			}
			for i, doc := range docs {
				goLines, ok := goValidation(doc)
				if !ok {
					continue
				}
				crds++
				if len(goLines) > 0 {
					refused++
				}
				serverLines, err := serverValidation(client, doc)
				if err != nil {
					fmt.Fprintf(os.Stderr, "gogen: crdserver: %s: case %q: %v\n", filepath.Base(file), c.Name, err)
					return 2
				}
				if !reflect.DeepEqual(goLines, serverLines) {
					differ++
					fmt.Printf("crdserver: %s: case %q, document %d:\n  Go:     %q\n  server: %q\n",
						filepath.Base(file), c.Name, i+1, goLines, serverLines)
				}
			}
		}
	}
	fmt.Printf("crdserver: %d CRDs (%d refused by Go's validation), %d differ from the real server\n", crds, refused, differ)
	if differ > 0 {
		return 1
	}
	return 0
}

type crdCase struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Op    string `json:"op"`
	Input string `json:"input"`
}

func crdCases(file string) ([]crdCase, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Cases []crdCase `json:"cases"`
	}
	if err := sigsyaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	var out []crdCase
	for _, c := range doc.Cases {
		if c.Kind == "crd" && c.Op == "convert" {
			out = append(out, c)
		}
	}
	return out, nil
}

// goValidation is convertCRD's verdict: the sorted field errors (none: valid); false when
// the document is not a v1 CRD Go can decode.
func goValidation(doc []byte) ([]string, bool) {
	obj, _, err := crdCodecs.UniversalDeserializer().Decode(doc, nil, nil)
	if err != nil {
		return nil, false
	}
	crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok {
		return nil, false
	}
	crdScheme.Default(crd)
	internal := &apiextensions.CustomResourceDefinition{}
	if err := crdScheme.Convert(crd, internal, nil); err != nil {
		return nil, false
	}
	errs := validation.ValidateCustomResourceDefinition(context.Background(), internal)
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = e.Error()
	}
	return normalizedFieldErrors(lines), true
}

// serverValidation sends doc as a dry-run create: no errors when created, else the 422's
// causes as field errors print (FIELD: BODY).
func serverValidation(client *apiClient, doc []byte) ([]string, error) {
	resp, err := client.do("POST", crdCollection+"?dryRun=All", "application/json", "", doc)
	if err != nil {
		return nil, err
	}
	switch resp.status {
	case 200, 201:
		return []string{}, nil
	case 422:
	default:
		return nil, fmt.Errorf("HTTP %d: %s", resp.status, strings.TrimSpace(string(resp.body)))
	}
	var status struct {
		Details struct {
			Causes []struct {
				Field   string `json:"field"`
				Message string `json:"message"`
			} `json:"causes"`
		} `json:"details"`
	}
	if err := json.Unmarshal(resp.body, &status); err != nil {
		return nil, err
	}
	lines := make([]string, 0, len(status.Details.Causes))
	for _, c := range status.Details.Causes {
		if c.Field == "" {
			lines = append(lines, c.Message)
		} else {
			lines = append(lines, c.Field+": "+c.Message)
		}
	}
	return normalizedFieldErrors(lines), nil
}
