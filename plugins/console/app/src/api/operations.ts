// Generated from the running server's /openapi.json by `npm run console:types`; do not edit.
// test/plugins/console/api-types.test.ts fails when this file differs from a fresh server's document.

export const operations = {
  "ackAlert": {
    "method": "POST",
    "path": "/alerts/{id}/ack",
    "permission": "runtime:alert:write",
    "read_only": false,
    "dry_run": true
  },
  "applyPlan": {
    "method": "POST",
    "path": "/migration/plans/{id}/apply",
    "permission": "runtime:migration:write",
    "read_only": false,
    "dry_run": true
  },
  "approveAgentAction": {
    "method": "POST",
    "path": "/agent/actions/{id}/approve",
    "permission": "authenticated",
    "read_only": false,
    "dry_run": false
  },
  "assignUserRoles": {
    "method": "PUT",
    "path": "/users/{id}/roles",
    "permission": "runtime:identity:write",
    "read_only": false,
    "dry_run": true
  },
  "broadcastBpmnSignal": {
    "method": "POST",
    "path": "/bpmn/signals",
    "permission": "runtime:bpmn:write",
    "read_only": false,
    "dry_run": true
  },
  "browserLogin": {
    "method": "POST",
    "path": "/auth/browser/login",
    "permission": "public",
    "read_only": false,
    "dry_run": false
  },
  "browserLogout": {
    "method": "POST",
    "path": "/auth/browser/logout",
    "permission": "public",
    "read_only": false,
    "dry_run": false
  },
  "browserRefresh": {
    "method": "POST",
    "path": "/auth/browser/refresh",
    "permission": "public",
    "read_only": false,
    "dry_run": false
  },
  "cancelBpmnInstance": {
    "method": "POST",
    "path": "/bpmn/instances/{id}/cancel",
    "permission": "runtime:bpmn:write",
    "read_only": false,
    "dry_run": true
  },
  "chatWithAgent": {
    "method": "POST",
    "path": "/agent/chat",
    "permission": "authenticated",
    "read_only": false,
    "dry_run": false
  },
  "claimBpmnTask": {
    "method": "POST",
    "path": "/bpmn/tasks/{id}/claim",
    "permission": "runtime:bpmn:write",
    "read_only": false,
    "dry_run": true
  },
  "commitConsumerOffsets": {
    "method": "POST",
    "path": "/streams/{id}/consumers/{consumer}/offsets",
    "permission": "runtime:stream:write",
    "read_only": false,
    "dry_run": true
  },
  "completeBpmnJob": {
    "method": "POST",
    "path": "/bpmn/jobs/{id}/complete",
    "permission": "runtime:bpmn:work",
    "read_only": false,
    "dry_run": true
  },
  "completeBpmnTask": {
    "method": "POST",
    "path": "/bpmn/tasks/{id}/complete",
    "permission": "runtime:bpmn:write",
    "read_only": false,
    "dry_run": true
  },
  "correlateBpmnMessage": {
    "method": "POST",
    "path": "/bpmn/messages",
    "permission": "runtime:bpmn:write",
    "read_only": false,
    "dry_run": true
  },
  "createAlertRule": {
    "method": "POST",
    "path": "/alerts/rules",
    "permission": "runtime:alert:write",
    "read_only": false,
    "dry_run": true
  },
  "createCodec": {
    "method": "POST",
    "path": "/codecs",
    "permission": "runtime:codec:write",
    "read_only": false,
    "dry_run": true
  },
  "createComponent": {
    "method": "POST",
    "path": "/components",
    "permission": "runtime:component:write",
    "read_only": false,
    "dry_run": true
  },
  "createIdentityProvider": {
    "method": "POST",
    "path": "/identity-providers",
    "permission": "runtime:identity:write",
    "read_only": false,
    "dry_run": true
  },
  "createPlan": {
    "method": "POST",
    "path": "/migration/plans",
    "permission": "runtime:migration:write",
    "read_only": false,
    "dry_run": true
  },
  "createRole": {
    "method": "POST",
    "path": "/roles",
    "permission": "runtime:identity:write",
    "read_only": false,
    "dry_run": true
  },
  "createSilence": {
    "method": "POST",
    "path": "/alerts/silences",
    "permission": "runtime:alert:write",
    "read_only": false,
    "dry_run": true
  },
  "createStream": {
    "method": "POST",
    "path": "/streams",
    "permission": "runtime:stream:write",
    "read_only": false,
    "dry_run": true
  },
  "createTenant": {
    "method": "POST",
    "path": "/tenants",
    "permission": "runtime:account:admin",
    "read_only": false,
    "dry_run": true
  },
  "createUser": {
    "method": "POST",
    "path": "/users",
    "permission": "runtime:identity:write",
    "read_only": false,
    "dry_run": true
  },
  "createWorkflow": {
    "method": "POST",
    "path": "/workflows",
    "permission": "runtime:workflow:write",
    "read_only": false,
    "dry_run": true
  },
  "createWorkspace": {
    "method": "POST",
    "path": "/studio/workspaces",
    "permission": "studio:write",
    "read_only": false,
    "dry_run": true
  },
  "decodeWithCodec": {
    "method": "POST",
    "path": "/codecs/{id}/decode",
    "permission": "runtime:codec:read",
    "read_only": true,
    "dry_run": false
  },
  "deleteAgentConversation": {
    "method": "DELETE",
    "path": "/agent/conversations/{id}",
    "permission": "authenticated",
    "read_only": false,
    "dry_run": true
  },
  "deleteAlertRule": {
    "method": "DELETE",
    "path": "/alerts/rules/{id}",
    "permission": "runtime:alert:write",
    "read_only": false,
    "dry_run": true
  },
  "deleteCodec": {
    "method": "DELETE",
    "path": "/codecs/{id}",
    "permission": "runtime:codec:write",
    "read_only": false,
    "dry_run": true
  },
  "deleteComponent": {
    "method": "DELETE",
    "path": "/components/{id}",
    "permission": "runtime:component:write",
    "read_only": false,
    "dry_run": true
  },
  "deleteIdentityProvider": {
    "method": "DELETE",
    "path": "/identity-providers/{id}",
    "permission": "runtime:identity:write",
    "read_only": false,
    "dry_run": true
  },
  "deleteRole": {
    "method": "DELETE",
    "path": "/roles/{id}",
    "permission": "runtime:identity:write",
    "read_only": false,
    "dry_run": true
  },
  "deleteStream": {
    "method": "DELETE",
    "path": "/streams/{id}",
    "permission": "runtime:stream:write",
    "read_only": false,
    "dry_run": true
  },
  "deleteUser": {
    "method": "DELETE",
    "path": "/users/{id}",
    "permission": "runtime:identity:write",
    "read_only": false,
    "dry_run": true
  },
  "deleteVariable": {
    "method": "DELETE",
    "path": "/variables/{name}",
    "permission": "runtime:variable:write",
    "read_only": false,
    "dry_run": true
  },
  "deleteWorkflow": {
    "method": "DELETE",
    "path": "/workflows/{id}",
    "permission": "runtime:workflow:write",
    "read_only": false,
    "dry_run": true
  },
  "deleteWorkspace": {
    "method": "DELETE",
    "path": "/studio/workspaces/{id}",
    "permission": "studio:write",
    "read_only": false,
    "dry_run": true
  },
  "denyAgentAction": {
    "method": "POST",
    "path": "/agent/actions/{id}/deny",
    "permission": "authenticated",
    "read_only": false,
    "dry_run": false
  },
  "deployBpmnDefinition": {
    "method": "POST",
    "path": "/bpmn/definitions",
    "permission": "runtime:bpmn:write",
    "read_only": false,
    "dry_run": true
  },
  "deployWorkflow": {
    "method": "POST",
    "path": "/workflows/{id}/deploy",
    "permission": "runtime:workflow:deploy",
    "read_only": false,
    "dry_run": true
  },
  "diffWorkflowRevisions": {
    "method": "GET",
    "path": "/workflows/{id}/revisions/{revision}/diff",
    "permission": "runtime:workflow:read",
    "read_only": true,
    "dry_run": false
  },
  "encodeWithCodec": {
    "method": "POST",
    "path": "/codecs/{id}/encode",
    "permission": "runtime:codec:read",
    "read_only": true,
    "dry_run": false
  },
  "expireSilence": {
    "method": "DELETE",
    "path": "/alerts/silences/{id}",
    "permission": "runtime:alert:write",
    "read_only": false,
    "dry_run": true
  },
  "exportBundle": {
    "method": "POST",
    "path": "/migration/exports",
    "permission": "runtime:migration:read",
    "read_only": true,
    "dry_run": false
  },
  "extendBpmnJobLock": {
    "method": "POST",
    "path": "/bpmn/jobs/{id}/extend-lock",
    "permission": "runtime:bpmn:work",
    "read_only": false,
    "dry_run": true
  },
  "failBpmnJob": {
    "method": "POST",
    "path": "/bpmn/jobs/{id}/fail",
    "permission": "runtime:bpmn:work",
    "read_only": false,
    "dry_run": true
  },
  "fetchAndLockBpmnJobs": {
    "method": "POST",
    "path": "/bpmn/jobs/fetch-and-lock",
    "permission": "runtime:bpmn:work",
    "read_only": false,
    "dry_run": true
  },
  "finishBrowserOidc": {
    "method": "GET",
    "path": "/auth/browser/oidc/callback",
    "permission": "public",
    "read_only": false,
    "dry_run": false
  },
  "getAgentConversation": {
    "method": "GET",
    "path": "/agent/conversations/{id}",
    "permission": "authenticated",
    "read_only": true,
    "dry_run": false
  },
  "getAlertRule": {
    "method": "GET",
    "path": "/alerts/rules/{id}",
    "permission": "runtime:alert:read",
    "read_only": true,
    "dry_run": false
  },
  "getBpmnDefinition": {
    "method": "GET",
    "path": "/bpmn/definitions/{key}",
    "permission": "runtime:bpmn:read",
    "read_only": true,
    "dry_run": false
  },
  "getBpmnDefinitionXml": {
    "method": "GET",
    "path": "/bpmn/definitions/{key}/xml",
    "permission": "runtime:bpmn:read",
    "read_only": true,
    "dry_run": false
  },
  "getBpmnInstance": {
    "method": "GET",
    "path": "/bpmn/instances/{id}",
    "permission": "runtime:bpmn:read",
    "read_only": true,
    "dry_run": false
  },
  "getBpmnTask": {
    "method": "GET",
    "path": "/bpmn/tasks/{id}",
    "permission": "runtime:bpmn:read",
    "read_only": true,
    "dry_run": false
  },
  "getCodec": {
    "method": "GET",
    "path": "/codecs/{id}",
    "permission": "runtime:codec:read",
    "read_only": true,
    "dry_run": false
  },
  "getComponent": {
    "method": "GET",
    "path": "/components/{id}",
    "permission": "runtime:component:read",
    "read_only": true,
    "dry_run": false
  },
  "getConsole": {
    "method": "GET",
    "path": "/console",
    "permission": "public",
    "read_only": true,
    "dry_run": false
  },
  "getConsoleFile": {
    "method": "GET",
    "path": "/console/{path}",
    "permission": "public",
    "read_only": true,
    "dry_run": false
  },
  "getDashboard": {
    "method": "GET",
    "path": "/dashboard",
    "permission": "runtime:dashboard:read",
    "read_only": true,
    "dry_run": false
  },
  "getHealth": {
    "method": "GET",
    "path": "/health",
    "permission": "public",
    "read_only": true,
    "dry_run": false
  },
  "getIdentityProvider": {
    "method": "GET",
    "path": "/identity-providers/{id}",
    "permission": "runtime:identity:read",
    "read_only": true,
    "dry_run": false
  },
  "getLive": {
    "method": "GET",
    "path": "/live",
    "permission": "public",
    "read_only": true,
    "dry_run": false
  },
  "getMe": {
    "method": "GET",
    "path": "/auth/me",
    "permission": "authenticated",
    "read_only": true,
    "dry_run": false
  },
  "getMessage": {
    "method": "GET",
    "path": "/messages/{id}",
    "permission": "runtime:message:read",
    "read_only": true,
    "dry_run": false
  },
  "getMessageBody": {
    "method": "GET",
    "path": "/messages/{id}/body",
    "permission": "runtime:message:read",
    "read_only": true,
    "dry_run": false
  },
  "getMetrics": {
    "method": "GET",
    "path": "/metrics",
    "permission": "public",
    "read_only": true,
    "dry_run": false
  },
  "getOpenApi": {
    "method": "GET",
    "path": "/openapi.json",
    "permission": "authenticated",
    "read_only": true,
    "dry_run": false
  },
  "getPlan": {
    "method": "GET",
    "path": "/migration/plans/{id}",
    "permission": "runtime:migration:read",
    "read_only": true,
    "dry_run": false
  },
  "getReady": {
    "method": "GET",
    "path": "/ready",
    "permission": "public",
    "read_only": true,
    "dry_run": false
  },
  "getServiceRoot": {
    "method": "GET",
    "path": "/",
    "permission": "public",
    "read_only": true,
    "dry_run": false
  },
  "getStream": {
    "method": "GET",
    "path": "/streams/{id}",
    "permission": "runtime:stream:read",
    "read_only": true,
    "dry_run": false
  },
  "getUser": {
    "method": "GET",
    "path": "/users/{id}",
    "permission": "runtime:identity:read",
    "read_only": true,
    "dry_run": false
  },
  "getVariable": {
    "method": "GET",
    "path": "/variables/{name}",
    "permission": "runtime:variable:read",
    "read_only": true,
    "dry_run": false
  },
  "getWorkflow": {
    "method": "GET",
    "path": "/workflows/{id}",
    "permission": "runtime:workflow:read",
    "read_only": true,
    "dry_run": false
  },
  "getWorkflowRun": {
    "method": "GET",
    "path": "/workflows/{id}/runs/{run}",
    "permission": "runtime:workflow:read",
    "read_only": true,
    "dry_run": false
  },
  "getWorkspace": {
    "method": "GET",
    "path": "/studio/workspaces/{id}",
    "permission": "studio:read",
    "read_only": true,
    "dry_run": false
  },
  "getWorkspaceFiles": {
    "method": "GET",
    "path": "/studio/workspaces/{id}/files",
    "permission": "studio:read",
    "read_only": true,
    "dry_run": false
  },
  "listAccountAudit": {
    "method": "GET",
    "path": "/audit/account",
    "permission": "runtime:account:admin",
    "read_only": true,
    "dry_run": false
  },
  "listAgentConversations": {
    "method": "GET",
    "path": "/agent/conversations",
    "permission": "authenticated",
    "read_only": true,
    "dry_run": false
  },
  "listAgentTools": {
    "method": "GET",
    "path": "/agent/tools",
    "permission": "authenticated",
    "read_only": true,
    "dry_run": false
  },
  "listAlertRules": {
    "method": "GET",
    "path": "/alerts/rules",
    "permission": "runtime:alert:read",
    "read_only": true,
    "dry_run": false
  },
  "listAlerts": {
    "method": "GET",
    "path": "/alerts",
    "permission": "runtime:alert:read",
    "read_only": true,
    "dry_run": false
  },
  "listAlertSignals": {
    "method": "GET",
    "path": "/alert-signals",
    "permission": "runtime:alert:read",
    "read_only": true,
    "dry_run": false
  },
  "listApiTokens": {
    "method": "GET",
    "path": "/api-tokens",
    "permission": "runtime:identity:read",
    "read_only": true,
    "dry_run": false
  },
  "listAudit": {
    "method": "GET",
    "path": "/audit",
    "permission": "runtime:audit:read",
    "read_only": true,
    "dry_run": false
  },
  "listBpmnDefinitions": {
    "method": "GET",
    "path": "/bpmn/definitions",
    "permission": "runtime:bpmn:read",
    "read_only": true,
    "dry_run": false
  },
  "listBpmnIncidents": {
    "method": "GET",
    "path": "/bpmn/incidents",
    "permission": "runtime:bpmn:read",
    "read_only": true,
    "dry_run": false
  },
  "listBpmnInstances": {
    "method": "GET",
    "path": "/bpmn/instances",
    "permission": "runtime:bpmn:read",
    "read_only": true,
    "dry_run": false
  },
  "listBpmnJobs": {
    "method": "GET",
    "path": "/bpmn/jobs",
    "permission": "runtime:bpmn:read",
    "read_only": true,
    "dry_run": false
  },
  "listBpmnTasks": {
    "method": "GET",
    "path": "/bpmn/tasks",
    "permission": "runtime:bpmn:read",
    "read_only": true,
    "dry_run": false
  },
  "listBrowserProviders": {
    "method": "GET",
    "path": "/auth/browser/providers",
    "permission": "public",
    "read_only": true,
    "dry_run": false
  },
  "listCodecKinds": {
    "method": "GET",
    "path": "/codec-kinds",
    "permission": "runtime:codec:read",
    "read_only": true,
    "dry_run": false
  },
  "listCodecRevisions": {
    "method": "GET",
    "path": "/codecs/{id}/revisions",
    "permission": "runtime:codec:read",
    "read_only": true,
    "dry_run": false
  },
  "listCodecs": {
    "method": "GET",
    "path": "/codecs",
    "permission": "runtime:codec:read",
    "read_only": true,
    "dry_run": false
  },
  "listComponents": {
    "method": "GET",
    "path": "/components",
    "permission": "runtime:component:read",
    "read_only": true,
    "dry_run": false
  },
  "listComponentTypes": {
    "method": "GET",
    "path": "/component-types",
    "permission": "runtime:component:read",
    "read_only": true,
    "dry_run": false
  },
  "listConsumers": {
    "method": "GET",
    "path": "/streams/{id}/consumers",
    "permission": "runtime:stream:read",
    "read_only": true,
    "dry_run": false
  },
  "listIdentityProviders": {
    "method": "GET",
    "path": "/identity-providers",
    "permission": "runtime:identity:read",
    "read_only": true,
    "dry_run": false
  },
  "listLogs": {
    "method": "GET",
    "path": "/logs",
    "permission": "runtime:log:read",
    "read_only": true,
    "dry_run": false
  },
  "listMcpTools": {
    "method": "GET",
    "path": "/agent/mcp",
    "permission": "authenticated",
    "read_only": true,
    "dry_run": false
  },
  "listMessages": {
    "method": "GET",
    "path": "/messages",
    "permission": "runtime:message:read",
    "read_only": true,
    "dry_run": false
  },
  "listRoles": {
    "method": "GET",
    "path": "/roles",
    "permission": "runtime:identity:read",
    "read_only": true,
    "dry_run": false
  },
  "listSessions": {
    "method": "GET",
    "path": "/auth/sessions",
    "permission": "authenticated",
    "read_only": true,
    "dry_run": false
  },
  "listSilences": {
    "method": "GET",
    "path": "/alerts/silences",
    "permission": "runtime:alert:read",
    "read_only": true,
    "dry_run": false
  },
  "listStreams": {
    "method": "GET",
    "path": "/streams",
    "permission": "runtime:stream:read",
    "read_only": true,
    "dry_run": false
  },
  "listTenants": {
    "method": "GET",
    "path": "/tenants",
    "permission": "runtime:account:admin",
    "read_only": true,
    "dry_run": false
  },
  "listUsers": {
    "method": "GET",
    "path": "/users",
    "permission": "runtime:identity:read",
    "read_only": true,
    "dry_run": false
  },
  "listVariables": {
    "method": "GET",
    "path": "/variables",
    "permission": "runtime:variable:read",
    "read_only": true,
    "dry_run": false
  },
  "listWorkflowRevisions": {
    "method": "GET",
    "path": "/workflows/{id}/revisions",
    "permission": "runtime:workflow:read",
    "read_only": true,
    "dry_run": false
  },
  "listWorkflowRuns": {
    "method": "GET",
    "path": "/workflows/{id}/runs",
    "permission": "runtime:workflow:read",
    "read_only": true,
    "dry_run": false
  },
  "listWorkflows": {
    "method": "GET",
    "path": "/workflows",
    "permission": "runtime:workflow:read",
    "read_only": true,
    "dry_run": false
  },
  "listWorkspaceRevisions": {
    "method": "GET",
    "path": "/studio/workspaces/{id}/revisions",
    "permission": "studio:read",
    "read_only": true,
    "dry_run": false
  },
  "listWorkspaces": {
    "method": "GET",
    "path": "/studio/workspaces",
    "permission": "studio:read",
    "read_only": true,
    "dry_run": false
  },
  "login": {
    "method": "POST",
    "path": "/auth/login",
    "permission": "public",
    "read_only": false,
    "dry_run": false
  },
  "logout": {
    "method": "POST",
    "path": "/auth/logout",
    "permission": "authenticated",
    "read_only": false,
    "dry_run": true
  },
  "logoutAll": {
    "method": "POST",
    "path": "/auth/logout-all",
    "permission": "authenticated",
    "read_only": false,
    "dry_run": true
  },
  "migrateBpmnInstance": {
    "method": "POST",
    "path": "/bpmn/instances/{id}/migrate",
    "permission": "runtime:bpmn:write",
    "read_only": false,
    "dry_run": true
  },
  "mintApiToken": {
    "method": "POST",
    "path": "/api-tokens",
    "permission": "runtime:identity:write",
    "read_only": false,
    "dry_run": true
  },
  "mintStudioTicket": {
    "method": "POST",
    "path": "/studio/tickets",
    "permission": "studio:read",
    "read_only": false,
    "dry_run": false
  },
  "openCollabSocket": {
    "method": "GET",
    "path": "/studio/collab/ws",
    "permission": "studio:read",
    "read_only": true,
    "dry_run": false
  },
  "openTerminalSocket": {
    "method": "GET",
    "path": "/studio/terminal/ws",
    "permission": "studio:read",
    "read_only": true,
    "dry_run": false
  },
  "patchComponent": {
    "method": "PATCH",
    "path": "/components/{id}",
    "permission": "runtime:component:write",
    "read_only": false,
    "dry_run": true
  },
  "patchIdentityProvider": {
    "method": "PATCH",
    "path": "/identity-providers/{id}",
    "permission": "runtime:identity:write",
    "read_only": false,
    "dry_run": true
  },
  "patchStream": {
    "method": "PATCH",
    "path": "/streams/{id}",
    "permission": "runtime:stream:write",
    "read_only": false,
    "dry_run": true
  },
  "patchUser": {
    "method": "PATCH",
    "path": "/users/{id}",
    "permission": "runtime:identity:write",
    "read_only": false,
    "dry_run": true
  },
  "patchWorkflow": {
    "method": "PATCH",
    "path": "/workflows/{id}",
    "permission": "runtime:workflow:write",
    "read_only": false,
    "dry_run": true
  },
  "pauseWorkflow": {
    "method": "POST",
    "path": "/workflows/{id}/pause",
    "permission": "runtime:workflow:deploy",
    "read_only": false,
    "dry_run": true
  },
  "postMcpMessage": {
    "method": "POST",
    "path": "/agent/mcp",
    "permission": "authenticated",
    "read_only": true,
    "dry_run": false
  },
  "publishMessages": {
    "method": "POST",
    "path": "/streams/{id}/messages",
    "permission": "runtime:stream:write",
    "read_only": false,
    "dry_run": true
  },
  "putVariable": {
    "method": "PUT",
    "path": "/variables/{name}",
    "permission": "runtime:variable:write",
    "read_only": false,
    "dry_run": true
  },
  "putWorkspaceFiles": {
    "method": "PUT",
    "path": "/studio/workspaces/{id}/files",
    "permission": "studio:write",
    "read_only": false,
    "dry_run": true
  },
  "readStreamMessages": {
    "method": "GET",
    "path": "/streams/{id}/messages",
    "permission": "runtime:stream:read",
    "read_only": true,
    "dry_run": false
  },
  "receiveWebhook": {
    "method": "POST",
    "path": "/hooks/{hook}",
    "permission": "public",
    "read_only": false,
    "dry_run": false
  },
  "redriveMessages": {
    "method": "POST",
    "path": "/messages/redrive",
    "permission": "runtime:message:write",
    "read_only": false,
    "dry_run": true
  },
  "refreshSession": {
    "method": "POST",
    "path": "/auth/refresh",
    "permission": "public",
    "read_only": false,
    "dry_run": false
  },
  "replaceAlertRule": {
    "method": "PUT",
    "path": "/alerts/rules/{id}",
    "permission": "runtime:alert:write",
    "read_only": false,
    "dry_run": true
  },
  "replaceCodec": {
    "method": "PUT",
    "path": "/codecs/{id}",
    "permission": "runtime:codec:write",
    "read_only": false,
    "dry_run": true
  },
  "replaceComponent": {
    "method": "PUT",
    "path": "/components/{id}",
    "permission": "runtime:component:write",
    "read_only": false,
    "dry_run": true
  },
  "replaceWorkflow": {
    "method": "PUT",
    "path": "/workflows/{id}",
    "permission": "runtime:workflow:write",
    "read_only": false,
    "dry_run": true
  },
  "replayBpmnInstance": {
    "method": "POST",
    "path": "/bpmn/instances/{id}/replay",
    "permission": "runtime:bpmn:write",
    "read_only": false,
    "dry_run": true
  },
  "replayMessage": {
    "method": "POST",
    "path": "/messages/{id}/replay",
    "permission": "runtime:message:write",
    "read_only": false,
    "dry_run": true
  },
  "replayWorkflowRun": {
    "method": "POST",
    "path": "/workflows/{id}/runs/{run}/replay",
    "permission": "runtime:workflow:deploy",
    "read_only": false,
    "dry_run": true
  },
  "resolveBpmnIncident": {
    "method": "POST",
    "path": "/bpmn/incidents/{id}/resolve",
    "permission": "runtime:bpmn:write",
    "read_only": false,
    "dry_run": true
  },
  "restartComponent": {
    "method": "POST",
    "path": "/components/{id}/restart",
    "permission": "runtime:component:write",
    "read_only": false,
    "dry_run": true
  },
  "resumeWorkflow": {
    "method": "POST",
    "path": "/workflows/{id}/resume",
    "permission": "runtime:workflow:deploy",
    "read_only": false,
    "dry_run": true
  },
  "revokeApiToken": {
    "method": "DELETE",
    "path": "/api-tokens/{id}",
    "permission": "runtime:identity:write",
    "read_only": false,
    "dry_run": true
  },
  "runSqlQuery": {
    "method": "POST",
    "path": "/sql/query",
    "permission": "runtime:sql:query",
    "read_only": true,
    "dry_run": false
  },
  "runWorkspace": {
    "method": "POST",
    "path": "/studio/workspaces/{id}/run",
    "permission": "studio:write",
    "read_only": false,
    "dry_run": true
  },
  "setBpmnInstanceVariables": {
    "method": "POST",
    "path": "/bpmn/instances/{id}/variables",
    "permission": "runtime:bpmn:write",
    "read_only": false,
    "dry_run": true
  },
  "startBpmnInstance": {
    "method": "POST",
    "path": "/bpmn/instances",
    "permission": "runtime:bpmn:write",
    "read_only": false,
    "dry_run": true
  },
  "startBrowserOidc": {
    "method": "GET",
    "path": "/auth/browser/oidc/start",
    "permission": "public",
    "read_only": true,
    "dry_run": false
  },
  "startComponent": {
    "method": "POST",
    "path": "/components/{id}/start",
    "permission": "runtime:component:write",
    "read_only": false,
    "dry_run": true
  },
  "stopComponent": {
    "method": "POST",
    "path": "/components/{id}/stop",
    "permission": "runtime:component:write",
    "read_only": false,
    "dry_run": true
  },
  "tailStream": {
    "method": "GET",
    "path": "/streams/{id}/tail",
    "permission": "runtime:stream:read",
    "read_only": true,
    "dry_run": false
  },
  "testWorkspace": {
    "method": "POST",
    "path": "/studio/workspaces/{id}/test",
    "permission": "studio:write",
    "read_only": false,
    "dry_run": true
  },
  "throwBpmnJobError": {
    "method": "POST",
    "path": "/bpmn/jobs/{id}/bpmn-error",
    "permission": "runtime:bpmn:work",
    "read_only": false,
    "dry_run": true
  },
  "unclaimBpmnTask": {
    "method": "POST",
    "path": "/bpmn/tasks/{id}/unclaim",
    "permission": "runtime:bpmn:write",
    "read_only": false,
    "dry_run": true
  },
  "updateWorkspace": {
    "method": "PATCH",
    "path": "/studio/workspaces/{id}",
    "permission": "studio:write",
    "read_only": false,
    "dry_run": true
  },
  "verifyAccountAudit": {
    "method": "GET",
    "path": "/audit/account/verify",
    "permission": "runtime:account:admin",
    "read_only": true,
    "dry_run": false
  },
  "verifyAudit": {
    "method": "GET",
    "path": "/audit/verify",
    "permission": "runtime:audit:read",
    "read_only": true,
    "dry_run": false
  }
} as const;

export type OperationId = keyof typeof operations;
