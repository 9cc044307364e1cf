// Room for a park is judged before the agent stops (server/reap/parkSpace.ts): three times
// the work plus a margin on each disk the park writes, else a refusal in words.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkParkSpace, PARK_MARGIN_BYTES } from '../../server/reap/parkSpace';
import { SvcError } from '../../shared/errors';

const REPO = path.resolve(__dirname, '..', '..');

describe('room for a park (server/reap/parkSpace.ts)', () => {
  const top = path.join(REPO, '.scratch', `unit-parkspace-${process.pid}`);
  before(() => {
    fs.mkdirSync(path.join(top, 'src'), { recursive: true });
    fs.writeFileSync(path.join(top, 'src', 'big.bin'), Buffer.alloc(1024 * 1024));
  });
  after(() => fs.rmSync(top, { recursive: true, force: true }));

  const need = 3 * 1024 * 1024 + PARK_MARGIN_BYTES;
  const work = 1024 * 1024;

  it('passes with room for three copies of the work and the margin on every disk', () => {
    checkParkSpace(top, work, ['/git', '/agents'], () => need);
  });

  it('refuses, naming the disk short of room, what it has and what it needs', () => {
    const free = (f: string) => (f === '/agents' ? 1024 * 1024 : need);
    assert.throws(
      () => checkParkSpace(top, work, ['/git', '/agents'], free),
      (e: unknown) =>
        SvcError.is(e, 'noRoomToPark') &&
        e.message ===
          `cannot park ${top}: the disk of /agents has 1.0 MiB free and parking needs about 35.0 MiB; the agent was not stopped and nothing changed: free space there, then reap again`,
    );
  });
});
