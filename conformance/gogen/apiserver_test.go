package main

import (
	"testing"
	"time"
)

// The normaliser on a made-up answer: placeholders numbered by first appearance (keys walked
// in byte order), times named by the step whose seconds hold them, values a request chose
// kept, a uid in a message and a generated name in a label rewritten, fieldsV1 kept byte for
// byte.
func TestNormaliser(t *testing.T) {
	clock := &stepClock{steps: []struct{ from, to int64 }{{100, 100}, {102, 103}}}
	at := func(sec int64) string { return time.Unix(sec, 0).UTC().Format(time.RFC3339) }
	n := newNormaliser()
	n.requested(map[any]any{"spec": map[any]any{"ports": []any{map[any]any{"nodePort": 30080}}}})
	body := decodeResponse([]byte(`{"metadata":{"name":"web-x7k2p","generateName":"web-","uid":"u-1",` +
		`"resourceVersion":"812","creationTimestamp":"` + at(100) + `","managedFields":[` +
		`{"manager":"a","time":"` + at(103) + `","fieldsV1":{"k:{\"port\":80}":{},"f:b":{}}},` +
		`{"manager":"b","time":"` + at(99) + `"}]},` +
		`"spec":{"clusterIP":"10.96.0.7","clusterIPs":["10.96.0.7"],"ports":[{"nodePort":31234},{"nodePort":30080}]},` +
		`"message":"uid u-1 is taken","volumes":[{"name":"kube-api-access-5rq86"}],"labels":{"job-name":"web-x7k2p"}}`))
	got, err := n.normalise(body, clock)
	if err != nil {
		t.Fatal(err)
	}
	text, err := writeJSON(got, false)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"labels":{"job-name":"web-<generated 1>"},"message":"uid <uid 1> is taken","metadata":{"creationTimestamp":"<step 1>","generateName":"web-",` +
		`"managedFields":[{"fieldsV1":"{\"k:{\\\"port\\\":80}\":{},\"f:b\":{}}","manager":"a","time":"<step 2>"},` +
		`{"manager":"b","time":"<before step 1>"}],"name":"web-<generated 1>","resourceVersion":"<resourceVersion 1>",` +
		`"uid":"<uid 1>"},"spec":{"clusterIP":"<clusterIP 1>","clusterIPs":["<clusterIP 1>"],` +
		`"ports":[{"nodePort":"<nodePort 1>"},{"nodePort":30080}]},"volumes":[{"name":"kube-api-access-<generated 2>"}]}`
	if string(text) != want {
		t.Errorf("normalised\n got %s\nwant %s", text, want)
	}
	if _, err := n.normalise(decodeResponse([]byte(`{"metadata":{"creationTimestamp":"`+at(101)+`"}}`)), clock); err == nil {
		t.Error("a time between two steps was given a step")
	}
}

// A message quoting the object it refused (JSON text inside a quoted value, as the server
// writes a patch that did not decode) or the version a precondition met names them as the
// object's own fields are named; a version the request chose stays.
func TestNormaliserMessages(t *testing.T) {
	clock := &stepClock{steps: []struct{ from, to int64 }{{100, 100}, {102, 103}}}
	at := func(sec int64) string { return time.Unix(sec, 0).UTC().Format(time.RFC3339) }
	n := newNormaliser()
	body := decodeResponse([]byte(`{"metadata":{"resourceVersion":"640"},` +
		`"message":"patch: Invalid value: \"{\\\"resourceVersion\\\":\\\"640\\\",\\\"creationTimestamp\\\":\\\"` + at(100) +
		`\\\",\\\"managedFields\\\":[{\\\"time\\\":\\\"` + at(102) + `\\\"}]}\": illegal base64",` +
		`"details":"the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (655)"}`))
	got, err := n.normalise(body, clock)
	if err != nil {
		t.Fatal(err)
	}
	text, err := writeJSON(got, false)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"details":"the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (<resourceVersion 1>)",` +
		`"message":"patch: Invalid value: \"{\\\"resourceVersion\\\":\\\"<resourceVersion 2>\\\",\\\"creationTimestamp\\\":\\\"<step 1>` +
		`\\\",\\\"managedFields\\\":[{\\\"time\\\":\\\"<step 2>\\\"}]}\": illegal base64",` +
		`"metadata":{"resourceVersion":"<resourceVersion 2>"}}`
	if string(text) != want {
		t.Errorf("normalised\n got %s\nwant %s", text, want)
	}
	if _, err := n.normalise(decodeResponse([]byte(`{"message":"{\"time\":\"`+at(101)+`\"}"}`)), clock); err == nil {
		t.Error("a quoted time between two steps was given a step")
	}
}

func TestStoredPath(t *testing.T) {
	created := jObject{"metadata": jObject{"name": "web-abc"}}
	for _, c := range []struct{ method, path, want string }{
		{"POST", "/api/v1/namespaces/n/services", "/api/v1/namespaces/n/services/web-abc"},
		{"PATCH", "/apis/apps/v1/namespaces/n/deployments/web/scale", "/apis/apps/v1/namespaces/n/deployments/web"},
		{"PUT", "/apis/apps/v1/namespaces/n/deployments/web/status", "/apis/apps/v1/namespaces/n/deployments/web"},
		{"PUT", "/api/v1/namespaces/n/configmaps/web", "/api/v1/namespaces/n/configmaps/web"},
	} {
		if got, err := storedPath(c.method, c.path, created, "web"); err != nil || got != c.want {
			t.Errorf("storedPath(%s %s) = %s, %v; want %s", c.method, c.path, got, err, c.want)
		}
	}
	refused := jObject{"kind": "Status", "metadata": jObject{}}
	if got, err := storedPath("POST", "/api/v1/namespaces/n/configmaps", refused, "web"); err != nil || got != "/api/v1/namespaces/n/configmaps/web" {
		t.Errorf("a refused create: %s, %v", got, err)
	}
	if _, err := storedPath("POST", "/api/v1/namespaces/n/configmaps", refused, ""); err == nil {
		t.Error("a refused create without a name: no error")
	}
}

// An apply conflict's causes come out by manager (the server's manager order is a Go map's),
// each manager's fields in the server's order; other causes keep the server's order.
func TestConflictCausesInOrder(t *testing.T) {
	clock := &stepClock{}
	body := decodeResponse([]byte(`{"details":{"causes":[` +
		`{"reason":"FieldManagerConflict","message":"conflict with \"b\"","field":".data.z"},` +
		`{"reason":"FieldManagerConflict","message":"conflict with \"a\"","field":".data.y"},` +
		`{"reason":"FieldManagerConflict","message":"conflict with \"b\"","field":".data.x"}]},` +
		`"other":{"causes":[{"reason":"FieldValueInvalid","field":"b"},{"reason":"FieldValueInvalid","field":"a"}]}}`))
	got, err := newNormaliser().normalise(body, clock)
	if err != nil {
		t.Fatal(err)
	}
	text, err := writeJSON(got, false)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"details":{"causes":[{"field":".data.y","message":"conflict with \"a\"","reason":"FieldManagerConflict"},` +
		`{"field":".data.z","message":"conflict with \"b\"","reason":"FieldManagerConflict"},` +
		`{"field":".data.x","message":"conflict with \"b\"","reason":"FieldManagerConflict"}]},` +
		`"other":{"causes":[{"field":"b","reason":"FieldValueInvalid"},{"field":"a","reason":"FieldValueInvalid"}]}}`
	if string(text) != want {
		t.Errorf("normalised\n got %s\nwant %s", text, want)
	}
}
