// The remote gauntlet suite's first part (lanesRemote.integration.test.ts): builders and a
// critic on the host on the script harness, reporting through the forwarded socket, waited
// for, and listed with git facts read over the shared connection; a verifier's verdict file
// read there by the rules of a local lane's; and later, the script profile's scripts file
// copied to the host at each start.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import { buildAndReport, judgeAndReport, ok, startLane, tryStartLane } from '../helpers/lanes';
import { laneEnv } from '../helpers/laneEnv';
import { eventually, git } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import type { RemoteSuite } from './lanesRemoteSuite';

/** Builder i1, the critic, builder i2 from i1’s branch, and a verifier’s verdict file, on the host. */
export function gauntletOnHost(get: () => RemoteSuite): void {
  // Lanes here run in the default sandbox on the host: what a lane leaves for the test goes to its worktree's own git dir.
  it('runs builder i1 on the host: worktree from its own clone of origin, report through the forwarded socket, wait', async () => {
    const { s, w, root, lane, onHost } = get();
    const b1 = writeBrief(w.briefs, 'b1.md', [
      {
        run: `${buildAndReport('feature.txt', 'first try')} && env | grep -c '^SVC_CALLER_TOKEN=' > "$(git rev-parse --absolute-git-dir)/caller-seen"`,
        check: true,
      },
    ]);
    const r = await ok(
      tryStartLane(w, { host: 'big', run: 'r1', key: 'feat', role: 'builder', model: 'm', brief: b1 }),
    );
    const b1Lane = await lane('r1-feat-builder-i1');
    assert.equal(r.stdout, `Lane r1/feat builder i1: conv ${b1Lane.id} (r1-feat-builder-i1) in ${root}/r1-feat\n`);
    const waited = await s.svc(['lane', 'wait', 'r1-feat-builder-i1', '--timeout', '120']);
    assert.equal(waited.code, 0, waited.stderr);
    assert.equal(waited.stdout, 'built it\n');
    const head = onHost(`git -C ${root}/r1-feat rev-parse HEAD`);
    assert.equal(git(w.repo, s.env, 'ls-remote', 'origin', 'refs/heads/r1/feat').split('\t')[0], head);
    assert.equal(
      onHost(`cat "$(git -C ${root}/r1-feat rev-parse --absolute-git-dir)/caller-seen"`),
      '1',
      'the credential reached the agent on the host',
    );
    const rec = await lane('r1-feat-builder-i1');
    assert.equal(rec.host, 'big');
    assert.equal(rec.cwd, `${root}/r1-feat`);
    assert.deepEqual(rec.git, { branch: 'r1/feat', headSha: head, ahead: 0, dirty: false });
    assert.equal(rec.report?.headSha, head);
    assert.equal(rec.report?.branch, 'r1/feat');
    // Not on this machine: nothing of the lane exists in the default lanes root here.
    assert.equal(fs.existsSync(`${w.repo}-lanes`), false);
  });

  it('runs the critic on the host at the reported head; its verdict file is read there', async () => {
    const { s, w, root, lane, onHost } = get();
    const c1 = writeBrief(w.briefs, 'c1.md', [{ run: judgeAndReport('NOT_YET', 2), check: true }]);
    await startLane(w, { host: 'big', for: 'feat', role: 'critic', run: 'r1', model: 'm', brief: c1 });
    assert.equal((await s.svc(['lane', 'wait', 'r1-feat-critic-i1', '--timeout', '120'])).code, 0);
    const critic = await lane('r1-feat-critic-i1');
    assert.deepEqual([critic.host, critic.verdict?.verdict, critic.verdict?.defects], ['big', 'NOT_YET', 2]);
    assert.equal(
      onHost(`git -C ${root}/r1-feat-critic-i1 rev-parse HEAD`),
      (await lane('r1-feat-builder-i1')).report?.headSha,
    );
  });

  it('runs builder i2 from i1’s branch (resolved on the host) and lists every lane with git facts in one call per host', async () => {
    const { s, w, root, lanes, lane, onHost } = get();
    const b2 = writeBrief(w.briefs, 'b2.md', [{ run: buildAndReport('feature.txt', 'second try'), check: true }]);
    await startLane(w, { host: 'big', run: 'r1', key: 'feat', role: 'builder', model: 'm', brief: b2, replace: true });
    assert.equal((await s.svc(['lane', 'wait', 'r1-feat-builder-i2', '--timeout', '120'])).code, 0);
    const i1 = (await lane('r1-feat-builder-i1')).report!.headSha!;
    assert.equal(onHost(`git -C ${root}/r1-feat-i2 merge-base --is-ancestor ${i1} HEAD && echo yes`), 'yes');
    const show = await ok(s.svc(['lane', 'show', '--run', 'r1', '--key', 'feat']));
    assert.equal(show.stdout.split('\n')[0], 'i1 built → critic c1: NOT_YET (2 defects) → i2 built');
    const all = await lanes();
    assert.deepEqual(
      all.map((l) => [l.name, l.host, l.git?.dirty]),
      [
        ['r1-feat-builder-i1', 'big', false],
        ['r1-feat-critic-i1', 'big', false],
        ['r1-feat-builder-i2', 'big', false],
      ],
    );
  });

  // Read on the host by the rules a local lane's file is read by (server/util/laneFileRead.ts),
  // refused in the same words: before, the host read any path the judge named, link or not.
  it("takes a verifier's verdict file on the host only from its own folders, never a FIFO", async () => {
    const { s, w, root, lane, onHost } = get();
    const idle = writeBrief(w.briefs, 'vidle.md', [{ say: 'judging' }]);
    const v = await startLane(w, { host: 'big', for: 'feat', role: 'verifier', run: 'r1', model: 'm', brief: idle });
    await eventually(async () => (await lane(v.name)).activity === 'idle');
    const report = (file: string) =>
      s.svc(['lane', 'report', '--stdin', '--verdict', 'PASS', '--verdict-file', file], {
        env: laneEnv(s, { id: v.id }),
        input: 'judged\n',
      });
    const refused = async (file: string, message: string) => {
      const r = await report(file);
      assert.equal(r.code, 1, `expected exit 1, got ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
      assert.equal(r.stderr, `${message}\n`);
    };
    const builderFile = `${root}/r1-feat-i2/feature.txt`;
    await refused(
      builderFile,
      `verdict file ${builderFile} is not inside this lane's own folders (${v.cwd}); write it there`,
    );
    onHost(`mkfifo ${v.cwd}/fifo.json && printf '%s' '{"defects": []}' > ${v.cwd}/verdict.json`);
    await refused(
      `${v.cwd}/fifo.json`,
      `verdict file ${v.cwd}/fifo.json is not a regular file (a link, folder, FIFO or device is never read)`,
    );
    await ok(report(`${v.cwd}/verdict.json`));
    assert.equal((await lane(v.name)).verdict?.verdict, 'PASS');
    onHost(`rm ${v.cwd}/fifo.json ${v.cwd}/verdict.json`);
  });
}

/** A lane on the host runs the script profile's scripts file. */
export function scriptsFileOnHost(get: () => RemoteSuite): void {
  it("runs the script profile's scripts: file for a lane on the host: copied into its run folder there at each start", async () => {
    const { s, d, w, root, lane, onHost, agentsDir } = get();
    const steps = [
      { say: 'from the scripts file' },
      {
        run: `printf '%s' "$SVC_SCRIPT_FILE" > "$(git rev-parse --absolute-git-dir)/script-seen" && ${buildAndReport('scripted.txt', 'scripted', 'ran the scripts file on the host')}`,
        check: true,
      },
    ];
    fs.mkdirSync(path.join(s.svcHome, 'scripts'), { recursive: true });
    fs.writeFileSync(path.join(s.svcHome, 'scripts', 'remote.yaml'), YAML.stringify(steps));
    const config = YAML.parse(fs.readFileSync(path.join(s.svcHome, 'config.yaml'), 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(
      path.join(s.svcHome, 'config.yaml'),
      YAML.stringify({ ...config, harnesses: { script: { scripts: { 'r1-scripted-*': 'scripts/remote.yaml' } } } }),
    );
    // A brief with no svc-script block: the script agent falls back to the file of the first matching glob.
    const brief = path.join(w.briefs, 'plain.md');
    fs.writeFileSync(brief, 'Do what the scripts file says.\n');
    await startLane(w, { host: 'big', run: 'r1', key: 'scripted', role: 'builder', model: 'm', brief });
    const waited = await s.svc(['lane', 'wait', 'r1-scripted-builder-i1', '--timeout', '120']);
    assert.equal(waited.code, 0, waited.stderr);
    assert.equal(waited.stdout, 'ran the scripts file on the host\n');
    assert.match((await ok(s.svc(['conv', 'log', 'r1-scripted-builder-i1']))).stdout, /\nfrom the scripts file\n/);
    // It read a copy in its run folder on the host (not in the worktree), the same bytes as here.
    const id = (await lane('r1-scripted-builder-i1')).id;
    const seen = onHost(`cat "$(git -C ${root}/r1-scripted rev-parse --absolute-git-dir)/script-seen"`);
    assert.equal(seen, `${d.remoteHome}/${agentsDir()}/${id}/script`);
    assert.equal(
      onHost(`cat ${seen}`),
      fs.readFileSync(path.join(s.svcHome, 'scripts', 'remote.yaml'), 'utf8').trimEnd(),
    );
    assert.equal(onHost(`git -C ${root}/r1-scripted status --porcelain`), '');
  });
}
