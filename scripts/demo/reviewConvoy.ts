// The demo's second half: an issue, its work agent, `svc done`, and a full review convoy
// (four reviewers and a parent) posting one verdict on the local pull request. Every
// agent is a `script` harness conversation; the daemon writes their prompts, so their
// scripts come from the `harnesses.script.scripts` globs in config.yaml.
import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import type { PrDetail } from '../../shared/protocol/pr';
import type { IssueState } from '../../shared/protocol/review';

export interface DemoIo {
  svc(args: string[], opts?: { quiet?: boolean }): string;
  say(line: string): void;
  heading(line: string): void;
  home: string;
  svcHome: string;
  /** The sandbox cannot start here: the `script` harness's lanes run off (demoSandbox.ts). */
  sandboxOff: boolean;
}

/** Each reviewer reads the diff under review and writes its report with a Verdict heading;
 *  the correctness lane also leaves a nit on the changed echo line of greet.sh, which the
 *  service verifies at the head and posts as a comment on that line (docs/review-findings.md).
 *  A nit blocks nothing: the verdict stays APPROVED. */
const REVIEWER = `git diff --stat "$SVC_REVIEW_BASE" "$SVC_REVIEW_SHA" > /dev/null
line=$(git show "$SVC_REVIEW_SHA:greet.sh" | grep -n '^echo' | head -1 | cut -d: -f1)
{ printf '# Verdict: APPROVED\\n\\n## Summary\\nThe %s pass over %s found nothing to block.\\n\\n## Blockers\\nNone.\\n\\n' "$SVC_REVIEW_LANE" "$SVC_REVIEW_SHA"
  if [ "$SVC_REVIEW_LANE" = correctness ] && [ -n "$line" ]; then
    printf '## Findings\\n\\n### [nit] greet.sh:%s — quote the greeting once\\nprintf %%s would keep a name with a backslash as typed.\\n\\n' "$line"
  fi
  printf '## Evidence\\ngit diff %s..%s\\n' "$SVC_REVIEW_BASE" "$SVC_REVIEW_SHA"
} > "$SVC_REVIEW_REPORT"
`;

/** The parent waits for its four lanes, merges their reports into synthesis.md, posts it. */
const PARENT = `svc review wait > /dev/null
{ printf '# Verdict: APPROVED\\n\\n## Summary\\nAll four reviewers approve %s.\\n\\n## Blockers\\nNone.\\n\\n## Evidence\\nThe four lane reports of run %s.\\n\\n## Convoy Notes\\n' "$SVC_REVIEW_SHA" "$SVC_REVIEW_RUN"
  for f in "$SVC_REVIEW_DIR"/*.md; do printf -- '- %s: %s\\n' "$(basename "$f" .md)" "$(head -1 "$f")"; done
} > "$SVC_REVIEW_REPORT"
svc review post "$SVC_ISSUE" --run "$SVC_REVIEW_RUN" > /dev/null
`;

/** The work agent implements the issue and hands it over with svc done. */
const WORK = `printf '#!/bin/sh\\nname="\${1:-world}"\\necho "hello, $name! nice to meet you."\\n' > greet.sh
git commit -q -am 'Greet politely' && svc done
`;

function writeScripts(io: DemoIo): void {
  const dir = path.join(io.home, 'agent-scripts');
  fs.mkdirSync(dir, { recursive: true });
  const script = (name: string, sh: string) => {
    fs.writeFileSync(path.join(dir, `${name}.sh`), sh);
    fs.writeFileSync(
      path.join(dir, `${name}.yaml`),
      YAML.stringify([{ run: `. ${path.join(dir, `${name}.sh`)}`, check: true }]),
    );
    return path.join(dir, `${name}.yaml`);
  };
  const config = [
    '# svc demo configuration (see docs/configuration.md).',
    '# The script harness plays every agent the daemon writes prompts for;',
    '# the first matching conversation-name glob wins.',
    'harnesses:',
    '  script:',
    ...(io.sandboxOff ? ['    sandbox: off'] : []),
    '    scripts:',
    `      "agent-*-review-*": ${script('reviewer', REVIEWER)}`,
    `      "agent-*-review": ${script('parent', PARENT)}`,
    `      "agent-*": ${script('work', WORK)}`,
    'codehost:',
    '  local:',
    '    # A reviewer identity other than the PR author gets formal reviews (not the marker comment).',
    '    reviewer: svc-reviewer',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(io.svcHome, 'config.yaml'), config);
}

async function followIssue(io: DemoIo, id: string, until: (s: IssueState) => boolean): Promise<IssueState> {
  let printed = 0;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const state = JSON.parse(io.svc(['show', id, '--json', '--lines', '100'], { quiet: true })) as IssueState;
    for (const e of state.journal.slice(printed))
      io.say(
        `  ${e.kind}${e.runId ? ` (${e.runId}` : ''}${e.sha ? ` at ${e.sha.slice(0, 7)}` : ''}${e.runId ? ')' : ''}`,
      );
    printed = state.journal.length;
    if (until(state)) return state;
    if (Date.now() > deadline)
      throw new Error(`the review of ${id} did not finish within 2 minutes (see svc show ${id})`);
    await new Promise((r) => setTimeout(r, 250)); // a demo client may poll; the product never does
  }
}

export async function runReviewConvoy(io: DemoIo): Promise<string> {
  io.heading('A review convoy: an issue, its work agent, svc done, four reviewers and a parent');
  writeScripts(io);
  io.svc(['config', 'set', 'roles.review.mode', 'full'], { quiet: true });
  io.svc(['config', 'set', 'roles.review.harness', 'script'], { quiet: true });
  io.svc(['config', 'set', 'roles.review.model', 'script-thorough'], { quiet: true });
  io.svc(['config', 'set', 'roles.review.sub.security.model', 'script-thorough'], { quiet: true });
  io.say('  review mode full; reviewer models set with svc config set');
  const issue = JSON.parse(
    io.svc(
      [
        'issue',
        'new',
        '--project',
        'sample',
        '--title',
        'Greet politely',
        '--body',
        'greet.sh says hello, NAME! nice to meet you.\n\nAcceptance criteria:\n1. a default name\n2. polite wording\n',
        '--json',
      ],
      { quiet: true },
    ),
  ) as { id: string };
  io.say(`  issue ${issue.id} created with its workspace`);
  io.svc(['issue', 'start', issue.id, '--harness', 'script', '--model', 'script-fast'], { quiet: true });
  io.say(`  work agent agent-${issue.id.toLowerCase()} started; it commits and runs svc done`);
  const state = await followIssue(
    io,
    issue.id,
    (s) => s.journal.some((e) => e.kind === 'review.verdict') && s.pr !== null,
  );
  io.say(
    `  PR #${state.pr!.number}: review state ${state.pr!.reviewState}, ${state.pr!.ready ? 'ready to merge' : `not ready: ${state.pr!.reasons.join('; ')}`}`,
  );
  // The correctness lane's nit went on its line with the one review.
  const pr = JSON.parse(
    io.svc(['pr', 'show', String(state.pr!.number), '--project', 'sample', '--json'], { quiet: true }),
  ) as PrDetail;
  if (pr.lineComments.length === 0) throw new Error(`the review of ${issue.id} posted no line comment`);
  for (const c of pr.lineComments) io.say(`  line comment on ${c.path}:${c.line}: ${c.body.split('\n')[0]}`);
  return issue.id;
}
