// A pause for the crash test of a landing: a daemon started with
// SVC_TEST_PAUSE_AFTER_LAND_PUSH=<file> (and SVC_TEST_CLOCK=1, so only test daemons) stops a
// landing right after the base moved (the push, or GitHub's merge) and before the row is
// recorded landed, writes <file> with its pid, and waits there for the test's kill -9.
// Once per file: a daemon started again with the same environment lands on. Unset (every
// real daemon), it does nothing. The same shape as server/reap/faultPause.ts.
import * as fs from 'node:fs';

export async function pauseAfterLandPushForFaultTest(): Promise<void> {
  const marker = process.env.SVC_TEST_PAUSE_AFTER_LAND_PUSH;
  if (!marker || process.env.SVC_TEST_CLOCK !== '1' || fs.existsSync(marker)) return;
  fs.writeFileSync(marker, `${process.pid}\n`);
  await new Promise<never>(() => undefined);
}
