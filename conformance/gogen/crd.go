package main

// kind: crd — the schema the API server's field manager uses for the custom
// resources of a CustomResourceDefinition, built exactly as
// k8s.io/apiextensions-apiserver v0.37.2 builds it
// (pkg/apiserver/customresource_handler.go: buildOpenAPIModelsForApply, then
// managedfields.NewTypeConverter):
//
//  1. the CRD is decoded (the apiextensions scheme's deserializer), defaulted
//     (listKind, singular, ...) and validated as the API server validates a
//     create (validation.ValidateCustomResourceDefinition): a CRD it would
//     reject is the result {invalid: [...]};
//  2. builder.BuildOpenAPIV3 for each version, merged with the static spec
//     (builder.MergeSpecsV3): the OpenAPI v3 definitions the API server
//     builds for its own apiextensions resources
//     (builder3.BuildOpenAPIDefinitionsForResources on
//     CustomResourceDefinition, as GenericAPIServer.getOpenAPIModels does);
//  3. schemaconv.ToSchemaFromOpenAPI(models, preserveUnknownFields) (what
//     NewTypeConverter calls) and the type converter's GVK index.
//
// The golden holds the types reachable from the CRD's kinds (the static
// spec's own types, such as JSONSchemaProps, are never used for a custom
// resource), sorted as the openapi kind writes them, and the index entries
// of the CRD's group.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	generatedopenapi "k8s.io/apiextensions-apiserver/pkg/generated/openapi"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/managedfields"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	apiopenapi "k8s.io/apiserver/pkg/endpoints/openapi"
	utilopenapi "k8s.io/apiserver/pkg/util/openapi"
	"k8s.io/kube-openapi/pkg/builder3"
	"k8s.io/kube-openapi/pkg/common"
	"k8s.io/kube-openapi/pkg/schemaconv"
	"k8s.io/kube-openapi/pkg/spec3"
	openapiutil "k8s.io/kube-openapi/pkg/util"
	openapispec "k8s.io/kube-openapi/pkg/validation/spec"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	sigsyaml "sigs.k8s.io/yaml"
)

var (
	crdScheme     = runtime.NewScheme()
	crdCodecs     serializer.CodecFactory
	crdSchemeOnce sync.Once

	staticSpecOnce sync.Once
	staticSpec     map[string]*openapispec.Schema
	staticSpecErr  error
)

func crdSetup() {
	crdSchemeOnce.Do(func() {
		install.Install(crdScheme)
		crdCodecs = serializer.NewCodecFactory(crdScheme)
	})
}

// crdStaticSpec is GenericAPIServer.getOpenAPIModels for the apiextensions
// group: the v3 definitions of CustomResourceDefinition and what it uses,
// from the generated definitions with disabled features removed (as
// kube-apiserver's config does), named by the definition namer.
func crdStaticSpec() (map[string]*openapispec.Schema, error) {
	staticSpecOnce.Do(func() {
		crdSetup()
		namer := apiopenapi.NewDefinitionNamer(crdScheme)
		getDefinitions := utilopenapi.GetOpenAPIDefinitionsWithoutDisabledFeatures(generatedopenapi.GetOpenAPIDefinitions)
		config := &common.OpenAPIV3Config{
			IgnorePrefixes:        []string{},
			Info:                  &openapispec.Info{InfoProps: openapispec.InfoProps{Title: "Generic API Server"}},
			DefaultResponse:       &spec3.Response{ResponseProps: spec3.ResponseProps{Description: "Default Response."}},
			GetOperationIDAndTags: apiopenapi.GetOperationIDAndTags,
			GetDefinitionName:     namer.GetDefinitionName,
			GetDefinitions:        getDefinitions,
		}
		config.Definitions = getDefinitions(func(name string) openapispec.Ref {
			defName, _ := config.GetDefinitionName(name)
			return openapispec.MustCreateRef("#/components/schemas/" + common.EscapeJsonPointer(defName))
		})
		// getResourceNamesForGroup: customresourcedefinitions and its status.
		name := openapiutil.GetCanonicalTypeName(&apiextensionsv1.CustomResourceDefinition{})
		staticSpec, staticSpecErr = builder3.BuildOpenAPIDefinitionsForResources(config, name, name)
		if staticSpecErr != nil {
			staticSpecErr = genErrorf("static spec: %v", staticSpecErr)
		}
	})
	return staticSpec, staticSpecErr
}

func decodeCRDOp(op string, c *spec) (func() (any, error), error) {
	switch op {
	case "convert":
		input, err := c.inputBytes()
		if err != nil {
			return nil, err
		}
		return func() (any, error) { return convertCRDs(input) }, nil
	}
	return nil, unknownOp(c, "crd", op)
}

// convertCRDs converts every document of the input: {crds: [RESULT...]},
// each {name, schema, index} or {invalid: [...]} or {error: ...}. A document
// that cannot be read makes the whole result {readError: ...}.
func convertCRDs(input []byte) (any, error) {
	crdSetup()
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(input)))
	var results []any
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return readFailed(err)
		}
		// As kubectl reads a stream: each document as JSON, empty ones skipped.
		data, err := sigsyaml.YAMLToJSON(doc)
		if err != nil {
			return readFailed(err)
		}
		if t := bytes.TrimSpace(data); len(t) == 0 || bytes.Equal(t, []byte("null")) {
			continue
		}
		obj, _, err := crdCodecs.UniversalDeserializer().Decode(data, nil, nil)
		if err != nil {
			return readFailed(err)
		}
		crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
		if !ok {
			return readFailed(fmt.Errorf("not an apiextensions.k8s.io/v1 CustomResourceDefinition: %T", obj))
		}
		r, err := convertCRD(crd)
		if err != nil {
			return nil, err
		}
		results = append(results, r)
	}
	if results == nil {
		results = []any{}
	}
	return jObject{"crds": results}, nil
}

var selfTypeName = regexp.MustCompile(`selfType[0-9]+`)

// normalizedFieldErrors sorts a CRD's field errors, the self type of CEL rules (named with a
// random number, generateUniqueSelfTypeName) written selfType0.
func normalizedFieldErrors(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = selfTypeName.ReplaceAllString(l, "selfType0")
	}
	sort.Strings(out)
	return out
}

func convertCRD(crd *apiextensionsv1.CustomResourceDefinition) (any, error) {
	crdScheme.Default(crd)
	internal := &apiextensions.CustomResourceDefinition{}
	if err := crdScheme.Convert(crd, internal, nil); err != nil {
		return nil, genErrorf("converting to the internal version: %v", err)
	}
	if errs := validation.ValidateCustomResourceDefinition(context.Background(), internal); len(errs) > 0 {
		lines := make([]string, len(errs))
		for i, e := range errs {
			lines[i] = e.Error()
		}
		lines = normalizedFieldErrors(lines)
		list := make([]any, len(lines))
		for i, l := range lines {
			list[i] = l
		}
		return jObject{"name": crd.Name, "invalid": list}, nil
	}
	static, err := crdStaticSpec()
	if err != nil {
		return nil, err
	}
	m, err := buildOpenAPIModelsForApply(static, crd)
	if err != nil {
		return jObject{"name": crd.Name, "error": errorNode(err)}, nil
	}
	s, err := schemaconv.ToSchemaFromOpenAPI(m, crd.Spec.PreserveUnknownFields)
	if err != nil {
		return jObject{"name": crd.Name, "error": errorNode(sortedLines(err))}, nil
	}
	tc, err := managedfields.NewTypeConverter(m, crd.Spec.PreserveUnknownFields)
	if err != nil {
		return jObject{"name": crd.Name, "error": errorNode(sortedLines(err))}, nil
	}
	index, err := typeConverterIndex(tc)
	if err != nil {
		return nil, err
	}
	// The index also holds the kinds of the static spec and of the
	// builder's routes (Status, DeleteOptions of every built-in group):
	// keep the CRD's group.
	var own []gvkEntry
	var roots []string
	for _, e := range index {
		if e.group == crd.Spec.Group {
			own = append(own, e)
			roots = append(roots, e.typeName)
		}
	}
	index = own
	out, err := openapiSchema(reachable(s, roots))
	if err != nil {
		return nil, err
	}
	return jObject{"name": crd.Name, "schema": out, "index": gvkResult(index, nil)["index"]}, nil
}

// buildOpenAPIModelsForApply is customresource_handler.go's function of that
// name (unexported there): the static spec as a v3 document, merged with
// BuildOpenAPIV3 of every version.
func buildOpenAPIModelsForApply(staticOpenAPISpec map[string]*openapispec.Schema, crd *apiextensionsv1.CustomResourceDefinition) (map[string]*openapispec.Schema, error) {
	staticSpecV3 := &spec3.OpenAPI{
		Version: "3.0.0",
		Info: &openapispec.Info{
			InfoProps: openapispec.InfoProps{
				Title:   "Kubernetes CRD Swagger",
				Version: "v0.1.0",
			},
		},
		Components: &spec3.Components{
			Schemas: staticOpenAPISpec,
		},
	}
	specs := []*spec3.OpenAPI{staticSpecV3}
	for _, v := range crd.Spec.Versions {
		s, err := builder.BuildOpenAPIV3(crd, v.Name, builder.Options{})
		if err != nil {
			return nil, err
		}
		specs = append(specs, s)
	}
	merged, err := builder.MergeSpecsV3(specs...)
	if err != nil {
		return nil, err
	}
	return merged.Components.Schemas, nil
}

// reachable keeps the types named by roots and every type they refer to.
func reachable(s *schema.Schema, roots []string) *schema.Schema {
	byName := map[string]*schema.TypeDef{}
	for i := range s.Types {
		if _, ok := byName[s.Types[i].Name]; !ok {
			byName[s.Types[i].Name] = &s.Types[i]
		}
	}
	seen := map[string]bool{}
	var visitAtom func(a schema.Atom)
	var visitRef func(tr schema.TypeRef)
	visitName := func(n string) {
		if seen[n] {
			return
		}
		seen[n] = true
		if t, ok := byName[n]; ok {
			visitAtom(t.Atom)
		}
	}
	visitRef = func(tr schema.TypeRef) {
		if tr.NamedType != nil {
			visitName(*tr.NamedType)
		}
		visitAtom(tr.Inlined)
	}
	visitAtom = func(a schema.Atom) {
		if a.List != nil {
			visitRef(a.List.ElementType)
		}
		if a.Map != nil {
			for _, f := range a.Map.Fields {
				visitRef(f.Type)
			}
			visitRef(a.Map.ElementType)
		}
	}
	for _, r := range roots {
		visitName(r)
	}
	out := &schema.Schema{}
	for _, t := range s.Types {
		if seen[t.Name] {
			out.Types = append(out.Types, t)
		}
	}
	return out
}
