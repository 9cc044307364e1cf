// Text of `svc host list` and `svc host check`.
import type { HostCheckResult, HostInfo } from '../../shared/protocol/hosts';

export function hostListText(hosts: HostInfo[]): string {
  if (hosts.length === 0)
    return 'no hosts (add one under hosts: in config.yaml: hosts.<name>.ssh and hosts.<name>.lanes_root)\n';
  return hosts
    .map(
      (h) =>
        [
          h.name,
          h.ssh,
          h.lanesRoot,
          h.connected ? 'connected' : 'not connected',
          h.defaultFor.length ? `default for ${h.defaultFor.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('\t') + '\n',
    )
    .join('');
}

const MARK = { ok: 'ok  ', problem: 'FAIL', note: 'note' } as const;

export function hostCheckText(r: HostCheckResult): string {
  const lines = [`host ${r.host} (${r.ssh})`];
  for (const c of r.checks) {
    lines.push(`  ${MARK[c.status]}  ${c.what.padEnd(10)}  ${c.text}`);
    if (c.fix && c.status !== 'ok') lines.push(`        ${''.padEnd(10)}  fix: ${c.fix}`);
  }
  lines.push(r.problems === 0 ? 'ready for lanes' : `${r.problems} problem${r.problems === 1 ? '' : 's'}`);
  return lines.join('\n') + '\n';
}
