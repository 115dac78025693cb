package main

// One case: decode it (kind, op, inputs), replay it several times through
// the Go libraries, and insist that every replay gives the same bytes.

import (
	"bytes"
	"fmt"
	"runtime/debug"
	"strings"
)

// defaultReplays is how many times each case runs. Go randomizes map
// iteration, but for small maps the order is a rotation that equals
// insertion order most of the time (about 7 times in 8 for two keys), so
// three replays would let a map-order-dependent result through about half
// of the time. Replays are cheap (microseconds), so run many.
const defaultReplays = 32

type decoder func(op string, c *spec) (func() (any, error), error)

var kinds = map[string]decoder{
	"value":        decodeValueOp,
	"pathElement":  decodePathElementOp,
	"path":         decodePathOp,
	"fieldset":     decodeFieldsetOp,
	"updater":      decodeUpdaterOp,
	"schema":       decodeSchemaOp,
	"openapi":      decodeOpenAPIOp,
	"crd":          decodeCRDOp,
	"typed":        decodeTypedOp,
	"fieldmanager": decodeFieldManagerOp,
	"patch":        decodePatchOp,
}

// decodeCase reads a case (already a plain tree) and returns its name and a
// function that replays it once. Every error it returns, and every generator
// error of the function, names the case.
func decodeCase(where string, raw any, needName bool) (string, func() (any, error), error) {
	c, err := newSpec(where, raw)
	if err != nil {
		return "", nil, err
	}
	var name string
	if needName || c.has("name") {
		if name, err = c.str("name"); err != nil {
			return "", nil, err
		}
		if name == "" {
			return "", nil, genErrorf("%s: empty name", where)
		}
		c.where = fmt.Sprintf("case %q", name)
	}
	if _, _, err := c.optStr("note"); err != nil {
		return name, nil, err
	}
	kind, err := c.str("kind")
	if err != nil {
		return name, nil, err
	}
	op, err := c.str("op")
	if err != nil {
		return name, nil, err
	}
	dec, ok := kinds[kind]
	if !ok {
		return name, nil, genErrorf("%s: unknown kind %q (one of %s)", c.where, kind, strings.Join(sortedKeys(kinds), ", "))
	}
	run, err := dec(op, c)
	if err != nil {
		return name, nil, err
	}
	if err := c.finish(); err != nil {
		return name, nil, err
	}
	caseWhere := c.where
	return name, func() (any, error) {
		result, err := run()
		if err != nil && !strings.HasPrefix(err.Error(), caseWhere) {
			err = genErrorf("%s: %v", caseWhere, err)
		}
		return result, err
	}, nil
}

// runOnce runs a case once. A panic inside the Go libraries is a result,
// {"panic": TEXT}: it is what Go does with that input.
func runOnce(run func() (any, error)) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, err = jObject{"panic": panicText(r)}, nil
		}
	}()
	return run()
}

func panicText(r any) string {
	if e, ok := r.(error); ok {
		return e.Error()
	}
	return fmt.Sprint(r)
}

// replay runs a case `replays` times and returns its result, or a generator
// error when the case is malformed or its replays disagree.
func replay(where string, run func() (any, error), replays int) (any, error) {
	var first any
	var firstJSON []byte
	for i := 0; i < replays; i++ {
		result, err := runOnce(run)
		if err != nil {
			return nil, err
		}
		text, err := writeJSON(result, false)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			first, firstJSON = result, text
			continue
		}
		if !bytes.Equal(text, firstJSON) {
			return nil, genErrorf("%s: the result varies between replays (Go map iteration order?), so it cannot be a golden:\n"+
				"  replay 1: %s\n  replay %d: %s", where, firstJSON, i+1, text)
		}
	}
	return first, nil
}

// smdVersion is the version of structured-merge-diff linked into gogen, as
// recorded by the Go toolchain.
func smdVersion() string {
	info, ok := debug.ReadBuildInfo()
	if ok {
		for _, dep := range info.Deps {
			if dep.Path == "sigs.k8s.io/structured-merge-diff/v6" {
				if dep.Replace != nil {
					return dep.Version + " (replaced by " + strings.TrimSpace(dep.Replace.Path+" "+dep.Replace.Version) + ")"
				}
				return dep.Version
			}
		}
	}
	return "unknown"
}
