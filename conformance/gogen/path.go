package main

// kind: path — string; and path specs (lists of path element specs).

import (
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

type pathSpec struct {
	where    string
	elements []peSpec
}

func decodePathSpec(where string, v any) (pathSpec, error) {
	l, err := asList(where, v)
	if err != nil {
		return pathSpec{}, err
	}
	p := pathSpec{where: where, elements: make([]peSpec, len(l))}
	for i, e := range l {
		if p.elements[i], err = decodePESpec(peWhere(where, i), e); err != nil {
			return pathSpec{}, err
		}
	}
	return p, nil
}

func decodePathList(where string, v any) ([]pathSpec, error) {
	l, err := asList(where, v)
	if err != nil {
		return nil, err
	}
	out := make([]pathSpec, len(l))
	for i, e := range l {
		if out[i], err = decodePathSpec(peWhere(where, i), e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (p pathSpec) build() (fieldpath.Path, error) {
	path := make(fieldpath.Path, len(p.elements))
	for i, e := range p.elements {
		pe, err := e.build(peWhere(p.where, i))
		if err != nil {
			return nil, err
		}
		path[i] = pe
	}
	return path, nil
}

func decodePathOp(op string, c *spec) (func() (any, error), error) {
	switch op {
	case "string":
		raw, err := c.need("path")
		if err != nil {
			return nil, err
		}
		p, err := decodePathSpec(c.at("path"), raw)
		if err != nil {
			return nil, err
		}
		return func() (any, error) {
			path, err := p.build()
			if err != nil {
				return failed(err)
			}
			return jObject{"string": path.String()}, nil
		}, nil
	}
	return nil, unknownOp(c, "path", op)
}
