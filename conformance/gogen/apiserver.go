package main

// gogen apiserver: every apiserver scenario (conformance/apiserver/scenarios/*.yaml, a list of
// HTTP requests per case) is replayed against a running kube-apiserver (the one
// conformance/apiserver/start runs: SMD_APISERVER_URL, SMD_APISERVER_TOKEN, SMD_APISERVER_CA)
// and the server's answers become goldens (conformance/apiserver/goldens/*.json).
//
// What no server can reproduce is normalised, per case (see normaliser): uids, resource
// versions and server-allocated values become placeholders numbered by their order of
// appearance, and every time becomes the step that wrote it. That last one is exact, not
// guessed: each step starts in a second no earlier step of its case used, so a time names its
// step.

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	yaml "go.yaml.in/yaml/v2"
)

const (
	apiserverScenarioFormat = "smd-apiserver-scenarios/v1"
	apiserverGoldenFormat   = "smd-apiserver-goldens/v1"
	// The only server whose answers are goldens (conformance/apiserver/build pins it).
	apiserverVersion = "v1.37.2"
	// The User-Agent of every request that names none: its product, the manager of a request
	// without fieldManager.
	defaultUserAgent = "smd-conformance/v1 (gogen)"
)

type apiserverFile struct {
	Format string          `yaml:"format"`
	CRDs   []any           `yaml:"crds"`
	Cases  []apiserverCase `yaml:"cases"`
}

type apiserverCase struct {
	Name string `yaml:"name"`
	Note string `yaml:"note"`
	// Create ServiceAccount "default" in the case's namespace before the steps (no controller
	// makes it, and Pods need it).
	ServiceAccount bool            `yaml:"serviceAccount"`
	Steps          []apiserverStep `yaml:"steps"`
}

type apiserverStep struct {
	Note        string         `yaml:"note"`
	Method      string         `yaml:"method"`
	Path        string         `yaml:"path"`
	Query       map[string]any `yaml:"query"`
	ContentType string         `yaml:"contentType"`
	UserAgent   string         `yaml:"userAgent"`
	Body        any            `yaml:"body"`
	BodyText    *string        `yaml:"bodyText"`
	Stored      bool           `yaml:"stored"`
}

// The projected token volume admission adds to a Pod: kube-api-access-<5 random characters>.
var serviceAccountVolume = regexp.MustCompile(`^(kube-api-access-)[b-df-hj-np-tv-z2-9]{5}$`)

// serviceAccountVolumeInText finds the token volume's name inside a longer text (a refusal
// quoting the pod spec it compared).
var serviceAccountVolumeInText = regexp.MustCompile(`kube-api-access-[b-df-hj-np-tv-z2-9]{5}`)

// A refusal's message can hold the object it refused, written as JSON text (a patch that did
// not decode), or the version a precondition met in storage ("ResourceVersion in record (N)",
// the Namespace registry's "ResourceVersion in object meta: N"): those resourceVersions and times
// are the server's as much as the object's own are.
var (
	embeddedVersion = regexp.MustCompile(`"resourceVersion\\*":\\*"([0-9]+)`)
	embeddedTime    = regexp.MustCompile(`"(?:creationTimestamp|deletionTimestamp|time)\\*":\\*"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)`)
	recordVersion   = regexp.MustCompile(`ResourceVersion in (?:record \(|object meta: )([0-9]+)`)
	// A watch from a version the watch cache no longer holds: the version asked for, then the
	// oldest the cache could start from (its own, moved by every case's writes).
	tooOldVersion = regexp.MustCompile(`too old resource version: ([0-9]+) \(([0-9]+)\)`)
)

// The placeholder of the oldest version a watch cache holds.
const oldestVersion = "<oldest resourceVersion>"

// A reference as a body holds it: a whole JSON string.
var quotedReference = regexp.MustCompile(`"\{(?:resourceVersion|continue)(?:@[0-9]+)?\}"`)

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

type apiClient struct {
	base  string
	token string
	http  *http.Client
}

func newAPIClient() (*apiClient, error) {
	base, token, caFile := os.Getenv("SMD_APISERVER_URL"), os.Getenv("SMD_APISERVER_TOKEN"), os.Getenv("SMD_APISERVER_CA")
	if base == "" || token == "" || caFile == "" {
		return nil, errors.New("SMD_APISERVER_URL, SMD_APISERVER_TOKEN and SMD_APISERVER_CA must be set (source the env file conformance/apiserver/start writes)")
	}
	ca, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		return nil, fmt.Errorf("%s holds no PEM certificate", caFile)
	}
	transport := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}, MaxIdleConnsPerHost: 16}
	return &apiClient{base: strings.TrimSuffix(base, "/"), token: token, http: &http.Client{Transport: transport, Timeout: 60 * time.Second}}, nil
}

type apiResponse struct {
	status   int
	body     []byte
	warnings []string
}

func (c *apiClient) do(method, path, contentType, userAgent string, body []byte) (apiResponse, error) {
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, c.base+path, reader)
	if err != nil {
		return apiResponse{}, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Accept", "application/json")
	if userAgent == "" {
		userAgent = defaultUserAgent
	}
	req.Header.Set("User-Agent", userAgent)
	if body != nil {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return apiResponse{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return apiResponse{}, err
	}
	return apiResponse{status: resp.StatusCode, body: data, warnings: resp.Header.Values("Warning")}, nil
}

// must is do for the generator's own requests, which must succeed with one of ok.
func (c *apiClient) must(method, path string, body []byte, ok ...int) ([]byte, error) {
	r, err := c.do(method, path, "application/json", "", body)
	if err != nil {
		return nil, err
	}
	for _, code := range ok {
		if r.status == code {
			return r.body, nil
		}
	}
	return nil, fmt.Errorf("%s %s: HTTP %d: %s", method, path, r.status, bytes.TrimSpace(r.body))
}

func runAPIServer(args []string) int {
	if len(args) > 0 && args[0] == "serve" {
		return runAPIServerServe(args[1:])
	}
	fs := flag.NewFlagSet("apiserver", flag.ContinueOnError)
	scenarios := fs.String("scenarios", "", "scenario directory (default ../apiserver/scenarios from the module directory)")
	goldens := fs.String("goldens", "", "golden directory (default ../apiserver/goldens from the module directory)")
	parallel := fs.Int("parallel", 32, "cases replayed at once (each waits for fresh seconds, so this hides the waits)")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || *parallel < 1 {
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
	if *scenarios == "" || *goldens == "" {
		dir, err := moduleDir()
		if err != nil {
			fmt.Fprintf(os.Stderr, "gogen: %v; pass --scenarios and --goldens\n", err)
			return 2
		}
		if *scenarios == "" {
			*scenarios = filepath.Join(dir, "..", "apiserver", "scenarios")
		}
		if *goldens == "" {
			*goldens = filepath.Join(dir, "..", "apiserver", "goldens")
		}
	}
	if err := apiserverGenerate(*scenarios, *goldens, *parallel); err != nil {
		fmt.Fprintf(os.Stderr, "gogen apiserver: %v\n", err)
		return 1
	}
	return 0
}

type loadedFile struct {
	rel  string
	file apiserverFile
}

func apiserverGenerate(scenarioDir, goldenDir string, parallel int) error {
	client, err := newAPIClient()
	if err != nil {
		return err
	}
	versionBody, err := client.must("GET", "/version", nil, 200)
	if err != nil {
		return err
	}
	var version struct {
		GitVersion string `json:"gitVersion"`
	}
	if err := json.Unmarshal(versionBody, &version); err != nil {
		return fmt.Errorf("/version: %v", err)
	}
	if version.GitVersion != apiserverVersion {
		return fmt.Errorf("the server is %s; goldens are %s's answers", version.GitVersion, apiserverVersion)
	}
	fmt.Printf("gogen apiserver: kube-apiserver %s at %s, scenarios %s -> goldens %s\n",
		version.GitVersion, client.base, filepath.Clean(scenarioDir), filepath.Clean(goldenDir))

	rels, err := scenarioFiles(scenarioDir)
	if err != nil {
		return err
	}
	if len(rels) == 0 {
		return fmt.Errorf("no scenario files under %s", scenarioDir)
	}
	var files []loadedFile
	names := map[string]string{}
	crds := map[string][]byte{}
	var crdOrder []string
	for _, rel := range rels {
		f, err := loadAPIServerFile(filepath.Join(scenarioDir, rel))
		if err != nil {
			return fmt.Errorf("%s: %v", rel, err)
		}
		for _, c := range f.Cases {
			if other, dup := names[c.Name]; dup {
				return fmt.Errorf("%s: case %q: the name is taken by %s (a case's name is its namespace: unique across files)", rel, c.Name, other)
			}
			names[c.Name] = rel
		}
		for i, crd := range f.CRDs {
			body, name, err := jsonBody(crd)
			if err != nil || name == "" {
				return fmt.Errorf("%s: crds[%d]: not an object with metadata.name (%v)", rel, i, err)
			}
			if old, seen := crds[name]; seen && !bytes.Equal(old, body) {
				return fmt.Errorf("%s: CRD %s differs from the one another file declares", rel, name)
			} else if !seen {
				crds[name] = body
				crdOrder = append(crdOrder, name)
			}
		}
		files = append(files, loadedFile{rel, f})
	}
	for _, name := range crdOrder {
		if err := createCRD(client, name, crds[name]); err != nil {
			return fmt.Errorf("CRD %s: %v", name, err)
		}
	}

	type job struct {
		file, index int
	}
	type outcome struct {
		result jObject
		err    error
	}
	results := make([][]outcome, len(files))
	jobs := make(chan job)
	var wg sync.WaitGroup
	for w := 0; w < parallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				r, err := replayAPIServerCase(client, files[j.file].file.Cases[j.index])
				results[j.file][j.index] = outcome{r, err}
			}
		}()
	}
	for fi, f := range files {
		results[fi] = make([]outcome, len(f.file.Cases))
	}
	for fi, f := range files {
		for ci := range f.file.Cases {
			jobs <- job{fi, ci}
		}
	}
	close(jobs)
	wg.Wait()

	problems := 0
	wanted := map[string]bool{}
	written, unchanged, cases := 0, 0, 0
	for fi, f := range files {
		out := jObject{}
		bad := false
		for ci, c := range f.file.Cases {
			o := results[fi][ci]
			if o.err != nil {
				fmt.Printf("gogen apiserver: ERROR %s: case %q: %v\n", f.rel, c.Name, o.err)
				problems++
				bad = true
				continue
			}
			out[c.Name] = o.result
			cases++
		}
		goldenRel := strings.TrimSuffix(f.rel, ".yaml") + ".json"
		wanted[goldenRel] = true
		if bad {
			continue
		}
		text, err := writeJSON(jObject{
			"format":    apiserverGoldenFormat,
			"generator": jObject{"kube-apiserver": apiserverVersion},
			"results":   out,
		}, true)
		if err != nil {
			return err
		}
		changed, err := writeIfChanged(filepath.Join(goldenDir, goldenRel), text)
		if err != nil {
			return err
		}
		if changed {
			written++
			fmt.Printf("gogen apiserver: wrote %s\n", filepath.ToSlash(filepath.Join(goldenDir, goldenRel)))
		} else {
			unchanged++
		}
	}
	removed, err := removeStaleAPIServerGoldens(goldenDir, wanted)
	if err != nil {
		return err
	}
	fmt.Printf("gogen apiserver: %d scenario files, %d cases, %d goldens written, %d unchanged, %d stale removed, %d problems\n",
		len(files), cases, written, unchanged, removed, problems)
	if problems > 0 {
		return fmt.Errorf("%d problems", problems)
	}
	return nil
}

func loadAPIServerFile(path string) (apiserverFile, error) {
	var f apiserverFile
	data, err := os.ReadFile(path)
	if err != nil {
		return f, err
	}
	if err := yaml.UnmarshalStrict(data, &f); err != nil {
		return f, fmt.Errorf("not a valid scenario file: %v", err)
	}
	if f.Format != apiserverScenarioFormat {
		return f, fmt.Errorf("format is %q, expected %q", f.Format, apiserverScenarioFormat)
	}
	if len(f.Cases) == 0 {
		return f, errors.New("no cases")
	}
	for _, c := range f.Cases {
		if err := validateAPIServerCase(c); err != nil {
			return f, err
		}
	}
	return f, nil
}

// validateAPIServerCase checks what replayAPIServerCase relies on.
func validateAPIServerCase(c apiserverCase) error {
	if !dnsLabel.MatchString(c.Name) || c.Name == "default" || strings.HasPrefix(c.Name, "kube-") {
		return fmt.Errorf("case %q: a name must be a DNS label (it is the case's namespace), not default or kube-*", c.Name)
	}
	if len(c.Steps) == 0 {
		return fmt.Errorf("case %q: no steps", c.Name)
	}
	for i, s := range c.Steps {
		switch s.Method {
		case "GET", "POST", "PUT", "PATCH", "DELETE":
		default:
			return fmt.Errorf("case %q: steps[%d]: method %q", c.Name, i, s.Method)
		}
		if !strings.HasPrefix(s.Path, "/") || strings.Contains(s.Path, "?") {
			return fmt.Errorf("case %q: steps[%d]: path %q must start with / and hold no query (use query:)", c.Name, i, s.Path)
		}
		if s.Body != nil && s.BodyText != nil {
			return fmt.Errorf("case %q: steps[%d]: body and bodyText exclude each other", c.Name, i)
		}
		if s.Method == "PATCH" && s.ContentType == "" {
			return fmt.Errorf("case %q: steps[%d]: a PATCH needs a contentType", c.Name, i)
		}
		for k, v := range s.Query {
			switch v.(type) {
			case string, bool, int:
			default:
				return fmt.Errorf("case %q: steps[%d]: query %s: a string, bool or int, not %T", c.Name, i, k, v)
			}
			if err := checkReferences(fmt.Sprint(v), i); err != nil {
				return fmt.Errorf("case %q: steps[%d]: query %s: %v", c.Name, i, k, err)
			}
		}
		if isWatch(s.Query) || watchPath.MatchString(s.Path) {
			// Without a timeout the server holds the stream open for minutes (its
			// --min-request-timeout, drawn at random): the step's answer would be timing.
			if s.Method != "GET" {
				return fmt.Errorf("case %q: steps[%d]: a watch is a GET", c.Name, i)
			}
			t, ok := s.Query["timeoutSeconds"]
			if n, err := strconv.Atoi(fmt.Sprint(t)); !ok || err != nil || n < 1 || n > 5 {
				return fmt.Errorf("case %q: steps[%d]: a watch needs timeoutSeconds, 1 to 5 (the server ends the stream then)", c.Name, i)
			}
		}
		if s.Body != nil {
			if err := checkReferences(fmt.Sprint(s.Body), i); err != nil {
				return fmt.Errorf("case %q: steps[%d]: body: %v", c.Name, i, err)
			}
		}
	}
	return nil
}

// The deprecated watch paths: /api/v1/watch/..., /apis/GROUP/VERSION/watch/....
var watchPath = regexp.MustCompile(`^(/(?:api/[^/]+|apis/[^/]+/[^/]+))/watch/`)

// isWatch says whether a query asks for a watch, as the server reads `watch` (a bool
// parameter: present and neither "0" nor "false", in any case, is true).
func isWatch(query map[string]any) bool {
	v, ok := query["watch"]
	if !ok {
		return false
	}
	s := fmt.Sprint(v)
	return s != "0" && !strings.EqualFold(s, "false")
}

// A reference to what an earlier step answered, substituted into query values and bodies:
// {resourceVersion} is the latest resourceVersion of an object the case has seen (what an
// update names; a list's would make it a conflict), {resourceVersion@K} the one step K (from 1)
// answered: its list's, else the latest object's when it ended. {continue} is the latest list's
// continue token, {continue@K} step K's.
var stepReference = regexp.MustCompile(`\{(resourceVersion|continue)(?:@([0-9]+))?\}`)

// checkReferences refuses a reference to step 0, to a later step or to the step itself (index
// i, from 0).
func checkReferences(text string, i int) error {
	for _, m := range stepReference.FindAllStringSubmatch(text, -1) {
		if m[2] == "" {
			continue
		}
		k, err := strconv.Atoi(m[2])
		if err != nil || k < 1 || k > i {
			return fmt.Errorf("%s names no earlier step", m[0])
		}
	}
	return nil
}

// seen is what the steps of a case answered that later steps may name.
type seen struct {
	version, cont string
	// The list the current step answered, if any: its resourceVersion.
	listVersion string
	// after[k-1]: what {resourceVersion@k} and {continue@k} stand for.
	after []struct{ version, cont string }
}

// note records an answer: an object's resourceVersion, a list's and its continue token.
func (s *seen) note(v any) {
	m, ok := v.(jObject)
	if ok && isList(m) {
		meta, _ := m["metadata"].(jObject)
		s.listVersion, _ = meta["resourceVersion"].(string)
		s.cont, _ = meta["continue"].(string)
		return
	}
	s.version = resourceVersionOf(v, s.version)
}

func (s *seen) endStep() {
	v := s.version
	if s.listVersion != "" {
		v = s.listVersion
	}
	s.after = append(s.after, struct{ version, cont string }{v, s.cont})
	s.listVersion = ""
}

// substitute replaces the references in text; quote writes each value as a JSON string
// (a reference in a body is a whole JSON string: "{resourceVersion}").
func (s *seen) substitute(text string, quote bool) string {
	return stepReference.ReplaceAllStringFunc(text, func(ref string) string {
		m := stepReference.FindStringSubmatch(ref)
		version, cont := s.version, s.cont
		if m[2] != "" {
			k, _ := strconv.Atoi(m[2])
			if k >= 1 && k <= len(s.after) {
				version, cont = s.after[k-1].version, s.after[k-1].cont
			}
		}
		v := version
		if m[1] == "continue" {
			v = cont
		}
		if quote {
			return strconv.Quote(v)
		}
		return v
	})
}

// jsonBody turns a YAML body into the JSON a client sends, and names the object.
func jsonBody(v any) ([]byte, string, error) {
	tree, err := plainTree("body", v)
	if err != nil {
		return nil, "", err
	}
	body, err := json.Marshal(tree)
	if err != nil {
		return nil, "", err
	}
	name := ""
	if m, ok := tree.(map[string]any); ok {
		if meta, ok := m["metadata"].(map[string]any); ok {
			name, _ = meta["name"].(string)
		}
	}
	return body, name, nil
}

// createCRD creates a CRD and waits until every served version answers a list and takes
// applies, so that the first case using it sees a ready handler.
func createCRD(c *apiClient, name string, body []byte) error {
	if _, err := c.must("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", body, 201); err != nil {
		return err
	}
	var crd struct {
		Spec struct {
			Group string `json:"group"`
			Names struct {
				Plural string `json:"plural"`
			} `json:"names"`
			Versions []struct {
				Name   string `json:"name"`
				Served bool   `json:"served"`
			} `json:"versions"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(body, &crd); err != nil {
		return err
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, v := range crd.Spec.Versions {
		if !v.Served {
			continue
		}
		path := fmt.Sprintf("/apis/%s/%s/%s", crd.Spec.Group, v.Name, crd.Spec.Names.Plural)
		for {
			r, err := c.do("GET", path, "", "", nil)
			if err == nil && r.status == 200 {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("%s not served after 30 s", path)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	// The handler serves lists before its apply path has the CRD's schema everywhere; the
	// record of the Scale cases (smd/tests/data/scale-real-server) found one second enough.
	time.Sleep(time.Second)
	return nil
}

// stepClock gives each step of a case its own seconds.
type stepClock struct {
	last  int64 // the last second used
	steps []struct{ from, to int64 }
}

func (s *stepClock) begin() int64 {
	for {
		now := time.Now().Unix()
		if now > s.last {
			return now
		}
		time.Sleep(time.Until(time.Unix(s.last+1, 0)) + 5*time.Millisecond)
	}
}

func (s *stepClock) end(from int64) {
	to := time.Now().Unix()
	s.steps = append(s.steps, struct{ from, to int64 }{from, to})
	s.last = to
}

// label names the step that wrote a time (the API server writes whole seconds).
func (s *stepClock) label(t string) (string, error) {
	parsed, err := time.Parse(time.RFC3339, t)
	if err != nil {
		return "", fmt.Errorf("time %q: %v", t, err)
	}
	sec := parsed.Unix()
	for i, st := range s.steps {
		if sec >= st.from && sec <= st.to {
			return fmt.Sprintf("<step %d>", i+1), nil
		}
	}
	if len(s.steps) == 0 || sec < s.steps[0].from {
		return "<before step 1>", nil
	}
	return "", fmt.Errorf("time %s was written by no step", t)
}

func replayAPIServerCase(c *apiClient, cs apiserverCase) (jObject, error) {
	ns := cs.Name
	nsBody := fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q}}`, ns)
	if _, err := c.must("POST", "/api/v1/namespaces", []byte(nsBody), 201); err != nil {
		return nil, err
	}
	if cs.ServiceAccount {
		sa := `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"default"}}`
		if _, err := c.must("POST", "/api/v1/namespaces/"+ns+"/serviceaccounts", []byte(sa), 201); err != nil {
			return nil, err
		}
	}
	clock := &stepClock{last: time.Now().Unix()}
	norm := newNormaliser()
	type raw struct {
		status       int
		body, stored any
		hasStored    bool
		warnings     []string
	}
	var raws []raw
	answered := &seen{}
	for i, s := range cs.Steps {
		path := strings.ReplaceAll(s.Path, "{namespace}", ns)
		var body []byte
		requestedName := ""
		contentType := s.ContentType
		if contentType == "" {
			contentType = "application/json"
		}
		switch {
		case s.BodyText != nil:
			body = []byte(*s.BodyText)
		case s.Body != nil:
			b, name, err := jsonBody(s.Body)
			if err != nil {
				return nil, fmt.Errorf("steps[%d]: %v", i, err)
			}
			// A body may name the case's namespace (a Namespace object's name, for one).
			requestedName = strings.ReplaceAll(name, "{namespace}", ns)
			b = bytes.ReplaceAll(b, []byte("{namespace}"), []byte(ns))
			// A body may name a resourceVersion (an update of a custom resource needs one):
			// the latest the case has seen, or the one of an earlier step.
			body = quotedReference.ReplaceAllFunc(b, func(ref []byte) []byte {
				return []byte(answered.substitute(string(ref[1:len(ref)-1]), true))
			})
			norm.requested(s.Body)
		}
		query := url.Values{}
		for k, v := range s.Query {
			// A value may name the case's namespace (a field selector) or an earlier answer.
			query.Set(k, answered.substitute(strings.ReplaceAll(fmt.Sprint(v), "{namespace}", ns), false))
		}
		target := path
		if len(query) > 0 {
			target += "?" + query.Encode()
		}
		watch := isWatch(s.Query) || watchPath.MatchString(s.Path)
		var from int64
		if s.Method == "GET" {
			// A read writes no time: it needs no second of its own (a time in a second it
			// shares with the step before is that step's, the first whose seconds hold it).
			from = time.Now().Unix()
		} else {
			from = clock.begin()
		}
		if rv, _ := s.Query["resourceVersion"].(string); s.Method == "GET" && (watch || rv == "0") {
			// A consistent list first: it returns once the watch cache has caught up with
			// etcd, so that a watch, or a read from the cache at any version (0), starts from
			// everything the earlier steps wrote, not from a cache a few milliseconds behind.
			// Its answer does not matter (a path the server does not serve lists nothing).
			list := watchPath.ReplaceAllString(path, "$1/") + "?limit=1"
			if _, err := c.do("GET", list, "", "", nil); err != nil {
				return nil, fmt.Errorf("steps[%d]: the list before the read: %v", i, err)
			}
		}
		resp, err := c.do(s.Method, target, contentType, s.UserAgent, body)
		if err != nil {
			return nil, fmt.Errorf("steps[%d]: %v", i, err)
		}
		r := raw{status: resp.status, warnings: resp.warnings}
		if watch && resp.status == 200 && isEventStream(resp.body) {
			events, err := watchEvents(resp.body, s.Query)
			if err != nil {
				return nil, fmt.Errorf("steps[%d]: %v", i, err)
			}
			r.body = events
		} else {
			r.body = decodeResponse(resp.body)
		}
		answered.note(r.body)
		if s.Stored {
			get, err := storedPath(s.Method, path, r.body, requestedName)
			if err != nil {
				return nil, fmt.Errorf("steps[%d]: %v", i, err)
			}
			g, err := c.do("GET", get, "", "", nil)
			if err != nil {
				return nil, fmt.Errorf("steps[%d]: GET %s: %v", i, get, err)
			}
			if g.status == 200 {
				r.stored = decodeResponse(g.body)
				answered.note(r.stored)
			} else {
				r.stored = jObject{"status": int64(g.status), "body": decodeResponse(g.body)}
			}
			r.hasStored = true
		}
		clock.end(from)
		answered.endStep()
		raws = append(raws, r)
	}
	// Normalised once every step is done: placeholders are numbered in step order, body
	// before stored object.
	steps := make([]any, 0, len(raws))
	for i, r := range raws {
		step := jObject{"status": int64(r.status)}
		body, err := norm.normalise(r.body, clock)
		if err != nil {
			return nil, fmt.Errorf("steps[%d]: response: %v", i, err)
		}
		step["body"] = body
		if r.hasStored {
			stored, err := norm.normalise(r.stored, clock)
			if err != nil {
				return nil, fmt.Errorf("steps[%d]: stored: %v", i, err)
			}
			step["stored"] = stored
		}
		if len(r.warnings) > 0 {
			w := make([]any, len(r.warnings))
			for j, s := range r.warnings {
				w[j] = s
			}
			step["warnings"] = w
		}
		steps = append(steps, step)
	}
	// A namespace left behind holds nothing another case sees; deleting it would only cost time.
	return jObject{"steps": steps}, nil
}

// The annotation of the bookmark that ends a watch's initial events (sendInitialEvents).
const initialEventsEnd = "k8s.io/initial-events-end"

// watchEvents reads a watch's stream (one JSON event after another) into the step's answer, a
// list of events. Bookmarks come when the server's timers say (every minute, shortly before the
// timeout): timing, not what the watch means, so they are dropped; the one ending the initial
// events stays, it is the answer to sendInitialEvents. A bookmark the watch did not ask for
// (allowWatchBookmarks) is the server breaking its contract: an error.
func watchEvents(data []byte, query map[string]any) ([]any, error) {
	allowed := false
	if v, ok := query["allowWatchBookmarks"]; ok {
		s := fmt.Sprint(v)
		allowed = s != "0" && !strings.EqualFold(s, "false")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	events := []any{}
	for dec.More() {
		v, err := decodeValue(dec)
		if err != nil {
			return nil, fmt.Errorf("the watch stream: %v (%q)", err, data)
		}
		e, ok := v.(jObject)
		if !ok {
			return nil, fmt.Errorf("the watch stream holds %T, not an event", v)
		}
		switch e["type"] {
		case "ADDED", "MODIFIED", "DELETED", "ERROR":
		case "BOOKMARK":
			if !allowed {
				return nil, errors.New("a BOOKMARK event on a watch that did not ask for them (allowWatchBookmarks)")
			}
			obj, _ := e["object"].(jObject)
			meta, _ := obj["metadata"].(jObject)
			annotations, _ := meta["annotations"].(jObject)
			if annotations[initialEventsEnd] != "true" {
				continue
			}
		default:
			return nil, fmt.Errorf("an event of type %v", e["type"])
		}
		events = append(events, e)
	}
	return events, nil
}

// isEventStream says whether a watch's answer is a stream of events (empty, or starting with
// an object whose members are type and object): a GET of one object with watch=true is a plain
// GET, answered by the object (the Content-Type of both is application/json).
func isEventStream(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	if !dec.More() {
		return len(bytes.TrimSpace(data)) == 0
	}
	var first map[string]json.RawMessage
	if err := dec.Decode(&first); err != nil {
		return false
	}
	_, typ := first["type"]
	_, obj := first["object"]
	return len(first) == 2 && typ && obj
}

// isList says whether an answer is a list (kind <Kind>List with items).
func isList(m jObject) bool {
	kind, _ := m["kind"].(string)
	_, items := m["items"]
	return items && strings.HasSuffix(kind, "List")
}

// The placeholders of what a collection's revision names: a list's resourceVersion and a
// bookmark's are etcd's revision when it was read, which every write of every case moves; a
// continue token holds one.
const (
	collectionVersion = "<collection resourceVersion>"
	continueToken     = "<continue>"
)

// collection replaces, in a list or a bookmark event, the values naming the collection's
// revision, before anything else is walked (they must take no placeholder number).
func collection(m jObject) jObject {
	list := isList(m)
	bookmark := m["type"] == "BOOKMARK"
	if !list && !bookmark {
		return m
	}
	out := jObject{}
	for k, v := range m {
		out[k] = v
	}
	set := func(holder jObject) jObject {
		meta, ok := holder["metadata"].(jObject)
		if !ok {
			return holder
		}
		c := jObject{}
		for k, v := range meta {
			c[k] = v
		}
		if rv, ok := c["resourceVersion"].(string); ok && rv != "" {
			c["resourceVersion"] = collectionVersion
		}
		if t, ok := c["continue"].(string); ok && t != "" {
			c["continue"] = continueToken
		}
		h := jObject{}
		for k, v := range holder {
			h[k] = v
		}
		h["metadata"] = c
		return h
	}
	if list {
		return set(out)
	}
	if obj, ok := out["object"].(jObject); ok {
		out["object"] = set(obj)
	}
	return out
}

// resourceVersionOf is an object's metadata.resourceVersion, else old.
func resourceVersionOf(v any, old string) string {
	if m, ok := v.(jObject); ok {
		if meta, ok := m["metadata"].(jObject); ok {
			if rv, ok := meta["resourceVersion"].(string); ok && rv != "" {
				return rv
			}
		}
	}
	return old
}

// storedPath is where the object a step wrote is read: the step's path without a subresource,
// or, for a create, the collection's path and the name the server gave (the request's name when
// the server refused it).
func storedPath(method, path string, body any, requested string) (string, error) {
	if method == "POST" {
		name := requested
		if m, ok := body.(jObject); ok && m["kind"] != "Status" {
			if meta, ok := m["metadata"].(jObject); ok {
				if n, ok := meta["name"].(string); ok {
					name = n
				}
			}
		}
		if name == "" {
			return "", errors.New("stored: a create answered no object and named none")
		}
		return path + "/" + name, nil
	}
	for _, sub := range []string{"/status", "/scale"} {
		if strings.HasSuffix(path, sub) {
			return strings.TrimSuffix(path, sub), nil
		}
	}
	return path, nil
}

// decodeResponse keeps a JSON answer as a tree with the server's numbers verbatim and each
// managedFields entry's fieldsV1 as the exact bytes the server sent (a string: its order and
// spelling are part of the answer); anything else as {"text": ...}.
func decodeResponse(data []byte) any {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil || dec.More() {
		return jObject{"text": string(data)}
	}
	if _, err := dec.Token(); err != io.EOF {
		return jObject{"text": string(data)}
	}
	return v
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			out := jObject{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := k.(string)
				if key == "fieldsV1" {
					var raw json.RawMessage
					if err := dec.Decode(&raw); err != nil {
						return nil, err
					}
					out[key] = string(raw)
					continue
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				out[key] = v
			}
			_, err := dec.Token()
			return out, err
		case '[':
			out := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			_, err := dec.Token()
			return out, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	case json.Number:
		return jNumber(t.String()), nil
	}
	return tok, nil
}

// normaliser maps what no server reproduces to placeholders, consistently within a case.
type normaliser struct {
	uids      map[string]string
	versions  map[string]string
	allocated map[string]map[string]string // by key (clusterIP, nodePort, ...)
	generated map[string]string
	// names made from generateName, as written: other fields repeat them (a Job's labels)
	generatedNames map[string]string
	explicit       map[string]bool // values the requests themselves set at allocated keys
}

// The keys whose values the server allocates; clusterIPs shares clusterIP's numbering.
var allocatedKeys = map[string]string{
	"clusterIP": "clusterIP", "clusterIPs": "clusterIP", "nodePort": "nodePort", "healthCheckNodePort": "nodePort",
}

func newNormaliser() *normaliser {
	return &normaliser{uids: map[string]string{}, versions: map[string]string{}, allocated: map[string]map[string]string{},
		generated: map[string]string{}, generatedNames: map[string]string{}, explicit: map[string]bool{}}
}

// requested notes the values a request sets at the allocated keys: a value the client chose
// is reproducible and stays.
func (n *normaliser) requested(v any) {
	switch t := v.(type) {
	case map[any]any:
		for k, e := range t {
			if ks, ok := k.(string); ok {
				if _, alloc := allocatedKeys[ks]; alloc {
					for _, s := range scalars(e) {
						n.explicit[s] = true
					}
				}
			}
			n.requested(e)
		}
	case []any:
		for _, e := range t {
			n.requested(e)
		}
	}
}

func scalars(v any) []string {
	switch t := v.(type) {
	case []any:
		var out []string
		for _, e := range t {
			out = append(out, scalars(e)...)
		}
		return out
	case nil:
		return nil
	}
	return []string{fmt.Sprint(v)}
}

func placeholder(m map[string]string, kind, value string) string {
	if p, ok := m[value]; ok {
		return p
	}
	p := fmt.Sprintf("<%s %d>", kind, len(m)+1)
	m[value] = p
	return p
}

func (n *normaliser) normalise(v any, clock *stepClock) (any, error) {
	// First pass: number the uids and generated names in order (sorted keys: a deterministic
	// walk), so that messages and labels naming them can be rewritten too.
	n.collectUIDs(v)
	return n.walk(v, "", clock)
}

func (n *normaliser) collectUIDs(v any) {
	switch t := v.(type) {
	case jObject:
		keys := sortedKeys(t)
		for _, k := range keys {
			if s, ok := t[k].(string); ok && k == "uid" && s != "" {
				placeholder(n.uids, "uid", s)
			}
		}
		if prefix, _ := t["generateName"].(string); prefix != "" {
			if name, ok := t["name"].(string); ok && strings.HasPrefix(name, prefix) && len(name) > len(prefix) {
				n.generatedNames[name] = prefix + placeholder(n.generated, "generated", name)
			}
		}
		for _, k := range keys {
			n.collectUIDs(t[k])
		}
	case []any:
		for _, e := range t {
			n.collectUIDs(e)
		}
	}
}

func (n *normaliser) walk(v any, key string, clock *stepClock) (any, error) {
	switch t := v.(type) {
	case jObject:
		t = collection(t)
		out := jObject{}
		for _, k := range sortedKeys(t) {
			e := t[k]
			if _, entry := t["manager"]; k == "time" && entry {
				// A managedFields entry's time.
				if s, ok := e.(string); ok {
					l, err := clock.label(s)
					if err != nil {
						return nil, err
					}
					out[k] = l
					continue
				}
			}
			w, err := n.walk(e, k, clock)
			if err != nil {
				return nil, err
			}
			if k == "causes" {
				sortConflictCauses(w)
			}
			out[k] = w
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			w, err := n.walk(e, key, clock)
			if err != nil {
				return nil, err
			}
			out[i] = w
		}
		return out, nil
	case string:
		switch key {
		case "uid":
			if t != "" {
				return placeholder(n.uids, "uid", t), nil
			}
		case "resourceVersion":
			if t != "" && t != collectionVersion {
				return placeholder(n.versions, "resourceVersion", t), nil
			}
		case "creationTimestamp", "deletionTimestamp":
			return clock.label(t)
		}
		if m := serviceAccountVolume.FindStringSubmatch(t); m != nil {
			// The ServiceAccount admission plugin names the token volume it adds with a
			// random suffix, as generateName does.
			return m[1] + placeholder(n.generated, "generated", t), nil
		}
		if group, ok := allocatedKeys[key]; ok && !n.explicit[t] && t != "None" && t != "" {
			return placeholder(n.allocatedMap(group), group, t), nil
		}
		t = serviceAccountVolumeInText.ReplaceAllStringFunc(t, func(name string) string {
			return "kube-api-access-" + placeholder(n.generated, "generated", name)
		})
		for uid, p := range n.uids {
			t = strings.ReplaceAll(t, uid, p)
		}
		// Longest first, so that a name holding another is rewritten whole.
		names := make([]string, 0, len(n.generatedNames))
		for name := range n.generatedNames {
			names = append(names, name)
		}
		sort.Slice(names, func(i, j int) bool {
			return len(names[i]) > len(names[j]) || (len(names[i]) == len(names[j]) && names[i] < names[j])
		})
		for _, name := range names {
			t = strings.ReplaceAll(t, name, n.generatedNames[name])
		}
		return n.embedded(t, clock)
	case jNumber:
		if group, ok := allocatedKeys[key]; ok && !n.explicit[string(t)] && t != "0" {
			if _, err := strconv.ParseInt(string(t), 10, 64); err == nil {
				return placeholder(n.allocatedMap(group), group, string(t)), nil
			}
		}
		return t, nil
	}
	return v, nil
}

// embedded rewrites the resourceVersions and times a message quotes (as JSON text, its quotes
// escaped once or more), as the object's own are.
func (n *normaliser) embedded(t string, clock *stepClock) (string, error) {
	version := func(v string) (string, error) { return placeholder(n.versions, "resourceVersion", v), nil }
	t, _ = replaceGroup(embeddedVersion, t, version)
	t, _ = replaceGroup(recordVersion, t, version)
	t = tooOldVersion.ReplaceAllStringFunc(t, func(m string) string {
		g := tooOldVersion.FindStringSubmatch(m)
		return fmt.Sprintf("too old resource version: %s (%s)", placeholder(n.versions, "resourceVersion", g[1]), oldestVersion)
	})
	return replaceGroup(embeddedTime, t, clock.label)
}

// replaceGroup replaces the first group of every match of re in s by f's answer.
func replaceGroup(re *regexp.Regexp, s string, f func(string) (string, error)) (string, error) {
	var out strings.Builder
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		r, err := f(s[m[2]:m[3]])
		if err != nil {
			return "", err
		}
		out.WriteString(s[last:m[2]])
		out.WriteString(r)
		last = m[3]
	}
	out.WriteString(s[last:])
	return out.String(), nil
}

func (n *normaliser) allocatedMap(group string) map[string]string {
	m, ok := n.allocated[group]
	if !ok {
		m = map[string]string{}
		n.allocated[group] = m
	}
	return m
}

// removeStaleAPIServerGoldens deletes goldens of this kind whose scenario file is gone.
func removeStaleAPIServerGoldens(dir string, wanted map[string]bool) (int, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	removed := 0
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || wanted[e.Name()] {
			continue
		}
		p := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(p)
		if err != nil {
			return removed, err
		}
		var head struct {
			Format string `json:"format"`
		}
		if json.Unmarshal(data, &head) != nil || head.Format != apiserverGoldenFormat {
			fmt.Printf("gogen apiserver: warning: %s matches no scenario file and was not written by gogen; left alone\n", p)
			continue
		}
		if err := os.Remove(p); err != nil {
			return removed, err
		}
		removed++
		fmt.Printf("gogen apiserver: removed stale %s\n", p)
	}
	return removed, nil
}

// sortConflictCauses orders the causes of an apply conflict by their message (the manager),
// keeping each manager's fields in the server's order. The field manager collects conflicts
// from a map of managers, so with two or more managers their order varies from one request to
// the next (the message itself lists the managers sorted).
func sortConflictCauses(v any) {
	causes, ok := v.([]any)
	if !ok {
		return
	}
	for _, c := range causes {
		m, ok := c.(jObject)
		if !ok || m["reason"] != "FieldManagerConflict" {
			return
		}
	}
	sort.SliceStable(causes, func(i, j int) bool {
		mi, _ := causes[i].(jObject)["message"].(string)
		mj, _ := causes[j].(jObject)["message"].(string)
		return mi < mj
	})
}
