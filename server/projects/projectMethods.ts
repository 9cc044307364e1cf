// projects/add and projects/list over projects.yaml.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Project } from '../../shared/config';
import { conflict, usageError } from '../../shared/errors';
import { projectsAdd, projectsList } from '../../shared/protocol/projects';
import type { ProjectInfo } from '../../shared/protocol/projects';
import type { App } from '../app';

export function registerProjects(app: App): void {
  app.rpc.handle(projectsList, () => ({
    projects: Object.entries(app.config.projects().projects).map(([key, p]) => toInfo(key, p)),
  }));

  app.rpc.handle(projectsAdd, (p) => {
    const dir = path.resolve(p.path);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw usageError('badPath', `project path ${dir} is not a folder`);
    const existing = app.config.projects().projects[p.key];
    if (existing) throw conflict('projectExists', `project '${p.key}' already exists at ${existing.path}`);
    const defaultBranch = p.defaultBranch ?? detectDefaultBranch(dir);
    app.config.setIn(app.paths.projects, ['projects', p.key], { path: dir, default_branch: defaultBranch });
    app.notify({ topic: 'config' });
    return toInfo(p.key, app.config.project(p.key));
  });
}

function toInfo(key: string, p: Project): ProjectInfo {
  return { key, path: p.path, defaultBranch: p.default_branch, codeHost: p.code_host, gauntlet: p.gauntlet };
}

/** origin's HEAD branch, else the checked-out branch, else `main`. */
function detectDefaultBranch(dir: string): string {
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return '';
    }
  };
  const originHead = git('symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD');
  if (originHead.startsWith('origin/')) return originHead.slice('origin/'.length);
  const remoteHead = git('ls-remote', '--symref', 'origin', 'HEAD').match(/^ref: refs\/heads\/(\S+)\tHEAD/m)?.[1];
  if (remoteHead) return remoteHead;
  return git('symbolic-ref', '--quiet', '--short', 'HEAD') || 'main';
}
