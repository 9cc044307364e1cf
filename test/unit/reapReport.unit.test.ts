// The text a reap prints (what was done and what was kept) and the exact refusal
// messages, each produced in one place.
import * as assert from 'node:assert/strict';
import { SvcError } from '../../shared/errors';
import { parseRaw } from '../../server/reap/parkCapture';
import type { ParkResult } from '../../server/reap/park';
import { parseLsof, parseLsofFiles } from '../../server/reap/processesInside';
import {
  dirtyError,
  harnessAliveError,
  notAWorktreeError,
  outsideLanesRootError,
  parkChangedError,
  parkCleanFailedError,
  parkUnsupportedError,
  parkVerifyFailedError,
  playHasGitError,
  playUnreadableError,
  processesInsideError,
  worktreeRemoveFailedError,
} from '../../server/reap/reapErrors';
import { archiveFailedLine, formatReapReport } from '../../shared/format/reapReport';
import { REAP_REFUSALS } from '../../shared/refusals/reap';
import type { ReapRefusal } from '../../shared/refusals/reap';
import type { ReapReport } from '../../shared/format/reapReport';
import { restoreAfterRemove, restoreInPlace } from '../../server/reap/restoreCommand';
import { shellQuote } from '../../shared/format/shellQuote';
import { splitNul } from '../../server/git/gitExec';

const HEAD = '0123456789abcdef0123456789abcdef01234567';
const park: ParkResult = {
  patchFile: '/home/u/.svc/agents/conv-r1-b-builder-i1/parked-20250101T000000Z.patch',
  files: 3,
  head: HEAD,
  branch: 'r1/b',
  restoreCommand:
    'git -C /home/u/p-lanes/r1-b apply --index -p2 --whitespace=nowarn /home/u/.svc/agents/conv-r1-b-builder-i1/parked-20250101T000000Z.patch',
  restoreAfterRemoveCommand:
    'git -C /home/u/p worktree add /home/u/p-lanes/r1-b r1/b && git -C /home/u/p-lanes/r1-b apply --index -p2 --whitespace=nowarn /home/u/.svc/agents/conv-r1-b-builder-i1/parked-20250101T000000Z.patch',
};
const base: ReapReport = {
  conv: { id: 12, name: 'r1-b-builder-i1' },
  dir: '/home/u/p-lanes/r1-b',
  removed: 'worktree',
  branch: 'r1/b',
  head: HEAD,
  upstream: 'origin/r1/b',
  unpushed: [],
  keptBranch: null,
  keptRefs: [],
  earlierParked: [],
  park: null,
  archive: { state: 'archived' },
  orphaned: [],
  largePark: null,
};
const r = (o: Partial<ReapReport>): ReapReport => ({ ...base, ...o });

describe('reap report text', () => {
  it('a plain reap: removed, branch kept, archived', () => {
    assert.equal(
      formatReapReport(base),
      [
        'reaped conv 12 (r1-b-builder-i1)',
        'removed worktree /home/u/p-lanes/r1-b',
        'kept branch r1/b at 0123456',
        'archived conv 12',
      ].join('\n'),
    );
  });

  it('a parked reap prints the patch and the command that restores it after removal', () => {
    assert.equal(
      formatReapReport(r({ park })),
      [
        'reaped conv 12 (r1-b-builder-i1)',
        `parked 3 paths in ${park.patchFile}`,
        `  restore with: ${park.restoreAfterRemoveCommand}`,
        'removed worktree /home/u/p-lanes/r1-b',
        'kept branch r1/b at 0123456',
        'archived conv 12',
      ].join('\n'),
    );
  });

  it('a park over reap.park_warn_mb warns with its size and the largest files', () => {
    const text = formatReapReport(
      r({
        park,
        largePark: {
          bytes: 250 * 1024 * 1024,
          largest: [
            { path: 'out/model.bin', bytes: 240 * 1024 * 1024 },
            { path: 'notes.txt', bytes: 3.5 * 1024 * 1024 },
          ],
          warnMb: 100,
        },
      }),
    );
    assert.equal(
      text.split('\n')[3],
      `warning: parked 250 MiB of files into ${park.patchFile}, over reap.park_warn_mb (100 MiB); largest: out/model.bin 240 MiB, notes.txt 3.5 MiB`,
    );
  });

  it('one parked path is singular', () => {
    assert.match(formatReapReport(r({ park: { ...park, files: 1 } })), /^parked 1 path in /m);
  });

  it('warns about unpushed commits against the upstream, newest first', () => {
    const unpushed = [
      { sha: 'b'.repeat(40), subject: 'second' },
      { sha: 'a'.repeat(40), subject: 'first' },
    ];
    assert.equal(
      formatReapReport(r({ unpushed })),
      [
        'reaped conv 12 (r1-b-builder-i1)',
        'removed worktree /home/u/p-lanes/r1-b',
        'kept branch r1/b at 0123456',
        'warning: 2 commits on r1/b are not on origin/r1/b:',
        '  bbbbbbb second',
        '  aaaaaaa first',
        'archived conv 12',
      ].join('\n'),
    );
  });

  it('without an upstream the warning names every remote branch; long lists are cut at 10', () => {
    const unpushed = Array.from({ length: 12 }, (_, i) => ({ sha: String(i).padStart(40, '0'), subject: `c${i}` }));
    const text = formatReapReport(r({ upstream: null, unpushed }));
    assert.match(text, /^warning: 12 commits on r1\/b are on no remote branch:$/m);
    assert.match(text, /^ {2}… and 2 more$/m);
    assert.equal(text.split('\n').filter((l) => /^ {2}0+\d+ c\d+$/.test(l)).length, 10);
  });

  it('one unpushed commit is singular', () => {
    assert.match(
      formatReapReport(r({ unpushed: [{ sha: 'c'.repeat(40), subject: 'only' }] })),
      /^warning: 1 commit on r1\/b is not on origin\/r1\/b:$/m,
    );
  });

  it('a detached lane: no branch line; detached commits kept on a new branch are named', () => {
    const text = formatReapReport(
      r({
        branch: null,
        upstream: null,
        unpushed: [{ sha: HEAD, subject: 'fix' }],
        keptBranch: 'svc-kept/r1-b-critic-i1',
      }),
    );
    assert.equal(
      text,
      [
        'reaped conv 12 (r1-b-builder-i1)',
        'removed worktree /home/u/p-lanes/r1-b',
        'kept the detached commits on new branch svc-kept/r1-b-critic-i1',
        'warning: 1 commit at detached 0123456 is on no remote branch:',
        '  0123456 fix',
        'archived conv 12',
      ].join('\n'),
    );
  });

  it('a play lane and a lane whose directory was already gone', () => {
    assert.equal(
      formatReapReport(r({ removed: 'playDir', branch: null, head: null, upstream: null })),
      ['reaped conv 12 (r1-b-builder-i1)', 'removed play directory /home/u/p-lanes/r1-b', 'archived conv 12'].join(
        '\n',
      ),
    );
    assert.match(formatReapReport(r({ removed: 'alreadyGone' })), /^\/home\/u\/p-lanes\/r1-b was already gone$/m);
  });

  it('--keep leaves the conversation listed', () => {
    assert.match(formatReapReport(r({ archive: { state: 'kept' } })), /\nkept conv 12 in the Command Deck \(--keep\)$/);
  });

  it('an archive failure ends with the exact spec line', () => {
    const text = formatReapReport(r({ archive: { state: 'failed', error: 'database is locked' } }));
    assert.equal(
      text.split('\n').pop(),
      'reaped, but archiving failed: database is locked; archive conv 12 from the Command Deck',
    );
    assert.equal(
      archiveFailedLine('boom', '#7'),
      'reaped, but archiving failed: boom; archive conv #7 from the Command Deck',
    );
  });

  it('an orchestrator reaped before its builders warns they are orphaned (unless kept)', () => {
    const text = formatReapReport(r({ orphaned: ['r1-a-builder-i1', 'r1-b-builder-i2'] }));
    assert.match(
      text,
      /^warning: 2 builders launched by this lane are not reaped and are now orphaned: r1-a-builder-i1, r1-b-builder-i2$/m,
    );
    // An orchestrator also launches verifiers and play lanes: the warning names what it lists.
    assert.match(
      formatReapReport(r({ orphaned: ['r1-a-builder-i1', 'r1-check-verifier-i1', 'r1-b-builder-i2-r1'] })),
      /^warning: 2 builders and 1 verifier launched by this lane are not reaped and are now orphaned: r1-a-builder-i1, r1-check-verifier-i1, r1-b-builder-i2-r1$/m,
    );
    assert.match(
      formatReapReport(r({ orphaned: ['r1-v-verifier-i2'] })),
      /^warning: the verifier launched by this lane is not reaped and is now orphaned: r1-v-verifier-i2$/m,
    );
    assert.match(
      formatReapReport(r({ orphaned: ['r1-p-play-i1', 'r1-q-play-i1'] })),
      /^warning: 2 play lanes launched by this lane are not reaped and are now orphaned: r1-p-play-i1, r1-q-play-i1$/m,
    );
    assert.doesNotMatch(formatReapReport(r({ orphaned: ['x'], archive: { state: 'kept' } })), /orphaned/);
  });
});

describe('reap refusals (kind refused, one place each)', () => {
  const check = (e: SvcError, reason: ReapRefusal, message: string) => {
    assert.ok(SvcError.is(e, reason));
    assert.equal(e.kind, 'refused');
    assert.equal(e.message, message);
    assert.ok(REAP_REFUSALS.includes(reason));
  };

  it('harnessAlive', () => {
    check(
      harnessAliveError('#12', 30),
      'harnessAlive',
      'conv #12 is still alive 30 s after the stop request; reap never kills a process: end it with svc conv stop --kill #12, then reap again',
    );
  });
  it('outsideLanesRoot, with and without a symlink', () => {
    check(
      outsideLanesRootError('/h/p', '/h/p', '/h/p-lanes'),
      'outsideLanesRoot',
      '/h/p is outside the lanes root /h/p-lanes; reap only removes lane directories',
    );
    check(
      outsideLanesRootError('/h/p-lanes/x', '/etc', '/h/p-lanes'),
      'outsideLanesRoot',
      '/h/p-lanes/x (it resolves to /etc) is outside the lanes root /h/p-lanes; reap only removes lane directories',
    );
  });
  it('processesInside lists PID and command line', () => {
    check(
      processesInsideError('/h/l/x', [{ pid: 42, command: 'sleep 300' }]),
      'processesInside',
      '1 process has its working directory inside /h/l/x; reap never kills a process: end it or move it out, then reap again\n  42 sleep 300',
    );
    check(
      processesInsideError('/h/l/x', [
        { pid: 42, command: 'sleep 300' },
        { pid: 43, command: 'bash' },
      ]),
      'processesInside',
      '2 processes have their working directory inside /h/l/x; reap never kills a process: end them or move them out, then reap again\n  42 sleep 300\n  43 bash',
    );
  });
  it('dirty lists paths (control characters escaped, at most 10)', () => {
    check(
      dirtyError('/h/l/x', [' M a.txt', '?? new\nline']),
      'dirty',
      '/h/l/x has uncommitted work (2 paths); commit it, or reap with --park to save it to a patch\n   M a.txt\n  ?? new\\x0aline',
    );
    const many = Array.from({ length: 12 }, (_, i) => `?? f${i}`);
    assert.match(dirtyError('/d', many).message, /\n {2}\?\? f9\n {2}… and 2 more$/);
    assert.match(dirtyError('/d', ['?? one']).message, /\(1 path\)/);
  });
  it('park refusals', () => {
    check(
      parkVerifyFailedError('/d', 'git apply: error'),
      'parkVerifyFailed',
      'the parked patch does not reproduce the work in /d (git apply: error); nothing was cleaned and no patch was kept',
    );
    check(
      parkChangedError('/d'),
      'parkChanged',
      'the work in /d changed while it was being parked; nothing was cleaned and no patch was kept: reap again',
    );
    const clean = parkCleanFailedError('/d', '/p.patch', 'disk full');
    assert.ok(SvcError.is(clean, 'parkCleanFailed'));
    assert.equal(clean.kind, 'internal');
    assert.equal(
      clean.message,
      'the work in /d is parked in /p.patch, but cleaning the tree failed: disk full; every change is in that patch',
    );
    check(
      parkUnsupportedError('/d', ['vendor/lib']),
      'parkUnsupported',
      '/d holds a nested git repository or submodule change at vendor/lib; a patch cannot save it: commit or move it, then reap again',
    );
  });
  it('removal refusals', () => {
    check(
      playHasGitError('/p', '/p/x/.git'),
      'playHasGit',
      'play directory /p holds a git repository (/p/x/.git); reap removes a play directory only when it holds no .git',
    );
    check(
      playUnreadableError('/p', '/p/locked'),
      'playUnreadable',
      'play directory /p holds a folder reap cannot read (/p/locked); it removes a play directory only when it holds no .git',
    );
    check(
      notAWorktreeError('/d', 'it is a main worktree'),
      'notAWorktree',
      '/d is not a linked git worktree (it is a main worktree); reap removes only lane worktrees',
    );
    check(
      worktreeRemoveFailedError('/d', 'locked'),
      'worktreeRemoveFailed',
      'git refused to remove the worktree /d: locked; reap never forces it',
    );
    check(
      worktreeRemoveFailedError('/d', 'locked', {
        patchFile: '/p.patch',
        restoreCommand: 'git -C /d apply --index -p2 --whitespace=nowarn /p.patch',
      }),
      'worktreeRemoveFailed',
      'git refused to remove the worktree /d: locked; reap never forces it; the uncommitted work was parked in /p.patch (restore with: git -C /d apply --index -p2 --whitespace=nowarn /p.patch)',
    );
  });
});

describe('reap helpers', () => {
  it('shellQuote leaves plain words bare and single-quotes the rest', () => {
    assert.equal(shellQuote('/home/u/p-lanes/r1-b'), '/home/u/p-lanes/r1-b');
    assert.equal(shellQuote('a b'), `'a b'`);
    assert.equal(shellQuote(`it's`), `'it'\\''s'`);
    assert.equal(shellQuote(''), `''`);
    assert.equal(shellQuote('$(rm -rf ~)'), `'$(rm -rf ~)'`);
  });
  it('restore commands', () => {
    assert.equal(restoreInPlace('/w', '/p.patch'), 'git -C /w apply --index -p2 --whitespace=nowarn /p.patch');
    assert.equal(
      restoreAfterRemove({ repoDir: '/r', worktree: '/w', branch: 'run/key', head: HEAD, patchFile: '/p.patch' }),
      'git -C /r worktree add /w run/key && git -C /w apply --index -p2 --whitespace=nowarn /p.patch',
    );
    assert.equal(
      restoreAfterRemove({ repoDir: '/r', worktree: '/w', branch: null, head: HEAD, patchFile: '/p.patch' }),
      `git -C /r worktree add --detach /w ${HEAD} && git -C /w apply --index -p2 --whitespace=nowarn /p.patch`,
    );
  });
  it('parseLsof reads p and n fields', () => {
    assert.deepEqual(
      [...parseLsof('p12\nfcwd\nn/home/u/x\np13\nfcwd\nn/\n')],
      [
        [12, '/home/u/x'],
        [13, '/'],
      ],
    );
  });
  it('parseLsofFiles reads every descriptor of `lsof -Fpfn` (the cwd, an open file, a mapped program)', () => {
    assert.deepEqual(
      parseLsofFiles('p12\nfcwd\nn/home/u\nf1w\nn/lanes/a/late.log\np13\nftxt\nn/lanes/a/build/tool\n'),
      [
        { pid: 12, fd: 'cwd', name: '/home/u' },
        { pid: 12, fd: '1w', name: '/lanes/a/late.log' },
        { pid: 13, fd: 'txt', name: '/lanes/a/build/tool' },
      ],
    );
  });
  it('splitNul and parseRaw keep path bytes', () => {
    const raw = Buffer.concat([
      Buffer.from(':100644 100755 aaa bbb M\0a b\0:000000 120000 000 ccc A\0'),
      Buffer.from([0xff, 0x41, 0]),
    ]);
    assert.deepEqual(parseRaw(splitNul(raw)), [
      { oldMode: '100644', newMode: '100755', status: 'M', path: Buffer.from('a b') },
      { oldMode: '000000', newMode: '120000', status: 'A', path: Buffer.from([0xff, 0x41]) },
    ]);
  });
});
