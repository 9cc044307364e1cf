// A pause for the crash tests: a daemon started with SVC_TEST_PAUSE_AFTER_PARK=<file>
// stops a `reap --park` right after the patch is published and the tree cleaned (before
// the worktree is removed and the lane archived), writes <file> so the test knows, and
// waits there for the test's kill -9. Only once per file: a daemon started again with the
// same environment reaps on. Unset (every real daemon), it does nothing.
import * as fs from 'node:fs';

export async function pauseAfterParkForFaultTest(): Promise<void> {
  const marker = process.env.SVC_TEST_PAUSE_AFTER_PARK;
  if (!marker || process.env.SVC_TEST_CLOCK !== '1' || fs.existsSync(marker)) return;
  fs.writeFileSync(marker, `${process.pid}\n`);
  await new Promise<never>(() => undefined);
}
