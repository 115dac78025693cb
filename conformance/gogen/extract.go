package main

// gogen extract [--out FILE] — apimachinery's managedfields.ExtractInto
// (v0.37.2) on the cases of smd/tests/data/extract-cases.yaml, written to
// smd/tests/data/extract.json (the default FILE), which smd/tests/extract.rs
// replays through smd::extract.
//
// A case is an object as `kubectl get -o yaml --show-managed-fields` prints
// it, a manager, a subresource and, for a custom resource, the name of one of
// the file's CRDs. The object is read as the API server reads a body
// (readServerObject) and given to ExtractInto as an unstructured object, with
// the parseable type its kind has in the type converter the API server
// builds: the merged v3 documents of Kubernetes 1.37.2 for built-in kinds
// (builtinTypeConverter), the CRD's for custom resources (loadCRDs). The
// applied configuration is a map[string]interface{}, so what ExtractItems
// leaves (nulls included) is recorded as it is, not as a typed apply
// configuration would hold it.
//
// Then what every generated ExtractX function of client-go does after
// ExtractInto: it sets name, namespace (namespaced kinds only), kind and
// apiVersion. For built-in kinds those four come from client-go's own
// ExtractXFrom, run on the object without its managedFields (so that no
// manager owns anything there: client-go's "empty" applied configuration);
// for custom resources from the object and the CRD's scope, which is what
// applyconfiguration-gen generates for a CRD's Go type.
//
// Each row: the case's inputs (name, manager, subresource, object) and
// either "result" (the applied configuration), "error" (ExtractInto's error,
// with "empty" beside it: the empty applied configuration for that object),
// "panic" (same; "empty" is missing when client-go cannot read the object as
// its Go type), or "noType" (the type converter has no type for the
// object's kind: ExtractInto is never called). Every case is replayed
// defaultReplays times and must give the same bytes.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/go-logr/logr"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	applyappsv1 "k8s.io/client-go/applyconfigurations/apps/v1"
	applyautoscalingv2 "k8s.io/client-go/applyconfigurations/autoscaling/v2"
	applycorev1 "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/klog/v2"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	sigsyaml "sigs.k8s.io/yaml"
)

// extractFile is the case file: CRDs by a short name, and the cases.
type extractFile struct {
	CRDs  map[string]string `json:"crds"`
	Cases []extractCase     `json:"cases"`
}

type extractCase struct {
	Name        string `json:"name"`
	Note        string `json:"note"`
	Object      string `json:"object"`
	Manager     string `json:"manager"`
	Subresource string `json:"subresource"`
	// CRD names an entry of the file's crds (custom resources only).
	CRD string `json:"crd"`
	// Deviation names the documented way smd answers where Go fails; smd's
	// test reads it, gogen only carries it through.
	Deviation string `json:"deviation"`
}

func runExtract(args []string) int {
	out, ok := parseOut("extract", args, "file", "smd", "tests", "data", "extract.json")
	if !ok {
		return 2
	}
	dir, err := moduleDir()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gogen: extract: %v\n", err)
		return 2
	}
	in := filepath.Join(dir, "..", "..", "smd", "tests", "data", "extract-cases.yaml")
	// GetManagedFields logs the list it cannot read (and reads none); the
	// golden records what it returns.
	klogOnce.Do(func() {
		klog.SetLogger(logr.Discard())
		time.Local = time.UTC
	})
	rows, err := extractCorpus(in, defaultReplays)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gogen: extract: %s: %v\n", filepath.ToSlash(in), err)
		return 1
	}
	return writeCorpus("extract", out, jObject{"format": "smd-extract/v1", "cases": rows})
}

// extractCorpus answers every case of the file at path, in order.
func extractCorpus(path string, replays int) ([]any, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var file extractFile
	if err := sigsyaml.UnmarshalStrict(text, &file); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var rows []any
	for i, c := range file.Cases {
		if c.Name == "" {
			return nil, genErrorf("case %d: no name", i)
		}
		if seen[c.Name] {
			return nil, genErrorf("case %q: a second case of that name", c.Name)
		}
		seen[c.Name] = true
		row, err := extractRow(c, file.CRDs, replays)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func extractRow(c extractCase, crds map[string]string, replays int) (jObject, error) {
	where := fmt.Sprintf("case %q", c.Name)
	object, err := readServerObject(c.Object)
	if err != nil {
		return nil, genErrorf("%s: object: %v", where, err)
	}
	u := &unstructured.Unstructured{Object: object}
	gvk := u.GroupVersionKind()
	row := jObject{"name": c.Name, "manager": c.Manager, "subresource": c.Subresource, "object": c.Object}
	if c.Deviation != "" {
		row["deviation"] = c.Deviation
	}

	var tc managedfields.TypeConverter
	var crd *apiextensionsv1.CustomResourceDefinition
	if c.CRD == "" {
		if tc, err = builtinTypeConverter(); err != nil {
			return nil, err
		}
	} else {
		text, ok := crds[c.CRD]
		if !ok {
			return nil, genErrorf("%s: no CRD %q in the file's crds", where, c.CRD)
		}
		entries, err := loadCRDs(where+".crd", []string{text})
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.crd.Spec.Group == gvk.Group && e.crd.Spec.Names.Kind == gvk.Kind {
				tc, crd = e.tc, e.crd
			}
		}
		if tc == nil {
			return nil, genErrorf("%s: CRD %q does not define %s", where, c.CRD, gvk.GroupKind())
		}
	}
	objectType, err := parseableTypeOf(tc, gvk)
	if err != nil {
		row["noType"] = errorNode(err)
		return row, nil
	}
	// What ExtractX sets after ExtractInto; an object client-go cannot read
	// as its Go type has none, and only the cases where ExtractInto fails
	// too may lack it.
	empty, emptyErr := emptyApplyConfiguration(where, u, crd)

	result, err := replay(where, func() (any, error) {
		applied := map[string]any{}
		if err := managedfields.ExtractInto(u.DeepCopy(), objectType, c.Manager, &applied, c.Subresource); err != nil {
			return errorResult(err), nil
		}
		if emptyErr != nil {
			return nil, emptyErr
		}
		v, err := canonicalValue(withIdentity(applied, empty))
		if err != nil {
			return nil, genErrorf("%s: %v", where, err)
		}
		return jObject{"result": v}, nil
	}, replays)
	if err != nil {
		return nil, err
	}
	answer, ok := result.(jObject)
	if !ok {
		return nil, genErrorf("%s: unexpected result %T", where, result)
	}
	for k, v := range answer {
		row[k] = v
	}
	if _, ok := answer["result"]; !ok && emptyErr == nil {
		v, err := canonicalValue(empty)
		if err != nil {
			return nil, genErrorf("%s: %v", where, err)
		}
		row["empty"] = v
	}
	return row, nil
}

// parseableTypeOf is the type the converter gives objects of gvk: the type
// of a typed object of that kind that holds nothing else (ExtractInto takes a
// ParseableType, which the TypeConverter interface does not hand out).
func parseableTypeOf(tc managedfields.TypeConverter, gvk schema.GroupVersionKind) (typed.ParseableType, error) {
	probe := &unstructured.Unstructured{}
	probe.SetGroupVersionKind(gvk)
	tv, err := tc.ObjectToTyped(probe)
	if err != nil {
		return typed.ParseableType{}, err
	}
	return typed.ParseableType{Schema: tv.Schema(), TypeRef: tv.TypeRef()}, nil
}

// withIdentity is the end of every generated ExtractX: the applied
// configuration with the name, namespace, kind and apiVersion of empty.
func withIdentity(applied, empty map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range applied {
		out[k] = v
	}
	meta := map[string]any{}
	if m, ok := applied["metadata"].(map[string]any); ok {
		for k, v := range m {
			meta[k] = v
		}
	}
	for k, v := range empty {
		if k != "metadata" {
			out[k] = v
		}
	}
	if m, ok := empty["metadata"].(map[string]any); ok {
		for k, v := range m {
			meta[k] = v
		}
	}
	out["metadata"] = meta
	return out
}

// emptyApplyConfiguration is what ExtractX gives for u when the manager owns
// nothing: client-go's own for built-in kinds, the generated code's rule for
// a CRD's kind.
func emptyApplyConfiguration(where string, u *unstructured.Unstructured, crd *apiextensionsv1.CustomResourceDefinition) (map[string]any, error) {
	if crd != nil {
		meta := map[string]any{"name": u.GetName()}
		if crd.Spec.Scope == apiextensionsv1.NamespaceScoped {
			meta["namespace"] = u.GetNamespace()
		}
		return map[string]any{"apiVersion": u.GetAPIVersion(), "kind": u.GetKind(), "metadata": meta}, nil
	}
	gvk := u.GroupVersionKind()
	extract, ok := clientGoExtractors[gvk]
	if !ok {
		return nil, genErrorf("%s: gogen has no client-go extractor for %s (add it to clientGoExtractors)", where, gvk)
	}
	bare := u.DeepCopy()
	unstructured.RemoveNestedField(bare.Object, "metadata", "managedFields")
	empty, err := extract(bare.Object)
	if err != nil {
		return nil, genErrorf("%s: client-go's extractor: %v", where, err)
	}
	return empty, nil
}

// clientGoExtractors run client-go's ExtractXFrom, for a manager that owns
// nothing, on an object made the kind's Go type; the apply configuration as
// JSON would carry it.
var clientGoExtractors = map[schema.GroupVersionKind]func(map[string]any) (map[string]any, error){
	{Group: "apps", Version: "v1", Kind: "Deployment"}:                     clientGoExtract(applyappsv1.ExtractDeploymentFrom),
	{Group: "apps", Version: "v1", Kind: "StatefulSet"}:                    clientGoExtract(applyappsv1.ExtractStatefulSetFrom),
	{Group: "", Version: "v1", Kind: "ConfigMap"}:                          clientGoExtract(applycorev1.ExtractConfigMapFrom),
	{Group: "", Version: "v1", Kind: "Secret"}:                             clientGoExtract(applycorev1.ExtractSecretFrom),
	{Group: "", Version: "v1", Kind: "Service"}:                            clientGoExtract(applycorev1.ExtractServiceFrom),
	{Group: "", Version: "v1", Kind: "Pod"}:                                clientGoExtract(applycorev1.ExtractPodFrom),
	{Group: "", Version: "v1", Kind: "Namespace"}:                          clientGoExtract(applycorev1.ExtractNamespaceFrom),
	{Group: "autoscaling", Version: "v2", Kind: "HorizontalPodAutoscaler"}: clientGoExtract(applyautoscalingv2.ExtractHorizontalPodAutoscalerFrom),
}

func clientGoExtract[T any, AC any](extract func(*T, string, string) (*AC, error)) func(map[string]any) (map[string]any, error) {
	return func(object map[string]any) (map[string]any, error) {
		typedObject := new(T)
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(object, typedObject); err != nil {
			return nil, err
		}
		applied, err := extract(typedObject, "", "")
		if err != nil {
			return nil, err
		}
		data, err := json.Marshal(applied)
		if err != nil {
			return nil, err
		}
		out := map[string]any{}
		if err := json.Unmarshal(data, &out); err != nil {
			return nil, err
		}
		return out, nil
	}
}
