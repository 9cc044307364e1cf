// After the base moves through svc's local code host (a PR merged with `svc pr merge`), every
// live builder whose branch now conflicts with the new base is told so, naming the paths; a
// builder that still merges cleanly is not told, and the conflicting one is marked (baseConflict).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { eventually, git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

describe('lanes: siblings told after the base moves', function () {
  this.timeout(120_000);
  let s: Scratch;
  let w: LaneWorld;

  before(async () => {
    s = makeScratch('siblings');
    w = await laneWorld(s);
    // The local host's reviewer is not the PR author, so an approval counts (as on GitHub).
    const file = path.join(s.svcHome, 'config.yaml');
    const config = fs.existsSync(file) ? ((YAML.parse(fs.readFileSync(file, 'utf8')) as object | null) ?? {}) : {};
    fs.writeFileSync(file, YAML.stringify({ ...config, codehost: { local: { reviewer: 'svc-reviewer' } } }));
  });
  after(async () => s.dispose());

  const lane = async (key: string): Promise<LaneRecord> => {
    const r = await ok(s.svc(['lane', 'show', '--run', 'r1', '--key', key, '--json']));
    return (JSON.parse(r.stdout) as { lanes: LaneRecord[] }).lanes[0];
  };

  it('tells the builder whose branch the merged PR makes conflict, and only it', async () => {
    const idle = writeBrief(w.briefs, 'idle.md', [{ say: 'ready' }]);
    await startLane(w, { run: 'r1', key: 'a', role: 'builder', model: 'm', brief: idle });
    await startLane(w, { run: 'r1', key: 'b', role: 'builder', model: 'm', brief: idle });
    const aDir = path.join(`${w.repo}-lanes`, 'r1-a');
    const bDir = path.join(`${w.repo}-lanes`, 'r1-b');
    // a changes README.md, b a file of its own: both committed.
    fs.writeFileSync(path.join(aDir, 'README.md'), '# from a\n');
    git(aDir, s.env, 'commit', '-q', '-am', 'a: readme');
    fs.writeFileSync(path.join(bDir, 'b.txt'), 'b\n');
    git(bDir, s.env, 'add', 'b.txt');
    git(bDir, s.env, 'commit', '-q', '-m', 'b: its own file');
    assert.equal((await lane('a')).baseConflict, null);

    // Another branch changes README.md too and is merged through svc's local code host.
    git(w.repo, s.env, 'checkout', '-q', '-b', 'other');
    fs.writeFileSync(path.join(w.repo, 'README.md'), '# from other\n');
    git(w.repo, s.env, 'commit', '-q', '-am', 'other: readme');
    git(w.repo, s.env, 'push', '-q', 'origin', 'other');
    git(w.repo, s.env, 'checkout', '-q', 'main');
    await ok(s.svc(['pr', 'create', '--project', 'proj', '--branch', 'other', '--title', 'Other']));
    await ok(s.svc(['pr', 'review', 'other', '--project', 'proj', '--approve']));
    const merged = await ok(s.svc(['pr', 'merge', 'other', '--project', 'proj']));
    assert.match(merged.stdout, /^Merged proj#1 into main/);
    const baseSha = git(w.origin, s.env, 'rev-parse', 'main');

    // The message as the conversation's log quotes it: each line of a message given to the agent after '> '.
    const told = `> svc: the base main of project proj moved to ${baseSha.slice(0, 12)}, and your branch r1/a now conflicts with it on this path:\n>   README.md\n> Bring your branch up to date (git fetch origin main && git merge origin/main), resolve these paths, commit, and go on with your brief.`;
    let last = '';
    await eventually(
      async () => (last = (await ok(s.svc(['conv', 'log', 'r1-a-builder-i1']))).stdout).includes(told),
      20_000,
      'r1-a told of its conflict',
    ).catch((e: Error) => assert.fail(`${e.message}\n${last}`));
    assert.deepEqual((await lane('a')).baseConflict, { paths: ['README.md'] });
    // b merges cleanly into the new base: not told, not marked.
    const bLog = (await ok(s.svc(['conv', 'log', 'r1-b-builder-i1']))).stdout;
    assert.doesNotMatch(bLog, /now conflicts with it/);
    assert.equal((await lane('b')).baseConflict, null);
  });
});
