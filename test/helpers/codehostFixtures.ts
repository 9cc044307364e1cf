// For the code host tests: a real bare repository (the remote) with a working clone that
// pushes branches to it, under .scratch like every test home; and a listener for a
// scratch daemon's pr/headChanged notifications.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node';
import { prHeadChanged } from '../../shared/protocol/pr';
import type { HeadChange } from '../../shared/protocol/pr';
import { git, makeScratch } from './scratch';

export interface RemoteFixture {
  root: string;
  env: NodeJS.ProcessEnv;
  /** The bare repository. */
  gitDir: string;
  /** A clone whose pushes move the remote's branches. */
  work: string;
  /** Commits a change on `branch` (created from `from`, default main) and pushes it; returns the new head. */
  push(branch: string, opts?: { file?: string; content?: string; from?: string }): string;
  git(...args: string[]): string;
  dispose(): void;
}

let n = 0;

export function makeRemote(name: string): RemoteFixture {
  const s = makeScratch(name);
  const gitDir = path.join(s.home, 'origin.git');
  const work = path.join(s.home, 'work');
  git(s.home, s.env, 'init', '--quiet', '--bare', '--initial-branch=main', gitDir);
  git(s.home, s.env, 'clone', '--quiet', gitDir, work);
  fs.writeFileSync(path.join(work, 'README.md'), '# project\n');
  git(work, s.env, 'add', '.');
  git(work, s.env, 'commit', '--quiet', '-m', 'initial');
  git(work, s.env, 'push', '--quiet', 'origin', 'HEAD:main');
  return {
    root: s.root,
    env: s.env,
    gitDir,
    work,
    push(branch, opts = {}) {
      const exists = git(work, s.env, 'branch', '--list', branch) !== '';
      if (exists) git(work, s.env, 'checkout', '--quiet', branch);
      else {
        git(work, s.env, 'fetch', '--quiet', 'origin');
        const remoteHas = git(work, s.env, 'ls-remote', '--heads', 'origin', branch) !== '';
        git(
          work,
          s.env,
          'checkout',
          '--quiet',
          '-b',
          branch,
          remoteHas ? `origin/${branch}` : `origin/${opts.from ?? 'main'}`,
        );
      }
      const file = opts.file ?? `${branch.replace(/\//g, '-')}.txt`;
      fs.writeFileSync(path.join(work, file), opts.content ?? `change ${n++}\n`);
      git(work, s.env, 'add', '.');
      git(work, s.env, 'commit', '--quiet', '-m', `change on ${branch}`);
      git(work, s.env, 'push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`);
      return git(work, s.env, 'rev-parse', 'HEAD');
    },
    git: (...args) => git(work, s.env, ...args),
    dispose() {
      if (!process.env.SVC_KEEP_SCRATCH) fs.rmSync(s.root, { recursive: true, force: true });
    },
  };
}

/** Listens on a scratch daemon's socket for `pr/headChanged` notifications. */
export async function listenHeadChanges(
  svcHome: string,
): Promise<{ seen: HeadChange[]; next(timeoutMs?: number): Promise<HeadChange>; close(): void }> {
  const d = JSON.parse(fs.readFileSync(path.join(svcHome, 'server.json'), 'utf8')) as { socketPath: string };
  const socket = net.connect(d.socketPath);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const c = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
  const seen: HeadChange[] = [];
  let waiter: ((h: HeadChange) => void) | undefined;
  let taken = 0;
  c.onNotification(prHeadChanged.method, (p: HeadChange) => {
    seen.push(p);
    waiter?.(p);
  });
  c.listen();
  return {
    seen,
    next(timeoutMs = 10_000) {
      if (seen.length > taken) return Promise.resolve(seen[taken++]);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no pr/headChanged within ${timeoutMs} ms`)), timeoutMs);
        waiter = (h) => {
          clearTimeout(timer);
          waiter = undefined;
          taken++;
          resolve(h);
        };
      });
    },
    close() {
      c.dispose();
      socket.destroy();
    },
  };
}
