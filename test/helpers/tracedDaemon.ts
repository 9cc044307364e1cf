// A daemon that runs under strace, for tests that prove what it never touches: started
// before any svc command attaches to the scratch home, following its children, and the
// paths each traced call named.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { eventually, REPO } from './scratch';
import type { Scratch } from './scratch';

/** The path arguments of one strace line: every string of a file syscall, only the program of an execve. */
export function pathArgs(line: string): string[] {
  const m = /^(?:\d+\s+)?(\w+)\((.*)$/.exec(line);
  if (!m) return [];
  const strings = [...m[2].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((x) => x[1]);
  return m[1] === 'execve' ? strings.slice(0, 1) : strings;
}

/** The daemon of this scratch home, started under strace (following its children) before any svc command attaches to it. */
export async function startTracedDaemon(s: Scratch, log: string): Promise<void> {
  const env = { ...s.env };
  delete env.SVC_CONVERSATION;
  fs.mkdirSync(s.svcHome, { recursive: true, mode: 0o700 });
  const child = spawn(
    'strace',
    ['-f', '-qq', '-e', 'trace=%file,chdir', '-o', log, process.execPath, path.join(REPO, 'dist', 'daemon.js')],
    {
      env,
      detached: true,
      stdio: 'ignore',
    },
  );
  child.unref();
  await eventually(
    () => fs.existsSync(path.join(s.svcHome, 'server.json')),
    30_000,
    'the traced daemon to write server.json',
  );
}
