//! The JSON envelope every command prints: `$schema`, `_meta`, `success`, then the fields.

use findbench_engine::EngineError;
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::time::{Duration, SystemTime};

/// Base of the `$schema` URIs; the files live in `schemas/` under the same names.
pub const SCHEMA_BASE: &str = "https://findbench.dev/schemas/v1/";

/// `_meta` of the envelope.
#[derive(Debug, Clone, Serialize)]
pub struct Meta {
    pub command: String,
    pub version: &'static str,
    pub timestamp: String,
    pub duration_ms: f64,
}

impl Meta {
    pub fn new(command: &str, started: SystemTime, elapsed: Duration) -> Meta {
        Meta {
            command: command.to_string(),
            version: findbench_engine::VERSION,
            timestamp: humantime::format_rfc3339_millis(started).to_string(),
            duration_ms: round_ms(elapsed),
        }
    }
}

/// Milliseconds with microsecond resolution, for stable, readable JSON.
pub fn round_ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// Wraps a mode's fields (a JSON object) in the success envelope.
pub fn success(schema: &str, meta: &Meta, fields: Value) -> Value {
    let mut out = Map::new();
    out.insert(
        "$schema".into(),
        Value::String(format!("{SCHEMA_BASE}{schema}")),
    );
    out.insert("_meta".into(), json!(meta));
    out.insert("success".into(), Value::Bool(true));
    match fields {
        Value::Object(map) => out.extend(map),
        other => {
            out.insert("result".into(), other);
        }
    }
    Value::Object(out)
}

/// The error envelope: `success: false` and `error {code, message, exit_code, hint}`.
pub fn failure(
    meta: &Meta,
    code: &str,
    message: &str,
    exit_code: i32,
    hint: Option<&str>,
) -> Value {
    json!({
        "$schema": format!("{SCHEMA_BASE}error.schema.json"),
        "_meta": meta,
        "success": false,
        "error": {
            "code": code,
            "message": message,
            "exit_code": exit_code,
            "hint": hint,
        }
    })
}

/// The error envelope of an engine error.
pub fn engine_failure(meta: &Meta, err: &EngineError) -> Value {
    error_failure(meta, err)
}

/// The error envelope of any command's error (engine, evaluation or traces).
pub fn error_failure(meta: &Meta, err: &dyn crate::coded_error::CodedError) -> Value {
    failure(
        meta,
        err.code(),
        &err.to_string(),
        err.exit_code(),
        err.hint().as_deref(),
    )
}
