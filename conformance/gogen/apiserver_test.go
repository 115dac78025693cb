package main

import (
	"strings"
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

// A watch's stream becomes a list of events; a bookmark stays only when it ends the initial
// events, and is an error when the watch did not ask for bookmarks.
func TestWatchEvents(t *testing.T) {
	stream := []byte(`{"type":"ADDED","object":{"kind":"ConfigMap","metadata":{"name":"a","resourceVersion":"7"}}}
{"type":"BOOKMARK","object":{"kind":"ConfigMap","metadata":{"resourceVersion":"9"}}}
{"type":"BOOKMARK","object":{"kind":"ConfigMap","metadata":{"resourceVersion":"9","annotations":{"k8s.io/initial-events-end":"true"}}}}
{"type":"DELETED","object":{"kind":"ConfigMap","metadata":{"name":"a","resourceVersion":"10"}}}
`)
	events, err := watchEvents(stream, map[string]any{"watch": true, "allowWatchBookmarks": "true"})
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, e := range events {
		types = append(types, e.(jObject)["type"].(string))
	}
	if strings.Join(types, " ") != "ADDED BOOKMARK DELETED" {
		t.Errorf("events %v", types)
	}
	if _, err := watchEvents(stream, map[string]any{"watch": true}); err == nil {
		t.Error("a bookmark the watch did not ask for was taken")
	}
	if _, err := watchEvents(stream, map[string]any{"watch": true, "allowWatchBookmarks": "false"}); err == nil {
		t.Error("a bookmark with allowWatchBookmarks=false was taken")
	}
	if events, err := watchEvents(nil, map[string]any{}); err != nil || len(events) != 0 {
		t.Errorf("an empty stream: %v, %v", events, err)
	}
	if _, err := watchEvents([]byte(`{"type":"ADDED"`), map[string]any{}); err == nil {
		t.Error("a cut stream was taken")
	}
}

// A list's and a bookmark's resourceVersion and a continue token are the collection's revision:
// one placeholder each, numbering nothing; a too-old message names the version asked for as a
// version and the cache's oldest by a placeholder.
func TestNormaliserCollections(t *testing.T) {
	clock := &stepClock{}
	n := newNormaliser()
	body := decodeResponse([]byte(`[{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"900"}}},` +
		`{"kind":"ConfigMapList","metadata":{"resourceVersion":"901","continue":"eyJ2Ijo","remainingItemCount":2},` +
		`"items":[{"metadata":{"name":"a","resourceVersion":"5"}}]},` +
		`{"type":"ERROR","object":{"kind":"Status","message":"too old resource version: 3 (850)"}}]`))
	got, err := n.normalise(body, clock)
	if err != nil {
		t.Fatal(err)
	}
	text, err := writeJSON(got, false)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"object":{"metadata":{"resourceVersion":"<collection resourceVersion>"}},"type":"BOOKMARK"},` +
		`{"items":[{"metadata":{"name":"a","resourceVersion":"<resourceVersion 1>"}}],"kind":"ConfigMapList",` +
		`"metadata":{"continue":"<continue>","remainingItemCount":2,"resourceVersion":"<collection resourceVersion>"}},` +
		`{"object":{"kind":"Status","message":"too old resource version: <resourceVersion 2> (<oldest resourceVersion>)"},"type":"ERROR"}]`
	if string(text) != want {
		t.Errorf("normalised\n got %s\nwant %s", text, want)
	}
	again, err := newNormaliser().normalise(got, clock)
	if err != nil {
		t.Fatal(err)
	}
	if text2, _ := writeJSON(again, false); string(text2) != want {
		t.Errorf("normalised twice\n got %s", text2)
	}
}

// References to what earlier steps answered: the latest object's version, or step K's (its
// list's when it answered one); a reference to the step itself or a later one is refused.
func TestStepReferences(t *testing.T) {
	s := &seen{}
	s.note(jObject{"metadata": jObject{"resourceVersion": "5"}})
	s.endStep()
	s.note(jObject{"kind": "ConfigMapList", "items": []any{}, "metadata": jObject{"resourceVersion": "9", "continue": "tok"}})
	s.endStep()
	s.note([]any{jObject{"type": "ADDED"}})
	s.endStep()
	s.note(jObject{"kind": "Status", "metadata": jObject{}})
	s.endStep()
	if got := s.substitute("{resourceVersion}/{resourceVersion@1}/{resourceVersion@2}/{continue}/{continue@1}/{resourceVersion@3}", false); got != "5/5/9/tok//5" {
		t.Errorf("substituted %q", got)
	}
	if got := s.substitute("{resourceVersion@2}", true); got != `"9"` {
		t.Errorf("quoted %q", got)
	}
	if checkReferences("{resourceVersion@2}", 2) != nil || checkReferences("{resourceVersion@3}", 2) == nil || checkReferences("{continue@0}", 2) == nil {
		t.Error("references to steps checked wrongly")
	}
}

func TestIsWatch(t *testing.T) {
	for v, want := range map[any]bool{true: true, "true": true, "1": true, "": true, "0": false, "False": false, false: false} {
		if got := isWatch(map[string]any{"watch": v}); got != want {
			t.Errorf("watch=%v: %v", v, got)
		}
	}
	if isWatch(map[string]any{}) {
		t.Error("no watch parameter is a watch")
	}
}

// A watch of a collection streams events; a GET of one object with watch=true answers the
// object, with the same Content-Type.
func TestIsEventStream(t *testing.T) {
	for text, want := range map[string]bool{
		"":   true,
		"\n": true,
		`{"type":"ADDED","object":{"kind":"ConfigMap"}}` + "\n" + `{"type":"DELETED","object":{}}`: true,
		`{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a"}}`:                           false,
		`{"kind":"Status","status":"Failure","code":410}`:                                          false,
		`{"type":"Opaque","object":{},"kind":"Secret"}`:                                            false,
	} {
		if got := isEventStream([]byte(text)); got != want {
			t.Errorf("isEventStream(%q) = %v", text, got)
		}
	}
}
