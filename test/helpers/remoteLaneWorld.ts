// The set-up every real-sshd lanes suite shares: a scratch home, sshd on 127.0.0.1 with a
// dedicated user standing for "the other machine", a lanes root of this run's own in that
// user's home, a lane world whose origin both machines reach, and `config.yaml` naming the
// host `big` (plus any hosts a suite adds). `dispose()` undoes all of it.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import { laneWorld } from './lanes';
import type { LaneWorld } from './lanes';
import { git, makeScratch } from './scratch';
import type { Scratch } from './scratch';
import { sshdAvailable, startSshd } from './sshd';
import type { Sshd } from './sshd';

export interface RemoteLaneWorld {
  s: Scratch;
  d: Sshd;
  w: LaneWorld;
  /** The lanes root's folder name in the host user's home, and its absolute path there. */
  rootName: string;
  root: string;
  dispose(): Promise<void>;
}

export interface RemoteLaneWorldOptions {
  /** Runs after sshd is up and before the lane world is made (a daemon under strace, say). */
  beforeWorld?: (s: Scratch) => Promise<void>;
  /** More hosts for config.yaml, given the sshd and the lanes root setting (`~/<rootName>`). */
  moreHosts?: (d: Sshd, lanesRoot: string) => Record<string, unknown>;
}

export async function remoteLaneWorld(name: string, opts: RemoteLaneWorldOptions = {}): Promise<RemoteLaneWorld> {
  const why = sshdAvailable();
  if (why) throw new Error(why);
  const s = makeScratch(name);
  const d = await startSshd(path.join(s.root, 'sshd'));
  // Only this run's lanes root: other runs may use the same host user at the same time (their daemons' files under ~/.svc-host are theirs).
  const rootName = `lanes-${name}-${process.pid}`;
  d.asRemote(`rm -rf ${rootName} && mkdir -p ${rootName} && git config --global --replace-all safe.directory '*'`);
  await opts.beforeWorld?.(s);
  let w = await laneWorld(s);
  // The origin stands for a server both machines reach: the host's user pushes there too.
  // So it lives where that user can reach it whatever the checkout's parent folders allow
  // (the shared folder in its home), and is writable by both.
  const origin = path.join(d.shared, path.basename(w.origin));
  fs.cpSync(w.origin, origin, { recursive: true });
  fs.rmSync(w.origin, { recursive: true });
  git(w.repo, s.env, 'remote', 'set-url', 'origin', origin);
  w = { ...w, origin };
  spawnSync('chmod', ['-R', 'a+rwX', w.origin]);
  git(w.origin, s.env, 'config', 'core.sharedRepository', 'world');
  const lanesRoot = `~/${rootName}`;
  fs.writeFileSync(
    path.join(s.svcHome, 'config.yaml'),
    YAML.stringify({
      hosts: {
        big: { ssh: d.destination, lanes_root: lanesRoot, ssh_options: d.options },
        ...opts.moreHosts?.(d, lanesRoot),
      },
    }),
  );
  return {
    s,
    d,
    w,
    rootName,
    root: `${d.remoteHome}/${rootName}`,
    dispose: async () => {
      await s.dispose();
      d.asRemote(`rm -rf ${rootName}`);
      await d.stop();
    },
  };
}
