// One word quoted for a POSIX shell (sh, bash, zsh), for commands svc prints or hands to a
// shell: plain words stay bare for readability, anything else goes in single quotes. Pure.

export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
