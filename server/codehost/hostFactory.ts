// Builds a project's code host from projects.yaml (`code_host`, `remote`, `github`) and
// config.yaml (`codehost.*`). Refusals say which setting to change.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConfigFile, Project } from '../../shared/config';
import type { Db } from '../store/db';
import type { CodeHost } from './codeHost';
import {
  githubNotConfiguredError,
  noGithubTokenError,
  noRemoteError,
  remoteNotBareError,
  remoteNotLocalError,
} from './codehostRefusals';
import { GithubHost } from './github/githubHost';
import { storedPrBases } from './github/prBases';
import { isBareRepo } from './local/bareRepo';
import { LocalHost } from './local/localHost';
import type { RefWatcherOptions } from './local/refWatcher';

export const DEFAULT_LOCAL_USER = 'svc';

export interface HostDeps {
  db: Db;
  now: () => number;
  env: NodeJS.ProcessEnv;
  watch?: RefWatcherOptions;
}

export function createHost(key: string, project: Project, config: ConfigFile, deps: HostDeps): CodeHost {
  if (project.code_host === 'github') {
    if (!project.github) throw githubNotConfiguredError(key);
    const gh = config.codehost?.github;
    const token = nonEmpty(deps.env.GITHUB_TOKEN) ?? nonEmpty(gh?.token);
    if (!token) throw noGithubTokenError(key);
    return new GithubHost({
      project: key,
      owner: project.github.owner,
      repo: project.github.repo,
      token,
      reviewerToken: nonEmpty(gh?.reviewer_token),
      mergeMethod: gh?.merge_method,
      login: gh?.login,
      baseUrl: project.github.api_url,
      defaultBase: project.default_branch,
      bases: storedPrBases(deps.db, key),
    });
  }
  const user = config.codehost?.local?.user ?? DEFAULT_LOCAL_USER;
  return new LocalHost({
    db: deps.db,
    project: key,
    gitDir: localRemote(key, project),
    defaultBase: project.default_branch,
    user,
    reviewer: config.codehost?.local?.reviewer ?? user,
    now: deps.now,
    watch: deps.watch,
  });
}

const nonEmpty = (s: string | undefined) => (s && s.trim() !== '' ? s.trim() : undefined);

/** The bare repository behind the project's remote (default `origin`): a path or file:// URL. */
export function localRemote(key: string, project: Project): string {
  const remote = project.remote ?? 'origin';
  let url: string;
  try {
    url = execFileSync('git', ['-C', project.path, 'remote', 'get-url', '--', remote], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } catch {
    throw noRemoteError(key, project.path, remote);
  }
  let dir: string | undefined;
  if (url.startsWith('file://')) dir = fileURLToPath(url);
  else if (path.isAbsolute(url)) dir = url;
  else if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !/^[^/]+:/.test(url)) dir = path.resolve(project.path, url);
  if (!dir) throw remoteNotLocalError(key, remote, url);
  if (!fs.existsSync(dir) || !isBareRepo(dir)) throw remoteNotBareError(key, remote, dir);
  return fs.realpathSync(dir);
}
