// The parked patches `svc lane list --json` shows are the files in the lane's folder, as they
// are on disk at each list: the daemon lists a folder again only when its directory changed
// (server/lanes/parkedFolders.ts), so this pins that a patch parked, one deleted by hand and
// one copied in by hand each show at the next list, including after a list that kept the
// folder's names (a folder older than the daemon's racy window, 3 s).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

/** Longer than the window in which the daemon does not keep a folder's names (RACY_MS). */
const PAST_RACY_MS = 3500;

describe('lane list: parked patches are what is on disk at each list, never a stale copy', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;

  before(async () => {
    s = makeScratch('parked-listing');
    w = await laneWorld(s);
  });
  after(async () => s.dispose());

  const parked = async (name: string): Promise<string[]> => {
    const lanes = JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout) as LaneRecord[];
    return lanes.find((l) => l.name === name)!.parked.map((p) => path.basename(p.patchFile));
  };
  const settle = () => new Promise((r) => setTimeout(r, PAST_RACY_MS));

  it('a parked patch shows; deleted by hand it goes; one copied in by hand shows; a folder removed shows none', async () => {
    const idle = writeBrief(w.briefs, 'idle.md', [{ say: 'idle' }]);
    await startLane(w, { run: 'pl', key: 'work', role: 'builder', model: 'm', brief: idle });
    const other = await startLane(w, { run: 'pl', key: 'other', role: 'builder', model: 'm', brief: idle });
    const name = 'pl-work-builder-i1';
    const lane = (JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout) as LaneRecord[]).find(
      (l) => l.name === name,
    )!;
    fs.writeFileSync(path.join(lane.cwd, 'README.md'), '# proj\nwork in progress\n');
    await ok(s.svc(['lane', 'reap', name, '--park']));
    const folder = path.join(s.svcHome, 'agents', `conv-${name}`);
    const [first] = fs.readdirSync(folder).filter((f) => /^parked-.*\.patch$/.test(f));
    assert.ok(first, fs.readdirSync(folder).join(' '));
    assert.deepEqual(await parked(name), [first], 'the patch the reap parked');

    // Listed again once the folder is past the racy window: this list keeps its names.
    await settle();
    assert.deepEqual(await parked(name), [first]);
    assert.deepEqual(await parked(name), [first], 'kept, and still what is on disk');

    // Copied in by hand (a patch brought back from elsewhere), beside the parked one.
    const copied = 'parked-20991231T235959Z.patch';
    fs.copyFileSync(path.join(folder, first), path.join(folder, copied));
    assert.deepEqual(await parked(name), [first, copied], 'a patch copied in shows at the next list');

    // Deleted by hand, after another list kept the folder's names.
    await settle();
    assert.deepEqual(await parked(name), [first, copied]);
    fs.unlinkSync(path.join(folder, first));
    assert.deepEqual(await parked(name), [copied], 'a patch deleted by hand is gone at the next list');

    // A lane with no patch yet gets one by hand; its folder is gone altogether later.
    const otherFolder = path.join(s.svcHome, 'agents', `conv-${other.name}`);
    await settle();
    assert.deepEqual(await parked(other.name), []);
    fs.copyFileSync(path.join(folder, copied), path.join(otherFolder, copied));
    assert.deepEqual(await parked(other.name), [copied]);
    fs.rmSync(folder, { recursive: true });
    assert.deepEqual(await parked(name), [], 'a folder removed by hand shows no patches');
  });
});
