// Which `node` runs the daemon: the setting `svc.nodePath`, else a supported Node found
// on PATH or in the folders of the version managers people use (nvm, fnm, volta). Never
// the editor's own runtime (Electron on the desktop): better-sqlite3 is built for Node,
// once per supported Node (shared/node/supportedNode.json). Several Nodes on one machine
// are common (a system node 18 on PATH, 22 under nvm): the first supported one wins, and
// the choice says why. Listing and choosing are pure over their inputs so unit tests
// drive them without VS Code; probing (`node --version`) is the only side effect.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isSupportedMajor, majorsInWords, nodeFix, supportedMajors } from '../../shared/node/supportedNode';

export type NodeSource = 'svc.nodePath' | 'PATH' | 'nvm' | 'fnm' | 'volta';

export interface NodeCandidate {
  path: string;
  source: NodeSource;
}

export interface ProbedNode extends NodeCandidate {
  /** `node --version` (`v22.3.0`), or undefined when it did not answer. */
  version: string | undefined;
}

export type NodeChoice =
  | { ok: true; path: string; source: NodeSource; version: string; why: string }
  | { ok: false; problem: string; fix: string };

export type NodeLookup = { ok: true; candidates: NodeCandidate[] } | { ok: false; problem: string; fix: string };

export interface NodeLookupInput {
  setting: string | undefined;
  pathEnv: string | undefined;
  platform: NodeJS.Platform;
  /** The user's home folder and environment (NVM_DIR, FNM_DIR, VOLTA_HOME, XDG_DATA_HOME). */
  home: string;
  env: NodeJS.ProcessEnv;
  /** The editor's runtime, excluded when it is not a plain Node. */
  ownRuntime?: string;
  isExecutable(file: string): boolean;
  /** Entries of a folder, [] when it does not exist. */
  listDir(dir: string): string[];
}

const SETTING_FIX = 'set "svc.nodePath" to the absolute path of a node binary';

/** Every node worth asking, in order of preference: the setting alone when set; else PATH in order, then the version managers' installs, newest first. */
export function lookupNode(i: NodeLookupInput): NodeLookup {
  const setting = i.setting?.trim();
  if (setting) {
    if (!path.isAbsolute(setting))
      return {
        ok: false,
        problem: `"svc.nodePath" is ${JSON.stringify(setting)}, not an absolute path`,
        fix: SETTING_FIX,
      };
    if (!i.isExecutable(setting))
      return { ok: false, problem: `"svc.nodePath" is ${setting}, which is not an executable file`, fix: SETTING_FIX };
    return { ok: true, candidates: [{ path: setting, source: 'svc.nodePath' }] };
  }
  const seen = new Set<string>();
  const candidates: NodeCandidate[] = [];
  const add = (file: string, source: NodeSource) => {
    if (seen.has(file) || file === i.ownRuntime || !i.isExecutable(file)) return;
    seen.add(file);
    candidates.push({ path: file, source });
  };
  const win = i.platform === 'win32';
  for (const dir of (i.pathEnv ?? '').split(win ? ';' : ':')) {
    if (dir) for (const name of win ? ['node.exe', 'node.cmd'] : ['node']) add(path.join(dir, name), 'PATH');
  }
  const exe = win ? 'node.exe' : path.join('bin', 'node');
  for (const { source, root, inside } of managerFolders(i)) {
    for (const v of newestFirst(i.listDir(root))) add(path.join(root, v, inside, exe), source);
  }
  return { ok: true, candidates };
}

/** Where nvm, fnm and volta keep one folder per installed Node version. */
function managerFolders(i: NodeLookupInput): { source: NodeSource; root: string; inside: string }[] {
  const win = i.platform === 'win32';
  const local = i.env.LOCALAPPDATA ?? path.join(i.home, 'AppData', 'Local');
  const fnmDefault =
    i.platform === 'darwin'
      ? path.join(i.home, 'Library', 'Application Support', 'fnm')
      : win
        ? path.join(i.env.APPDATA ?? path.join(i.home, 'AppData', 'Roaming'), 'fnm')
        : path.join(i.env.XDG_DATA_HOME ?? path.join(i.home, '.local', 'share'), 'fnm');
  return [
    win
      ? { source: 'nvm', root: i.env.NVM_HOME ?? path.join(local, 'nvm'), inside: '' }
      : { source: 'nvm', root: path.join(i.env.NVM_DIR ?? path.join(i.home, '.nvm'), 'versions', 'node'), inside: '' },
    { source: 'fnm', root: path.join(i.env.FNM_DIR ?? fnmDefault, 'node-versions'), inside: 'installation' },
    {
      source: 'volta',
      root: path.join(
        i.env.VOLTA_HOME ?? (win ? path.join(local, 'Volta') : path.join(i.home, '.volta')),
        'tools',
        'image',
        'node',
      ),
      inside: '',
    },
  ];
}

/** Version folder names (`v22.3.0` or `22.3.0`), newest first; other names are left out. */
function newestFirst(names: string[]): string[] {
  const parse = (n: string) => /^v?(\d+)\.(\d+)\.(\d+)$/.exec(n)?.slice(1).map(Number);
  return names
    .filter((n) => parse(n))
    .sort((a, b) => {
      const [x, y] = [parse(a)!, parse(b)!];
      return y[0] - x[0] || y[1] - x[1] || y[2] - x[2];
    });
}

/** The major version from `node --version` output (`v20.19.1`), or undefined. */
export function parseNodeMajor(versionOutput: string): number | undefined {
  const m = /^v(\d+)\.\d+\.\d+/.exec(versionOutput.trim());
  return m ? Number(m[1]) : undefined;
}

/** The first candidate whose Node svc supports, saying why it was chosen; else what was found and the fix. */
export function chooseNode(probed: ProbedNode[]): NodeChoice {
  const majors = supportedMajors();
  const supports = `svc supports Node ${majorsInWords(majors)}`;
  const describe = (n: ProbedNode) =>
    `${n.path} (${n.source}) ${n.version ? `is Node ${n.version}` : 'did not answer "node --version"'}`;
  const fits = (n: ProbedNode) => {
    const major = n.version === undefined ? undefined : parseNodeMajor(n.version);
    return major !== undefined && isSupportedMajor(major);
  };
  const setting = probed.find((n) => n.source === 'svc.nodePath');
  if (setting) {
    if (fits(setting))
      return {
        ok: true,
        path: setting.path,
        source: setting.source,
        version: setting.version!,
        why: 'set by "svc.nodePath"',
      };
    const what = setting.version ? `which is Node ${setting.version}` : 'which did not answer "node --version"';
    return {
      ok: false,
      problem: `"svc.nodePath" is ${setting.path}, ${what}; ${supports}`,
      fix: `set "svc.nodePath" to the node binary of Node ${majorsInWords(majors, 'or')}, or clear it to let svc look on PATH and in nvm, fnm and volta folders`,
    };
  }
  const chosen = probed.find(fits);
  if (!chosen) {
    const found = probed.length
      ? probed.map(describe).join('; ')
      : 'no node was found on PATH or in nvm, fnm or volta folders';
    return { ok: false, problem: `no supported Node was found: ${found}; ${supports}`, fix: nodeFix(majors) };
  }
  const passed = probed.slice(0, probed.indexOf(chosen));
  const why =
    chosen.source === 'PATH' && !passed.length
      ? 'the first node on PATH'
      : `the first supported Node (${supports}): ${passed.map(describe).join('; ')}`;
  return { ok: true, path: chosen.path, source: chosen.source, version: chosen.version!, why };
}

/** Runs `<node> --version` for the candidates in order until one is supported: what chooseNode needs to choose and to say why. */
export async function probeUntilSupported(candidates: NodeCandidate[]): Promise<ProbedNode[]> {
  const probed: ProbedNode[] = [];
  for (const c of candidates) {
    const out = await new Promise<string>((resolve) => {
      execFile(
        c.path,
        ['--version'],
        { timeout: 10_000, env: { ...process.env, ELECTRON_RUN_AS_NODE: undefined } },
        (err, stdout) => resolve(err ? '' : stdout),
      );
    });
    const major = parseNodeMajor(out);
    probed.push({ ...c, version: major === undefined ? undefined : out.trim() });
    if (major !== undefined && isSupportedMajor(major)) break;
  }
  return probed;
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

export function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** The editor's runtime when it is not a plain Node (Electron), to keep it out of the lookup. */
export function editorRuntime(): string | undefined {
  return process.versions.electron ? process.execPath : undefined;
}
