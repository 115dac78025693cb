//! A YAML reader with Kubernetes' (go-yaml v2, YAML 1.1) semantics. (Stub.)
