// The sandbox probe where bubblewrap cannot start (server/sandbox/sandboxProbe.ts): a
// missing bwrap, one AppArmor refuses (Ubuntu 24.04+, Debian 13), and one that fails for
// another reason each get their own reason and fix; `svc doctor` says the same.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { checkSandbox } from '../../server/doctor/sandboxCheck';
import { hostSandbox } from '../../server/hosts/helper/hostSandbox';
import { parseProbe, probeScript, sandboxCheckOf } from '../../server/hosts/hostCheck';
import { appArmorFix, probeSandbox } from '../../server/sandbox/sandboxProbe';
import { ConfigFile, ProjectsFile } from '../../shared/config';
import { REPO } from '../helpers/scratch';

const OFF = 'or run the lane unconfined with --sandbox off (per role: gauntlet.roles.<role>.sandbox: off)';

describe('sandbox probe: why bubblewrap cannot start, and what to do', () => {
  const root = path.join(REPO, '.scratch', `unit-sandbox-probe-${process.pid}`);
  const bin = path.join(root, 'bin');
  const bwrap = path.join(bin, 'bwrap');
  /** A bwrap that fails as the kernel makes the real one fail: `message` on stderr, exit 1. */
  const fakeBwrap = (message: string) =>
    fs.writeFileSync(bwrap, `#!/bin/sh\necho '${message}' >&2\nexit 1\n`, { mode: 0o755 });
  const env = () => ({ PATH: `${bin}:/usr/bin:/bin` });

  beforeEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.mkdirSync(bin, { recursive: true });
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  for (const message of [
    'bwrap: setting up uid map: Permission denied',
    'bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted',
  ])
    it(`recognises AppArmor's restriction (${message}) and offers a profile for bwrap first, then the sysctl`, async () => {
      fakeBwrap(message);
      const health = await probeSandbox(env(), 'linux');
      assert.deepEqual(health, {
        ok: false,
        reason: `AppArmor restricts unprivileged user namespaces here, so bubblewrap cannot create the sandbox (${message})`,
        fix:
          `let bubblewrap alone use user namespaces with an AppArmor profile: printf 'abi <abi/4.0>,\\ninclude <tunables/global>\\nprofile bwrap ${bwrap} flags=(unconfined) {\\n  userns,\\n}\\n' | sudo tee /etc/apparmor.d/bwrap && sudo apparmor_parser -r /etc/apparmor.d/bwrap; ` +
          `or allow them for every program: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (add it to /etc/sysctl.d/ to keep it); ${OFF}`,
      });
      const [check] = await checkSandbox(ProjectsFile.parse({}), ConfigFile.parse({}), env(), 'linux');
      assert.equal(check.status, 'problem');
      assert.equal(
        check.text,
        `lanes in the workspace sandbox (the default) cannot start: ${health.ok ? '' : health.reason}`,
      );
      assert.equal(check.fix, health.ok ? '' : health.fix);
    });

  it('names another failure as it is, with the user-namespace fix', async () => {
    fakeBwrap('bwrap: No permissions to creating new namespace');
    assert.deepEqual(await probeSandbox(env(), 'linux'), {
      ok: false,
      reason:
        "bubblewrap cannot create the sandbox's namespaces here (bwrap: No permissions to creating new namespace)",
      fix: `allow unprivileged user namespaces (sysctl -w kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 also sysctl -w kernel.apparmor_restrict_unprivileged_userns=0) ${OFF}`,
    });
  });

  it("says the same on an SSH host: svc host check's shell probe and a lane's start there", async () => {
    fakeBwrap('bwrap: setting up uid map: Permission denied');
    const reason =
      'AppArmor restricts unprivileged user namespaces there, so bubblewrap cannot create the sandbox (bwrap: setting up uid map: Permission denied)';
    // svc host check runs its probe in the host's login shell: here, sh with the fake bwrap first on PATH.
    const out = spawnSync('/bin/sh', ['-c', probeScript(root, null)], { env: env(), encoding: 'utf8' }).stdout;
    assert.deepEqual(sandboxCheckOf(parseProbe(out).bwrap, 'big'), {
      what: 'sandbox',
      status: 'problem',
      text: `${reason}: workspace lanes cannot start there`,
      fix: appArmorFix(bwrap),
    });
    const lane = { dir: root, svcBase: root, readable: [], socketDir: root, state: [], command: 'x', args: [] };
    assert.deepEqual(await hostSandbox(lane, env(), 'linux'), { ok: false, reason, fix: appArmorFix(bwrap) });
  });

  it('says how to install bubblewrap when there is none', async () => {
    assert.deepEqual(await probeSandbox({ PATH: bin }, 'linux'), {
      ok: false,
      reason: "bubblewrap (bwrap) is not installed or not on the daemon's PATH",
      fix: `install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) ${OFF}`,
    });
  });
});
