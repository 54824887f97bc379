import { coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { agentHandlers, MCP_TRANSPORT_OPERATION } from './handlers.js';
import { createMcpServer } from './mcp/server.js';
import { readSettings } from './settings.js';
import { buildTools } from './tools.js';

/**
 * The agent surface: `GET /agent/tools` (the catalog), `GET /agent/mcp` (the catalog as an MCP
 * tools/list) and `POST /agent/mcp` (an MCP server over Streamable HTTP). The JSON-RPC layer is
 * written here over the kernel's dispatcher rather than taken from the MCP SDK's server classes:
 * those own the Node request and response, while a kernel route must answer with a Reply from
 * its pipeline; this keeps the server stateless and the SDK a test-only dependency.
 */
export default createPlugin({
  id: 'agent',
  manifest: fromRoot('manifests', 'agent.json'),
  deps: { catalog: coreServices.catalog, config: coreServices.config, dispatcher: coreServices.dispatcher, logger: coreServices.logger },
  setup({ catalog, config, dispatcher, logger }, context) {
    const settings = readSettings(context.settings);
    // Routes and manifests are fixed once the kernel has booted, so the tools are built once.
    const tools = buildTools(catalog);
    // The MCP transport route is not a tool of itself; WebSockets and event streams are no tools at all.
    const mcpTools = new Map([...tools].filter(([name, tool]) => name !== MCP_TRANSPORT_OPERATION && tool.entry.callable));
    const server = createMcpServer({
      tools: mcpTools,
      dispatcher,
      readOnly: settings.readOnly,
      serverInfo: { name: 'runtime-kernel', version: config.build.version },
      logger,
    });
    return { handlers: agentHandlers({ settings, tools, server }) };
  },
});
