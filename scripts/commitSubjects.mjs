// CI's check of commit subjects (CONTRIBUTING "Commits"): every commit after BASELINE that
// is not a merge has a subject `area: summary` of at most 72 characters. Earlier history is
// left as it was written. In a shallow clone without BASELINE, only HEAD is checked.
import { execFileSync } from 'node:child_process';

const BASELINE = '912c7af53759f4f493d789167d5ad4360ebe43c8';
const MAX = 72;
const SHAPE = /^[a-z0-9][a-z0-9 ,./_-]*: \S/;

const git = (...args) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
let range;
try {
  git('cat-file', '-e', `${BASELINE}^{commit}`);
  range = [`${BASELINE}..HEAD`];
} catch {
  range = ['-1', 'HEAD'];
}
const lines = git('log', '--no-merges', '--format=%h %s', ...range)
  .split('\n')
  .filter(Boolean);
const bad = lines.filter((l) => {
  const subject = l.slice(l.indexOf(' ') + 1);
  return subject.length > MAX || !SHAPE.test(subject);
});
if (bad.length) {
  console.error(`commit subjects must read 'area: summary' in at most ${MAX} characters:`);
  for (const l of bad) console.error(`  ${l} (${l.length - l.indexOf(' ') - 1} characters)`);
  process.exit(1);
}
console.log(
  `commit subjects: ${lines.length} checked after ${BASELINE.slice(0, 7)}, all 'area: summary' within ${MAX}`,
);
