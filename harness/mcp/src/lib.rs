//! findbench-mcp: findbench as a Model Context Protocol server on stdio (the official Rust
//! SDK, `rmcp`). The find modes are tools (`find_task`, `find_name`, `find_outline`,
//! `get_item`, `find_code`, `find_path`, `grep`, `ask`) whose results are the same JSON
//! documents the CLI prints, read only inside the roots and stores the server was started
//! with (or the client declares), with every call optionally recorded as a trace line.

pub mod fresh;
pub mod git_pin;
mod index_build;
#[cfg(target_os = "linux")]
mod inotify;
pub mod record;
pub mod sandbox;
pub mod server;
pub mod service;
pub mod stdio_filter;

pub use record::{RecordFormat, Recorder};
pub use sandbox::Sandbox;
pub use server::FindServer;
pub use service::{CallOutput, Service};

use findbench_engine::EngineError;
use rmcp::ServiceExt;
use std::path::PathBuf;

/// What `findbench serve --mcp` starts with.
#[derive(Debug, Clone, Default)]
pub struct ServeOptions {
    pub roots: Vec<PathBuf>,
    pub stores: Vec<PathBuf>,
    pub path_lists: Vec<PathBuf>,
    /// `--record DIR`.
    pub record: Option<PathBuf>,
    pub record_format: Option<RecordFormat>,
    /// Fixtures under this directory are recorded by their relative path.
    pub fixtures_base: Option<PathBuf>,
    /// `--no-cache`: walk trees and parse stores without the kept index and store cache.
    pub no_cache: bool,
}

/// Builds the service: the sandbox from the start fixtures (a missing one is a file error),
/// the recorder, and the start fixtures loaded.
pub fn build_service(options: &ServeOptions) -> Result<Service, EngineError> {
    let sandbox = Sandbox::new(&options.roots, &options.stores, &options.path_lists)?;
    let recorder = match &options.record {
        Some(dir) => Some(
            Recorder::create(
                dir,
                options.record_format.unwrap_or(RecordFormat::Findbench),
                options.fixtures_base.as_deref(),
            )
            .map_err(|e| EngineError::File {
                path: dir.clone(),
                message: format!("cannot record here: {e}"),
                hint: Some("pass a writable directory with --record".into()),
            })?,
        ),
        None => None,
    };
    let mut service = Service::new(sandbox, recorder);
    if options.no_cache {
        service = service.without_cache();
    }
    service.warm_up(&options.roots, &options.stores, &options.path_lists);
    Ok(service)
}

/// Serves MCP on stdin/stdout until the client closes the connection (stdin ends).
///
/// stdin goes through [`stdio_filter`] (parse errors answered, nothing before `initialize`
/// ends the session). When the transport ends, the process may end: a call still running
/// on a blocking thread is abandoned (its client is gone), not waited for; rmcp first
/// gives calls in flight a few seconds to send their answers.
pub fn serve_stdio(options: &ServeOptions) -> Result<(), EngineError> {
    let service = build_service(options)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| EngineError::Internal(format!("cannot start the async runtime: {e}")))?;
    let stdin = std::io::BufReader::new(std::io::stdin());
    let served = runtime.block_on(async move {
        let transport = (stdio_filter::filter(stdin), stdio_filter::StdoutLines);
        let server = FindServer::new(service)
            .serve(transport)
            .await
            .map_err(|e| EngineError::Internal(format!("MCP initialisation failed: {e}")))?;
        server
            .waiting()
            .await
            .map_err(|e| EngineError::Internal(format!("MCP server stopped: {e}")))?;
        Ok(())
    });
    // dropping the runtime would wait for every blocking thread, the running call's too
    runtime.shutdown_background();
    served
}
