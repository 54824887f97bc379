/**
 * The boot's phases, in the order a start on the embedded database runs them: the one list the
 * boot's timer marks (each phase's wall and CPU milliseconds on the `serving` log line), the
 * comments and the generated reference page (docs/reference/boot-phases.md) read, so a phase
 * added, renamed or moved is added, renamed or moved everywhere at once.
 */
export interface BootPhase {
  /** Its key in `boot_ms` / `boot_cpu_ms`. */
  readonly name: string;
  /** What the boot does in it. */
  readonly does: string;
}

export const BOOT_PHASES = [
  {
    name: 'modules',
    does: "Load the kernel's modules: the process's time from its start to the boot (timed, not run by the boot).",
  },
  {
    name: 'resolve',
    does: 'Load the enabled plugins (built-in, by folder or by package) and order them by what they require.',
  },
  {
    name: 'prepare',
    does: "Check each plugin's settings and the kernel's; a plugin's `prepare` starts work that needs no service.",
  },
  {
    name: 'connect',
    does: "Open the database. A PostgreSQL server opens first, before *resolve*, and migrates while the plugins load (each plugin's migrations start as soon as its place in the order is settled); the embedded database opens here, once every plugin is known, from a template already migrated for the same set of migrations when an earlier start left one.",
  },
  {
    name: 'compile',
    does: "Compile every route of the manifests (schemas with the kernel's fields) and the catalog the OpenAPI document is made from, while the last migrations run.",
  },
  {
    name: 'migrate',
    does: "Finish the migrations: the kernel's tables, then each plugin's in order, in one transaction.",
  },
  {
    name: 'services',
    does: "Create the kernel's services: the dispatcher, events, jobs, tickets, secrets, the sandbox, metrics and readiness.",
  },
  {
    name: 'setup',
    does: 'Set each plugin up, in order, with its settings, what its `prepare` returned and exactly the services it declared; keep its handlers and contributions.',
  },
  {
    name: 'wire',
    does: "Wire the contributions to the kernel's extension points: the credential chain, the audit and log sinks, the tenant directory, the pipeline steps at their insertion points, the jobs.",
  },
  {
    name: 'conformance',
    does: 'Check that the plugins form one coherent surface: every route has its handler and every handler its route, the manifests keep their rules, error codes are declared, an authenticator is there.',
  },
  { name: 'secrets', does: 'Load the key cursors are signed with, so no request waits for it.' },
  { name: 'mount', does: "Compose each route's pipeline once, from the steps its manifest asks for." },
  {
    name: 'start',
    does: "Register the kernel's own jobs, start the events (plugins may subscribe), then each plugin in order, then the job runner.",
  },
  { name: 'http', does: 'Create the HTTP app (routes, realtime streams and sockets) and its server.' },
  { name: 'listen', does: 'Bind the port (`listen()`); the kernel then serves.' },
] as const satisfies readonly BootPhase[];

export type BootPhaseName = (typeof BOOT_PHASES)[number]['name'];
