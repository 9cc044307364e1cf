// A write the sandbox refused, told in words: inside a `workspace` lane every path outside
// the writable places is mounted read-only, so a command (or a repository's hook) that
// writes there fails with "Read-only file system" (EROFS), which names no sandbox. A tool
// call's output with that error gets a notice in the lane's transcript saying the sandbox
// refused it and where a lane may write. Pure.

/** Where a sandboxed lane may write (server/sandbox/sandboxPlan.ts), as the notice says it. */
export const WRITABLE_PLACES =
  "its own worktree, this worktree's git admin folder, the repository's objects, refs, logs and lfs/, a local push remote's objects and refs, its harness's own state and a private /tmp";

const EROFS = /read-only file system|\bEROFS\b/i;

/** Every text a tool call update carries: its content blocks, its raw output and streamed terminal output. */
function outputTexts(update: Record<string, unknown>): string[] {
  const texts: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 5 || v === null || v === undefined) return;
    if (typeof v === 'string') texts.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (typeof v === 'object') for (const x of Object.values(v as Record<string, unknown>)) walk(x, depth + 1);
  };
  walk(update.content, 0);
  walk(update.rawOutput, 0);
  walk(update._meta, 0);
  return texts;
}

/** The line that says a write was refused, trimmed; undefined when the update has none. */
export function refusedWriteLine(update: Record<string, unknown>): string | undefined {
  if (update.sessionUpdate !== 'tool_call_update') return undefined;
  for (const text of outputTexts(update)) {
    if (!EROFS.test(text)) continue;
    const line = text
      .split('\n')
      .find((l) => EROFS.test(l))!
      .trim();
    return line.length > 300 ? `${line.slice(0, 297)}...` : line;
  }
  return undefined;
}

export const refusedWriteNotice = (line: string): string =>
  `the sandbox refused a write (${line}): a workspace lane may write only ${WRITABLE_PLACES}; anything else is read-only inside it (a lane started with --sandbox off is not confined)`;
