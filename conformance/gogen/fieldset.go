package main

// kind: fieldset — parse, build, algebra, filter, fromValue, managers.

import (
	"bytes"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// parseSet reads a fieldsV1 document with Set.FromJSON. The set is returned
// even on error: it is what FromJSON leaves behind.
func parseSet(fieldsV1 []byte) (*fieldpath.Set, error) {
	s := &fieldpath.Set{}
	err := s.FromJSON(bytes.NewReader(fieldsV1))
	return s, err
}

func toJSON(s *fieldpath.Set) (string, error) {
	b, err := s.ToJSON()
	return string(b), err
}

// describeSet is the set description of README.md: fieldsV1, paths and
// strings in Iterate order, size, empty, leaves.
func describeSet(s *fieldpath.Set) (jObject, error) {
	fieldsV1, err := toJSON(s)
	if err != nil {
		return nil, err
	}
	leaves, err := toJSON(s.Leaves())
	if err != nil {
		return nil, err
	}
	paths := []any{}
	strs := []any{}
	var iterErr error
	s.Iterate(func(p fieldpath.Path) {
		// p is reused by Iterate: use it now, keep nothing of it.
		elems := make([]any, len(p))
		for i, pe := range p {
			text, err := fieldpath.SerializePathElement(pe)
			if err != nil && iterErr == nil {
				iterErr = err
			}
			elems[i] = text
		}
		paths = append(paths, elems)
		strs = append(strs, p.String())
	})
	if iterErr != nil {
		return nil, iterErr
	}
	return jObject{
		"fieldsV1": fieldsV1,
		"paths":    paths,
		"strings":  strs,
		"size":     int64(s.Size()),
		"empty":    s.Empty(),
		"leaves":   leaves,
	}, nil
}

func setField(c *spec, key string) ([]byte, error) {
	s, err := c.str(key)
	return []byte(s), err
}

func decodeFieldsetOp(op string, c *spec) (func() (any, error), error) {
	switch op {
	case "parse":
		return decodeFieldsetParse(c)
	case "build":
		raw, err := c.need("paths")
		if err != nil {
			return nil, err
		}
		paths, err := decodePathList(c.at("paths"), raw)
		if err != nil {
			return nil, err
		}
		return func() (any, error) {
			s := fieldpath.NewSet()
			for _, ps := range paths {
				p, err := ps.build()
				if err != nil {
					return failed(err)
				}
				s.Insert(p)
			}
			d, err := describeSet(s)
			if err != nil {
				return failed(err)
			}
			return d, nil
		}, nil
	case "algebra":
		return decodeFieldsetAlgebra(c)
	case "filter":
		return decodeFieldsetFilter(c)
	case "fromValue":
		vs, err := valueField(c, "value")
		if err != nil {
			return nil, err
		}
		return func() (any, error) {
			v, err := vs.build()
			if err != nil {
				return failed(err)
			}
			d, err := describeSet(fieldpath.SetFromValue(v))
			if err != nil {
				return failed(err)
			}
			return d, nil
		}, nil
	case "managers":
		return decodeFieldsetManagers(c)
	}
	return nil, unknownOp(c, "fieldset", op)
}

func decodeFieldsetParse(c *spec) (func() (any, error), error) {
	input, err := c.inputBytes()
	if err != nil {
		return nil, err
	}
	var has []pathSpec
	if raw, ok := c.get("has"); ok {
		if has, err = decodePathList(c.at("has"), raw); err != nil {
			return nil, err
		}
	}
	var prefixes []string
	if raw, ok := c.get("withPrefix"); ok {
		if prefixes, err = asStringList(c.at("withPrefix"), raw); err != nil {
			return nil, err
		}
	}
	return func() (any, error) {
		s, err := parseSet(input)
		if err != nil {
			out := errorResult(err)
			if partial, perr := toJSON(s); perr != nil {
				out["partialError"] = errorNode(perr)
			} else {
				out["partial"] = partial
			}
			return out, nil
		}
		out, err := describeSet(s)
		if err != nil {
			return failed(err)
		}
		if has != nil {
			results := make([]any, len(has))
			for i, ps := range has {
				p, err := ps.build()
				if err != nil {
					return failed(err)
				}
				results[i] = s.Has(p)
			}
			out["has"] = results
		}
		if prefixes != nil {
			results := make([]any, len(prefixes))
			for i, text := range prefixes {
				pe, err := fieldpath.DeserializePathElement(text)
				if err != nil {
					return failed(err)
				}
				if results[i], err = toJSON(s.WithPrefix(pe)); err != nil {
					return failed(err)
				}
			}
			out["withPrefix"] = results
		}
		return out, nil
	}, nil
}

func decodeFieldsetAlgebra(c *spec) (func() (any, error), error) {
	aText, err := setField(c, "a")
	if err != nil {
		return nil, err
	}
	bText, err := setField(c, "b")
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		a, err := parseSet(aText)
		if err != nil {
			return failed(err)
		}
		b, err := parseSet(bText)
		if err != nil {
			return failed(err)
		}
		out := jObject{"equals": a.Equals(b)}
		for _, r := range []struct {
			name string
			set  *fieldpath.Set
		}{
			{"union", a.Union(b)},
			{"intersection", a.Intersection(b)},
			{"difference", a.Difference(b)},
			{"recursiveDifference", a.RecursiveDifference(b)},
			{"reverseDifference", b.Difference(a)},
			{"reverseRecursiveDifference", b.RecursiveDifference(a)},
		} {
			text, err := toJSON(r.set)
			if err != nil {
				return failed(err)
			}
			out[r.name] = text
		}
		return out, nil
	}, nil
}

func decodeFieldsetFilter(c *spec) (func() (any, error), error) {
	setText, err := setField(c, "set")
	if err != nil {
		return nil, err
	}
	fs, err := decodeFilterSpec(c)
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		set, err := parseSet([]byte(setText))
		if err != nil {
			return failed(err)
		}
		filter, err := fs.build()
		if err != nil {
			return failed(err)
		}
		text, err := toJSON(filter.Filter(set))
		if err != nil {
			return failed(err)
		}
		return jObject{"result": text}, nil
	}, nil
}

// filterSpec is a fieldpath.Filter as scenarios write it: `exclude: SET`
// (NewExcludeSetFilter) or `include: [[pattern...]...]`
// (NewIncludeMatcherFilter of MakePrefixMatcherOrDie, "*" being
// MatchAnyPathElement).
type filterSpec struct {
	exclude  *string
	patterns [][]string
}

// decodeFilterSpec reads exactly one of `exclude` and `include` from c.
func decodeFilterSpec(c *spec) (filterSpec, error) {
	excludeText, hasExclude, err := c.optStr("exclude")
	if err != nil {
		return filterSpec{}, err
	}
	rawInclude, hasInclude := c.get("include")
	if hasExclude == hasInclude {
		return filterSpec{}, genErrorf("%s: a filter has exactly one of \"exclude\" and \"include\"", c.where)
	}
	if hasExclude {
		return filterSpec{exclude: &excludeText}, nil
	}
	l, err := asList(c.at("include"), rawInclude)
	if err != nil {
		return filterSpec{}, err
	}
	patterns := make([][]string, len(l))
	for i, e := range l {
		if patterns[i], err = asStringList(peWhere(c.at("include"), i), e); err != nil {
			return filterSpec{}, err
		}
	}
	return filterSpec{patterns: patterns}, nil
}

// build makes the filter; a library error (a bad set or path element) is
// returned as is.
func (fs filterSpec) build() (fieldpath.Filter, error) {
	if fs.exclude != nil {
		exclude, err := parseSet([]byte(*fs.exclude))
		if err != nil {
			return nil, err
		}
		return fieldpath.NewExcludeSetFilter(exclude), nil
	}
	matchers := make([]*fieldpath.SetMatcher, len(fs.patterns))
	for i, pattern := range fs.patterns {
		parts := make([]any, len(pattern))
		for j, text := range pattern {
			if text == "*" {
				parts[j] = fieldpath.MatchAnyPathElement()
				continue
			}
			pe, err := fieldpath.DeserializePathElement(text)
			if err != nil {
				return nil, err
			}
			parts[j] = pe
		}
		matchers[i] = fieldpath.MakePrefixMatcherOrDie(parts...)
	}
	return fieldpath.NewIncludeMatcherFilter(matchers...), nil
}

// managerSpec is {apiVersion, applied, fieldsV1}; applied defaults to false.
type managerSpec struct {
	apiVersion string
	applied    bool
	fieldsV1   string
}

func decodeManagers(where string, v any) (map[string]managerSpec, error) {
	s, err := newSpec(where, v)
	if err != nil {
		return nil, err
	}
	out := map[string]managerSpec{}
	for _, name := range sortedKeys(s.m) {
		raw, _ := s.get(name)
		m, err := newSpec(s.at(name), raw)
		if err != nil {
			return nil, err
		}
		var ms managerSpec
		if ms.apiVersion, err = m.str("apiVersion"); err != nil {
			return nil, err
		}
		if ms.applied, err = m.optBool("applied"); err != nil {
			return nil, err
		}
		if ms.fieldsV1, err = m.str("fieldsV1"); err != nil {
			return nil, err
		}
		if err := m.finish(); err != nil {
			return nil, err
		}
		out[name] = ms
	}
	return out, nil
}

func buildManagers(specs map[string]managerSpec) (fieldpath.ManagedFields, error) {
	mf := fieldpath.ManagedFields{}
	for _, name := range sortedKeys(specs) {
		ms := specs[name]
		set, err := parseSet([]byte(ms.fieldsV1))
		if err != nil {
			return nil, err
		}
		mf[name] = fieldpath.NewVersionedSet(set, fieldpath.APIVersion(ms.apiVersion), ms.applied)
	}
	return mf, nil
}

func decodeFieldsetManagers(c *spec) (func() (any, error), error) {
	rawL, err := c.need("lhs")
	if err != nil {
		return nil, err
	}
	lhsSpec, err := decodeManagers(c.at("lhs"), rawL)
	if err != nil {
		return nil, err
	}
	rawR, err := c.need("rhs")
	if err != nil {
		return nil, err
	}
	rhsSpec, err := decodeManagers(c.at("rhs"), rawR)
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		lhs, err := buildManagers(lhsSpec)
		if err != nil {
			return failed(err)
		}
		rhs, err := buildManagers(rhsSpec)
		if err != nil {
			return failed(err)
		}
		diff := jObject{}
		d := lhs.Difference(rhs)
		for _, name := range sortedKeys(d) {
			vs := d[name]
			text, err := toJSON(vs.Set())
			if err != nil {
				return failed(err)
			}
			diff[name] = jObject{
				"apiVersion": string(vs.APIVersion()),
				"applied":    vs.Applied(),
				"fieldsV1":   text,
			}
		}
		return jObject{"difference": diff, "equals": lhs.Equals(rhs)}, nil
	}, nil
}
