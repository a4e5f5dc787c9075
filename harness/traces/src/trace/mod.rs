//! Production traces: one agent retrieval per JSON line (DESIGN.md, "Traces"), read as a
//! stream so a trace set of any size is processed in constant memory.

pub mod record;
pub mod stream;

pub use record::{ToolCall, Trace, TraceOutcome};
pub use stream::{expand_inputs, BadLine, StreamCounts, TraceItem, TraceStream};
