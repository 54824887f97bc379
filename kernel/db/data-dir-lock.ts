import { randomUUID } from 'node:crypto';
import {
  closeSync,
  linkSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** The lock file inside the embedded database's data directory (PGlite ignores files it does not know). */
export const LOCK_FILE = '.runtime.lock';

/** A reclaim left behind by a process that died inside it is cleared after this long. */
const RECLAIM_STALE_MS = 10_000;
/** A lock file that cannot be parsed (a writer died mid-write on a filesystem without hard links) is stale after this long. */
const UNREADABLE_STALE_MS = 10_000;
const ATTEMPTS = 20;
/** The holder touches its lock file this often, for those who cannot see its process (below). */
const HEARTBEAT_MS = 5_000;
/** A lock from another host or container counts as held while it was touched within this time. */
export const FOREIGN_STALE_MS = 30_000;

/** Who holds the lock: enough to tell whether that process still runs, even after a reboot or a pid reuse. */
interface Owner {
  pid: number;
  host: string;
  /** Linux boot id: a lock written before the last reboot is stale whatever its pid. */
  boot: string | null;
  /** Linux start time of the process (clock ticks since boot): a reused pid has another one. */
  start: string | null;
  /** Linux pid namespace: containers sharing the host name and a volume still number processes apart. */
  pidns: string | null;
  since: string;
  token: string;
}

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock file if it is still this process's. Safe to call twice. */
  release(): void;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly file: string,
    owner: Owner | null,
    foreign = false,
  ) {
    const who = owner ? `pid ${owner.pid} on ${owner.host}, since ${owner.since}` : 'its lock file is being written';
    const wait = foreign
      ? `, or wait: a lock from another host or container is taken over once ${FOREIGN_STALE_MS / 1000} s pass without its process refreshing it`
      : '';
    super(
      `the data directory ${dir} is in use by another runtime process (${who}); stop that process first${wait}, or delete ${file} if it no longer runs`,
    );
    this.name = 'DataDirInUseError';
  }
}

/** Lock files this process holds: a second kernel in the same process is refused too. */
const heldHere = new Set<string>();

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function pidNamespace(): string | null {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return null;
  }
}

function bootId(): string | null {
  return readText('/proc/sys/kernel/random/boot_id')?.trim() || null;
}

/** Field 22 of /proc/<pid>/stat; the name in field 2 may hold spaces and parentheses, so count from its end. */
function startTimeOf(pid: number): string | null {
  const stat = readText(`/proc/${pid}/stat`);
  if (!stat) return null;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseOwner(text: string): Owner | null {
  try {
    const value = JSON.parse(text) as Partial<Owner>;
    if (typeof value.pid !== 'number' || typeof value.host !== 'string' || typeof value.token !== 'string') return null;
    return {
      pid: value.pid,
      host: value.host,
      boot: value.boot ?? null,
      start: value.start ?? null,
      pidns: value.pidns ?? null,
      since: String(value.since ?? ''),
      token: value.token,
    };
  } catch {
    return null;
  }
}

/** Whether the lock's process can be looked at from here: same host, same process numbering. */
function visible(owner: Owner): boolean {
  return owner.host === hostname() && owner.pidns === pidNamespace();
}

/**
 * Whether the process named in a lock file still runs. One on this host is looked up: by pid,
 * and by its start time against a reused pid; none survives a reboot. One on another host, or in
 * another container (own pid numbering: a data directory on a shared volume), cannot be looked
 * up, so its lock holds while the process keeps touching it.
 */
function ownerRuns(owner: Owner, file: string): boolean {
  if (!visible(owner)) return ageMs(file) < FOREIGN_STALE_MS;
  const boot = bootId();
  if (owner.boot && boot && owner.boot !== boot) return false;
  if (owner.pid === process.pid) return heldHere.has(file);
  if (!processExists(owner.pid)) return false;
  const start = startTimeOf(owner.pid);
  return owner.start && start ? owner.start === start : true;
}

/** Creates the lock file with its whole content at once; false when it already exists. */
function create(file: string, content: string): boolean {
  // A hard link to a fully written file publishes the content atomically: a reader never sees
  // a half-written lock. Filesystems without hard links get an exclusive create instead.
  const draft = `${file}.${process.pid}.${randomUUID()}`;
  writeFileSync(draft, content, { flag: 'wx' });
  try {
    linkSync(draft, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
    return createExclusive(file, content);
  } finally {
    unlinkSync(draft);
  }
}

function createExclusive(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function removeIfThere(file: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Removes a stale lock file, but only while it still holds what was judged stale: two processes
 * reclaiming at once take turns through a second exclusive file, so neither removes the lock the
 * other has just created.
 */
function reclaim(file: string, stale: string, token: string): void {
  const guard = `${file}.reclaim`;
  if (!createExclusive(guard, token)) {
    if (ageMs(guard) > RECLAIM_STALE_MS) removeIfThere(guard);
    else pause(50);
    return;
  }
  try {
    if (readText(file) === stale) removeIfThere(file);
  } finally {
    removeIfThere(guard);
  }
}

/**
 * Takes the data directory for this process, or throws DataDirInUseError naming the process that
 * has it. The lock dies with its process: a lock whose process is gone (killed, crashed, machine
 * rebooted) is reclaimed at the next start.
 */
export function lockDataDir(dir: string): DataDirLock {
  // The real path: the same directory reached through a symbolic link is the same lock.
  const file = join(realpathSync(dir), LOCK_FILE);
  const owner: Owner = {
    pid: process.pid,
    host: hostname(),
    boot: bootId(),
    start: startTimeOf(process.pid),
    pidns: pidNamespace(),
    since: new Date().toISOString(),
    token: randomUUID(),
  };
  const content = `${JSON.stringify(owner)}\n`;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (create(file, content)) return held(file, content);
    const current = readText(file);
    if (current === undefined) continue;
    const holder = parseOwner(current);
    if (holder ? ownerRuns(holder, file) : ageMs(file) <= UNREADABLE_STALE_MS)
      throw new DataDirInUseError(dir, file, holder, holder !== null && !visible(holder));
    reclaim(file, current, owner.token);
  }
  throw new Error(`could not take the lock ${file}: it keeps changing`);
}

function held(file: string, content: string): DataDirLock {
  heldHere.add(file);
  const heartbeat = setInterval(() => {
    try {
      if (readText(file) === content) utimesSync(file, new Date(), new Date());
    } catch {
      // The next beat tries again; a lock that stays untouched only matters to another container.
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    heldHere.delete(file);
    process.removeListener('exit', release);
    if (readText(file) === content) removeIfThere(file);
  };
  // A process that exits without closing its kernel leaves no lock behind either.
  process.once('exit', release);
  return { file, release };
}
