package benches

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v2"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// schemaFiles are the upstream schemas read by BenchmarkSchemaParse, as by ../benches/schema.rs.
var schemaFiles = []string{"k8s-schema.yaml", "k8s-schema-100pct-fieldoverride.yaml"}

// smdTestdata is the internal/testdata directory of the structured-merge-diff this module
// requires, in the module cache (the files are not copied into the repository).
func smdTestdata(b testing.TB) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "sigs.k8s.io/structured-merge-diff/v6").Output()
	if err != nil {
		b.Skipf("cannot locate structured-merge-diff in the module cache: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "internal", "testdata")
}

var (
	sinkParser *typed.Parser
	sinkAny    any
)

// BenchmarkSchemaParse times typed.NewParser (parse-*): validation against the schema of
// schemas, then yaml.Unmarshal into schema.Schema; and, as the floor of that work, one
// yaml.Unmarshal of the text into interface{} (yaml-*).
func BenchmarkSchemaParse(b *testing.B) {
	dir := smdTestdata(b)
	for _, file := range schemaFiles {
		text, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := typed.NewParser(typed.YAMLObject(text)); err != nil {
			b.Fatal(err)
		}
		b.Run("parse-"+strings.TrimSuffix(file, ".yaml"), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				p, err := typed.NewParser(typed.YAMLObject(text))
				if err != nil {
					b.Fatal(err)
				}
				sinkParser = p
			}
		})
		b.Run("yaml-"+strings.TrimSuffix(file, ".yaml"), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var v any
				if err := yaml.Unmarshal(text, &v); err != nil {
					b.Fatal(err)
				}
				sinkAny = v
			}
		})
	}
}
