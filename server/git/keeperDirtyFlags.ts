// The dirty flags of lanes with a repository of their own (`lanes.git: own`): the plain
// reading (plainDirtyFlags.ts), with each answer kept by the facts keeper (factsKeeper.ts),
// a process that outlives the daemon. So the first `lane list` after a daemon restart
// answers each lane nothing changed in since its last read from the keeper, without git;
// only lanes that changed (or that the keeper does not watch) run their `git status`.
// Without a keeper (it could not start, it is slow, the platform has none) every read is
// the plain one.
import type { DirtyFlags, FactsUnavailable } from './dirtyFlags';
import { factsUnavailable } from './dirtyFlags';
import type { GitFacts } from './git';
import { gitContextStamp } from './gitContextStamp';
import { keeperSocketOf } from './factsKeeperProtocol';
import { FACTS_TIMEOUT_MS } from './gitExec';
import { KeeperLink } from './keeperLink';
import { PlainDirtyFlags } from './plainDirtyFlags';

export class KeeperDirtyFlags implements DirtyFlags {
  /** Lanes answered from the keeper so far (tests and benches read it). */
  recalled = 0;

  constructor(
    readonly plain: PlainDirtyFlags,
    private readonly link: KeeperLink | undefined,
  ) {}

  /** `repo` is the lanes' own repository (its git dir), which the keeper watches with each worktree. */
  async ofRepo(repo: string, dirs: string[]): Promise<Map<string, GitFacts | FactsUnavailable>> {
    const link = this.link;
    if (!link) return this.plain.ofRepo(repo, dirs);
    const context = gitContextStamp();
    const out = new Map<string, GitFacts | FactsUnavailable>();
    const recalled = await link.request({ op: 'recall', dirs, context }).catch(() => undefined);
    if (recalled && 'facts' in recalled)
      for (const dir of dirs) {
        const f = recalled.facts[dir];
        if (f) out.set(dir, f);
      }
    this.recalled += out.size;
    const rest = dirs.filter((d) => !out.has(d));
    if (rest.length === 0) return out;
    // Each watch is in place before the git commands it vouches for start.
    const gens = new Map<string, number>();
    await Promise.all(
      rest.map(async (dir) => {
        const a = await link.request({ op: 'watch', dir, commonDir: repo }).catch(() => undefined);
        if (a && 'gen' in a) gens.set(dir, a.gen);
      }),
    );
    const found = await this.plain.ofRepo(repo, rest, { fresh: true });
    for (const [dir, f] of found) {
      out.set(dir, f);
      const gen = gens.get(dir);
      if (gen !== undefined && !factsUnavailable(f))
        void link.request({ op: 'keep', dir, gen, facts: f, context }).catch(() => undefined);
    }
    return out;
  }

  forget(dir: string): void {
    this.plain.forget(dir);
    void this.link?.request({ op: 'forget', dir }).catch(() => undefined);
  }

  close(): void {
    this.plain.close();
    this.link?.close();
  }
}

/**
 * The dirty flags the daemon reads own-repository lanes with: kept by a keeper beside the
 * daemon's socket, or plain where there is none (Windows) or SVC_FACTS_KEEPER=0 says so
 * (the bench's comparison).
 */
export function ownRepoDirtyFlags(
  daemonSocket: string,
  home: string,
  onLateAnswer?: (dir: string) => void,
): KeeperDirtyFlags {
  const off = process.platform === 'win32' || process.env.SVC_FACTS_KEEPER === '0';
  return new KeeperDirtyFlags(
    new PlainDirtyFlags({ onLateAnswer }),
    off ? undefined : new KeeperLink(keeperSocketOf(daemonSocket), home, FACTS_TIMEOUT_MS),
  );
}
