// issues/new, list, show, start, done (shared/protocol/issues.ts).
import { errorMessage } from '../../shared/errors';
import { issuesDone, issuesList, issuesNew, issuesShow, issuesStart } from '../../shared/protocol/issues';
import type { App } from '../app';
import { uniqueName } from '../conversations/names';
import { START_WAIT_MS } from '../conversations/conversationMethods';
import { lanesRootOf } from '../lanes/lanesRoot';
import { logger } from '../util/log';
import { finishIssue } from './done';
import type { DoneDeps } from './done';
import { issueBranch, issueId, workAgentName, workspaceDir } from './issueIds';
import { issueInfo } from './issueInfo';
import { workAgentRunningError } from './issueRefusals';
import { workBrief } from './workBrief';
import { createWorkspace } from './workspace';

const log = logger('issues');

export function registerIssueMethods(app: App, deps: DoneDeps): void {
  const { conv, issues } = deps;
  // One creation at a time per project: the number is taken, the worktree made, then the row written.
  const creating = new Map<string, Promise<unknown>>();

  app.rpc.handle(issuesNew, (p) => {
    const project = app.config.project(p.project);
    const run = async () => {
      const number = issues.nextNumber(p.project);
      const id = issueId(p.project, number);
      const dir = workspaceDir(lanesRootOf(project), id);
      await createWorkspace(project, dir, issueBranch(id));
      const row = issues.insert({
        project: p.project,
        number,
        title: p.title,
        body: p.body ?? '',
        workspace: dir,
        createdAt: app.now(),
      });
      log.info(`issue ${row.id} created: workspace ${dir} on ${row.branch}`);
      app.notify({ topic: 'reviews', id: row.id });
      return issueInfo(conv, row);
    };
    const prev = creating.get(p.project) ?? Promise.resolve();
    const next = prev.then(run, run);
    creating.set(
      p.project,
      next.catch(() => undefined),
    );
    return next;
  });

  app.rpc.handle(issuesList, (p) => ({ issues: issues.all(p.project).map((r) => issueInfo(conv, r)) }));
  app.rpc.handle(issuesShow, (p) => issueInfo(conv, issues.resolve(p.issue)));

  app.rpc.handle(issuesStart, async (p, ctx) => {
    const issue = issues.resolve(p.issue);
    const name = workAgentName(issue.id);
    const existing = conv.store.byName(name);
    if (existing) {
      if (existing.endedAt === null && existing.spawnError === null) {
        throw workAgentRunningError(issue.id, { id: existing.id, name });
      }
      // The name belongs to the newest work agent; the earlier one keeps its transcript under another.
      const old = uniqueName(`${name}.prev`, (n) => conv.store.nameTaken(n));
      app.db.prepare('UPDATE conversations SET name = ? WHERE id = ?').run(old, existing.id);
      try {
        conv.archive(existing.id);
      } catch (e) {
        log.warn(`earlier work agent #${existing.id} not archived: ${errorMessage(e)}`);
      }
    }
    const project = app.config.project(issue.project);
    const row = conv.create({
      kind: 'agent',
      name,
      title: `${issue.id}: ${issue.title}`,
      project: issue.project,
      cwd: issue.workspace,
      harness: p.harness,
      model: p.model,
      effort: p.effort,
      issueId: issue.id,
      prompt: workBrief(issue, `origin/${project.default_branch}`),
      extraEnv: { SVC_ISSUE: issue.id },
    });
    const outcome = p.noWait ? ('notWaited' as const) : await conv.waitStarted(row.id, START_WAIT_MS, ctx.signal);
    return { issue: issueInfo(conv, issue), outcome };
  });

  app.rpc.handle(issuesDone, async (p) => {
    const out = await finishIssue(app, deps, p);
    return { ...out, issue: issueInfo(conv, out.row) };
  });
}
