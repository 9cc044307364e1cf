// The demo's needs-you moment: a conversation that asks before it acts. Its first request
// is answered here (as a person would from the Conversation panel), the second stays
// open, so the Command Deck shows a needs-you row and the README's conversation
// screenshot shows an answered request, the tool call it allowed, and the open request
// with its answers as buttons.
import YAML from 'yaml';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import type { DemoIo } from './reviewConvoy';

export const NEEDS_YOU_TITLE = 'tidy greet.sh';

const block = (intro: string, steps: Record<string, unknown>[]) =>
  `${intro}\n\n\`\`\`svc-script\n${YAML.stringify(steps)}\`\`\`\n`;

async function until(
  io: DemoIo,
  id: number,
  what: string,
  ok: (c: ConversationInfo) => boolean,
): Promise<ConversationInfo> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const c = JSON.parse(io.svc(['conv', 'show', String(id), '--json'], { quiet: true })) as ConversationInfo;
    if (ok(c)) return c;
    if (Date.now() > deadline)
      throw new Error(`conversation #${id} did not become ${what} within a minute (it is ${c.activity})`);
    await new Promise((r) => setTimeout(r, 250)); // a demo client may poll; the product never does
  }
}

export async function runNeedsYou(io: DemoIo): Promise<number> {
  io.heading('A conversation that needs you: it asks before it acts');
  const prompt = block('Check greet.sh and push it, asking before anything runs or leaves the machine.', [
    { say: 'greet.sh takes a name and falls back to `world`. I will run it once before pushing anything.' },
    { ask: 'Run `sh greet.sh Ada` in the sample checkout?' },
    { run: 'sh greet.sh Ada' },
    { say: 'It runs cleanly. The change is ready to push to `origin/main`.' },
    { ask: 'Push greet.sh to origin/main?' },
    { say: 'Pushed.' },
  ]);
  const created = JSON.parse(
    io.svc(
      [
        'conv',
        'new',
        '--project',
        'sample',
        '--harness',
        'script',
        '--model',
        'script-fast',
        '--title',
        NEEDS_YOU_TITLE,
        '--prompt',
        prompt,
        '--no-wait',
        '--json',
      ],
      {
        quiet: true,
      },
    ),
  ) as { conversation: { id: number } };
  const id = created.conversation.id;
  const first = await until(io, id, 'needs-you', (c) => c.activity === 'needs-you');
  io.say(`  #${id} asks: ${first.ask?.title}`);
  io.svc(['conv', 'answer', String(id), '--allow'], { quiet: true });
  io.say('  answered: allow');
  const second = await until(
    io,
    id,
    'needs-you again',
    (c) => c.activity === 'needs-you' && c.ask?.title !== first.ask?.title,
  );
  io.say(`  #${id} asks: ${second.ask?.title} (left open: the deck shows it as needs-you)`);
  return id;
}
