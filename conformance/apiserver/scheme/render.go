package main

// smd-scheme render: how the server's 422 messages show a value of a built-in type. Many
// validation errors print the INTERNAL Go value (field.Invalid(path, internalValue, ...),
// whose ErrorBody uses json.Marshal) or the diff.Diff of two of them. For each case (format
// smd-scheme-render/v1) the tool decodes the object as the server's codec does (defaulted,
// converted to the internal version), picks the value at the case's path and writes what Go
// makes of it:
//
//	old, new   the objects as the server returns them (decoded, defaulted, converted and
//	           back): what smd holds
//	json       json.Marshal of the internal value at the path of old
//	indent     json.MarshalIndent(v, "", " ") of it (what diff.Diff compares)
//	newJSON    json.Marshal of the internal value at the path of new
//	diff       diff.Diff(old's value, new's value)

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/versioning"
	"k8s.io/apimachinery/pkg/util/diff"
	"sigs.k8s.io/yaml"
)

type renderFile struct {
	Format string       `json:"format"`
	Cases  []renderCase `json:"cases"`
}

type renderCase struct {
	Name string `json:"name"`
	Note string `json:"note,omitempty"`
	// Type is the OpenAPI model name of the versioned type at Path (checked).
	Type string `json:"type"`
	// Path leads from the object to the value: JSON keys of the versioned type, and list
	// indexes.
	Path   []interface{}          `json:"path"`
	Object map[string]interface{} `json:"object"`
	// New is the second object of a diff (optional).
	New map[string]interface{} `json:"new,omitempty"`
}

type renderResult struct {
	Type    string        `json:"type"`
	Path    []interface{} `json:"path"`
	Old     interface{}   `json:"old"`
	New     interface{}   `json:"new,omitempty"`
	JSON    string        `json:"json"`
	Indent  string        `json:"indent"`
	NewJSON string        `json:"newJSON,omitempty"`
	Diff    *string       `json:"diff,omitempty"`
}

func render(scenarioPath, goldenPath string) error {
	data, err := os.ReadFile(scenarioPath)
	if err != nil {
		return err
	}
	var rf renderFile
	if err := yaml.UnmarshalStrict(data, &rf); err != nil {
		return fmt.Errorf("%s: %w", scenarioPath, err)
	}
	if rf.Format != "smd-scheme-render/v1" {
		return fmt.Errorf("%s: format %q, want smd-scheme-render/v1", scenarioPath, rf.Format)
	}
	results := map[string]renderResult{}
	var problems []string
	for _, c := range rf.Cases {
		if _, dup := results[c.Name]; dup || c.Name == "" {
			problems = append(problems, fmt.Sprintf("case name %q empty or repeated", c.Name))
			continue
		}
		r, err := renderOne(c)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", c.Name, err))
			continue
		}
		results[c.Name] = r
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	golden := map[string]interface{}{
		"format":    "smd-scheme-render-goldens/v1",
		"generator": map[string]string{"kubernetes": kubernetesVersion},
		"results":   results,
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(golden); err != nil {
		return err
	}
	if old, err := os.ReadFile(goldenPath); err == nil && bytes.Equal(old, out.Bytes()) {
		return nil
	}
	if err := os.WriteFile(goldenPath, out.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Println("wrote", goldenPath)
	return nil
}

func renderOne(c renderCase) (renderResult, error) {
	r := renderResult{Type: c.Type, Path: c.Path}
	old, oldServed, err := internalAt(c.Object, c.Path, c.Type)
	if err != nil {
		return r, err
	}
	r.Old = oldServed
	text, err := json.Marshal(old)
	if err != nil {
		return r, err
	}
	r.JSON = string(text)
	indent, err := json.MarshalIndent(old, "", " ")
	if err != nil {
		return r, err
	}
	r.Indent = string(indent)
	if c.New != nil {
		nv, newServed, err := internalAt(c.New, c.Path, c.Type)
		if err != nil {
			return r, fmt.Errorf("new: %w", err)
		}
		r.New = newServed
		text, err := json.Marshal(nv)
		if err != nil {
			return r, err
		}
		r.NewJSON = string(text)
		d := diff.Diff(old, nv)
		r.Diff = &d
	}
	return r, nil
}

// internalAt decodes object as the server does (defaulted, converted to the internal version)
// and answers the internal value at path, with the object as the server returns it.
func internalAt(object map[string]interface{}, path []interface{}, typeName string) (interface{}, interface{}, error) {
	body, err := json.Marshal(object)
	if err != nil {
		return nil, nil, err
	}
	apiVersion, _ := object["apiVersion"].(string)
	kind, _ := object["kind"].(string)
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, nil, err
	}
	served, err := codec(gv, true, body)
	if err != nil {
		return nil, nil, err
	}
	scheme := schemeFor(gv)
	serializer := kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, scheme, scheme, kjson.SerializerOptions{})
	internalGV := schema.GroupVersion{Group: gv.Group, Version: runtime.APIVersionInternal}
	decoder := versioning.NewCodec(nil, serializer, runtime.UnsafeObjectConvertor(scheme), scheme, scheme, scheme, nil, internalGV, scheme.Name())
	obj, _, err := decoder.Decode(body, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	versioned, err := scheme.New(gv.WithKind(kind))
	if err != nil {
		return nil, nil, err
	}
	vt := reflect.TypeOf(versioned)
	iv := reflect.ValueOf(obj)
	for _, step := range path {
		for vt.Kind() == reflect.Pointer {
			vt = vt.Elem()
		}
		for iv.Kind() == reflect.Pointer {
			if iv.IsNil() {
				return nil, nil, fmt.Errorf("nil pointer before %v", step)
			}
			iv = iv.Elem()
		}
		switch s := step.(type) {
		case string:
			goName, t, ok := fieldByJSON(vt, s)
			if !ok {
				return nil, nil, fmt.Errorf("%s has no field %q", vt, s)
			}
			f := iv.FieldByName(goName)
			if !f.IsValid() {
				return nil, nil, fmt.Errorf("internal %s has no field %s", iv.Type(), goName)
			}
			vt, iv = t, f
		case float64:
			n := int(s)
			if vt.Kind() != reflect.Slice || iv.Kind() != reflect.Slice || n < 0 || n >= iv.Len() {
				return nil, nil, fmt.Errorf("no item %d", n)
			}
			vt, iv = vt.Elem(), iv.Index(n)
		default:
			return nil, nil, fmt.Errorf("path step %v (%T)", step, step)
		}
	}
	for vt.Kind() == reflect.Pointer {
		vt = vt.Elem()
	}
	if got := modelName(vt); got != typeName {
		return nil, nil, fmt.Errorf("the value at the path is a %s, not a %s", got, typeName)
	}
	return iv.Interface(), served, nil
}

// fieldByJSON finds a struct field by its JSON name, through embedded structs.
func fieldByJSON(t reflect.Type, name string) (string, reflect.Type, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tagName, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tagName == "" && f.Anonymous && f.Type.Kind() == reflect.Struct {
			if goName, ft, ok := fieldByJSON(f.Type, name); ok {
				return goName, ft, true
			}
			continue
		}
		if tagName == name {
			return f.Name, f.Type, true
		}
	}
	return "", nil, false
}
