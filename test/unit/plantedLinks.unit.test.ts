// The daemon writes no ref, reflog or fetched object through a link a lane planted in the
// shared git dir (server/git/plantedLinks.ts): every place on the way is checked with lstat.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkNoPlantedLinks, refWritePlaces } from '../../server/git/plantedLinks';
import { SvcError } from '../../shared/errors';

const REPO = path.resolve(__dirname, '..', '..');

describe('planted links in the shared git dir', () => {
  const root = path.join(REPO, '.scratch', `unit-plantedlinks-${process.pid}`);
  const repo = path.join(root, 'proj');
  const common = path.join(repo, '.git');
  beforeEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.mkdirSync(root, { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  const refusal = (refs: string[], objects = false): string => {
    try {
      checkNoPlantedLinks(repo, refs, { objects });
    } catch (e) {
      assert.ok(SvcError.is(e));
      return e.message;
    }
    return 'written';
  };
  const words = (what: string) =>
    `${what} in ${common}: git never makes one there and a lane may have planted it, so svc writes nothing through it; look at it, remove it and try again`;

  it('names every folder and file a branch write goes through', () => {
    assert.deepEqual(refWritePlaces('refs/heads/r/k'), {
      folders: ['logs', 'refs', 'logs/refs', 'refs/heads', 'logs/refs/heads', 'refs/heads/r', 'logs/refs/heads/r'],
      files: ['refs/heads/r/k', 'logs/refs/heads/r/k'],
    });
  });

  it('lets a clean repository be written, with or without the places made yet', () => {
    assert.equal(refusal(['refs/heads/r/k', 'refs/remotes/origin/main'], true), 'written');
  });

  it('refuses a linked reflog, a linked ref folder, a FIFO and a linked object folder', () => {
    fs.mkdirSync(path.join(common, 'logs', 'refs', 'heads', 'r'), { recursive: true });
    fs.symlinkSync(path.join(root, 'bashrc'), path.join(common, 'logs', 'refs', 'heads', 'r', 'k'));
    assert.equal(refusal(['refs/heads/r/k']), words('logs/refs/heads/r/k is a symbolic link'));
    fs.symlinkSync(root, path.join(common, 'refs', 'heads', 'x'));
    assert.equal(refusal(['refs/heads/x/k']), words('refs/heads/x is a symbolic link'));
    fs.mkdirSync(path.join(common, 'refs', 'remotes', 'origin'), { recursive: true });
    execFileSync('mkfifo', [path.join(common, 'refs', 'remotes', 'origin', 'main')]);
    assert.equal(refusal(['refs/remotes/origin/main']), words('refs/remotes/origin/main is not a regular file'));
    fs.symlinkSync(root, path.join(common, 'objects', 'ab'));
    assert.equal(refusal(['refs/heads/fine'], true), words('objects/ab is a symbolic link'));
    assert.equal(fs.existsSync(path.join(root, 'bashrc')), false);
  });
});
