// What every agent finds in its environment, seen from inside a real agent process (the
// script harness): the shim by absolute path in $SVC_BIN even when the agent's shell
// resets PATH, and the user's git identity even when its shell hides the global git
// config (as gemini's does with GIT_CONFIG_GLOBAL=/dev/null).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

const script = (...steps: string[]) => ['```svc-script', ...steps, '```'].join('\n');

describe('agent environment (real agent process)', function () {
  let s: Scratch;
  let proj: string;

  before(async () => {
    s = makeScratch('agentEnv');
    // Only the user's git config names them: no GIT_AUTHOR_*/GIT_COMMITTER_* in svc's own environment.
    for (const k of ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL'])
      delete s.env[k];
    fs.writeFileSync(path.join(s.home, '.gitconfig'), '[user]\n\tname = Ada Lovelace\n\temail = ada@example.invalid\n');
    proj = path.join(s.home, 'proj');
    fs.mkdirSync(proj);
    git(proj, s.env, 'init', '--quiet', '--initial-branch=main');
    const r = await s.svc(['project', 'add', 'p1', proj]);
    assert.equal(r.code, 0, r.stderr);
  });
  after(async () => s.dispose());

  async function runToIdle(prompt: string): Promise<string> {
    const r = await s.svc([
      'conv',
      'new',
      '--project',
      'p1',
      '--harness',
      'script',
      '--model',
      'm1',
      '--prompt',
      prompt,
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const id = (JSON.parse(r.stdout) as { conversation: { id: number } }).conversation.id;
    const log = await s.svc(['conv', 'log', String(id), '--lines', '200']);
    assert.equal(log.code, 0, log.stderr);
    return log.stdout;
  }

  it('$SVC_BIN runs the shim as this conversation from a shell whose PATH was reset', async () => {
    const log = await runToIdle(
      script(
        '- run: PATH=/usr/bin:/bin; command -v svc || echo "no svc on PATH"; "$SVC_BIN" conv show "#$SVC_CONVERSATION" --json | grep -o \'"harness":"script"\'',
      ),
    );
    assert.match(log, /no svc on PATH/);
    assert.match(log, /"harness":"script"/);
  });

  it("commits as the user's git identity even with the global git config hidden", async () => {
    const log = await runToIdle(
      script(
        "- run: GIT_CONFIG_GLOBAL=/dev/null git commit --quiet --allow-empty -m hidden-config && git log -1 --format='author=%an <%ae> committer=%cn <%ce>'",
      ),
    );
    assert.match(log, /author=Ada Lovelace <ada@example\.invalid> committer=Ada Lovelace <ada@example\.invalid>/);
    assert.equal(git(proj, s.env, 'log', '-1', '--format=%an <%ae>'), 'Ada Lovelace <ada@example.invalid>');
  });
});
