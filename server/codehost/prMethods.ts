// pr/list, pr/show, pr/merge, pr/review, pr/create over the project's code host.
import { errorMessage } from '../../shared/errors';
import { prCreate, prList, prMerge, prReview, prShow } from '../../shared/protocol/pr';
import type { PullRequest } from '../../shared/protocol/pr';
import type { App } from '../app';
import type { CodeHosts } from './codeHosts';
import { headMissingError, noProjectsError, projectRequiredError } from './codehostRefusals';
import { findPr, mergeIfReady, prDetail } from './prState';

/** `project`, else the project whose checkout holds `cwd`, else the only project. */
function pickProject(app: App, where: { project?: string; cwd?: string }): string | undefined {
  if (where.project) return app.config.project(where.project).key;
  if (where.cwd) {
    const p = app.config.projectForPath(where.cwd);
    if (p) return p.key;
  }
  const keys = Object.keys(app.config.projects().projects);
  return keys.length === 1 ? keys[0] : undefined;
}

function oneProject(app: App, where: { project?: string; cwd?: string }): string {
  const key = pickProject(app, where);
  if (key) return key;
  const keys = Object.keys(app.config.projects().projects);
  if (keys.length === 0) throw noProjectsError();
  throw projectRequiredError(keys);
}

export function registerPrMethods(app: App, hosts: CodeHosts): void {
  app.rpc.handle(prList, async (p) => {
    const key = pickProject(app, p);
    const keys = key ? [key] : Object.keys(app.config.projects().projects);
    const prs: PullRequest[] = [];
    const errors: { project: string; error: string }[] = [];
    for (const k of keys) {
      try {
        prs.push(...(await hosts.forProject(k).listPullRequests({ state: p.state ?? 'open' })));
      } catch (e) {
        if (key) throw e;
        errors.push({ project: k, error: errorMessage(e) });
      }
    }
    return { prs, errors };
  });

  app.rpc.handle(prShow, async (p) => {
    const host = hosts.forProject(oneProject(app, p));
    const pr = await findPr(host, p.pr);
    return prDetail(host, pr, hosts.reviewedShas(pr));
  });

  app.rpc.handle(prMerge, async (p) => {
    const out = await mergeIfReady(hosts.forProject(oneProject(app, p)), p.pr, (pr) => hosts.reviewedShas(pr));
    app.notify({ topic: 'reviews', id: `${out.pr.project}#${out.pr.number}` });
    return out;
  });

  app.rpc.handle(prReview, async (p) => {
    const host = hosts.forProject(oneProject(app, p));
    const pr = await findPr(host, p.pr);
    const sha = p.sha ?? pr.head;
    if (!sha) throw headMissingError(pr.branch, true);
    const review = await host.createReview(pr.number, { event: p.event, body: p.body ?? '', commitId: sha });
    app.notify({ topic: 'reviews', id: `${pr.project}#${pr.number}` });
    return { pr, review };
  });

  app.rpc.handle(prCreate, async (p) => {
    const pr = await hosts
      .forProject(p.project)
      .createPullRequest({ branch: p.branch, title: p.title, body: p.body, base: p.base });
    app.notify({ topic: 'reviews', id: `${pr.project}#${pr.number}` });
    return pr;
  });
}
