// How a GitHub host learns that a PR's head or base moved: verified `pull_request`
// webhooks (receivePullRequestEvent, from webhook.ts) and a conditional read of the open
// PRs every minute or so (poll), which catches up a delivery that never came and is
// answered 304 while nothing changed (GitHub does not count that against the rate limit).
// Each PR's base is kept (PrBases) so a base change is a new review target too.
import type { HeadChangeListener } from '../codeHost';
import { HeadEvents } from '../headEvents';
import { asGithubError } from './githubErrors';
import type { GithubClient } from './githubClient';
import type { PrBases } from './prBases';
import type { PullRequestPayload } from './webhookPayload';
import { logger } from '../../util/log';

const log = logger('github');

export class GithubHeadWatch {
  private readonly events = new HeadEvents();
  /** The open-PR list's ETag and the head each PR had when last seen (poll or webhook). */
  private etag?: string;
  private readonly seenHeads = new Map<number, string>();
  private pollTimer?: NodeJS.Timeout;
  private polling = Promise.resolve();
  private readonly repoArgs: { owner: string; repo: string };

  constructor(
    private readonly project: string,
    private readonly o: { owner: string; repo: string },
    /** Reads the open PRs (the opener's identity). */
    private readonly opener: GithubClient,
    private readonly bases: PrBases,
  ) {
    this.repoArgs = { owner: o.owner, repo: o.repo };
  }

  onHeadChange(fn: HeadChangeListener): () => void {
    return this.events.on(fn);
  }

  /** `owner/repo` of a PR head is this repository (a fork's branch may share an issue branch's name). */
  /** A PR moved to another base under the same head: a new review target (HeadChange `base_changed`). */
  private baseChanged(pr: { number: number; head: { ref: string; sha: string } }, source: 'webhook' | 'poll'): void {
    this.events.emit({
      project: this.project,
      number: pr.number,
      branch: pr.head.ref,
      before: pr.head.sha,
      after: pr.head.sha,
      source,
      action: 'base_changed',
    });
  }

  private ownHead(headRepo: { full_name: string } | null | undefined): boolean {
    return !!headRepo && headRepo.full_name.toLowerCase() === `${this.o.owner}/${this.o.repo}`.toLowerCase();
  }

  /** When PR `number`'s base last changed, if it did since svc first saw the PR. */
  baseChangedAt(number: number): string | null {
    return this.bases.get(number)?.changedAt ?? null;
  }

  /** Keeps the base PR `number` has now; true when it differs from the one kept (or `changed` says so). */
  private noteBase(number: number, base: string | undefined, at: string | undefined, changed = false): boolean {
    if (!base) return false;
    const kept = this.bases.get(number);
    if (!changed && (!kept || kept.base === base)) {
      if (!kept) this.bases.set(number, base, null);
      return false;
    }
    this.bases.set(number, base, at ?? new Date().toISOString());
    return true;
  }

  /** A verified, first-seen `pull_request` delivery. Returns what was done, for the webhook's answer and log. */
  receivePullRequestEvent(
    action: string,
    payload: PullRequestPayload,
  ): 'headChange' | 'baseChange' | 'ignored' | 'fork' {
    const pr = payload.pull_request;
    // A head from another repository is never one of svc's issue branches, whatever its name.
    if (pr.head.repo !== undefined && !this.ownHead(pr.head.repo)) return 'fork';
    // Moved to another base: the diff changed under the same head, so it is a new review target.
    if (action === 'edited') {
      if (!payload.changes?.base || !this.noteBase(pr.number, pr.base?.ref, pr.updated_at, true)) return 'ignored';
      this.baseChanged(pr, 'webhook');
      return 'baseChange';
    }
    this.noteBase(pr.number, pr.base?.ref, pr.updated_at);
    let before: string | null = null;
    let after = pr.head.sha;
    if (action === 'synchronize') {
      before = payload.before ?? null;
      after = payload.after ?? pr.head.sha;
    } else if (!['opened', 'reopened', 'ready_for_review'].includes(action)) return 'ignored';
    if (before === after) return 'ignored';
    this.seenHeads.set(pr.number, after);
    this.events.emit({
      project: this.project,
      number: pr.number,
      branch: pr.head.ref,
      before,
      after,
      source: 'webhook',
      action,
    });
    return 'headChange';
  }

  /** Reads the open PRs now and every `everyMs` (conditionally), reporting heads the webhooks did not. */
  startPolling(everyMs: number): void {
    if (this.pollTimer || everyMs <= 0) return;
    this.pollTimer = setInterval(() => void this.poll(), everyMs);
    this.pollTimer.unref();
    void this.poll(); // at once too: deliveries may have been missed while the daemon was stopped
  }

  /** One conditional read of the open PRs (most recently updated first); serialized. */
  poll(): Promise<void> {
    this.polling = this.polling.then(async () => {
      let r;
      try {
        r = await this.opener.pulls.list({
          ...this.repoArgs,
          state: 'open',
          sort: 'updated',
          direction: 'desc',
          per_page: 100,
          headers: this.etag ? { 'if-none-match': this.etag } : {},
        });
      } catch (e) {
        if ((e as { status?: number }).status === 304) return; // nothing changed since the last read
        log.warn(
          `polling the open PRs of ${this.o.owner}/${this.o.repo} failed: ${asGithubError(e, 'list the open PRs').message}`,
        );
        return;
      }
      this.etag = r.headers.etag;
      for (const pr of r.data) {
        // A head from another repository, or from a fork since deleted (`repo` null), is never one of svc's branches.
        if (!this.ownHead(pr.head.repo)) continue;
        if (this.noteBase(pr.number, pr.base.ref, pr.updated_at)) {
          this.baseChanged(pr, 'poll');
        }
        const before = this.seenHeads.get(pr.number) ?? null;
        if (before === pr.head.sha) continue;
        this.seenHeads.set(pr.number, pr.head.sha);
        // Heads seen first by this poll are reported too: the review pipeline keeps one review per head.
        this.events.emit({
          project: this.project,
          number: pr.number,
          branch: pr.head.ref,
          before,
          after: pr.head.sha,
          source: 'poll',
        });
      }
    });
    return this.polling;
  }

  async close(): Promise<void> {
    clearInterval(this.pollTimer);
    await this.polling;
  }
}
