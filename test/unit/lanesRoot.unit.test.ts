// The lanes root of Launch rule 7: default `<checkout>-lanes`; under home, outside /tmp,
// not containing the checkout — judged on real paths.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SvcError } from '../../shared/errors';
import { lanesRootOf } from '../../server/lanes/lanesRoot';
import type { Project } from '../../shared/config';
import type { SvcReason } from '../../shared/refusals/reasons';

const REPO = path.resolve(__dirname, '..', '..');

describe('lanes root', () => {
  const home = path.join(REPO, '.scratch', `unit-lanesroot-${process.pid}`);
  const checkout = path.join(home, 'src', 'web');
  let savedHome: string | undefined;
  const project = (lanes_root?: string): Project => ({
    path: checkout,
    default_branch: 'main',
    code_host: 'local',
    gauntlet: lanes_root ? { lanes_root } : undefined,
  });
  const refusedWith = (fn: () => unknown, reason: SvcReason, message: RegExp) => {
    assert.throws(fn, (e: unknown) => SvcError.is(e, reason) && message.test((e as Error).message));
  };

  before(() => {
    fs.mkdirSync(checkout, { recursive: true });
    savedHome = process.env.HOME;
    process.env.HOME = home;
  });
  after(() => {
    process.env.HOME = savedHome;
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('defaults to a sibling of the checkout named <dir>-lanes', () => {
    assert.equal(lanesRootOf(project()), fs.realpathSync(path.dirname(checkout)) + path.sep + 'web-lanes');
  });

  it('expands ~ and resolves relative roots against the checkout', () => {
    assert.equal(lanesRootOf(project('~/lanes')), path.join(fs.realpathSync(home), 'lanes'));
    assert.equal(lanesRootOf(project('../elsewhere')), path.join(fs.realpathSync(path.dirname(checkout)), 'elsewhere'));
  });

  it('refuses a root outside home', () => {
    refusedWith(
      () => lanesRootOf(project('/var/lanes')),
      'lanesRootOutsideHome',
      /^lanes root \/var\/lanes is not under your home /,
    );
  });

  it('refuses a root under /tmp, also when home itself is reached through /tmp', () => {
    refusedWith(() => lanesRootOf(project('/tmp/lanes')), 'lanesRootOutsideHome', /is not under your home/);
    const link = path.join(home, 'tmplink');
    fs.symlinkSync('/tmp', link);
    refusedWith(
      () => lanesRootOf(project('~/tmplink/lanes')),
      'lanesRootOutsideHome',
      /^lanes root \/tmp\/lanes is not under your home/,
    );
  });

  it('refuses a root under /tmp even when home is there (paths only; nothing is created)', () => {
    const tmpHome = `/tmp/svc-unit-home-${process.pid}-absent`;
    process.env.HOME = tmpHome;
    try {
      const p: Project = { path: `${tmpHome}/src/web`, default_branch: 'main', code_host: 'local' };
      refusedWith(
        () => lanesRootOf(p),
        'lanesRootInTmp',
        new RegExp(`^lanes root ${tmpHome}/src/web-lanes is under /tmp; `),
      );
      assert.ok(!fs.existsSync(tmpHome));
    } finally {
      process.env.HOME = home;
    }
  });

  it('refuses a root that contains the checkout', () => {
    refusedWith(() => lanesRootOf(project('..')), 'lanesRootContainsCheckout', /contains the project checkout/);
    refusedWith(() => lanesRootOf(project('.')), 'lanesRootContainsCheckout', /contains the project checkout/);
  });

  it('refuses a root inside the checkout, at any depth', () => {
    const real = fs.realpathSync(checkout);
    for (const root of ['sub', 'sub/deeper', `${checkout}/lanes`]) {
      assert.throws(
        () => lanesRootOf(project(root)),
        (e: unknown) =>
          SvcError.is(e, 'lanesRootInsideCheckout') &&
          (e as Error).message ===
            `lanes root ${path.resolve(real, root)} is inside the project checkout ${checkout}: lanes would be created in its working tree; set gauntlet.lanes_root in projects.yaml to a folder beside it (default: ${checkout}-lanes)`,
      );
    }
  });

  it('refuses home itself, or /, as a root that contains the checkout (not as one outside home)', () => {
    const contains = (root: string) =>
      new RegExp(
        `^lanes root ${root} contains the project checkout ${checkout}; choose a folder beside it \\(default: ${checkout}-lanes\\)$`,
      );
    for (const root of ['~', home, `${home}/`])
      refusedWith(() => lanesRootOf(project(root)), 'lanesRootContainsCheckout', contains(fs.realpathSync(home)));
    refusedWith(() => lanesRootOf(project('/')), 'lanesRootContainsCheckout', contains('/'));
  });

  it('refuses a root that is a dangling symlink (its target, and so its place, is unknown)', () => {
    const link = path.join(home, 'dangling-lanes');
    fs.symlinkSync(path.join(home, 'nowhere', 'gone'), link);
    refusedWith(
      () => lanesRootOf(project('~/dangling-lanes')),
      'lanesRootUnresolvable',
      new RegExp(
        `^lanes root ${link} is a symlink whose target cannot be resolved; point gauntlet.lanes_root in projects.yaml at a real folder$`,
      ),
    );
  });
});
