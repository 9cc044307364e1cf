// SVC_HOME holds the store, the HTTP token and agent logs: the user's alone. Folders
// 0700, files 0600, owned by the user, no symlinks.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { singleQuoted } from '../../shared/format/shellQuote';
import type { DoctorCheck } from '../../shared/protocol/doctor';

const quote = singleQuoted;

function entries(home: string): string[] {
  const out: string[] = [];
  for (const dir of [home, path.join(home, 'logs'), path.join(home, 'agents')]) {
    let names: string[] = [];
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const n of names.sort()) {
      const p = path.join(dir, n);
      if (dir !== home || !['logs', 'agents'].includes(n)) out.push(p);
    }
  }
  return out;
}

export function checkHome(home: string): DoctorCheck[] {
  if (process.platform === 'win32') return [];
  const checks: DoctorCheck[] = [];
  const uid = process.getuid?.();
  const bad = (subject: string, text: string, fix: string) =>
    checks.push({ area: 'svcHome', subject, status: 'problem', text, fix });
  for (const dir of [home, path.join(home, 'logs'), path.join(home, 'agents')]) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(dir);
    } catch {
      continue;
    }
    if (st.isSymbolicLink() || !st.isDirectory())
      bad(dir, `${dir} is not a folder`, `remove ${quote(dir)}; svc recreates it`);
    else if ((st.mode & 0o077) !== 0)
      bad(dir, `${dir} has mode ${(st.mode & 0o777).toString(8)}; svc needs 700`, `chmod 700 ${quote(dir)}`);
    else if (uid !== undefined && st.uid !== uid)
      bad(dir, `${dir} belongs to another user (uid ${st.uid})`, `chown -R $(id -u) ${quote(home)}`);
  }
  for (const p of entries(home)) {
    const st = fs.lstatSync(p);
    if (st.isSocket()) continue;
    if (st.isSymbolicLink()) bad(p, `${p} is a symlink (svc refuses to follow links in SVC_HOME)`, `rm ${quote(p)}`);
    else if (st.isFile() && (st.mode & 0o077) !== 0)
      bad(p, `${p} has mode ${(st.mode & 0o777).toString(8)}; svc needs 600`, `chmod 600 ${quote(p)}`);
  }
  if (checks.length === 0)
    checks.push({ area: 'svcHome', subject: home, status: 'ok', text: `${home}: folders 700, files 600`, fix: null });
  return checks;
}
