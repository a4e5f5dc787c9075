//! The MCP protocol side (rmcp): `tools/list` gives the eight tools with their input
//! schemas, `tools/call` runs [`Service::call`] on a blocking thread and returns the
//! document as structured content (and as text, for clients that read only text). A tool
//! that fails is a tool error (`isError: true`) carrying the CLI's error envelope, never a
//! protocol error and never a crashed server.

use crate::service::{CallOutput, Service};
use findbench_tools::TOOLS;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The server handler: the service, the tool list, and whether the client's roots are known.
#[derive(Clone)]
pub struct FindServer {
    service: Arc<Service>,
    tools: Arc<Vec<Tool>>,
    roots_known: Arc<AtomicBool>,
}

/// The eight tools, each with its description and the JSON Schema of its arguments.
pub fn tool_list() -> Vec<Tool> {
    TOOLS
        .iter()
        .map(|spec| {
            let schema = match spec.input_schema() {
                Value::Object(map) => map,
                _ => Default::default(),
            };
            Tool::new(spec.name, spec.description, Arc::new(schema))
        })
        .collect()
}

impl FindServer {
    pub fn new(service: Service) -> FindServer {
        FindServer {
            service: Arc::new(service),
            tools: Arc::new(tool_list()),
            roots_known: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Asks the client for its roots when it declared the capability; they widen what the
    /// server may read. Roots are deprecated by the newest protocol revision but still what
    /// clients on the 2025 revisions (the Python SDK among them) declare.
    #[allow(deprecated)]
    async fn refresh_roots(&self, peer: &rmcp::Peer<RoleServer>) {
        let declared = peer
            .peer_info()
            .is_some_and(|info| info.capabilities.roots.is_some());
        self.roots_known.store(true, Ordering::Relaxed);
        if !declared {
            return;
        }
        match peer.list_roots().await {
            Ok(result) => {
                let uris: Vec<String> = result.roots.into_iter().map(|r| r.uri).collect();
                let dirs = self.service.sandbox().set_client_roots(&uris);
                eprintln!("findbench serve: client roots: {dirs:?}");
            }
            Err(e) => eprintln!("findbench serve: cannot list the client's roots: {e}"),
        }
    }
}

fn result_of(output: CallOutput) -> CallToolResult {
    if output.is_error {
        CallToolResult::structured_error(output.document)
    } else {
        CallToolResult::structured(output.document)
    }
}

impl ServerHandler for FindServer {
    fn get_info(&self) -> ServerConfig {
        let mut info = Implementation::new("findbench", findbench_engine::VERSION);
        info.title = Some("findbench find tools".into());
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(info)
            .with_instructions(
                "Find tools for code and task retrieval: ask (the whole cascade for a question), \
                 find_code, grep, find_path over source trees; find_task, find_name, \
                 find_outline, get_item over item stores. Each returns the findbench CLI's \
                 JSON document; errors carry error.code, error.message and error.hint.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if !self.roots_known.load(Ordering::Relaxed) {
            self.refresh_roots(&context.peer).await;
        }
        let service = Arc::clone(&self.service);
        let tool = request.name.to_string();
        let arguments = request.arguments.map(Value::Object).unwrap_or(Value::Null);
        let output = tokio::task::spawn_blocking(move || service.call(&tool, &arguments)).await;
        Ok(match output {
            Ok(output) => result_of(output).into(),
            // a panic in the engine: report it as the internal error it is, and go on serving
            Err(e) => result_of(CallOutput {
                is_error: true,
                document: serde_json::json!({
                    "success": false,
                    "error": {"code": "E_INTERNAL", "message": format!("internal error: {e}"),
                              "exit_code": 1, "hint": null}
                }),
            })
            .into(),
        })
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        self.refresh_roots(&context.peer).await;
    }
}
