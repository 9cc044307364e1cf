// A dry run of the svc-gauntlet-loop skill: a root conversation on the `script` harness
// follows the skill's loop step by step — two builders, critics, a second iteration of
// one builder, reap (one tree parked) — and the chain comes out as the skill promises.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { buildAndReport, judgeAndReport, ok } from '../helpers/lanes';
import { eventually, makeRepo, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { scriptBlock, writeBrief } from '../helpers/scriptBrief';

describe('svc-gauntlet-loop dry run', function () {
  this.timeout(240_000);
  let s: Scratch;
  before(() => (s = makeScratch('dryrun')));
  after(async () => s.dispose());

  it('runs the loop of the skill from an orchestrating conversation', async () => {
    const { dir } = makeRepo(s);
    await ok(s.svc(['project', 'add', 'proj', dir]));
    const briefs = path.join(s.home, 'briefs');
    writeBrief(briefs, 'a1.md', [{ run: buildAndReport('a.txt', 'a first'), check: true }]);
    writeBrief(briefs, 'b1.md', [{ run: buildAndReport('b.txt', 'b only'), check: true }]);
    writeBrief(briefs, 'a2.md', [{ run: buildAndReport('a.txt', 'a second'), check: true }]);
    writeBrief(briefs, 'critic-a1.md', [{ run: judgeAndReport('NOT_YET', 2), check: true }]);
    writeBrief(briefs, 'critic-pass.md', [{ run: judgeAndReport('PASS', 0), check: true }]);
    const lane = (args: string) => `svc lane start --run dry ${args} --model m --harness script`;
    const loop = scriptBlock(
      [
        // Steps 3–4: fan out two builders, wait for both reports, oldest first.
        {
          run: `${lane('--key a --role builder --brief briefs/a1.md')} && ${lane('--key b --role builder --brief briefs/b1.md')}`,
          check: true,
        },
        {
          run: 'svc lane wait --run dry --timeout 60 2>wait.err; sed -n "s/^next: .* --after //p" wait.err > cursor',
          check: true,
        },
        {
          run: 'svc lane wait --run dry --after "$(cat cursor)" --timeout 60 2>wait.err; sed -n "s/^next: .* --after //p" wait.err > cursor',
          check: true,
        },
        // Step 5: a critic for each done builder.
        {
          run: `${lane('--for a --role critic --brief briefs/critic-a1.md')} && ${lane('--for b --role critic --brief briefs/critic-pass.md')}`,
          check: true,
        },
        {
          run: 'svc lane wait dry-a-critic-i1 --timeout 60 && svc lane wait dry-b-critic-i1 --timeout 60',
          check: true,
        },
        // Step 6: NOT_YET → the next iteration of a (replacing i1), and a new critic for it.
        {
          run: `${lane('--key a --role builder --brief briefs/a2.md --replace')} && svc lane wait dry-a-builder-i2 --timeout 60`,
          check: true,
        },
        {
          run: `${lane('--for a --role critic --brief briefs/critic-pass.md --replace')} && svc lane wait dry-a-critic-i2 --timeout 60`,
          check: true,
        },
        // Step 9: reap critics and builders; b's tree holds a stray edit, so park it.
        { run: 'echo stray >> proj-lanes/dry-b/b.txt', check: true },
        {
          run: 'for l in dry-a-critic-i1 dry-a-critic-i2 dry-b-critic-i1 dry-a-builder-i1 dry-a-builder-i2; do svc lane reap $l || exit 1; done && svc lane reap dry-b-builder-i1 --park > reap-b.txt',
          check: true,
        },
        { run: 'svc lane show --run dry --key a > chain-a.txt', check: true },
      ],
      'You orchestrate run dry with the svc-gauntlet-loop skill.',
    );
    const r = await ok(
      s.svc([
        'conv',
        'new',
        '--project',
        'proj',
        '--harness',
        'script',
        '--model',
        'm',
        '--cwd',
        s.home,
        '--prompt',
        loop,
        '--json',
      ]),
    );
    const root = (JSON.parse(r.stdout) as { conversation: { id: number } }).conversation.id;
    await eventually(
      () =>
        fs.existsSync(path.join(s.home, 'chain-a.txt')) &&
        fs.readFileSync(path.join(s.home, 'chain-a.txt'), 'utf8').length > 0,
      180_000,
      'the loop to finish',
    );

    const chain = fs.readFileSync(path.join(s.home, 'chain-a.txt'), 'utf8').split('\n')[0];
    assert.equal(chain, 'i1 built → critic c1: NOT_YET (2 defects) → i2 built → critic c2: PASS');
    assert.match(fs.readFileSync(path.join(s.home, 'reap-b.txt'), 'utf8'), /^parked 1 path in \S+\.patch$/m);
    const lanes = JSON.parse((await ok(s.svc(['lane', 'list', '--run', 'dry', '--json']))).stdout) as LaneRecord[];
    assert.equal(lanes.length, 6);
    assert.ok(
      lanes.every((l) => l.archived && l.reaped && l.activity === 'stopped'),
      'every lane reaped and archived',
    );
    assert.ok(
      lanes.every((l) => l.parentId === root),
      'every lane nests under the orchestrating conversation',
    );
    const b = lanes.find((l) => l.name === 'dry-b-builder-i1')!;
    assert.equal(b.verdict?.verdict, 'PASS');
  });
});
