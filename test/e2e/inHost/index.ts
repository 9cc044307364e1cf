// Entry of the in-host suite: the extension host loads this (extensionTestsPath) and
// calls run(). It runs every bundled *.inhost.test.js beside it with mocha, writes a JSON
// summary to $SVC_E2E_RESULTS for the driver, and rejects on a failure (exit code 1).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

interface Summary {
  passes: string[];
  failures: { title: string; error: string }[];
  durationMs: number;
}

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 30_000, color: false, reporter: 'spec' });
  for (const f of fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.inhost.test.js'))
    .sort())
    mocha.addFile(path.join(__dirname, f));
  const summary: Summary = { passes: [], failures: [], durationMs: 0 };
  const started = Date.now();
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on('pass', (t) => summary.passes.push(t.fullTitle()));
    runner.on('fail', (t, err: Error) =>
      summary.failures.push({ title: t.fullTitle(), error: err.stack ?? String(err) }),
    );
  });
  summary.durationMs = Date.now() - started;
  const file = process.env.SVC_E2E_RESULTS;
  if (file) fs.writeFileSync(file, JSON.stringify(summary, null, 2));
  if (summary.failures.length) throw new Error(`${summary.failures.length} in-host test(s) failed`);
}
