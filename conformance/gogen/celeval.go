package main

// gogen celeval [--out FILE] writes the corpus of CEL evaluation smd-cel's
// interpreter is compared with (default ../../cel/tests/data/cel_eval.json):
// each case is an expression, optional variable bindings and what cel-go
// answers in the Kubernetes base environment at compatibility version 1.37
// (environment.MustBaseEnvSet(1.37).StoredExpressionsEnv(), the variables
// declared dyn): either {"compileError": text} when env.Compile refuses it, or
// {"value": v, "cost": actual cost} after env.Program (the environment's own
// program options: cost tracking with Kubernetes' estimator, the per-call
// limit, or "costLimit" when the case sets one) and Eval. Every case also
// carries "ast", env.Parse's tree (macros expanded), so that the interpreter
// is tested without smd's parser.
//
// Values (results and bindings) are type-tagged: {"null":true},
// {"bool":b}, {"int":"3"}, {"uint":"3"}, {"double":"1.5"} (Go's 'g' format;
// NaN, +Inf, -Inf), {"string":s}, {"bytes":base64}, {"list":[v...]},
// {"map":[[k,v]...]} (entries sorted by the key's JSON text), {"duration":
// CEL's string(d)}, {"timestamp": CEL's string(t)}, {"type": name},
// {"optional": v or null}, {"opaque": {"type": name, "string": text}},
// {"error": text} (an evaluation error).
//
// AST nodes: {"id":n, one of "literal": value, "ident": name, "select":
// {"operand","field","testOnly"}, "call": {"target"?,"function","args"},
// "list": {"elements","optionalIndices"}, "map": {"entries": [{"id","key",
// "value","optional"}]}, "struct": {"typeName","fields": [{"id","field",
// "value","optional"}]}, "comprehension": {"iterRange","iterVar","iterVar2",
// "accuVar","accuInit","loopCondition","loopStep","result"}}.

import (
	"encoding/base64"
	"fmt"
	"math"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"time"

	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apiserver/pkg/cel/environment"
)

// celCase is one expression of the corpus.
type celCase struct {
	expr      string
	vars      map[string]any // Go values the default adapter takes
	costLimit uint64         // 0: the environment's per-call limit
}

func runCELEval(args []string) int {
	out, ok := parseOut("celeval", args, "file", "cel", "tests", "data", "cel_eval.json")
	if !ok {
		return 2
	}
	base := environment.MustBaseEnvSet(version.MajorMinor(1, 37)).StoredExpressionsEnv()
	cases := append(celHandCases(), celRandomCases(rand.New(rand.NewSource(4242)), 3000)...)
	var rows []any
	for _, c := range cases {
		row, err := celEvalCase(base, c)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gogen: celeval: %q: %v\n", c.expr, err)
			return 1
		}
		rows = append(rows, row)
	}
	return writeCorpus("celeval", out, jObject{"cases": rows})
}

func celEvalCase(base *cel.Env, c celCase) (jObject, error) {
	row := jObject{"expr": c.expr}
	names := make([]string, 0, len(c.vars))
	for n := range c.vars {
		names = append(names, n)
	}
	sort.Strings(names)
	env := base
	if len(names) > 0 {
		var opts []cel.EnvOption
		vars := jObject{}
		for _, n := range names {
			opts = append(opts, cel.Variable(n, cel.DynType))
			v, err := celValueJSON(types.DefaultTypeAdapter.NativeToValue(c.vars[n]))
			if err != nil {
				return nil, err
			}
			vars[n] = v
		}
		row["vars"] = vars
		var err error
		if env, err = base.Extend(opts...); err != nil {
			return nil, err
		}
	}
	if c.costLimit > 0 {
		row["costLimit"] = int64(c.costLimit)
	}
	parsed, iss := env.Parse(c.expr)
	if iss.Err() != nil {
		row["parseError"] = iss.Err().Error()
		return row, nil
	}
	tree, err := celASTJSON(parsed.NativeRep().Expr())
	if err != nil {
		return nil, err
	}
	row["ast"] = tree
	checked, iss := env.Compile(c.expr)
	if iss.Err() != nil {
		row["compileError"] = iss.Err().Error()
		return row, nil
	}
	var popts []cel.ProgramOption
	if c.costLimit > 0 {
		popts = append(popts, cel.CostLimit(c.costLimit))
	}
	prg, err := env.Program(checked, popts...)
	if err != nil {
		row["programError"] = err.Error()
		return row, nil
	}
	activation := map[string]any{}
	for n, v := range c.vars {
		activation[n] = v
	}
	val, det, err := prg.Eval(activation)
	if err != nil {
		row["value"] = jObject{"error": err.Error()}
	} else if row["value"], err = celValueJSON(val); err != nil {
		return nil, err
	}
	if det != nil && det.ActualCost() != nil {
		row["cost"] = int64(*det.ActualCost())
	}
	return row, nil
}

// celValueJSON is a value's type-tagged form (see the file comment).
func celValueJSON(v ref.Val) (any, error) {
	switch t := v.(type) {
	case types.Null:
		return jObject{"null": true}, nil
	case types.Bool:
		return jObject{"bool": bool(t)}, nil
	case types.Int:
		return jObject{"int": strconv.FormatInt(int64(t), 10)}, nil
	case types.Uint:
		return jObject{"uint": strconv.FormatUint(uint64(t), 10)}, nil
	case types.Double:
		return jObject{"double": strconv.FormatFloat(float64(t), 'g', -1, 64)}, nil
	case types.String:
		return jObject{"string": string(t)}, nil
	case types.Bytes:
		return jObject{"bytes": base64.StdEncoding.EncodeToString(t)}, nil
	case types.Duration, types.Timestamp:
		s := t.ConvertToType(types.StringType)
		if types.IsError(s) {
			return jObject{"error": fmt.Sprint(s)}, nil
		}
		tag := "duration"
		if _, ok := t.(types.Timestamp); ok {
			tag = "timestamp"
		}
		return jObject{tag: string(s.(types.String))}, nil
	case *types.Err:
		return jObject{"error": t.Error()}, nil
	case *types.Optional:
		if !t.HasValue() {
			return jObject{"optional": nil}, nil
		}
		inner, err := celValueJSON(t.GetValue())
		return jObject{"optional": inner}, err
	case ref.Type:
		return jObject{"type": t.TypeName()}, nil
	case *types.Unknown:
		return jObject{"error": "unknown " + t.String()}, nil
	}
	switch t := v.(type) {
	case traits.Mapper:
		var entries [][2]any
		it := t.Iterator()
		for it.HasNext() == types.True {
			k := it.Next()
			kj, err := celValueJSON(k)
			if err != nil {
				return nil, err
			}
			vj, err := celValueJSON(t.Get(k))
			if err != nil {
				return nil, err
			}
			entries = append(entries, [2]any{kj, vj})
		}
		keys := make([]string, len(entries))
		for i, e := range entries {
			text, err := writeJSON(e[0], false)
			if err != nil {
				return nil, err
			}
			keys[i] = string(text)
		}
		idx := make([]int, len(entries))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
		out := []any{}
		for _, i := range idx {
			out = append(out, []any{entries[i][0], entries[i][1]})
		}
		return jObject{"map": out}, nil
	case traits.Lister:
		out := []any{}
		it := t.Iterator()
		for it.HasNext() == types.True {
			e, err := celValueJSON(it.Next())
			if err != nil {
				return nil, err
			}
			out = append(out, e)
		}
		return jObject{"list": out}, nil
	}
	s := v.ConvertToType(types.StringType)
	text := ""
	if str, ok := s.(types.String); ok {
		text = string(str)
	}
	return jObject{"opaque": jObject{"type": v.Type().TypeName(), "string": text}}, nil
}

func celASTJSON(e celast.Expr) (any, error) {
	node := jObject{"id": e.ID()}
	switch e.Kind() {
	case celast.LiteralKind:
		v, err := celValueJSON(e.AsLiteral())
		if err != nil {
			return nil, err
		}
		node["literal"] = v
	case celast.IdentKind:
		node["ident"] = e.AsIdent()
	case celast.SelectKind:
		s := e.AsSelect()
		op, err := celASTJSON(s.Operand())
		if err != nil {
			return nil, err
		}
		node["select"] = jObject{"operand": op, "field": s.FieldName(), "testOnly": s.IsTestOnly()}
	case celast.CallKind:
		c := e.AsCall()
		call := jObject{"function": c.FunctionName()}
		if c.IsMemberFunction() {
			t, err := celASTJSON(c.Target())
			if err != nil {
				return nil, err
			}
			call["target"] = t
		}
		args, err := celASTList(c.Args())
		if err != nil {
			return nil, err
		}
		call["args"] = args
		node["call"] = call
	case celast.ListKind:
		l := e.AsList()
		elems, err := celASTList(l.Elements())
		if err != nil {
			return nil, err
		}
		opt := []any{}
		for _, i := range l.OptionalIndices() {
			opt = append(opt, int64(i))
		}
		node["list"] = jObject{"elements": elems, "optionalIndices": opt}
	case celast.MapKind:
		entries := []any{}
		for _, en := range e.AsMap().Entries() {
			me := en.AsMapEntry()
			k, err := celASTJSON(me.Key())
			if err != nil {
				return nil, err
			}
			v, err := celASTJSON(me.Value())
			if err != nil {
				return nil, err
			}
			entries = append(entries, jObject{"id": en.ID(), "key": k, "value": v, "optional": me.IsOptional()})
		}
		node["map"] = jObject{"entries": entries}
	case celast.StructKind:
		s := e.AsStruct()
		fields := []any{}
		for _, f := range s.Fields() {
			sf := f.AsStructField()
			v, err := celASTJSON(sf.Value())
			if err != nil {
				return nil, err
			}
			fields = append(fields, jObject{"id": f.ID(), "field": sf.Name(), "value": v, "optional": sf.IsOptional()})
		}
		node["struct"] = jObject{"typeName": s.TypeName(), "fields": fields}
	case celast.ComprehensionKind:
		c := e.AsComprehension()
		comp := jObject{"iterVar": c.IterVar(), "iterVar2": c.IterVar2(), "accuVar": c.AccuVar()}
		for name, sub := range map[string]celast.Expr{
			"iterRange": c.IterRange(), "accuInit": c.AccuInit(), "loopCondition": c.LoopCondition(),
			"loopStep": c.LoopStep(), "result": c.Result(),
		} {
			j, err := celASTJSON(sub)
			if err != nil {
				return nil, err
			}
			comp[name] = j
		}
		node["comprehension"] = comp
	default:
		return nil, genErrorf("unexpected expression kind %v", e.Kind())
	}
	return node, nil
}

func celASTList(es []celast.Expr) ([]any, error) {
	out := []any{}
	for _, e := range es {
		j, err := celASTJSON(e)
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, nil
}

// celTime parses a fixed RFC 3339 time for the bindings.
func celTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

var _ = math.Inf
