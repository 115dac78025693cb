package main

// gogen apiserver serve: the real-server side of the differential run
// (conformance/apiserver/differential). The first stdin line is {"crds": [...]}: the CRDs every
// case may use, created once (answered {"ready": "<server version>"}). Every later line is one
// case shaped like a scenario case (name, serviceAccount, steps); it is replayed against the
// running kube-apiserver in the namespace named by the case, exactly as `gogen apiserver`
// replays a scenario, and answered by one line: {"name": ..., "steps": [...]} (a golden's
// result) or {"name": ..., "error": ...}. Cases run in parallel (each step waits for a fresh
// second, so parallel cases hide the waits), so answers come in the order they finish.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sync"

	yaml "go.yaml.in/yaml/v2"
)

func runAPIServerServe(args []string) int {
	fs := flag.NewFlagSet("apiserver serve", flag.ContinueOnError)
	parallel := fs.Int("parallel", 96, "cases replayed at once")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || *parallel < 1 {
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
	if err := apiserverServe(os.Stdin, os.Stdout, *parallel); err != nil {
		fmt.Fprintf(os.Stderr, "gogen apiserver serve: %v\n", err)
		return 1
	}
	return 0
}

func apiserverServe(in io.Reader, out io.Writer, parallel int) error {
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
		return fmt.Errorf("the server is %s; the differential run needs %s", version.GitVersion, apiserverVersion)
	}

	r := bufio.NewReaderSize(in, 1<<20)
	w := bufio.NewWriter(out)
	var mu sync.Mutex
	answer := func(v jObject) error {
		text, err := writeJSON(v, false)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if _, err := w.Write(append(text, '\n')); err != nil {
			return err
		}
		return w.Flush()
	}

	header, err := r.ReadBytes('\n')
	if err != nil && !(errors.Is(err, io.EOF) && len(header) > 0) {
		return fmt.Errorf("reading the first line ({\"crds\": [...]}): %v", err)
	}
	var head struct {
		CRDs []any `yaml:"crds"`
	}
	if err := yaml.UnmarshalStrict(header, &head); err != nil {
		return fmt.Errorf("the first line is not {\"crds\": [...]}: %v", err)
	}
	for i, crd := range head.CRDs {
		body, name, err := jsonBody(crd)
		if err != nil || name == "" {
			return fmt.Errorf("crds[%d]: not an object with metadata.name (%v)", i, err)
		}
		if err := ensureCRD(client, name, body); err != nil {
			return fmt.Errorf("CRD %s: %v", name, err)
		}
	}
	if err := answer(jObject{"ready": version.GitVersion}); err != nil {
		return err
	}

	lines := make(chan []byte)
	var wg sync.WaitGroup
	var writeErr error
	var once sync.Once
	for i := 0; i < parallel; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for line := range lines {
				if err := answer(serveAPIServerCase(client, line)); err != nil {
					once.Do(func() { writeErr = err })
				}
			}
		}()
	}
	var readErr error
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			lines <- line
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			readErr = err
			break
		}
	}
	close(lines)
	wg.Wait()
	if readErr != nil {
		return readErr
	}
	return writeErr
}

// serveAPIServerCase answers one case line; a malformed line or a failed request is an
// {"error": ...} answer naming the case when it can.
func serveAPIServerCase(client *apiClient, line []byte) jObject {
	var c apiserverCase
	if err := yaml.UnmarshalStrict(line, &c); err != nil {
		return jObject{"name": "", "error": fmt.Sprintf("not a case: %v", err)}
	}
	if err := validateAPIServerCase(c); err != nil {
		return jObject{"name": c.Name, "error": err.Error()}
	}
	result, err := replayAPIServerCase(client, c)
	if err != nil {
		return jObject{"name": c.Name, "error": err.Error()}
	}
	result["name"] = c.Name
	return result
}

// ensureCRD is createCRD that also takes a CRD the server already has (a second run against
// the same server), as long as it is served.
func ensureCRD(c *apiClient, name string, body []byte) error {
	r, err := c.do("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"+name, "", "", nil)
	if err != nil {
		return err
	}
	if r.status == 200 {
		return nil
	}
	return createCRD(c, name, body)
}
