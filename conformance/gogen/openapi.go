package main

// kind: openapi — convert an OpenAPI v2 or v3 document to an SMD schema with
// kube-openapi's schemaconv.ToSchemaFromOpenAPI(models, false), exactly as
// apimachinery's managedfields.NewTypeConverter calls it for built-in types,
// and index its types by group/version/kind as NewTypeConverter does.
//
// A document is `input` (JSON or YAML text) or `kubernetesSpec`: a file of
// the k8s.io/kubernetes module's api/openapi-spec directory ("v2" is
// swagger.json, "v3/NAME.json" one group-version document) or "v3", the
// union of every v3 document (the built-in schema smd embeds).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/schemaconv"
	"k8s.io/kube-openapi/pkg/spec3"
	openapispec "k8s.io/kube-openapi/pkg/validation/spec"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	sigsyaml "sigs.k8s.io/yaml"
)

// The Kubernetes release whose published OpenAPI spec is converted.
const (
	kubernetesModule  = "k8s.io/kubernetes"
	kubernetesVersion = "v1.37.2"
	gvkExtension      = "x-kubernetes-group-version-kind"
)

// models is what NewTypeConverter receives: definition name -> schema.
type models map[string]*openapispec.Schema

func decodeOpenAPIOp(op string, c *spec) (func() (any, error), error) {
	load, err := documentInput(c)
	if err != nil {
		return nil, err
	}
	switch op {
	case "convert":
		return func() (any, error) {
			m, err := load()
			if err != nil {
				return readFailed(err)
			}
			s, err := schemaconv.ToSchemaFromOpenAPI(m, false)
			if err != nil {
				return failed(sortedLines(err))
			}
			out, err := openapiSchema(s)
			if err != nil {
				return nil, err
			}
			return jObject{"schema": out}, nil
		}, nil
	case "gvk":
		var lookups []gvkLookup
		if raw, ok := c.get("lookups"); ok {
			l, err := asList(c.at("lookups"), raw)
			if err != nil {
				return nil, err
			}
			for i, e := range l {
				where := fmt.Sprintf("%s[%d]", c.at("lookups"), i)
				s, err := newSpec(where, e)
				if err != nil {
					return nil, err
				}
				var q gvkLookup
				if q.apiVersion, err = s.str("apiVersion"); err != nil {
					return nil, err
				}
				if q.kind, err = s.str("kind"); err != nil {
					return nil, err
				}
				if err := s.finish(); err != nil {
					return nil, err
				}
				lookups = append(lookups, q)
			}
		}
		return func() (any, error) {
			m, err := load()
			if err != nil {
				return readFailed(err)
			}
			tc, err := managedfields.NewTypeConverter(m, false)
			if err != nil {
				return failed(sortedLines(err))
			}
			index, err := typeConverterIndex(tc)
			if err != nil {
				return nil, err
			}
			return gvkResult(index, lookups), nil
		}, nil
	}
	return nil, unknownOp(c, "openapi", op)
}

// readFailed is the result for a document Go cannot read: only the failure
// itself is compared (the texts are the JSON decoder's), like YAML errors.
// kube-openapi's go-json-experiment picks "cannot" or "unable to" once per
// process, at random (Hyrum-proofing); the golden always says "cannot", so
// that regeneration is reproducible.
func readFailed(err error) (any, error) {
	if isGenError(err) {
		return nil, err
	}
	node := errorNode(err)
	for _, k := range []string{"message", "stable"} {
		if text, ok := node[k].(string); ok {
			node[k] = strings.ReplaceAll(text, "json: unable to ", "json: cannot ")
		}
	}
	return jObject{"readError": node}, nil
}

// sortedLines makes schemaconv's error deterministic: it joins one line per
// problem in Go's map iteration order.
func sortedLines(err error) error {
	msg := err.Error()
	prefix := ""
	const wrap = "failed to convert models to schema: "
	if strings.HasPrefix(msg, wrap) {
		prefix, msg = wrap, strings.TrimPrefix(msg, wrap)
	}
	lines := strings.Split(msg, "\n")
	sort.Strings(lines)
	return fmt.Errorf("%s%s", prefix, strings.Join(lines, "\n"))
}

// documentInput returns a loader of the case's document (read once, shared
// by every replay: schemaconv does not modify its input).
func documentInput(c *spec) (func() (models, error), error) {
	name, isSpec, err := c.optStr("kubernetesSpec")
	if err != nil {
		return nil, err
	}
	if isSpec {
		if c.has("input") || c.has("inputBase64") {
			return nil, genErrorf("%s: give either \"kubernetesSpec\" or \"input\", not both", c.where)
		}
		if name != "v3" && name != "v2" && !(strings.HasPrefix(name, "v3/") && strings.HasSuffix(name, ".json") && !strings.Contains(name[3:], "/")) {
			return nil, genErrorf("%s: kubernetesSpec must be \"v2\", \"v3\" or \"v3/NAME.json\", not %q", c.at("kubernetesSpec"), name)
		}
		return func() (models, error) { return kubernetesModels(name) }, nil
	}
	if file, ok, err := c.optStr("kubeOpenAPITestdata"); err != nil {
		return nil, err
	} else if ok {
		if c.has("input") || c.has("inputBase64") {
			return nil, genErrorf("%s: give either \"kubeOpenAPITestdata\" or \"input\", not both", c.where)
		}
		if !strings.Contains(file, "/testdata/") || strings.Contains(file, "..") || strings.HasPrefix(file, "/") {
			return nil, genErrorf("%s: kubeOpenAPITestdata must be a path under a testdata directory of the kube-openapi module, not %q", c.at("kubeOpenAPITestdata"), file)
		}
		return func() (models, error) { return kubeOpenAPITestdata(file) }, nil
	}
	input, err := c.inputBytes()
	if err != nil {
		return nil, err
	}
	var once sync.Once
	var m models
	var readErr error
	return func() (models, error) {
		once.Do(func() { m, readErr = readDocument(input) })
		return m, readErr
	}, nil
}

// readDocument reads an OpenAPI document as kube-openapi reads it: JSON
// (when the text starts with '{') or YAML (sigs.k8s.io/yaml to JSON first);
// v3 when it has "openapi" (or, lacking both version keys, "components"),
// v2 when it has "swagger" (or "definitions"). The detection is smd's own
// rule, mirrored here; the reading is kube-openapi's.
func readDocument(input []byte) (models, error) {
	data := input
	if t := bytes.TrimLeft(input, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		j, err := sigsyaml.YAMLToJSON(input)
		if err != nil {
			return nil, err
		}
		data = j
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, err
	}
	has := func(k string) bool { _, ok := top[k]; return ok }
	switch {
	case has("openapi") || (!has("swagger") && has("components")):
		var doc spec3.OpenAPI
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, err
		}
		m := models{}
		if doc.Components != nil {
			for k, v := range doc.Components.Schemas {
				m[k] = v
			}
		}
		return m, nil
	case has("swagger") || has("definitions"):
		var doc openapispec.Swagger
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, err
		}
		m := models{}
		for k := range doc.Definitions {
			s := doc.Definitions[k]
			m[k] = &s
		}
		return m, nil
	}
	return nil, fmt.Errorf("neither an OpenAPI v2 document (swagger, definitions) nor a v3 one (openapi, components)")
}

// kubeOpenAPIModule is the kube-openapi that apimachinery v0.37.2 pins (and
// go.mod requires): its test data holds the OpenAPI documents the API
// server serves for some real CRDs.
const kubeOpenAPIModule = "k8s.io/kube-openapi@v0.0.0-20260721132016-d427ff9ee9ad"

var (
	kubeOpenAPIDirOnce sync.Once
	kubeOpenAPIDir     string
	kubeOpenAPIDirErr  error
)

// kubeOpenAPITestdata reads a document of kube-openapi's test data from the
// module cache (a failure to find or read the file is gogen's problem).
func kubeOpenAPITestdata(file string) (models, error) {
	kubeOpenAPIDirOnce.Do(func() { kubeOpenAPIDir, kubeOpenAPIDirErr = cachedModuleDir(kubeOpenAPIModule) })
	if kubeOpenAPIDirErr != nil {
		return nil, kubeOpenAPIDirErr
	}
	m, err := readSpecFile(filepath.Join(kubeOpenAPIDir, filepath.FromSlash(file)))
	if err != nil && !isGenError(err) {
		err = genErrorf("kubeOpenAPITestdata %s: %v", file, err)
	}
	return m, err
}

// cachedModuleDir is a module's directory in the module cache, downloaded if need be.
func cachedModuleDir(module string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", module)
	cmd.Dir = os.TempDir()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", genErrorf("go mod download %s: %v\n%s", module, err, stderr.String())
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		return "", genErrorf("go mod download %s: no directory (%v %s)", module, err, info.Error)
	}
	return info.Dir, nil
}

var (
	kubernetesDirOnce sync.Once
	kubernetesDir     string
	kubernetesDirErr  error

	kubernetesCacheMu sync.Mutex
	kubernetesCache   = map[string]kubernetesEntry{}
)

type kubernetesEntry struct {
	models models
	err    error
}

// kubernetesSpecDir is api/openapi-spec of the k8s.io/kubernetes module in
// the module cache, downloaded if need be (the module is never a dependency:
// its go.mod cannot be resolved as one).
func kubernetesSpecDir() (string, error) {
	kubernetesDirOnce.Do(func() {
		cmd := exec.Command("go", "mod", "download", "-json", kubernetesModule+"@"+kubernetesVersion)
		cmd.Dir = os.TempDir()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			kubernetesDirErr = genErrorf("go mod download %s@%s: %v\n%s", kubernetesModule, kubernetesVersion, err, stderr.String())
			return
		}
		var info struct{ Dir, Error string }
		if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
			kubernetesDirErr = genErrorf("go mod download %s@%s: no directory (%v %s)", kubernetesModule, kubernetesVersion, err, info.Error)
			return
		}
		kubernetesDir = filepath.Join(info.Dir, "api", "openapi-spec")
	})
	return kubernetesDir, kubernetesDirErr
}

// kubernetesModels reads (once) a spec file of the kubernetes module, or
// "v3": the union of every v3 document.
func kubernetesModels(name string) (models, error) {
	kubernetesCacheMu.Lock()
	defer kubernetesCacheMu.Unlock()
	if e, ok := kubernetesCache[name]; ok {
		return e.models, e.err
	}
	m, err := readKubernetesModels(name)
	if err != nil && !isGenError(err) {
		// The published spec always reads: a failure is gogen's problem.
		err = genErrorf("kubernetesSpec %s: %v", name, err)
	}
	kubernetesCache[name] = kubernetesEntry{m, err}
	return m, err
}

func readKubernetesModels(name string) (models, error) {
	dir, err := kubernetesSpecDir()
	if err != nil {
		return nil, err
	}
	switch {
	case name == "v2":
		return readSpecFile(filepath.Join(dir, "swagger.json"))
	case name == "v3":
		files, err := filepath.Glob(filepath.Join(dir, "v3", "*.json"))
		if err != nil {
			return nil, err
		}
		sort.Strings(files)
		var docs []models
		for _, f := range files {
			m, err := readSpecFile(f)
			if err != nil {
				return nil, err
			}
			docs = append(docs, m)
		}
		return unionModels(docs)
	default:
		return readSpecFile(filepath.Join(dir, filepath.FromSlash(name)))
	}
}

func readSpecFile(path string) (models, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, genErrorf("%v", err)
	}
	return readDocument(data)
}

// unionModels merges the definitions of several documents (smd's rule, for
// the v3 documents of one API server, each holding the types of one
// group-version). A name defined twice must be defined alike, except for
// its x-kubernetes-group-version-kind list: the API server lists, in each
// group's document, the kinds of that group that use a shared type (such as
// DeleteOptions); the union lists them all, each once, in first-seen order.
func unionModels(docs []models) (models, error) {
	out := models{}
	for _, doc := range docs {
		for _, name := range sortedKeys(doc) {
			s := doc[name]
			prev, ok := out[name]
			if !ok {
				out[name] = s
				continue
			}
			merged, err := mergeDefinition(name, prev, s)
			if err != nil {
				return nil, err
			}
			out[name] = merged
		}
	}
	return out, nil
}

func mergeDefinition(name string, a, b *openapispec.Schema) (*openapispec.Schema, error) {
	strip := func(s *openapispec.Schema) openapispec.Schema {
		c := *s
		c.Extensions = openapispec.Extensions{}
		for k, v := range s.Extensions {
			if k != gvkExtension {
				c.Extensions[k] = v
			}
		}
		return c
	}
	sa, sb := strip(a), strip(b)
	if !reflect.DeepEqual(sa, sb) {
		return nil, genErrorf("definition %s differs between documents beyond %s", name, gvkExtension)
	}
	ga, _ := a.Extensions[gvkExtension].([]any)
	gb, _ := b.Extensions[gvkExtension].([]any)
	list := append([]any{}, ga...)
	for _, g := range gb {
		seen := false
		for _, h := range list {
			if reflect.DeepEqual(g, h) {
				seen = true
				break
			}
		}
		if !seen {
			list = append(list, g)
		}
	}
	merged := *a
	merged.Extensions = openapispec.Extensions{}
	for k, v := range a.Extensions {
		merged.Extensions[k] = v
	}
	if len(list) > 0 {
		merged.Extensions[gvkExtension] = list
	}
	return &merged, nil
}

// openapiSchema writes a schema in SMD's schema format as JSON: types
// sorted by name (stably: schemaconv's two common types come last among
// equals, as they are appended last), each map's fields sorted by name
// (schemaconv iterates Go maps), empty parts left out.
func openapiSchema(s *schema.Schema) (jObject, error) {
	types := append([]schema.TypeDef{}, s.Types...)
	sort.SliceStable(types, func(i, j int) bool { return types[i].Name < types[j].Name })
	out := make([]any, 0, len(types))
	for _, t := range types {
		obj := jObject{"name": t.Name}
		if err := openapiAtom(obj, t.Atom); err != nil {
			return nil, err
		}
		out = append(out, obj)
	}
	return jObject{"types": out}, nil
}

func openapiAtom(obj jObject, a schema.Atom) error {
	if a.Scalar != nil {
		obj["scalar"] = string(*a.Scalar)
	}
	if a.List != nil {
		l := jObject{}
		if !openapiZeroTypeRef(a.List.ElementType) {
			tr, err := openapiTypeRef(a.List.ElementType)
			if err != nil {
				return err
			}
			l["elementType"] = tr
		}
		if a.List.ElementRelationship != "" {
			l["elementRelationship"] = string(a.List.ElementRelationship)
		}
		if len(a.List.Keys) > 0 {
			keys := make([]any, len(a.List.Keys))
			for i, k := range a.List.Keys {
				keys[i] = k
			}
			l["keys"] = keys
		}
		obj["list"] = l
	}
	if a.Map != nil {
		m := jObject{}
		fields := append([]schema.StructField{}, a.Map.Fields...)
		sort.SliceStable(fields, func(i, j int) bool { return fields[i].Name < fields[j].Name })
		if len(fields) > 0 {
			list := make([]any, 0, len(fields))
			for _, f := range fields {
				fo := jObject{"name": f.Name}
				if !openapiZeroTypeRef(f.Type) {
					tr, err := openapiTypeRef(f.Type)
					if err != nil {
						return err
					}
					fo["type"] = tr
				}
				if f.Default != nil {
					d, err := canonicalValue(f.Default)
					if err != nil {
						return err
					}
					fo["default"] = d
				}
				list = append(list, fo)
			}
			m["fields"] = list
		}
		if len(a.Map.Unions) > 0 {
			return genErrorf("internal: schemaconv produced unions, which the openapi golden does not write")
		}
		if !openapiZeroTypeRef(a.Map.ElementType) {
			tr, err := openapiTypeRef(a.Map.ElementType)
			if err != nil {
				return err
			}
			m["elementType"] = tr
		}
		if a.Map.ElementRelationship != "" {
			m["elementRelationship"] = string(a.Map.ElementRelationship)
		}
		obj["map"] = m
	}
	return nil
}

func openapiTypeRef(tr schema.TypeRef) (jObject, error) {
	obj := jObject{}
	if tr.NamedType != nil {
		obj["namedType"] = *tr.NamedType
	}
	if err := openapiAtom(obj, tr.Inlined); err != nil {
		return nil, err
	}
	if tr.ElementRelationship != nil {
		obj["elementRelationship"] = string(*tr.ElementRelationship)
	}
	if tr.Nullable {
		obj["nullable"] = true
	}
	return obj, nil
}

func openapiZeroTypeRef(tr schema.TypeRef) bool {
	return tr.NamedType == nil && tr.Inlined == (schema.Atom{}) && tr.ElementRelationship == nil && !tr.Nullable
}

type gvkLookup struct{ apiVersion, kind string }

type gvkEntry struct{ group, version, kind, typeName string }

// typeConverterIndex reads the GVK index NewTypeConverter built (a private
// map of the returned type converter; reflection reads it without copying
// any logic of apimachinery).
func typeConverterIndex(tc managedfields.TypeConverter) ([]gvkEntry, error) {
	v := reflect.ValueOf(tc)
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil, genErrorf("internal: the type converter is a %s, not a struct", v.Kind())
	}
	parser := v.FieldByName("parser")
	if !parser.IsValid() || parser.Kind() != reflect.Map {
		return nil, genErrorf("internal: the type converter has no map field \"parser\"")
	}
	var out []gvkEntry
	iter := parser.MapRange()
	for iter.Next() {
		k, pt := iter.Key(), iter.Value()
		for pt.Kind() == reflect.Pointer {
			pt = pt.Elem()
		}
		named := pt.FieldByName("TypeRef").FieldByName("NamedType")
		name := "<inlined>"
		if named.IsValid() && !named.IsNil() {
			name = named.Elem().String()
		}
		out = append(out, gvkEntry{
			group:    k.FieldByName("Group").String(),
			version:  k.FieldByName("Version").String(),
			kind:     k.FieldByName("Kind").String(),
			typeName: name,
		})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.group != b.group {
			return a.group < b.group
		}
		if a.version != b.version {
			return a.version < b.version
		}
		return a.kind < b.kind
	})
	return out, nil
}

// gvkResult is the index (sorted by group, version, kind) and the type each
// lookup finds: the GVK an object with that apiVersion and kind has
// (unstructured.Unstructured's parsing of apiVersion), looked up in it.
func gvkResult(index []gvkEntry, lookups []gvkLookup) jObject {
	entries := make([]any, len(index))
	byGVK := map[[3]string]string{}
	for i, e := range index {
		entries[i] = jObject{"group": e.group, "version": e.version, "kind": e.kind, "type": e.typeName}
		byGVK[[3]string{e.group, e.version, e.kind}] = e.typeName
	}
	result := jObject{"index": entries}
	if lookups != nil {
		found := make([]any, len(lookups))
		for i, q := range lookups {
			u := unstructured.Unstructured{Object: map[string]any{"apiVersion": q.apiVersion, "kind": q.kind}}
			gvk := u.GroupVersionKind()
			if t, ok := byGVK[[3]string{gvk.Group, gvk.Version, gvk.Kind}]; ok {
				found[i] = t
			} else {
				found[i] = nil
			}
		}
		result["lookups"] = found
	}
	return result
}
