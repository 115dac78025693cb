package main

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields"
	applycorev1 "k8s.io/client-go/applyconfigurations/core/v1"
)

// What ExtractInto (apimachinery v0.37.2) does with fields a manager owns that the object
// lacks. Kubernetes issue 141153 and its fix (pull request 141177, "nil panic") are about it:
// there is no panic, but an error when none of the manager's fields is in the object, for
// the unstructured and the typed (client-go) paths alike, and a null where only some are.
// smd/src/managedfields/extract.rs answers the first with the empty applied configuration;
// these tests pin Go's side, so that a fixed upstream shows here first.

const extractSecret = `
apiVersion: v1
kind: Secret
metadata:
  name: creds
  namespace: default
  managedFields:
  - manager: kubectl
    operation: Apply
    apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1: {"f:stringData": {"f:password": {}}}
data: {password: aHVudGVyMg==}
`

const extractNoneMessage = "unable to convert managed fields for kubectl to unstructured, expected map, got <nil>"

func extractTestInto(t *testing.T, text, manager string) (map[string]any, error) {
	t.Helper()
	object, err := readServerObject(text)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{Object: object}
	tc, err := builtinTypeConverter()
	if err != nil {
		t.Fatal(err)
	}
	objectType, err := parseableTypeOf(tc, u.GroupVersionKind())
	if err != nil {
		t.Fatal(err)
	}
	applied := map[string]any{}
	err = managedfields.ExtractInto(u, objectType, manager, &applied, "")
	return applied, err
}

func TestExtractIntoFailsWhenNoOwnedFieldIsThere(t *testing.T) {
	if _, err := extractTestInto(t, extractSecret, "kubectl"); err == nil || err.Error() != extractNoneMessage {
		t.Fatalf("unstructured: got %v, want %q", err, extractNoneMessage)
	}
	object, err := readServerObject(extractSecret)
	if err != nil {
		t.Fatal(err)
	}
	secret := &corev1.Secret{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(object, secret); err != nil {
		t.Fatal(err)
	}
	if _, err := applycorev1.ExtractSecret(secret, "kubectl"); err == nil || err.Error() != extractNoneMessage {
		t.Fatalf("client-go: got %v, want %q", err, extractNoneMessage)
	}
}

func TestExtractIntoLeavesNullWhereSomeOwnedFieldsAreMissing(t *testing.T) {
	applied, err := extractTestInto(t, `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  managedFields:
  - manager: m
    operation: Apply
    apiVersion: apps/v1
    fieldsType: FieldsV1
    fieldsV1: {"f:spec": {"f:paused": {}}}
spec:
  replicas: 2
`, "m")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "spec": nil}
	if !reflect.DeepEqual(applied, want) {
		t.Fatalf("got %#v, want %#v", applied, want)
	}
}
