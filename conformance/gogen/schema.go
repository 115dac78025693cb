package main

// kind: schema — parse, resolve, findField: SMD's schema YAML read by
// typed.NewParser (validation against the schema of schemas, then
// yaml.Unmarshal), and the lookups of package schema.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v2"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

const smdModule = "sigs.k8s.io/structured-merge-diff/v6"

// schemaSource is the schema text of a case: `input`, `inputBase64`, or
// `testdataFile` (a file of the module's internal/testdata, read from the
// Go module cache).
func schemaSource(c *spec) ([]byte, error) {
	name, hasFile, err := c.optStr("testdataFile")
	if err != nil {
		return nil, err
	}
	if !hasFile {
		return c.inputBytes()
	}
	if c.has("input") || c.has("inputBase64") {
		return nil, genErrorf("%s: give either \"testdataFile\" or \"input\", not both", c.where)
	}
	return readTestdata(c.at("testdataFile"), name)
}

var (
	moduleDirOnce sync.Once
	moduleDirPath string
	moduleDirErr  error
)

// smdModuleDir is where the module cache holds the linked
// structured-merge-diff: $GOMODCACHE (or `go env GOMODCACHE`)/PATH@VERSION.
func smdModuleDir() (string, error) {
	moduleDirOnce.Do(func() {
		cache := os.Getenv("GOMODCACHE")
		if cache == "" {
			out, err := exec.Command("go", "env", "GOMODCACHE").Output()
			if err != nil {
				moduleDirErr = fmt.Errorf("cannot find the Go module cache (set GOMODCACHE): %v", err)
				return
			}
			cache = strings.TrimSpace(string(out))
		}
		version := smdVersion()
		if strings.Contains(version, " ") || version == "unknown" {
			moduleDirErr = fmt.Errorf("structured-merge-diff %s is not a plain module version", version)
			return
		}
		moduleDirPath = filepath.Join(cache, smdModule+"@"+version)
	})
	return moduleDirPath, moduleDirErr
}

func readTestdata(where, name string) ([]byte, error) {
	if name == "" || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return nil, genErrorf("%s: %q is not the name of a file in internal/testdata", where, name)
	}
	dir, err := smdModuleDir()
	if err != nil {
		return nil, genErrorf("%s: %v", where, err)
	}
	text, err := os.ReadFile(filepath.Join(dir, "internal", "testdata", name))
	if err != nil {
		return nil, genErrorf("%s: %v (run go mod download)", where, err)
	}
	return text, nil
}

func decodeSchemaOp(op string, c *spec) (func() (any, error), error) {
	source, err := schemaSource(c)
	if err != nil {
		return nil, err
	}
	switch op {
	case "parse":
		summary, err := c.optBool("summary")
		if err != nil {
			return nil, err
		}
		var show []string
		if c.has("types") {
			if !summary {
				return nil, genErrorf("%s: \"types\" goes with \"summary: true\"", c.where)
			}
			v, _ := c.get("types")
			if show, err = asStringList(c.at("types"), v); err != nil {
				return nil, err
			}
		}
		return func() (any, error) {
			p, err := typed.NewParser(typed.YAMLObject(source))
			if err != nil {
				return failed(err)
			}
			if summary {
				return schemaSummary(&p.Schema, show)
			}
			types, err := canonicalTypes(p.Schema.Types)
			if err != nil {
				return nil, err
			}
			return jObject{"schema": jObject{"types": types}}, nil
		}, nil
	case "resolve":
		texts, err := c.list("typeRefs")
		if err != nil {
			return nil, err
		}
		refs := make([]schema.TypeRef, len(texts))
		for i, t := range texts {
			where := fmt.Sprintf("%s[%d]", c.at("typeRefs"), i)
			text, err := asString(where, t)
			if err != nil {
				return nil, err
			}
			if err := yaml.UnmarshalStrict([]byte(text), &refs[i]); err != nil {
				return nil, genErrorf("%s: not a type reference: %v", where, err)
			}
		}
		return func() (any, error) {
			p, err := validSchema(c.where, source)
			if err != nil {
				return nil, err
			}
			results := make([]any, len(refs))
			for i, tr := range refs {
				atom, ok := p.Schema.Resolve(tr)
				if !ok {
					results[i] = jObject{"resolved": false}
					continue
				}
				a, err := canonicalAtom(atom)
				if err != nil {
					return nil, err
				}
				results[i] = jObject{"resolved": true, "atom": a}
			}
			return jObject{"results": results}, nil
		}, nil
	case "findField":
		typeName, err := c.str("type")
		if err != nil {
			return nil, err
		}
		v, err := c.need("fields")
		if err != nil {
			return nil, err
		}
		names, err := asStringList(c.at("fields"), v)
		if err != nil {
			return nil, err
		}
		return func() (any, error) {
			p, err := validSchema(c.where, source)
			if err != nil {
				return nil, err
			}
			td, ok := p.Schema.FindNamedType(typeName)
			if !ok {
				return jObject{"typeFound": false}, nil
			}
			if td.Map == nil {
				return jObject{"typeFound": true, "isMap": false}, nil
			}
			fields := make([]any, len(names))
			for i, name := range names {
				sf, ok := td.Map.FindField(name)
				if !ok {
					fields[i] = nil
					continue
				}
				if fields[i], err = canonicalField(sf); err != nil {
					return nil, err
				}
			}
			return jObject{"typeFound": true, "isMap": true, "fields": fields}, nil
		}, nil
	}
	return nil, unknownOp(c, "schema", op)
}

// validSchema parses a schema that the case needs to be valid.
func validSchema(where string, source []byte) (*typed.Parser, error) {
	p, err := typed.NewParser(typed.YAMLObject(source))
	if err != nil {
		return nil, genErrorf("%s: the schema must be valid for this op: %v", where, err)
	}
	return p, nil
}

// schemaSummary describes a big schema briefly: its type names in order,
// counts of its parts, and the types asked for in full.
func schemaSummary(s *schema.Schema, show []string) (any, error) {
	names := make([]any, len(s.Types))
	var st schemaStats
	for i, t := range s.Types {
		names[i] = t.Name
		st.atom(t.Atom)
	}
	out := jObject{"typeNames": names, "stats": st.object()}
	if len(show) > 0 {
		shown := jObject{}
		for _, name := range show {
			td, ok := s.FindNamedType(name)
			if !ok {
				shown[name] = nil
				continue
			}
			c, err := canonicalTypeDef(td)
			if err != nil {
				return nil, err
			}
			shown[name] = c
		}
		out["types"] = shown
	}
	return out, nil
}

// schemaStats counts the parts of a schema, inlined ones included.
type schemaStats struct {
	scalars, lists, keyedLists, maps, fields, defaults, unions, unionFields int64
	namedRefs, overrides, nullables                                         int64
}

func (st *schemaStats) atom(a schema.Atom) {
	if a.Scalar != nil {
		st.scalars++
	}
	if a.List != nil {
		st.lists++
		if len(a.List.Keys) > 0 {
			st.keyedLists++
		}
		st.typeRef(a.List.ElementType)
	}
	if a.Map != nil {
		st.maps++
		st.fields += int64(len(a.Map.Fields))
		for _, f := range a.Map.Fields {
			if f.Default != nil {
				st.defaults++
			}
			st.typeRef(f.Type)
		}
		st.unions += int64(len(a.Map.Unions))
		for _, u := range a.Map.Unions {
			st.unionFields += int64(len(u.Fields))
		}
		st.typeRef(a.Map.ElementType)
	}
}

func (st *schemaStats) typeRef(tr schema.TypeRef) {
	if tr.NamedType != nil {
		st.namedRefs++
	}
	if tr.ElementRelationship != nil {
		st.overrides++
	}
	if tr.Nullable {
		st.nullables++
	}
	st.atom(tr.Inlined)
}

func (st *schemaStats) object() jObject {
	return jObject{
		"scalars": st.scalars, "lists": st.lists, "keyedLists": st.keyedLists, "maps": st.maps,
		"fields": st.fields, "defaults": st.defaults, "unions": st.unions, "unionFields": st.unionFields,
		"namedRefs": st.namedRefs, "overrides": st.overrides, "nullables": st.nullables,
	}
}

// The canonical JSON of schema parts (see conformance/README.md): keys as in
// the YAML format; a part that is unset in Go (nil pointer, empty string or
// list, false, zero TypeRef) is left out, except a type's `name` and a union
// field's two strings; a pointer to "" is kept ("elementRelationship": "").

func canonicalTypes(types []schema.TypeDef) ([]any, error) {
	out := make([]any, len(types))
	for i, t := range types {
		c, err := canonicalTypeDef(t)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

func canonicalTypeDef(t schema.TypeDef) (jObject, error) {
	o, err := canonicalAtom(t.Atom)
	if err != nil {
		return nil, err
	}
	o["name"] = t.Name
	return o, nil
}

func canonicalAtom(a schema.Atom) (jObject, error) {
	o := jObject{}
	if a.Scalar != nil {
		o["scalar"] = string(*a.Scalar)
	}
	if a.List != nil {
		l := jObject{}
		if err := putTypeRef(l, "elementType", a.List.ElementType); err != nil {
			return nil, err
		}
		if a.List.ElementRelationship != "" {
			l["elementRelationship"] = string(a.List.ElementRelationship)
		}
		if len(a.List.Keys) > 0 {
			keys := make([]any, len(a.List.Keys))
			for i, k := range a.List.Keys {
				keys[i] = k
			}
			l["keys"] = keys
		}
		o["list"] = l
	}
	if a.Map != nil {
		m := jObject{}
		if len(a.Map.Fields) > 0 {
			fields := make([]any, len(a.Map.Fields))
			for i, f := range a.Map.Fields {
				c, err := canonicalField(f)
				if err != nil {
					return nil, err
				}
				fields[i] = c
			}
			m["fields"] = fields
		}
		if len(a.Map.Unions) > 0 {
			unions := make([]any, len(a.Map.Unions))
			for i, u := range a.Map.Unions {
				unions[i] = canonicalUnion(u)
			}
			m["unions"] = unions
		}
		if err := putTypeRef(m, "elementType", a.Map.ElementType); err != nil {
			return nil, err
		}
		if a.Map.ElementRelationship != "" {
			m["elementRelationship"] = string(a.Map.ElementRelationship)
		}
		o["map"] = m
	}
	return o, nil
}

// putTypeRef sets o[key] unless tr is the zero TypeRef.
func putTypeRef(o jObject, key string, tr schema.TypeRef) error {
	if tr == (schema.TypeRef{}) {
		return nil
	}
	c, err := canonicalTypeRef(tr)
	if err != nil {
		return err
	}
	o[key] = c
	return nil
}

func canonicalTypeRef(tr schema.TypeRef) (jObject, error) {
	o, err := canonicalAtom(tr.Inlined)
	if err != nil {
		return nil, err
	}
	if tr.NamedType != nil {
		o["namedType"] = *tr.NamedType
	}
	if tr.ElementRelationship != nil {
		o["elementRelationship"] = string(*tr.ElementRelationship)
	}
	if tr.Nullable {
		o["nullable"] = true
	}
	return o, nil
}

func canonicalField(f schema.StructField) (jObject, error) {
	o := jObject{"name": f.Name}
	if err := putTypeRef(o, "type", f.Type); err != nil {
		return nil, err
	}
	if f.Default != nil {
		d, err := canonicalValue(f.Default)
		if err != nil {
			return nil, err
		}
		o["default"] = d
	}
	return o, nil
}

func canonicalUnion(u schema.Union) jObject {
	o := jObject{}
	if u.Discriminator != nil {
		o["discriminator"] = *u.Discriminator
	}
	if u.DeduceInvalidDiscriminator {
		o["deduceInvalidDiscriminator"] = true
	}
	if len(u.Fields) > 0 {
		fields := make([]any, len(u.Fields))
		for i, f := range u.Fields {
			fields[i] = jObject{"fieldName": f.FieldName, "discriminatorValue": f.DiscriminatorValue}
		}
		o["fields"] = fields
	}
	return o
}
