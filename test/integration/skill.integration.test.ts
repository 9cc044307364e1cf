// `svc skill install|show`: where each harness finds the skill, idempotence, and a
// user-edited copy kept unless --force.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ok } from '../helpers/lanes';
import { makeRepo, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

const SKILL = fs.readFileSync(
  path.join(__dirname, '..', '..', 'shared', 'skills', 'svc-gauntlet-loop', 'SKILL.md'),
  'utf8',
);

describe('svc skill', function () {
  this.timeout(60_000);
  let s: Scratch;
  before(() => (s = makeScratch('skill')));
  after(async () => s.dispose());

  it('installs for claude, is a no-op the second time, and keeps an edited copy', async () => {
    const file = path.join(s.home, '.claude', 'skills', 'svc-gauntlet-loop', 'SKILL.md');
    assert.equal((await ok(s.svc(['skill', 'install', '--harness', 'claude']))).stdout, `installed ${file}\n`);
    assert.equal(fs.readFileSync(file, 'utf8'), SKILL);
    const mtime = fs.statSync(file).mtimeMs;
    assert.equal((await ok(s.svc(['skill', 'install', '--harness', 'claude']))).stdout, `up to date ${file}\n`);
    assert.equal(fs.statSync(file).mtimeMs, mtime);
    fs.appendFileSync(file, '\nMy own note.\n');
    assert.equal(
      (await ok(s.svc(['skill', 'install', '--harness', 'claude']))).stdout,
      `kept ${file}: you edited it; svc skill install --force replaces it\n`,
    );
    assert.ok(fs.readFileSync(file, 'utf8').endsWith('My own note.\n'));
    assert.equal(
      (await ok(s.svc(['skill', 'install', '--harness', 'claude', '--force']))).stdout,
      `overwrote your edited copy ${file} (--force)\n`,
    );
    assert.equal(fs.readFileSync(file, 'utf8'), SKILL);
  });

  it('installs for every harness, into a project on request', async () => {
    const all = await ok(s.svc(['skill', 'install']));
    assert.deepEqual(all.stdout.trim().split('\n'), [
      `up to date ${path.join(s.home, '.claude', 'skills', 'svc-gauntlet-loop', 'SKILL.md')}`,
      `installed ${path.join(s.home, '.agents', 'skills', 'svc-gauntlet-loop', 'SKILL.md')}`,
      `installed ${path.join(s.home, '.gemini', 'skills', 'svc-gauntlet-loop', 'SKILL.md')}`,
    ]);
    const { dir } = makeRepo(s);
    await ok(s.svc(['project', 'add', 'proj', dir]));
    const p = await ok(s.svc(['skill', 'install', '--harness', 'codex', '--project', 'proj']));
    assert.equal(p.stdout, `installed ${path.join(dir, '.agents', 'skills', 'svc-gauntlet-loop', 'SKILL.md')}\n`);
    const bad = await s.svc(['skill', 'install', '--harness', 'cursor']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--harness must be claude, codex, gemini or all, got 'cursor'/);
  });

  it('shows the skill', async () => {
    assert.equal((await ok(s.svc(['skill', 'show']))).stdout, SKILL);
  });
});
