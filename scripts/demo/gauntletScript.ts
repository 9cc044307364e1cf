// The scripted orchestrator of the demo: the svc-gauntlet-loop skill, step by step, as a
// `script` harness conversation. Builders and critics are scripted the same way.
import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';

type Step = Record<string, unknown>;
const block = (intro: string, steps: Step[]) => `${intro}\n\n\`\`\`svc-script\n${YAML.stringify(steps)}\`\`\`\n`;

const commitPushReport = (file: string, content: string, report: string) =>
  [
    `printf '%b\\n' '${content}' > ${file}`,
    `git add ${file}`,
    `git commit -q -m 'Update ${file}'`,
    'git push -q -u origin HEAD',
    `printf '%s\\n' '${report}' | svc lane report --stdin`,
  ].join(' && ');

// The verdict goes in the worktree's git dir: a sandboxed critic writes only its own places,
// and a file in its tree would leave it dirty for reap.
const verdict = (v: string, defects: string[]) =>
  [
    `f="$(git rev-parse --absolute-git-dir)/verdict-$(basename "$PWD").json"`,
    `printf '%s' '${JSON.stringify({ defects: defects.map((what, i) => ({ id: i + 1, what })) })}' > "$f"`,
    `printf 'Judged the commit against the brief.\\n' | svc lane report --stdin --verdict ${v} --verdict-file "$f"`,
  ].join(' && ');

/** Writes the briefs the orchestrator hands out; returns the orchestrator's prompt. */
export function writeGauntlet(home: string): string {
  const briefs = path.join(home, 'briefs');
  fs.mkdirSync(briefs, { recursive: true });
  const brief = (name: string, intro: string, steps: Step[]) =>
    fs.writeFileSync(path.join(briefs, name), block(intro, steps));
  brief('greet-a1.md', 'Make greet.sh greet by name: `greet.sh Ada` prints `hello, Ada`.', [
    { say: 'Changing greet.sh to take a name.' },
    { cost: 0.21 },
    { run: commitPushReport('greet.sh', '#!/bin/sh\\necho "hello, $1"', 'greet.sh now greets by name.'), check: true },
  ]);
  brief('greet-a2.md', 'Make greet.sh greet by name; without a name it greets the world. Quote the name.', [
    { say: 'Answering the critic: default name and quoting.' },
    { cost: 0.34 },
    {
      run: commitPushReport(
        'greet.sh',
        '#!/bin/sh\\nname="${1:-world}"\\necho "hello, $name"',
        'Default name and quoting added.',
      ),
      check: true,
    },
  ]);
  brief('docs-b1.md', 'Document greet.sh in the README.', [
    { cost: 0.12 },
    { run: commitPushReport('USAGE.md', 'Run ./greet.sh NAME to be greeted.', 'Usage documented.'), check: true },
    { run: "echo 'a note the builder never committed' > NOTES.md" },
  ]);
  brief('critic-a1.md', 'Judge greet.sh: it must greet by name and handle a missing name.', [
    { cost: 0.09 },
    { run: verdict('NOT_YET', ['no default when the name is missing', 'the name is not quoted']), check: true },
  ]);
  brief('critic-pass.md', 'Judge the change against its brief.', [
    { cost: 0.07 },
    { run: verdict('PASS', []), check: true },
  ]);

  // Each lane with a spend cap; the script agent's `cost:` steps report what each one spends.
  const start = (args: string) =>
    `svc lane start --run demo ${args} --model script-fast --harness script --budget 1.50`;
  const wait = (lane: string) => `svc lane wait ${lane} --timeout 120`;
  return block('You orchestrate run `demo` with the svc-gauntlet-loop skill.', [
    { say: 'Fanning out two builders.' },
    {
      run: `${start('--key greet --role builder --brief briefs/greet-a1.md')} && ${start('--key docs --role builder --brief briefs/docs-b1.md')}`,
      check: true,
    },
    { run: `${wait('demo-greet-builder-i1')} && ${wait('demo-docs-builder-i1')}`, check: true },
    { say: 'Both built. Judging them with blind critics.' },
    {
      run: `${start('--for greet --role critic --brief briefs/critic-a1.md')} && ${start('--for docs --role critic --brief briefs/critic-pass.md')}`,
      check: true,
    },
    { run: `${wait('demo-greet-critic-i1')}; ${wait('demo-docs-critic-i1')}`, check: true },
    { say: 'greet is NOT_YET: launching its second iteration.' },
    {
      run: `${start('--key greet --role builder --brief briefs/greet-a2.md --replace')} && ${wait('demo-greet-builder-i2')}`,
      check: true,
    },
    {
      run: `${start('--for greet --role critic --brief briefs/critic-pass.md --replace')} && ${wait('demo-greet-critic-i2')}`,
      check: true,
    },
    { say: 'Both PASS. Landing both builders on main: the docs landing queues first, greet is tested on top of it.' },
    {
      // As the reap report below: written under a temporary name and renamed when complete.
      run: `svc lane land demo-docs-builder-i1 > land-docs.txt.tmp && svc lane land demo-greet-builder-i2 --wait --json > land-greet.json.tmp && mv land-docs.txt.tmp land-docs.txt && mv land-greet.json.tmp land-greet.json`,
      check: true,
    },
    {
      say: 'Reaping the superseded first iteration of greet; the docs tree holds an uncommitted note, so it is parked and kept in the deck.',
    },
    {
      // The report is written under a temporary name and renamed when complete, so a reader never sees it half written.
      run: 'for l in demo-greet-critic-i1 demo-greet-builder-i1; do svc lane reap $l > /dev/null || exit 1; done && svc lane reap demo-docs-builder-i1 --park --keep > reap-docs.txt.tmp && mv reap-docs.txt.tmp reap-docs.txt',
      check: true,
    },
    { say: 'greet i2 and the docs lane stay in the deck with their PASS verdicts.' },
  ]);
}
