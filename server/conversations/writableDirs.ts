// The folders outside its working directory that an agent's commands must be able to write
// for a lane to commit, push and run `svc`: the repository's git dir (a worktree's index,
// objects and refs live in the main checkout's .git), a push remote that is a local path
// (the local code host's bare repository), and the folder of svc's socket. Sandboxed
// harnesses (codex) are given these through ACP `additionalDirectories`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitTextSync } from '../git/gitExec';

function gitOut(cwd: string, env: NodeJS.ProcessEnv, args: string[]): string | undefined {
  return gitTextSync(cwd, args, { env, timeoutMs: 5000 });
}

export function writableDirs(cwd: string, socketPath: string, env: NodeJS.ProcessEnv): string[] {
  const dirs = new Set<string>([path.dirname(socketPath)]);
  const common = gitOut(cwd, env, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  if (common) dirs.add(common);
  const remotes = gitOut(cwd, env, ['remote']) ?? '';
  for (const remote of remotes.split('\n').filter(Boolean)) {
    const url = gitOut(cwd, env, ['remote', 'get-url', '--push', '--', remote]);
    if (!url) continue;
    const local = url.startsWith('file://') ? url.slice('file://'.length) : url;
    if (path.isAbsolute(local) && isDir(local)) dirs.add(fs.realpathSync(local));
  }
  return [...dirs].filter((d) => !isInside(d, cwd));
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
