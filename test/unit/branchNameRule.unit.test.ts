// A launch checks its branch name without a `git check-ref-format` process when the name is
// one git's rules cannot refuse (git.ts surelyValidBranchName); every other name is left to
// git. The rule must never call a name valid that git refuses: checked against real git.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { surelyValidBranchName } from '../../server/git/git';

const gitAccepts = (name: string) => spawnSync('git', ['check-ref-format', '--branch', name]).status === 0;

describe('branch names known valid without git', () => {
  const plain = ['run/key', 'bench/k12', 'a_b/c-d', 'r/k-i2', 'v1.2/x', 'a/b.c.d', '_x', 'run/key-i10'];
  const refused = [
    'a..b',
    'a.lock',
    'a/b.lock/c',
    'a.',
    '.a',
    'a/.b',
    'a//b',
    'a/',
    '/a',
    'a b',
    'a~1',
    'a^',
    'a:b',
    'a?',
    'a*',
    'a[b',
    'a\\b',
    'a@{b',
    '-a',
    'HEAD',
    'a\u0001',
    '@{-1}',
  ];

  it('says valid for plain names, each of which git accepts', () => {
    for (const name of plain) {
      assert.equal(surelyValidBranchName(name), true, name);
      assert.equal(gitAccepts(name), true, `git refuses ${name}`);
    }
  });

  it('leaves every name git refuses (and odd ones it accepts) to git', () => {
    for (const name of [...refused, '@', 'a@b', 'ü/x', 'a+b', 'a,b']) {
      assert.equal(surelyValidBranchName(name), false, name);
    }
    for (const name of refused.filter((n) => n !== '@{-1}')) assert.equal(gitAccepts(name), false, name);
  });
});
