package main

// kind: value — parseYAML, parseJSON, compare, string; and value specs.

import (
	"bytes"
	"errors"
	"io"

	yaml "go.yaml.in/yaml/v2"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// valueSpec is {yaml: TEXT} or {json: TEXT}.
type valueSpec struct {
	where string // for messages
	lang  string // "yaml" or "json"
	text  string
}

func decodeValueSpec(where string, v any) (valueSpec, error) {
	s, err := newSpec(where, v)
	if err != nil {
		return valueSpec{}, err
	}
	y, hasY, err := s.optStr("yaml")
	if err != nil {
		return valueSpec{}, err
	}
	j, hasJ, err := s.optStr("json")
	if err != nil {
		return valueSpec{}, err
	}
	if err := s.finish(); err != nil {
		return valueSpec{}, err
	}
	switch {
	case hasY && hasJ:
		return valueSpec{}, genErrorf("%s: give either \"yaml\" or \"json\", not both", where)
	case hasY:
		return valueSpec{where, "yaml", y}, nil
	case hasJ:
		return valueSpec{where, "json", j}, nil
	}
	return valueSpec{}, genErrorf("%s: a value spec is {yaml: TEXT} or {json: TEXT}", where)
}

// build makes the value as Kubernetes does: yaml.Unmarshal into interface{}
// (yaml.v2 maps stay map[interface{}]interface{}) then NewValueInterface, or
// value.FromJSON. A library error is returned as is; a YAML map with a
// non-string key is a generator error.
func (vs valueSpec) build() (value.Value, error) {
	if vs.lang == "json" {
		return value.FromJSON([]byte(vs.text))
	}
	var v any
	if err := yaml.Unmarshal([]byte(vs.text), &v); err != nil {
		return nil, err
	}
	if err := checkStringKeys(v); err != nil {
		return nil, genErrorf("%s: %v", vs.where, err)
	}
	return value.NewValueInterface(v), nil
}

// failed turns an error met while running an op into the op's outcome: a
// generator error stays an error, a library error becomes the result.
func failed(err error) (any, error) {
	if isGenError(err) {
		return nil, err
	}
	return errorResult(err), nil
}

func decodeValueOp(op string, c *spec) (func() (any, error), error) {
	switch op {
	case "parseYAML":
		input, err := c.inputBytes()
		if err != nil {
			return nil, err
		}
		return func() (any, error) { return parseYAML(input) }, nil
	case "parseJSON":
		input, err := c.inputBytes()
		if err != nil {
			return nil, err
		}
		return func() (any, error) {
			v, err := value.FromJSON(input)
			if err != nil {
				return failed(err)
			}
			cv, err := canonicalValue(v.Unstructured())
			if err != nil {
				return nil, err
			}
			return jObject{"value": cv}, nil
		}, nil
	case "compare":
		a, err := valueField(c, "a")
		if err != nil {
			return nil, err
		}
		b, err := valueField(c, "b")
		if err != nil {
			return nil, err
		}
		return func() (any, error) {
			av, err := a.build()
			if err != nil {
				return failed(err)
			}
			bv, err := b.build()
			if err != nil {
				return failed(err)
			}
			return jObject{
				"compare": int64(value.Compare(av, bv)),
				"reverse": int64(value.Compare(bv, av)),
				"equals":  value.Equals(av, bv),
			}, nil
		}, nil
	case "string":
		a, err := valueField(c, "a")
		if err != nil {
			return nil, err
		}
		return func() (any, error) {
			av, err := a.build()
			if err != nil {
				return failed(err)
			}
			out := jObject{"string": value.ToString(av)}
			if j, err := value.ToJSON(av); err != nil {
				out["jsonError"] = errorNode(err)
			} else {
				out["json"] = string(j)
			}
			return out, nil
		}, nil
	}
	return nil, unknownOp(c, "value", op)
}

func valueField(c *spec, key string) (valueSpec, error) {
	v, err := c.need(key)
	if err != nil {
		return valueSpec{}, err
	}
	return decodeValueSpec(c.at(key), v)
}

// parseYAML reads every document of a stream with yaml.v2's Decoder.
func parseYAML(input []byte) (any, error) {
	dec := yaml.NewDecoder(bytes.NewReader(input))
	docs := []any{}
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return failed(err)
		}
		cv, err := canonicalValue(v)
		if err != nil {
			return nil, genErrorf("document %d: %v", len(docs)+1, err)
		}
		docs = append(docs, cv)
	}
	return jObject{"documents": docs}, nil
}
