//! What the corpus tests share: the variables `gogen celcheck` declares (its corpus's
//! expressions, also estimated by `gogen celestimate`, are written over them).

use smd_cel::check::{Env, Type};

/// `env` with celcheck's variables declared.
pub fn celcheck_variables(env: Env) -> Env {
    let s = Type::String;
    env.variable("i", Type::Int)
        .variable("u", Type::Uint)
        .variable("d", Type::Double)
        .variable("s", Type::String)
        .variable("b", Type::Bytes)
        .variable("t", Type::Bool)
        .variable("x", Type::Dyn)
        .variable("du", Type::Duration)
        .variable("ts", Type::Timestamp)
        .variable("l", Type::list(Type::Int))
        .variable("ls", Type::list(Type::String))
        .variable("lx", Type::list(Type::Dyn))
        .variable("ll", Type::list(Type::list(Type::Int)))
        .variable("m", Type::map(s.clone(), Type::Int))
        .variable("mx", Type::map(s.clone(), Type::Dyn))
        .variable("mm", Type::map(s.clone(), Type::map(s.clone(), s.clone())))
        .variable("mi", Type::map(Type::Int, s.clone()))
        .variable("o", Type::optional(Type::Int))
        .variable("os", Type::optional(s))
}
