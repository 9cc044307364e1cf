// Which `node` runs the daemon: the setting `svc.nodePath`, else `node` on PATH. Never
// the editor's own runtime (Electron on the desktop): better-sqlite3 is built for Node.
// The lookup is pure over its inputs so unit tests drive it without VS Code.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const MIN_NODE_MAJOR = 20;

export type NodeLookup =
  | { ok: true; path: string; source: 'svc.nodePath' | 'PATH' }
  | { ok: false; problem: string; fix: string };

export interface NodeLookupInput {
  setting: string | undefined;
  pathEnv: string | undefined;
  platform: NodeJS.Platform;
  /** The editor's runtime, excluded when it is not a plain Node. */
  ownRuntime?: string;
  isExecutable(file: string): boolean;
}

const FIX = `install Node.js ${MIN_NODE_MAJOR} or newer and put it on PATH, or set "svc.nodePath" to the node binary`;

export function lookupNode(i: NodeLookupInput): NodeLookup {
  const setting = i.setting?.trim();
  if (setting) {
    if (!path.isAbsolute(setting)) return { ok: false, problem: `"svc.nodePath" is ${JSON.stringify(setting)}, not an absolute path`, fix: 'set "svc.nodePath" to the absolute path of a node binary' };
    if (!i.isExecutable(setting)) return { ok: false, problem: `"svc.nodePath" is ${setting}, which is not an executable file`, fix: 'set "svc.nodePath" to the absolute path of a node binary' };
    return { ok: true, path: setting, source: 'svc.nodePath' };
  }
  const names = i.platform === 'win32' ? ['node.exe', 'node.cmd'] : ['node'];
  const sep = i.platform === 'win32' ? ';' : ':';
  for (const dir of (i.pathEnv ?? '').split(sep)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (candidate === i.ownRuntime) continue;
      if (i.isExecutable(candidate)) return { ok: true, path: candidate, source: 'PATH' };
    }
  }
  return { ok: false, problem: 'no node was found on PATH', fix: FIX };
}

/** The major version from `node --version` output (`v20.19.1`), or undefined. */
export function parseNodeMajor(versionOutput: string): number | undefined {
  const m = /^v(\d+)\.\d+\.\d+/.exec(versionOutput.trim());
  return m ? Number(m[1]) : undefined;
}

/** Runs `<node> --version` and checks it; the lookup result when it is usable. */
export async function checkNode(found: Extract<NodeLookup, { ok: true }>): Promise<NodeLookup> {
  const out = await new Promise<string>((resolve) => {
    execFile(found.path, ['--version'], { timeout: 10_000, env: { ...process.env, ELECTRON_RUN_AS_NODE: undefined } }, (err, stdout) => resolve(err ? '' : stdout));
  });
  const major = parseNodeMajor(out);
  const where = `${found.path} (from ${found.source})`;
  if (major === undefined) return { ok: false, problem: `${where} did not answer "node --version"`, fix: FIX };
  if (major < MIN_NODE_MAJOR) return { ok: false, problem: `${where} is Node ${out.trim()}; svc needs ${MIN_NODE_MAJOR} or newer`, fix: FIX };
  return found;
}

export function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The editor's runtime when it is not a plain Node (Electron), to keep it out of the lookup. */
export function editorRuntime(): string | undefined {
  return process.versions.electron ? process.execPath : undefined;
}
