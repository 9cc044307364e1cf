// Fixtures of the review pipeline tests: a project `web` with a local bare origin (the
// local code host), the script harness scripting every agent the daemon writes prompts
// for (work agent, review parent / quick agent, four lanes) through `scripts:` globs, and
// per-issue control files under $HOME/ctl/<ISSUE>/ that tell each scripted reviewer what
// to do: a verdict (APPROVED, CHANGES_REQUESTED, FAILED), DIE (its agent process is
// killed without a report), HANG (it never finishes) or PLAIN (APPROVED, its verdict a
// plain `Verdict:` line). `<lane>.<runId>` overrides `<lane>` for one run; the parent
// also takes AUTO (the strictest lane verdict; PLAIN is AUTO on a plain line) and BADFILE
// (writes a synthesis.md without Convoy Notes and dies without posting); the quick-mode
// agent's `quick` file takes a verdict or HANG (`quick.<runId>` for one run). `<lane>.findings` (a lane) and
// `quick.findings` (the quick agent) hold the text of a `## Findings` section that reviewer
// writes after its Blockers (docs/review-findings.md).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import type { IssueInfo } from '../../shared/protocol/issues';
import type { PrDetail } from '../../shared/protocol/pr';
import type { IssueState, JournalEntry } from '../../shared/protocol/review';
import { eventually, makeRepo, makeScratch } from '../helpers/scratch';
import type { RunResult, Scratch } from '../helpers/scratch';

export interface WorldOptions {
  mode?: 'quick' | 'full' | 'none';
  /** The local host's reviewer identity; default `svc-reviewer` (formal reviews). `svc` = the PR author → marker path. */
  reviewer?: string;
  checkCommands?: string[];
  /** Leave out roles.review models (to test the refusal). */
  noModels?: boolean;
  /** The project on GitHub (a local fake): API root and webhook secret. */
  github?: {
    apiUrl: string;
    secret: string;
    /** codehost.github.poll_s (default here: 0, off). */ pollS?: number;
    /** codehost.github.reviewer_token: reviews are written by this identity (default: the main token's). */ reviewerToken?: string;
  };
  /** roles.review.debounce in seconds (default here: 0, a review per push). */
  debounce?: number;
  /** Extra environment for every svc call and so the daemon (e.g. GITHUB_TOKEN). */
  env?: NodeJS.ProcessEnv;
}

export interface World {
  s: Scratch;
  repo: string;
  origin: string;
  ok(args: string[], opts?: { env?: NodeJS.ProcessEnv; cwd?: string }): Promise<string>;
  fail(args: string[], opts?: { env?: NodeJS.ProcessEnv; cwd?: string }): Promise<RunResult>;
  configure(o: WorldOptions): void;
  /** Creates an issue (its scripted work agent commits a feature and runs `svc done`); ctl files set first. */
  issue(title: string, ctl?: Record<string, string>): Promise<IssueInfo>;
  /** Starts the issue's work agent (it commits and runs svc done). */
  startWork(id: string): Promise<void>;
  ctl(id: string, file: string, content: string): void;
  show(id: string): Promise<IssueState>;
  kinds(id: string): JournalEntry['kind'][];
  journal(id: string): (JournalEntry & Record<string, unknown>)[];
  pr(n: number): Promise<PrDetail>;
  /** Waits until the journal holds `count` entries of `kind`. */
  waitKind(
    id: string,
    kind: string,
    count?: number,
    timeoutMs?: number,
  ): Promise<JournalEntry & Record<string, unknown>>;
  /** Waits until all four lanes have stopped and `reports` of them wrote a report (the others died). */
  waitLanesSettled(id: string, reports: number): Promise<void>;
  daemonLog(): string;
}

const LANE_SH = `c=$(cat "$HOME/ctl/$SVC_ISSUE/$SVC_REVIEW_LANE.$SVC_REVIEW_RUN" 2>/dev/null || cat "$HOME/ctl/$SVC_ISSUE/$SVC_REVIEW_LANE" 2>/dev/null || echo APPROVED)
case "$c" in
  DIE) kill -TERM $PPID; sleep 5; exit 0;;
  HANG) sleep 100000; exit 0;;
esac
h='# '
if [ "$c" = PLAIN ]; then c=APPROVED; h=''; fi
if [ "$c" = CHANGES_REQUESTED ]; then b="1. $SVC_REVIEW_LANE: fix feature.txt line 1"; else b=None.; fi
f="$HOME/ctl/$SVC_ISSUE/$SVC_REVIEW_LANE.findings"
{ printf "$h"'Verdict: %s\\n\\n## Summary\\n%s reviewed %s in run %s\\n\\n## Blockers\\n%s\\n\\n' "$c" "$SVC_REVIEW_LANE" "$SVC_REVIEW_SHA" "$SVC_REVIEW_RUN" "$b"
  if [ -f "$f" ]; then printf '## Findings\\n\\n'; cat "$f"; printf '\\n\\n'; fi
  printf '## Evidence\\ngit diff %s %s\\n' "$SVC_REVIEW_BASE" "$SVC_REVIEW_SHA"
} > "$SVC_REVIEW_REPORT"
`;

const PARENT_SH = `d="$HOME/ctl/$SVC_ISSUE"
c=$(cat "$d/parent.$SVC_REVIEW_RUN" 2>/dev/null || cat "$d/parent" 2>/dev/null || echo AUTO)
if [ "$SVC_REVIEW_LANE" = quick ]; then
  v=$(cat "$d/quick.$SVC_REVIEW_RUN" 2>/dev/null || cat "$d/quick" 2>/dev/null || echo APPROVED)
  if [ "$v" = HANG ]; then sleep 100000; exit 0; fi
  { printf '# Verdict: %s\\n\\n## Summary\\nquick pass over %s\\n\\n## Blockers\\nNone.\\n\\n' "$v" "$SVC_REVIEW_SHA"
    if [ -f "$d/quick.findings" ]; then printf '## Findings\\n\\n'; cat "$d/quick.findings"; printf '\\n\\n'; fi
    printf '## Evidence\\nread the diff\\n'
  } > "$SVC_REVIEW_REPORT"
  svc review post "$SVC_ISSUE" --run "$SVC_REVIEW_RUN" > "$d/post-$SVC_REVIEW_RUN.out" 2>&1
else
  svc review wait > "$d/wait-$SVC_REVIEW_RUN.out" 2>&1
  echo "exit $?" >> "$d/wait-$SVC_REVIEW_RUN.out"
  case "$c" in
    DIE) kill -TERM $PPID; sleep 5;;
    HANG) sleep 100000;;
    BADFILE)
      printf '# Verdict: APPROVED\\n\\n## Summary\\nall fine\\n\\n## Blockers\\nNone.\\n\\n## Evidence\\nread\\n' > "$SVC_REVIEW_REPORT"
      kill -TERM $PPID; sleep 5;;
    *)
      h='# '
      if [ "$c" = PLAIN ]; then c=AUTO; h=''; fi
      if [ "$c" = AUTO ]; then
        if grep -q '^# Verdict: CHANGES_REQUESTED' "$SVC_REVIEW_DIR"/*.md; then v=CHANGES_REQUESTED; else v=APPROVED; fi
      else v=$c; fi
      { printf "$h"'Verdict: %s\\n\\n## Summary\\nconvoy review of %s at %s\\n\\n## Blockers\\n' "$v" "$SVC_ISSUE" "$SVC_REVIEW_SHA"
        grep -h '^1\\. ' "$SVC_REVIEW_DIR"/*.md || echo None.
        printf '\\n## Evidence\\nthe four lane reports\\n\\n## Convoy Notes\\n'
        for f in "$SVC_REVIEW_DIR"/*.md; do printf -- '- %s: %s\\n' "$(basename "$f" .md)" "$(head -1 "$f")"; done
      } > "$SVC_REVIEW_REPORT.tmp"
      mv "$SVC_REVIEW_REPORT.tmp" "$SVC_REVIEW_REPORT"
      svc review post "$SVC_ISSUE" --run "$SVC_REVIEW_RUN" > "$d/post-$SVC_REVIEW_RUN.out" 2>&1;;
  esac
fi
`;

/** The work agent: first the feature and `svc done` (after trying to open the PR itself,
 *  which only a person may do directly); on a review (a tell): fix, commit, push. */
const WORK_SH = `if [ "$(git rev-list --count origin/main..HEAD)" = 0 ]; then
  printf 'feature of %s\\n' "$SVC_ISSUE" > feature.txt && git add feature.txt && git commit -qm 'feature' && {
    svc pr create --project web --branch "$(git branch --show-current)" --title mine > "$HOME/ctl/$SVC_ISSUE/pr-create.out" 2>&1; echo "exit $?" >> "$HOME/ctl/$SVC_ISSUE/pr-create.out"
    svc done > "$HOME/ctl/$SVC_ISSUE/done.out" 2>&1
  }
else
  printf 'fix %s\\n' "$(date +%s%N)" >> feature.txt && git commit -qam 'address review' && git push -q origin HEAD > "$HOME/ctl/$SVC_ISSUE/fix.out" 2>&1
fi
`;

export async function reviewWorld(name: string, o: WorldOptions = {}): Promise<World> {
  const s = makeScratch(name);
  Object.assign(s.env, o.env ?? {});
  const { dir, origin } = makeRepo(s, 'web');
  const scripts = path.join(s.home, 'scripts');
  fs.mkdirSync(scripts, { recursive: true });
  fs.mkdirSync(path.join(s.home, 'ctl'), { recursive: true });
  fs.writeFileSync(path.join(scripts, 'lane.sh'), LANE_SH);
  fs.writeFileSync(path.join(scripts, 'parent.sh'), PARENT_SH);
  fs.writeFileSync(path.join(scripts, 'lane.yaml'), YAML.stringify([{ run: '. "$HOME/scripts/lane.sh"' }]));
  fs.writeFileSync(path.join(scripts, 'parent.yaml'), YAML.stringify([{ run: '. "$HOME/scripts/parent.sh"' }]));
  fs.writeFileSync(path.join(scripts, 'work.sh'), WORK_SH);
  fs.writeFileSync(path.join(scripts, 'work.yaml'), YAML.stringify([{ run: '. "$HOME/scripts/work.sh"' }]));

  const ok = async (args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) => {
    const r = await s.svc(args, opts);
    assert.equal(r.code, 0, `svc ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
    return r.stdout;
  };
  const configure = (c: WorldOptions) => {
    // debounce 0: every push starts its review at once, as these tests expect (the quiet window has its own test).
    const review: Record<string, unknown> = {
      mode: c.mode ?? 'full',
      harness: 'script',
      debounce: c.debounce ?? 0,
    };
    if (!c.noModels) {
      review.model = 'parent-model';
      review.sub = {
        security: { model: 'sec-model' },
        correctness: { model: 'cor-model' },
        performance: { model: 'perf-model' },
        requirements: { model: 'req-model' },
      };
    }
    const config = {
      harnesses: {
        script: {
          scripts: {
            'agent-*-review-*': path.join(scripts, 'lane.yaml'),
            'agent-*-review': path.join(scripts, 'parent.yaml'),
            'agent-*': path.join(scripts, 'work.yaml'),
          },
        },
      },
      roles: { review },
      // The poll that catches up lost webhooks is off unless a test asks for it: webhook tests want only their deliveries.
      codehost: {
        local: { reviewer: c.reviewer ?? 'svc-reviewer' },
        ...(c.github
          ? {
              github: {
                webhook_secret: c.github.secret,
                poll_s: c.github.pollS ?? 0,
                ...(c.github.reviewerToken ? { reviewer_token: c.github.reviewerToken } : {}),
              },
            }
          : {}),
      },
    };
    fs.mkdirSync(s.svcHome, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(s.svcHome, 'config.yaml'), YAML.stringify(config));
    const projectsFile = path.join(s.svcHome, 'projects.yaml');
    if (fs.existsSync(projectsFile)) {
      const doc = YAML.parse(fs.readFileSync(projectsFile, 'utf8')) as {
        projects: Record<string, Record<string, unknown>>;
      };
      if (c.checkCommands) doc.projects.web.check_commands = c.checkCommands;
      else delete doc.projects.web.check_commands;
      if (c.github)
        Object.assign(doc.projects.web, {
          code_host: 'github',
          github: { owner: 'acme', repo: 'web', api_url: c.github.apiUrl },
        });
      else {
        delete doc.projects.web.github;
        delete doc.projects.web.code_host;
      }
      fs.writeFileSync(projectsFile, YAML.stringify(doc));
    }
  };
  configure(o);
  await ok(['project', 'add', 'web', dir]);
  configure(o);

  const journal = (id: string) => {
    const file = path.join(`${dir}-lanes`, `issue-${id.toLowerCase()}`, '.svc', 'pipeline.jsonl');
    if (!fs.existsSync(file)) return [];
    return fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as JournalEntry & Record<string, unknown>);
  };
  const w: World = {
    s,
    repo: dir,
    origin,
    ok,
    fail: async (args, opts = {}) => {
      const r = await s.svc(args, opts);
      assert.notEqual(r.code, 0, `svc ${args.join(' ')} should have failed\nstdout: ${r.stdout}`);
      return r;
    },
    configure,
    ctl(id, file, content) {
      const d = path.join(s.home, 'ctl', id);
      fs.mkdirSync(d, { recursive: true });
      fs.writeFileSync(path.join(d, file), content);
    },
    async issue(title, ctl = {}) {
      const body = `Acceptance criteria:\n1. ${title} works.\n2. It is tested.\n`;
      const info = JSON.parse(
        await ok(['issue', 'new', '--project', 'web', '--title', title, '--body', body, '--json']),
      ) as IssueInfo;
      w.ctl(info.id, 'checks-go', '');
      for (const [k, v] of Object.entries(ctl)) w.ctl(info.id, k, v);
      return info;
    },
    async startWork(id) {
      await ok(['issue', 'start', id, '--harness', 'script', '--model', 'work-model']);
    },
    async show(id) {
      return JSON.parse(await ok(['show', id, '--json', '--lines', '100'])) as IssueState;
    },
    kinds: (id) => journal(id).map((e) => e.kind),
    journal,
    async pr(n) {
      return JSON.parse(await ok(['pr', 'show', String(n), '--project', 'web', '--json'])) as PrDetail;
    },
    async waitKind(id, kind, count = 1, timeoutMs = 30_000) {
      try {
        return await eventually(
          () => journal(id).filter((e) => e.kind === kind)[count - 1],
          timeoutMs,
          `${count}× ${kind} in ${id}'s journal`,
        );
      } catch (e) {
        throw new Error(
          `${(e as Error).message}\njournal: ${JSON.stringify(journal(id), null, 1)}\nlog tail:\n${w.daemonLog().split('\n').slice(-40).join('\n')}`,
        );
      }
    },
    async waitLanesSettled(id, reports) {
      await eventually(
        async () => {
          const lanes = (await w.show(id)).reviewers.filter((r) => r.role !== 'parent');
          return (
            lanes.length === 4 &&
            lanes.every((r) => !r.alive && r.activity === 'stopped') &&
            lanes.filter((r) => r.report.exists).length === reports
          );
        },
        30_000,
        `four stopped lanes, ${reports} with reports`,
      );
    },
    daemonLog: () => {
      const f = path.join(s.svcHome, 'logs', 'daemon.log');
      return fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '';
    },
  };
  return w;
}
