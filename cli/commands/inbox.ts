// `svc inbox`: everything waiting on the person, and `svc inbox answer` to act on an item
// from there. The answer goes through the method that owns it (conversations/answer,
// lanes/budget), so its rules and authority are theirs.
import { conversationsAnswer } from '../../shared/protocol/conversations';
import { inboxList } from '../../shared/protocol/inbox';
import type { InboxItem } from '../../shared/protocol/inbox';
import { lanesBudget } from '../../shared/protocol/lanes';
import { formatCost, parseUsd } from '../../shared/format/money';
import { inboxText } from '../../shared/format/inboxText';
import { bool, int, JSON_FLAG, printJson, str, UsageError } from '../cli';
import type { CommandSpec } from '../cli';
import { withDaemon } from '../client';
import { inboxAnswerKindRefusal, noInboxItemRefusal } from '../shimRefusals';

const inbox: CommandSpec = {
  path: ['inbox'],
  summary: 'list everything waiting on you, oldest first, with the command that acts on each',
  usage: ['[--json]', '--wait [--after <cursor>] [--timeout <s>] [--json]'],
  flags: {
    wait: { type: 'boolean', help: 'block until an item newer than the cursor is waiting' },
    after: { type: 'string', help: 'the cursor an earlier svc inbox printed (default: now)', value: '<cursor>' },
    timeout: { type: 'int', help: 'with --wait: give up after this many seconds (default 300)', value: '<s>' },
    ...JSON_FLAG,
  },
  details:
    'Items: needs-you requests, blocked reports, lanes held at a spend cap, failed starts, stalled lanes (working, no output for the role’s stall_after, default 15m), and reviews that requested changes with no work agent alive. Computed when read.\nThe next command, with the cursor, goes to stderr as `next: …`.\nExit: 0 · 3 --wait timed out with nothing new · 1 usage or request error.',
  async run(a, io) {
    const wait = bool(a, 'wait');
    const timeout = int(a, 'timeout');
    if (!wait && (str(a, 'after') !== undefined || timeout !== undefined))
      throw new UsageError('--after and --timeout go with --wait');
    if (timeout !== undefined && timeout < 0) throw new UsageError('--timeout must be 0 or more');
    const r = await withDaemon(io, async (c) => {
      const after = wait ? (str(a, 'after') ?? (await c.request(inboxList, {})).cursor) : undefined;
      return c.request(inboxList, { after, timeoutS: timeout });
    });
    if (bool(a, 'json')) printJson(io, r);
    else io.out(inboxText(r.items, r.now));
    io.err(`next: svc inbox --wait --after ${r.cursor}\n`);
    return r.outcome === 'timeout' ? 3 : 0;
  },
};

const TAKES: Record<InboxItem['kind'], string> = {
  'needs-you': '--allow, --deny, --option <id> or --text <answer>',
  spend: '--budget <usd>',
  blocked: 'no answer here: tell the lane (svc tell)',
  'failed-start': 'no answer here: run its command',
  stalled: 'no answer here: run its command',
  'changes-requested': 'no answer here: run its command',
};

const inboxAnswer: CommandSpec = {
  path: ['inbox', 'answer'],
  summary: 'answer an inbox item: a needs-you request, or raise the spend cap of a lane held at it',
  usage: ['<item> (--allow | --deny | --option <id> | --text <answer>)', '<item> --budget <usd>'],
  flags: {
    allow: { type: 'boolean', help: 'allow (once) / accept' },
    deny: { type: 'boolean', help: 'reject (once) / decline' },
    option: { type: 'string', help: 'choose this option id', value: '<id>' },
    text: { type: 'string', help: 'the answer to a question', value: '<answer>' },
    budget: { type: 'string', help: 'the new spend cap of a held lane, in US dollars', value: '<usd>' },
  },
  positionals: [{ name: 'item' }],
  details: 'The item is the id svc inbox shows (ask-12, spend-14). Exit 0 when answered, 1 when refused.',
  async run(a, io) {
    const id = a.positionals[0];
    if (!id)
      throw new UsageError(
        'usage: svc inbox answer <item> (--allow | --deny | --option <id> | --text <answer> | --budget <usd>)',
      );
    const given = ['allow', 'deny', 'option', 'text', 'budget'].filter((f) => a.flags[f] !== undefined);
    if (given.length !== 1)
      throw new UsageError('give exactly one of --allow, --deny, --option <id>, --text <answer>, --budget <usd>');
    return withDaemon(io, async (c) => {
      const item = (await c.request(inboxList, {})).items.find((i) => i.id === id);
      if (!item || !item.conversation) throw noInboxItemRefusal(id);
      const conv = item.conversation;
      const isBudget = given[0] === 'budget';
      if (item.kind === 'spend' && isBudget) {
        const raw = str(a, 'budget')!;
        const usd = parseUsd(raw);
        if ('why' in usd)
          throw new UsageError(`--budget takes an amount of US dollars above 0, like 2.50; got '${raw}'`);
        const r = await c.request(lanesBudget, {
          caller: io.env.SVC_CONVERSATION || undefined,
          lane: item.lane ?? String(conv.id),
          usd: usd.usd,
        });
        io.out(`Spend cap of ${r.target}: ${formatCost(r.cap)} (spent ${formatCost(r.spent)})\n`);
        for (const name of r.released) io.out(`${name} may take turns again; it was told to carry on\n`);
        for (const h of r.stillHeld) io.out(`${h.lane} is still stopped at its ${h.text}\n`);
        return 0;
      }
      if (item.kind !== 'needs-you' || isBudget) throw inboxAnswerKindRefusal(id, item.kind, TAKES[item.kind]);
      const r = await c.request(conversationsAnswer, {
        conv: `#${conv.id}`,
        allow: bool(a, 'allow') || undefined,
        deny: bool(a, 'deny') || undefined,
        option: str(a, 'option'),
        text: str(a, 'text'),
      });
      io.out(
        `Answered ${id} (#${r.conversation.id} ${r.conversation.name}): ${r.answered.kind} "${r.answered.title}"\n`,
      );
      return 0;
    });
  },
};

export const inboxCommands: CommandSpec[] = [inbox, inboxAnswer];
