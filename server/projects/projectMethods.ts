// projects/add and projects/list over projects.yaml.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Project } from '../../shared/config';
import { projectsAdd, projectsList } from '../../shared/protocol/projects';
import { git, GitError, isValidBranchName } from '../git/git';
import { gitTextSync } from '../git/gitExec';
import type { ProjectInfo } from '../../shared/protocol/projects';
import type { App } from '../app';
import { realOrSelf } from '../util/realPath';
import {
  badDefaultBranchError,
  badPathError,
  checkoutRegisteredError,
  notACheckout,
  projectExistsError,
} from './projectRefusals';

export function registerProjects(app: App): void {
  app.rpc.handle(projectsList, () => ({
    projects: Object.entries(app.config.projects().projects).map(([key, p]) => toInfo(key, p)),
  }));

  app.rpc.handle(projectsAdd, async (p) => {
    const dir = path.resolve(p.path);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw badPathError(dir);
    const projects = app.config.projects().projects;
    const existing = projects[p.key];
    if (existing) throw projectExistsError(p.key, existing.path);
    await checkCheckout(p.key, dir);
    const real = fs.realpathSync(dir);
    const twin = Object.entries(projects).find(([, other]) => realOrSelf(other.path) === real);
    if (twin) throw checkoutRegisteredError(dir, twin[0]);
    if (p.defaultBranch !== undefined && !(await isValidBranchName(dir, p.defaultBranch))) {
      throw badDefaultBranchError(p.defaultBranch);
    }
    const defaultBranch = p.defaultBranch ?? detectDefaultBranch(dir);
    app.config.setIn(app.paths.projects, ['projects', p.key], { path: dir, default_branch: defaultBranch });
    app.notify({ topic: 'config' });
    return toInfo(p.key, app.config.project(p.key));
  });
}

/** A project is the top folder of a git checkout: lanes are its worktrees, and its lanes
 *  root is a sibling folder, which would sit inside the checkout for a subfolder. */
async function checkCheckout(key: string, dir: string): Promise<void> {
  let top: string;
  try {
    if ((await git(dir, ['rev-parse', '--is-bare-repository'])).trim() === 'true') {
      throw notACheckout.bare(dir);
    }
    top = (await git(dir, ['rev-parse', '--show-toplevel'])).trim();
  } catch (e) {
    if (!(e instanceof GitError)) throw e;
    throw notACheckout.none(dir);
  }
  if (realOrSelf(top) !== fs.realpathSync(dir)) {
    throw notACheckout.inside(dir, top, key);
  }
}

function toInfo(key: string, p: Project): ProjectInfo {
  return { key, path: p.path, defaultBranch: p.default_branch, codeHost: p.code_host, gauntlet: p.gauntlet };
}

/** origin's HEAD branch, else the checked-out branch, else `main`. */
function detectDefaultBranch(dir: string): string {
  const git = (...args: string[]) => gitTextSync(dir, args) ?? '';
  const originHead = git('symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD');
  if (originHead.startsWith('origin/')) return originHead.slice('origin/'.length);
  const remoteHead = git('ls-remote', '--symref', 'origin', 'HEAD').match(/^ref: refs\/heads\/(\S+)\tHEAD/m)?.[1];
  if (remoteHead) return remoteHead;
  return git('symbolic-ref', '--quiet', '--short', 'HEAD') || 'main';
}
