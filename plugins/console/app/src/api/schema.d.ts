export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness and build information */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Fail-closed readiness for a load-balancer gate: 503 unless the database answers in time and every plugin has started */
        get: operations["getReady"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Process liveness for Kubernetes */
        get: operations["getLive"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics (unauthenticated for scraping) */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OpenAPI 3.1 document of every enabled route, generated from the manifests */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with tenant, username and password; returns a session's access and refresh tokens
         * @description Unknown user, wrong password, disabled and locked-out accounts all answer the same 401 invalid_credentials. Repeated failures lock the account for a growing time.
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a refresh token for new access and refresh tokens (both rotate)
         * @description A refresh token works once. Presenting a rotated-out refresh token again revokes the whole session.
         */
        post: operations["refreshSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke the calling session */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke every session of the calling subject */
        post: operations["logoutAll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the calling subject's active sessions (never their tokens) */
        get: operations["listSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/browser/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign a browser in with tenant, username and password: the session's tokens are set as HttpOnly cookies, never returned
         * @description The same sessions, lockout and audit as POST /auth/login. Sets runtime_session (the access token, Path=/) and runtime_refresh (Path=/auth/browser), both HttpOnly, SameSite=Strict, Secure over TLS. Needs the header X-Runtime-CSRF: 1 and a same-origin Origin (403 csrf_rejected otherwise).
         */
        post: operations["browserLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/browser/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the browser session's tokens (both cookies are replaced)
         * @description Reads the runtime_refresh cookie. As POST /auth/refresh: a refresh token works once, and a rotated-out one coming back revokes the whole session. Needs X-Runtime-CSRF: 1 and a same-origin Origin.
         */
        post: operations["browserRefresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/browser/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign the browser out: revoke its session (or, with everywhere, every session of its subject) and clear the cookies
         * @description Answers 204 and clears the cookies even when the session had already ended. Needs X-Runtime-CSRF: 1 and a same-origin Origin.
         */
        post: operations["browserLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who the caller is: subject, tenant, roles, every permission held and the session, for any credential */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/browser/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The identity providers a browser can sign in to a tenant with (single sign-on buttons of the sign-in page) */
        get: operations["listBrowserProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/browser/oidc/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start single sign-on in a browser: 302 to the provider's authorization endpoint (authorization code with PKCE S256, state and nonce)
         * @description The flow is kept server-side for ten minutes and bound to this browser by an HttpOnly cookie (SameSite=Lax, Path=/auth/browser/oidc). The provider must accept the redirect URI <origin>/auth/browser/oidc/callback for the provider's browser_client_id (a public client).
         */
        get: operations["startBrowserOidc"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/browser/oidc/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Where the provider sends the browser back: redeems the code, verifies the ID token, sets the session cookies and sends the browser to return_to
         * @description A refusal by the provider or an invalid answer sends the browser to return_to with ?sign_in_error=<code>. Audited (security).
         */
        get: operations["finishBrowserOidc"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List every tenant of the account */
        get: operations["listTenants"];
        put?: never;
        /** Create a tenant; its id is the given id or a slug of its name */
        post: operations["createTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the users of a tenant */
        get: operations["listUsers"];
        put?: never;
        /** Create a user with a password and roles (no role may grant more than the caller holds) */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one user */
        get: operations["getUser"];
        put?: never;
        post?: never;
        /**
         * Delete a user; revoke its sessions and the API tokens it minted
         * @description Refused with 409 when it would leave the bootstrap tenant without an active account admin.
         */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        /**
         * Change a user's password, email, display name; disable, enable or unlock it
         * @description Disabling a user or changing its password revokes its sessions; while a user is disabled, the API tokens it minted are refused. Disabling the last active account admin of the bootstrap tenant is refused with 409.
         */
        patch: operations["patchUser"];
        trace?: never;
    };
    "/users/{id}/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Replace a user's roles (no role may grant more than the caller holds)
         * @description Refused with 409 when it would leave the bootstrap tenant without an active account admin.
         */
        put: operations["assignUserRoles"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the built-in roles and the tenant's custom roles with their permissions */
        get: operations["listRoles"];
        put?: never;
        /** Create a custom role of the tenant from declared permissions (none beyond those the caller holds) */
        post: operations["createRole"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/roles/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a custom role; its name leaves every user, API token and identity provider holding it, at once
         * @description A role later created under the same name is not handed back to them. Refused with 409 when it would leave the bootstrap tenant without an active account admin.
         */
        delete: operations["deleteRole"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the API tokens of a tenant (never their secrets) */
        get: operations["listApiTokens"];
        put?: never;
        /**
         * Mint an API token; its secret (sk_…) is returned once. Its roles may not grant more than the caller holds
         * @description The token lives by the account that minted it: it is refused while that user is disabled, and revoked when the user is deleted (a token minted with a token lives by the same account; one minted with an OIDC token by the identity provider).
         */
        post: operations["mintApiToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API token; the next request with it is refused */
        delete: operations["revokeApiToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/identity-providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the tenant's OIDC identity providers */
        get: operations["listIdentityProviders"];
        put?: never;
        /**
         * Trust an OIDC issuer's JWT access tokens for the tenant
         * @description An (issuer, audience) pair belongs to one tenant: a pair registered already, by any tenant or in the configuration, is 409 conflict. Tokens sign in to this tenant only. default_roles and allowed_roles may not grant more than the caller holds.
         */
        post: operations["createIdentityProvider"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/identity-providers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one identity provider */
        get: operations["getIdentityProvider"];
        put?: never;
        post?: never;
        /** Stop trusting an identity provider */
        delete: operations["deleteIdentityProvider"];
        options?: never;
        head?: never;
        /**
         * Change an identity provider
         * @description Any change but disabling needs the caller to be able to grant the provider's default_roles and allowed_roles. A new issuer or audience registered already elsewhere is 409 conflict.
         */
        patch: operations["patchIdentityProvider"];
        trace?: never;
    };
    "/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's audit trail, newest first; filter by actor, operation, status (code or outcome), resource and time */
        get: operations["listAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/audit/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Chain the committed records, recompute the tenant's hash chain and report the first broken link */
        get: operations["verifyAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/audit/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account-level trail, newest first: calls nobody authenticated (failed logins, bad credentials), recorded at a bounded rate instead of in any tenant's trail */
        get: operations["listAccountAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/audit/account/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Chain the committed records of the account-level trail, recompute its hash chain and report the first broken link */
        get: operations["verifyAccountAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's runtime log, newest first; filter by minimum level, source and time */
        get: operations["listLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/variables": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the tenant's variables, by name */
        get: operations["listVariables"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/variables/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one variable */
        get: operations["getVariable"];
        /** Set a variable (create or change); components and workflows referring to it read the new value at their next start or deploy */
        put: operations["putVariable"];
        post?: never;
        /** Delete a variable; 409 naming each component or deployed workflow that still refers to it */
        delete: operations["deleteVariable"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/component-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The component types the enabled plugins contribute (sources, processors, sinks), each with the schema of its config */
        get: operations["listComponentTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/components": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List components of a tenant, filtered by state and tag */
        get: operations["listComponents"];
        put?: never;
        /** Create a component; its id is the given id or a slug of its name */
        post: operations["createComponent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/components/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one component */
        get: operations["getComponent"];
        /** Replace a component's name, description, tags and config */
        put: operations["replaceComponent"];
        post?: never;
        /** Delete a component */
        delete: operations["deleteComponent"];
        options?: never;
        head?: never;
        /** Change some fields of a component */
        patch: operations["patchComponent"];
        trace?: never;
    };
    "/components/{id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Supervisor action: start a component
         * @description A source is run by the instance holding its lease: the answer has desired_state running and state as it was; state turns running once the source has started (or failed with last_error). Other kinds switch at once.
         */
        post: operations["startComponent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/components/{id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Supervisor action: stop a component */
        post: operations["stopComponent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/components/{id}/restart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Supervisor action: restart a component
         * @description A source is run by the instance holding its lease: the answer has desired_state running and state as it was; state turns running once the source has started (or failed with last_error). Other kinds switch at once.
         */
        post: operations["restartComponent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/codec-kinds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The codec kinds the enabled plugins contribute, each with the schema of its schema field */
        get: operations["listCodecKinds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/codecs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a tenant's codecs, optionally of one kind */
        get: operations["listCodecs"];
        put?: never;
        /**
         * Create a codec of a kind; its schema is checked by the kind (400 naming where it is wrong)
         * @description The id is the given id or a slug of the name. The codec starts at revision 1 (ETag "1"); an unknown kind is a 400 naming the known kinds.
         */
        post: operations["createCodec"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/codecs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one codec; its ETag is its revision */
        get: operations["getCodec"];
        /**
         * Replace a codec's name and schema as a new revision; a change that breaks compatibility is refused unless forced
         * @description If-Match with the ETag read before (the revision, quoted) makes the change conditional: another revision is 412 precondition_failed. An avro or protobuf schema change that breaks compatibility (a removed field without default, a changed type, a reused protobuf field number...) or a changed kind is 422 incompatible_schema with one detail per thing that broke, unless ?force=true; the revision then records what broke. Every PUT keeps the new revision in GET /codecs/{id}/revisions.
         */
        put: operations["replaceCodec"];
        post?: never;
        /** Delete a codec and its revisions (If-Match makes it conditional) */
        delete: operations["deleteCodec"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/codecs/{id}/revisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The revisions of a codec, oldest first */
        get: operations["listCodecRevisions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/codecs/{id}/decode": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Decode bytes (application/octet-stream) with a codec into its value
         * @description Bytes that do not decode are a 400 naming the problem. ?revision=N reads bytes written under an older revision: avro resolves that writer schema to the current one; other kinds read with that revision's schema.
         */
        post: operations["decodeWithCodec"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/codecs/{id}/encode": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Encode a value with a codec into bytes (application/octet-stream)
         * @description A value that does not fit the codec is a 400 naming its path under /value.
         */
        post: operations["encodeWithCodec"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/streams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a tenant's streams */
        get: operations["listStreams"];
        put?: never;
        /** Create a stream (1–64 partitions, retention by age and count, optional codec); its id is the given id or a slug of its name */
        post: operations["createStream"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/streams/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one stream */
        get: operations["getStream"];
        put?: never;
        post?: never;
        /** Delete a stream; its messages disappear at once and are removed by the retention job in batches */
        delete: operations["deleteStream"];
        options?: never;
        head?: never;
        /** Change a stream's name, retention or codec, or add partitions */
        patch: operations["patchStream"];
        trace?: never;
    };
    "/streams/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a stream's messages in (partition, offset) order, from an offset */
        get: operations["readStreamMessages"];
        put?: never;
        /** Publish 1–1000 messages in one transaction (JSON), or one raw message (application/octet-stream, key in X-Message-Key); same key → same partition */
        post: operations["publishMessages"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/streams/{id}/tail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Watch a stream's new messages as server-sent events (event: message, id: partition:offset) */
        get: operations["tailStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/streams/{id}/consumers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Each consumer's committed offset and lag, per partition */
        get: operations["listConsumers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/streams/{id}/consumers/{consumer}/offsets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Commit a consumer's offsets (the next offset it will read, per partition) */
        post: operations["commitConsumerOffsets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A tenant's messages across streams, filtered by stream, publish time and (with workflow) delivery status */
        get: operations["listMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One message: decoded value (or body_base64), headers, size and deliveries */
        get: operations["getMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/{id}/body": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A message's raw body (its content type in X-Message-Content-Type) */
        get: operations["getMessageBody"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Append a new message with the same body, key and headers (plus x-replay-of) and replay_of set; the original is untouched */
        post: operations["replayMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/redrive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replay, as new messages, a workflow's dead letters (dead and not yet redriven), bounded by limit: each dead message is redriven once, then listed as redriven with its replay */
        post: operations["redriveMessages"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/definitions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List deployed definitions (every version) */
        get: operations["listBpmnDefinitions"];
        put?: never;
        /** Deploy BPMN 2.0 XML (application/octet-stream): a new version of its process, or (the same XML again) the version it already is */
        post: operations["deployBpmnDefinition"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/definitions/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one deployed definition */
        get: operations["getBpmnDefinition"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/definitions/{key}/xml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The deployed XML, as it was sent */
        get: operations["getBpmnDefinitionXml"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/instances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List instances, oldest first; the next cursor is in the body (`next_cursor`) */
        get: operations["listBpmnInstances"];
        put?: never;
        /** Start an instance of a process (latest version unless `version`) or of a definition `key`, with variables and a business key; it runs until it waits */
        post: operations["startBpmnInstance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/instances/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an instance: state, variables, where it waits, its tasks, history and incidents */
        get: operations["getBpmnInstance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/instances/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel an active instance (its open tasks are cancelled, its timers and subscriptions removed) */
        post: operations["cancelBpmnInstance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/instances/{id}/migrate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Move a running instance to another version of its process (the latest by default); 409 when an element it waits at is not in that version */
        post: operations["migrateBpmnInstance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/instances/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a new instance (replay_of = this one) from the start with its first variables, or from an activity it waited at with the variables as they were there; the original is unchanged */
        post: operations["replayBpmnInstance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List user tasks, oldest first */
        get: operations["listBpmnTasks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/tasks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user task with its assignment, process, business key and form (a JSON Schema from the model's camunda:formData) */
        get: operations["getBpmnTask"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/tasks/{id}/claim": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Claim an open task for an assignee (409 when someone else holds it) */
        post: operations["claimBpmnTask"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/tasks/{id}/unclaim": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Give an open task back (no assignee) */
        post: operations["unclaimBpmnTask"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/tasks/{id}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Complete an open user task (its variables merge into the instance's); the instance runs on until it waits */
        post: operations["completeBpmnTask"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deliver a message to every instance waiting for it by name (and correlation key when given); 404 when none waits */
        post: operations["correlateBpmnMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/signals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Broadcast a signal to every instance waiting for it by name (correlated may be 0) */
        post: operations["broadcastBpmnSignal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/incidents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List incidents, oldest first */
        get: operations["listBpmnIncidents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/incidents/{id}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resolve an open incident, optionally with new variables (and retries for a failed job): the instance retries where it stopped */
        post: operations["resolveBpmnIncident"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List jobs (service, send and business-rule tasks waiting for a worker), oldest first */
        get: operations["listBpmnJobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/jobs/fetch-and-lock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Lock up to max_jobs due jobs of the given types for this worker (waiting up to wait_ms for one); each comes with its instance's variables */
        post: operations["fetchAndLockBpmnJobs"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/jobs/{id}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Complete a job this worker holds (its variables merge into the instance's); the instance runs on until it waits */
        post: operations["completeBpmnJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/jobs/{id}/fail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Report a job this worker holds as failed: retried after the backoff while retries are left, else an incident */
        post: operations["failBpmnJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/jobs/{id}/bpmn-error": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Throw a BPMN error from a job this worker holds: the task's error boundary event with that error code catches it (none: an incident) */
        post: operations["throwBpmnJobError"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/jobs/{id}/extend-lock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Extend this worker's lock on a job */
        post: operations["extendBpmnJobLock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bpmn/instances/{id}/variables": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Merge variables into an active instance's (what its next activities and conditions read) */
        post: operations["setBpmnInstanceVariables"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hooks/{hook}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A webhook source receives: the body (any content type) is appended to its component's stream; 202 once durable
         * @description Authenticated by the hook's own secret: X-Webhook-Secret (or Authorization: Bearer <secret>), or X-Signature-256: sha256=<hex HMAC-SHA256 of the exact body, keyed by the secret>. Idempotency-Key or X-Webhook-Id makes a redelivery append nothing new; X-Message-Key sets the message key.
         */
        post: operations["receiveWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a tenant's workflows (their latest revision), optionally by state */
        get: operations["listWorkflows"];
        put?: never;
        /**
         * Create a workflow at revision 1 (ETag "1"); its input, steps, sinks, streams and codecs are checked against the tenant
         * @description Every reference must exist in the tenant, each step must be a processor and each sink a sink; a stream.publish or dead-letter stream that flows back into the input (through any workflows) is refused unless allow_cycles. A new workflow is a draft until deployed.
         */
        post: operations["createWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a workflow (its latest revision); the ETag is the revision */
        get: operations["getWorkflow"];
        /**
         * Replace a workflow's definition as a new immutable revision (If-Match makes it conditional: 412 when stale)
         * @description The deployed revision keeps running until a deploy switches to the new one.
         */
        put: operations["replaceWorkflow"];
        post?: never;
        /** Delete a workflow, its revisions and runs; its workers stop (If-Match: 412 when stale) */
        delete: operations["deleteWorkflow"];
        options?: never;
        head?: never;
        /** Change some fields of a workflow's definition as a new immutable revision (If-Match: 412 when stale) */
        patch: operations["patchWorkflow"];
        trace?: never;
    };
    "/workflows/{id}/revisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The revisions of a workflow, oldest first, each with its whole definition */
        get: operations["listWorkflowRevisions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}/revisions/{revision}/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What changed between two revisions (against defaults to the one before): JSON Pointer changes and one readable line each */
        get: operations["diffWorkflowRevisions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}/deploy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deploy a revision (the latest by default): the workers switch to it at their next batch
         * @description Idempotent by request_id. The revision is validated again against the tenant as it is now.
         */
        post: operations["deployWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pause a deployed workflow: its workers stop after the batch in flight */
        post: operations["pauseWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume a paused workflow from its committed offsets */
        post: operations["resumeWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workflow's runs (one message processed by one revision), oldest first, optionally by status */
        get: operations["listWorkflowRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}/runs/{run}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One run */
        get: operations["getWorkflowRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}/runs/{run}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a run's message again, on a given revision (default: the deployed one), as a new run; the original stays as it was */
        post: operations["replayWorkflowRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/studio/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a tenant's workspaces */
        get: operations["listWorkspaces"];
        put?: never;
        /**
         * Create a workspace, optionally with its first files (revision 1)
         * @description The id is the given id or a slug of the name (409 duplicate_identifier when taken). Paths are relative and /-separated (no .., no leading /, no NUL, at most 256 characters); a file is at most max_file_bytes (512 KiB), a workspace at most max_files (200) files and max_workspace_bytes (4 MiB).
         */
        post: operations["createWorkspace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/studio/workspaces/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one workspace */
        get: operations["getWorkspace"];
        put?: never;
        post?: never;
        /** Delete a workspace with its revisions and collaborative document */
        delete: operations["deleteWorkspace"];
        options?: never;
        head?: never;
        /** Rename a workspace or change its description (files change through PUT .../files) */
        patch: operations["updateWorkspace"];
        trace?: never;
    };
    "/studio/workspaces/{id}/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a workspace's files: the current revision, or an earlier one with ?revision=N; the ETag is the revision */
        get: operations["getWorkspaceFiles"];
        /**
         * Write files (create or replace those named, remove those in delete) as a new revision
         * @description Every PUT makes a new revision, also when nothing changed. If-Match with the ETag read before (the revision, quoted) makes it conditional: another revision is 412 precondition_failed. Path rules and size limits as on create; a path both written and deleted, or deleting a path that does not exist, is 400. An open collaborative document of the workspace takes the new contents as an edit.
         */
        put: operations["putWorkspaceFiles"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/studio/workspaces/{id}/revisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The file revisions of a workspace, oldest first (read one with GET .../files?revision=N) */
        get: operations["listWorkspaceRevisions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/studio/workspaces/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a workspace's entry module in the sandbox with an input (optionally decoded by a codec)
         * @description Answers 200 whatever the script does: a script error or a hit limit (deadline, memory, stack, output, pushes) is ok:false with error {message, line?, file?, limit?}. A run counts as a write (audited). An entry that is not a file of the workspace is 400.
         */
        post: operations["runWorkspace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/studio/workspaces/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run every tests/*.json case of a workspace and report each
         * @description A case file tests/<name>.json is {input, expect: {result?, pushed?}, entry?}; input as in run. A case passes when the run is ok and each expected field equals the actual one (JSON equality). A case file that is not such JSON fails with an error naming why. Answers 200 with every case.
         */
        post: operations["testWorkspace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/studio/tickets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a one-time ticket (30 s) that opens the collab or terminal WebSocket of a workspace
         * @description The ticket is bound to the caller, its tenant, the workspace and the channel; it opens one socket once. A viewer (studio:read without studio:write) joins collab read-only and cannot run from the terminal.
         */
        post: operations["mintStudioTicket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/studio/collab/ws": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * WebSocket: collaborative editing of a workspace (Yjs sync and awareness protocol; one Y.Text per file in the Y.Map "files")
         * @description Binary messages of y-protocols: 0 sync, 1 awareness, plus 100 save (client → server: make a file revision of the merged text now) answered by 101 saved (server → client, UTF-8 JSON {revision} or {error}). Edits persist on arrival and reach clients on every instance; after collab.idle_save_ms without an edit the document is saved as a revision too. A viewer's edits are refused.
         */
        get: operations["openCollabSocket"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/studio/terminal/ws": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * WebSocket: a line REPL into the workspace's sandbox (ls, cat <path>, run [json], test, help, or a JavaScript expression) — never an OS shell
         * @description Each text message is one line; each answer is one JSON text message {line, ok, output?, result?, error?}. run, test and expressions need studio:write.
         */
        get: operations["openTerminalSocket"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sql/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run one read-only query over the tenant's rows (components, codecs, streams, messages, deliveries, audit, and tables other plugins add)
         * @description Runs as a database role bound to the tenant, under row-level security, in a read-only repeatable-read transaction whose snapshot is taken before the query; statement timeout 5 s plus a host deadline that cancels the backend; at most 1,000 rows (truncated tells whether more followed). A syntax error is a 400 naming its position; a query past the time limit is 422 query_timeout; more concurrent queries than the tenant's ceiling is 429 too_many_queries with Retry-After. On the embedded database the query runs the same way on a copy of the database taken for it, cut down to the tenant's rows, in a worker thread stopped at the deadline; one such query runs at a time per server (429 too_many_queries otherwise).
         */
        post: operations["runSqlQuery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/alert-signals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signals rules may watch (contributed by the enabled plugins through alerts.signals), each with its selector keys */
        get: operations["listAlertSignals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/alerts/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a tenant's alert rules */
        get: operations["listAlertRules"];
        put?: never;
        /** Create an alert rule; an unknown signal or selector key is a 400 naming the known ones */
        post: operations["createAlertRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/alerts/rules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one alert rule */
        get: operations["getAlertRule"];
        /** Replace an alert rule */
        put: operations["replaceAlertRule"];
        post?: never;
        /** Delete an alert rule; its open alerts end without notification */
        delete: operations["deleteAlertRule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A tenant's alerts, optionally in one state or of one rule */
        get: operations["listAlerts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/alerts/{id}/ack": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Acknowledge an alert (who and when are kept) */
        post: operations["ackAlert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/alerts/silences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A tenant's silences */
        get: operations["listSilences"];
        put?: never;
        /** Silence the alerts whose labels match every matcher, from starts_at (default now) until ends_at */
        post: operations["createSilence"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/alerts/silences/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End a silence now (it stays listed) */
        delete: operations["expireSilence"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A tenant's operations summary over the last 5m, 1h (default) or 24h */
        get: operations["getDashboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/migration/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Export the tenant's resources (all kinds, or those in include) as a content-hashed bundle; component secrets become named placeholders */
        post: operations["exportBundle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/migration/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Plan a bundle against a target tenant: the diff (create, update, delete) and the gate's checks; a bundle whose hash does not match its content is a 400 */
        post: operations["createPlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/migration/plans/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a plan */
        get: operations["getPlan"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/migration/plans/{id}/apply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Apply a plan in one transaction, or 422 promotion_gate_failed naming the failed checks (workspace tests, codec compatibility, secrets on the target, deletes without allow_destructive, drift since the plan) */
        post: operations["applyPlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The catalog of every operation of every enabled plugin, generated from the manifests
         * @description The full surface, whatever the caller may do: each entry names the permission it needs, so the catalog is the source of truth for the surface. The MCP tools/list (GET /agent/mcp, or the method over POST /agent/mcp) shows only what the caller may call.
         */
        get: operations["listAgentTools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The MCP tools/list result for the caller: the tools it may call
         * @description The same list as the MCP method tools/list over POST /agent/mcp: the tools the caller's permissions allow (read-only tools only for a read-only credential, or when settings.agent.read_only is on). GET /agent/tools lists the whole surface. A GET that accepts only text/event-stream is an MCP client asking for a server-sent event stream, which this stateless server does not offer: 405.
         */
        get: operations["listMcpTools"];
        put?: never;
        /**
         * Model Context Protocol over Streamable HTTP (JSON-RPC 2.0): initialize, ping, tools/list, tools/call
         * @description Stateless: no session id is issued, so any instance behind a load balancer answers. tools/call runs the tool's route pipeline with the caller's credential headers (authentication, tenancy, RBAC, validation, idempotency, audit with actor_type agent, paging). The route itself changes nothing, so read-only credentials may use it; each tool call is checked as its own operation.
         */
        post: operations["postMcpMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a message to the in-product agent; the turn streams back as server-sent events
         * @description Events: message {delta}, tool_call {id, tool, arguments}, tool_result {id, status, summary}, confirmation_required {action_id, tool, arguments, dry_run}, error, done {conversation_id, pending_actions}. With Accept: application/json the whole turn is one JSON answer. The agent is offered exactly the tools tools/list offers the caller; reads run at once, every write first runs as a dry run and waits for POST /agent/actions/{id}/approve. 501 not_configured without a provider; 503 unavailable when the provider does not answer in time; 429 over the per-user rate.
         */
        post: operations["chatWithAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your conversations with the in-product agent, newest first */
        get: operations["listAgentConversations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of your conversations: its messages and the actions it proposed */
        get: operations["getAgentConversation"];
        put?: never;
        post?: never;
        /** Delete one of your conversations */
        delete: operations["deleteAgentConversation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/actions/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve a write the agent proposed: it runs once, as you, and the turn goes on (events as for chat) */
        post: operations["approveAgentAction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/actions/{id}/deny": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Refuse a write the agent proposed: nothing runs, the agent is told, and the turn goes on (events as for chat) */
        post: operations["denyAgentAction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The service's address: a browser (Accept: text/html) is sent to the console, any other client gets 404 */
        get: operations["getServiceRoot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The console's page (index.html, revalidated on each use)
         * @description Answers 501 not_configured (an HTML page for a browser) while the app is not built.
         */
        get: operations["getConsole"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A file of the console's build, or its page for any path without an extension (one of the app's own routes)
         * @description Files under assets/ are named by their content and cached for a year; the others are revalidated. Compressed with brotli or gzip when the client accepts it.
         */
        get: operations["getConsoleFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            error: {
                /**
                 * @description Machine-readable; clients branch on it.
                 * @enum {string}
                 */
                code: "bad_request" | "invalid_json" | "validation_error" | "invalid_credentials" | "authentication_required" | "forbidden" | "not_found" | "method_not_allowed" | "request_timeout" | "conflict" | "duplicate_identifier" | "precondition_failed" | "payload_too_large" | "unsupported_media_type" | "upgrade_required" | "idempotency_key_reused" | "too_many_requests" | "request_header_fields_too_large" | "internal_error" | "not_configured" | "unavailable" | "csrf_rejected" | "component_type_unavailable" | "incompatible_schema" | "component_not_running" | "too_many_queries" | "query_timeout" | "promotion_gate_failed";
                /** @description Human text; clients must not branch on it. */
                message: string;
                status: number;
                details?: {
                    in: string;
                    pointer: string;
                    message: string;
                }[];
            };
        };
        /** @description The answer to dry_run=true: every check and the change ran in a transaction that was rolled back. */
        DryRunReport: {
            /** @constant */
            dry_run: true;
            /** @constant */
            persisted: false;
            operation: string;
            tenant_id: string | null;
            /** @description The permission that was checked. */
            permission: string;
            /** @description The reply the call would have given. */
            would: {
                status: number;
                /** @description The body it would have answered, if any. */
                body?: unknown;
                headers?: {
                    [key: string]: string;
                };
            };
        };
        "system.Health": {
            /** @enum {string} */
            status: "ok";
            version: string;
            commit: string;
            profile?: string;
            /** Format: date-time */
            started_at?: string;
            uptime_seconds: number;
        };
        "system.Readiness": {
            /** @enum {string} */
            status: "ready" | "not_ready";
            checks: {
                [key: string]: boolean;
            };
        };
        "identity.Id": string;
        "identity.TenantId": string;
        "identity.RoleName": string;
        "identity.RoleNames": components["schemas"]["identity.RoleName"][];
        /** Format: date-time */
        "identity.Timestamp": string;
        /** Format: date-time */
        "identity.NullableTimestamp": string | null;
        /** @description At least 12 characters; stored only as an scrypt hash. */
        "identity.Password": string;
        "identity.Username": string;
        "identity.LoginResponse": {
            /** @description sess_… bearer token; short-lived. */
            access_token: string;
            /** @description rt_… token; one use, rotated by POST /auth/refresh. */
            refresh_token: string;
            /** @enum {string} */
            token_type?: "Bearer";
            expires_at: components["schemas"]["identity.Timestamp"];
            refresh_expires_at?: components["schemas"]["identity.Timestamp"];
            session_id?: string;
            subject_id: string;
            tenant_id: string;
        };
        "identity.Session": {
            id: string;
            tenant_id: string;
            subject_id: string;
            created_at: components["schemas"]["identity.Timestamp"];
            refreshed_at?: components["schemas"]["identity.NullableTimestamp"];
            expires_at: components["schemas"]["identity.Timestamp"];
            refresh_expires_at: components["schemas"]["identity.Timestamp"];
            user_agent?: string | null;
            /** @description True for the session of the calling credential. */
            current: boolean;
        };
        "identity.SessionList": {
            items: components["schemas"]["identity.Session"][];
        };
        "identity.BrowserUser": {
            id: string;
            username: string;
            tenant_id: string;
        };
        "identity.BrowserSignIn": {
            user: components["schemas"]["identity.BrowserUser"];
            expires_at: components["schemas"]["identity.Timestamp"];
            refresh_expires_at: components["schemas"]["identity.Timestamp"];
        };
        "identity.BrowserSession": {
            expires_at: components["schemas"]["identity.Timestamp"];
            refresh_expires_at: components["schemas"]["identity.Timestamp"];
        };
        "identity.Me": {
            user: {
                /** @description The subject id (a user id, an API token id, provider:subject for single sign-on). */
                id: string;
                /** @description The user's name; null for a credential that is not a user (API token, OIDC token). */
                username: string | null;
                display_name?: string;
                email?: string;
                tenant_id: string;
                /**
                 * @description How the caller authenticated.
                 * @enum {string}
                 */
                kind: "session" | "api_token" | "oidc" | "break_glass" | "local" | "maintenance";
            };
            tenant_id: string;
            roles: string[];
            /** @description Every permission the caller holds, sorted; the catalog's `permission` of a route says which it needs. */
            permissions: string[];
            /** @description Holds runtime:account:admin: may act in every tenant (tenant_id *). */
            account_admin: boolean;
            /** @description A read-only credential: read-only operations only. */
            read_only?: boolean;
            /** @description The session a session credential (Bearer or cookie) belongs to; null for other credentials. */
            session: null | {
                id: string;
                expires_at: components["schemas"]["identity.Timestamp"];
            };
        };
        "identity.BrowserProvider": {
            id: string;
            /** @description What the sign-in button says (the provider's display_name, else its id). */
            name: string;
        };
        "identity.BrowserProviderList": {
            items: components["schemas"]["identity.BrowserProvider"][];
        };
        "identity.Tenant": {
            id: string;
            name: string;
            created_at: components["schemas"]["identity.Timestamp"];
        };
        "identity.TenantList": {
            items: components["schemas"]["identity.Tenant"][];
        };
        "identity.User": {
            id: string;
            tenant_id: string;
            username: string;
            email: string | null;
            display_name: string | null;
            roles: components["schemas"]["identity.RoleNames"];
            disabled: boolean;
            locked_until: components["schemas"]["identity.NullableTimestamp"];
            created_at: components["schemas"]["identity.Timestamp"];
            updated_at: components["schemas"]["identity.Timestamp"];
            last_login_at: components["schemas"]["identity.NullableTimestamp"];
        };
        "identity.UserList": {
            items: components["schemas"]["identity.User"][];
        };
        "identity.Role": {
            id: string;
            tenant_id?: string | null;
            description: string;
            permissions: string[];
            built_in: boolean;
            created_at?: components["schemas"]["identity.NullableTimestamp"];
        };
        "identity.RoleList": {
            items: components["schemas"]["identity.Role"][];
        };
        "identity.ApiToken": {
            id: string;
            tenant_id: string;
            name: string;
            roles: components["schemas"]["identity.RoleNames"];
            read_only: boolean;
            revoked: boolean;
            expires_at: components["schemas"]["identity.NullableTimestamp"];
            created_at: components["schemas"]["identity.Timestamp"];
            created_by?: string;
            last_used_at: components["schemas"]["identity.NullableTimestamp"];
        };
        "identity.ApiTokenMinted": {
            /** @description Begins with sk_; shown once, never again. */
            secret: string;
            token: components["schemas"]["identity.ApiToken"];
        };
        "identity.ApiTokenList": {
            items: components["schemas"]["identity.ApiToken"][];
        };
        "identity.ClaimMapping": {
            /** @description Claim naming the subject; default sub. */
            subject?: string;
            /** @description Claim naming the tenant; when set it must equal the provider's tenant. */
            tenant?: string;
            /** @description Claim holding role names (array or space-separated); default roles. */
            roles?: string;
        };
        "identity.Algorithms": ("RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512" | "ES256" | "ES384" | "ES512" | "Ed25519" | "EdDSA")[];
        /** @description Roles every token the provider validates receives. You must hold every permission they grant. */
        "identity.DefaultRoles": components["schemas"]["identity.RoleNames"];
        /** @description The roles a token's roles claim may bring; claimed roles not listed here are ignored. Empty (the default): no claimed role is honoured. You must hold every permission they grant. A deleted role leaves this list. */
        "identity.AllowedRoles": components["schemas"]["identity.RoleNames"];
        "identity.IdentityProvider": {
            id: string;
            tenant_id: string;
            issuer: string;
            audience: string;
            claims: components["schemas"]["identity.ClaimMapping"];
            algorithms: components["schemas"]["identity.Algorithms"];
            default_roles: components["schemas"]["identity.RoleNames"];
            allowed_roles: components["schemas"]["identity.AllowedRoles"];
            allow_insecure_http: boolean;
            enabled: boolean;
            /** @description The OAuth client (public, PKCE) the console signs in with at this provider; null: no browser sign-in through it. Register the redirect URI <service origin>/auth/browser/oidc/callback with the provider. */
            browser_client_id: string | null;
            /** @description Shown on the console's sign-in button; defaults to the id. */
            display_name: string | null;
            created_at: components["schemas"]["identity.Timestamp"];
            updated_at: components["schemas"]["identity.Timestamp"];
        };
        "identity.IdentityProviderList": {
            items: components["schemas"]["identity.IdentityProvider"][];
        };
        "audit.Hash": string;
        /** @enum {string} */
        "audit.Outcome": "success" | "refused" | "failed" | "replayed" | "dry_run";
        "audit.AuditRecord": {
            /** Format: uuid */
            id: string;
            /** @description Position in the tenant's hash chain; null for the moments between the record's commit and its sealing. */
            seq: number | null;
            /** @description The database transaction that wrote the record, with its effect. With id it orders the trail. */
            txid: number;
            /** Format: date-time */
            time: string;
            tenant_id: string;
            operation: string;
            method: string;
            path: string;
            resource_id: string | null;
            status: number;
            outcome: components["schemas"]["audit.Outcome"];
            error_code: string | null;
            request_id: string;
            idempotency_key: string | null;
            actor: {
                subject_id: string | null;
                credential_kind: string | null;
                credential_id: string | null;
                /** @enum {string} */
                actor_type: "human" | "service" | "agent";
                agent_id: string | null;
                actor_id: string | null;
                actor_email: string | null;
            };
            /** @description Only the body fields the route's manifest names; bodies are never stored whole. */
            fields: Record<string, never>;
            detail: Record<string, never>;
            /** @enum {string} */
            severity: "info" | "critical";
            /** @enum {string} */
            transport: "http" | "mcp" | "cli" | "agent";
            /** @description Hash of the predecessor in the chain; null until sealed. */
            prev_hash: components["schemas"]["audit.Hash"] | null;
            /** @description SHA-256 over the predecessor's hash, seq and the record; null until sealed. */
            hash: components["schemas"]["audit.Hash"] | null;
        };
        "audit.AuditList": {
            items: components["schemas"]["audit.AuditRecord"][];
        };
        "audit.VerifyReport": {
            tenant_id: string;
            valid: boolean;
            /** @description Records checked, from the first to the head current when the check began. */
            records: number;
            /** @description Committed records not chained yet: verification chains what has committed first, so this is 0 unless a transaction still running holds records back. */
            unsealed: number;
            head: {
                seq?: number;
                hash?: components["schemas"]["audit.Hash"];
            } | null;
            first_broken: {
                seq: number;
                id?: string | null;
                /** @enum {string} */
                problem: "sequence" | "unsealed" | "prev_hash" | "hash" | "head";
                expected: string;
                found: string;
            } | null;
        };
        /** @enum {string} */
        "logs.Level": "debug" | "info" | "warn" | "error";
        "logs.LogRecord": {
            seq: number;
            /** Format: date-time */
            time: string;
            tenant_id: string;
            level: components["schemas"]["logs.Level"];
            /** @description The plugin or component that wrote the record. */
            source: string;
            message: string;
            fields: Record<string, never>;
        };
        "logs.LogList": {
            items: components["schemas"]["logs.LogRecord"][];
        };
        "variables.Name": string;
        "variables.Variable": {
            name: components["schemas"]["variables.Name"];
            value: string;
            description: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        "variables.VariableList": {
            items: components["schemas"]["variables.Variable"][];
        };
        "components.ComponentType": {
            name: string;
            /** @enum {string} */
            kind: "source" | "processor" | "sink";
            /** @description The plugin that contributes it. */
            plugin: string;
            summary?: string;
            /** @description JSON Schema of a component's config; fields marked x-secret are write-only. */
            config_schema: {
                [key: string]: unknown;
            };
        };
        "components.ComponentTypeList": {
            items: components["schemas"]["components.ComponentType"][];
        };
        "components.Id": string;
        "components.Tags": string[];
        /** @enum {string} */
        "components.State": "stopped" | "running" | "failed";
        "components.Component": {
            id: components["schemas"]["components.Id"];
            tenant_id: string;
            name: string;
            description: string;
            state: components["schemas"]["components.State"];
            tags: components["schemas"]["components.Tags"];
            /** @description The config without its secret fields. */
            config: {
                [key: string]: unknown;
            };
            revision: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description The component type (GET /component-types); `legacy` for components made before types existed. */
            type: string;
            stream: string | null;
            /**
             * @description What an operator asked for; `state` is what runs.
             * @enum {string}
             */
            desired_state: "stopped" | "running";
            status: {
                state: components["schemas"]["components.State"];
                last_error: string | null;
                /** Format: date-time */
                since: string;
                /**
                 * Format: date-time
                 * @description A failed source: when it is tried again (1 s after the first failure, doubling, at most a minute apart).
                 */
                next_attempt_at?: string;
            };
            /** @description The secret (x-secret) config fields that are set; their values are never returned. */
            secrets_set: string[];
            /** @description Create only: secrets the service generated and where a receiving source listens (path, url). Never shown again. */
            shown_once?: {
                secrets?: {
                    [key: string]: string;
                };
                path?: string;
                url?: string;
            };
        };
        "components.ComponentList": {
            items: components["schemas"]["components.Component"][];
        };
        "components.ActionResult": {
            component: components["schemas"]["components.Component"];
            /** @enum {string} */
            action: "start" | "stop" | "restart";
            previous_state: components["schemas"]["components.State"];
        };
        "components.TypeName": string;
        /** @description Source components: the stream of the tenant that the source appends to (required for sources; a workflow whose input is {component} reads this stream). */
        "components.StreamId": string | null;
        "codecs.Id": string;
        "codecs.KindName": string;
        /** @description The kind's schema: avro, the Avro schema (JSON); protobuf, {proto, message}; csv, {delimiter, header, columns}; json, an optional JSON Schema values must match; null or absent where the kind takes none. */
        "codecs.SchemaField": unknown;
        "codecs.Codec": {
            id: components["schemas"]["codecs.Id"];
            tenant_id: string;
            name: string;
            kind: components["schemas"]["codecs.KindName"];
            schema: components["schemas"]["codecs.SchemaField"];
            /** @description Moves on with every change; the ETag is this number, quoted. */
            revision: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        "codecs.CodecList": {
            items: components["schemas"]["codecs.Codec"][];
        };
        "codecs.CompatibilityProblem": {
            path: string;
            problem: string;
        };
        "codecs.CodecRevision": {
            codec_id: components["schemas"]["codecs.Id"];
            revision: number;
            name: string;
            kind: components["schemas"]["codecs.KindName"];
            schema: components["schemas"]["codecs.SchemaField"];
            /** @description What broke compatibility when this revision was kept with ?force=true; null otherwise. */
            forced_problems: components["schemas"]["codecs.CompatibilityProblem"][] | null;
            /** @description Subject that made the revision. */
            changed_by: string | null;
            /** Format: date-time */
            created_at: string;
        };
        "codecs.CodecRevisionList": {
            items: components["schemas"]["codecs.CodecRevision"][];
        };
        "codecs.CodecKind": {
            kind: components["schemas"]["codecs.KindName"];
            /** @description The plugin that contributes it. */
            plugin: string;
            /** @description JSON Schema of the kind's schema field; null when it takes none. */
            schema_schema: {
                [key: string]: unknown;
            } | null;
            /** @description Whether a PUT checks schema changes for compatibility. */
            schema_evolution: boolean;
        };
        "codecs.CodecKindList": {
            items: components["schemas"]["codecs.CodecKind"][];
        };
        "codecs.DecodeResult": {
            /** @description The decoded value, as the kind maps it to JSON. */
            value: unknown;
        };
        "streams.Id": string;
        "streams.MessageId": string;
        "streams.Retention": {
            /** @description Messages older than this are removed. */
            max_age_hours?: number;
            /** @description Each partition keeps at most this many messages (the newest). */
            max_messages?: number;
        };
        "streams.Stream": {
            id: components["schemas"]["streams.Id"];
            tenant_id: string;
            name: string;
            partitions: number;
            retention: components["schemas"]["streams.Retention"];
            codec: string | null;
            revision: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        "streams.StreamList": {
            items: components["schemas"]["streams.Stream"][];
        };
        "streams.Headers": {
            [key: string]: string;
        };
        "streams.PublishedMessage": {
            key?: string;
            headers?: components["schemas"]["streams.Headers"];
            /** @description Encoded by the stream's codec, or stored as JSON on a stream without one. */
            value?: unknown;
            /** @description The raw body, base64 (standard alphabet, padded). */
            body_base64?: string;
        } & (unknown | unknown);
        "streams.Appended": {
            id: components["schemas"]["streams.MessageId"];
            partition: number;
            offset: number;
        };
        "streams.PublishResult": {
            messages: components["schemas"]["streams.Appended"][];
        };
        "streams.Message": {
            id: components["schemas"]["streams.MessageId"];
            stream: components["schemas"]["streams.Id"];
            partition: number;
            offset: number;
            key: string | null;
            headers: {
                [key: string]: string;
            };
            content_type: string;
            /** @description The decoded body, when the stream's codec (or JSON) reads it. */
            value?: unknown;
            /** @description The body, when it is not shown as value. */
            body_base64?: string;
            /** @description Body size in bytes. */
            size: number;
            /** Format: date-time */
            published_at: string;
            /** @description The message this one replays. */
            replay_of: string | null;
            /** @description The messages that replay this one (a redrive's or a replay's), oldest first; in a message's detail and in lists filtered on status redriven. */
            replays?: components["schemas"]["streams.MessageId"][];
        };
        "streams.MessageList": {
            items: components["schemas"]["streams.Message"][];
        };
        "streams.Delivery": {
            workflow: string;
            revision: number;
            run_id: string;
            attempt: number;
            status: components["schemas"]["streams.DeliveryStatus"];
            error: string | null;
            /** Format: date-time */
            at: string;
        };
        /** @enum {string} */
        "streams.DeliveryStatus": "pending" | "processed" | "filtered" | "failed" | "dead";
        /**
         * @description A message's status for a workflow: its latest delivery's, except that dead means an open dead letter (not yet replayed) and redriven a dead message that was replayed (each item then names its replays).
         * @enum {string}
         */
        "streams.MessageStatus": "pending" | "processed" | "filtered" | "failed" | "dead" | "redriven";
        "streams.MessageDetail": components["schemas"]["streams.Message"] & {
            deliveries: components["schemas"]["streams.Delivery"][];
        };
        "streams.Replayed": {
            id: components["schemas"]["streams.MessageId"];
            stream: components["schemas"]["streams.Id"];
            partition: number;
            offset: number;
            replay_of: components["schemas"]["streams.MessageId"];
        };
        "streams.ConsumerPosition": {
            consumer: string;
            partition: number;
            /** @description The next offset the consumer will read. */
            committed_offset: number;
            /** @description Retained messages of the partition at or after the committed offset. */
            lag: number;
            /** Format: date-time */
            updated_at: string;
        };
        "streams.ConsumerList": {
            items: components["schemas"]["streams.ConsumerPosition"][];
        };
        "bpmn.Key": string;
        /** @description A JSON object; at most settings.bpmn.max_variables_bytes when serialized. */
        "bpmn.Variables": Record<string, never>;
        "bpmn.Definition": {
            key: string;
            tenant_id: string;
            process_id: string;
            version: number;
            name: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description false: deployed for viewing (its model lacks isExecutable="true"); a start answers 409. */
            executable?: boolean;
            /** @description The deployment (one POST) that stored this definition with its sibling processes. */
            deployment?: string | null;
        };
        "bpmn.DefinitionList": {
            items: components["schemas"]["bpmn.Definition"][];
        };
        "bpmn.Instance": {
            id: string;
            tenant_id: string;
            definition_key: string;
            process_id: string;
            version: number;
            business_key: string | null;
            /** @enum {unknown} */
            state: "active" | "completed" | "cancelled" | "incident";
            variables: Record<string, never>;
            replay_of: string | null;
            replay_from?: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            ended_at: string | null;
            /** @description Where the instance waits now. */
            activities?: Record<string, never>[];
            tasks?: components["schemas"]["bpmn.Task"][];
            history?: {
                activity_id?: string;
                activity_type?: string;
                name?: string | null;
                /** Format: date-time */
                started_at?: string;
                /** Format: date-time */
                ended_at?: string | null;
                outcome?: string;
            }[];
            incidents?: components["schemas"]["bpmn.Incident"][];
        };
        "bpmn.InstanceList": {
            items: components["schemas"]["bpmn.Instance"][];
            /** @description Present while more instances follow; send it back as ?cursor=. */
            next_cursor?: string;
        };
        "bpmn.Task": {
            id: string;
            tenant_id?: string;
            instance_id: string;
            activity_id: string;
            name: string | null;
            /** @enum {unknown} */
            state: "open" | "completed" | "cancelled";
            assignee: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            completed_at?: string | null;
            candidate_users?: string[];
            candidate_groups?: string[];
            /** Format: date-time */
            due_at?: string | null;
            /** @description GET /bpmn/tasks/{id}: the model's camunda:formData as a JSON Schema of the variables the completion is expected to carry. */
            form?: Record<string, never>;
            process_id?: string | null;
            business_key?: string | null;
        };
        "bpmn.TaskList": {
            items: components["schemas"]["bpmn.Task"][];
        };
        "bpmn.Correlated": {
            correlated: number;
            instances: string[];
        };
        "bpmn.Incident": {
            id: string;
            tenant_id?: string;
            instance_id: string;
            activity_id: string | null;
            message: string;
            /** @enum {unknown} */
            state: "open" | "resolved";
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            resolved_at?: string | null;
        };
        "bpmn.IncidentList": {
            items: components["schemas"]["bpmn.Incident"][];
        };
        "bpmn.Job": {
            id: string;
            tenant_id?: string;
            type: string;
            /** @enum {unknown} */
            state: "open" | "completed" | "failed" | "cancelled";
            instance_id: string;
            activity_id: string;
            retries: number;
            worker_id: string | null;
            /** Format: date-time */
            lock_expires_at: string | null;
            /** Format: date-time */
            due_at?: string;
            error_message?: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            ended_at?: string | null;
            /** @description In a fetch's answer. */
            process_id?: string | null;
            /** @description In a fetch's answer. */
            business_key?: string | null;
            /** @description In a fetch's answer: the instance's variables. */
            variables?: Record<string, never>;
            instance?: components["schemas"]["bpmn.Instance"];
        };
        "bpmn.JobList": {
            items: components["schemas"]["bpmn.Job"][];
        };
        "bpmn.Deployed": {
            /** @description Every process of the file, each its own versioned definition. */
            definitions: components["schemas"]["bpmn.Definition"][];
            /** @description What the runtime kept in the XML but ignores (other vendors' extensions). */
            warnings: string[];
        } & components["schemas"]["bpmn.Definition"];
        "connectors.Received": {
            /** @description The message appended to the component's stream. */
            id: string;
            /** @description True when an earlier delivery with the same Idempotency-Key (or X-Webhook-Id) was appended already; nothing new was appended. */
            duplicate: boolean;
        };
        "workflows.StreamId": string;
        /** @enum {string} */
        "workflows.State": "draft" | "running" | "paused";
        /**
         * @description filtered: the run went through and pushed nothing onward (a filter dropped it); processed: it pushed at least one output.
         * @enum {string}
         */
        "workflows.RunStatus": "pending" | "processed" | "filtered" | "failed" | "dead";
        "workflows.Step": {
            component: string;
        } | {
            type: string;
            config?: {
                [key: string]: unknown;
            };
        };
        "workflows.Input": {
            stream: components["schemas"]["workflows.StreamId"];
        } | {
            component: string;
            stream?: components["schemas"]["workflows.StreamId"];
        };
        "workflows.ErrorPolicy": {
            /** @default 3 */
            max_attempts: number;
            /**
             * @description Wait before the first retry; doubles with each further one (capped at 5 minutes).
             * @default 1000
             */
            backoff_ms: number;
            dead_letter_stream?: components["schemas"]["workflows.StreamId"];
        };
        "workflows.Workflow": {
            id: string;
            tenant_id: string;
            name: string;
            description?: string;
            input: components["schemas"]["workflows.Input"];
            steps: components["schemas"]["workflows.Step"][];
            sinks: components["schemas"]["workflows.Step"][];
            on_error: components["schemas"]["workflows.ErrorPolicy"];
            /** @description Keep a loop where the outputs flow back into the input stream. */
            allow_cycles?: boolean;
            /** @description Messages per transaction (default 100). */
            batch_size?: number;
            /** @description The latest revision; the ETag is this number, quoted. */
            revision: number;
            deployed_revision: number | null;
            state: components["schemas"]["workflows.State"];
            /** @description Present while the worker cannot process the workflow: the error of its last failed attempt (a broker gone, a step that cannot be built); cleared when a batch goes through again. */
            last_error?: string;
            /** Format: date-time */
            failed_at?: string;
            /** @description Present while a running workflow holds its messages (GET /workflows/{id}): the components it waits for. */
            waiting?: {
                /** @enum {string} */
                reason: "components_stopped";
                components: string[];
                message: string;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        "workflows.WorkflowList": {
            items: components["schemas"]["workflows.Workflow"][];
        };
        "workflows.Revision": {
            revision: number;
            definition: {
                [key: string]: unknown;
            };
            created_by: string | null;
            /** Format: date-time */
            created_at: string;
        };
        "workflows.RevisionList": {
            items: components["schemas"]["workflows.Revision"][];
        };
        "workflows.Diff": {
            workflow: string;
            revision: number;
            against: number;
            changes: {
                path: string;
                /** @enum {unknown} */
                op: "added" | "removed" | "changed";
                from?: unknown;
                to?: unknown;
            }[];
            text: string[];
        };
        "workflows.Run": {
            id: string | null;
            workflow: string;
            revision: number;
            message_id: string;
            status: components["schemas"]["workflows.RunStatus"];
            attempts: number;
            error: string | null;
            outputs: unknown[];
            replay_of: string | null;
            /** Format: date-time */
            started_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        "workflows.RunList": {
            items: components["schemas"]["workflows.Run"][];
        };
        "studio.Id": string;
        /** @description A relative, /-separated path: no leading /, no empty, . or .. segment, no backslash or control character; at most 256 characters. */
        "studio.Path": string;
        /** @description File contents (text) by path. */
        "studio.FileMap": {
            [key: string]: string;
        };
        "studio.Workspace": {
            id: components["schemas"]["studio.Id"];
            tenant_id: string;
            name: string;
            description: string;
            /** @description The files' current revision; GET/PUT .../files carry it as the ETag. */
            revision: number;
            file_count: number;
            /** @description UTF-8 bytes of all files of the current revision. */
            bytes: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        "studio.WorkspaceList": {
            items: components["schemas"]["studio.Workspace"][];
        };
        "studio.Files": {
            workspace_id: components["schemas"]["studio.Id"];
            revision: number;
            files: components["schemas"]["studio.FileMap"];
        };
        "studio.Revision": {
            revision: number;
            file_count: number;
            bytes: number;
            /**
             * @description api: a create or PUT .../files; collab: a save of the collaborative document.
             * @enum {string}
             */
            source: "api" | "collab";
            /** @description Paths created or changed by this revision. */
            changed: string[];
            deleted: string[];
            created_by: string | null;
            /** Format: date-time */
            created_at: string;
        };
        "studio.RevisionList": {
            items: components["schemas"]["studio.Revision"][];
        };
        /** @description What the script sees as `input`: at most one of value (sent as its JSON text), body_text or body_base64 (bytes) becomes input.body. */
        "studio.RunInput": {
            /** @description Any JSON value; input.body is its JSON text (service.json.decode(input.body) gives it back). */
            value?: unknown;
            body_text?: string;
            body_base64?: string;
            headers?: {
                [key: string]: string;
            };
            key?: string | null;
            /** @description Run only: the id of a tenant codec that decodes body_text (as UTF-8) or body_base64; the script sees the decoded value as JSON text, like value. Needs the codecs and streams plugins (501 otherwise). */
            codec?: string;
        };
        "studio.RunError": {
            message: string;
            line?: number;
            file?: string;
            /** @enum {string} */
            limit?: "deadline" | "memory" | "stack" | "output" | "pushes";
        };
        "studio.RunResult": {
            /** @description false when the script threw or hit a limit (see error); never a 5xx. */
            ok: boolean;
            /** @description What the script assigned to `result` (null when unset or on error). */
            result: unknown;
            /** @description Values given to service.route.push, in order. */
            pushed: unknown[];
            logs: string[];
            duration_ms: number;
            error?: components["schemas"]["studio.RunError"];
            /** @description The files revision that ran. */
            revision?: number;
        };
        "studio.TestCase": {
            /** @description The case file's name under tests/, without .json. */
            name: string;
            ok: boolean;
            /** @description The case's expect: {result?, pushed?}. */
            expected: unknown;
            /** @description What the run gave: {result, pushed} (null when the case could not run). */
            actual: unknown;
            error?: components["schemas"]["studio.RunError"];
            logs?: string[];
            duration_ms?: number;
        };
        "studio.TestReport": {
            passed: number;
            failed: number;
            revision?: number;
            cases: components["schemas"]["studio.TestCase"][];
        };
        "studio.Ticket": {
            ticket: string;
            /** Format: date-time */
            expires_at: string;
        };
        "sql.QueryResult": {
            columns: {
                name: string;
                /** @description The type's name as PostgreSQL writes it: integer, text, jsonb, timestamp with time zone. */
                type: string;
                type_oid: number;
            }[];
            /** @description One array of values per row, in column order. */
            rows: unknown[][];
            row_count: number;
            /** @description More rows followed than the limit. */
            truncated: boolean;
            duration_ms: number;
        };
        "alerts.Id": string;
        "alerts.Labels": {
            [key: string]: string;
        };
        /** @description Narrows the signal (which workflow, stream, consumer…); the keys the signal takes are listed by GET /alert-signals, any other is a 400. */
        "alerts.Selector": {
            [key: string]: string;
        };
        "alerts.Notify": {
            /** @description Receives Alertmanager webhook (v4) bodies; loopback and private addresses are refused unless allowed in settings. */
            webhook_url?: string;
            /** @description A sink component of the tenant: its deliver() gets one message per notification, the Alertmanager body as its value. */
            component?: string;
        }[];
        "alerts.Rule": {
            id: components["schemas"]["alerts.Id"];
            tenant_id: string;
            name: string;
            signal: string;
            selector: Record<string, never>;
            op: string;
            threshold: number;
            for_seconds: number;
            severity: string;
            labels: Record<string, never>;
            annotations: Record<string, never>;
            notify: unknown[];
            revision: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        "alerts.RuleList": {
            items: components["schemas"]["alerts.Rule"][];
        };
        "alerts.Alert": {
            id: string;
            rule_id: string;
            /** @enum {unknown} */
            state: "pending" | "firing" | "resolved";
            labels: Record<string, never>;
            annotations: Record<string, never>;
            /** @description The signal's value when last evaluated. */
            value: number;
            /**
             * Format: date-time
             * @description When the condition began to hold (pending since).
             */
            started_at: string;
            /** Format: date-time */
            fired_at: string | null;
            /** Format: date-time */
            resolved_at: string | null;
            /** Format: date-time */
            acked_at: string | null;
            acked_by: string | null;
            /** @description A silence matched it when it fired: no notification was sent. */
            silenced: boolean;
        };
        "alerts.AlertList": {
            items: components["schemas"]["alerts.Alert"][];
        };
        "alerts.Silence": {
            id: string;
            matchers: unknown[];
            /** Format: date-time */
            starts_at: string;
            /** Format: date-time */
            ends_at: string;
            comment: string;
            created_by: string | null;
            /** Format: date-time */
            created_at: string;
        };
        "alerts.SilenceList": {
            items: components["schemas"]["alerts.Silence"][];
        };
        "alerts.SignalList": {
            items: {
                name: string;
                description: string;
                selector: Record<string, never>;
            }[];
        };
        "dashboard.Dashboard": {
            /** @enum {unknown} */
            window: "5m" | "1h" | "24h";
            /** Format: date-time */
            since: string;
            /** Format: date-time */
            until: string;
            /** @description One entry per section: components {by_state, total}; workflows [{workflow, messages_in, messages_out, errors, error_rate, p95_ms, dead_letters, lag, oldest_unacked_seconds}]; alerts {firing, pending, items}; recent_audit [...]; bpmn and others when their plugins contribute them. */
            sections: {
                [key: string]: unknown;
            };
        };
        "migration.BundleItem": {
            id: string;
            content: Record<string, never>;
        };
        "migration.Bundle": {
            format: string;
            source_tenant_id: string;
            /** Format: date-time */
            exported_at: string;
            resources: {
                [key: string]: components["schemas"]["migration.BundleItem"][];
            };
            /** @description sha256 of the canonical JSON of resources. */
            hash: string;
        };
        "migration.Change": {
            kind: string;
            id: string;
        };
        "migration.GateCheck": {
            check: string;
            ok: boolean;
            detail: string;
            /** @description What the target lacks, by name: secret placeholders to send with the apply (secrets), variables to set on the target (PUT /variables/{name}). */
            missing?: string[];
        };
        "migration.Plan": {
            id: string;
            target_tenant_id: string;
            bundle_hash: string;
            diff: {
                create: components["schemas"]["migration.Change"][];
                update: components["schemas"]["migration.Change"][];
                delete: components["schemas"]["migration.Change"][];
            };
            gate: components["schemas"]["migration.GateCheck"][];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            applied_at: string | null;
        };
        "agent.CatalogEntry": {
            /** @description The operation name; the MCP tool name. */
            name: string;
            plugin: string;
            /** @enum {string} */
            method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
            path: string;
            /** @description The permission the route enforces, `public` or `authenticated`. */
            permission: string;
            category: string;
            read_only: boolean;
            description: string;
            /** @enum {string} */
            idempotency: "none" | "request_id" | "idempotency_key";
            paging?: {
                default_limit: number;
                max_limit: number;
                /** @enum {string} */
                cursor_in: "header" | "body";
            };
            /** @description One JSON Schema (2020-12) object merging path parameters, query and body; self-contained ($defs). */
            input_schema: Record<string, never>;
        };
        "agent.Catalog": {
            tools: components["schemas"]["agent.CatalogEntry"][];
        };
        "agent.McpTool": {
            name: string;
            title?: string;
            description: string;
            inputSchema: Record<string, never>;
            annotations: {
                title?: string;
                readOnlyHint: boolean;
                destructiveHint: boolean;
                idempotentHint: boolean;
                openWorldHint?: boolean;
            };
        };
        "agent.McpToolList": {
            tools: components["schemas"]["agent.McpTool"][];
        };
        /** @description A JSON-RPC 2.0 request, notification or response (MCP Streamable HTTP). */
        "agent.JsonRpcMessage": {
            /** @constant */
            jsonrpc?: "2.0";
            id?: string | number;
            method?: string;
            params?: Record<string, never>;
        };
        "agent.Turn": {
            conversation_id: string;
            events: {
                event: string;
                data: unknown;
            }[];
            /** @description The model's words in this turn, joined. */
            text: string;
            pending_actions: string[];
        };
        "agent.Conversation": {
            id: string;
            tenant_id: string;
            title: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            messages?: Record<string, never>[];
            actions?: components["schemas"]["agent.Action"][];
        };
        "agent.ConversationList": {
            items: components["schemas"]["agent.Conversation"][];
        };
        "agent.Action": {
            id: string;
            conversation_id: string;
            tool: string;
            arguments: Record<string, never>;
            dry_run?: unknown;
            /** @enum {unknown} */
            state: "pending" | "approved" | "denied";
            result?: unknown;
            /** Format: date-time */
            created_at?: string;
            /** Format: date-time */
            decided_at?: string | null;
        };
    };
    responses: {
        /** @description Bad request (bad_request, invalid_json, validation_error) */
        Error400: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Missing or invalid credential (invalid_credentials, authentication_required) */
        Error401: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Permission denied (forbidden, csrf_rejected) */
        Error403: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not found, or in another tenant (not_found) */
        Error404: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Method not allowed (method_not_allowed) */
        Error405: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Conflict (conflict, duplicate_identifier, component_type_unavailable, component_not_running) */
        Error409: {
            headers: {
                /** @description Seconds to wait before retrying. */
                "Retry-After"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Precondition failed (precondition_failed) */
        Error412: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Body too large (payload_too_large) */
        Error413: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Unsupported media type (unsupported_media_type) */
        Error415: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Rejected by policy (idempotency_key_reused, incompatible_schema, query_timeout, promotion_gate_failed) */
        Error422: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Error (upgrade_required) */
        Error426: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many requests (too_many_requests, too_many_queries) */
        Error429: {
            headers: {
                /** @description Seconds to wait before retrying. */
                "Retry-After"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Internal error (internal_error) */
        Error500: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not configured (not_configured) */
        Error501: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Unavailable (unavailable) */
        Error503: {
            headers: {
                /** @description Seconds to wait before retrying. */
                "Retry-After"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["system.Health"];
                };
            };
            400: components["responses"]["Error400"];
            500: components["responses"]["Error500"];
        };
    };
    getReady: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["system.Readiness"];
                };
            };
            400: components["responses"]["Error400"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getLive: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        status: string;
                    };
                };
            };
            400: components["responses"]["Error400"];
            500: components["responses"]["Error500"];
        };
    };
    getMetrics: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain; version=0.0.4; charset=utf-8": string;
                };
            };
            400: components["responses"]["Error400"];
            500: components["responses"]["Error500"];
        };
    };
    getOpenApi: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    tenant_id: components["schemas"]["identity.TenantId"];
                    username: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.LoginResponse"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    refreshSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    refresh_token: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.LoginResponse"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    logout: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    logoutAll: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listSessions: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 50, larger values are clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.SessionList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    browserLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    tenant_id: components["schemas"]["identity.TenantId"];
                    username: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.BrowserSignIn"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    browserRefresh: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.BrowserSession"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    browserLogout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description End every session of the signed-in subject, not only this one. */
                    everywhere?: boolean;
                };
            };
        };
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            403: components["responses"]["Error403"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getMe: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.Me"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listBrowserProviders: {
        parameters: {
            query: {
                /** @description The tenant to sign in to. */
                tenant_id: string;
                /** @description Page size; default 50, larger values are clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.BrowserProviderList"];
                };
            };
            400: components["responses"]["Error400"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    startBrowserOidc: {
        parameters: {
            query: {
                /** @description The tenant to sign in to. */
                tenant_id: string;
                /** @description Id of the tenant's identity provider. */
                provider: string;
                /** @description A path of this service to come back to after sign-in (default /console/); never another origin. */
                return_to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Found: follow the Location header */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    finishBrowserOidc: {
        parameters: {
            query?: {
                code?: string;
                state?: string;
                iss?: string;
                error?: string;
                error_description?: string;
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Found: follow the Location header */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listTenants: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.TenantList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    createTenant: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id?: components["schemas"]["identity.TenantId"];
                    name: string;
                };
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.Tenant"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listUsers: {
        parameters: {
            query?: {
                disabled?: boolean;
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.UserList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    createUser: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id?: components["schemas"]["identity.Id"];
                    username: components["schemas"]["identity.Username"];
                    password: components["schemas"]["identity.Password"];
                    /** Format: email */
                    email?: string;
                    display_name?: string;
                    roles?: components["schemas"]["identity.RoleNames"];
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.User"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getUser: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: components["schemas"]["identity.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.User"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    deleteUser: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["identity.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    patchUser: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["identity.Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password?: components["schemas"]["identity.Password"];
                    email?: string | null;
                    display_name?: string | null;
                    /** @description true disables the user and revokes its sessions. */
                    disabled?: boolean;
                    /**
                     * @description Clears a brute-force lockout.
                     * @enum {boolean}
                     */
                    unlock?: true;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.User"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    assignUserRoles: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["identity.Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    roles: components["schemas"]["identity.RoleNames"];
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.User"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listRoles: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.RoleList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    createRole: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id: components["schemas"]["identity.RoleName"];
                    description?: string;
                    permissions: string[];
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.Role"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    deleteRole: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["identity.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listApiTokens: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.ApiTokenList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    mintApiToken: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    roles: components["schemas"]["identity.RoleNames"] & unknown;
                    expires_in_days?: number;
                    /** @description The token may call read-only operations only. */
                    read_only?: boolean;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.ApiTokenMinted"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    revokeApiToken: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["identity.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listIdentityProviders: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.IdentityProviderList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    createIdentityProvider: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id?: components["schemas"]["identity.Id"];
                    /** Format: uri */
                    issuer: string;
                    audience: string;
                    claims?: components["schemas"]["identity.ClaimMapping"];
                    algorithms?: components["schemas"]["identity.Algorithms"];
                    default_roles?: components["schemas"]["identity.DefaultRoles"];
                    allowed_roles?: components["schemas"]["identity.AllowedRoles"];
                    /** @description Accept an http:// issuer on a loopback address (tests and local use only). */
                    allow_insecure_http?: boolean;
                    enabled?: boolean;
                    /** @description The OAuth client (public, PKCE) the console signs in with at this provider; null: no browser sign-in through it. Register the redirect URI <service origin>/auth/browser/oidc/callback with the provider. */
                    browser_client_id?: string | null;
                    /** @description Shown on the console's sign-in button; defaults to the id. */
                    display_name?: string | null;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.IdentityProvider"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getIdentityProvider: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: components["schemas"]["identity.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.IdentityProvider"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    deleteIdentityProvider: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["identity.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    patchIdentityProvider: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["identity.Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uri */
                    issuer?: string;
                    audience?: string;
                    claims?: components["schemas"]["identity.ClaimMapping"];
                    algorithms?: components["schemas"]["identity.Algorithms"];
                    default_roles?: components["schemas"]["identity.DefaultRoles"];
                    allowed_roles?: components["schemas"]["identity.AllowedRoles"];
                    allow_insecure_http?: boolean;
                    enabled?: boolean;
                    /** @description The OAuth client (public, PKCE) the console signs in with at this provider; null: no browser sign-in through it. Register the redirect URI <service origin>/auth/browser/oidc/callback with the provider. */
                    browser_client_id?: string | null;
                    /** @description Shown on the console's sign-in button; defaults to the id. */
                    display_name?: string | null;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["identity.IdentityProvider"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listAudit: {
        parameters: {
            query?: {
                /** @description Subject id, actor id, agent id or actor e-mail. */
                actor?: string;
                operation?: string;
                /** @description An HTTP status or an outcome. */
                status?: string;
                resource?: string;
                /** @description Records at or after this time (RFC 3339). */
                since?: string;
                /** @description Records before this time (RFC 3339). */
                until?: string;
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 1000. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["audit.AuditList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    verifyAudit: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["audit.VerifyReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listAccountAudit: {
        parameters: {
            query?: {
                /** @description Subject id, actor id, agent id or actor e-mail. */
                actor?: string;
                operation?: string;
                /** @description An HTTP status or an outcome. */
                status?: string;
                resource?: string;
                /** @description Records at or after this time (RFC 3339). */
                since?: string;
                /** @description Records before this time (RFC 3339). */
                until?: string;
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 1000. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["audit.AuditList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    verifyAccountAudit: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["audit.VerifyReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listLogs: {
        parameters: {
            query?: {
                /** @description Minimum level. */
                level?: components["schemas"]["logs.Level"];
                source?: string;
                since?: string;
                until?: string;
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 200, larger values are clamped to 1000. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["logs.LogList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listVariables: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["variables.VariableList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getVariable: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                name: components["schemas"]["variables.Name"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["variables.Variable"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    putVariable: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                name: components["schemas"]["variables.Name"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    value: string;
                    description?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["variables.Variable"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    deleteVariable: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                name: components["schemas"]["variables.Name"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listComponentTypes: {
        parameters: {
            query?: {
                kind?: "source" | "processor" | "sink";
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["components.ComponentTypeList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listComponents: {
        parameters: {
            query?: {
                state?: components["schemas"]["components.State"];
                tag?: string;
                type?: string;
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["components.ComponentList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    createComponent: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field idempotency_key. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id?: components["schemas"]["components.Id"];
                    name: string;
                    description?: string;
                    tags?: components["schemas"]["components.Tags"];
                    /** @description Validated against the type's config_schema. Secret fields are write-only: left out on PUT/PATCH they are kept; null clears one. */
                    config?: {
                        [key: string]: unknown;
                    };
                    type: components["schemas"]["components.TypeName"];
                    stream?: components["schemas"]["components.StreamId"];
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                    /** @description Reusing the key retries the same intent. */
                    idempotency_key?: string;
                };
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["components.Component"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getComponent: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: components["schemas"]["components.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["components.Component"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    replaceComponent: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["components.Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    description?: string;
                    tags?: components["schemas"]["components.Tags"];
                    /** @description Validated against the type's config_schema. Secret fields are write-only: left out on PUT/PATCH they are kept; null clears one. */
                    config?: {
                        [key: string]: unknown;
                    };
                    stream?: components["schemas"]["components.StreamId"];
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["components.Component"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    deleteComponent: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["components.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    patchComponent: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["components.Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                    tags?: components["schemas"]["components.Tags"];
                    /** @description Validated against the type's config_schema. Secret fields are write-only: left out on PUT/PATCH they are kept; null clears one. */
                    config?: {
                        [key: string]: unknown;
                    };
                    stream?: components["schemas"]["components.StreamId"];
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["components.Component"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    startComponent: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: components["schemas"]["components.Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    reason?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                    /** @description Reusing the key retries the same intent. */
                    request_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["components.ActionResult"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    stopComponent: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: components["schemas"]["components.Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    reason?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                    /** @description Reusing the key retries the same intent. */
                    request_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["components.ActionResult"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    restartComponent: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: components["schemas"]["components.Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    reason?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                    /** @description Reusing the key retries the same intent. */
                    request_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["components.ActionResult"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listCodecKinds: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["codecs.CodecKindList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listCodecs: {
        parameters: {
            query?: {
                kind?: components["schemas"]["codecs.KindName"];
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["codecs.CodecList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    createCodec: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field idempotency_key. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id?: components["schemas"]["codecs.Id"];
                    name: string;
                    kind: components["schemas"]["codecs.KindName"];
                    schema?: components["schemas"]["codecs.SchemaField"];
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                    /** @description Reusing the key retries the same intent. */
                    idempotency_key?: string;
                };
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    /** @description The revision of the resource, quoted: send it back in If-Match to change this version only. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["codecs.Codec"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getCodec: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: components["schemas"]["codecs.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The revision of the resource, quoted: send it back in If-Match to change this version only. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["codecs.Codec"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    replaceCodec: {
        parameters: {
            query?: {
                /** @description Keep a change that breaks compatibility. */
                force?: boolean;
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description The ETag read before (the revision, quoted), or *: the change applies only while it is current (412 otherwise). */
                "If-Match"?: string;
            };
            path: {
                id: components["schemas"]["codecs.Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description Defaults to the codec's kind; another kind breaks compatibility (422 unless force). */
                    kind?: components["schemas"]["codecs.KindName"];
                    schema?: components["schemas"]["codecs.SchemaField"];
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description The revision of the resource, quoted: send it back in If-Match to change this version only. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["codecs.Codec"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            412: components["responses"]["Error412"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            501: components["responses"]["Error501"];
            503: components["responses"]["Error503"];
        };
    };
    deleteCodec: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description The ETag read before (the revision, quoted), or *: the change applies only while it is current (412 otherwise). */
                "If-Match"?: string;
            };
            path: {
                id: components["schemas"]["codecs.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            412: components["responses"]["Error412"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listCodecRevisions: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                id: components["schemas"]["codecs.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["codecs.CodecRevisionList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    decodeWithCodec: {
        parameters: {
            query?: {
                /** @description The revision the bytes were written with; defaults to the current one. */
                revision?: number;
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: components["schemas"]["codecs.Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["codecs.DecodeResult"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            501: components["responses"]["Error501"];
            503: components["responses"]["Error503"];
        };
    };
    encodeWithCodec: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["schemas"]["codecs.Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The value to encode, as the kind maps it to JSON. */
                    value: unknown;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            501: components["responses"]["Error501"];
            503: components["responses"]["Error503"];
        };
    };
    listStreams: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["streams.StreamList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    createStream: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field idempotency_key. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id?: components["schemas"]["streams.Id"];
                    name: string;
                    /** @default 1 */
                    partitions?: number;
                    retention?: components["schemas"]["streams.Retention"];
                    codec?: string | null;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                    /** @description Reusing the key retries the same intent. */
                    idempotency_key?: string;
                };
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["streams.Stream"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getStream: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: components["schemas"]["streams.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["streams.Stream"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    deleteStream: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["streams.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    patchStream: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["streams.Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description Partitions can only grow. */
                    partitions?: number;
                    retention?: components["schemas"]["streams.Retention"];
                    codec?: string | null;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["streams.Stream"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    readStreamMessages: {
        parameters: {
            query?: {
                partition?: number;
                from_offset?: number;
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 1000. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                id: components["schemas"]["streams.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["streams.MessageList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    publishMessages: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["streams.Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    messages: components["schemas"]["streams.PublishedMessage"][];
                    /** @description Publishing again under the same key (on this stream, by anyone) answers the first publish's result; other messages under it are refused with 422. */
                    idempotency_key?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["streams.PublishResult"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    tailStream: {
        parameters: {
            query?: {
                partition?: number;
                from_offset?: number;
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: components["schemas"]["streams.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listConsumers: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 1000. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                id: components["schemas"]["streams.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["streams.ConsumerList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    commitConsumerOffsets: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["streams.Id"];
                consumer: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    offsets: {
                        partition: number;
                        offset: number;
                    }[];
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        consumer: string;
                        offsets: Record<string, never>[];
                    } | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listMessages: {
        parameters: {
            query?: {
                stream?: components["schemas"]["streams.Id"];
                workflow?: string;
                status?: components["schemas"]["streams.MessageStatus"];
                since?: string;
                until?: string;
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 1000. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["streams.MessageList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getMessage: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["streams.MessageDetail"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getMessageBody: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    replayMessage: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    target_stream?: components["schemas"]["streams.Id"];
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                    /** @description Reusing the key retries the same intent. */
                    request_id?: string;
                };
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["streams.Replayed"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    redriveMessages: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    workflow: string;
                    /** @constant */
                    status: "dead";
                    /** Format: date-time */
                    since?: string;
                    /** Format: date-time */
                    until?: string;
                    limit: number;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                    /** @description Reusing the key retries the same intent. */
                    request_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        replayed: number;
                        messages: components["schemas"]["streams.Replayed"][];
                    } | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listBpmnDefinitions: {
        parameters: {
            query?: {
                process_id?: string;
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.DefinitionList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    deployBpmnDefinition: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Deployed"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getBpmnDefinition: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                key: components["schemas"]["bpmn.Key"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Definition"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getBpmnDefinitionXml: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                key: components["schemas"]["bpmn.Key"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listBpmnInstances: {
        parameters: {
            query?: {
                state?: "active" | "completed" | "cancelled" | "incident";
                process_id?: string;
                business_key?: string;
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.InstanceList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    startBpmnInstance: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    process_id?: string;
                    key?: components["schemas"]["bpmn.Key"];
                    version?: number;
                    variables?: components["schemas"]["bpmn.Variables"];
                    business_key?: string;
                    request_id?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                } & (unknown | unknown);
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Instance"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getBpmnInstance: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: components["schemas"]["bpmn.Key"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Instance"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    cancelBpmnInstance: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: components["schemas"]["bpmn.Key"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    request_id?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Instance"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    migrateBpmnInstance: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: components["schemas"]["bpmn.Key"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The version of the instance's process to move to (default: the latest). */
                    version?: number;
                    key?: components["schemas"]["bpmn.Key"];
                    request_id?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Instance"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    replayBpmnInstance: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: components["schemas"]["bpmn.Key"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    from_activity?: string;
                    request_id?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Instance"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listBpmnTasks: {
        parameters: {
            query?: {
                state?: "open" | "completed" | "cancelled";
                assignee?: string;
                instance_id?: components["schemas"]["bpmn.Key"];
                candidate_group?: string;
                candidate_user?: string;
                process_id?: string;
                business_key?: string;
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.TaskList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getBpmnTask: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: components["schemas"]["bpmn.Key"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Task"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    claimBpmnTask: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: components["schemas"]["bpmn.Key"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    assignee: string;
                    request_id?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Task"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    unclaimBpmnTask: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: components["schemas"]["bpmn.Key"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    request_id?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Task"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    completeBpmnTask: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: components["schemas"]["bpmn.Key"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    variables?: components["schemas"]["bpmn.Variables"];
                    request_id?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Instance"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    correlateBpmnMessage: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    correlation_key?: string;
                    variables?: components["schemas"]["bpmn.Variables"];
                    request_id?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Correlated"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    broadcastBpmnSignal: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    variables?: components["schemas"]["bpmn.Variables"];
                    request_id?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Correlated"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listBpmnIncidents: {
        parameters: {
            query?: {
                state?: "open" | "resolved";
                instance_id?: components["schemas"]["bpmn.Key"];
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.IncidentList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    resolveBpmnIncident: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: components["schemas"]["bpmn.Key"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    variables?: components["schemas"]["bpmn.Variables"];
                    /**
                     * @description Attempts the failed job gets again.
                     * @default 1
                     */
                    retries?: number;
                    request_id?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Instance"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listBpmnJobs: {
        parameters: {
            query?: {
                state?: "open" | "completed" | "failed" | "cancelled";
                type?: string;
                instance_id?: components["schemas"]["bpmn.Key"];
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.JobList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    fetchAndLockBpmnJobs: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The worker's own id: a job's lock is this worker's. */
                    worker_id: string;
                    /** @description Job types (Zeebe task types, Camunda topics) the worker takes. */
                    types: string[];
                    /** @default 1 */
                    max_jobs?: number;
                    /**
                     * @description How long the jobs stay this worker's unless completed, failed or extended.
                     * @default 60000
                     */
                    lock_duration_ms?: number;
                    /**
                     * @description Long polling: how long to wait for a job when none is due now.
                     * @default 0
                     */
                    wait_ms?: number;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.JobList"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    completeBpmnJob: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: components["schemas"]["bpmn.Key"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The worker's own id: a job's lock is this worker's. */
                    worker_id: string;
                    variables?: components["schemas"]["bpmn.Variables"];
                    request_id?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Instance"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    failBpmnJob: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: components["schemas"]["bpmn.Key"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The worker's own id: a job's lock is this worker's. */
                    worker_id: string;
                    message: string;
                    /** @description Retries left after this failure (default: the job's less one); 0 raises an incident. */
                    retries?: number;
                    /**
                     * @description The job is fetchable again after this long.
                     * @default 0
                     */
                    retry_backoff_ms?: number;
                    request_id?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Job"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    throwBpmnJobError: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: components["schemas"]["bpmn.Key"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The worker's own id: a job's lock is this worker's. */
                    worker_id: string;
                    /** @description Matched against the errorCode of the error an error boundary event of the task catches. */
                    error_code: string;
                    message?: string;
                    variables?: components["schemas"]["bpmn.Variables"];
                    request_id?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Instance"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    extendBpmnJobLock: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["bpmn.Key"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The worker's own id: a job's lock is this worker's. */
                    worker_id: string;
                    /** @description The lock now ends this long from now. */
                    lock_duration_ms: number;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Job"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    setBpmnInstanceVariables: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: components["schemas"]["bpmn.Key"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    variables: components["schemas"]["bpmn.Variables"];
                    request_id?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["bpmn.Instance"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    receiveWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description <tenant>.<component>, as shown once when the webhook component was created. */
                hook: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "*/*": string;
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["connectors.Received"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            501: components["responses"]["Error501"];
            503: components["responses"]["Error503"];
        };
    };
    listWorkflows: {
        parameters: {
            query?: {
                state?: components["schemas"]["workflows.State"];
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["workflows.WorkflowList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    createWorkflow: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field idempotency_key. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id?: string;
                    name: string;
                    description?: string;
                    input: components["schemas"]["workflows.Input"];
                    steps?: components["schemas"]["workflows.Step"][];
                    sinks: components["schemas"]["workflows.Step"][];
                    on_error?: components["schemas"]["workflows.ErrorPolicy"];
                    /** @description Keep a loop where the outputs flow back into the input stream. */
                    allow_cycles?: boolean;
                    /** @description Messages per transaction (default 100). */
                    batch_size?: number;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                    /** @description Reusing the key retries the same intent. */
                    idempotency_key?: string;
                };
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    /** @description The revision of the resource, quoted: send it back in If-Match to change this version only. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["workflows.Workflow"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getWorkflow: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The revision of the resource, quoted: send it back in If-Match to change this version only. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["workflows.Workflow"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    replaceWorkflow: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description The ETag read before (the revision, quoted), or *: the change applies only while it is current (412 otherwise). */
                "If-Match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    description?: string;
                    input: components["schemas"]["workflows.Input"];
                    steps?: components["schemas"]["workflows.Step"][];
                    sinks: components["schemas"]["workflows.Step"][];
                    on_error?: components["schemas"]["workflows.ErrorPolicy"];
                    /** @description Keep a loop where the outputs flow back into the input stream. */
                    allow_cycles?: boolean;
                    /** @description Messages per transaction (default 100). */
                    batch_size?: number;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description The revision of the resource, quoted: send it back in If-Match to change this version only. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["workflows.Workflow"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            412: components["responses"]["Error412"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    deleteWorkflow: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description The ETag read before (the revision, quoted), or *: the change applies only while it is current (412 otherwise). */
                "If-Match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            412: components["responses"]["Error412"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    patchWorkflow: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description The ETag read before (the revision, quoted), or *: the change applies only while it is current (412 otherwise). */
                "If-Match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                    input?: components["schemas"]["workflows.Input"];
                    steps?: components["schemas"]["workflows.Step"][];
                    sinks?: components["schemas"]["workflows.Step"][];
                    on_error?: components["schemas"]["workflows.ErrorPolicy"];
                    /** @description Keep a loop where the outputs flow back into the input stream. */
                    allow_cycles?: boolean;
                    /** @description Messages per transaction (default 100). */
                    batch_size?: number;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description The revision of the resource, quoted: send it back in If-Match to change this version only. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["workflows.Workflow"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            412: components["responses"]["Error412"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listWorkflowRevisions: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["workflows.RevisionList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    diffWorkflowRevisions: {
        parameters: {
            query?: {
                against?: number;
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: string;
                revision: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["workflows.Diff"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    deployWorkflow: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    revision?: number;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                    /** @description Reusing the key retries the same intent. */
                    request_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    /** @description The revision of the resource, quoted: send it back in If-Match to change this version only. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["workflows.Workflow"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    pauseWorkflow: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    reason?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description The revision of the resource, quoted: send it back in If-Match to change this version only. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["workflows.Workflow"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    resumeWorkflow: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    reason?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description The revision of the resource, quoted: send it back in If-Match to change this version only. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["workflows.Workflow"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listWorkflowRuns: {
        parameters: {
            query?: {
                status?: components["schemas"]["workflows.RunStatus"];
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 1000. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["workflows.RunList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getWorkflowRun: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: string;
                run: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["workflows.Run"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    replayWorkflowRun: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
                run: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    revision?: number;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                    /** @description Reusing the key retries the same intent. */
                    request_id?: string;
                };
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["workflows.Run"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listWorkspaces: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["studio.WorkspaceList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    createWorkspace: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field idempotency_key. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id?: components["schemas"]["studio.Id"];
                    name: string;
                    description?: string;
                    /** @description The files of revision 1 (none by default). */
                    files?: components["schemas"]["studio.FileMap"];
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                    /** @description Reusing the key retries the same intent. */
                    idempotency_key?: string;
                };
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["studio.Workspace"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getWorkspace: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: components["schemas"]["studio.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["studio.Workspace"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    deleteWorkspace: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["studio.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    updateWorkspace: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["studio.Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["studio.Workspace"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getWorkspaceFiles: {
        parameters: {
            query?: {
                /** @description An earlier revision (404 when it does not exist). */
                revision?: number;
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: components["schemas"]["studio.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The revision of the resource, quoted: send it back in If-Match to change this version only. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["studio.Files"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    putWorkspaceFiles: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description The ETag read before (the revision, quoted), or *: the change applies only while it is current (412 otherwise). */
                "If-Match"?: string;
            };
            path: {
                id: components["schemas"]["studio.Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Files to create or replace; files not named keep their content. */
                    files: components["schemas"]["studio.FileMap"];
                    /** @description Paths to remove (each must exist). */
                    delete?: string[];
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description The revision of the resource, quoted: send it back in If-Match to change this version only. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["studio.Files"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            412: components["responses"]["Error412"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listWorkspaceRevisions: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                id: components["schemas"]["studio.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["studio.RevisionList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    runWorkspace: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["studio.Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description The module to run; main.js by default. */
                    entry?: components["schemas"]["studio.Path"];
                    input?: components["schemas"]["studio.RunInput"];
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["studio.RunResult"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            501: components["responses"]["Error501"];
            503: components["responses"]["Error503"];
        };
    };
    testWorkspace: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["studio.Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description The module each case runs; main.js by default (a case file may name its own `entry`). */
                    entry?: components["schemas"]["studio.Path"];
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["studio.TestReport"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    mintStudioTicket: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    workspace_id: components["schemas"]["studio.Id"];
                    /**
                     * @description Which socket the ticket opens: collab (GET /studio/collab/ws) or terminal (GET /studio/terminal/ws).
                     * @enum {unknown}
                     */
                    channel: "collab" | "terminal";
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["studio.Ticket"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    openCollabSocket: {
        parameters: {
            query: {
                /** @description Optional: when given it must be the workspace the ticket was minted for. */
                workspace_id?: components["schemas"]["studio.Id"];
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description One-time ticket (30 s) that opens this WebSocket. */
                ticket: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection is a WebSocket from here on (see x-websocket). */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            426: components["responses"]["Error426"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    openTerminalSocket: {
        parameters: {
            query: {
                /** @description Optional: when given it must be the workspace the ticket was minted for. */
                workspace_id?: components["schemas"]["studio.Id"];
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description One-time ticket (30 s) that opens this WebSocket. */
                ticket: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection is a WebSocket from here on (see x-websocket). */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            426: components["responses"]["Error426"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    runSqlQuery: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description One query (SELECT, VALUES, TABLE or WITH … SELECT); parameters as $1, $2, … */
                    sql: string;
                    /** @description Values for $1, $2, … */
                    params?: (string | number | boolean | null)[];
                    /** @description Most rows to return (at most the console's cap). */
                    limit?: number;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["sql.QueryResult"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            501: components["responses"]["Error501"];
            503: components["responses"]["Error503"];
        };
    };
    listAlertSignals: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["alerts.SignalList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listAlertRules: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["alerts.RuleList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    createAlertRule: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field idempotency_key. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id?: components["schemas"]["alerts.Id"];
                    name: string;
                    signal: string;
                    selector?: components["schemas"]["alerts.Selector"];
                    /** @enum {unknown} */
                    op: ">" | ">=" | "<" | "<=" | "==" | "!=";
                    threshold: number;
                    /**
                     * @description How long the condition must hold before the alert fires (pending until then).
                     * @default 0
                     */
                    for_seconds?: number;
                    /**
                     * @default warning
                     * @enum {unknown}
                     */
                    severity?: "info" | "warning" | "critical";
                    labels?: components["schemas"]["alerts.Labels"];
                    annotations?: components["schemas"]["alerts.Labels"];
                    notify?: components["schemas"]["alerts.Notify"];
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                    /** @description Reusing the key retries the same intent. */
                    idempotency_key?: string;
                };
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["alerts.Rule"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getAlertRule: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: components["schemas"]["alerts.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["alerts.Rule"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    replaceAlertRule: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["alerts.Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    signal: string;
                    selector?: components["schemas"]["alerts.Selector"];
                    /** @enum {unknown} */
                    op: ">" | ">=" | "<" | "<=" | "==" | "!=";
                    threshold: number;
                    /**
                     * @description How long the condition must hold before the alert fires (pending until then).
                     * @default 0
                     */
                    for_seconds?: number;
                    /**
                     * @default warning
                     * @enum {unknown}
                     */
                    severity?: "info" | "warning" | "critical";
                    labels?: components["schemas"]["alerts.Labels"];
                    annotations?: components["schemas"]["alerts.Labels"];
                    notify?: components["schemas"]["alerts.Notify"];
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["alerts.Rule"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    deleteAlertRule: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: components["schemas"]["alerts.Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listAlerts: {
        parameters: {
            query?: {
                state?: "pending" | "firing" | "resolved";
                rule?: components["schemas"]["alerts.Id"];
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["alerts.AlertList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    ackAlert: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["alerts.Alert"] | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listSilences: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 100, larger values are clamped to 500. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["alerts.SilenceList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    createSilence: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field idempotency_key. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    matchers: {
                        name: string;
                        value: string;
                    }[];
                    /** Format: date-time */
                    starts_at?: string;
                    /** Format: date-time */
                    ends_at: string;
                    comment?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                    /** @description Reusing the key retries the same intent. */
                    idempotency_key?: string;
                };
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["alerts.Silence"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    expireSilence: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getDashboard: {
        parameters: {
            query?: {
                window?: "5m" | "1h" | "24h";
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["dashboard.Dashboard"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    exportBundle: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    include?: string[];
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["migration.Bundle"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    createPlan: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    bundle: components["schemas"]["migration.Bundle"];
                    target_tenant_id: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["migration.Plan"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getPlan: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["migration.Plan"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    applyPlan: {
        parameters: {
            query?: {
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: {
                /** @description Same as the body field request_id. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    request_id: string;
                    /** @default false */
                    allow_destructive?: boolean;
                    /** @description Values for the bundle's secret placeholders the target lacks (or should replace), by placeholder name (<component>:/<field>, as the plan's secrets_present names them); sealed into the target in the apply's transaction, never stored in the plan nor the audit trail. */
                    secrets?: {
                        [key: string]: string | number | boolean | Record<string, never> | unknown[];
                    };
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK. Or: Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    /** @description true when this is a stored response replayed for a reused key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plan_id: string;
                        target_tenant_id: string;
                        bundle_hash: string;
                        applied: Record<string, never>;
                        gate: components["schemas"]["migration.GateCheck"][];
                    } | components["schemas"]["DryRunReport"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listAgentTools: {
        parameters: {
            query?: {
                /** @description Only operations of this category (builder, studio, operate, identity, discovery, ...). */
                category?: string;
                /** @description true: only read-only operations; false: only operations that change state. */
                read_only?: boolean;
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["agent.Catalog"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listMcpTools: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["agent.McpToolList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            405: components["responses"]["Error405"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    postMcpMessage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["agent.JsonRpcMessage"] | components["schemas"]["agent.JsonRpcMessage"][];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["agent.JsonRpcMessage"] | components["schemas"]["agent.JsonRpcMessage"][];
                };
            };
            /** @description The message (or every message of a batch) was a notification or a response: nothing to answer, empty body */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    chatWithAgent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Continue this conversation (one of yours); omit to start one. */
                    conversation_id?: string;
                    message: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["agent.Turn"];
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            501: components["responses"]["Error501"];
            503: components["responses"]["Error503"];
        };
    };
    listAgentConversations: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Page size; default 50, larger values are clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["agent.ConversationList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            501: components["responses"]["Error501"];
            503: components["responses"]["Error503"];
        };
    };
    getAgentConversation: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["agent.Conversation"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            501: components["responses"]["Error501"];
            503: components["responses"]["Error503"];
        };
    };
    deleteAgentConversation: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
                /** @description Run every check and the change in a transaction that is rolled back. */
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Dry run (dry_run=true): the report of what the call would have done; nothing was kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunReport"];
                };
            };
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            501: components["responses"]["Error501"];
            503: components["responses"]["Error503"];
        };
    };
    approveAgentAction: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["agent.Turn"];
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            501: components["responses"]["Error501"];
            503: components["responses"]["Error503"];
        };
    };
    denyAgentAction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    reason?: string;
                    /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["agent.Turn"];
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            501: components["responses"]["Error501"];
            503: components["responses"]["Error503"];
        };
    };
    getServiceRoot: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Found: follow the Location header */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
        };
    };
    getConsole: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not modified (If-None-Match) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            500: components["responses"]["Error500"];
            501: components["responses"]["Error501"];
        };
    };
    getConsoleFile: {
        parameters: {
            query?: {
                /** @description Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                /** @description The rest of the path after /console/, slashes included. */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not modified (If-None-Match) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            404: components["responses"]["Error404"];
            500: components["responses"]["Error500"];
            501: components["responses"]["Error501"];
        };
    };
}
