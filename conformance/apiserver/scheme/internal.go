package main

// smd-scheme internal-types: the INTERNAL Go types of every built-in kind (the types the
// server converts a body to and validates; its 422 messages print them with json.Marshal, so
// with Go's field names and order), read by reflection from the schemes the server registers,
// in the format of smd/src/builtin/gotypes.json (conformance/gogen/gotypes.go) cut down to
// what rendering needs:
//
//	{"kinds": [{"group", "version": "__internal", "kind", "type"}, ...],
//	 "pairs": {"<versioned model name>": "<internal model name>"},
//	 "types": {"<model name>": {"fields": [field, ...]} | {"custom": "<tag>"}}}
//
// A field: {"go": Go name, "type": shape (as in gotypes.json)} and only when set: "json" (the
// tag's name, when it differs from the Go name), "omitempty", "omitzero", "embedded" (an
// anonymous struct field whose fields encoding/json promotes). Fields in declaration order.
//
// "pairs" maps each versioned struct type to the internal one the conversion fills from it:
// the kinds' types paired by group and kind, then their fields paired by Go field name (the
// generated conversions copy fields by name), recursively. A versioned type paired with two
// internal types fails the generation.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	apiextensionsapiserver "k8s.io/apiextensions-apiserver/pkg/apiserver"
	aggregatorscheme "k8s.io/kube-aggregator/pkg/apiserver/scheme"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
)

// customTags names the types with their own JSON encoding, by model name (the tags of
// gotypes.json).
var customTags = map[string]string{
	"io.k8s.apimachinery.pkg.api.resource.Quantity":                                      "quantity",
	"io.k8s.apimachinery.pkg.util.intstr.IntOrString":                                    "int-or-string",
	"io.k8s.apimachinery.pkg.apis.meta.v1.Time":                                          "time",
	"io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime":                                     "micro-time",
	"io.k8s.apimachinery.pkg.apis.meta.v1.Duration":                                      "duration",
	"io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1":                                      "fields-v1",
	"io.k8s.apimachinery.pkg.runtime.RawExtension":                                       "raw-extension",
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.JSON":                         "json",
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.JSONSchemaPropsOrArray":       "schema-or-array",
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.JSONSchemaPropsOrBool":        "schema-or-bool",
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.JSONSchemaPropsOrStringArray": "schema-or-string-array",
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON":                      "json",
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.JSON":                 "json",
}

var (
	marshalerType   = reflect.TypeFor[json.Marshaler]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

// servedSchemes are the schemes the server decodes built-in bodies with.
func servedSchemes() []*runtime.Scheme {
	return []*runtime.Scheme{legacyscheme.Scheme, apiextensionsapiserver.Scheme, aggregatorscheme.Scheme}
}

type typeWalker struct {
	types  map[string]any
	byName map[string]reflect.Type
	pairs  map[string]string
}

func internalTypes() error {
	w := &typeWalker{types: map[string]any{}, byName: map[string]reflect.Type{}, pairs: map[string]string{}}
	kinds := map[schema.GroupKind]string{}
	var problems []string
	for _, s := range servedSchemes() {
		all := s.AllKnownTypes()
		var gvks []schema.GroupVersionKind
		for gvk := range all {
			gvks = append(gvks, gvk)
		}
		sort.Slice(gvks, func(i, j int) bool { return gvks[i].String() < gvks[j].String() })
		for _, gvk := range gvks {
			if gvk.Version != runtime.APIVersionInternal {
				continue
			}
			name, err := w.shape(all[gvk])
			if err != nil {
				return fmt.Errorf("%s: %w", gvk, err)
			}
			kinds[gvk.GroupKind()] = name
		}
		for _, gvk := range gvks {
			internal, ok := all[gvk.GroupKind().WithVersion(runtime.APIVersionInternal)]
			if gvk.Version == runtime.APIVersionInternal || !ok {
				continue
			}
			problems = append(problems, w.pair(all[gvk], internal)...)
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return fmt.Errorf("%s", strings.Join(dedupe(problems), "\n"))
	}
	var rows []any
	var gks []schema.GroupKind
	for gk := range kinds {
		gks = append(gks, gk)
	}
	sort.Slice(gks, func(i, j int) bool {
		if gks[i].Group != gks[j].Group {
			return gks[i].Group < gks[j].Group
		}
		return gks[i].Kind < gks[j].Kind
	})
	for _, gk := range gks {
		rows = append(rows, map[string]string{"group": gk.Group, "version": runtime.APIVersionInternal, "kind": gk.Kind, "type": kinds[gk]})
	}
	return writeTable(os.Stdout, rows, w.pairs, w.types)
}

func dedupe(sorted []string) []string {
	var out []string
	for i, s := range sorted {
		if i == 0 || sorted[i-1] != s {
			out = append(out, s)
		}
	}
	return out
}

// writeTable writes the table with one kind, pair or type a line: compact, and a change shows
// as the lines it touches.
func writeTable(out *os.File, kinds []any, pairs map[string]string, types map[string]any) error {
	var b bytes.Buffer
	line := func(v any) error {
		var e bytes.Buffer
		enc := json.NewEncoder(&e)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return err
		}
		b.Write(bytes.TrimSuffix(e.Bytes(), []byte("\n")))
		return nil
	}
	b.WriteString("{\"kinds\": [\n")
	for i, k := range kinds {
		if err := line(k); err != nil {
			return err
		}
		if i+1 < len(kinds) {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("]")
	for _, section := range []struct {
		name string
		m    map[string]any
	}{{"pairs", toAny(pairs)}, {"types", types}} {
		fmt.Fprintf(&b, ",\n%q: {\n", section.name)
		keys := make([]string, 0, len(section.m))
		for k := range section.m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			if err := line(k); err != nil {
				return err
			}
			b.WriteString(": ")
			if err := line(section.m[k]); err != nil {
				return err
			}
			if i+1 < len(keys) {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("}")
	}
	b.WriteString("}\n")
	var check any
	if err := json.Unmarshal(b.Bytes(), &check); err != nil {
		return fmt.Errorf("internal-types wrote invalid JSON: %w", err)
	}
	_, err := out.Write(b.Bytes())
	return err
}

func toAny(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// modelName is the OpenAPI model name of a named Go type: its OpenAPIModelName method's answer
// where it has one, else its package path with the domain reversed, as kube-openapi's namer
// writes it (k8s.io/kubernetes/pkg/apis/core.PodSpec is io.k8s.kubernetes.pkg.apis.core.PodSpec).
// A method promoted from an embedded struct (an internal type embedding metav1.TypeMeta) names
// that struct, not t: its answer is used only when it ends in t's name.
func modelName(t reflect.Type) string {
	if m, ok := reflect.New(t).Elem().Interface().(interface{ OpenAPIModelName() string }); ok {
		if name := m.OpenAPIModelName(); strings.HasSuffix(name, "."+t.Name()) {
			return name
		}
	}
	domain, rest, _ := strings.Cut(t.PkgPath(), "/")
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

// shape is a type's shape text (gotypes.json's), recording named structs and custom types.
func (w *typeWalker) shape(t reflect.Type) (string, error) {
	if t.Name() != "" && isCustom(t) {
		name := modelName(t)
		tag, ok := customTags[name]
		if !ok {
			return "", fmt.Errorf("%s (%s) encodes itself and has no entry in customTags", name, t)
		}
		if err := w.claim(name, t); err != nil {
			return "", err
		}
		w.types[name] = map[string]any{"custom": tag}
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
		w.types[name] = map[string]any{"fields": fields}
		return name, nil
	case reflect.Interface:
		return "interface", nil
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32,
		reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return t.Kind().String(), nil
	}
	return "", fmt.Errorf("%s: a Go kind (%s) the table does not describe", t, t.Kind())
}

func (w *typeWalker) claim(name string, t reflect.Type) error {
	if old, ok := w.byName[name]; ok && old != t {
		return fmt.Errorf("model name %s stands for both %s and %s", name, old, t)
	}
	w.byName[name] = t
	return nil
}

func (w *typeWalker) fields(t reflect.Type) ([]any, error) {
	out := []any{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		jsonName, opts, _ := strings.Cut(tag, ",")
		shape, err := w.shape(f.Type)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.Name, err)
		}
		row := map[string]any{"go": f.Name, "type": shape}
		if jsonName == "" && f.Anonymous {
			if f.Type.Kind() != reflect.Struct {
				return nil, fmt.Errorf("field %s: an embedded non-struct", f.Name)
			}
			row["embedded"] = true
		} else if jsonName != "" && jsonName != f.Name {
			row["json"] = jsonName
		}
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "", "inline":
			case "omitempty", "omitzero":
				row[o] = true
			default:
				return nil, fmt.Errorf("field %s: tag option %q", f.Name, o)
			}
		}
		out = append(out, row)
	}
	return out, nil
}

// pair records which internal struct a versioned struct converts to, through fields of the
// same Go name; it answers the pairings that contradict an earlier one.
func (w *typeWalker) pair(v, i reflect.Type) []string {
	for v.Kind() == i.Kind() && (v.Kind() == reflect.Pointer || v.Kind() == reflect.Slice || v.Kind() == reflect.Map) {
		v, i = v.Elem(), i.Elem()
	}
	if v.Kind() != reflect.Struct || i.Kind() != reflect.Struct || v.Name() == "" || i.Name() == "" {
		return nil
	}
	if v == i {
		// A type registered in both versions (a kind some group keeps unconverted) pairs
		// nothing: its types render as they are.
		return nil
	}
	vname, iname := modelName(v), modelName(i)
	if old, ok := w.pairs[vname]; ok {
		if old != iname {
			return []string{fmt.Sprintf("%s converts to both %s and %s", vname, old, iname)}
		}
		return nil
	}
	if _, err := w.shape(i); err != nil {
		return []string{err.Error()}
	}
	w.pairs[vname] = iname
	if isCustom(v) || isCustom(i) {
		return nil
	}
	var problems []string
	for k := 0; k < i.NumField(); k++ {
		f := i.Field(k)
		if g, ok := v.FieldByName(f.Name); ok && len(g.Index) == 1 {
			problems = append(problems, w.pair(g.Type, f.Type)...)
		}
	}
	return problems
}
