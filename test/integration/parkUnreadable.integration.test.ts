// A file the reaping user cannot read (mode 0000 for a non-root user) is work park cannot
// copy: park must refuse, name the file, and leave the worktree exactly as it was. The suite
// runs as root here and in CI, and root reads any file, so the park runs in a child process
// without the capabilities that let root ignore permission bits (setpriv, util-linux):
// exactly what an ordinary user's daemon meets.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { addWorktree, forceRemoveWorktree, makeLaneRepo, snapshot, sorted } from './parkFixtures';
import type { LaneRepo } from './parkFixtures';

const WITHOUT_ROOT_READS = [
  '--inh-caps=-dac_override,-dac_read_search',
  '--bounding-set=-dac_override,-dac_read_search',
];

/** Runs parkWorktree(wt, patch) in a node child that cannot read what an ordinary user cannot. */
function parkAsOrdinaryReader(wt: string, patch: string, env: NodeJS.ProcessEnv) {
  const script = `require('./server/reap/park').parkWorktree(${JSON.stringify(wt)}, ${JSON.stringify(patch)}, { env: process.env })
    .then((r) => { console.log(JSON.stringify({ ok: r })); }, (e) => { console.log(JSON.stringify({ kind: e.kind, reason: e.reason, message: e.message })); });`;
  const r = spawnSync('setpriv', [...WITHOUT_ROOT_READS, process.execPath, '-r', 'tsx/cjs', '-e', script], {
    cwd: path.join(__dirname, '..', '..'),
    env,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
}

/** The unreadableWork refusal, word for word, naming `shown`. */
function assertRefusedOver(r: { ok?: unknown; reason?: string; message?: string }, wt: string, shown: string): void {
  assert.equal(r.ok, undefined, `park must refuse: ${JSON.stringify(r)}`);
  assert.equal(r.reason, 'unreadableWork');
  assert.equal(
    r.message,
    `${wt} holds work svc cannot read: ${shown} (Permission denied); svc cannot save or check what it cannot read: make it readable (chmod -R u+rX) or commit it, then reap again; nothing was cleaned or removed`,
  );
}

describe('park refuses work it cannot read, and keeps it', function () {
  let s: Scratch;
  let repo: LaneRepo;
  let wt: string;

  before(function () {
    if (process.getuid?.() !== 0) {
      // As an ordinary user the suite's own process already cannot read a 0000 file.
      WITHOUT_ROOT_READS.length = 0;
    }
    s = makeScratch('park-unreadable');
    repo = makeLaneRepo(s);
    wt = addWorktree(repo, s.env, 'u-k1', 'u/k1');
  });
  after(async () => {
    forceRemoveWorktree(repo, s.env, wt);
    await s.dispose();
  });

  it('an unreadable edited file and an unreadable new one: refused with the first git met; nothing changed, no patch written', () => {
    fs.writeFileSync(path.join(wt, 'locked-new.txt'), 'only I may read this\n');
    fs.chmodSync(path.join(wt, 'locked-new.txt'), 0o000);
    fs.writeFileSync(path.join(wt, 'text.txt'), 'edited, then locked\n');
    fs.chmodSync(path.join(wt, 'text.txt'), 0o000);
    const before = sorted(snapshot(wt));
    const status = git(wt, s.env, 'status', '--porcelain=v1');
    const patch = path.join(s.svcHome, 'agents', 'conv-u', 'parked-20250101T000000Z.patch');

    const r = parkAsOrdinaryReader(wt, patch, s.env);
    assertRefusedOver(r, wt, 'text.txt');
    assert.deepEqual(sorted(snapshot(wt)), before, 'every byte and mode is still there');
    assert.equal(git(wt, s.env, 'status', '--porcelain=v1'), status);
    assert.deepEqual(
      fs.existsSync(path.dirname(patch)) ? fs.readdirSync(path.dirname(patch)) : [],
      [],
      'no patch or tar left behind',
    );
  });

  it('an unreadable folder of new work: refused with the folder; nothing changed', () => {
    for (const f of ['locked-new.txt', 'text.txt']) fs.chmodSync(path.join(wt, f), 0o644);
    git(wt, s.env, 'checkout', '--', 'text.txt');
    fs.rmSync(path.join(wt, 'locked-new.txt'));
    fs.mkdirSync(path.join(wt, 'private'));
    fs.writeFileSync(path.join(wt, 'private', 'notes.txt'), 'new work in a folder only I may open\n');
    fs.writeFileSync(path.join(wt, 'text.txt'), 'a visible edit\n');
    fs.chmodSync(path.join(wt, 'private'), 0o000);
    const status = git(wt, s.env, 'status', '--porcelain=v1');
    const patch = path.join(s.svcHome, 'agents', 'conv-u2', 'parked-20250101T000000Z.patch');

    const r = parkAsOrdinaryReader(wt, patch, s.env);
    assertRefusedOver(r, wt, 'private/');
    fs.chmodSync(path.join(wt, 'private'), 0o755);
    assert.equal(
      fs.readFileSync(path.join(wt, 'private', 'notes.txt'), 'utf8'),
      'new work in a folder only I may open\n',
    );
    assert.equal(git(wt, s.env, 'status', '--porcelain=v1'), status);
    assert.deepEqual(
      fs.existsSync(path.dirname(patch)) ? fs.readdirSync(path.dirname(patch)) : [],
      [],
      'no patch or tar left behind',
    );
  });
});
