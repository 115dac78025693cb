package main

// kind: pathElement — parse, serialize, order; and path element specs.

import (
	"fmt"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// peSpec is a path element as a scenario writes it: a serialized string
// ("f:name", 'k:{"a":1}', "v:1", "i:0") or a structured element
// ({field: NAME}, {index: N}, {value: VALUESPEC}, {key: VALUESPEC}).
type peSpec struct {
	serialized *string
	field      *string
	index      *int
	value      *valueSpec
	key        *valueSpec
}

func decodePESpec(where string, v any) (peSpec, error) {
	if s, ok := v.(string); ok {
		return peSpec{serialized: &s}, nil
	}
	return decodeStructuredPE(where, v)
}

func decodeStructuredPE(where string, v any) (peSpec, error) {
	s, err := newSpec(where, v)
	if err != nil {
		return peSpec{}, genErrorf("%s: expected a structured path element ({field: NAME}, {index: N}, {value: VALUESPEC} or {key: VALUESPEC}), got %s", where, describe(v))
	}
	if len(s.m) != 1 {
		return peSpec{}, genErrorf("%s: a structured path element has exactly one of field, index, value, key", where)
	}
	var pe peSpec
	switch {
	case s.has("field"):
		name, err := s.str("field")
		if err != nil {
			return peSpec{}, err
		}
		pe.field = &name
	case s.has("index"):
		raw, _ := s.get("index")
		i, err := asInt(s.at("index"), raw)
		if err != nil {
			return peSpec{}, err
		}
		pe.index = &i
	case s.has("value"):
		raw, _ := s.get("value")
		vs, err := decodeValueSpec(s.at("value"), raw)
		if err != nil {
			return peSpec{}, err
		}
		pe.value = &vs
	case s.has("key"):
		raw, _ := s.get("key")
		vs, err := decodeValueSpec(s.at("key"), raw)
		if err != nil {
			return peSpec{}, err
		}
		pe.key = &vs
	}
	return pe, s.finish()
}

// build makes the path element with the public constructors. A key's value
// must be a map; its fields are sorted by name, as KeyByFields does.
func (p peSpec) build(where string) (fieldpath.PathElement, error) {
	switch {
	case p.serialized != nil:
		return fieldpath.DeserializePathElement(*p.serialized)
	case p.field != nil:
		return fieldpath.FieldNameElement(*p.field), nil
	case p.index != nil:
		return fieldpath.IndexElement(*p.index), nil
	case p.value != nil:
		v, err := p.value.build()
		if err != nil {
			return fieldpath.PathElement{}, err
		}
		return fieldpath.ValueElement(v), nil
	case p.key != nil:
		v, err := p.key.build()
		if err != nil {
			return fieldpath.PathElement{}, err
		}
		if !v.IsMap() {
			return fieldpath.PathElement{}, genErrorf("%s.key: the value of a key element must be a map", where)
		}
		fields := value.FieldList{}
		v.AsMap().Iterate(func(name string, fv value.Value) bool {
			// Iterate reuses fv between calls: keep what it wraps, not fv.
			fields = append(fields, value.Field{Name: name, Value: value.NewValueInterface(fv.Unstructured())})
			return true
		})
		fields.Sort()
		return fieldpath.KeyElement(fields...), nil
	}
	return fieldpath.PathElement{}, genErrorf("%s: empty path element", where)
}

// describePE is the result of parse and serialize: the serialized text (or
// serializeError) and String().
func describePE(pe fieldpath.PathElement) jObject {
	out := jObject{"string": pe.String()}
	if s, err := fieldpath.SerializePathElement(pe); err != nil {
		out["serializeError"] = errorNode(err)
	} else {
		out["serialized"] = s
	}
	return out
}

func decodePathElementOp(op string, c *spec) (func() (any, error), error) {
	switch op {
	case "parse":
		input, err := c.inputBytes()
		if err != nil {
			return nil, err
		}
		return func() (any, error) {
			pe, err := fieldpath.DeserializePathElement(string(input))
			if err != nil {
				return failed(err)
			}
			return describePE(pe), nil
		}, nil
	case "serialize":
		raw, err := c.need("element")
		if err != nil {
			return nil, err
		}
		spec, err := decodeStructuredPE(c.at("element"), raw)
		if err != nil {
			return nil, err
		}
		return func() (any, error) {
			pe, err := spec.build(c.at("element"))
			if err != nil {
				return failed(err)
			}
			return describePE(pe), nil
		}, nil
	case "order":
		raw, err := c.need("inputs")
		if err != nil {
			return nil, err
		}
		inputs, err := asStringList(c.at("inputs"), raw)
		if err != nil {
			return nil, err
		}
		return func() (any, error) {
			pes := make([]fieldpath.PathElement, len(inputs))
			for i, s := range inputs {
				pe, err := fieldpath.DeserializePathElement(s)
				if err != nil {
					return failed(err)
				}
				pes[i] = pe
			}
			matrix := make([]any, len(pes))
			for i := range pes {
				row := make([]any, len(pes))
				for j := range pes {
					row[j] = int64(pes[i].Compare(pes[j]))
				}
				matrix[i] = row
			}
			return jObject{"compare": matrix}, nil
		}, nil
	}
	return nil, unknownOp(c, "pathElement", op)
}

func unknownOp(c *spec, kind, op string) error {
	return genErrorf("%s: unknown op %q for kind %q (see conformance/README.md)", c.where, op, kind)
}

// peWhere names the i-th element of a list for messages.
func peWhere(where string, i int) string { return fmt.Sprintf("%s[%d]", where, i) }
