// Compare with Base: VS Code's changes editor (the multi-file diff) over a lane's worktree
// against the commit it was created from: the base's text on the left, served from git by
// an `svc-base:` document provider, the files on disk on the right. VS Code's own git
// extension cannot serve the left side: it opens no repository outside the window's
// folders (`git.openRepositoryInParentFolders`), and a lane's worktree is one. The
// extension host runs where the worktrees are (a remote window's too), so git runs there.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { NothingToDo } from '../errors/errorFunnel';

const SCHEME = 'svc-base';

function gitOut(dir: string, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-C', dir, ...args],
      { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } },
      (err, stdout, stderr) => {
        if (err)
          reject(new Error(`git ${args.join(' ')} in ${dir} failed: ${stderr.toString('utf8').trim() || err.message}`));
        else resolve(stdout);
      },
    );
  });
}

let provider: vscode.Disposable | undefined;

/** The `svc-base:` documents: a file's text at a commit (`?dir=&sha=&path=`). */
function ensureProvider(): void {
  provider ??= vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
    async provideTextDocumentContent(uri) {
      const q = new URLSearchParams(uri.query);
      const out = await gitOut(q.get('dir')!, ['show', `${q.get('sha')!}:${q.get('path')!}`]);
      return out.toString('utf8');
    },
  });
}

/** The file at `rel` as it was at `sha`. */
function baseUri(dir: string, sha: string, rel: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: SCHEME,
    // The file's own path: the editor then shows one name, not a rename from another path.
    path: path.join(dir, rel),
    query: new URLSearchParams({ dir, sha, path: rel }).toString(),
  });
}

/** NUL-separated fields of `git … -z` output. */
const fields = (b: Buffer) => b.toString('utf8').split('\0').filter(Boolean);

/**
 * Opens the changes editor titled `title` over `dir` (a worktree) against `base`: every
 * file that differs between the commit and the files on disk, committed or not, new files
 * git does not track yet included. Returns how many files differ.
 */
export async function compareWorktreeWithCommit(title: string, dir: string, base: string): Promise<number> {
  ensureProvider();
  const [diff, untracked] = await Promise.all([
    gitOut(dir, ['diff', '--name-status', '--no-renames', '-z', base, '--']),
    gitOut(dir, ['ls-files', '--others', '--exclude-standard', '-z']),
  ]);
  const resources: [vscode.Uri, vscode.Uri | undefined, vscode.Uri | undefined][] = [];
  const parts = fields(diff);
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [status, rel] = [parts[i], parts[i + 1]];
    const file = vscode.Uri.file(path.join(dir, rel));
    if (status === 'A') resources.push([file, undefined, file]);
    else if (status === 'D') resources.push([file, baseUri(dir, base, rel), undefined]);
    else resources.push([file, baseUri(dir, base, rel), file]);
  }
  for (const rel of fields(untracked)) {
    const file = vscode.Uri.file(path.join(dir, rel));
    resources.push([file, undefined, file]);
  }
  if (resources.length === 0) throw new NothingToDo(`${title}: no changes (the worktree is at its base)`);
  await vscode.commands.executeCommand('vscode.changes', title, resources);
  return resources.length;
}
