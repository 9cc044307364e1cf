// The README's screenshots show the UI as it is: each was taken by `npm run demo:screenshots`
// from the demo's state, which recorded the UI it showed (contributions, columns, view
// state: scripts/demo/screenshotUi.ts) and the image's hash in docs/screenshots/screenshots.json.
// A screenshot older than the UI it shows, or replaced by hand, fails here.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  imageHash,
  readManifest,
  readPackage,
  README_SHOTS,
  SHOTS_DIR,
  uiFingerprints,
} from '../../scripts/demo/screenshotUi';
import { REPO } from '../helpers/scratch';

const REGENERATE = 'run npm run demo, npm run package, then npm run demo:screenshots';

describe('README screenshots (docs/screenshots/) are current', () => {
  const manifest = readManifest();

  it('every screenshot the README shows is one the demo script takes, and recorded', () => {
    const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const shown = [...readme.matchAll(/\]\(docs\/screenshots\/([^)]+)\)/g)].map((m) => m[1]).sort();
    assert.deepEqual(shown, [...README_SHOTS].sort(), 'the README shows exactly the screenshots the demo script takes');
    assert.deepEqual(
      Object.keys(manifest).sort(),
      [...README_SHOTS].sort(),
      `docs/screenshots/screenshots.json: ${REGENERATE}`,
    );
  });

  it('each image is the one the demo script took (not replaced by hand)', () => {
    const replaced = README_SHOTS.filter((name) => manifest[name]?.image !== imageHash(path.join(SHOTS_DIR, name)));
    assert.deepEqual(replaced, [], `these screenshots were not taken by the demo script: ${REGENERATE}`);
  });

  it('no screenshot is older than the UI it shows', () => {
    const now = uiFingerprints();
    const stale = README_SHOTS.filter((name) => manifest[name]?.ui !== now[name]);
    assert.deepEqual(stale, [], `the UI these screenshots show has changed since they were taken: ${REGENERATE}`);
  });

  it("can tell: a title-bar action added to the deck changes the deck screenshot's fingerprint, and only that one", () => {
    const pkg = readPackage();
    const before = uiFingerprints(pkg);
    const more = structuredClone(pkg);
    more.contributes.menus!['view/title'].push({
      command: 'svc.startLane',
      when: 'view == svc.commandDeck',
      group: 'navigation@9',
    });
    const after = uiFingerprints(more);
    assert.notEqual(after['deck.png'], before['deck.png']);
    assert.equal(after['reviews.png'], before['reviews.png'], 'the Reviews title bar did not change');
    assert.equal(after['agents.png'], before['agents.png']);
    // Every screenshot has a fingerprint of its own.
    assert.equal(new Set(Object.values(before)).size, README_SHOTS.length);
    assert.deepEqual(Object.keys(before).sort(), [...README_SHOTS].sort());
  });
});
