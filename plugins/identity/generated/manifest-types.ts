// Generated from manifests/identity.json by `npm run types:generate`; do not edit.
// test/kernel/manifest/generated-types.test.ts fails when it differs from what the manifest generates.
// Input types read as the kernel leaves the input after validation: fields with a default are present.

/** `settings.identity`, as setup receives them: checked, defaults filled in. */
export type Settings = {
  /** Lifetime of a session's access token (sess_…). */
  access_token_ttl_seconds: number;
  /** A refresh token unused this long expires (never later than the session's end). */
  refresh_idle_ttl_seconds: number;
  /** A session ends this long after sign-in, however often it is refreshed. */
  session_max_ttl_seconds: number;
  /** Lifetime of an API token minted without expires_in_days; null: such tokens never expire. */
  api_token_default_days: number | null;
  /** Password hashing (scrypt, r = 8, p = 1). */
  password: {
    /** scrypt's cost N as a power of two. OWASP's floor, 2^17, is the least accepted outside the test profile, where the suite's hundreds of sign-ins may use less. */
    scrypt_log_n: number;
    /** Password hashes computed at once on an instance. */
    max_concurrent_hashes: number;
    /** Sign-ins waiting for a hash slot; one more is 429 too_many_requests. */
    max_queued_hashes: number;
  };
  /** Locking an account after wrong passwords. */
  lockout: {
    /** Wrong passwords in a row that lock the account. */
    max_failures: number;
    /** The first lockout's length; each lockout in a row doubles it. */
    base_seconds: number;
    /** The longest lockout. */
    max_seconds: number;
  };
  /** The first tenant and its admin, created on a new database. */
  bootstrap: {
    /** Create them; by default on in the local and test profiles, and in production when RUNTIME_ADMIN_PASSWORD is set. */
    enabled?: boolean;
    /** The bootstrap tenant. */
    tenant_id: string;
    /** The bootstrap admin, holding admin and account-admin. */
    username: string;
    /** The bootstrap admin's password; RUNTIME_ADMIN_PASSWORD wins over it; without either one is generated and printed once on stderr. */
    admin_password?: string;
  };
  /** The break-glass key (off unless set): `Authorization: BreakGlass <key>` with `X-Break-Glass-Reason`, every use audited as critical. */
  break_glass?: {
    /** sha256:<hex of the SHA-256 of the key> */
    key_hash: string;
    /** The tenant the key acts in. */
    tenant_id: string;
  };
  /** OpenID Connect issuers trusted through configuration (beside those registered per tenant under /identity-providers); they honour every claimed role. */
  oidc_providers: {
    /** The provider's name. */
    id: string;
    /** The issuer URL (its discovery document and keys are fetched from it). */
    issuer: string;
    /** The audience tokens must carry; an issuer and audience pair belongs to one provider. */
    audience: string;
    /** A fixed tenant; without it, claims.tenant names the claim holding it. */
    tenant_id?: string;
    /** Which claims of the provider's tokens carry what. */
    claims?: {
      /** The claim naming the subject (default `sub`). */
      subject?: string;
      /** The claim naming the tenant, when tenant_id is not set. */
      tenant?: string;
      /** The claim holding role names (default `roles`). */
      roles?: string;
    };
    /** Signature algorithms accepted (default RS256, PS256, ES256, EdDSA). */
    algorithms?: string[];
    /** Roles every token of the provider gets. */
    default_roles?: string[];
    /** Allow an http:// issuer (for tests). */
    allow_insecure_http?: boolean;
  }[];
};

export type Id = string;

export type TenantId = string;

export type RoleName = string;

export type RoleNames = RoleName[];

export type Timestamp = string;

export type NullableTimestamp = string | null;

/** At least 12 characters; stored only as an scrypt hash. */
export type Password = string;

export type Username = string;

export type IdParams = {
  id: Id;
};

export type LoginRequest = {
  tenant_id: TenantId;
  username: string;
  password: string;
};

export type RefreshRequest = {
  refresh_token: string;
};

export type LoginResponse = {
  /** sess_… bearer token; short-lived. */
  access_token: string;
  /** rt_… token; one use, rotated by POST /auth/refresh. */
  refresh_token: string;
  token_type?: 'Bearer';
  expires_at: Timestamp;
  refresh_expires_at?: Timestamp;
  session_id?: string;
  subject_id: string;
  tenant_id: string;
};

export type Session = {
  id: string;
  tenant_id: string;
  subject_id: string;
  created_at: Timestamp;
  refreshed_at?: NullableTimestamp;
  expires_at: Timestamp;
  refresh_expires_at: Timestamp;
  user_agent?: string | null;
  /** True for the session of the calling credential. */
  current: boolean;
};

export type SessionList = {
  items: Session[];
};

export type BrowserUser = {
  id: string;
  username: string;
  tenant_id: string;
};

export type BrowserSignIn = {
  user: BrowserUser;
  expires_at: Timestamp;
  refresh_expires_at: Timestamp;
};

export type BrowserSession = {
  expires_at: Timestamp;
  refresh_expires_at: Timestamp;
};

export type BrowserLogout = {
  /** End every session of the signed-in subject, not only this one. */
  everywhere?: boolean;
};

export type Me = {
  user: {
    /** The subject id (a user id, an API token id, provider:subject for single sign-on). */
    id: string;
    /** The user's name; null for a credential that is not a user (API token, OIDC token). */
    username: string | null;
    display_name?: string;
    email?: string;
    tenant_id: string;
    /** How the caller authenticated. */
    kind: 'session' | 'api_token' | 'oidc' | 'break_glass' | 'local' | 'maintenance';
  };
  tenant_id: string;
  roles: string[];
  /** Every permission the caller holds, sorted; the catalog's `permission` of a route says which it needs. */
  permissions: string[];
  /** Holds runtime:account:admin: may act in every tenant (tenant_id *). */
  account_admin: boolean;
  /** A read-only credential: read-only operations only. */
  read_only?: boolean;
  /** The session a session credential (Bearer or cookie) belongs to; null for other credentials. */
  session: null | {
    id: string;
    expires_at: Timestamp;
  };
};

export type BrowserProvider = {
  id: string;
  /** What the sign-in button says (the provider's display_name, else its id). */
  name: string;
};

export type BrowserProviderList = {
  items: BrowserProvider[];
};

export type Tenant = {
  id: string;
  name: string;
  created_at: Timestamp;
};

export type TenantCreate = {
  id?: TenantId;
  name: string;
};

export type TenantList = {
  items: Tenant[];
};

export type User = {
  id: string;
  tenant_id: string;
  username: string;
  email: string | null;
  display_name: string | null;
  roles: RoleNames;
  disabled: boolean;
  locked_until: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_login_at: NullableTimestamp;
};

export type UserCreate = {
  id?: Id;
  username: Username;
  password: Password;
  email?: string;
  display_name?: string;
  roles?: RoleNames;
};

export type UserPatch = {
  password?: Password;
  email?: string | null;
  display_name?: string | null;
  /** true disables the user and revokes its sessions. */
  disabled?: boolean;
  /** Clears a brute-force lockout. */
  unlock?: true;
};

export type UserList = {
  items: User[];
};

export type RoleAssignment = {
  roles: RoleNames;
};

export type Role = {
  id: string;
  tenant_id?: string | null;
  description: string;
  permissions: string[];
  built_in: boolean;
  created_at?: NullableTimestamp;
};

export type RoleCreate = {
  id: RoleName;
  description?: string;
  permissions: string[];
};

export type RoleList = {
  items: Role[];
};

export type ApiToken = {
  id: string;
  tenant_id: string;
  name: string;
  roles: RoleNames;
  read_only: boolean;
  revoked: boolean;
  expires_at: NullableTimestamp;
  created_at: Timestamp;
  created_by?: string;
  last_used_at: NullableTimestamp;
};

export type ApiTokenMint = {
  name: string;
  roles: RoleNames;
  expires_in_days?: number;
  /** The token may call read-only operations only. */
  read_only?: boolean;
};

export type ApiTokenMinted = {
  /** Begins with sk_; shown once, never again. */
  secret: string;
  token: ApiToken;
};

export type ApiTokenList = {
  items: ApiToken[];
};

export type ClaimMapping = {
  /** Claim naming the subject; default sub. */
  subject?: string;
  /** Claim naming the tenant; when set it must equal the provider's tenant. */
  tenant?: string;
  /** Claim holding role names (array or space-separated); default roles. */
  roles?: string;
};

export type Algorithms = (
  | 'RS256'
  | 'RS384'
  | 'RS512'
  | 'PS256'
  | 'PS384'
  | 'PS512'
  | 'ES256'
  | 'ES384'
  | 'ES512'
  | 'Ed25519'
  | 'EdDSA'
)[];

/** Roles every token the provider validates receives. You must hold every permission they grant. */
export type DefaultRoles = RoleNames;

/** The roles a token's roles claim may bring; claimed roles not listed here are ignored. Empty (the default): no claimed role is honoured. You must hold every permission they grant. A deleted role leaves this list. */
export type AllowedRoles = RoleNames;

export type IdentityProvider = {
  id: string;
  tenant_id: string;
  issuer: string;
  audience: string;
  claims: ClaimMapping;
  algorithms: Algorithms;
  default_roles: RoleNames;
  allowed_roles: AllowedRoles;
  allow_insecure_http: boolean;
  enabled: boolean;
  /** The OAuth client (public, PKCE) the console signs in with at this provider; null: no browser sign-in through it. Register the redirect URI <service origin>/auth/browser/oidc/callback with the provider. */
  browser_client_id: string | null;
  /** Shown on the console's sign-in button; defaults to the id. */
  display_name: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type IdentityProviderCreate = {
  id?: Id;
  issuer: string;
  audience: string;
  claims?: ClaimMapping;
  algorithms?: Algorithms;
  default_roles?: DefaultRoles;
  allowed_roles?: AllowedRoles;
  /** Accept an http:// issuer on a loopback address (tests and local use only). */
  allow_insecure_http?: boolean;
  enabled?: boolean;
  /** The OAuth client (public, PKCE) the console signs in with at this provider; null: no browser sign-in through it. Register the redirect URI <service origin>/auth/browser/oidc/callback with the provider. */
  browser_client_id?: string | null;
  /** Shown on the console's sign-in button; defaults to the id. */
  display_name?: string | null;
};

export type IdentityProviderPatch = {
  issuer?: string;
  audience?: string;
  claims?: ClaimMapping;
  algorithms?: Algorithms;
  default_roles?: DefaultRoles;
  allowed_roles?: AllowedRoles;
  allow_insecure_http?: boolean;
  enabled?: boolean;
  /** The OAuth client (public, PKCE) the console signs in with at this provider; null: no browser sign-in through it. Register the redirect URI <service origin>/auth/browser/oidc/callback with the provider. */
  browser_client_id?: string | null;
  /** Shown on the console's sign-in button; defaults to the id. */
  display_name?: string | null;
};

export type IdentityProviderList = {
  items: IdentityProvider[];
};

/** Each operation's input by operationId, for `operationHandlers<Operations>` (kernel/plugin/api.ts). */
export type Operations = {
  login: {
    params: Record<string, never>;
    query: Record<string, never>;
    body: {
      tenant_id: TenantId;
      username: string;
      password: string;
    };
    tenant: false;
    authenticated: false;
  };
  refreshSession: {
    params: Record<string, never>;
    query: Record<string, never>;
    body: {
      refresh_token: string;
    };
    tenant: false;
    authenticated: false;
  };
  logout: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: unknown;
    tenant: false;
    authenticated: true;
  };
  logoutAll: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: unknown;
    tenant: false;
    authenticated: true;
  };
  listSessions: {
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
    tenant: false;
    authenticated: true;
  };
  browserLogin: {
    params: Record<string, never>;
    query: Record<string, never>;
    body: {
      tenant_id: TenantId;
      username: string;
      password: string;
    };
    tenant: false;
    authenticated: false;
  };
  browserRefresh: {
    params: Record<string, never>;
    query: Record<string, never>;
    body: unknown;
    tenant: false;
    authenticated: false;
  };
  browserLogout: {
    params: Record<string, never>;
    query: Record<string, never>;
    body: {
      /** End every session of the signed-in subject, not only this one. */
      everywhere?: boolean;
    };
    tenant: false;
    authenticated: false;
  };
  getMe: {
    params: Record<string, never>;
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: false;
    authenticated: true;
  };
  listBrowserProviders: {
    params: Record<string, never>;
    query: {
      /** The tenant to sign in to. */
      tenant_id: string;
      /** Page size; default 50, larger values are clamped to 200. */
      limit?: number;
      /** Opaque cursor from the previous page. */
      cursor?: string;
    };
    body: unknown;
    tenant: false;
    authenticated: false;
  };
  startBrowserOidc: {
    params: Record<string, never>;
    query: {
      /** The tenant to sign in to. */
      tenant_id: string;
      /** Id of the tenant's identity provider. */
      provider: string;
      /** A path of this service to come back to after sign-in (default /console/); never another origin. */
      return_to?: string;
    };
    body: unknown;
    tenant: false;
    authenticated: false;
  };
  finishBrowserOidc: {
    params: Record<string, never>;
    query: {
      code?: string;
      state?: string;
      iss?: string;
      error?: string;
      error_description?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: false;
    authenticated: false;
  };
  listTenants: {
    params: Record<string, never>;
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Page size; default 100, larger values are clamped to 500. */
      limit?: number;
      /** Opaque cursor from the previous page. */
      cursor?: string;
    };
    body: unknown;
    tenant: false;
    authenticated: true;
  };
  createTenant: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      id?: TenantId;
      name: string;
    };
    tenant: false;
    authenticated: true;
  };
  listUsers: {
    params: Record<string, never>;
    query: {
      disabled?: boolean;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Page size; default 100, larger values are clamped to 500. */
      limit?: number;
      /** Opaque cursor from the previous page. */
      cursor?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  createUser: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      id?: Id;
      username: Username;
      password: Password;
      email?: string;
      display_name?: string;
      roles?: RoleNames;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  getUser: {
    params: {
      id: Id;
    };
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  patchUser: {
    params: {
      id: Id;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      password?: Password;
      email?: string | null;
      display_name?: string | null;
      /** true disables the user and revokes its sessions. */
      disabled?: boolean;
      /** Clears a brute-force lockout. */
      unlock?: true;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  deleteUser: {
    params: {
      id: Id;
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
  assignUserRoles: {
    params: {
      id: Id;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      roles: RoleNames;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  listRoles: {
    params: Record<string, never>;
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Page size; default 100, larger values are clamped to 500. */
      limit?: number;
      /** Opaque cursor from the previous page. */
      cursor?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  createRole: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      id: RoleName;
      description?: string;
      permissions: string[];
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  deleteRole: {
    params: {
      id: Id;
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
  listApiTokens: {
    params: Record<string, never>;
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Page size; default 100, larger values are clamped to 500. */
      limit?: number;
      /** Opaque cursor from the previous page. */
      cursor?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  mintApiToken: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      name: string;
      roles: RoleNames;
      expires_in_days?: number;
      /** The token may call read-only operations only. */
      read_only?: boolean;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  revokeApiToken: {
    params: {
      id: Id;
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
  listIdentityProviders: {
    params: Record<string, never>;
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Page size; default 100, larger values are clamped to 500. */
      limit?: number;
      /** Opaque cursor from the previous page. */
      cursor?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  createIdentityProvider: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      id?: Id;
      issuer: string;
      audience: string;
      claims?: ClaimMapping;
      algorithms?: Algorithms;
      default_roles?: DefaultRoles;
      allowed_roles?: AllowedRoles;
      /** Accept an http:// issuer on a loopback address (tests and local use only). */
      allow_insecure_http?: boolean;
      enabled?: boolean;
      /** The OAuth client (public, PKCE) the console signs in with at this provider; null: no browser sign-in through it. Register the redirect URI <service origin>/auth/browser/oidc/callback with the provider. */
      browser_client_id?: string | null;
      /** Shown on the console's sign-in button; defaults to the id. */
      display_name?: string | null;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  getIdentityProvider: {
    params: {
      id: Id;
    };
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  patchIdentityProvider: {
    params: {
      id: Id;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      issuer?: string;
      audience?: string;
      claims?: ClaimMapping;
      algorithms?: Algorithms;
      default_roles?: DefaultRoles;
      allowed_roles?: AllowedRoles;
      allow_insecure_http?: boolean;
      enabled?: boolean;
      /** The OAuth client (public, PKCE) the console signs in with at this provider; null: no browser sign-in through it. Register the redirect URI <service origin>/auth/browser/oidc/callback with the provider. */
      browser_client_id?: string | null;
      /** Shown on the console's sign-in button; defaults to the id. */
      display_name?: string | null;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  deleteIdentityProvider: {
    params: {
      id: Id;
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
};
