// The release workflow (.github/workflows/release.yml) cannot run here: it needs GitHub's
// runners and the Marketplace's tokens. What can be held here is that it packs exactly
// svc's platforms (shared/node/supportedNode.json), each on a native runner of that
// platform, with the unit tier, every supported Node's SQLite module and a --target
// package per job, on a Node svc supports; and that it publishes what the jobs packed to
// the Marketplace, Open VSX and a GitHub release with the repository's secrets.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import supported from '../../shared/node/supportedNode.json';

const REPO = path.join(__dirname, '..', '..');
const workflow = YAML.parse(fs.readFileSync(path.join(REPO, '.github', 'workflows', 'release.yml'), 'utf8')) as {
  on: { push: { tags: string[] } };
  jobs: Record<
    string,
    {
      needs?: string;
      'runs-on': string;
      strategy?: { matrix: { include: { target: string; runner: string }[] } };
      steps: { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string> }[];
    }
  >;
};

/** GitHub-hosted runner labels and what they run on (docs.github.com, "GitHub-hosted runners"). */
function runnerPlatform(label: string): string | undefined {
  if (/^ubuntu-\d+\.\d+-arm$/.test(label)) return 'linux-arm64';
  if (/^ubuntu-\d+\.\d+$/.test(label)) return 'linux-x64';
  if (label === 'macos-13') return 'darwin-x64';
  if (/^macos-1[4-9]$/.test(label)) return 'darwin-arm64';
  if (/^windows-\d{4}$/.test(label)) return 'win32-x64';
  return undefined;
}

describe('the release workflow (.github/workflows/release.yml)', () => {
  const pack = workflow.jobs.package;
  const include = pack.strategy!.matrix.include;
  const runs = pack.steps.map((s) => s.run ?? '');

  it('runs on a version tag', () => {
    assert.deepEqual(workflow.on.push.tags, ['v*']);
  });

  it('packs every supported platform, and only those, each on a native runner of that platform', () => {
    assert.deepEqual(
      include.map((m) => m.target),
      supported.platforms,
    );
    for (const m of include) assert.equal(runnerPlatform(m.runner), m.target, `${m.target} runs on ${m.runner}`);
    assert.equal(pack['runs-on'], '${{ matrix.runner }}');
  });

  it('builds on a supported Node, runs the unit tier, builds every supported Node’s module, then packs for the job’s target', () => {
    const node = pack.steps.find((s) => s.uses?.startsWith('actions/setup-node@'))?.with?.['node-version'];
    assert.ok(
      supported.node.some((n) => n.ci === node),
      `setup-node installs ${String(node)}, not one of ${supported.node.map((n) => n.ci).join(', ')}`,
    );
    const at = (cmd: string) => runs.indexOf(cmd);
    assert.ok(at('npm ci') >= 0);
    assert.ok(at('npm run test:unit') > at('npm ci'));
    assert.ok(at('npm run build -- --every-node') > at('npm run test:unit'));
    assert.ok(at('npm run package -- --target ${{ matrix.target }} --no-build') > at('npm run build -- --every-node'));
    const upload = pack.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    assert.equal(upload?.with?.path, 'out/svc-${{ matrix.target }}-*.vsix');
  });

  it('publishes what every job packed to the Marketplace, Open VSX and a GitHub release, with the repository’s secrets', () => {
    const pub = workflow.jobs.publish;
    assert.equal(pub.needs, 'package');
    const step = (pattern: RegExp) => pub.steps.find((s) => pattern.test(s.run ?? ''));
    assert.equal(step(/^vsce publish /)?.env?.VSCE_PAT, '${{ secrets.VSCE_PAT }}');
    assert.equal(step(/ovsx publish /)?.env?.OVSX_PAT, '${{ secrets.OVSX_PAT }}');
    assert.match(step(/^gh release create /)?.run ?? '', /out\/\*\.vsix/);
    const download = pub.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'));
    assert.equal(download?.with?.pattern, 'vsix-*');
  });
});
