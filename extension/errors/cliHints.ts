// The daemon's sentences are written for the terminal and end with the command that
// helps (`; resume it with svc conv resume #3`, `; svc tell --force to message it anyway`,
// `(svc conv resume continues it)`). The window offers that remedy as a button or says it
// in words, so it shows the sentence without the command. Pure (no vscode).

/** `s` without a trailing clause or a parenthesis that names an `svc` command. */
export function withoutCliHint(s: string): string {
  return s
    .replace(/\s*\((?:see |run |with )?svc [a-z][^)]*\)/gi, '')
    .replace(/[;:]\s*[^;:]*\bsvc [a-z][^;]*$/i, '')
    .trim();
}
