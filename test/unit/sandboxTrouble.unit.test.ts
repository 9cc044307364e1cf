// The extension's "Show Fix" for a lane whose sandbox cannot start: it reads the reason and
// the fix back from the spawn error the daemon records (the sandbox probe's own words), and
// tells only the first such failure a window sees.
import * as assert from 'node:assert/strict';
import type { DeckRow } from '../../extension/commandDeck/deckTypes';
import {
  FirstSandboxTrouble,
  sandboxFixPage,
  sandboxTroubleMessage,
  sandboxTroubleOf,
} from '../../extension/doctor/sandboxTrouble';
import type { Profile } from '../../server/harness/profiles';
import { sandboxUnavailable } from '../../server/harness/spawnErrors';
import { appArmorFix } from '../../server/sandbox/sandboxProbe';

const REASON =
  'AppArmor restricts unprivileged user namespaces here, so bubblewrap cannot create the sandbox (bwrap: setting up uid map: Permission denied)';
const spawnError = sandboxUnavailable({ name: 'script' } as Profile, REASON, appArmorFix('/usr/bin/bwrap')).message;
const failed = (id: number, more: Partial<DeckRow> = {}): DeckRow => ({
  id,
  name: `c${id}`,
  title: 'r1 api builder i1',
  kind: 'lane',
  parentId: 1,
  activity: 'failed-to-start',
  spawnError,
  ...more,
});

describe('a sandbox that cannot start, told in the window (extension/doctor/sandboxTrouble.ts)', () => {
  it("reads the probe's reason and fix back from the lane's spawn error, and says them", () => {
    const t = sandboxTroubleOf(failed(4))!;
    assert.deepEqual([t.reason, t.fix], [REASON, appArmorFix('/usr/bin/bwrap')]);
    assert.equal(
      sandboxTroubleMessage(t),
      `svc: lane #4 (r1 api builder i1) did not start: its sandbox cannot start here: ${REASON}.`,
    );
    const page = sandboxFixPage(t).split('\n');
    assert.equal(page[0], '# The sandbox cannot start here');
    // The narrowest fix first: bwrap's own AppArmor profile, then the switch for every program, then --sandbox off.
    const ways = page.filter((l) => /^\d\. /.test(l));
    assert.equal(ways.length, 3);
    assert.match(
      ways[0],
      /^1\. let bubblewrap alone use user namespaces with an AppArmor profile: printf '.*profile bwrap \/usr\/bin\/bwrap flags=\(unconfined\)/,
    );
    assert.match(
      ways[1],
      /^2\. Or allow them for every program: sudo sysctl -w kernel\.apparmor_restrict_unprivileged_userns=0/,
    );
    assert.match(ways[2], /^3\. Or run the lane unconfined with --sandbox off/);
  });

  it('says where for a lane on a host, and ignores every other start failure', () => {
    const remote = `host big: the lane's sandbox (workspace) cannot start there: bubblewrap (bwrap) is not installed or not on the login PATH of the host; install bubblewrap`;
    const t = sandboxTroubleOf(failed(5, { host: 'big', spawnError: remote }))!;
    assert.equal(t.where, 'on big');
    assert.equal(t.reason, 'bubblewrap (bwrap) is not installed or not on the login PATH of the host');
    assert.equal(
      sandboxTroubleOf(failed(6, { spawnError: "harness 'x': command 'x' not found on PATH; install x" })),
      null,
    );
    assert.equal(sandboxTroubleOf(failed(7, { archived: true })), null);
    assert.equal(sandboxTroubleOf(failed(8, { activity: 'stopped' })), null);
  });

  it('tells the first such failure once per window', () => {
    const first = new FirstSandboxTrouble();
    assert.equal(first.next(undefined), null);
    assert.equal(first.next([failed(2, { spawnError: undefined })]), null);
    assert.equal(first.next([failed(2, { spawnError: undefined }), failed(3)])?.convId, 3);
    assert.equal(first.next([failed(3), failed(9)]), null, 'the rest are on their rows');
  });
});
