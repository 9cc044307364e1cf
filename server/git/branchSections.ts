// A repository config read for what it says of everything but its branches: every lane start
// writes its branch's upstream there (`[branch "<lane>"]`), which says nothing the answers kept
// from that file (a lane's git facts, an agent's git facts) depend on.
/**
 * A git config file's text without its `[branch "<name>"]` sections and blank lines, or undefined when that
 * cannot be done with certainty: a line continued with a backslash, which could make a
 * value's next line read like a section header.
 */
export function withoutBranchSections(text: string): string | undefined {
  const out: string[] = [];
  let inBranch = false;
  for (const line of text.split('\n')) {
    if (/\\\s*$/.test(line)) return undefined;
    const header = /^\s*\[/.test(line);
    if (header) inBranch = /^\s*\[branch\s+"(?:[^"\\]|\\.)*"\]\s*$/.test(line);
    if (!inBranch && line.trim() !== '') out.push(line); // blank lines mean nothing to git
  }
  return out.join('\n');
}
