package main

// gogen gotypes: the Go types of every built-in kind and version, as the API
// server's serializer sees them, read by reflection from the scheme that
// client-go's kubernetes/scheme registers (every built-in group's external
// types), plus apiextensions.k8s.io and apiregistration.k8s.io.
//
//	gogen gotypes [--out DIR]   (default ../../smd/src/builtin)
//
// writes DIR/gotypes.json (canonical JSON):
//
//	{"kinds": [{"group", "version", "kind", "type"}, ...],   sorted by group, version, kind
//	 "types": {"<OpenAPI model name>": {"fields": [field, ...]} | {"custom": "<tag>"}}}
//
// A field: {"json": JSON name, "go": Go field name, "goType": the Go type as
// reflect writes it (`[]v1.Container`, `*int32`: json's error messages name
// it), "type": shape, and only
// when set: "omitempty", "omitzero", "string", "inline" (the tag's options;
// encoding/json itself ignores "inline"), "embedded" (an anonymous struct
// field whose tag gives no name: encoding/json promotes its fields into the
// enclosing object, and "json" is ""), "patchStrategy", "patchMergeKey"}. Fields are in Go's declaration order (json.Marshal's).
// A shape: "*X" (pointer), "[]X" (slice), "map[string]X" (map with string
// keys), "bytes" ([]byte, base64 in JSON), "string", "bool", "int", "int8",
// "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
// "float32", "float64", "interface", or the model name of a struct or custom
// type listed in "types". A custom type marshals itself; its tag is one of
// customTags' values (a new one fails the generation, never passes silently).

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsv1beta1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	apiregistrationv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
	apiregistrationv1beta1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1beta1"
)

// customTags names the types with their own JSON encoding, by model name.
var customTags = map[string]string{
	"io.k8s.apimachinery.pkg.api.resource.Quantity":                                              "quantity",
	"io.k8s.apimachinery.pkg.util.intstr.IntOrString":                                            "int-or-string",
	"io.k8s.apimachinery.pkg.apis.meta.v1.Time":                                                  "time",
	"io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime":                                             "micro-time",
	"io.k8s.apimachinery.pkg.apis.meta.v1.Duration":                                              "duration",
	"io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1":                                              "fields-v1",
	"io.k8s.apimachinery.pkg.runtime.RawExtension":                                               "raw-extension",
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON":                              "json",
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.JSON":                         "json",
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray":            "schema-or-array",
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaPropsOrArray":       "schema-or-array",
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool":             "schema-or-bool",
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaPropsOrBool":        "schema-or-bool",
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray":      "schema-or-string-array",
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaPropsOrStringArray": "schema-or-string-array",
}

func runGoTypes(args []string) int {
	out, ok := parseOut("gotypes", args, "directory", "smd", "src", "builtin")
	if !ok {
		return 2
	}
	tree, err := goTypesTree()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gogen: gotypes: %v\n", err)
		return 1
	}
	return writeCorpus("gotypes", filepath.Join(out, "gotypes.json"), tree)
}

// builtinScheme registers every built-in group's external types.
func builtinScheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		clientgoscheme.AddToScheme,
		apiextensionsv1.AddToScheme,
		apiextensionsv1beta1.AddToScheme,
		apiregistrationv1.AddToScheme,
		apiregistrationv1beta1.AddToScheme,
	} {
		if err := add(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

type goTypesWalker struct {
	types  jObject
	byName map[string]reflect.Type
}

func goTypesTree() (any, error) {
	s, err := builtinScheme()
	if err != nil {
		return nil, err
	}
	w := &goTypesWalker{types: jObject{}, byName: map[string]reflect.Type{}}
	type kindRow struct{ group, version, kind, typ string }
	var rows []kindRow
	for gvk, t := range s.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal {
			continue // metav1's WatchEvent is registered internal too; no body has that version
		}
		name, err := w.shape(t)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", gvk, err)
		}
		rows = append(rows, kindRow{gvk.Group, gvk.Version, gvk.Kind, name})
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.group != b.group {
			return a.group < b.group
		}
		if a.version != b.version {
			return a.version < b.version
		}
		return a.kind < b.kind
	})
	kinds := make([]any, 0, len(rows))
	for _, r := range rows {
		kinds = append(kinds, jObject{"group": r.group, "version": r.version, "kind": r.kind, "type": r.typ})
	}
	return jObject{"kinds": kinds, "types": w.types}, nil
}

var (
	marshalerType   = reflect.TypeFor[json.Marshaler]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

// modelName is the OpenAPI model name of a named Go type: its OpenAPIModelName
// method's answer where it has one, else its package path with the domain
// reversed, as kube-openapi's namer writes it.
func modelName(t reflect.Type) string {
	if m, ok := reflect.New(t).Elem().Interface().(interface{ OpenAPIModelName() string }); ok {
		return m.OpenAPIModelName()
	}
	pkg := t.PkgPath()
	domain, rest, _ := strings.Cut(pkg, "/")
	parts := strings.Split(domain, ".")
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	name := strings.Join(parts, ".")
	if rest != "" {
		name += "." + strings.ReplaceAll(rest, "/", ".")
	}
	return name + "." + t.Name()
}

func isCustom(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(marshalerType) || t.Implements(unmarshalerType) ||
		p.Implements(marshalerType) || p.Implements(unmarshalerType)
}

// shape is a type's shape text, recording named structs and custom types.
func (w *goTypesWalker) shape(t reflect.Type) (string, error) {
	if t.Name() != "" && isCustom(t) {
		name := modelName(t)
		tag, ok := customTags[name]
		if !ok {
			return "", fmt.Errorf("%s (%s) encodes itself and has no entry in customTags", name, t)
		}
		if err := w.claim(name, t); err != nil {
			return "", err
		}
		w.types[name] = jObject{"custom": tag}
		return name, nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		s, err := w.shape(t.Elem())
		return "*" + s, err
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !isCustom(t.Elem()) {
			return "bytes", nil
		}
		s, err := w.shape(t.Elem())
		return "[]" + s, err
	case reflect.Map:
		if t.Key().Kind() != reflect.String || isCustom(t.Key()) {
			return "", fmt.Errorf("%s: map keys must be strings", t)
		}
		s, err := w.shape(t.Elem())
		return "map[string]" + s, err
	case reflect.Struct:
		if t.Name() == "" {
			return "", fmt.Errorf("an anonymous struct %s", t)
		}
		name := modelName(t)
		if _, seen := w.types[name]; seen {
			return name, w.claim(name, t)
		}
		if err := w.claim(name, t); err != nil {
			return "", err
		}
		w.types[name] = nil // a placeholder: recursive types stop here
		fields, err := w.fields(t)
		if err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
		w.types[name] = jObject{"fields": fields}
		return name, nil
	case reflect.Interface:
		return "interface", nil
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32,
		reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return t.Kind().String(), nil
	}
	return "", fmt.Errorf("%s: a Go kind (%s) gotypes does not describe", t, t.Kind())
}

// claim insists that one model name stands for one Go type.
func (w *goTypesWalker) claim(name string, t reflect.Type) error {
	if old, ok := w.byName[name]; ok && old != t {
		return fmt.Errorf("model name %s stands for both %s and %s", name, old, t)
	}
	w.byName[name] = t
	return nil
}

func (w *goTypesWalker) fields(t reflect.Type) ([]any, error) {
	out := []any{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		tag, hasTag := f.Tag.Lookup("json")
		if tag == "-" {
			continue
		}
		jsonName, opts, _ := strings.Cut(tag, ",")
		shape, err := w.shape(f.Type)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.Name, err)
		}
		row := jObject{"go": f.Name, "goType": f.Type.String(), "type": shape}
		if jsonName == "" && !f.Anonymous {
			jsonName = f.Name
		}
		if !hasTag && f.Anonymous && f.Type.Kind() != reflect.Struct {
			return nil, fmt.Errorf("field %s: an embedded non-struct", f.Name)
		}
		row["json"] = jsonName
		if jsonName == "" {
			row["embedded"] = true
		}
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "":
			case "omitempty", "omitzero", "inline", "string":
				row[o] = true
			default:
				return nil, fmt.Errorf("field %s: tag option %q", f.Name, o)
			}
		}
		if v, ok := f.Tag.Lookup("patchStrategy"); ok {
			row["patchStrategy"] = v
		}
		if v, ok := f.Tag.Lookup("patchMergeKey"); ok {
			row["patchMergeKey"] = v
		}
		out = append(out, row)
	}
	return out, nil
}
