import { contribute, coreExtensions, coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { assistantHandlers } from './assistant/handlers.js';
import { createProvider } from './assistant/providers/index.js';
import { createRateLimiter } from './assistant/rate-limit.js';
import { assistantSettings } from './assistant/settings.js';
import { agentHandlers, MCP_TRANSPORT_OPERATION } from './handlers.js';
import { createMcpServer } from './mcp/server.js';
import { createConversations } from './migrations/001_conversations.js';
import { readSettings } from './settings.js';
import { createConversationStore } from './store.js';
import { buildTools } from './tools.js';
import type { Settings } from './generated/manifest-types.js';

const DAY_MS = 86_400_000;

/**
 * The agent surface: `GET /agent/tools` (the catalog), `GET /agent/mcp` (the catalog as an MCP
 * tools/list) and `POST /agent/mcp` (an MCP server over Streamable HTTP); and the in-product
 * agent (`/agent/chat`, `/agent/conversations`, `/agent/actions`), a conversation with a model
 * whose tool calls go through the same dispatcher — the caller's own pipeline — as MCP's. The
 * JSON-RPC layer is written here over the kernel's dispatcher rather than taken from the MCP
 * SDK's server classes: those own the Node request and response, while a kernel route must
 * answer with a Reply from its pipeline; this keeps the server stateless and the SDK a test-only
 * dependency. The model providers are spoken to with `fetch` (their HTTP APIs are small and
 * stable), so no provider SDK is needed.
 */
export default createPlugin<
  {
    catalog: typeof coreServices.catalog;
    config: typeof coreServices.config;
    dispatcher: typeof coreServices.dispatcher;
    logger: typeof coreServices.logger;
    db: typeof coreServices.db;
    clock: typeof coreServices.clock;
  },
  Settings
>({
  id: 'agent',
  manifest: fromRoot('manifests', 'agent.json'),
  migrations: [createConversations],
  deps: {
    catalog: coreServices.catalog,
    config: coreServices.config,
    dispatcher: coreServices.dispatcher,
    logger: coreServices.logger,
    db: coreServices.db,
    clock: coreServices.clock,
  },
  setup({ catalog, config, dispatcher, logger, db, clock }, context) {
    const settings = readSettings(context.settings);
    // Routes and manifests are fixed once the kernel has booted, so the tools are built once.
    const tools = buildTools(catalog);
    // The MCP transport route is not a tool of itself; WebSockets and event streams are no tools at all.
    const mcpTools = new Map(
      [...tools].filter(([name, tool]) => name !== MCP_TRANSPORT_OPERATION && tool.entry.callable),
    );
    const server = createMcpServer({
      tools: mcpTools,
      dispatcher,
      readOnly: settings.readOnly,
      serverInfo: { name: 'runtime-kernel', version: config.build.version },
      logger,
    });
    // The in-product agent is offered MCP's tools but those that only mint a WebSocket ticket (a
    // route's ticket.minted_by): a browser's way into a socket is of no use to a model, and it is a
    // write a read permission covers, which a viewer's agent must not be offered.
    const minters = new Set([...tools.values()].flatMap((t) => t.route.decl.ticket?.minted_by ?? []));
    const assistantTools = new Map([...mcpTools].filter(([name]) => !minters.has(name)));
    const assistant = assistantSettings(context.settings);
    const store = createConversationStore(db);
    const now = (): Date => clock.now();
    const turnDeps = assistant.provider
      ? {
          provider: createProvider(assistant.provider),
          dispatcher,
          tools: assistantTools,
          store,
          settings: assistant,
          readOnly: settings.readOnly,
          now,
          logger,
        }
      : undefined;
    return {
      handlers: {
        ...agentHandlers({ settings, tools, server }),
        ...assistantHandlers({
          settings: assistant,
          store,
          limiter: createRateLimiter(assistant.rate_limit_per_minute),
          turnDeps,
          tools: assistantTools,
        }),
      },
      contributions: [
        contribute(coreExtensions.jobs, {
          name: 'agent.conversation-retention',
          intervalMs: 3_600_000,
          run: async () => {
            await store.purge(new Date(now().getTime() - assistant.retention_days * DAY_MS));
          },
        }),
      ],
    };
  },
});
