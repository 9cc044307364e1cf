// Debian's chromium driven by playwright-core (never `playwright install`), its own files in
// the given home: the e2e suite, the Roles page test and the demo's screenshots use it.
import * as fs from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

const CHROMIUM = process.env.SVC_E2E_CHROMIUM ?? '/usr/bin/chromium';

export async function launchBrowser(home: string): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} not found: apt-get install chromium (scripts/ciE2e.sh does)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    // The browser's own files go to the given (scratch) home, never the real one.
    env: { ...process.env, HOME: home },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}
