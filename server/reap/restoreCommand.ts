// The exact shell commands that bring parked work back. Printed to the user and run
// verbatim by the tests, so they are quoted for a POSIX shell (sh, bash, zsh).
import { shellQuote } from '../../shared/format/shellQuote';
import { STRIP } from './patchFormat';

const q = shellQuote;

/**
 * Applies the patch to the worktree at its place, clean at the parked HEAD, then extracts
 * the exact copies a patch cannot carry (`sidecarFile`, when park wrote one).
 */
export function restoreInPlace(worktree: string, patchFile: string, sidecarFile: string | null = null): string {
  const apply = `git -C ${q(worktree)} apply --index -p${STRIP} --whitespace=nowarn ${q(patchFile)}`;
  return sidecarFile === null ? apply : `${apply} && tar -xpf ${q(sidecarFile)} -C ${q(worktree)}`;
}

export interface RecreateSpec {
  /** Where `git -C` runs `worktree add`: the main worktree, or the bare common dir. */
  repoDir: string;
  worktree: string;
  /** Recreate on this branch; null recreates a detached worktree at `head`. */
  branch: string | null;
  head: string;
  patchFile: string;
  /** The tar file of exact copies beside the patch, or null when there is none. */
  sidecarFile?: string | null;
}

/** Re-creates the removed worktree, then applies the patch there. */
export function restoreAfterRemove(s: RecreateSpec): string {
  const add =
    s.branch === null
      ? `worktree add --detach ${q(s.worktree)} ${s.head}`
      : `worktree add ${q(s.worktree)} ${q(s.branch)}`;
  return `git -C ${q(s.repoDir)} ${add} && ${restoreInPlace(s.worktree, s.patchFile, s.sidecarFile ?? null)}`;
}
