// A gemini lane on another host (real sshd on 127.0.0.1, a dedicated user standing for the
// other machine) gets svc's gemini system defaults (the shell without a pseudo-terminal,
// so command output reaches the transcript) from a file on that host: the path set on
// this machine means nothing there. gemini itself needs the network, so the host runs
// svc's script agent under the gemini profile (its command overridden in config.yaml,
// everything else the built-in gemini's); the lane's own command reads the file.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import { laneWorld, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { git, makeScratch, REPO } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import { sshdAvailable, startSshd } from '../helpers/sshd';
import type { Sshd } from '../helpers/sshd';

describe('a gemini lane on a host: svc’s gemini defaults from a file there (real sshd)', function () {
  this.timeout(300_000);
  let s: Scratch;
  let d: Sshd;
  let w: LaneWorld;
  const rootName = `gemini-host-${process.pid}`;

  before(async function () {
    const why = sshdAvailable();
    if (why) throw new Error(why);
    s = makeScratch('gemhost');
    d = await startSshd(path.join(s.root, 'sshd'));
    d.asRemote(`rm -rf ${rootName} && mkdir -p ${rootName} && git config --global --replace-all safe.directory '*'`);
    w = await laneWorld(s);
    const origin = path.join(d.shared, `${path.basename(w.origin)}-${process.pid}`);
    fs.cpSync(w.origin, origin, { recursive: true });
    fs.rmSync(w.origin, { recursive: true });
    git(w.repo, s.env, 'remote', 'set-url', 'origin', origin);
    spawnSync('chmod', ['-R', 'a+rwX', origin]);
    // The script agent beside svc's shim on the host (the shim's folder is first on the agent's PATH).
    const agent = 'exec node "$(dirname "$(command -v svc)")/scriptAgent.js"';
    fs.writeFileSync(
      path.join(s.svcHome, 'config.yaml'),
      YAML.stringify({
        hosts: { big: { ssh: d.destination, lanes_root: `~/${rootName}`, ssh_options: d.options } },
        harnesses: { gemini: { command: 'sh', args: ['-c', agent], env: { GEMINI_API_KEY: 'not-used' } } },
      }),
    );
  });
  after(async () => {
    await s?.dispose();
    d?.asRemote(`rm -rf ${rootName}`);
    await d?.stop();
  });

  it('points GEMINI_CLI_SYSTEM_DEFAULTS_PATH at svc’s file in the host’s build folder, with the settings in it', async () => {
    // The lane runs sandboxed on the host: what it leaves for the test goes to its own git dir.
    const seenInLane = '"$(git rev-parse --absolute-git-dir)/defaults-seen"';
    const brief = writeBrief(w.briefs, 'g.md', [
      {
        run: `printf '%s\\n' "$GEMINI_CLI_SYSTEM_DEFAULTS_PATH" > ${seenInLane} && cat "$GEMINI_CLI_SYSTEM_DEFAULTS_PATH" >> ${seenInLane} && echo seen | svc lane report --stdin --allow-unpushed`,
        check: true,
      },
    ]);
    await startLane(s, {
      parent: w.rootId,
      host: 'big',
      harness: 'gemini',
      run: 'g',
      key: 'k',
      role: 'builder',
      model: 'm',
      brief,
    });
    const waited = await s.svc(['lane', 'wait', 'g-k-builder-i1', '--timeout', '120']);
    if (waited.code !== 0) {
      const log = await s.svc(['conv', 'log', 'g-k-builder-i1']);
      assert.fail(`wait: ${waited.code} ${waited.stderr}${waited.stdout}\nlog: ${log.stdout}${log.stderr}`);
    }
    const [file, ...content] = d
      .asRemote(`cat "$(git -C ${d.remoteHome}/${rootName}/g-k rev-parse --absolute-git-dir)/defaults-seen"`)
      .trimEnd()
      .split('\n');
    // In the host's own build folder (~/.svc-host/<build>/), never this machine's dist/.
    assert.match(
      file,
      new RegExp(`^${d.remoteHome.replace(/[.]/g, '\\.')}/\\.svc-host/[^/]+/gemini-system-defaults\\.json$`),
    );
    assert.equal(
      content.join('\n'),
      fs.readFileSync(path.join(REPO, 'dist', 'harness', 'gemini-system-defaults.json'), 'utf8').trimEnd(),
    );
    assert.ok(!file.startsWith(REPO), file);
  });
});
