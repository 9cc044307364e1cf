// An agent's git probes (identity, writable places) give up on a git that does not answer
// (AGENT_PROBE_TIMEOUT_MS, 30 s in the daemon): the agent then starts without those facts, and
// the answer says it timed out so it is not kept (agentGitFacts.ts). Real git, a repository
// whose HEAD is a FIFO (git blocks opening it, as on a filesystem that stopped answering).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitIdentity } from '../../server/conversations/gitIdentity';
import { gitPlaces } from '../../server/git/gitPlaces';

const REPO = path.resolve(__dirname, '..', '..');

describe('agent git probes: a git that does not answer', () => {
  const root = path.join(REPO, '.scratch', `unit-agentprobes-${process.pid}`);
  const hung = path.join(root, 'hung');
  const fine = path.join(root, 'fine');
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: root, GIT_CEILING_DIRECTORIES: root };

  before(() => {
    for (const d of [hung, fine]) execFileSync('git', ['init', '-q', d], { env });
    execFileSync('git', ['config', 'user.name', 'Ada'], { cwd: fine, env });
    const head = path.join(hung, '.git', 'HEAD');
    fs.rmSync(head);
    execFileSync('mkfifo', [head]);
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('gives up after the time limit and says so', async () => {
    const t = Date.now();
    const [id, places] = await Promise.all([gitIdentity(hung, env, 300), gitPlaces(hung, env, 300)]);
    assert.ok(Date.now() - t < 3000, `answered after ${Date.now() - t} ms`);
    assert.deepEqual(id.vars, {});
    assert.match(id.timedOut ?? '', /^git did not answer within 0\.3 s \(git config /);
    assert.deepEqual(places.localRemotes, []);
    assert.equal(places.commonDir, undefined);
    assert.match(places.timedOut ?? '', /^git did not answer within 0\.3 s \(git /);
  });

  it('answers as before when git answers', async () => {
    const [id, places] = await Promise.all([gitIdentity(fine, env, 5000), gitPlaces(fine, env, 5000)]);
    assert.deepEqual(id.vars, { GIT_AUTHOR_NAME: 'Ada', GIT_COMMITTER_NAME: 'Ada' });
    assert.equal(id.timedOut, undefined);
    assert.equal(places.commonDir, fs.realpathSync(path.join(fine, '.git')));
    assert.equal(places.timedOut, undefined);
  });
});
