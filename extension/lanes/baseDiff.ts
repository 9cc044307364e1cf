// Compare with Base: VS Code's multi-file diff editor over a lane's worktree against the
// commit it was created from, through VS Code's own git extension (its `git:` documents
// give the left side, the files on disk the right), so the diff reads and navigates like
// any other change list. The extension runs git nowhere itself.
import * as vscode from 'vscode';
import { NothingToDo } from '../errors/errorFunnel';

/** The parts of the git extension's API (extensions/git/src/api/git.d.ts, version 1) used here. */
interface GitChange {
  readonly uri: vscode.Uri;
  readonly originalUri: vscode.Uri;
  readonly status: number;
}
interface GitRepository {
  diffWith(ref: string): Promise<GitChange[]>;
}
interface GitApi {
  openRepository(root: vscode.Uri): Promise<GitRepository | null>;
  toGitUri(uri: vscode.Uri, ref: string): vscode.Uri;
}
interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

// The git extension's Status values with nothing on one side: added or untracked (no
// original), deleted (no file on disk).
const NO_ORIGINAL = new Set([1 /* INDEX_ADDED */, 7 /* UNTRACKED */, 9 /* INTENT_TO_ADD */]);
const NO_MODIFIED = new Set([2 /* INDEX_DELETED */, 6 /* DELETED */]);

async function gitApi(): Promise<GitApi> {
  const ext = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!ext)
    throw new NothingToDo('VS Code\'s built-in Git extension is not available: enable "Git" (vscode.git) to compare');
  const exports = ext.isActive ? ext.exports : await ext.activate();
  if (!exports.enabled) throw new NothingToDo('Git is turned off in VS Code (git.enabled): turn it on to compare');
  return exports.getAPI(1);
}

/**
 * Opens the changes editor titled `title` over `dir` (a worktree) against `base`: every
 * file that differs between the commit and the files on disk, committed or not (files git
 * does not track are not in its diff).
 */
export async function compareWorktreeWithCommit(title: string, dir: string, base: string): Promise<number> {
  const git = await gitApi();
  const repo = await git.openRepository(vscode.Uri.file(dir));
  if (!repo) throw new NothingToDo(`git in VS Code does not see a repository at ${dir}`);
  const changes = await repo.diffWith(base);
  if (changes.length === 0) throw new NothingToDo(`${title}: no changes (the worktree is at its base)`);
  const resources = changes.map((c): [vscode.Uri, vscode.Uri | undefined, vscode.Uri | undefined] => [
    c.uri,
    NO_ORIGINAL.has(c.status) ? undefined : git.toGitUri(c.originalUri, base),
    NO_MODIFIED.has(c.status) ? undefined : c.uri,
  ]);
  await vscode.commands.executeCommand('vscode.changes', title, resources);
  return changes.length;
}
