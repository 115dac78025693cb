package main

// gogen embed: the Kubernetes v1.37 built-in schema smd embeds, written by
// the reference conversion. The source is the union of the v3 documents of
// api/openapi-spec (what the API server's type converter converts: it builds
// OpenAPI v3 definitions, openapibuilder3.BuildOpenAPIDefinitionsForResources,
// and calls managedfields.NewTypeConverter(definitions, false)).
//
//	gogen embed [--out DIR]   (default ../../schema/src/kubernetes)
//
// writes DIR/v1_37.schema.json ({"types": [...]}, SMD's schema format as
// JSON, canonical as in goldens) and DIR/v1_37.gvk.json (the GVK index).

import (
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/schemaconv"
)

func runEmbed(args []string) int {
	out, ok := parseOut("embed", args, "directory", "schema", "src", "kubernetes")
	if !ok {
		return 2
	}
	files, err := embedFiles(3)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gogen: embed: %v\n", err)
		return 1
	}
	for _, name := range sortedKeys(files) {
		path := filepath.Join(out, name)
		changed, err := writeIfChanged(path, files[name])
		if err != nil {
			fmt.Fprintf(os.Stderr, "gogen: embed: %v\n", err)
			return 1
		}
		if changed {
			fmt.Printf("gogen: wrote %s\n", filepath.ToSlash(path))
		} else {
			fmt.Printf("gogen: %s unchanged\n", filepath.ToSlash(path))
		}
	}
	return 0
}

// embedFiles converts the union of the v3 documents, `replays` times, and
// insists that every run gives the same bytes.
func embedFiles(replays int) (map[string][]byte, error) {
	var first map[string][]byte
	for i := 0; i < replays; i++ {
		files, err := embedOnce()
		if err != nil {
			return nil, err
		}
		if i == 0 {
			first = files
			continue
		}
		for k, v := range files {
			if string(first[k]) != string(v) {
				return nil, fmt.Errorf("%s varies between runs (Go map iteration order?)", k)
			}
		}
	}
	return first, nil
}

func embedOnce() (map[string][]byte, error) {
	m, err := kubernetesModels("v3")
	if err != nil {
		return nil, err
	}
	s, err := schemaconv.ToSchemaFromOpenAPI(m, false)
	if err != nil {
		return nil, err
	}
	schemaTree, err := openapiSchema(s)
	if err != nil {
		return nil, err
	}
	tc, err := managedfields.NewTypeConverter(m, false)
	if err != nil {
		return nil, err
	}
	index, err := typeConverterIndex(tc)
	if err != nil {
		return nil, err
	}
	schemaJSON, err := writeJSON(schemaTree, true)
	if err != nil {
		return nil, err
	}
	gvkJSON, err := writeJSON(gvkResult(index, nil)["index"], true)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{"v1_37.schema.json": schemaJSON, "v1_37.gvk.json": gvkJSON}, nil
}
