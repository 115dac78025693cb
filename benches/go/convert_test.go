package benches

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"k8s.io/kube-openapi/pkg/schemaconv"
	openapispec "k8s.io/kube-openapi/pkg/validation/spec"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
)

// The Kubernetes release whose published OpenAPI v2 spec (api/openapi-spec/swagger.json) is
// converted, as conformance/gogen converts it. The module is downloaded into the module cache,
// never required: its go.mod cannot be resolved as a dependency.
const kubernetesModule = "k8s.io/kubernetes@v1.37.2"

// goModuleDir is the directory of module (path@version) in the module cache, downloaded if need
// be: `go mod download -json`, run outside any module.
func goModuleDir(module string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", module)
	cmd.Dir = os.TempDir()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go mod download -json %s: %v\n%s%s", module, err, out, stderr.String())
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		return "", fmt.Errorf("go mod download -json %s gave no directory (%v %s)", module, err, info.Error)
	}
	return info.Dir, nil
}

// kubernetesSwagger reads swagger.json of kubernetesModule, downloading the module if need be.
func kubernetesSwagger(b *testing.B) []byte {
	dir, err := goModuleDir(kubernetesModule)
	if err != nil {
		b.Fatalf("cannot locate swagger.json: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "api", "openapi-spec", "swagger.json"))
	if err != nil {
		b.Fatalf("cannot read swagger.json: %v", err)
	}
	return data
}

// readV2Models is conformance/gogen's reading of an OpenAPI v2 document (readDocument): the
// document unmarshaled into kube-openapi's spec.Swagger (go-json-experiment underneath), its
// definitions as the models schemaconv receives. gogen's sniffing of the version (an unmarshal
// into map[string]json.RawMessage first) is left out: the version is known here.
func readV2Models(data []byte) (map[string]*openapispec.Schema, error) {
	var doc openapispec.Swagger
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	models := make(map[string]*openapispec.Schema, len(doc.Definitions))
	for k := range doc.Definitions {
		s := doc.Definitions[k]
		models[k] = &s
	}
	return models, nil
}

var sinkSchema *schema.Schema

// BenchmarkSchemaConvert times the conversion of the Kubernetes 1.37 OpenAPI v2 spec to an SMD
// schema with schemaconv.ToSchemaFromOpenAPI(models, false), as managedfields.NewTypeConverter
// calls it: convert-v2 converts models read once beforehand; read-convert-v2 reads the bytes
// too (readV2Models, then the conversion). The Rust twins are schema/convert-v2
// (Document::to_schema) and schema/read-convert-v2 (Document::from_slice, then to_schema).
func BenchmarkSchemaConvert(b *testing.B) {
	data := kubernetesSwagger(b)
	models, err := readV2Models(data)
	if err != nil {
		b.Fatalf("swagger.json does not read: %v", err)
	}
	if _, err := schemaconv.ToSchemaFromOpenAPI(models, false); err != nil {
		b.Fatalf("swagger.json does not convert: %v", err)
	}
	b.Run("convert-v2", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			s, err := schemaconv.ToSchemaFromOpenAPI(models, false)
			if err != nil {
				b.Fatal(err)
			}
			sinkSchema = s
		}
	})
	b.Run("read-convert-v2", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			m, err := readV2Models(data)
			if err != nil {
				b.Fatal(err)
			}
			s, err := schemaconv.ToSchemaFromOpenAPI(m, false)
			if err != nil {
				b.Fatal(err)
			}
			sinkSchema = s
		}
	})
}
