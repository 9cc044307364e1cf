// package.json's commands and menus against the command table, in plain Node so `npm test`
// catches menu drift without an editor: package.json carries exactly what the table
// generates (`npm run commands`), and each context value the deck and the Reviews tree
// compose offers exactly the right commands through the menus' `when` clauses, in the
// order VS Code shows them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildDeck, deckContextValue } from '../../extension/commandDeck/deckModel';
import { COMMAND_IDS, COMMANDS } from '../../extension/commands/commandTable';
import { contributions } from '../../extension/commands/contributions';
import { ROWS } from '../helpers/deckRows';

interface Contributes {
  commands: { command: string; title: string }[];
  keybindings?: { command: string; key: string; when?: string }[];
  menus: Record<string, { command: string; when?: string; group?: string }[]>;
}
const PKG = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: Contributes;
};

/** VS Code's menu order: the navigation group first, then groups by name; inside a group by the `@` order. */
function shownOrder(a: { group?: string }, b: { group?: string }): number {
  const [ga, oa] = (a.group ?? '').split('@');
  const [gb, ob] = (b.group ?? '').split('@');
  const rank = (g: string) => (g === 'navigation' ? '' : g);
  return rank(ga).localeCompare(rank(gb)) || Number(oa ?? 0) - Number(ob ?? 0);
}

/** The commands a view's item context menu shows for a context value (regex and == clauses, as VS Code reads them), in the order it shows them; hover (inline) actions in their `@` order. */
function menuFor(
  menus: { command: string; when?: string; group?: string }[],
  view: string,
  contextValue: string,
  inline = false,
): string[] {
  return menus
    .filter((m) => (m.group === 'inline' || m.group?.startsWith('inline@')) === inline)
    .filter((m) => {
      const when = m.when ?? '';
      const v = /view == (\S+)/.exec(when);
      if (v && v[1] !== view) return false;
      const re = /viewItem =~ \/(.+?)\/(\s|$)/.exec(when);
      if (re) return new RegExp(re[1]).test(contextValue);
      const eq = /viewItem == '?([^'\s]+)'?/.exec(when);
      return eq ? eq[1] === contextValue : false;
    })
    .sort(shownOrder)
    .map((m) => m.command);
}

describe('extension menus (package.json)', () => {
  it('carries exactly the commands and menus the command table makes (else run `npm run commands`)', () => {
    const made = contributions();
    assert.deepEqual(
      PKG.contributes.commands,
      made.commands,
      'package.json contributes.commands is out of date: run `npm run commands`',
    );
    assert.deepEqual(
      PKG.contributes.menus,
      made.menus,
      'package.json contributes.menus is out of date: run `npm run commands`',
    );
    assert.deepEqual(
      PKG.contributes.keybindings,
      made.keybindings,
      'package.json contributes.keybindings is out of date: run `npm run commands`',
    );
  });

  it('binds the common actions to chords under ctrl+alt+s, as GitLens and Source Control do', () => {
    assert.deepEqual(PKG.contributes.keybindings, [
      { command: 'svc.startLane', key: 'ctrl+alt+s l' },
      { command: 'svc.requestReview', key: 'ctrl+alt+s r' },
      { command: 'svc.openInbox', key: 'ctrl+alt+s i' },
    ]);
  });

  it("titles every command in one casing, VS Code's Title Case (small words lower, names in quotes as they are)", () => {
    const small = new Set([
      'a',
      'an',
      'the',
      'and',
      'or',
      'in',
      'on',
      'of',
      'to',
      'for',
      'with',
      'from',
      'as',
      'at',
      'by',
    ]);
    const misses = PKG.contributes.commands.flatMap(({ command, title }) => {
      const words = title
        .replace(/'[^']*'/g, 'Name')
        .split(/[\s(),…]+/)
        .filter((w) => /^[A-Za-z]/.test(w));
      const wrong = words.filter((w, i) => (i > 0 && small.has(w) ? false : !/^[A-Z]/.test(w)));
      return wrong.length ? [`${command} "${title}": ${wrong.join(', ')}`] : [];
    });
    assert.deepEqual(misses, []);
  });

  it('gates a command on the daemon one way: its `daemon` makes both the runtime guard and the `when` clauses', () => {
    const { menus } = contributions();
    const clauses = (id: string) =>
      Object.values(menus).flatMap((items) => items.filter((m) => m.command === id).map((m) => m.when ?? ''));
    for (const id of COMMAND_IDS) {
      const gated = clauses(id).filter((w) => w.includes('svc.daemon == connected'));
      if (COMMANDS[id].daemon === 'connectedOnly')
        assert.equal(
          gated.length,
          clauses(id).length,
          `${id} is offered only while connected, in the palette and every menu`,
        );
    }
    assert.deepEqual(
      menus.commandPalette.filter((m) => m.when?.includes('svc.daemon == connected')).map((m) => m.command),
      [
        'svc.stopDaemon',
        'svc.restartDaemon',
        'svc.resumeStoppedByDaemon',
        'svc.newIssue',
        'svc.startIssue',
        'svc.issueDone',
      ],
    );
    // Resume All: on the deck's title bar, first, only while the daemon ended agents nobody resumed.
    assert.deepEqual(
      menus['view/title'].filter((m) => m.command === 'svc.resumeStoppedByDaemon'),
      [
        {
          command: 'svc.resumeStoppedByDaemon',
          when: 'view == svc.commandDeck && svc.stoppedByDaemon && svc.daemon == connected',
          group: 'navigation@0',
        },
      ],
    );
    assert.equal(
      menus.commandPalette.find((m) => m.command === 'svc.startIssue')?.when,
      'svc.daemon == connected && svc.hasIssues',
    );
    // `needed` commands stay in the palette while the daemon is down: running one says why and offers to start it.
    assert.equal(COMMANDS['svc.newConversation'].daemon, 'needed');
    assert.equal(
      menus.commandPalette.find((m) => m.command === 'svc.newConversation'),
      undefined,
    );
    assert.deepEqual(
      COMMAND_IDS.filter((id) => !('daemon' in COMMANDS[id])),
      [
        'svc.startDaemon',
        'svc.showDaemonStatus',
        'svc.showDaemonLog',
        'svc.doctor',
        'svc.showLog',
        'svc.installSkill',
        'svc.installCli',
        'svc.uninstallCli',
        'svc.openRoles',
        'svc.openReport',
        'svc.deckShowArchived',
        'svc.deckHideArchived',
        'svc.deckLiveOnly',
        'svc.deckShowAll',
        'svc.openPr',
        'svc.launchLane',
        'svc.createIssue',
        'svc.openInbox',
      ],
      'these work with the daemon down',
    );
  });

  it('contributes exactly the commands the extension registers, svc.openRoles among them', () => {
    const contributed = PKG.contributes.commands.map((c) => c.command);
    assert.deepEqual([...contributed].sort(), [...COMMAND_IDS].sort());
    assert.ok(contributed.includes('svc.openRoles'), 'the Roles panel command is contributed');
    assert.deepEqual(
      PKG.contributes.menus['view/title'].filter((m) => m.command === 'svc.openRoles').map((m) => m.when),
      ['view == svc.commandDeck'],
      'Open Roles is a button on the Command Deck title bar',
    );
  });

  it('names only registered commands in its menus', () => {
    for (const [where, items] of Object.entries(PKG.contributes.menus)) {
      for (const m of items)
        assert.ok(
          (COMMAND_IDS as readonly string[]).includes(m.command),
          `${where} names ${m.command}, which is not registered`,
        );
    }
  });

  it('composes context values whose menus offer exactly the right commands', () => {
    const nodes = buildDeck(ROWS);
    const values = ROWS.map(deckContextValue);
    assert.deepEqual(values, [
      'svc:conv+root+idle+live+launcher+succeed',
      'svc:conv+lane+builder+working+live+git+dirty+verdict',
      'svc:conv+lane+critic+stopped+verdict',
      'svc:conv+lane+builder+needs-you+live',
      'svc:conv+lane+play+stopped+reaped',
    ]);
    const menus = PKG.contributes.menus['view/item/context'];
    const deck = (v: string) => menuFor(menus, 'svc.commandDeck', v);
    assert.deepEqual(deck(values[0]), [
      'svc.openConversation',
      'svc.tellConversation',
      'svc.stopConversation',
      'svc.startLane',
      'svc.handoffConversation',
      'svc.forkConversation',
    ]);
    assert.deepEqual(deck(values[1]), [
      'svc.openConversation',
      'svc.openWorktreeInNewWindow',
      'svc.tellConversation',
      'svc.stopConversation',
      'svc.reapLane',
      'svc.raiseBudget',
      'svc.startLane',
      'svc.copyBranch',
    ]);
    assert.deepEqual(deck(values[2]), [
      'svc.openConversation',
      'svc.resumeConversation',
      'svc.reapLane',
      'svc.archiveConversation',
      'svc.raiseBudget',
      'svc.startLane',
    ]);
    assert.deepEqual(
      menuFor(menus, 'svc.commandDeck', values[2], true),
      ['svc.resumeConversation'],
      'a stopped lane offers Resume on hover',
    );
    assert.deepEqual(menuFor(menus, 'svc.commandDeck', 'svc:conv+root+stopped+archived+launcher+succeed', true), [
      'svc.unarchiveConversation',
    ]);
    assert.deepEqual(deck(values[3]), [
      'svc.openConversation',
      'svc.tellConversation',
      'svc.answerConversation',
      'svc.stopConversation',
      'svc.reapLane',
      'svc.raiseBudget',
      'svc.startLane',
    ]);
    assert.deepEqual(menuFor(menus, 'svc.commandDeck', values[3], true), ['svc.answerConversation']);
    assert.deepEqual(deck(values[4]), ['svc.openConversation', 'svc.archiveConversation', 'svc.startLane']);
    assert.equal(nodes[0].children[0].children.length, 1, 'no verdict link row: the critic alone under its builder');
    assert.deepEqual(
      menuFor(menus, 'svc.commandDeck', values[1], true),
      ['svc.tellConversation', 'svc.stopConversation'],
      'hover actions of a working lane',
    );
    // A critic that filed its verdict file: Open Report in its menu and on hover (its click opens the conversation).
    const critic = deckContextValue({
      ...ROWS[2],
      activity: 'idle',
      verdict: { verdict: 'NOT_YET', defects: 3, by: 3, verdictFile: '/lanes/verdict-c1.json' },
    });
    assert.equal(critic, 'svc:conv+lane+critic+idle+live+verdict+report');
    assert.deepEqual(deck(critic), [
      'svc.openConversation',
      'svc.openReport',
      'svc.tellConversation',
      'svc.stopConversation',
      'svc.reapLane',
      'svc.raiseBudget',
      'svc.startLane',
    ]);
    assert.deepEqual(menuFor(menus, 'svc.commandDeck', critic, true), ['svc.openReport', 'svc.tellConversation']);
    // The builder it judged shows the verdict, but the report is the critic's: no Open Report there.
    assert.doesNotMatch(
      deckContextValue({
        ...ROWS[1],
        verdict: { verdict: 'NOT_YET', defects: 3, by: 3, verdictFile: '/lanes/verdict-c1.json' },
      }),
      /\+report\b/,
    );
    // A builder with the commit its worktree started from offers Compare with Base; a critic, or a reaped builder, does not.
    const based = deckContextValue({ ...ROWS[1], base: 'a'.repeat(40) });
    assert.equal(based, 'svc:conv+lane+builder+working+live+git+dirty+base+verdict');
    assert.deepEqual(deck(based), [
      'svc.openConversation',
      'svc.openWorktreeInNewWindow',
      'svc.compareWithBase',
      'svc.tellConversation',
      'svc.stopConversation',
      'svc.reapLane',
      'svc.raiseBudget',
      'svc.startLane',
      'svc.copyBranch',
    ]);
    assert.doesNotMatch(deckContextValue({ ...ROWS[2], base: 'a'.repeat(40), git: ROWS[1].git }), /\+base\b/);
    assert.doesNotMatch(
      deck(deckContextValue({ ...ROWS[1], base: 'a'.repeat(40), reaped: true })).join(),
      /compareWithBase/,
    );
    const reviewer = 'svc:conv+agent+stopped+succeed+reviewer+report';
    assert.deepEqual(deck(reviewer), [
      'svc.openConversation',
      'svc.openReport',
      'svc.archiveConversation',
      'svc.startLane',
      'svc.handoffConversation',
      'svc.forkConversation',
    ]);
    assert.deepEqual(menuFor(menus, 'svc.commandDeck', 'svc:convoy+live+verdict', true), ['svc.abortReview']);
    assert.deepEqual(menuFor(menus, 'svc.reviews', 'svc:review+readiness+pr+mergeable+url', true), [
      'svc.mergePr',
      'svc.openPr',
    ]);
    assert.deepEqual(menuFor(menus, 'svc.reviews', 'svc:review+readiness+pr'), []);
    // The issue row is the PR's row: a PR with a web page opens from it too.
    assert.deepEqual(menuFor(menus, 'svc.reviews', 'svc:review+issue+pr+approved+ready+run+url', true), [
      'svc.requestReview',
      'svc.openPr',
    ]);
    assert.deepEqual(
      menuFor(menus, 'svc.reviews', 'svc:review+issue+pr+approved+ready+run+url'),
      ['svc.startIssue', 'svc.openPr', 'svc.requestReview', 'svc.restartReview'],
      'an approved, ready PR is merged next: Mark Issue Done (push, open the PR) is not offered',
    );
    assert.deepEqual(menuFor(menus, 'svc.reviews', 'svc:review+issue+pr+approved+run+url'), [
      'svc.startIssue',
      'svc.issueDone',
      'svc.openPr',
      'svc.requestReview',
      'svc.restartReview',
    ]);
    assert.deepEqual(menuFor(menus, 'svc.reviews', 'svc:reviewer+stopped+report'), [
      'svc.openConversation',
      'svc.openReport',
    ]);
    assert.deepEqual(menuFor(menus, 'svc.reviews', values[0]), [], 'deck menus stay in the deck');
    assert.deepEqual(menuFor(menus, 'svc.reviews', 'svc:review+issue+pr+in_review+running+run'), [
      'svc.startIssue',
      'svc.issueDone',
      'svc.requestReview',
      'svc.abortReview',
      'svc.restartReview',
    ]);
    assert.deepEqual(menuFor(menus, 'svc.reviews', 'svc:review+run+stalled', true), ['svc.restartReview']);
    assert.deepEqual(menuFor(menus, 'svc.reviews', 'svc:review+run', true), []);
    assert.deepEqual(menuFor(menus, 'svc.reviews', 'svc:review+issue'), [
      'svc.startIssue',
      'svc.issueDone',
      'svc.requestReview',
    ]);
    assert.deepEqual(
      menuFor(menus, 'svc.reviews', 'svc:review+issue+worker'),
      ['svc.issueDone', 'svc.requestReview'],
      'no second work agent while one is live',
    );
    assert.deepEqual(menuFor(menus, 'svc.reviews', 'svc:reviewer+working+live'), [
      'svc.openConversation',
      'svc.tellConversation',
      'svc.stopConversation',
    ]);
  });

  it("offers on each Inbox row the commands that act on its kind, and no deck or Reviews row's", () => {
    const menus = PKG.contributes.menus['view/item/context'];
    const inbox = (v: string, inline = false) => menuFor(menus, 'svc.inbox', v, inline);
    assert.deepEqual(inbox('svc:inbox+needs-you+conv+lane', true), ['svc.answerConversation', 'svc.openConversation']);
    assert.deepEqual(inbox('svc:inbox+needs-you+conv'), ['svc.answerConversation', 'svc.openConversation']);
    assert.deepEqual(inbox('svc:inbox+blocked+conv+lane', true), ['svc.tellConversation', 'svc.openConversation']);
    assert.deepEqual(inbox('svc:inbox+spend+conv+lane', true), ['svc.raiseBudget', 'svc.openConversation']);
    assert.deepEqual(inbox('svc:inbox+failed-start+conv+lane', true), [
      'svc.resumeConversation',
      'svc.reapLane',
      'svc.openConversation',
    ]);
    assert.deepEqual(inbox('svc:inbox+failed-start+conv', true), ['svc.resumeConversation', 'svc.openConversation']);
    assert.deepEqual(inbox('svc:inbox+stalled+conv+lane'), [
      'svc.stopConversation',
      'svc.reapLane',
      'svc.openConversation',
    ]);
    assert.deepEqual(inbox('svc:inbox+changes-requested+conv', true), [
      'svc.resumeConversation',
      'svc.openConversation',
    ]);
    assert.deepEqual(inbox('svc:inbox+changes-requested', true), [], 'no work agent: nothing to resume or open');
    assert.deepEqual(menuFor(menus, 'svc.commandDeck', 'svc:inbox+needs-you+conv+lane'), []);
  });
});
