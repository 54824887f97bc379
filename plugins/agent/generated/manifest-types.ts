// Generated from manifests/agent.json by `npm run types:generate`; do not edit.
// test/kernel/manifest/generated-types.test.ts fails when it differs from what the manifest generates.
// Input types read as the kernel leaves the input after validation: fields with a default are present.

/** `settings.agent`, as setup receives them: checked, defaults filled in. */
export type Settings = {
  /** Expose and allow only read-only tools (MCP and the in-product agent), whatever the caller's credential may do. */
  read_only: boolean;
  /** Browser origins allowed to talk to the MCP endpoint besides loopback ones (scheme://host[:port], or *). */
  allowed_origins: string[];
  /** The in-product agent's model provider: the OpenAI-compatible Chat Completions API (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp, LM Studio) or the Anthropic Messages API. Without it every /agent/chat, /agent/conversations and /agent/actions route answers 501 not_configured. */
  provider?: 'openai' | 'anthropic';
  /** The provider's API base, e.g. http://127.0.0.1:11434/v1 for Ollama (default: the provider's public API). */
  base_url?: string;
  /** The model name the provider knows. */
  model?: string;
  /** The provider's API key; never returned by any route nor logged. */
  api_key?: string;
  /** How long a model request may take to begin answering; past it the turn answers 503 unavailable. */
  provider_timeout_ms: number;
  /** The longest one turn (all its model requests and tool calls) may last. */
  turn_timeout_ms: number;
  /** Tool calls one turn may make. */
  max_tool_calls_per_turn: number;
  /** Output tokens one turn may spend across its model requests. */
  max_tokens_per_turn: number;
  /** Turns (chat, approve, deny) per user per minute on each instance; over it 429 with Retry-After. */
  rate_limit_per_minute: number;
  /** Conversations untouched this long are deleted. */
  conversation_retention_days: number;
  /** Permissions whose writes the agent runs without asking the user first. Empty by default: every write waits for approval. */
  auto_approve_permissions: string[];
};

export type CatalogEntry = {
  /** The operation name; the MCP tool name. */
  name: string;
  plugin: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** The permission the route enforces, `public` or `authenticated`. */
  permission: string;
  category: string;
  read_only: boolean;
  description: string;
  idempotency: 'none' | 'request_id' | 'idempotency_key';
  paging?: {
    default_limit: number;
    max_limit: number;
    cursor_in: 'header' | 'body';
  };
  /** One JSON Schema (2020-12) object merging path parameters, query and body; self-contained ($defs). */
  input_schema: Record<string, unknown>;
};

export type Catalog = {
  tools: CatalogEntry[];
};

export type McpTool = {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: {
    title?: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint?: boolean;
  };
};

export type McpToolList = {
  tools: McpTool[];
};

/** A JSON-RPC 2.0 request, notification or response (MCP Streamable HTTP). */
export type JsonRpcMessage = {
  jsonrpc?: '2.0';
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
};

export type JsonRpcBody = JsonRpcMessage | JsonRpcMessage[];

export type ChatBody = {
  /** Continue this conversation (one of yours); omit to start one. */
  conversation_id?: string;
  message: string;
};

export type Turn = {
  conversation_id: string;
  events: {
    event: string;
    data: unknown;
  }[];
  /** The model's words in this turn, joined. */
  text: string;
  pending_actions: string[];
};

export type Conversation = {
  id: string;
  tenant_id: string;
  title: string;
  created_at: string;
  updated_at: string;
  messages?: Record<string, unknown>[];
  actions?: Action[];
};

export type ConversationList = {
  items: Conversation[];
};

export type Action = {
  id: string;
  conversation_id: string;
  tool: string;
  arguments: Record<string, unknown>;
  dry_run?: unknown;
  state: 'pending' | 'approved' | 'denied';
  result?: unknown;
  created_at?: string;
  decided_at?: string | null;
};

export type IdParams = {
  id: string;
};

export type DenyBody = {
  reason?: string;
};

/** Each operation's input by operationId, for `operationHandlers<Operations>` (kernel/plugin/api.ts). */
export type Operations = {
  listAgentTools: {
    params: Record<string, never>;
    query: {
      /** Only operations of this category (builder, studio, operate, identity, discovery, ...). */
      category?: string;
      /** true: only read-only operations; false: only operations that change state. */
      read_only?: boolean;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: false;
    authenticated: true;
  };
  listMcpTools: {
    params: Record<string, never>;
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: false;
    authenticated: true;
  };
  postMcpMessage: {
    params: Record<string, never>;
    query: Record<string, never>;
    body: JsonRpcMessage | JsonRpcMessage[];
    tenant: false;
    authenticated: true;
  };
  chatWithAgent: {
    params: Record<string, never>;
    query: Record<string, never>;
    body: {
      /** Continue this conversation (one of yours); omit to start one. */
      conversation_id?: string;
      message: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  listAgentConversations: {
    params: Record<string, never>;
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Page size; default 50, larger values are clamped to 200. */
      limit?: number;
      /** Opaque cursor from the previous page. */
      cursor?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  getAgentConversation: {
    params: {
      id: string;
    };
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  deleteAgentConversation: {
    params: {
      id: string;
    };
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  approveAgentAction: {
    params: {
      id: string;
    };
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  denyAgentAction: {
    params: {
      id: string;
    };
    query: Record<string, never>;
    body: {
      reason?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
};
