// The daemon's code hosts, one per project, built on demand from the config and rebuilt
// when its settings change. The review pipeline takes hosts and head changes from here:
//   const hosts = codeHosts(app);
//   hosts.onHeadChange((change) => …);      // every project, every source
//   const host = hosts.forProject('web');
import type { ConfigStore } from '../config/configStore';
import type { Db } from '../store/db';
import { logger } from '../util/log';
import type { PullRequest } from '../../shared/protocol/pr';
import type { CodeHost, HeadChangeListener } from './codeHost';
import { HeadEvents } from './headEvents';
import { GithubHost } from './github/githubHost';
import { withConfiguredChecks } from './configuredChecks';
import { createHost } from './hostFactory';
import type { ReviewedShas, ServiceVerdicts } from './prState';
import type { HostDeps } from './hostFactory';
import { LocalHost } from './local/localHost';
import type { RefWatcherOptions } from './local/refWatcher';

const log = logger('codehost');

interface Entry {
  signature: string;
  host: CodeHost;
  off: () => void;
}

type PrActivityListener = (pr: { project: string; number: number }) => void;

/** A project's base moved through svc (a PR merged by its code host): the new commit. */
export type BaseMovedListener = (moved: { project: string; number: number; sha: string }) => void;

export interface CodeHostsDeps {
  db: Db;
  config: ConfigStore;
  now: () => number;
  env: NodeJS.ProcessEnv;
  watch?: RefWatcherOptions;
}

/** Seconds between conditional reads of a GitHub project's open PRs (codehost.github.poll_s). */
export const DEFAULT_GITHUB_POLL_S = 60;

export class CodeHosts {
  private hosts = new Map<string, Entry>();
  private relay = new HeadEvents(false);
  private activity = new Set<PrActivityListener>();
  private baseMoved = new Set<BaseMovedListener>();
  private reviewed?: ReviewedShas;

  constructor(private readonly deps: CodeHostsDeps) {}

  forProject(key: string): CodeHost {
    const project = this.deps.config.project(key);
    const config = this.deps.config.config();
    const signature = JSON.stringify([project, config.codehost ?? null, this.deps.env.GITHUB_TOKEN ?? null]);
    const hit = this.hosts.get(key);
    if (hit && hit.signature === signature) return hit.host;
    if (hit) this.drop(key, hit);
    const hostDeps: HostDeps = { db: this.deps.db, now: this.deps.now, env: this.deps.env, watch: this.deps.watch };
    const host = this.reportingMerges(
      key,
      withConfiguredChecks(createHost(key, project, config, hostDeps), project.check_commands ?? []),
    );
    const offHead = host.onHeadChange((c) => this.relay.emit(c));
    const offActivity =
      host instanceof GithubHost ? host.onPrActivity((pr) => this.activity.forEach((fn) => fn(pr))) : () => undefined;
    const off = () => {
      offHead();
      offActivity();
    };
    this.hosts.set(key, { signature, host, off });
    if (host instanceof LocalHost) host.startWatching();
    if (host instanceof GithubHost)
      host.startPolling((config.codehost?.github?.poll_s ?? DEFAULT_GITHUB_POLL_S) * 1000);
    return host;
  }

  /** The review pipeline's record of what it reviewed (see trustReviewedShas). */
  reviewedShas(pr: PullRequest): ServiceVerdicts | undefined {
    return this.reviewed?.(pr);
  }

  /** The review pipeline tells which sha each review it posted was for: readiness trusts
   *  that over the host's commit_id (docs/codehost.md). One provider; a second replaces it. */
  trustReviewedShas(fn: ReviewedShas): void {
    this.reviewed = fn;
  }

  /** Head changes of every project's host. */
  onHeadChange(fn: HeadChangeListener): () => void {
    return this.relay.on(fn);
  }

  /** Comments or reviews changed on a PR (GitHub webhooks): its readiness may have changed. */
  onPrActivity(fn: PrActivityListener): () => void {
    this.activity.add(fn);
    return () => this.activity.delete(fn);
  }

  /** A project's base moved through a merge svc made (mergePullRequest): builders may now conflict with it. */
  onBaseMoved(fn: BaseMovedListener): () => void {
    this.baseMoved.add(fn);
    return () => this.baseMoved.delete(fn);
  }

  /** Every merge that succeeds through `host` is reported to onBaseMoved's listeners; a listener that throws is logged. */
  private reportingMerges(project: string, host: CodeHost): CodeHost {
    const merge = host.mergePullRequest.bind(host);
    host.mergePullRequest = async (number, opts) => {
      const result = await merge(number, opts);
      for (const fn of [...this.baseMoved]) {
        try {
          fn({ project, number, sha: result.sha });
        } catch (e) {
          log.error('base moved listener failed', e);
        }
      }
      return result;
    };
    return host;
  }

  /** The GitHub host of the project configured with this `owner/repo`. */
  githubHostForRepo(fullName: string): GithubHost | undefined {
    for (const [key, p] of Object.entries(this.deps.config.projects().projects)) {
      if (p.code_host !== 'github' || !p.github) continue;
      if (`${p.github.owner}/${p.github.repo}`.toLowerCase() !== fullName.toLowerCase()) continue;
      const host = this.forProject(key);
      return host instanceof GithubHost ? host : undefined;
    }
    return undefined;
  }

  /** At daemon start: watch the remotes of local projects (reporting what moved while
   *  stopped) and poll GitHub's open PRs (catching up webhooks that never came). */
  startWatching(): void {
    let projects: string[];
    try {
      projects = Object.keys(this.deps.config.projects().projects);
    } catch (e) {
      log.warn('cannot read projects.yaml; no remote is watched', e);
      return;
    }
    for (const key of projects) {
      try {
        this.forProject(key);
      } catch (e) {
        log.warn(`project ${key}: code host unavailable: ${(e as Error).message}`);
      }
    }
  }

  async close(): Promise<void> {
    for (const [key, e] of this.hosts) this.drop(key, e);
  }

  private drop(key: string, e: Entry): void {
    e.off();
    this.hosts.delete(key);
    void e.host.close();
  }
}
