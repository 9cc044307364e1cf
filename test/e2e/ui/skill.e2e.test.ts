// The svc-gauntlet-loop skill installed from the palette of a real VS Code (code-server
// 4.100.3 in chromium), byte for byte the SKILL.md the extension ships.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { session } from './session';
import { clearNotifications, quickPick, runCommand, waitForMessage } from './workbench';

describe('the svc-gauntlet-loop skill from the palette', function () {
  this.timeout(60_000);

  it(`"svc: Install the 'svc-gauntlet-loop' Skill" installs the shipped SKILL.md like svc skill install`, async () => {
    const { page, cs } = session();
    const want = path.join(cs.scratch.home, '.claude', 'skills', 'svc-gauntlet-loop', 'SKILL.md');
    await runCommand(page, "svc: Install the 'svc-gauntlet-loop' Skill");
    await quickPick(page, 'claude');
    await quickPick(page, 'Your home');
    await waitForMessage(page, `svc: installed ${want}`);
    assert.equal(
      fs.readFileSync(want, 'utf8'),
      fs.readFileSync(path.join(cs.extensionDir, 'shared', 'skills', 'svc-gauntlet-loop', 'SKILL.md'), 'utf8'),
    );
    await clearNotifications(page);
  });
});
