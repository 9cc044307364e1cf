import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ParkedFolders } from '../../server/lanes/parkedFolders';
import { makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

/** Past a clock tick of the filesystem's timestamps, so each change below gets a new one. */
const tick = () => new Promise((r) => setTimeout(r, 30));

describe('parked folders: a lane folder is listed again only when its directory changed (server/lanes/parkedFolders.ts)', () => {
  let s: Scratch;
  let folder: string;
  beforeEach(() => {
    s = makeScratch('parked-folders');
    folder = path.join(s.root, 'agents', 'conv-lane');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'lane-brief.md'), 'brief');
    fs.writeFileSync(path.join(folder, 'harness.log'), 'log');
  });
  afterEach(async () => s.dispose());

  it('an unchanged folder is not listed again; a patch added, linked in, renamed or deleted is seen at the next read', async () => {
    // A clock well past the folder's changes: its listings may be kept.
    const f = new ParkedFolders(() => Date.now() + 60_000);
    assert.deepEqual(f.patchNames(folder), []);
    assert.deepEqual(f.patchNames(folder), []);
    assert.equal(f.listings, 1, 'the second read only stat-ed the folder');
    fs.appendFileSync(path.join(folder, 'harness.log'), 'more'); // a file written in place changes no entry
    assert.deepEqual(f.patchNames(folder), []);
    assert.equal(f.listings, 1);

    await tick();
    fs.writeFileSync(path.join(folder, 'parked-20261127T120000Z.patch'), 'p');
    assert.deepEqual(f.patchNames(folder), ['parked-20261127T120000Z.patch']);
    await tick();
    // Park publishes a finished file under its final name with a hard link; a file still being written is no patch.
    fs.writeFileSync(path.join(folder, 'parked-20261127T130000Z.patch.tmp'), 'p');
    assert.deepEqual(f.patchNames(folder), ['parked-20261127T120000Z.patch']);
    await tick();
    fs.linkSync(
      path.join(folder, 'parked-20261127T130000Z.patch.tmp'),
      path.join(folder, 'parked-20261127T130000Z.patch'),
    );
    assert.deepEqual(f.patchNames(folder), ['parked-20261127T120000Z.patch', 'parked-20261127T130000Z.patch']);
    await tick();
    fs.renameSync(
      path.join(folder, 'parked-20261127T130000Z.patch'),
      path.join(folder, 'parked-20261127T150000Z.patch'),
    );
    assert.deepEqual(
      f.patchNames(folder),
      ['parked-20261127T120000Z.patch', 'parked-20261127T150000Z.patch'],
      'renamed',
    );
    await tick();
    fs.unlinkSync(path.join(folder, 'parked-20261127T120000Z.patch'));
    assert.deepEqual(f.patchNames(folder), ['parked-20261127T150000Z.patch']);
    const listed = f.listings;
    assert.deepEqual(f.patchNames(folder), ['parked-20261127T150000Z.patch']);
    assert.equal(f.listings, listed, 'kept again once read');

    fs.rmSync(folder, { recursive: true });
    assert.deepEqual(f.patchNames(folder), [], 'a folder removed: no patches');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'parked-20261127T140000Z.patch'), 'p');
    assert.deepEqual(f.patchNames(folder), ['parked-20261127T140000Z.patch'], 'made again, with a patch');
  });

  it('a folder that changed just now is listed on every read: a change in the same clock tick could not show', () => {
    const f = new ParkedFolders();
    fs.writeFileSync(path.join(folder, 'parked-20261127T120000Z.patch'), 'p');
    assert.deepEqual(f.patchNames(folder), ['parked-20261127T120000Z.patch']);
    fs.unlinkSync(path.join(folder, 'parked-20261127T120000Z.patch')); // perhaps in the same tick as the listing
    assert.deepEqual(f.patchNames(folder), []);
    assert.equal(f.listings, 2);
  });

  it('a missing folder, or a file where the folder should be, has no patches', () => {
    const f = new ParkedFolders(() => Date.now() + 60_000);
    assert.deepEqual(f.patchNames(path.join(s.root, 'agents', 'conv-none')), []);
    const file = path.join(s.root, 'agents', 'conv-file');
    fs.writeFileSync(file, 'not a folder');
    assert.deepEqual(f.patchNames(file), []);
    assert.equal(f.listings, 0);
  });
});
