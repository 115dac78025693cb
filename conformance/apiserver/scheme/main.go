// Command smd-scheme is the oracle for built-in objects as the kube-apiserver decodes them: it
// is built from the same k8s.io/kubernetes tree as the server (conformance/apiserver/build copies
// it into cmd/smd-scheme) and uses the scheme the server uses, legacyscheme with every API
// group's install package the control plane imports (pkg/controlplane/import_known_versions.go).
//
// CustomResourceDefinitions and APIServices, which the legacy scheme does not hold, are decoded
// with the schemes of the apiextensions-apiserver and the kube-aggregator the server embeds.
//
// For a body of a built-in kind it does what the server's codec does on a create, update or
// patch: decode the JSON into the external Go type of its apiVersion, run the scheme's
// defaulting (the SetDefaults_* functions and the +default markers, at the default feature
// gates), convert to the internal version and back to the same external version, and encode.
// Each body is answered four ways, so that each step can be checked alone:
//
//	decoded    the external Go type, encoded again (no defaulting, no conversion): what the
//	           defaulting functions see
//	defaulted  decoded, then the scheme's defaulting (no conversion)
//	roundTrip  decoded, converted to the internal version and back (no defaulting)
//	server     decoded, defaulted, converted and back: what the server's codec makes of it
//
// Usage:
//
//	smd-scheme generate --scenarios DIR --goldens DIR [--server]
//	    every DIR/*.yaml (format smd-scheme-scenarios/v1) -> goldens DIR/*.json; with --server,
//	    the cases marked `server: true` are also POSTed (dryRun=All) to the running server
//	    named by SMD_APISERVER_URL, _TOKEN and _CA, in a namespace smd-scheme it creates
//	smd-scheme kinds
//	    every external group/version/kind of the scheme, one per line, as JSON
//	smd-scheme served
//	    every kind and version a running server serves (its discovery; top-level resources
//	    only), as JSON; the server is named by SMD_APISERVER_URL, _TOKEN and _CA
//	smd-scheme internal-types
//	    the internal Go types of every built-in kind and the versioned types they convert from,
//	    as smd/src/builtin/internaltypes.json (internal.go)
//	smd-scheme render --scenarios FILE --golden FILE
//	    values shown as the server's messages show them: json.Marshal of internal values and
//	    diff.Diff of two (render.go)
//	smd-scheme markers --api DIR
//	    the +default= markers of the k8s.io/api module in DIR (what defaulter-gen turns into
//	    zz_generated.defaults.go), as the Rust table smd/src/builtin/defaults/markers.rs
package main

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/versioning"
	"sigs.k8s.io/yaml"

	apiextensionsapiserver "k8s.io/apiextensions-apiserver/pkg/apiserver"
	aggregatorscheme "k8s.io/kube-aggregator/pkg/apiserver/scheme"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	// The API groups the API server serves, as pkg/controlplane imports them.
	_ "k8s.io/kubernetes/pkg/apis/admission/install"
	_ "k8s.io/kubernetes/pkg/apis/admissionregistration/install"
	_ "k8s.io/kubernetes/pkg/apis/apiserverinternal/install"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/authentication/install"
	_ "k8s.io/kubernetes/pkg/apis/authorization/install"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/certificates/install"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/discovery/install"
	_ "k8s.io/kubernetes/pkg/apis/events/install"
	_ "k8s.io/kubernetes/pkg/apis/extensions/install"
	_ "k8s.io/kubernetes/pkg/apis/flowcontrol/install"
	_ "k8s.io/kubernetes/pkg/apis/imagepolicy/install"
	_ "k8s.io/kubernetes/pkg/apis/lifecycle/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/rbac/install"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
	_ "k8s.io/kubernetes/pkg/apis/storagemigration/install"
)

const kubernetesVersion = "v1.37.2"

type scenarioFile struct {
	Format string     `json:"format"`
	Cases  []scenario `json:"cases"`
}

type scenario struct {
	Name   string                 `json:"name"`
	Note   string                 `json:"note,omitempty"`
	Object map[string]interface{} `json:"object"`
	// Server: also POST the body to the running server with dryRun=All (generate --server).
	Server bool `json:"server,omitempty"`
}

type result struct {
	Decoded   interface{} `json:"decoded,omitempty"`
	Defaulted interface{} `json:"defaulted,omitempty"`
	RoundTrip interface{} `json:"roundTrip,omitempty"`
	Server    interface{} `json:"server,omitempty"`
	// DryRun is the real server's answer to a POST of the body with dryRun=All, normalised
	// (see normaliseDryRun).
	DryRun interface{} `json:"dryRun,omitempty"`
	Error  string      `json:"error,omitempty"`
}

type goldenFile struct {
	Format    string            `json:"format"`
	Generator map[string]string `json:"generator"`
	Results   map[string]result `json:"results"`
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: smd-scheme generate --scenarios DIR --goldens DIR | smd-scheme kinds")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "generate":
		fs := flag.NewFlagSet("generate", flag.ExitOnError)
		scenarios := fs.String("scenarios", "", "scenario directory")
		goldens := fs.String("goldens", "", "golden directory")
		withServer := fs.Bool("server", false, "also ask the running server (dryRun=All)")
		_ = fs.Parse(os.Args[2:])
		if *scenarios == "" || *goldens == "" {
			fmt.Fprintln(os.Stderr, "generate: --scenarios and --goldens are required")
			os.Exit(2)
		}
		var srv *server
		if *withServer {
			var err error
			if srv, err = connect(); err != nil {
				fmt.Fprintln(os.Stderr, "generate:", err)
				os.Exit(1)
			}
		}
		if err := generate(*scenarios, *goldens, srv); err != nil {
			fmt.Fprintln(os.Stderr, "generate:", err)
			os.Exit(1)
		}
	case "kinds":
		kinds()
	case "served":
		if err := served(); err != nil {
			fmt.Fprintln(os.Stderr, "served:", err)
			os.Exit(1)
		}
	case "markers":
		fs := flag.NewFlagSet("markers", flag.ExitOnError)
		api := fs.String("api", "", "the k8s.io/api module directory")
		_ = fs.Parse(os.Args[2:])
		if err := markers(*api); err != nil {
			fmt.Fprintln(os.Stderr, "markers:", err)
			os.Exit(1)
		}
	case "internal-types":
		if err := internalTypes(); err != nil {
			fmt.Fprintln(os.Stderr, "internal-types:", err)
			os.Exit(1)
		}
	case "render":
		fs := flag.NewFlagSet("render", flag.ExitOnError)
		scenarios := fs.String("scenarios", "", "the render scenario file")
		golden := fs.String("golden", "", "the golden file to write")
		_ = fs.Parse(os.Args[2:])
		if *scenarios == "" || *golden == "" {
			fmt.Fprintln(os.Stderr, "render: --scenarios and --golden are required")
			os.Exit(2)
		}
		if err := render(*scenarios, *golden); err != nil {
			fmt.Fprintln(os.Stderr, "render:", err)
			os.Exit(1)
		}
	default:
		fmt.Fprintf(os.Stderr, "unknown command %q\n", os.Args[1])
		os.Exit(2)
	}
}

func generate(scenarioDir, goldenDir string, srv *server) error {
	files, err := filepath.Glob(filepath.Join(scenarioDir, "*.yaml"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no scenario files in %s", scenarioDir)
	}
	sort.Strings(files)
	var problems []string
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		var sf scenarioFile
		if err := yaml.UnmarshalStrict(data, &sf); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", file, err))
			continue
		}
		if sf.Format != "smd-scheme-scenarios/v1" {
			problems = append(problems, fmt.Sprintf("%s: format %q, want smd-scheme-scenarios/v1", file, sf.Format))
			continue
		}
		golden := goldenFile{
			Format:    "smd-scheme-goldens/v1",
			Generator: map[string]string{"kubernetes": kubernetesVersion},
			Results:   map[string]result{},
		}
		for _, c := range sf.Cases {
			if _, dup := golden.Results[c.Name]; dup || c.Name == "" {
				problems = append(problems, fmt.Sprintf("%s: case name %q empty or repeated", file, c.Name))
				continue
			}
			r := run(c.Object)
			if c.Server && srv == nil {
				problems = append(problems, fmt.Sprintf("%s: %s asks for the server: run with --server", file, c.Name))
			}
			if c.Server && srv != nil {
				answer, err := srv.dryRun(c.Object)
				if err != nil {
					problems = append(problems, fmt.Sprintf("%s: %s: %v", file, c.Name, err))
				}
				r.DryRun = answer
			}
			golden.Results[c.Name] = r
		}
		var out bytes.Buffer
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", " ")
		if err := enc.Encode(golden); err != nil {
			return err
		}
		path := filepath.Join(goldenDir, strings.TrimSuffix(filepath.Base(file), ".yaml")+".json")
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, out.Bytes()) {
			continue
		}
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Println("wrote", path)
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	return nil
}

// run answers one body both ways: the round trip alone, and with the scheme's defaulting.
func run(object map[string]interface{}) result {
	body, err := json.Marshal(object)
	if err != nil {
		return result{Error: err.Error()}
	}
	apiVersion, _ := object["apiVersion"].(string)
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return result{Error: err.Error()}
	}
	decoded, err := decodeOnly(gv, body, false)
	if err != nil {
		return result{Error: err.Error()}
	}
	defaulted, err := decodeOnly(gv, body, true)
	if err != nil {
		return result{Error: err.Error()}
	}
	roundTrip, err := codec(gv, false, body)
	if err != nil {
		return result{Error: err.Error()}
	}
	server, err := codec(gv, true, body)
	if err != nil {
		return result{Error: err.Error()}
	}
	now := time.Now()
	return result{Decoded: decoded, Defaulted: clock(defaulted, now), RoundTrip: roundTrip, Server: clock(server, now)}
}

// clock replaces what the defaulting took from the clock (SetDefaults_DeviceTaint's timeAdded,
// pkg/apis/resource/v1/defaults.go:50: a time within a minute of now) with "<now>", so that the
// goldens regenerate identically.
func clock(v interface{}, now time.Time) interface{} {
	switch v := v.(type) {
	case map[string]interface{}:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "timeAdded" {
				if t, err := time.Parse(time.RFC3339, s); err == nil && t.After(now.Add(-time.Minute)) && t.Before(now.Add(time.Minute)) {
					v[k] = "<now>"
				}
				continue
			}
			v[k] = clock(x, now)
		}
	case []interface{}:
		for i, x := range v {
			v[i] = clock(x, now)
		}
	}
	return v
}

// schemeFor is the scheme the server decodes gv with: the legacy scheme, but for the groups the
// apiextensions-apiserver and the kube-aggregator serve from their own.
func schemeFor(gv schema.GroupVersion) *runtime.Scheme {
	switch gv.Group {
	case "apiextensions.k8s.io":
		return apiextensionsapiserver.Scheme
	case "apiregistration.k8s.io":
		return aggregatorscheme.Scheme
	}
	return legacyscheme.Scheme
}

// decodeOnly decodes body into its external Go type, defaults it when asked, and encodes it
// again.
func decodeOnly(gv schema.GroupVersion, body []byte, defaulting bool) (interface{}, error) {
	scheme := schemeFor(gv)
	serializer := kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, scheme, scheme, kjson.SerializerOptions{})
	obj, _, err := serializer.Decode(body, nil, nil)
	if err != nil {
		return nil, err
	}
	if defaulting {
		scheme.Default(obj)
	}
	return encodeJSON(serializer, obj)
}

func encodeJSON(serializer runtime.Encoder, obj runtime.Object) (interface{}, error) {
	var out bytes.Buffer
	if err := serializer.Encode(obj, &out); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(&out)
	dec.UseNumber()
	var v interface{}
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// codec decodes body into the internal version through its external type (defaulting it on the
// way when asked, as the server's DecoderToVersion does) and encodes it back to gv.
func codec(gv schema.GroupVersion, defaulting bool, body []byte) (interface{}, error) {
	scheme := schemeFor(gv)
	serializer := kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, scheme, scheme, kjson.SerializerOptions{})
	internal := schema.GroupVersion{Group: gv.Group, Version: runtime.APIVersionInternal}
	var defaulter runtime.ObjectDefaulter
	if defaulting {
		defaulter = scheme
	}
	decoder := versioning.NewCodec(nil, serializer, runtime.UnsafeObjectConvertor(scheme), scheme, scheme, defaulter, nil, internal, scheme.Name())
	obj, _, err := decoder.Decode(body, nil, nil)
	if err != nil {
		return nil, err
	}
	encoder := versioning.NewCodec(serializer, nil, runtime.UnsafeObjectConvertor(scheme), scheme, scheme, nil, gv, nil, scheme.Name())
	return encodeJSON(encoder, obj)
}

func kinds() {
	var lines []string
	for gvk := range legacyscheme.Scheme.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal {
			continue
		}
		line, _ := json.Marshal(map[string]string{"group": gvk.Group, "version": gvk.Version, "kind": gvk.Kind})
		lines = append(lines, string(line))
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Println(l)
	}
}

type marker struct {
	typeName, field, value string
	pointer                bool
	source                 string
}

// markers parses every Go file of the k8s.io/api module for struct fields carrying a +default=
// marker and prints them as a Rust table, keyed by the OpenAPI name of the struct
// (k8s.io/api/core/v1.ContainerPort is io.k8s.api.core.v1.ContainerPort).
func markers(api string) error {
	if api == "" {
		return errors.New("--api DIR is required")
	}
	var found []marker
	err := filepath.WalkDir(api, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(api, filepath.Dir(path))
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		consts := packageStringConsts(filepath.Dir(path))
		for _, decl := range file.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gen.Specs {
				ts, ok := spec.(*ast.TypeSpec)
				if !ok {
					continue
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, f := range st.Fields.List {
					if f.Doc == nil || f.Tag == nil {
						continue
					}
					for _, c := range f.Doc.List {
						text := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
						if !strings.HasPrefix(text, "+default=") {
							continue
						}
						value := strings.TrimPrefix(text, "+default=")
						if strings.HasPrefix(value, "ref(") && strings.HasSuffix(value, ")") {
							name := value[4 : len(value)-1]
							v, ok := consts[name]
							if !ok {
								return fmt.Errorf("%s: %s: ref(%s) names no string constant of the package", path, ts.Name.Name, name)
							}
							b, _ := json.Marshal(v)
							value = string(b)
						}
						var check interface{}
						if err := json.Unmarshal([]byte(value), &check); err != nil {
							return fmt.Errorf("%s: %s: +default=%s is not JSON: %v", path, ts.Name.Name, value, err)
						}
						tag, _ := strconv.Unquote(f.Tag.Value)
						jsonName := strings.Split(reflect.StructTag(tag).Get("json"), ",")[0]
						if jsonName == "" || jsonName == "-" {
							return fmt.Errorf("%s: %s: a +default marker on a field with no JSON name", path, ts.Name.Name)
						}
						_, pointer := f.Type.(*ast.StarExpr)
						pos := fset.Position(c.Pos())
						found = append(found, marker{
							typeName: "io.k8s.api." + strings.ReplaceAll(filepath.ToSlash(rel), "/", ".") + "." + ts.Name.Name,
							field:    jsonName,
							value:    value,
							pointer:  pointer,
							source:   fmt.Sprintf("k8s.io/api/%s/%s:%d", filepath.ToSlash(rel), filepath.Base(path), pos.Line),
						})
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].typeName < found[j].typeName })
	fmt.Println("// @generated by `smd-scheme markers` (conformance/apiserver/scheme/main.go) from the")
	fmt.Println("// `+default=` markers of k8s.io/api v0.37.2. Do not edit: run conformance/apiserver/scheme/regen.")
	fmt.Println()
	fmt.Println("use super::Marker;")
	fmt.Println()
	fmt.Println("/// Every `+default=` marker, by the OpenAPI name of the struct that holds the field, in the")
	fmt.Println("/// order of the struct's fields.")
	fmt.Println("pub(super) const MARKERS: &[Marker] = &[")
	for _, m := range found {
		fmt.Printf("    Marker {\n        type_name: %q,\n        field: %q,\n        value: %q,\n        pointer: %v,\n        source: %q,\n    },\n",
			m.typeName, m.field, m.value, m.pointer, m.source)
	}
	fmt.Println("];")
	return nil
}

// packageStringConsts maps every string constant of the package in dir to its value.
func packageStringConsts(dir string) map[string]string {
	out := map[string]string{}
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		return out
	}
	for _, pkg := range pkgs {
		for _, file := range pkg.Files {
			for _, decl := range file.Decls {
				gen, ok := decl.(*ast.GenDecl)
				if !ok || gen.Tok != token.CONST {
					continue
				}
				for _, spec := range gen.Specs {
					vs, ok := spec.(*ast.ValueSpec)
					if !ok {
						continue
					}
					for i, name := range vs.Names {
						if i < len(vs.Values) {
							if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
								if v, err := strconv.Unquote(lit.Value); err == nil {
									out[name.Name] = v
								}
							}
						}
					}
				}
			}
		}
	}
	return out
}

type servedKind struct {
	Group      string `json:"group"`
	Version    string `json:"version"`
	Kind       string `json:"kind"`
	Resource   string `json:"resource"`
	Namespaced bool   `json:"namespaced"`
}

type server struct {
	url, token string
	client     *http.Client
	kinds      []servedKind
}

// connect reaches the running server named by the environment and reads its discovery.
func connect() (*server, error) {
	url, token := os.Getenv("SMD_APISERVER_URL"), os.Getenv("SMD_APISERVER_TOKEN")
	ca, err := os.ReadFile(os.Getenv("SMD_APISERVER_CA"))
	if err != nil || url == "" || token == "" {
		return nil, fmt.Errorf("SMD_APISERVER_URL, SMD_APISERVER_TOKEN and SMD_APISERVER_CA must name a running server (%v)", err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca)
	srv := &server{url: url, token: token, client: &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}}
	if err := srv.discover(); err != nil {
		return nil, err
	}
	return srv, nil
}

func (s *server) do(method, path string, body []byte) (int, []byte, error) {
	req, err := http.NewRequest(method, s.url+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, data, err
}

func (s *server) get(path string, into interface{}) error {
	status, data, err := s.do(http.MethodGet, path, nil)
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("GET %s: %d", path, status)
	}
	return json.Unmarshal(data, into)
}

func (s *server) discover() error {
	type resourceList struct {
		Resources []struct {
			Name       string `json:"name"`
			Kind       string `json:"kind"`
			Namespaced bool   `json:"namespaced"`
		} `json:"resources"`
	}
	add := func(group, version, path string) error {
		var list resourceList
		if err := s.get(path, &list); err != nil {
			return err
		}
		for _, r := range list.Resources {
			if strings.Contains(r.Name, "/") {
				continue
			}
			s.kinds = append(s.kinds, servedKind{Group: group, Version: version, Kind: r.Kind, Resource: r.Name, Namespaced: r.Namespaced})
		}
		return nil
	}
	if err := add("", "v1", "/api/v1"); err != nil {
		return err
	}
	var groups struct {
		Groups []struct {
			Name     string `json:"name"`
			Versions []struct {
				Version string `json:"version"`
			} `json:"versions"`
		} `json:"groups"`
	}
	if err := s.get("/apis", &groups); err != nil {
		return err
	}
	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			if err := add(g.Name, v.Version, "/apis/"+g.Name+"/"+v.Version); err != nil {
				return err
			}
		}
	}
	sort.Slice(s.kinds, func(i, j int) bool {
		a, b := s.kinds[i], s.kinds[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Kind < b.Kind
	})
	return nil
}

// The namespace dry-run requests go to, and the service accounts its Pods name.
const confirmNamespace = "smd-scheme"

var confirmServiceAccounts = []string{"default", "legacy", "sa"}

func (s *server) prepare() error {
	ensure := func(path string, body string) error {
		status, data, err := s.do(http.MethodPost, path, []byte(body))
		if err != nil {
			return err
		}
		if status != http.StatusCreated && status != http.StatusConflict {
			return fmt.Errorf("POST %s: %d %s", path, status, data)
		}
		return nil
	}
	if err := ensure("/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"`+confirmNamespace+`"}}`); err != nil {
		return err
	}
	for _, sa := range confirmServiceAccounts {
		if err := ensure("/api/v1/namespaces/"+confirmNamespace+"/serviceaccounts", `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"`+sa+`"}}`); err != nil {
			return err
		}
	}
	return nil
}

var prepared bool

// dryRun POSTs object with dryRun=All and returns the server's answer, normalised; a refusal is
// an error (a case asking for the server must be an object the server takes).
func (s *server) dryRun(object map[string]interface{}) (interface{}, error) {
	if !prepared {
		if err := s.prepare(); err != nil {
			return nil, err
		}
		prepared = true
	}
	apiVersion, _ := object["apiVersion"].(string)
	kind, _ := object["kind"].(string)
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, err
	}
	var path string
	for _, k := range s.kinds {
		if k.Group == gv.Group && k.Version == gv.Version && k.Kind == kind {
			prefix := "/apis/" + gv.Group + "/" + gv.Version
			if gv.Group == "" {
				prefix = "/api/v1"
			}
			if k.Namespaced {
				prefix += "/namespaces/" + confirmNamespace
			}
			path = prefix + "/" + k.Resource + "?dryRun=All"
		}
	}
	if path == "" {
		return nil, fmt.Errorf("%s %s is not served", apiVersion, kind)
	}
	body, err := json.Marshal(object)
	if err != nil {
		return nil, err
	}
	status, data, err := s.do(http.MethodPost, path, body)
	if err != nil {
		return nil, err
	}
	if status != http.StatusCreated {
		return nil, fmt.Errorf("POST %s: %d %s", path, status, data)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v interface{}
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return normaliseDryRun(v), nil
}

// normaliseDryRun removes or replaces what no server can reproduce: the metadata the server
// keeps (uid, creationTimestamp, resourceVersion, generation, managedFields, the namespace it
// was sent to), the uid wherever it is repeated (a Job's labels and selector), the addresses and
// ports the server allocates, and the times it takes from its clock.
func normaliseDryRun(v interface{}) interface{} {
	obj, ok := v.(map[string]interface{})
	if !ok {
		return v
	}
	uid := ""
	if meta, ok := obj["metadata"].(map[string]interface{}); ok {
		uid, _ = meta["uid"].(string)
		for _, k := range []string{"uid", "creationTimestamp", "resourceVersion", "generation", "managedFields", "namespace"} {
			delete(meta, k)
		}
	}
	var walk func(key string, v interface{}) interface{}
	walk = func(key string, v interface{}) interface{} {
		switch x := v.(type) {
		case map[string]interface{}:
			for k, y := range x {
				x[k] = walk(k, y)
			}
		case []interface{}:
			for i, y := range x {
				x[i] = walk(key, y)
			}
		case string:
			switch {
			case uid != "" && x == uid:
				return "<uid>"
			case key == "clusterIP" || key == "clusterIPs":
				if x != "None" && x != "" {
					return "<allocated>"
				}
			case key == "lastPhaseTransitionTime" || key == "timeAdded":
				return "<now>"
			case strings.HasPrefix(x, "kube-api-access-"):
				// The token volume admission adds to a Pod, with a random suffix.
				return "kube-api-access-<generated>"
			}
		case json.Number:
			if key == "nodePort" || key == "healthCheckNodePort" {
				return "<allocated>"
			}
		}
		return v
	}
	return walk("", obj)
}

// served prints the kinds and versions the running server serves.
func served() error {
	srv, err := connect()
	if err != nil {
		return err
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	return enc.Encode(map[string]interface{}{
		"format":    "smd-scheme-served/v1",
		"generator": map[string]string{"kube-apiserver": kubernetesVersion},
		"kinds":     srv.kinds,
	})
}
