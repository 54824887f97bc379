import { readFileSync } from 'node:fs';

/**
 * `node dist/bench/profile-summary.js <file.cpuprofile> [skip-ms]`: where a profiled kernel spent
 * its CPU (BENCH_KERNEL_FLAGS="--cpu-prof --cpu-prof-dir=<dir>" writes one per bench target), as
 * self time by part (the embedded database, each package, the kernel, each plugin), by file and
 * by function. The first skip-ms of the profile (the boot) can be left out. Async work has no
 * stacks that reach its caller, so self time is what this counts.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, skip = '0'] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node dist/bench/profile-summary.js <file.cpuprofile> [skip-ms]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));

/** A file's name as read here: inside node_modules from the package on, inside the project from its top folder on. */
function shortName(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const inPackage = path.lastIndexOf('node_modules/');
  if (inPackage >= 0) return path.slice(inPackage + 'node_modules/'.length);
  const inDist = path.indexOf('/dist/');
  return inDist >= 0 ? path.slice(inDist + '/dist/'.length) : path;
}

/** The part a frame belongs to: the embedded database (PGlite and its WebAssembly), a package, the kernel, a plugin, or V8's own entries. */
function partOf(frame: CallFrame): string {
  const name = shortName(frame.url);
  if (frame.url.startsWith('wasm') || name.startsWith('@electric-sql/pglite')) return 'embedded database';
  if (frame.url === '') return frame.functionName.startsWith('(') ? frame.functionName : `native ${frame.functionName}`;
  if (frame.url.startsWith('node:')) return 'node';
  const inPackage = frame.url.lastIndexOf('node_modules/');
  if (inPackage >= 0) {
    const [scope, pkg] = name.split('/');
    return `package ${scope?.startsWith('@') ? `${scope}/${pkg}` : scope}`;
  }
  const [top, second] = name.split('/');
  return top === 'plugins' ? `plugin ${second}` : (top ?? name);
}

const byPart = new Map<string, number>();
const byFile = new Map<string, number>();
const byFunction = new Map<string, number>();
const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
let elapsed = 0;
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const us = profile.timeDeltas[i] ?? 0;
  elapsed += us;
  if (elapsed < Number(skip) * 1000) continue;
  const frame = frames.get(profile.samples[i]!);
  if (!frame) continue;
  total += us;
  add(byPart, partOf(frame), us);
  add(byFile, shortName(frame.url) || frame.functionName, us);
  add(byFunction, `${frame.functionName || '(anonymous)'} ${shortName(frame.url)}:${frame.lineNumber + 1}`, us);
}

function print(title: string, map: Map<string, number>, rows: number): void {
  process.stdout.write(`\n${title}\n`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    const share = `${((us / total) * 100).toFixed(1)}%`.padStart(6);
    process.stdout.write(`${share} ${`${(us / 1000).toFixed(0)} ms`.padStart(9)}  ${key}\n`);
  }
}
process.stdout.write(`${(total / 1000).toFixed(0)} ms of samples\n`);
print('self time by part', byPart, 20);
print('self time by file', byFile, 25);
print('self time by function', byFunction, 40);
