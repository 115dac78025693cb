//! CRD validation rules (`x-kubernetes-validations`) in CEL. (Temporary module root from the
//! libraries' branch; the rules themselves are written on main.)

pub mod library;
