// A role's permission policy (projects.<key>.gauntlet.roles.<role>.permissions): set and
// refused like every role setting, fixed on the lane at launch, shown by `conv show`.
// Unset, lanes run unattended (auto) and a person's conversations ask.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import { laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

describe('role permissions: ask or auto per role', function () {
  this.timeout(120_000);
  let s: Scratch;
  let w: LaneWorld;

  before(async () => {
    s = makeScratch('role-permissions');
    w = await laneWorld(s);
  });
  after(async () => s.dispose());

  const show = async (ref: string | number) =>
    JSON.parse((await ok(s.svc(['conv', 'show', String(ref), '--json']))).stdout) as ConversationInfo;

  it('refuses a value other than ask or auto, leaving projects.yaml as it was', async () => {
    const file = path.join(s.svcHome, 'projects.yaml');
    const before = fs.readFileSync(file, 'utf8');
    const r = await s.svc(['config', 'set', 'projects.proj.gauntlet.roles.critic.permissions', 'sometimes']);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(
      r.stderr,
      `cannot set projects.proj.gauntlet.roles.critic.permissions to 'sometimes': Invalid option: expected one of "ask"|"auto"; ~/.svc/projects.yaml is unchanged\n`,
    );
    assert.equal(fs.readFileSync(file, 'utf8'), before);
  });

  it("lanes of a role set to ask ask; other roles' lanes run unattended; the root asks", async () => {
    await ok(s.svc(['config', 'set', 'projects.proj.gauntlet.roles.builder.permissions', 'ask']));
    const got = await ok(s.svc(['config', 'get', 'projects.proj.gauntlet.roles.builder.permissions']));
    assert.equal(got.stdout, 'ask\n');
    const idle = writeBrief(w.briefs, 'idle.md', [{ say: 'ready' }]);
    await startLane(w, { run: 'perm', key: 'b', role: 'builder', model: 'm', brief: idle });
    await startLane(w, { run: 'perm', key: 'o', role: 'orchestrator', model: 'm', brief: idle });
    assert.equal((await show('perm-b-builder-i1')).permissions, 'ask');
    assert.equal((await show('perm-o-orchestrator-i1')).permissions, 'auto');
    assert.equal((await show(w.rootId)).permissions, 'ask');
    // svc doctor says which roles' lanes will wait for answers
    const report = JSON.parse((await s.svc(['doctor', '--json'])).stdout) as {
      checks: { area: string; subject: string; status: string; text: string; fix: string | null }[];
    };
    assert.deepEqual(
      report.checks.filter((c) => c.area === 'roles'),
      [
        {
          area: 'roles',
          subject: 'proj',
          status: 'note',
          text: 'project proj: builder lanes ask before their harness acts (gauntlet.roles.builder.permissions: ask); each waits for a needs-you answer (svc conv answer)',
          fix: null,
        },
      ],
    );
    // fixed at launch: changing the setting later does not change a running lane
    await ok(s.svc(['config', 'set', 'projects.proj.gauntlet.roles.builder.permissions', 'auto']));
    assert.equal((await show('perm-b-builder-i1')).permissions, 'ask');
  });
});
