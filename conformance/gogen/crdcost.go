package main

// gogen crdcost — the sizes and cardinalities behind the estimated cost of a
// CRD's x-kubernetes-validations rules, as apiextensions-apiserver v0.37.2
// computes them when it validates a CRD: for every schema node of the CRDs of
// the scenario files conformance/scenarios/crd/{cost,rules}.yaml,
//
//   - cardinality: CELSchemaContext.MaxCardinality (how many times the node
//     can occur; null where no maxItems/maxProperties bounds it), from
//     validation.RootCELContext and its Child*Context walk;
//   - for nodes with rules, from the DeclType the rules are compiled with
//     (CELSchemaContext.TypeInfo): minSize (MinSerializedSize) and sizes, the
//     size estimate for every path of at most three steps from self (field
//     names, @items, @values, @keys), walked as the rule compiler's
//     sizeEstimator walks it: {0, MaxElements} of the node reached; and for
//     each rule, cel.Compile's MaxCost, MaxCardinality and
//     MessageExpressionMaxCost;
//   - costErrors: the CRD's validation errors about estimated costs, which
//     the numbers above give (smd's test recomputes them from the numbers).
//
// smd-schema's src/crd/cost/tests.rs replays the file.

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	apiextensionscel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	sigsyaml "sigs.k8s.io/yaml"
)

func runCRDCost(args []string) int {
	fs := flag.NewFlagSet("crdcost", flag.ContinueOnError)
	out := fs.String("out", "", "output file (default ../../schema/tests/data/crd_cost.json from the module directory)")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
	dir, err := moduleDir()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gogen: %v\n", err)
		return 2
	}
	if *out == "" {
		*out = filepath.Join(dir, "..", "..", "schema", "tests", "data", "crd_cost.json")
	}
	var cases []any
	for _, name := range []string{"cost.yaml", "rules.yaml"} {
		c, err := crdCostCases(filepath.Join(dir, "..", "scenarios", "crd", name))
		if err != nil {
			fmt.Fprintf(os.Stderr, "gogen: crdcost: %s: %v\n", name, err)
			return 1
		}
		cases = append(cases, c...)
	}
	return writeCorpus("crdcost", *out, jObject{"format": "smd-crdcost/v1", "cases": cases})
}

func crdCostCases(path string) ([]any, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var file struct {
		Cases []struct {
			Name  string `json:"name"`
			Input string `json:"input"`
		} `json:"cases"`
	}
	if err := sigsyaml.Unmarshal(text, &file); err != nil {
		return nil, err
	}
	crdSetup()
	var out []any
	for _, c := range file.Cases {
		obj, _, err := crdCodecs.UniversalDeserializer().Decode([]byte(c.Input), nil, nil)
		if err != nil {
			continue
		}
		crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
		if !ok {
			continue
		}
		costErrors, shared, err := crdCostErrors(crd.DeepCopy())
		if err != nil {
			return nil, genErrorf("%s: %v", c.Name, err)
		}
		for i, v := range crd.Spec.Versions {
			if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
				continue
			}
			internal := &apiextensions.JSONSchemaProps{}
			if err := crdScheme.Convert(v.Schema.OpenAPIV3Schema, internal, nil); err != nil {
				return nil, genErrorf("%s: %v", c.Name, err)
			}
			var nodes []any
			crdCostWalk(internal, validation.RootCELContext(internal), "", &nodes)
			schema, err := plainJSON(v.Schema.OpenAPIV3Schema)
			if err != nil {
				return nil, err
			}
			out = append(out, jObject{
				"case": c.Name, "version": v.Name, "index": i, "shared": shared,
				"schema": schema, "nodes": nodes, "costErrors": costErrors,
			})
		}
	}
	return out, nil
}

// crdCostErrors validates a CRD as a create (as kind crd does) and keeps the
// errors about estimated costs, sorted; shared says whether its versions have
// one schema (then the server validates spec.validation).
func crdCostErrors(crd *apiextensionsv1.CustomResourceDefinition) ([]any, bool, error) {
	crdScheme.Default(crd)
	internal := &apiextensions.CustomResourceDefinition{}
	if err := crdScheme.Convert(crd, internal, nil); err != nil {
		return nil, false, err
	}
	var lines []string
	for _, e := range validation.ValidateCustomResourceDefinition(context.Background(), internal) {
		text := e.Error()
		if e.Type == field.ErrorTypeForbidden && strings.Contains(text, "estimated") {
			lines = append(lines, text)
		}
	}
	sort.Strings(lines)
	out := make([]any, len(lines))
	for i, l := range lines {
		out[i] = l
	}
	return out, internal.Spec.Validation != nil, nil
}

// plainJSON is a value as its JSON text reads back, numbers as int64 or float64.
func plainJSON(v any) (any, error) {
	text, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	plain, err := plainTree("schema", tree)
	if err != nil {
		return nil, err
	}
	return asJObjects(plain), nil
}

// asJObjects makes the maps of a plain tree jObjects (written with sorted keys).
func asJObjects(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := jObject{}
		for k, e := range t {
			out[k] = asJObjects(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = asJObjects(e)
		}
		return out
	case float64:
		return jNumber(strconv.FormatFloat(t, 'g', -1, 64))
	}
	return v
}

func crdCostWalk(s *apiextensions.JSONSchemaProps, ctx *validation.CELSchemaContext, path string, out *[]any) {
	node := jObject{"path": path, "cardinality": nil}
	if ctx.MaxCardinality != nil {
		node["cardinality"] = jNumber(strconv.FormatUint(*ctx.MaxCardinality, 10))
	}
	if len(s.XValidations) > 0 {
		if info, err := ctx.TypeInfo(); err == nil && info != nil && info.DeclType != nil {
			node["minSize"] = info.DeclType.MinSerializedSize
			sizes := jObject{}
			crdCostSizes(info.DeclType, "self", 0, sizes)
			node["sizes"] = sizes
			node["rules"] = crdCostRules(info)
		}
	}
	*out = append(*out, node)
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		prop := s.Properties[name]
		crdCostWalk(&prop, ctx.ChildPropertyContext(&prop, name), path+".properties["+name+"]", out)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		crdCostWalk(s.AdditionalProperties.Schema, ctx.ChildAdditionalPropertiesContext(s.AdditionalProperties.Schema), path+".additionalProperties", out)
	}
	if s.Items != nil && s.Items.Schema != nil {
		crdCostWalk(s.Items.Schema, ctx.ChildItemsContext(s.Items.Schema), path+".items", out)
	}
}

// crdCostRules compiles a node's rules as a CRD create does (the new
// expressions' environment of the default compatibility version) and records
// each one's estimated cost (MaxCost), the node's cardinality bound where its
// ancestors give none (MaxCardinality) and its messageExpression's cost; the
// numbers are 0 where the expression does not compile.
func crdCostRules(info *validation.CELTypeInfo) []any {
	envSet := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
	results, err := apiextensionscel.Compile(info.Schema, info.DeclType, celconfig.PerCallLimit, envSet, apiextensionscel.NewExpressionsEnvLoader())
	if err != nil {
		return nil
	}
	out := make([]any, len(results))
	for i, r := range results {
		out[i] = jObject{
			"compiled":                 r.Error == nil && r.Program != nil,
			"maxCost":                  jNumber(strconv.FormatUint(r.MaxCost, 10)),
			"maxCardinality":           jNumber(strconv.FormatUint(r.MaxCardinality, 10)),
			"messageExpressionMaxCost": jNumber(strconv.FormatUint(r.MessageExpressionMaxCost, 10)),
		}
	}
	return out
}

// crdCostSizes records {0, MaxElements} for the path reaching t and for every
// path of up to three steps below it (also steps the estimator refuses, as
// null: @keys of a list, @items of a scalar, an unknown field).
func crdCostSizes(t *apiservercel.DeclType, path string, depth int, out jObject) {
	if t == nil {
		out[path] = nil
		return
	}
	out[path] = jNumber(strconv.FormatUint(uint64(t.MaxElements), 10))
	if depth == 3 {
		return
	}
	crdCostSizes(t.ElemType, path+".@items", depth+1, out)
	crdCostSizes(t.ElemType, path+".@values", depth+1, out)
	crdCostSizes(t.KeyType, path+".@keys", depth+1, out)
	names := make([]string, 0, len(t.Fields))
	for name := range t.Fields {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		crdCostSizes(t.Fields[name].Type, path+"."+name, depth+1, out)
	}
	out[path+".noSuchField"] = nil
}
