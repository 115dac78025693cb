package main

// kind: patch — the PATCH types as the API server v1.37.2 applies them
// (k8s.io/apiserver pkg/endpoints/handlers/patch.go): JSON merge patch and
// JSON patch with gopkg.in/evanphx/json-patch.v4 and the server's settings,
// strategic merge patch with apimachinery's strategicpatch and the patch
// metadata of the kind's Go type.
//
// `original` and `patch` are JSON texts, handed to the libraries as the
// server hands them its bytes. The result is the patched object as a
// canonical value ({"result": V}), or the error with the HTTP status the
// server answers ({"error": E, "status": N}); a panic is {"panic": TEXT}.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/kubernetes/scheme"
	kjson "sigs.k8s.io/json"
)

// The server's settings (k8s.io/apiserver v0.37.2): maxJSONPatchOperations in
// handlers/patch.go, JSONPatchMaxCopyBytes (3 MiB) in server/config.go, which
// it stores in json-patch's AccumulatedCopySizeLimit at start-up.
const maxJSONPatchOperations = 10000

func init() {
	jsonpatch.AccumulatedCopySizeLimit = 3 * 1024 * 1024
	jsonpatch.SupportNegativeIndices = true
}

func decodePatchOp(op string, c *spec) (func() (any, error), error) {
	original, err := c.str("original")
	if err != nil {
		return nil, err
	}
	patch, err := c.str("patch")
	if err != nil {
		return nil, err
	}
	switch op {
	case "merge":
		return func() (any, error) { return mergePatch([]byte(original), []byte(patch)) }, nil
	case "json":
		return func() (any, error) { return jsonPatch([]byte(original), []byte(patch)) }, nil
	case "strategic":
		raw, err := c.need("gvk")
		if err != nil {
			return nil, err
		}
		g, err := newSpec(c.at("gvk"), raw)
		if err != nil {
			return nil, err
		}
		apiVersion, err := g.str("apiVersion")
		if err != nil {
			return nil, err
		}
		kind, err := g.str("kind")
		if err != nil {
			return nil, err
		}
		if err := g.finish(); err != nil {
			return nil, err
		}
		gv, err := schema.ParseGroupVersion(apiVersion)
		if err != nil {
			return nil, genErrorf("%s: %v", c.at("gvk"), err)
		}
		gvk := gv.WithKind(kind)
		if _, err := scheme.Scheme.New(gvk); err != nil {
			return nil, genErrorf("%s: not a built-in kind: %v", c.at("gvk"), err)
		}
		where := c.where
		return func() (any, error) { return strategicPatch(where, gvk, []byte(original), []byte(patch)) }, nil
	}
	return nil, genErrorf("%s: unknown patch op %q (merge, json, strategic)", c.where, op)
}

func patchFailure(err error, status int) (any, error) {
	return jObject{"error": errorNode(err), "status": int64(status)}, nil
}

// mergePatch is the server's MergePatchType branch of applyJSPatch.
func mergePatch(original, patch []byte) (any, error) {
	out, err := jsonpatch.MergePatch(original, patch)
	if err == jsonpatch.ErrBadJSONPatch {
		return patchFailure(err, http.StatusBadRequest)
	}
	if err != nil {
		return patchFailure(err, http.StatusInternalServerError)
	}
	return patchResult(out)
}

// jsonPatch is the server's JSONPatchType branch of applyJSPatch.
func jsonPatch(original, patch []byte) (any, error) {
	ops, err := jsonpatch.DecodePatch(patch)
	if err != nil {
		return patchFailure(err, http.StatusBadRequest)
	}
	if len(ops) > maxJSONPatchOperations {
		return patchFailure(fmt.Errorf("The allowed maximum operations in a JSON patch is %d, got %d",
			maxJSONPatchOperations, len(ops)), http.StatusRequestEntityTooLarge)
	}
	out, err := ops.Apply(original)
	if err != nil {
		return patchFailure(err, http.StatusUnprocessableEntity)
	}
	return patchResult(out)
}

// strategicPatch is the server's strategicPatchObject up to the decoding into
// the Go type: both sides as maps with int64 integers, the patch metadata of
// the kind's Go type, interpretStrategicMergePatchError's statuses.
func strategicPatch(where string, gvk schema.GroupVersionKind, original, patch []byte) (any, error) {
	var originalMap, patchMap map[string]any
	if err := kjson.UnmarshalCaseSensitivePreserveInts(original, &originalMap); err != nil {
		return nil, genErrorf("%s: original: %v", where, err)
	}
	if err := kjson.UnmarshalCaseSensitivePreserveInts(patch, &patchMap); err != nil {
		return nil, genErrorf("%s: patch: %v", where, err)
	}
	obj, err := scheme.Scheme.New(gvk)
	if err != nil {
		return nil, genErrorf("%s: %v", where, err)
	}
	meta, err := strategicpatch.NewPatchMetaFromStruct(obj)
	if err != nil {
		return nil, genErrorf("%s: %v", where, err)
	}
	out, err := strategicpatch.StrategicMergeMapPatchUsingLookupPatchMeta(originalMap, patchMap, meta)
	if err != nil {
		switch err {
		case mergepatch.ErrBadJSONDoc, mergepatch.ErrBadPatchFormatForPrimitiveList, mergepatch.ErrBadPatchFormatForRetainKeys,
			mergepatch.ErrBadPatchFormatForSetElementOrderList, mergepatch.ErrUnsupportedStrategicMergePatchFormat:
			return patchFailure(err, http.StatusBadRequest)
		case mergepatch.ErrNoListOfLists, mergepatch.ErrPatchContentNotMatchRetainKeys:
			return patchFailure(err, http.StatusUnprocessableEntity)
		}
		return patchFailure(err, http.StatusInternalServerError)
	}
	v, err := canonicalValue(out)
	if err != nil {
		return nil, err
	}
	return jObject{"result": v}, nil
}

// patchResult reads the bytes json-patch wrote: numbers keep their text, so
// an integer is an int64 and anything else a float64.
func patchResult(out []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(out))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, genErrorf("json-patch wrote what it cannot read: %v", err)
	}
	c, err := canonicalJSONNumbers(v)
	if err != nil {
		return nil, err
	}
	return jObject{"result": c}, nil
}

func canonicalJSONNumbers(v any) (any, error) {
	switch t := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return i, nil
		}
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			return nil, genErrorf("number %s: %v", t, err)
		}
		return canonicalFloat(f), nil
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			c, err := canonicalJSONNumbers(e)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case map[string]any:
		out := make(jObject, len(t))
		for k, e := range t {
			c, err := canonicalJSONNumbers(e)
			if err != nil {
				return nil, err
			}
			out[canonicalKey(k)] = c
		}
		return out, nil
	}
	return canonicalValue(v)
}
