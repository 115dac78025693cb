package main

// kind: fieldmanager — sequences of requests through the API server's
// field manager, k8s.io/apimachinery/pkg/util/managedfields v0.37.2
// (NewDefaultFieldManager / NewDefaultCRDFieldManager: the whole chain,
// manager cap included), with the stored object recorded after every step.
//
// What runs is the real field manager; what surrounds it is the API
// server's handling, imitated as narrowly as possible (README, "kind:
// fieldmanager"): the handlers' option validation (the real
// ValidatePatchOptions / ValidateUpdateOptions / ValidateCreateOptions),
// managerOrUserAgent (copied: unexported), the scale subresource (the real
// NewScaleHandler, with the Scale object built as the registry builds it),
// the strategies' reset of the values under the endpoint's reset paths, and
// the system fields uid and creationTimestamp. The clock is scripted: every
// time the field manager stamps during step k is rewritten to T0 + k s.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-logr/logr"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/util/sets"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/util/csaupgrade"
	"k8s.io/klog/v2"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	sigsyaml "sigs.k8s.io/yaml"
)

// fmT0 is the scripted clock's origin: step k (1-based) runs at fmT0 + k s.
var fmT0 = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// fmUID is the uid the scripted API server gives every object it creates
// (FillObjectMetaSystemFields draws a random one).
const fmUID = "00000000-0000-4000-8000-000000000001"

const lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// decodePatchPrefix starts the refusal of an apply patch that does not
// decode (patch.go applyPatchToCurrentObject).
const decodePatchPrefix = "error decoding patch: "

// --- the endpoints ---------------------------------------------------------

// fmResets is a reset table: subresource ("" for the main resource) ->
// apiVersion -> paths (field names only), as GetResetFields returns it.
type fmResets map[string]map[string][][]string

// builtinEndpoint is what the registry of a built-in kind tells the field
// manager, read from the strategies and storage of k8s.io/kubernetes
// v1.37.2 (docs/reset-fields-1.37.yaml catalogues the same; a test checks
// that the two agree).
type builtinEndpoint struct {
	resets fmResets
	// scale: the parent apiVersion -> replicas path mapping
	// (replicasPathIn<Kind>); nil when the kind has no scale subresource.
	scale map[string][]string
}

var builtinEndpoints = map[schema.GroupVersionKind]builtinEndpoint{
	// pkg/registry/apps/deployment/strategy.go:63,161; storage/storage.go:67-71
	{Group: "apps", Version: "v1", Kind: "Deployment"}: {
		resets: fmResets{
			"":       {"apps/v1": {{"status"}}},
			"status": {"apps/v1": {{"spec"}, {"metadata", "labels"}}},
		},
		scale: map[string][]string{"apps/v1beta1": {"spec", "replicas"}, "apps/v1beta2": {"spec", "replicas"}, "apps/v1": {"spec", "replicas"}},
	},
	// pkg/registry/apps/statefulset/strategy.go:61,208; storage/storage.go:60-64
	{Group: "apps", Version: "v1", Kind: "StatefulSet"}: {
		resets: fmResets{
			"":       {"apps/v1": {{"status"}}},
			"status": {"apps/v1": {{"spec"}}},
		},
		scale: map[string][]string{"apps/v1beta1": {"spec", "replicas"}, "apps/v1beta2": {"spec", "replicas"}, "apps/v1": {"spec", "replicas"}},
	},
	// pkg/registry/core/service/strategy.go:59,138
	{Group: "", Version: "v1", Kind: "Service"}: {
		resets: fmResets{
			"":       {"v1": {{"status"}}},
			"status": {"v1": {{"spec"}}},
		},
	},
	// pkg/registry/core/pod/strategy.go:76,217
	{Group: "", Version: "v1", Kind: "Pod"}: {
		resets: fmResets{
			"":       {"v1": {{"status"}}},
			"status": {"v1": {{"spec"}, {"metadata", "deletionTimestamp"}, {"metadata", "ownerReferences"}}},
		},
	},
	// ConfigMap: the store has no ResetFieldsStrategy; the installer passes
	// an empty filter map; there is no status subresource.
	{Group: "", Version: "v1", Kind: "ConfigMap"}: {
		resets: fmResets{"": {}},
	},
}

// fmEndpoint is the resource a case talks to.
type fmEndpoint struct {
	gvk    schema.GroupVersionKind
	tc     managedfields.TypeConverter
	crd    *apiextensionsv1.CustomResourceDefinition // nil for built-ins
	resets fmResets                                  // subresources served: "" always, "status" when listed
	scale  *fmScale                                  // nil: no scale subresource
}

type fmScale struct {
	mappings managedfields.ResourcePathMappings
	// the endpoint's own paths (field names)
	specReplicas   []string
	statusReplicas []string
	// CRs: labelSelectorPath ("" for none); built-ins read .spec.selector
	// as a LabelSelector.
	labelSelector string
	// CRs: specReplicasPath as the CRD writes it (for the error text)
	specReplicasPath string
}

var (
	builtinTCOnce sync.Once
	builtinTC     managedfields.TypeConverter
	builtinTCErr  error
)

// builtinTypeConverter is managedfields.NewTypeConverter over the merged v3
// documents of k8s.io/kubernetes v1.37.2 (what gogen embed converts).
func builtinTypeConverter() (managedfields.TypeConverter, error) {
	builtinTCOnce.Do(func() {
		m, err := kubernetesModels("v3")
		if err != nil {
			builtinTCErr = err
			return
		}
		builtinTC, builtinTCErr = managedfields.NewTypeConverter(m, false)
		if builtinTCErr != nil {
			builtinTCErr = genErrorf("the built-in type converter: %v", builtinTCErr)
		}
	})
	return builtinTC, builtinTCErr
}

func pathOf(fields []string) fieldpath.Path {
	p := make(fieldpath.Path, len(fields))
	for i := range fields {
		name := fields[i]
		p[i] = fieldpath.PathElement{FieldName: &name}
	}
	return p
}

func builtinEndpointFor(where string, gvk schema.GroupVersionKind) (*fmEndpoint, error) {
	b, ok := builtinEndpoints[gvk]
	if !ok {
		var known []string
		for k := range builtinEndpoints {
			known = append(known, k.GroupVersion().String()+" "+k.Kind)
		}
		sort.Strings(known)
		return nil, genErrorf("%s: gogen knows the endpoints of %s (or give crds)", where, strings.Join(known, ", "))
	}
	tc, err := builtinTypeConverter()
	if err != nil {
		return nil, err
	}
	e := &fmEndpoint{gvk: gvk, tc: tc, resets: b.resets}
	if b.scale != nil {
		s := &fmScale{mappings: managedfields.ResourcePathMappings{}, specReplicas: []string{"spec", "replicas"}, statusReplicas: []string{"status", "replicas"}}
		for v, p := range b.scale {
			s.mappings[v] = pathOf(p)
		}
		e.scale = s
	}
	return e, nil
}

type crdEntry struct {
	crd *apiextensionsv1.CustomResourceDefinition
	tc  managedfields.TypeConverter
}

var (
	crdCacheMu sync.Mutex
	crdCache   = map[string][]crdEntry{}
)

// loadCRDs reads CRDs as kind crd does (decode, default, validate as a
// create) and builds each one's type converter as the API server does
// (customresource_handler.go: buildOpenAPIModelsForApply, then
// NewTypeConverter(models, preserveUnknownFields), or the deduced type
// converter when there are no models). A CRD the API server would refuse
// makes the case malformed.
func loadCRDs(where string, texts []string) ([]crdEntry, error) {
	key := strings.Join(texts, "\x00---\x00")
	crdCacheMu.Lock()
	defer crdCacheMu.Unlock()
	if e, ok := crdCache[key]; ok {
		return e, nil
	}
	crdSetup()
	var out []crdEntry
	for i, text := range texts {
		w := fmt.Sprintf("%s[%d]", where, i)
		docs, err := splitYAMLDocuments([]byte(text))
		if err != nil {
			return nil, genErrorf("%s: %v", w, err)
		}
		for _, data := range docs {
			obj, _, err := crdCodecs.UniversalDeserializer().Decode(data, nil, nil)
			if err != nil {
				return nil, genErrorf("%s: %v", w, err)
			}
			crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
			if !ok {
				return nil, genErrorf("%s: not an apiextensions.k8s.io/v1 CustomResourceDefinition: %T", w, obj)
			}
			crdScheme.Default(crd)
			internal := &apiextensions.CustomResourceDefinition{}
			if err := crdScheme.Convert(crd, internal, nil); err != nil {
				return nil, genErrorf("%s: converting to the internal version: %v", w, err)
			}
			if errs := validation.ValidateCustomResourceDefinition(context.Background(), internal); len(errs) > 0 {
				return nil, genErrorf("%s: the API server refuses CRD %s: %v", w, crd.Name, errs.ToAggregate())
			}
			static, err := crdStaticSpec()
			if err != nil {
				return nil, err
			}
			var tc managedfields.TypeConverter = managedfields.NewDeducedTypeConverter()
			m, err := buildOpenAPIModelsForApply(static, crd)
			if err != nil {
				return nil, genErrorf("%s: building the models of %s: %v", w, crd.Name, err)
			}
			if len(m) > 0 {
				if tc, err = managedfields.NewTypeConverter(m, crd.Spec.PreserveUnknownFields); err != nil {
					return nil, genErrorf("%s: the type converter of %s: %v", w, crd.Name, err)
				}
			}
			out = append(out, crdEntry{crd, tc})
		}
	}
	crdCache[key] = out
	return out, nil
}

func splitYAMLDocuments(input []byte) ([][]byte, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(input)))
	var docs [][]byte
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		data, err := sigsyaml.YAMLToJSON(doc)
		if err != nil {
			return nil, err
		}
		if t := bytes.TrimSpace(data); len(t) == 0 || bytes.Equal(t, []byte("null")) {
			continue
		}
		docs = append(docs, data)
	}
}

// crdEndpointFor is the endpoint the API server serves for a CR version:
// reset fields from customresource/strategy.go:132-142 (main: .status of
// this version when it has a status subresource) and status_strategy.go
// (status: .metadata and .spec of every version with a status subresource,
// customresource_handler.go getStatusResetFields); the scale mappings of
// customresource_handler.go:706-724.
func crdEndpointFor(where string, gvk schema.GroupVersionKind, crds []crdEntry) (*fmEndpoint, error) {
	for _, ce := range crds {
		crd := ce.crd
		if crd.Spec.Group != gvk.Group || crd.Spec.Names.Kind != gvk.Kind {
			continue
		}
		var version *apiextensionsv1.CustomResourceDefinitionVersion
		for i := range crd.Spec.Versions {
			if crd.Spec.Versions[i].Name == gvk.Version && crd.Spec.Versions[i].Served {
				version = &crd.Spec.Versions[i]
			}
		}
		if version == nil {
			return nil, genErrorf("%s: CRD %s serves no version %s", where, crd.Name, gvk.Version)
		}
		e := &fmEndpoint{gvk: gvk, tc: ce.tc, crd: crd, resets: fmResets{"": {}}}
		gv := gvk.GroupVersion().String()
		if version.Subresources != nil && version.Subresources.Status != nil {
			e.resets[""][gv] = [][]string{{"status"}}
			status := map[string][][]string{}
			for _, v := range crd.Spec.Versions {
				if v.Subresources != nil && v.Subresources.Status != nil {
					status[schema.GroupVersion{Group: crd.Spec.Group, Version: v.Name}.String()] = [][]string{{"metadata"}, {"spec"}}
				}
			}
			e.resets["status"] = status
		}
		if version.Subresources != nil && version.Subresources.Scale != nil {
			sc := version.Subresources.Scale
			s := &fmScale{mappings: managedfields.ResourcePathMappings{}}
			for _, v := range crd.Spec.Versions {
				key := schema.GroupVersion{Group: crd.Spec.Group, Version: v.Name}.String()
				if v.Subresources == nil || v.Subresources.Scale == nil {
					s.mappings[key] = nil
					continue
				}
				s.mappings[key] = pathOf(splitReplicasPath(v.Subresources.Scale.SpecReplicasPath))
			}
			s.specReplicas = splitReplicasPath(sc.SpecReplicasPath)
			s.specReplicasPath = sc.SpecReplicasPath
			s.statusReplicas = splitReplicasPath(sc.StatusReplicasPath)
			if sc.LabelSelectorPath != nil {
				s.labelSelector = *sc.LabelSelectorPath
			}
			e.scale = s
		}
		return e, nil
	}
	return nil, genErrorf("%s: no CRD of the case defines %s", where, gvk)
}

// splitReplicasPath is customresource/etcd.go's function of that name.
func splitReplicasPath(replicasPath string) []string {
	return strings.Split(strings.TrimPrefix(replicasPath, "."), ".")
}

// The fakes of managedfields/internal/testing (an internal package):
// an identity convertor, a defaulter that does nothing, a creater of empty
// unstructured objects.

type fakeConvertor struct{}

func (fakeConvertor) Convert(in, out, context any) error { return nil }
func (fakeConvertor) ConvertToVersion(in runtime.Object, _ runtime.GroupVersioner) (runtime.Object, error) {
	return in, nil
}
func (fakeConvertor) ConvertFieldLabel(_ schema.GroupVersionKind, _, _ string) (string, string, error) {
	return "", "", errors.New("not implemented")
}

// crScaleConvertor is what the scale endpoint of a custom resource converts
// with: the CR's converter (apiextensions-apiserver
// pkg/apiserver/conversion/converter.go crConverter.ConvertToVersion), which
// passes a typed Scale to the built-in scheme but converts anything else only
// between the CRD's own versions. The field manager's new object is
// unstructured, so a changed Scale cannot become autoscaling/v1 again: a real
// kube-apiserver v1.37.2 answers every such apply with a 500 (recorded in
// smd/tests/data/scale-real-server).
type crScaleConvertor struct {
	crd *apiextensionsv1.CustomResourceDefinition
}

func (crScaleConvertor) Convert(in, out, context any) error { return nil }
func (c crScaleConvertor) ConvertToVersion(in runtime.Object, target runtime.GroupVersioner) (runtime.Object, error) {
	if _, typed := in.(*autoscalingv1.Scale); typed {
		return in, nil
	}
	from := in.GetObjectKind().GroupVersionKind()
	to, ok := target.KindForGroupVersionKinds([]schema.GroupVersionKind{from})
	if !ok {
		return nil, fmt.Errorf("%v is unstructured and is not suitable for converting to %q", from.String(), target)
	}
	valid := func(gv schema.GroupVersion) bool {
		for _, v := range c.crd.Spec.Versions {
			if gv.Group == c.crd.Spec.Group && gv.Version == v.Name {
				return true
			}
		}
		return false
	}
	if !valid(to.GroupVersion()) {
		return nil, fmt.Errorf("request to convert CR to an invalid group/version: %s", to.GroupVersion().String())
	}
	if !valid(from.GroupVersion()) {
		return nil, fmt.Errorf("request to convert CR from an invalid group/version: %s", from.GroupVersion().String())
	}
	return in, nil
}
func (crScaleConvertor) ConvertFieldLabel(_ schema.GroupVersionKind, _, _ string) (string, string, error) {
	return "", "", errors.New("not implemented")
}

type fakeDefaulter struct{}

func (fakeDefaulter) Default(runtime.Object) {}

type fakeCreater struct{}

func (fakeCreater) New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	u := unstructured.Unstructured{Object: map[string]any{}}
	u.SetAPIVersion(gvk.GroupVersion().String())
	u.SetKind(gvk.Kind)
	return &u, nil
}

// fieldManager builds the field manager of one endpoint as the installer
// (built-ins) or customresource_handler.go (CRs) does.
func (e *fmEndpoint) fieldManager(subresource string) (*managedfields.FieldManager, error) {
	sets := map[fieldpath.APIVersion]*fieldpath.Set{}
	for v, paths := range e.resets[subresource] {
		s := fieldpath.NewSet()
		for _, p := range paths {
			s.Insert(pathOf(p))
		}
		sets[fieldpath.APIVersion(v)] = s
	}
	filter := fieldpath.NewExcludeFilterSetMap(sets)
	if e.crd != nil {
		return managedfields.NewDefaultCRDFieldManager(e.tc, fakeConvertor{}, fakeDefaulter{}, fakeCreater{}, e.gvk, e.gvk.GroupVersion(), subresource, filter)
	}
	return managedfields.NewDefaultFieldManager(e.tc, fakeConvertor{}, fakeDefaulter{}, fakeCreater{}, e.gvk, e.gvk.GroupVersion(), subresource, filter)
}

// scaleFieldManager is the scale endpoint's: kind autoscaling/v1 Scale,
// subresource "scale", no reset fields; for CRs the CRD's type converter
// and the CR's hub (the scale scope is a copy of the CR's request scope).
func (e *fmEndpoint) scaleFieldManager() (*managedfields.FieldManager, error) {
	gvk := autoscalingv1.SchemeGroupVersion.WithKind("Scale")
	if e.crd != nil {
		return managedfields.NewDefaultCRDFieldManager(e.tc, crScaleConvertor{crd: e.crd}, fakeDefaulter{}, fakeCreater{}, gvk, e.gvk.GroupVersion(), "scale", nil)
	}
	return managedfields.NewDefaultFieldManager(e.tc, fakeConvertor{}, fakeDefaulter{}, fakeCreater{}, gvk, gvk.GroupVersion(), "scale", nil)
}

// --- the case --------------------------------------------------------------

type fmCase struct {
	endpoint *fmEndpoint
	live     *valueSpec
	steps    []fmStep
}

type fmStep struct {
	op          string // apply, create, update, scale, csaUpgrade
	manager     string
	userAgent   string
	object      valueSpec
	force       bool
	subresource string
	replicas    int64
	csaManagers []string // nil: found as kubectl finds them
}

var klogOnce sync.Once

func decodeFieldManagerOp(op string, c *spec) (func() (any, error), error) {
	if op != "sequence" {
		return nil, unknownOp(c, "fieldmanager", op)
	}
	fc, err := decodeFMCase(c)
	if err != nil {
		return nil, err
	}
	return fc.run, nil
}

// decodeFMCase reads a sequence's resource, crds, live and steps (gogen
// examples reads the same keys).
func decodeFMCase(c *spec) (*fmCase, error) {
	// UpdateNoErrors and GetManagedFields log what they swallow.
	// Times read from managedFields are kept in time.Local (metav1.Time's
	// UnmarshalJSON), and some error texts print them: make that UTC so
	// that goldens do not depend on the machine's time zone.
	klogOnce.Do(func() {
		klog.SetLogger(logr.Discard())
		time.Local = time.UTC
	})
	fc := &fmCase{}
	raw, err := c.need("resource")
	if err != nil {
		return nil, err
	}
	rs, err := newSpec(c.at("resource"), raw)
	if err != nil {
		return nil, err
	}
	apiVersion, err := rs.str("apiVersion")
	if err != nil {
		return nil, err
	}
	kind, err := rs.str("kind")
	if err != nil {
		return nil, err
	}
	if err := rs.finish(); err != nil {
		return nil, err
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, genErrorf("%s: %v", rs.at("apiVersion"), err)
	}
	gvk := gv.WithKind(kind)
	if rawCRDs, ok := c.get("crds"); ok {
		texts, err := asStringList(c.at("crds"), rawCRDs)
		if err != nil {
			return nil, err
		}
		crds, err := loadCRDs(c.at("crds"), texts)
		if err != nil {
			return nil, err
		}
		if fc.endpoint, err = crdEndpointFor(c.at("resource"), gvk, crds); err != nil {
			return nil, err
		}
	} else if fc.endpoint, err = builtinEndpointFor(c.at("resource"), gvk); err != nil {
		return nil, err
	}
	if rawLive, ok := c.get("live"); ok {
		vs, err := decodeValueSpec(c.at("live"), rawLive)
		if err != nil {
			return nil, err
		}
		fc.live = &vs
	}
	rawSteps, err := c.list("steps")
	if err != nil {
		return nil, err
	}
	if len(rawSteps) == 0 {
		return nil, genErrorf("%s: no steps", c.at("steps"))
	}
	for i, raw := range rawSteps {
		st, err := decodeFMStep(peWhere(c.at("steps"), i), raw, fc.endpoint)
		if err != nil {
			return nil, err
		}
		fc.steps = append(fc.steps, st)
	}
	return fc, nil
}

func decodeFMStep(where string, raw any, e *fmEndpoint) (fmStep, error) {
	s, err := newSpec(where, raw)
	if err != nil {
		return fmStep{}, err
	}
	var st fmStep
	if st.op, err = s.str("op"); err != nil {
		return st, err
	}
	readObject := func() error {
		v, err := s.need("object")
		if err != nil {
			return err
		}
		st.object, err = decodeValueSpec(s.at("object"), v)
		return err
	}
	readSubresource := func(allowed ...string) error {
		sub, _, err := s.optStr("subresource")
		if err != nil {
			return err
		}
		ok := false
		for _, a := range allowed {
			ok = ok || a == sub
		}
		if !ok {
			return genErrorf("%s: subresource %q: %s takes one of %q", s.at("subresource"), sub, st.op, allowed)
		}
		if sub == "status" {
			if _, served := e.resets["status"]; !served {
				return genErrorf("%s: %s has no status subresource", s.at("subresource"), e.gvk)
			}
		}
		if sub == "scale" && e.scale == nil {
			return genErrorf("%s: %s has no scale subresource", s.at("subresource"), e.gvk)
		}
		st.subresource = sub
		return nil
	}
	switch st.op {
	case "apply":
		if st.manager, err = s.str("manager"); err != nil {
			return st, err
		}
		if err := readObject(); err != nil {
			return st, err
		}
		if st.force, err = s.optBool("force"); err != nil {
			return st, err
		}
		if err := readSubresource("", "status", "scale"); err != nil {
			return st, err
		}
	case "create", "update", "scale":
		if st.manager, _, err = s.optStr("manager"); err != nil {
			return st, err
		}
		if st.userAgent, _, err = s.optStr("userAgent"); err != nil {
			return st, err
		}
		switch st.op {
		case "create":
			if err := readObject(); err != nil {
				return st, err
			}
		case "update":
			if err := readObject(); err != nil {
				return st, err
			}
			if err := readSubresource("", "status"); err != nil {
				return st, err
			}
		case "scale":
			if e.scale == nil {
				return st, genErrorf("%s: %s has no scale subresource", where, e.gvk)
			}
			v, err := s.need("replicas")
			if err != nil {
				return st, err
			}
			n, err := asInt(s.at("replicas"), v)
			if err != nil {
				return st, err
			}
			st.replicas = int64(n)
			st.subresource = "scale"
		}
	case "csaUpgrade":
		if st.manager, err = s.str("manager"); err != nil {
			return st, err
		}
		if v, ok := s.get("csaManagers"); ok {
			if st.csaManagers, err = asStringList(s.at("csaManagers"), v); err != nil {
				return st, err
			}
			if st.csaManagers == nil {
				st.csaManagers = []string{}
			}
		}
	default:
		return st, genErrorf("%s: unknown step op %q (apply, create, update, scale or csaUpgrade)", where, st.op)
	}
	return st, s.finish()
}

// --- replay ----------------------------------------------------------------

type fmState struct {
	c      *fmCase
	stored *unstructured.Unstructured // nil: no object
}

func (fc *fmCase) run() (any, error) {
	st, err := fc.begin()
	if err != nil {
		return nil, err
	}
	steps := []any{}
	for i, step := range fc.steps {
		result, err := st.guardedStep(i+1, step)
		if err != nil {
			return nil, err
		}
		steps = append(steps, result)
	}
	return jObject{"steps": steps}, nil
}

// begin checks the wall clock and stores the case's live object, if any.
func (fc *fmCase) begin() (*fmState, error) {
	if now := time.Now(); now.Before(fmT0.Add(24 * time.Hour)) {
		return nil, genErrorf("the wall clock (%s) must be well past the scripted clock's origin %s (see the README, kind fieldmanager)", now.UTC().Format(time.RFC3339), fmT0.Format(time.RFC3339))
	}
	st := &fmState{c: fc}
	if fc.live != nil {
		m, err := readServerObject(fc.live.text)
		if err != nil {
			return nil, genErrorf("%s: %v", fc.live.where, err)
		}
		st.stored = &unstructured.Unstructured{Object: m}
		if st.stored.GroupVersionKind() != fc.endpoint.gvk {
			return nil, genErrorf("%s: the stored object must be a %s", fc.live.where, fc.endpoint.gvk)
		}
		if err := checkInputTimes(fc.live.where, st.stored, fmT0.Add(time.Second)); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// readServerObject reads an object as the API server reads a request body:
// k8s.io/apimachinery/pkg/util/yaml.Unmarshal into a map (sigs.k8s.io/yaml
// turns YAML into JSON, decoded with UseNumber; integers become int64,
// other numbers float64, so 1.0 becomes 1).
func readServerObject(text string) (map[string]any, error) {
	m := map[string]any{}
	if err := utilyaml.Unmarshal([]byte(text), &m); err != nil {
		return nil, err
	}
	return m, nil
}

// checkInputTimes refuses an input whose managedFields carry a time at or
// after `limit` (the step's scripted time): the field manager compares
// times, and the scripted clock's rewriting is only exact when every input
// time is older than the step.
func checkInputTimes(where string, u *unstructured.Unstructured, limit time.Time) error {
	for i, e := range u.GetManagedFields() {
		if e.Time != nil && !e.Time.Time.Before(limit) {
			return genErrorf("%s: managedFields[%d].time %s is not before the step's scripted time %s", where, i, e.Time.UTC().Format(time.RFC3339), limit.Format(time.RFC3339))
		}
	}
	return nil
}

func (st *fmState) guardedStep(k int, step fmStep) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, err = jObject{"panic": panicText(r)}, nil
		}
	}()
	return st.step(k, step)
}

// stepOutcome is a step that succeeded: the new stored object and what to
// record besides it.
type stepOutcome struct {
	stored *unstructured.Unstructured
	extra  jObject
}

func (st *fmState) step(k int, step fmStep) (any, error) {
	now := fmT0.Add(time.Duration(k) * time.Second)
	start := time.Now()
	var out *stepOutcome
	var err error
	switch step.op {
	case "apply":
		if step.subresource == "scale" {
			out, err = st.scale(now, step)
		} else {
			out, err = st.apply(now, step)
		}
	case "create", "update":
		out, err = st.update(now, step)
	case "scale":
		out, err = st.scale(now, step)
	case "csaUpgrade":
		out, err = st.csaUpgrade(now, step)
	}
	if err != nil {
		if isGenError(err) {
			return nil, err
		}
		return fmErrorResult(err), nil
	}
	if err := scriptClock(out.stored, start, now); err != nil {
		return nil, err
	}
	st.stored = out.stored
	obj, err := canonicalValue(st.stored.Object)
	if err != nil {
		return nil, err
	}
	result := jObject{"object": obj}
	for key, v := range out.extra {
		result[key] = v
	}
	return result, nil
}

// fmErrorResult is a refused request: Go's error text, and the HTTP status
// the API server answers with (an APIStatus error's code, reason and
// causes; any other error is a 500 with no reason, as ErrorToAPIStatus
// makes it).
func fmErrorResult(err error) jObject {
	out := jObject{"error": fmErrorNode(err)}
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		s := status.Status()
		out["code"] = int64(s.Code)
		if s.Reason != "" {
			out["reason"] = string(s.Reason)
		}
		if s.Details != nil && len(s.Details.Causes) > 0 {
			causes := append([]metav1.StatusCause(nil), s.Details.Causes...)
			if s.Reason == metav1.StatusReasonConflict {
				// Go lists the conflicts of different managers in map
				// order; each manager's paths keep their order.
				sort.SliceStable(causes, func(i, j int) bool { return causes[i].Message < causes[j].Message })
			}
			list := make([]any, len(causes))
			for i, c := range causes {
				list[i] = jObject{"type": string(c.Type), "message": c.Message, "field": c.Field}
			}
			out["causes"] = list
		}
	} else {
		out["code"] = int64(500)
	}
	return out
}

// fmErrorNode is {message, stable} as for kind typed (typing errors cut
// after "got"), with {prefix: true} when stable is only the start of what
// smd must say: after "error decoding patch: " come the YAML or JSON
// decoder's words, and after "error decoding versioned set from " Go's %v
// rendering of a ManagedFieldsEntry.
func fmErrorNode(err error) jObject {
	node := typedErrorNode(err)
	msg := node["message"].(string)
	for _, marker := range []string{decodePatchPrefix, versionedSetMarker} {
		if i := strings.Index(msg, marker); i >= 0 {
			node["stable"] = msg[:i+len(marker)]
			node["prefix"] = true
			break
		}
	}
	return node
}

// versionedSetMarker precedes Go's rendering of an entry that does not
// decode (managedfields/internal/managedfields.go decodeVersionedSet).
const versionedSetMarker = "error decoding versioned set from "

// scriptClock rewrites every time the step stamped (at or after the wall
// clock's second when the step began) to the step's scripted time, and
// checks that the entries are still in the order the field manager sorts
// them (operation, time in seconds, manager, apiVersion, subresource).
func scriptClock(u *unstructured.Unstructured, start, now time.Time) error {
	raw, found, err := unstructured.NestedFieldNoCopy(u.Object, "metadata", "managedFields")
	if err != nil || !found {
		return nil
	}
	items, ok := raw.([]any)
	if !ok {
		return nil
	}
	floor := start.Truncate(time.Second)
	for _, item := range items {
		m, ok := item.(map[string]any)
		if !ok {
			continue
		}
		s, ok := m["time"].(string)
		if !ok {
			continue
		}
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			continue
		}
		if !t.Before(floor) {
			m["time"] = now.UTC().Format(time.RFC3339)
		}
	}
	entries := u.GetManagedFields()
	for i := 1; i < len(entries); i++ {
		if fmEntryLess(entries[i], entries[i-1]) {
			return genErrorf("internal: after setting the scripted clock, managedFields[%d] sorts before managedFields[%d]", i, i-1)
		}
	}
	return nil
}

func fmEntryLess(p, q metav1.ManagedFieldsEntry) bool {
	if p.Operation != q.Operation {
		return p.Operation < q.Operation
	}
	ps, qs := int64(0), int64(0)
	if p.Time != nil {
		ps = p.Time.Unix()
	}
	if q.Time != nil {
		qs = q.Time.Unix()
	}
	if ps != qs {
		return ps < qs
	}
	if p.Manager != q.Manager {
		return p.Manager < q.Manager
	}
	if p.APIVersion != q.APIVersion {
		return p.APIVersion < q.APIVersion
	}
	return p.Subresource < q.Subresource
}

// validateManager runs the handler's options validation for the request
// and refuses it as the handler does (create.go:109-113, update.go:92-96,
// patch.go:125-129).
func validateManager(op string, manager string, force bool) error {
	switch op {
	case "apply":
		opts := &metav1.PatchOptions{FieldManager: manager}
		if force {
			opts.Force = &force
		}
		if errs := metav1validation.ValidatePatchOptions(opts, types.ApplyPatchType); len(errs) > 0 {
			return apierrors.NewInvalid(schema.GroupKind{Group: metav1.GroupName, Kind: "PatchOptions"}, "", errs)
		}
	case "patch":
		if errs := metav1validation.ValidatePatchOptions(&metav1.PatchOptions{FieldManager: manager}, types.JSONPatchType); len(errs) > 0 {
			return apierrors.NewInvalid(schema.GroupKind{Group: metav1.GroupName, Kind: "PatchOptions"}, "", errs)
		}
	case "create":
		if errs := metav1validation.ValidateCreateOptions(&metav1.CreateOptions{FieldManager: manager}); len(errs) > 0 {
			return apierrors.NewInvalid(schema.GroupKind{Group: metav1.GroupName, Kind: "CreateOptions"}, "", errs)
		}
	default: // update, scale
		if errs := metav1validation.ValidateUpdateOptions(&metav1.UpdateOptions{FieldManager: manager}); len(errs) > 0 {
			return apierrors.NewInvalid(schema.GroupKind{Group: metav1.GroupName, Kind: "UpdateOptions"}, "", errs)
		}
	}
	return nil
}

// managerOrUserAgent and prefixFromUserAgent are copied from
// k8s.io/apiserver@v0.37.2/pkg/endpoints/handlers/create.go:259-285
// (unexported): the manager of a create, update or non-apply patch.
func managerOrUserAgent(manager, userAgent string) string {
	if manager != "" {
		return manager
	}
	return prefixFromUserAgent(userAgent)
}

func prefixFromUserAgent(u string) string {
	m := strings.Split(u, "/")[0]
	buf := bytes.NewBuffer(nil)
	for _, r := range m {
		if !unicode.IsPrint(r) {
			continue
		}
		if buf.Len()+utf8.RuneLen(r) > metav1validation.FieldManagerMaxLength {
			break
		}
		buf.WriteRune(r)
	}
	return buf.String()
}

// finish imitates what the registry does with the field manager's output
// before storing it: the strategy's PrepareForCreate / PrepareForUpdate
// reset the values under the endpoint's reset paths (the old object's
// values, or none on create; metadata.managedFields is always the field
// manager's), and FillObjectMetaSystemFields (create) / BeforeUpdate
// (update) set uid and creationTimestamp.
func (st *fmState) finish(out *unstructured.Unstructured, subresource string, now time.Time) *unstructured.Unstructured {
	old := st.stored
	resetSub := subresource
	if resetSub == "scale" { // the scale REST updates through the main strategy
		resetSub = ""
	}
	managed, hasManaged, _ := unstructured.NestedFieldNoCopy(out.Object, "metadata", "managedFields")
	for _, paths := range resetPathsFor(st.c.endpoint, resetSub) {
		var v any
		found := false
		if old != nil {
			v, found, _ = unstructured.NestedFieldNoCopy(old.Object, paths...)
		}
		if found {
			_ = unstructured.SetNestedField(out.Object, runtime.DeepCopyJSONValue(v), paths...)
		} else {
			unstructured.RemoveNestedField(out.Object, paths...)
		}
	}
	if hasManaged {
		_ = unstructured.SetNestedField(out.Object, managed, "metadata", "managedFields")
	} else {
		unstructured.RemoveNestedField(out.Object, "metadata", "managedFields")
	}
	if old == nil {
		out.SetCreationTimestamp(metav1.NewTime(now))
		out.SetUID(fmUID)
	} else {
		if out.GetUID() == "" {
			out.SetUID(old.GetUID())
		}
		if ct := old.GetCreationTimestamp(); !ct.IsZero() {
			out.SetCreationTimestamp(ct)
		}
	}
	return out
}

// resetPathsFor lists the endpoint's reset paths (any version's: the
// strategies reset values whatever the request's version), each once.
func resetPathsFor(e *fmEndpoint, subresource string) [][]string {
	seen := map[string]bool{}
	var out [][]string
	for _, v := range sortedKeys(e.resets[subresource]) {
		for _, p := range e.resets[subresource][v] {
			key := strings.Join(p, ".")
			if !seen[key] {
				seen[key] = true
				out = append(out, p)
			}
		}
	}
	return out
}

func (st *fmState) needStored(where string, exists bool) error {
	if exists && st.stored == nil {
		return genErrorf("%s needs an existing object (use create or apply first, or give live)", where)
	}
	if !exists && st.stored != nil {
		return genErrorf("%s needs no object to exist", where)
	}
	return nil
}

// apply is a server-side apply patch (patch.go applyPatcher): the patch
// decoded into an unstructured object, FieldManager.Apply on the stored
// object, or on creater.New(kind) when there is none (a create).
func (st *fmState) apply(now time.Time, step fmStep) (*stepOutcome, error) {
	if step.subresource == "status" {
		if err := st.needStored("apply to status", true); err != nil {
			return nil, err
		}
	}
	if err := validateManager("apply", step.manager, step.force); err != nil {
		return nil, err
	}
	patch := &unstructured.Unstructured{Object: map[string]any{}}
	if err := utilyaml.Unmarshal([]byte(step.object.text), &patch.Object); err != nil {
		return nil, apierrors.NewBadRequest(decodePatchPrefix + err.Error())
	}
	fm, err := st.c.endpoint.fieldManager(step.subresource)
	if err != nil {
		return nil, err
	}
	var live runtime.Object
	if st.stored != nil {
		live = st.stored.DeepCopy()
	} else {
		live, _ = fakeCreater{}.New(st.c.endpoint.gvk)
	}
	obj, err := fm.Apply(live, patch, step.manager, step.force)
	if err != nil {
		return nil, err
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, genErrorf("internal: Apply returned a %T", obj)
	}
	return &stepOutcome{stored: st.finish(u, step.subresource, now)}, nil
}

// update is a create (POST: live is creater.New(kind)) or an update (PUT of
// the whole object): FieldManager.UpdateNoErrors, as the handlers call it.
// When Update itself fails, UpdateNoErrors keeps the stored managedFields;
// the step then also records Update's error as managedFieldsError.
func (st *fmState) update(now time.Time, step fmStep) (*stepOutcome, error) {
	if err := st.needStored(step.op, step.op == "update"); err != nil {
		return nil, err
	}
	if err := validateManager(step.op, step.manager, false); err != nil {
		return nil, err
	}
	body, err := readServerObject(step.object.text)
	if err != nil {
		return nil, genErrorf("%s: %v", step.object.where, err)
	}
	newObj := &unstructured.Unstructured{Object: body}
	if newObj.GroupVersionKind() != st.c.endpoint.gvk {
		return nil, genErrorf("%s: the body of a %s must be a %s", step.object.where, step.op, st.c.endpoint.gvk)
	}
	if err := checkInputTimes(step.object.where, newObj, now); err != nil {
		return nil, err
	}
	fm, err := st.c.endpoint.fieldManager(step.subresource)
	if err != nil {
		return nil, err
	}
	live := func() runtime.Object {
		if st.stored != nil {
			return st.stored.DeepCopy()
		}
		o, _ := fakeCreater{}.New(st.c.endpoint.gvk)
		return o
	}
	manager := managerOrUserAgent(step.manager, step.userAgent)
	_, updateErr := fm.Update(live(), newObj.DeepCopy(), manager)
	obj := fm.UpdateNoErrors(live(), newObj, manager)
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, genErrorf("internal: UpdateNoErrors returned a %T", obj)
	}
	out := &stepOutcome{stored: st.finish(u, step.subresource, now)}
	if updateErr != nil {
		out.extra = jObject{"managedFieldsError": fmErrorNode(updateErr)}
	}
	return out, nil
}

// scale is a request to the scale subresource: an update (op scale: the
// Scale the registry builds with spec.replicas set, as an HPA's GET-modify-
// PUT or kubectl scale's patch sends it) or an apply of a Scale manifest.
// The registry's scaleUpdatedObjectInfo: NewScaleHandler on the stored
// entries, the old Scale with ToSubresource's entries, the scale endpoint's
// field manager, then replicas and ToParent's entries back on the parent.
func (st *fmState) scale(now time.Time, step fmStep) (*stepOutcome, error) {
	if err := st.needStored("a scale request", true); err != nil {
		return nil, err
	}
	e := st.c.endpoint
	op := "update"
	if step.op == "apply" {
		op = "apply"
	}
	if err := validateManager(op, step.manager, step.force); err != nil {
		return nil, err
	}
	parent := st.stored.DeepCopy()
	// The request's group/version is the endpoint's; it is in the mapping.
	h := managedfields.NewScaleHandler(parent.GetManagedFields(), e.gvk.GroupVersion(), e.scale.mappings)
	oldScale, replicasFound, err := st.scaleObject(parent)
	if err != nil {
		return nil, err
	}
	const invalidSpecReplicas = -2147483648
	if e.crd != nil && !replicasFound {
		oldScale.Spec.Replicas = invalidSpecReplicas
	}
	entries, err := h.ToSubresource()
	if err != nil {
		return nil, err
	}
	oldScale.ManagedFields = entries
	fm, err := e.scaleFieldManager()
	if err != nil {
		return nil, err
	}
	var newScale *autoscalingv1.Scale
	var extra jObject
	if step.op == "apply" {
		patch := &unstructured.Unstructured{Object: map[string]any{}}
		if err := utilyaml.Unmarshal([]byte(step.object.text), &patch.Object); err != nil {
			return nil, apierrors.NewBadRequest(decodePatchPrefix + err.Error())
		}
		obj, err := fm.Apply(oldScale.DeepCopy(), patch, step.manager, step.force)
		if err != nil {
			return nil, err
		}
		// A changed object comes back unstructured (TypedToObject); a no-op
		// apply returns a copy of the live Scale.
		switch o := obj.(type) {
		case *autoscalingv1.Scale:
			newScale = o
		case *unstructured.Unstructured:
			newScale = &autoscalingv1.Scale{}
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, newScale); err != nil {
				return nil, err
			}
		default:
			return nil, genErrorf("internal: Apply returned a %T", obj)
		}
	} else {
		manager := managerOrUserAgent(step.manager, step.userAgent)
		request := oldScale.DeepCopy()
		request.Spec.Replicas = int32(step.replicas)
		_, updateErr := fm.Update(oldScale.DeepCopy(), request.DeepCopy(), manager)
		obj := fm.UpdateNoErrors(oldScale.DeepCopy(), request, manager)
		var ok bool
		if newScale, ok = obj.(*autoscalingv1.Scale); !ok {
			return nil, genErrorf("internal: UpdateNoErrors returned a %T", obj)
		}
		if updateErr != nil {
			extra = jObject{"managedFieldsError": fmErrorNode(updateErr)}
		}
	}
	if e.crd != nil && newScale.Spec.Replicas == invalidSpecReplicas {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the spec replicas field %q cannot be empty", e.scale.specReplicasPath))
	}
	if err := unstructured.SetNestedField(parent.Object, int64(newScale.Spec.Replicas), e.scale.specReplicas...); err != nil {
		return nil, err
	}
	updated, err := h.ToParent(newScale.ManagedFields)
	if err != nil {
		return nil, err
	}
	parent.SetManagedFields(updated)
	return &stepOutcome{stored: st.finish(parent, "scale", now), extra: extra}, nil
}

// scaleObject builds the old Scale as the registry does
// (scaleFromDeployment / scaleFromStatefulSet for built-ins: spec.replicas,
// status.replicas, the selector of .spec.selector; scaleFromCustomResource
// for CRs: the CRD's paths). The second result says whether the parent has
// spec replicas.
func (st *fmState) scaleObject(parent *unstructured.Unstructured) (*autoscalingv1.Scale, bool, error) {
	e := st.c.endpoint
	s := &autoscalingv1.Scale{
		TypeMeta: metav1.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"},
		ObjectMeta: metav1.ObjectMeta{
			Name:              parent.GetName(),
			Namespace:         parent.GetNamespace(),
			UID:               parent.GetUID(),
			ResourceVersion:   parent.GetResourceVersion(),
			CreationTimestamp: parent.GetCreationTimestamp(),
		},
	}
	specReplicas, found, err := unstructured.NestedInt64(parent.Object, e.scale.specReplicas...)
	if err != nil {
		return nil, false, err
	}
	statusReplicas, _, err := unstructured.NestedInt64(parent.Object, e.scale.statusReplicas...)
	if err != nil {
		return nil, false, err
	}
	s.Spec.Replicas = int32(specReplicas)
	s.Status.Replicas = int32(statusReplicas)
	if e.crd != nil {
		if e.scale.labelSelector != "" {
			sel, _, err := unstructured.NestedString(parent.Object, splitReplicasPath(e.scale.labelSelector)...)
			if err != nil {
				return nil, false, err
			}
			s.Status.Selector = sel
		}
		return s, found, nil
	}
	var selector *metav1.LabelSelector
	if raw, ok, _ := unstructured.NestedMap(parent.Object, "spec", "selector"); ok {
		selector = &metav1.LabelSelector{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(raw, selector); err != nil {
			return nil, false, genErrorf("spec.selector: %v", err)
		}
	}
	sel, err := metav1.LabelSelectorAsSelector(selector)
	if err != nil {
		return nil, false, err
	}
	s.Status.Selector = sel.String()
	return s, found, nil
}

// csaUpgrade is kubectl's migrateToSSAIfNecessary (k8s.io/kubectl@v0.37.2
// pkg/cmd/apply/apply.go:905-979): the Update managers that own the
// last-applied annotation (csaupgrade.FindFieldsOwners), or the names the
// step gives, upgraded into `manager` by csaupgrade.UpgradeManagedFieldsPatch;
// a non-nil patch is sent as a JSON patch by `manager`, which the server
// handles as an update (FieldManager.UpdateNoErrors). The patch's second
// operation replaces metadata.resourceVersion (a precondition), which gogen
// does not model: only the managedFields operation is applied.
func (st *fmState) csaUpgrade(now time.Time, step fmStep) (*stepOutcome, error) {
	if err := st.needStored("csaUpgrade", true); err != nil {
		return nil, err
	}
	names := sets.New[string]()
	if step.csaManagers != nil {
		names.Insert(step.csaManagers...)
	} else {
		annotation := fieldpath.NewSet(fieldpath.MakePathOrDie("metadata", "annotations", lastAppliedAnnotation))
		for _, e := range csaupgrade.FindFieldsOwners(st.stored.GetManagedFields(), metav1.ManagedFieldsOperationUpdate, annotation) {
			names.Insert(e.Manager)
		}
	}
	patchBytes, err := csaupgrade.UpgradeManagedFieldsPatch(st.stored.DeepCopy(), names, step.manager)
	if err != nil {
		return nil, err
	}
	if patchBytes == nil {
		return &stepOutcome{stored: st.stored, extra: jObject{"patch": nil}}, nil
	}
	var ops []map[string]any
	if err := utilyaml.Unmarshal(patchBytes, &ops); err != nil {
		return nil, genErrorf("internal: reading csaupgrade's patch: %v", err)
	}
	patchTree, err := canonicalValue(jsonTree(patchBytes))
	if err != nil {
		return nil, err
	}
	if err := validateManager("patch", step.manager, false); err != nil {
		return nil, err
	}
	patched := st.stored.DeepCopy()
	for _, o := range ops {
		switch o["path"] {
		case "/metadata/managedFields":
			_ = unstructured.SetNestedField(patched.Object, runtime.DeepCopyJSONValue(o["value"]), "metadata", "managedFields")
		case "/metadata/resourceVersion":
		default:
			return nil, genErrorf("internal: csaupgrade's patch has an unexpected operation %v", o)
		}
	}
	fm, err := st.c.endpoint.fieldManager("")
	if err != nil {
		return nil, err
	}
	_, updateErr := fm.Update(st.stored.DeepCopy(), patched.DeepCopy(), step.manager)
	obj := fm.UpdateNoErrors(st.stored.DeepCopy(), patched, step.manager)
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, genErrorf("internal: UpdateNoErrors returned a %T", obj)
	}
	extra := jObject{"patch": patchTree}
	if updateErr != nil {
		extra["managedFieldsError"] = fmErrorNode(updateErr)
	}
	return &stepOutcome{stored: st.finish(u, "", now), extra: extra}, nil
}

// jsonTree decodes JSON into a plain tree (UseNumber: int64 or float64).
func jsonTree(data []byte) any {
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	return numbers(v)
}

func numbers(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	case []any:
		for i := range t {
			t[i] = numbers(t[i])
		}
	case map[string]any:
		for k := range t {
			t[k] = numbers(t[k])
		}
	}
	return v
}
