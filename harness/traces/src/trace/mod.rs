//! Production traces: one agent retrieval per JSON line (schemas/trace.schema.json), read as a
//! stream so a trace set of any size is processed in constant memory.

pub mod fixture;
pub mod item;
mod line_error;
pub mod otlp;
pub mod record;
pub mod stream;

pub use fixture::{FixtureSource, PathMap};
pub use item::{BadLine, TraceItem};
pub use record::{LaterCall, LaterCallKind, RecordedCall, ToolCall, Trace, TraceOutcome};
pub use stream::{expand_inputs, StreamCounts, TraceFormat, TraceStream};
