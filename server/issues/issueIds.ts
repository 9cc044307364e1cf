// Issue ids: `<PROJECT>-<n>` (the project key upper-cased, a counter per project). Agent
// names, the branch and the workspace use the id lower-cased: `agent-web-7`, `issue/web-7`,
// `<lanes root>/issue-web-7`.
import * as path from 'node:path';
import { badIssueIdError } from './issueRefusals';

const ID = /^([a-z0-9][a-z0-9-]{0,31})-(\d{1,9})$/i;

export function issueId(project: string, n: number): string {
  return `${project.toUpperCase()}-${n}`;
}

/** Normalises `web-7` / `WEB-7` to `WEB-7`; refuses anything else. */
export function normaliseIssueId(ref: string): string {
  const m = ID.exec(ref.trim());
  if (!m) throw badIssueIdError(ref);
  return `${m[1].toUpperCase()}-${Number(m[2])}`;
}

export const lower = (id: string): string => id.toLowerCase();
export const issueBranch = (id: string): string => `issue/${lower(id)}`;
export const workAgentName = (id: string): string => `agent-${lower(id)}`;

/** The issue's workspace: a worktree under the project's lanes root (review worktrees sit beside it). */
export function workspaceDir(lanesRoot: string, id: string): string {
  return path.join(lanesRoot, `issue-${lower(id)}`);
}
