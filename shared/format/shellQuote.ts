// Words quoted for a POSIX shell (sh, bash, zsh), for commands svc prints or hands to a
// shell. The one place svc quotes: every printed command and every ssh command line uses it.
// Pure.

/** `word` in single quotes, always: for command lines built for a shell, never shown as typed. */
export function singleQuoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** One word for a command a person reads: plain words stay bare, anything else is single-quoted. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return singleQuoted(word);
}
