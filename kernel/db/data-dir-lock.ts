import { randomUUID } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, realpathSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** The lock file inside the embedded database's data directory (PGlite ignores files it does not know). */
export const LOCK_FILE = '.runtime.lock';

/** A reclaim left behind by a process that died inside it is cleared after this long. */
const RECLAIM_STALE_MS = 10_000;
/** A lock file that cannot be parsed (a writer died mid-write on a filesystem without hard links) is stale after this long. */
const UNREADABLE_STALE_MS = 10_000;
const ATTEMPTS = 20;

/** Who holds the lock: enough to tell whether that process still runs, even after a reboot or a pid reuse. */
interface Owner {
  pid: number;
  host: string;
  /** Linux boot id: a lock written before the last reboot is stale whatever its pid. */
  boot: string | null;
  /** Linux start time of the process (clock ticks since boot): a reused pid has another one. */
  start: string | null;
  since: string;
  token: string;
}

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock file if it is still this process's. Safe to call twice. */
  release(): void;
}

export class DataDirInUseError extends Error {
  constructor(readonly dir: string, readonly file: string, owner: Owner | null) {
    const who = owner ? `pid ${owner.pid} on ${owner.host}, since ${owner.since}` : 'its lock file is being written';
    super(`the data directory ${dir} is in use by another runtime process (${who}); stop that process first, or delete ${file} if it no longer runs`);
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
    return { pid: value.pid, host: value.host, boot: value.boot ?? null, start: value.start ?? null, since: String(value.since ?? ''), token: value.token };
  } catch {
    return null;
  }
}

/**
 * Whether the process named in a lock file still runs. Another machine's processes cannot be
 * checked (a data directory shared between hosts or containers), so such a lock counts as held:
 * refusing to start is recoverable, two writers on one data directory are not.
 */
function ownerRuns(owner: Owner, file: string): boolean {
  if (owner.host !== hostname()) return true;
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
  const owner: Owner = { pid: process.pid, host: hostname(), boot: bootId(), start: startTimeOf(process.pid), since: new Date().toISOString(), token: randomUUID() };
  const content = `${JSON.stringify(owner)}\n`;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (create(file, content)) return held(file, content);
    const current = readText(file);
    if (current === undefined) continue;
    const holder = parseOwner(current);
    if (holder ? ownerRuns(holder, file) : ageMs(file) <= UNREADABLE_STALE_MS) throw new DataDirInUseError(dir, file, holder);
    reclaim(file, current, owner.token);
  }
  throw new Error(`could not take the lock ${file}: it keeps changing`);
}

function held(file: string, content: string): DataDirLock {
  heldHere.add(file);
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    heldHere.delete(file);
    process.removeListener('exit', release);
    if (readText(file) === content) removeIfThere(file);
  };
  // A process that exits without closing its kernel leaves no lock behind either.
  process.once('exit', release);
  return { file, release };
}
