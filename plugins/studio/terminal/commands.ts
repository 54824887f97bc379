/** What one terminal line asks for. */
export type Command =
  | { kind: 'empty' }
  | { kind: 'help' }
  | { kind: 'ls'; prefix: string }
  | { kind: 'cat'; path: string }
  | { kind: 'run'; input?: string }
  | { kind: 'test' }
  | { kind: 'shell'; word: string }
  | { kind: 'expression'; source: string };

export const HELP = [
  "This terminal is a REPL into the workspace's sandbox, not an operating-system shell.",
  '  ls [dir]          list the files of the current revision',
  '  cat <path>        print a file',
  '  run [json]        run main.js with `json` as input.value (e.g. run {"a":1})',
  '  test              run every tests/*.json case',
  '  help              this text',
  "  <expression>      evaluate JavaScript after main.js ran on the last run's input (e.g. 1 + 2, result)",
  '                    (when main.js fails on that input, the expression is evaluated without it)',
].join('\n');

/**
 * Words that start an operating-system command. A line starting with one, followed by nothing
 * or by something that cannot continue a JavaScript expression (an argument, an option), is
 * refused with a clear message instead of being evaluated: nothing here ever reaches a shell,
 * and a refusal explains that better than a ReferenceError.
 */
const SHELL_WORDS = new Set([
  'sh',
  'bash',
  'zsh',
  'fish',
  'dash',
  'csh',
  'ksh',
  'sudo',
  'su',
  'exec',
  'eval',
  'source',
  'rm',
  'rmdir',
  'mkdir',
  'cp',
  'mv',
  'touch',
  'chmod',
  'chown',
  'ln',
  'cd',
  'pwd',
  'echo',
  'printf',
  'head',
  'tail',
  'less',
  'more',
  'grep',
  'find',
  'sed',
  'awk',
  'xargs',
  'tee',
  'wc',
  'sort',
  'uniq',
  'curl',
  'wget',
  'nc',
  'netcat',
  'ssh',
  'scp',
  'ping',
  'telnet',
  'ftp',
  'ps',
  'top',
  'kill',
  'killall',
  'pkill',
  'whoami',
  'id',
  'uname',
  'hostname',
  'env',
  'export',
  'set',
  'unset',
  'history',
  'which',
  'man',
  'clear',
  'exit',
  'logout',
  'reboot',
  'shutdown',
  'node',
  'npm',
  'npx',
  'yarn',
  'pnpm',
  'deno',
  'bun',
  'python',
  'python3',
  'pip',
  'perl',
  'ruby',
  'php',
  'git',
  'make',
  'gcc',
  'apt',
  'apt-get',
  'yum',
  'dnf',
  'apk',
  'brew',
  'docker',
  'kubectl',
  'systemctl',
  'service',
  'mount',
  'dd',
  'tar',
  'zip',
  'unzip',
  'vi',
  'vim',
  'nano',
  'emacs',
]);

/** After a shell word, these continue a JavaScript expression (`id.x`, `set(1)`, `env = 1`...). */
const CONTINUES_EXPRESSION = /^\s*(?:$|[.([`=!?:;,+*%<>&|^}\]]|-(?![-\w])|\/(?![\w.~-]))/;

export function parseLine(raw: string): Command {
  const line = raw.trim();
  if (line === '') return { kind: 'empty' };
  if (line === 'help' || line === '?') return { kind: 'help' };
  if (line === 'test') return { kind: 'test' };
  const [, word = '', rest = ''] = /^(\S+)\s*([\s\S]*)$/.exec(line) ?? [];
  if (word === 'ls' && !rest.startsWith('-')) return { kind: 'ls', prefix: rest.replace(/\/+$/, '') };
  if (word === 'cat' && rest !== '' && !/\s/.test(rest)) return { kind: 'cat', path: rest };
  if (word === 'run') return rest === '' ? { kind: 'run' } : { kind: 'run', input: rest };
  // `$ cmd` (a pasted prompt) and paths to executables (`/bin/sh`, `./x`).
  if (line.startsWith('$ ') || /^\.{0,2}\/\w/.test(line))
    return { kind: 'shell', word: line.split(/\s+/)[line.startsWith('$ ') ? 1 : 0] ?? line };
  if ((SHELL_WORDS.has(word) || word === 'ls' || word === 'cat') && !CONTINUES_EXPRESSION.test(line.slice(word.length)))
    return { kind: 'shell', word };
  if (SHELL_WORDS.has(word) && line.slice(word.length).trim() === '') return { kind: 'shell', word };
  return { kind: 'expression', source: line };
}
