package main

// kind: typed — the operations of package typed on values typed with a
// schema: validate, toFieldSet, compare, merge, removeItems, extractItems,
// reconcile (ReconcileFieldSetWithSchema).
//
// Every replay builds the values afresh (as the value kind does) and types
// them with typed.AsTyped against the case's schema; the schema itself is
// parsed once per distinct text (a schema that typed.NewParser refuses makes
// the case malformed: this kind tests the typed operations, not schemas).

import (
	"strings"
	"sync"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// typedSchema is where a case's values get their type: a parsed schema and
// the root type's name, or the deduced type.
type typedSchema struct {
	parser   *typed.Parser // nil: typed.DeducedParseableType
	typeName string
}

func (ts typedSchema) parseable() typed.ParseableType {
	if ts.parser == nil {
		return typed.DeducedParseableType
	}
	return ts.parser.Type(ts.typeName)
}

// asTyped is what ParseableType.FromYAML / FromUnstructured do once the value
// is built: AsTyped with the parseable type's schema and type reference.
func (ts typedSchema) asTyped(v value.Value, opts []typed.ValidationOptions) (*typed.TypedValue, error) {
	pt := ts.parseable()
	return typed.AsTyped(v, pt.Schema, pt.TypeRef, opts...)
}

var (
	parserCacheMu sync.Mutex
	parserCache   = map[string]*typed.Parser{}
)

// cachedParser parses a schema once per distinct text (the Kubernetes
// schema of internal/testdata takes a while to validate). The Schema's own
// caches (FindNamedType, Resolve) never change a result.
func cachedParser(where string, text []byte) (*typed.Parser, error) {
	parserCacheMu.Lock()
	defer parserCacheMu.Unlock()
	if p, ok := parserCache[string(text)]; ok {
		return p, nil
	}
	p, err := typed.NewParser(typed.YAMLObject(text))
	if err != nil {
		return nil, genErrorf("%s: the schema must be valid for kind typed: %v", where, err)
	}
	parserCache[string(text)] = p
	return p, nil
}

// decodeTypedSchema reads `schema` / `schemaFile` and `type`.
func decodeTypedSchema(c *spec) (typedSchema, error) {
	text, hasText, err := c.optStr("schema")
	if err != nil {
		return typedSchema{}, err
	}
	file, hasFile, err := c.optStr("schemaFile")
	if err != nil {
		return typedSchema{}, err
	}
	typeName, hasType, err := c.optStr("type")
	if err != nil {
		return typedSchema{}, err
	}
	var source []byte
	switch {
	case hasText && hasFile:
		return typedSchema{}, genErrorf("%s: give either \"schema\" or \"schemaFile\", not both", c.where)
	case hasText:
		source = []byte(text)
	case hasFile:
		if source, err = readTestdata(c.at("schemaFile"), file); err != nil {
			return typedSchema{}, err
		}
	default:
		if hasType {
			return typedSchema{}, genErrorf("%s: \"type\" goes with \"schema\" or \"schemaFile\" (without either, the type is deduced)", c.where)
		}
		return typedSchema{}, nil
	}
	if !hasType {
		return typedSchema{}, genErrorf("%s: missing \"type\" (the root type's name in the schema)", c.where)
	}
	p, err := cachedParser(c.where, source)
	if err != nil {
		return typedSchema{}, err
	}
	return typedSchema{parser: p, typeName: typeName}, nil
}

// typedSet reads a fieldsV1 input, which must be valid: a set Go cannot
// read is a malformed case, not a result of the typed operation.
func typedSet(c *spec, key string) (*fieldpath.Set, error) {
	text, err := setField(c, key)
	if err != nil {
		return nil, err
	}
	s, err := parseSet(text)
	if err != nil {
		return nil, genErrorf("%s: not a valid fieldsV1 set: %v", c.at(key), err)
	}
	return s, nil
}

// Inputs each op takes besides schema, type, object and allowDuplicates.
var typedOps = map[string]struct{ rhs, set, appendKeyFields, newSchema bool }{
	"validate":     {},
	"toFieldSet":   {},
	"compare":      {rhs: true},
	"merge":        {rhs: true},
	"removeItems":  {set: true},
	"extractItems": {set: true, appendKeyFields: true},
	"reconcile":    {set: true, newSchema: true},
}

func decodeTypedOp(op string, c *spec) (func() (any, error), error) {
	takes, ok := typedOps[op]
	if !ok {
		return nil, unknownOp(c, "typed", op)
	}
	allowed := map[string]bool{
		"rhs": takes.rhs, "set": takes.set, "appendKeyFields": takes.appendKeyFields,
		"newSchema": takes.newSchema, "newSchemaFile": takes.newSchema,
	}
	for _, key := range sortedKeys(allowed) {
		if c.has(key) && !allowed[key] {
			return nil, genErrorf("%s: op %q takes no %q", c.where, op, key)
		}
	}
	ts, err := decodeTypedSchema(c)
	if err != nil {
		return nil, err
	}
	object, err := valueField(c, "object")
	if err != nil {
		return nil, err
	}
	allowDuplicates, err := c.optBool("allowDuplicates")
	if err != nil {
		return nil, err
	}
	var opts []typed.ValidationOptions
	if allowDuplicates {
		opts = append(opts, typed.AllowDuplicates)
	}
	var rhs valueSpec
	if takes.rhs {
		if rhs, err = valueField(c, "rhs"); err != nil {
			return nil, err
		}
	}
	var set *fieldpath.Set
	if takes.set {
		if set, err = typedSet(c, "set"); err != nil {
			return nil, err
		}
	}
	var extractOpts []typed.ExtractItemsOption
	if takes.appendKeyFields {
		appendKeyFields, err := c.optBool("appendKeyFields")
		if err != nil {
			return nil, err
		}
		if appendKeyFields {
			extractOpts = append(extractOpts, typed.WithAppendKeyFields())
		}
	}
	var newSchema *typedSchema
	if takes.newSchema && (c.has("newSchema") || c.has("newSchemaFile")) {
		if ts.parser == nil {
			return nil, genErrorf("%s: \"newSchema\" goes with \"schema\" or \"schemaFile\" and \"type\"", c.where)
		}
		text, hasText, err := c.optStr("newSchema")
		if err != nil {
			return nil, err
		}
		file, hasFile, err := c.optStr("newSchemaFile")
		if err != nil {
			return nil, err
		}
		source := []byte(text)
		if hasText && hasFile {
			return nil, genErrorf("%s: give either \"newSchema\" or \"newSchemaFile\", not both", c.where)
		}
		if hasFile {
			if source, err = readTestdata(c.at("newSchemaFile"), file); err != nil {
				return nil, err
			}
		}
		p, err := cachedParser(c.at("newSchema"), source)
		if err != nil {
			return nil, err
		}
		newSchema = &typedSchema{parser: p, typeName: ts.typeName}
	}

	// typeSpec builds a value spec and types it; an error (from yaml.v2 or
	// from validation) is the op's result.
	typeSpec := func(vs valueSpec) (*typed.TypedValue, any, error) {
		v, err := vs.build()
		if err != nil {
			r, err := typedFailed(err)
			return nil, r, err
		}
		tv, err := ts.asTyped(v, opts)
		if err != nil {
			return nil, typedErrorResult(err), nil
		}
		return tv, nil, nil
	}

	return func() (any, error) {
		tv, failure, err := typeSpec(object)
		if tv == nil {
			return failure, err
		}
		switch op {
		case "validate":
			return jObject{"valid": true}, nil
		case "toFieldSet":
			s, err := tv.ToFieldSet()
			if err != nil {
				return typedErrorResult(err), nil
			}
			return setResult("set", s), nil
		case "compare":
			rtv, failure, err := typeSpec(rhs)
			if rtv == nil {
				return failure, err
			}
			cmp, err := tv.Compare(rtv)
			if err != nil {
				return typedErrorResult(err), nil
			}
			out := jObject{"isSame": cmp.IsSame(), "string": cmp.String()}
			for key, s := range map[string]*fieldpath.Set{"added": cmp.Added, "modified": cmp.Modified, "removed": cmp.Removed} {
				for k, v := range setResult(key, s) {
					out[k] = v
				}
			}
			return out, nil
		case "merge":
			rtv, failure, err := typeSpec(rhs)
			if rtv == nil {
				return failure, err
			}
			merged, err := tv.Merge(rtv)
			if err != nil {
				return typedErrorResult(err), nil
			}
			return valueResult(merged)
		case "removeItems":
			return valueResult(tv.RemoveItems(set))
		case "extractItems":
			return valueResult(tv.ExtractItems(set, extractOpts...))
		case "reconcile":
			if newSchema != nil {
				if tv, err = newSchema.asTyped(tv.AsValue(), opts); err != nil {
					return typedErrorResult(err), nil
				}
			}
			s, err := typed.ReconcileFieldSetWithSchema(set, tv)
			if err != nil {
				return typedErrorResult(err), nil
			}
			if s == nil {
				return jObject{"unchanged": true}, nil
			}
			return setResult("set", s), nil
		}
		return nil, genErrorf("internal: op %q", op)
	}, nil
}

// setResult is {key: fieldsV1}, or {keyError: {message, stable}} when
// ToJSON fails (a path element Go cannot serialize).
func setResult(key string, s *fieldpath.Set) jObject {
	text, err := toJSON(s)
	if err != nil {
		return jObject{key + "Error": typedErrorNode(err)}
	}
	return jObject{key: text}
}

// valueResult is {value: V}, the canonical value of tv.AsValue(); a
// TypedValue holding no value at all (Go nil, which Merge returns when it
// produced nothing) is {value: null, nil: true}.
func valueResult(tv *typed.TypedValue) (any, error) {
	v := tv.AsValue()
	if v == nil {
		return jObject{"value": nil, "nil": true}, nil
	}
	cv, err := canonicalValue(v.Unstructured())
	if err != nil {
		return nil, err
	}
	return jObject{"value": cv}, nil
}

// typedFailed is failed (value.go) with kind typed's stable text.
func typedFailed(err error) (any, error) {
	if isGenError(err) {
		return nil, err
	}
	return typedErrorResult(err), nil
}

func typedErrorResult(err error) jObject {
	return jObject{"error": typedErrorNode(err)}
}

// typedErrorNode is errorNode with one more cut: package typed's messages
// embed Go renderings of the offending value (`expected string, got
// &value.valueUnstructured{Value:1}`, `got &{1}`, `got string`), which are
// Go artefacts; on every line, what follows the first word `got` is cut.
func typedErrorNode(err error) jObject {
	n := errorNode(err)
	n["stable"] = cutAfterGot(n["stable"].(string))
	return n
}

// cutAfterGot keeps, on every line, the text up to and including the first
// word "got" followed by a space (at the start of the line or after a space).
func cutAfterGot(msg string) string {
	lines := strings.Split(msg, "\n")
	for i, line := range lines {
		for from := 0; ; {
			j := strings.Index(line[from:], "got ")
			if j < 0 {
				break
			}
			j += from
			if j == 0 || line[j-1] == ' ' {
				lines[i] = line[:j+len("got")]
				break
			}
			from = j + 1
		}
	}
	return strings.Join(lines, "\n")
}
