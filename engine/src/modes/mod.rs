//! One module per find mode. Each takes its fixture, a request and its profile section, and
//! returns a response; none touches the filesystem.

pub mod ask;
pub mod code;
pub mod get;
pub mod grep;
pub mod name;
pub mod outline;
pub mod path;
pub mod task;
