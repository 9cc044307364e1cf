// A git config the lane's own git can write and nothing outside the sandbox ever reads.
//
// Git writes a repository's config on its own now and then (`git push -u` records the
// upstream, `git branch -u`, `git config`), by making `config.lock` beside the file and
// renaming it over. A lane's repository config must stay out of the lane's reach: every git
// the daemon runs in the lane reads it, and a config can name programs (core.fsmonitor,
// filters, core.hooksPath) that would run with the person's rights. So in a lane repository
// of its own (server/lanes/laneGitRepo.ts) `config` is a link svc made to `svc/config`, the
// file svc wrote and everything outside reads; inside the sandbox `svc/` is covered by
// `svc-sandbox/`, a copy svc makes afresh at each start of the agent. Git follows the link
// when it locks the file, so the lane's writes go to its copy and succeed; the daemon never
// reads the copy, and it is thrown away at the next start.
//
// Only bubblewrap can show one folder at another's place; under macOS's Seatbelt the config
// stays read-only and git's "could not lock config file" after `git push -u` remains.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The folder of a lane repository holding the config svc wrote (`config` links to its `config`). */
export const SVC_CONFIG_DIR = 'svc';
/** The folder of the sandbox's own copy, shown at SVC_CONFIG_DIR's place inside. */
export const SANDBOX_CONFIG_DIR = 'svc-sandbox';

/** The link a lane repository's `config` is (relative, so the repository can be read from anywhere). */
export const CONFIG_LINK = path.join(SVC_CONFIG_DIR, 'config');

/**
 * Makes the sandbox's copy of `commonDir`'s config afresh (when the repository has the
 * layout above) and returns the folder to show at SVC_CONFIG_DIR's place; undefined for any
 * other repository. The old copy goes whole first: whatever the last agent left there (a
 * link included) is removed, never written through.
 */
export function freshSandboxConfig(commonDir: string): string | undefined {
  const own = path.join(commonDir, SVC_CONFIG_DIR);
  let link: string;
  try {
    link = fs.readlinkSync(path.join(commonDir, 'config'));
  } catch {
    return undefined;
  }
  if (link !== CONFIG_LINK || !fs.lstatSync(own, { throwIfNoEntry: false })?.isDirectory()) return undefined;
  const copy = path.join(commonDir, SANDBOX_CONFIG_DIR);
  fs.rmSync(copy, { recursive: true, force: true });
  fs.mkdirSync(copy, { mode: 0o700 });
  // 'wx': a new file, never one a link names.
  fs.writeFileSync(path.join(copy, 'config'), fs.readFileSync(path.join(own, 'config')), { flag: 'wx', mode: 0o600 });
  return copy;
}
