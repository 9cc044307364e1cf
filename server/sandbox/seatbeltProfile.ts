// The macOS sandbox profile (Seatbelt, run with `sandbox-exec -p`) for the same plan as
// bubblewrap's: reads allowed, writes denied, then the plan's places in order (in a
// Seatbelt profile a later matching rule wins, as a later mount does in bubblewrap).
// Hidden folders are denied to read and write; macOS has no private /tmp to mount, so the
// temporary folders are writable instead. Not run on macOS by svc's tests.
import type { Mount } from './sandboxPlan';

const quote = (p: string) => `"${p.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export function seatbeltProfile(mounts: Mount[]): string {
  const lines = [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    // The terminals and the null device every program writes to.
    '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper") (regex #"^/dev/tty") (regex #"^/dev/fd/"))',
  ];
  for (const m of mounts) {
    // Seatbelt cannot show one folder at another's place: such a bind is left out, so its
    // place stays as it is (read-only, privateGitConfig.ts), never made writable.
    if (m.kind !== 'tmpfs' && m.from) continue;
    const p = quote(m.path);
    if (m.kind === 'tmpfs') {
      if (m.path === '/tmp' || m.path.startsWith('/private/') || m.path === '/var/tmp')
        lines.push(`(allow file-write* (subpath ${p}))`);
      else lines.push(`(deny file-read* file-write* (subpath ${p}))`);
    } else if (m.kind === 'rw') lines.push(`(allow file-read* file-write* (subpath ${p}))`);
    else lines.push(`(allow file-read* (subpath ${p}))`, `(deny file-write* (subpath ${p}))`);
  }
  // The conversation's socket is a file of the plan; connecting to it is network-outbound.
  for (const m of mounts)
    if (m.kind === 'rw' && m.path.endsWith('.sock'))
      lines.push(`(allow network-outbound (remote unix-socket (path-literal ${quote(m.path)})))`);
  return lines.join('\n') + '\n';
}
