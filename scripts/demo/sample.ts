// The demo's sample project: a tiny shell tool in a git repository with a local bare
// `origin`, created fresh under the demo home.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export function git(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export function makeSampleProject(home: string, env: NodeJS.ProcessEnv): string {
  const origin = path.join(home, 'sample-origin.git');
  const dir = path.join(home, 'sample');
  git(home, env, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
  git(home, env, 'clone', '--quiet', origin, dir);
  fs.writeFileSync(path.join(dir, 'README.md'), '# sample\n\nA tiny shell tool the demo agents work on.\n');
  fs.writeFileSync(path.join(dir, 'greet.sh'), '#!/bin/sh\necho "hello"\n', { mode: 0o755 });
  git(dir, env, 'add', '.');
  git(dir, env, 'commit', '--quiet', '-m', 'initial');
  git(dir, env, 'push', '--quiet', 'origin', 'HEAD:main');
  git(dir, env, 'remote', 'set-head', 'origin', 'main');
  return dir;
}
