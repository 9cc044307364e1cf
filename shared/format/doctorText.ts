// The doctor's report as text, the same in `svc doctor` and the extension's "svc: Doctor"
// output: checks grouped by area, each marked ok / note / PROBLEM with its fix under it,
// then the count of problems. Also the report of a client that cannot reach the daemon.
import type { DoctorCheck, DoctorReport } from '../protocol/doctor';

const AREAS: [string, string][] = [
  ['config', 'config'],
  ['harness', 'harnesses'],
  ['node', 'node'],
  ['git', 'git'],
  ['svcHome', 'SVC_HOME'],
  ['cli', 'svc command'],
  ['daemon', 'daemon'],
  ['codehost', 'code hosts'],
  ['notify', 'notify targets'],
];

const MARK = { ok: 'ok     ', note: 'note   ', problem: 'PROBLEM' } as const;

export function doctorText(r: DoctorReport): string {
  const lines: string[] = [];
  const known = new Set(AREAS.map(([a]) => a));
  const groups = [
    ...AREAS,
    ...[...new Set(r.checks.map((c) => c.area))].filter((a) => !known.has(a)).map((a) => [a, a] as [string, string]),
  ];
  for (const [area, title] of groups) {
    const checks = r.checks.filter((c) => c.area === area);
    if (!checks.length) continue;
    lines.push(title);
    for (const c of checks) {
      lines.push(`  ${MARK[c.status]}  ${c.text}`);
      if (c.fix && c.status !== 'ok') lines.push(`           fix: ${c.fix}`);
    }
  }
  lines.push('', r.problems === 0 ? 'no problems' : `${r.problems} problem${r.problems === 1 ? '' : 's'}`);
  return lines.join('\n') + '\n';
}

/** The report when the daemon could not be reached or started: that is the problem to fix first. */
export function daemonDownReport(reason: string, svcHome: string): DoctorReport {
  const check: DoctorCheck = {
    area: 'daemon',
    subject: 'daemon',
    status: 'problem',
    text: `the daemon of ${svcHome} is not reachable: ${reason} (the other checks run in the daemon)`,
    // A refusal that names its own fix (`… (run: chmod 700 '…')`) gives that fix.
    fix: /\(run: (.+)\)\s*$/.exec(reason)?.[1] ?? 'svc daemon restart; if it fails again, svc daemon log shows why',
  };
  return { harnesses: [], checks: [check], problems: 1 };
}

/** The report when this svc has no SQLite module for the Node or platform it runs on: the daemon cannot start, and why is known here. */
export function noModuleReport(problem: string, fix: string): DoctorReport {
  return {
    harnesses: [],
    checks: [{ area: 'node', subject: 'sqlite', status: 'problem', text: problem, fix }],
    problems: 1,
  };
}
