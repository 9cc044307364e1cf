// Who is calling: an agent acts only as itself. A builder that sets SVC_CONVERSATION to
// the root's or a critic's id is refused (it lacks their credential), and nothing is
// stored; the real agent path — svc inside the agent, with the environment svc gave it —
// launches and reports as before.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildAndReport, laneWorld, ok, startLane, tryStartLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { laneEnv } from '../helpers/laneEnv';
import { makeScratch } from '../helpers/scratch';
import type { RunResult, Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

interface Lane {
  id: number;
  name: string;
  cwd: string;
  report?: { status: string; verdict?: string | null } | null;
}

const refusal = (id: number, name: string, what: string) =>
  `this request says it comes from conversation #${id} (${name}) ($SVC_CONVERSATION) but ${what}; an agent acts only as itself: run svc inside that agent, or as yourself without SVC_CONVERSATION\n`;

describe('who is calling: an agent acts only as itself', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;
  let builder: Lane;
  let critic: Lane;
  let rootName: string;

  const lanes = async (): Promise<Lane[]> => JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout) as Lane[];
  const lane = async (name: string) => (await lanes()).find((l) => l.name === name)!;
  /** The builder's own environment (its credential), claiming to be conversation `as`. */
  const builderClaiming = (as: number) => ({ ...laneEnv(s, builder), SVC_CONVERSATION: String(as) });
  const refused = (r: RunResult, message: string) => {
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, message);
    assert.equal(r.code, 1);
  };

  before(async () => {
    s = makeScratch('caller-identity');
    w = await laneWorld(s);
    rootName = (JSON.parse((await ok(s.svc(['conv', 'show', String(w.rootId), '--json']))).stdout) as { name: string })
      .name;
    // The real agent path: svc inside the builder's agent commits, pushes and reports.
    const build = writeBrief(w.briefs, 'build.md', [
      { run: buildAndReport('b.txt', 'built'), check: true },
      { sleep: 120_000 },
    ]);
    await startLane(w, { run: 'who', key: 'k', role: 'builder', model: 'm', brief: build });
    const waited = await s.svc(['lane', 'wait', 'who-k-builder-i1', '--timeout', '60']);
    assert.equal(waited.code, 0, waited.stdout + waited.stderr);
    builder = await lane('who-k-builder-i1');
    assert.equal(builder.report?.status, 'done');
    const idle = writeBrief(w.briefs, 'idle.md', [{ sleep: 120_000 }]);
    await startLane(w, { run: 'who', for: 'k', role: 'critic', model: 'm', brief: idle });
    critic = await lane('who-k-critic-i1');
  });
  after(async () => s.dispose());

  it('a builder claiming to be the root cannot launch a critic: refused, nothing stored', async () => {
    const before = await lanes();
    const r = await tryStartLane(
      s,
      { for: 'k', role: 'critic', model: 'm', harness: 'script', prompt: 'x', replace: true },
      {
        env: builderClaiming(w.rootId),
        cwd: builder.cwd,
      },
    );
    refused(r, refusal(w.rootId, rootName, 'carries the credential of another conversation'));
    assert.deepEqual(await lanes(), before);
  });

  it("a builder claiming to be its critic cannot file the critic's verdict", async () => {
    const r = await s.svc(['lane', 'report', '--stdin', '--verdict', 'PASS'], {
      env: builderClaiming(critic.id),
      cwd: builder.cwd,
      input: 'looks great\n',
    });
    refused(r, refusal(critic.id, critic.name, 'carries the credential of another conversation'));
    const shown = await ok(s.svc(['lane', 'show', '--run', 'who', '--key', 'k']));
    assert.doesNotMatch(shown.stdout, /PASS/);
    assert.equal((await lane(critic.name)).report, null);
  });

  it('a claim with no credential at all is refused the same way', async () => {
    const r = await s.svc(['lane', 'report', '--stdin', '--verdict', 'PASS'], {
      env: { SVC_CONVERSATION: String(critic.id) },
      cwd: critic.cwd,
      input: 'x\n',
    });
    refused(r, refusal(critic.id, critic.name, 'carries no credential ($SVC_CALLER_TOKEN)'));
    assert.equal((await lane(critic.name)).report, null);
  });

  it('the critic with its own credential files its verdict; the key file is private', async () => {
    const verdictFile = path.join(critic.cwd, 'verdict.json'); // in its own folders: svc reads nothing else for it
    fs.writeFileSync(verdictFile, '{"defects": []}');
    await ok(
      s.svc(['lane', 'report', '--stdin', '--verdict', 'PASS', '--verdict-file', verdictFile], {
        env: laneEnv(s, critic),
        cwd: critic.cwd,
        input: 'judged\n',
      }),
    );
    assert.equal((await lane(critic.name)).report?.verdict, 'PASS');
    assert.equal(fs.statSync(path.join(s.svcHome, 'caller.key')).mode & 0o777, 0o600);
  });
});
