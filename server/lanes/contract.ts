// The lane contract: the first message of every lane (play lanes excepted), followed by
// the brief. It tells the agent who it is, where it works and how to report.
// Blindness (critic rule 5): a critic's contract names only the commit under judgement,
// never the builder's conversation or any text of a builder report.
import type { Role } from '../../shared/config';
import { BLOCKED_KINDS, VERDICTS } from '../../shared/keys';

export interface ContractFacts {
  role: Role;
  run: string;
  key: string;
  iteration: number;
  dir: string;
  branch: string | null;
  /** critic/verifier: the judged builder iteration and the commit under judgement. */
  judged?: { iteration: number; commit: string };
  /** builder i ≥ 2: the verdict it answers. */
  answers?: { criticId: number; verdict: string; defects: number; verdictFile: string | null };
}

const ROLE_DUTY: Record<Role, string> = {
  builder:
    'You are a BUILDER. Do the work the brief asks for in this worktree, commit it on your branch, push the branch (`git push -u origin HEAD`), then report `done`. A done report is refused from a dirty tree or while the upstream lacks any of your commits.',
  critic:
    'You are a CRITIC. Judge the commit checked out in this directory against the brief. Do not change the work. Write a verdict file (JSON with a `defects` array, one entry per defect) and file exactly one done report with your verdict.',
  verifier:
    'You are a VERIFIER. Check that the commit checked out in this directory does what the brief says (run it, test it). Write a verdict file (JSON with a `defects` array) and file exactly one done report with your verdict.',
  orchestrator:
    'You are an ORCHESTRATOR. Run the gauntlet loop for this run: launch builders with `svc lane start --role builder`, critics are launched by the root conversation, wait with `svc lane wait --run <run>`, iterate on verdicts, and report when the run is finished. Your lanes join your run automatically.',
  play: '',
};

export function laneContract(f: ContractFacts): string {
  const lines = [
    `# svc lane contract`,
    '',
    ROLE_DUTY[f.role],
    '',
    `- run: ${f.run}`,
    `- key: ${f.key}`,
    `- role: ${f.role}`,
    `- iteration: i${f.iteration}`,
    `- directory: ${f.dir}`,
    f.branch ? `- branch: ${f.branch}` : `- checkout: detached${f.judged ? ` at ${f.judged.commit}` : ''}`,
  ];
  if (f.judged) lines.push(`- under judgement: builder ${f.key} i${f.judged.iteration}, commit ${f.judged.commit}`);
  if (f.answers) {
    lines.push(
      '',
      `This iteration answers the verdict of critic conversation #${f.answers.criticId} on iteration i${f.iteration - 1}: ${f.answers.verdict} with ${f.answers.defects} defect(s)${f.answers.verdictFile ? `; verdict file: ${f.answers.verdictFile}` : ''}. Fix what it found.`,
    );
  }
  lines.push('', '## Reporting', '');
  lines.push('Report with `svc lane report` from this directory (the body is a Markdown file or stdin):');
  lines.push(
    'If your shell does not find `svc` (a login shell resets PATH), run it by its absolute path, which is in `$SVC_BIN`: `"$SVC_BIN" lane report --file report.md`.',
  );
  lines.push('- `svc lane report --file report.md` — done (the default): the brief is complete.');
  lines.push(
    `- \`svc lane report --status blocked --file q.md\` — a decision is needed; the body starts with one of ${BLOCKED_KINDS.join(', ')}.`,
  );
  lines.push('- `svc lane report --status failed --file why.md` — the brief cannot be done.');
  if (f.role === 'critic' || f.role === 'verifier') {
    lines.push(
      `- Your done report carries your verdict: \`svc lane report --verdict <${VERDICTS.join('|')}> --verdict-file verdict.json --file report.md\`; the defect count defaults to the length of the file's \`defects\` array. File it once.`,
    );
  }
  if (f.role === 'builder') lines.push('- Commit, push, then report; `--allow-unpushed` waives only the push check.');
  lines.push('', 'Stay inside your directory. When you have reported, stop.', '', '## Brief', '');
  return lines.join('\n');
}
