//! serde support and lossless conversion from and to `serde_json::Value`.
//! (Owned by the value-semantics work; stub.)
