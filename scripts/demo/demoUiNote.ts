// What `npm run demo:ui` says before a first run's slow steps: each step and about how long
// it takes (measured on a 2-core machine), so nobody waits minutes wondering.

/** The slow steps ahead and about how long each takes; null when there are none (a later run). */
export function firstRunNote(o: { demo: boolean; codeServer: boolean }): string | null {
  const slow = [
    ...(o.demo ? ['run the demo (about 30 s)'] : []),
    ...(o.codeServer ? ['install code-server into .code-server/ (3 to 5 minutes: it compiles native modules)'] : []),
  ];
  if (!slow.length) return null;
  return `first run: it will ${slow.join(', then ')}, then package the extension (about 30 s); later runs start in under a minute.`;
}
