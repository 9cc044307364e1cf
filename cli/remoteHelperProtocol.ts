// The part of git's remote helper protocol (gitremote-helpers(7)) that git-remote-svc
// speaks: `capabilities`, `list` / `list for-push`, and batches of `push [+]<src>:<dst>`
// ended by a blank line, answered with `ok <dst>` or `error <dst> <why>` per ref. Pure:
// the helper (gitRemoteSvc.ts) does the reading, resolving and asking.

export interface PushLine {
  /** The local side as git names it (a ref or a commit); empty for a delete. */
  src: string;
  dst: string;
  force: boolean;
}

/** One `push` command's refspec, or undefined when it is not one. */
export function parsePushLine(line: string): PushLine | undefined {
  const m = /^push (\+?)([^:]*):(.+)$/.exec(line);
  return m ? { force: m[1] === '+', src: m[2], dst: m[3] } : undefined;
}

/** `git ls-remote` output (`<sha>\t<ref>`) as the helper's `list` answer (`<sha> <ref>`), blank-line ended. */
export function listAnswer(lsRemote: string): string {
  const lines = lsRemote
    .split('\n')
    .map((l) => /^([0-9a-f]{40,64})\t(\S+)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && !m[2].endsWith('^{}'))
    .map((m) => `${m[1]} ${m[2]}`);
  return lines.map((l) => `${l}\n`).join('') + '\n';
}

/** The answer to a push batch: one line per ref, then a blank line. Reasons are one line each. */
export function pushAnswer(results: { ref: string; ok: boolean; error?: string }[]): string {
  const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ');
  return (
    results.map((r) => (r.ok ? `ok ${r.ref}\n` : `error ${r.ref} ${oneLine(r.error ?? 'refused')}\n`)).join('') + '\n'
  );
}
