package main

// kind: updater — sequences of merge.Updater Apply/Update calls, replayed
// the way the module's internal/fixture (State, Apply, ForceApply, Update,
// ChangeParser) does it, with the state recorded after every step.
//
// The fixture is internal to the module, so its logic is redone here with
// the public API only: typing with AsTyped (applies without
// AllowDuplicates, updates with it), checkInit (the live object starts as
// the typed null of the first step's version), converting the live object to
// the step's version before the call, keeping the live object when Apply
// returns nil. The converters are the fixture's dummyConverter and two
// converters of merge/*_test.go (renamingConverter, specificVersionConverter).

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// schemaSpec is an SMD schema: inline text or a file of internal/testdata.
type schemaSpec struct {
	text []byte
	file string // "" for inline text
}

type updaterCase struct {
	schema            *schemaSpec // nil: deduced (typed.DeducedParseableType for every version)
	sameType          *string     // `type`: every version has this type
	types             map[string]string
	converter         string // "identity", "renaming", "accepted"
	accepted          []string
	returnInputOnNoop bool
	omitObjects       bool                  // `objects: false`: step results leave the object out
	ignoredFields     map[string]string     // nil when absent
	ignoreFilter      map[string]filterSpec // nil when absent
	live              *liveSpec
	managers          map[string]managerSpec
	steps             []updaterStep
}

type liveSpec struct {
	apiVersion string
	object     valueSpec
}

type updaterStep struct {
	op         string // apply, update, changeSchema, setAccepted
	manager    string
	apiVersion string
	object     valueSpec
	force      bool
	schema     *schemaSpec
	accepted   []string
}

func decodeUpdaterOp(op string, c *spec) (func() (any, error), error) {
	if op != "sequence" {
		return nil, unknownOp(c, "updater", op)
	}
	uc, err := decodeUpdaterCase(c)
	if err != nil {
		return nil, err
	}
	return uc.run, nil
}

// decodeSchemaSpec reads `schema: TEXT` or `schemaFile: NAME` from c; nil
// when neither is there. The schema must be valid (an invalid one makes the
// case malformed).
func decodeSchemaSpec(c *spec) (*schemaSpec, error) {
	text, hasText, err := c.optStr("schema")
	if err != nil {
		return nil, err
	}
	file, hasFile, err := c.optStr("schemaFile")
	if err != nil {
		return nil, err
	}
	var ss *schemaSpec
	switch {
	case hasText && hasFile:
		return nil, genErrorf("%s: give either \"schema\" or \"schemaFile\", not both", c.where)
	case hasText:
		ss = &schemaSpec{text: []byte(text)}
	case hasFile:
		b, err := readTestdata(c.at("schemaFile"), file)
		if err != nil {
			return nil, err
		}
		ss = &schemaSpec{text: b, file: file}
	default:
		return nil, nil
	}
	if _, err := ss.parser(c.where); err != nil {
		return nil, err
	}
	return ss, nil
}

// Parsers of testdata files are kept: k8s-schema.yaml takes ~60 ms to
// validate and parse, and nothing mutates a parsed schema. Inline schemas
// are parsed afresh on every replay.
var testdataParsers sync.Map // file name -> *typed.Parser

func (ss *schemaSpec) parser(where string) (*typed.Parser, error) {
	if ss.file != "" {
		if p, ok := testdataParsers.Load(ss.file); ok {
			return p.(*typed.Parser), nil
		}
	}
	p, err := typed.NewParser(typed.YAMLObject(ss.text))
	if err != nil {
		return nil, genErrorf("%s: the schema must be valid: %v", where, err)
	}
	if ss.file != "" {
		testdataParsers.Store(ss.file, p)
	}
	return p, nil
}

// decodeObjectSpec reads a value spec, or {testdataFile: NAME}: a YAML
// file of the module's internal/testdata, read as {yaml: TEXT}.
func decodeObjectSpec(where string, v any) (valueSpec, error) {
	if m, ok := v.(map[string]any); ok {
		if _, ok := m["testdataFile"]; ok {
			s, err := newSpec(where, v)
			if err != nil {
				return valueSpec{}, err
			}
			name, err := s.str("testdataFile")
			if err != nil {
				return valueSpec{}, err
			}
			if err := s.finish(); err != nil {
				return valueSpec{}, err
			}
			text, err := readTestdata(s.at("testdataFile"), name)
			if err != nil {
				return valueSpec{}, err
			}
			return valueSpec{where, "yaml", string(text)}, nil
		}
	}
	return decodeValueSpec(where, v)
}

func stringMap(where string, v any) (map[string]string, error) {
	s, err := newSpec(where, v)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, k := range sortedKeys(s.m) {
		if out[k], err = s.str(k); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func decodeUpdaterCase(c *spec) (*updaterCase, error) {
	uc := &updaterCase{converter: "identity"}
	var err error
	if uc.schema, err = decodeSchemaSpec(c); err != nil {
		return nil, err
	}
	if t, ok, err := c.optStr("type"); err != nil {
		return nil, err
	} else if ok {
		uc.sameType = &t
	}
	if raw, ok := c.get("types"); ok {
		if uc.types, err = stringMap(c.at("types"), raw); err != nil {
			return nil, err
		}
	}
	if uc.sameType != nil && uc.types != nil {
		return nil, genErrorf("%s: give either \"type\" or \"types\", not both", c.where)
	}
	if uc.schema == nil && (uc.sameType != nil || uc.types != nil) {
		return nil, genErrorf("%s: \"type\" and \"types\" need a schema (without one, every version is deduced)", c.where)
	}
	if raw, ok := c.get("converter"); ok {
		switch t := raw.(type) {
		case string:
			if t != "identity" && t != "renaming" {
				return nil, genErrorf("%s: the converter is identity, renaming or {accepted: [VERSION...]}, not %q", c.at("converter"), t)
			}
			uc.converter = t
		default:
			cs, err := newSpec(c.at("converter"), raw)
			if err != nil {
				return nil, err
			}
			v, err := cs.need("accepted")
			if err != nil {
				return nil, err
			}
			if uc.accepted, err = asStringList(cs.at("accepted"), v); err != nil {
				return nil, err
			}
			if err := cs.finish(); err != nil {
				return nil, err
			}
			uc.converter = "accepted"
		}
	}
	if _, has := c.get("objects"); has {
		objects, err := c.optBool("objects")
		if err != nil {
			return nil, err
		}
		uc.omitObjects = !objects
	}
	if uc.returnInputOnNoop, err = c.optBool("returnInputOnNoop"); err != nil {
		return nil, err
	}
	if raw, ok := c.get("ignoredFields"); ok {
		if uc.ignoredFields, err = stringMap(c.at("ignoredFields"), raw); err != nil {
			return nil, err
		}
	}
	if raw, ok := c.get("ignoreFilter"); ok {
		fs, err := newSpec(c.at("ignoreFilter"), raw)
		if err != nil {
			return nil, err
		}
		uc.ignoreFilter = map[string]filterSpec{}
		for _, version := range sortedKeys(fs.m) {
			v, _ := fs.get(version)
			vs, err := newSpec(fs.at(version), v)
			if err != nil {
				return nil, err
			}
			if uc.ignoreFilter[version], err = decodeFilterSpec(vs); err != nil {
				return nil, err
			}
			if err := vs.finish(); err != nil {
				return nil, err
			}
		}
	}
	var versions []string // every version that must have a type
	if raw, ok := c.get("live"); ok {
		ls, err := newSpec(c.at("live"), raw)
		if err != nil {
			return nil, err
		}
		uc.live = &liveSpec{}
		if uc.live.apiVersion, err = ls.str("apiVersion"); err != nil {
			return nil, err
		}
		v, err := ls.need("object")
		if err != nil {
			return nil, err
		}
		if uc.live.object, err = decodeObjectSpec(ls.at("object"), v); err != nil {
			return nil, err
		}
		if err := ls.finish(); err != nil {
			return nil, err
		}
		versions = append(versions, uc.live.apiVersion)
	}
	if raw, ok := c.get("managers"); ok {
		if uc.managers, err = decodeManagers(c.at("managers"), raw); err != nil {
			return nil, err
		}
		for _, name := range sortedKeys(uc.managers) {
			versions = append(versions, uc.managers[name].apiVersion)
		}
	}
	rawSteps, err := c.list("steps")
	if err != nil {
		return nil, err
	}
	if len(rawSteps) == 0 {
		return nil, genErrorf("%s: no steps", c.at("steps"))
	}
	for i, raw := range rawSteps {
		st, err := decodeUpdaterStep(peWhere(c.at("steps"), i), raw, uc)
		if err != nil {
			return nil, err
		}
		if st.op == "apply" || st.op == "update" {
			versions = append(versions, st.apiVersion)
		}
		uc.steps = append(uc.steps, st)
	}
	if uc.types != nil {
		for _, v := range versions {
			if _, ok := uc.types[v]; !ok {
				return nil, genErrorf("%s: version %q has no type in \"types\"", c.where, v)
			}
		}
	}
	return uc, nil
}

func decodeUpdaterStep(where string, raw any, uc *updaterCase) (updaterStep, error) {
	s, err := newSpec(where, raw)
	if err != nil {
		return updaterStep{}, err
	}
	var st updaterStep
	if st.op, err = s.str("op"); err != nil {
		return st, err
	}
	switch st.op {
	case "apply", "update":
		if st.manager, err = s.str("manager"); err != nil {
			return st, err
		}
		if st.apiVersion, err = s.str("apiVersion"); err != nil {
			return st, err
		}
		v, err := s.need("object")
		if err != nil {
			return st, err
		}
		if st.object, err = decodeObjectSpec(s.at("object"), v); err != nil {
			return st, err
		}
		if st.op == "apply" {
			if st.force, err = s.optBool("force"); err != nil {
				return st, err
			}
		}
	case "changeSchema":
		if uc.schema == nil {
			return st, genErrorf("%s: changeSchema needs a case with a schema (deduced types have none)", where)
		}
		if st.schema, err = decodeSchemaSpec(s); err != nil {
			return st, err
		}
		if st.schema == nil {
			return st, genErrorf("%s: missing \"schema\" (or \"schemaFile\")", where)
		}
	case "setAccepted":
		if uc.converter != "accepted" {
			return st, genErrorf("%s: setAccepted needs the converter {accepted: [...]}", where)
		}
		v, err := s.need("accepted")
		if err != nil {
			return st, err
		}
		if st.accepted, err = asStringList(s.at("accepted"), v); err != nil {
			return st, err
		}
	default:
		return st, genErrorf("%s: unknown step op %q (apply, update, changeSchema or setAccepted)", where, st.op)
	}
	return st, s.finish()
}

// updaterState is the fixture's State: the live object, the managers, the
// current schema (changeSchema swaps it) and the accepted versions.
type updaterState struct {
	c        *updaterCase
	parser   *typed.Parser // nil: deduced
	live     *typed.TypedValue
	managers fieldpath.ManagedFields
	accepted []string
}

// typeFor is the fixture's Parser.Type(version) under the case's mapping.
func (st *updaterState) typeFor(version string) typed.ParseableType {
	if st.parser == nil {
		return typed.DeducedParseableType
	}
	name := version
	switch {
	case st.c.sameType != nil:
		name = *st.c.sameType
	case st.c.types != nil:
		name = st.c.types[version]
	}
	return st.parser.Type(name)
}

// The converters. Their error texts are those of the Go test code.

type identityConverter struct{}

func (identityConverter) Convert(v *typed.TypedValue, version fieldpath.APIVersion) (*typed.TypedValue, error) {
	if len(version) == 0 {
		return nil, fmt.Errorf("cannot convert to invalid version: %q", version)
	}
	return v, nil
}

func (identityConverter) IsMissingVersionError(error) bool { return false }

var errMissingVersion = errors.New("cannot convert to invalid version")

type renamingConverter struct{ st *updaterState }

func (r renamingConverter) Convert(v *typed.TypedValue, version fieldpath.APIVersion) (*typed.TypedValue, error) {
	inVersion := *v.TypeRef().NamedType
	return r.st.typeFor(string(version)).FromUnstructured(renameFields(v.AsValue(), inVersion, string(version)))
}

func (renamingConverter) IsMissingVersionError(err error) bool { return err == errMissingVersion }

func renameFields(v value.Value, oldSuffix, newSuffix string) any {
	if v.IsMap() {
		out := map[string]any{}
		v.AsMap().Iterate(func(key string, value value.Value) bool {
			if strings.HasSuffix(key, oldSuffix) {
				out[strings.TrimSuffix(key, oldSuffix)+newSuffix] = renameFields(value, oldSuffix, newSuffix)
			} else {
				out[key] = renameFields(value, oldSuffix, newSuffix)
			}
			return true
		})
		return out
	}
	if v.IsList() {
		var out []any
		ri := v.AsList().Range()
		for ri.Next() {
			_, v := ri.Item()
			out = append(out, renameFields(v, oldSuffix, newSuffix))
		}
		return out
	}
	return v.Unstructured()
}

type acceptedConverter struct{ st *updaterState }

func (a acceptedConverter) Convert(v *typed.TypedValue, version fieldpath.APIVersion) (*typed.TypedValue, error) {
	for _, accepted := range a.st.accepted {
		if accepted == string(version) {
			return v, nil
		}
	}
	return nil, fmt.Errorf("Unknown version: %v", version)
}

func (acceptedConverter) IsMissingVersionError(err error) bool { return err != nil }

// run replays the case once.
func (uc *updaterCase) run() (any, error) {
	st := &updaterState{c: uc, accepted: uc.accepted}
	if uc.schema != nil {
		p, err := uc.schema.parser("schema")
		if err != nil {
			return nil, err
		}
		st.parser = p
	}
	var converter merge.Converter
	switch uc.converter {
	case "identity":
		converter = identityConverter{}
	case "renaming":
		converter = renamingConverter{st}
	case "accepted":
		converter = acceptedConverter{st}
	}
	builder := merge.UpdaterBuilder{Converter: converter, ReturnInputOnNoop: uc.returnInputOnNoop}
	if uc.ignoredFields != nil {
		builder.IgnoredFields = map[fieldpath.APIVersion]*fieldpath.Set{}
		for _, version := range sortedKeys(uc.ignoredFields) {
			set, err := parseSet([]byte(uc.ignoredFields[version]))
			if err != nil {
				return typedFailed(err)
			}
			builder.IgnoredFields[fieldpath.APIVersion(version)] = set
		}
	}
	if uc.ignoreFilter != nil {
		builder.IgnoreFilter = map[fieldpath.APIVersion]fieldpath.Filter{}
		for _, version := range sortedKeys(uc.ignoreFilter) {
			filter, err := uc.ignoreFilter[version].build()
			if err != nil {
				return typedFailed(err)
			}
			builder.IgnoreFilter[fieldpath.APIVersion(version)] = filter
		}
	}
	updater := builder.BuildUpdater()
	if uc.managers != nil {
		mf, err := buildManagers(uc.managers)
		if err != nil {
			return typedFailed(err)
		}
		st.managers = mf
	}
	if uc.live != nil {
		v, err := uc.live.object.build()
		if err != nil {
			return typedFailed(err)
		}
		pt := st.typeFor(uc.live.apiVersion)
		if st.live, err = typed.AsTyped(v, pt.Schema, pt.TypeRef, typed.AllowDuplicates); err != nil {
			return typedFailed(err)
		}
	}
	steps := []any{}
	for _, step := range uc.steps {
		result, err := st.guardedStep(updater, step)
		if err != nil {
			return nil, err
		}
		steps = append(steps, result)
	}
	return jObject{"steps": steps}, nil
}

// guardedStep runs a step; a panic inside the Go libraries is that step's
// result, {panic: TEXT}, and leaves the state as it was (st is only
// assigned once a call has returned).
func (st *updaterState) guardedStep(updater *merge.Updater, step updaterStep) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, err = jObject{"panic": panicText(r)}, nil
		}
	}()
	return st.step(updater, step)
}

// step runs one step. A library error is the step's result ({error}) and
// leaves the state as it was before the step.
func (st *updaterState) step(updater *merge.Updater, step updaterStep) (any, error) {
	switch step.op {
	case "setAccepted":
		st.accepted = step.accepted
		return jObject{}, nil
	case "changeSchema":
		p, err := step.schema.parser("changeSchema")
		if err != nil {
			return nil, err
		}
		if st.live != nil {
			// The fixture's ChangeParser: re-type live with the new schema.
			retyped, err := typed.AsTyped(st.live.AsValue(), &p.Schema, st.live.TypeRef())
			if err != nil {
				return typedFailed(err)
			}
			st.live = retyped
		}
		st.parser = p
		return jObject{}, nil
	}
	version := fieldpath.APIVersion(step.apiVersion)
	v, err := step.object.build()
	if err != nil {
		return typedFailed(err)
	}
	pt := st.typeFor(step.apiVersion)
	var opts []typed.ValidationOptions
	if step.op == "update" {
		opts = append(opts, typed.AllowDuplicates)
	}
	obj, err := typed.AsTyped(v, pt.Schema, pt.TypeRef, opts...)
	if err != nil {
		return typedFailed(err)
	}
	live := st.live
	if live == nil { // the fixture's checkInit
		if live, err = pt.FromUnstructured(nil); err != nil {
			return typedFailed(fmt.Errorf("failed to create new empty object: %v", err))
		}
	}
	if live, err = updater.Converter.Convert(live, version); err != nil {
		return typedFailed(err)
	}
	var out *typed.TypedValue
	var managers fieldpath.ManagedFields
	noop := false
	if step.op == "update" {
		out, managers, err = updater.Update(live, obj, version, st.managers, step.manager)
	} else {
		out, managers, err = updater.Apply(live, obj, version, st.managers, step.manager, step.force)
		if err == nil && out == nil {
			noop, out = true, live
		}
	}
	if err != nil {
		var conflicts merge.Conflicts
		if errors.As(err, &conflicts) {
			return conflictsResult(conflicts, err), nil
		}
		return typedFailed(err)
	}
	st.live, st.managers = out, managers
	object, err := canonicalValue(st.live.AsValue().Unstructured())
	if err != nil {
		return nil, err
	}
	mf, err := managersResult(st.managers)
	if err != nil {
		return typedFailed(err)
	}
	if st.c.omitObjects {
		return jObject{"noop": noop, "managers": mf}, nil
	}
	return jObject{"object": object, "noop": noop, "managers": mf}, nil
}

// conflictsResult lists the conflicts by manager (a stable sort: Go builds
// the list from a map, but each manager's paths come in Set.Iterate order).
func conflictsResult(conflicts merge.Conflicts, err error) jObject {
	sorted := append(merge.Conflicts(nil), conflicts...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Manager < sorted[j].Manager })
	list := make([]any, len(sorted))
	for i, c := range sorted {
		list[i] = jObject{"manager": c.Manager, "path": c.Path.String()}
	}
	return jObject{"conflicts": list, "message": err.Error()}
}

// managersResult writes managed fields as {NAME: {apiVersion, applied, fieldsV1}}.
func managersResult(mf fieldpath.ManagedFields) (jObject, error) {
	out := jObject{}
	for _, name := range sortedKeys(mf) {
		vs := mf[name]
		text, err := toJSON(vs.Set())
		if err != nil {
			return nil, err
		}
		out[name] = jObject{
			"apiVersion": string(vs.APIVersion()),
			"applied":    vs.Applied(),
			"fieldsV1":   text,
		}
	}
	return out, nil
}
