// The folders outside its working directory that an agent's commands must be able to write
// for a lane to commit, push and run `svc`: the repository's git dir (a worktree's index,
// objects and refs live in the main checkout's .git), a push remote that is a local path
// (the local code host's bare repository), and the folder of svc's socket. Sandboxed
// harnesses (codex) are given these through ACP `additionalDirectories`. Where git keeps
// them: server/git/gitPlaces.ts.
import * as path from 'node:path';
import type { GitPlaces } from '../git/gitPlaces';

export function writableDirs(cwd: string, socketPath: string, places: GitPlaces): string[] {
  const dirs = new Set<string>([path.dirname(socketPath)]);
  if (places.commonDir) dirs.add(places.commonDir);
  for (const d of places.localRemotes) dirs.add(d);
  return [...dirs].filter((d) => !isInside(d, cwd));
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
