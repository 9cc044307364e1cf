// `npm test`'s first step: the system packages the suites need (scripts/systemPackages.json,
// which .ci/run installs from too), checked in well under a second. A missing one stops the
// run before any test, naming each and the one command that installs them all.
// `checkPrerequisites.mjs ui`: the same for `npm run demo:ui` and the e2e run, whose
// code-server compiles native modules when it installs (scripts/uiPackages.json, which
// scripts/ciE2e.sh installs from too).
// SVC_PREREQ_ROOT: the folder absolute paths and the sbin folders are looked for under
// (the unit test's scratch machine); `/` unless set.
import * as fs from 'node:fs';
import * as path from 'node:path';

const ui = process.argv[2] === 'ui';
const listFile = ui ? 'uiPackages.json' : 'systemPackages.json';
const who = ui ? 'npm run demo:ui' : 'npm test';
const list = JSON.parse(fs.readFileSync(new URL(`./${listFile}`, import.meta.url), 'utf8'));
const root = process.env.SVC_PREREQ_ROOT ?? '/';
// sshd lives in sbin, which a non-root PATH often leaves out.
const search = [
  ...(process.env.PATH ?? '').split(path.delimiter),
  path.join(root, 'usr/sbin'),
  path.join(root, 'sbin'),
];

const isFile = (p) => {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
};
const present = (p) =>
  (p.env && process.env[p.env] && isFile(process.env[p.env])) ||
  (path.isAbsolute(p.provides)
    ? isFile(path.join(root, p.provides))
    : search.some((dir) => dir && isFile(path.join(dir, p.provides))));

const missing = list.filter((p) => !present(p));
if (missing.length) {
  console.error(`${who} needs ${missing.length === 1 ? 'a system package' : 'system packages'} this machine lacks:`);
  for (const p of missing) console.error(`  ${p.package} (${p.provides}): ${p.for}`);
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  console.error(
    `Install ${missing.length === 1 ? 'it' : 'them all'} with (Debian/Ubuntu): ${sudo}apt-get install -y --no-install-recommends ${missing.map((p) => p.package).join(' ')}`,
  );
  process.exit(1);
}
console.log(`all ${list.length} system packages present (scripts/${listFile})`);
