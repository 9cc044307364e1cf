// The restore rehearsal of `reap --park` (parkDisk.ts says why it exists), with its cost in
// what converts, not in the tree or the work. A path whose checkout converts nothing (no
// eol, filter, ident or encoding attribute; no core.autocrlf) was hashed by the capture
// from the disk's own bytes, changed since HEAD or not, and the patch's verification
// proves the restore gives back that blob (parkVerify.ts: the applied patch's tree is the
// captured tree), which a checkout writes as it is: only its type and permission bits can
// differ, and one lstat shows them. Every converted path is checked out into the scratch
// folder and compared byte for byte, as the restore would write it. On a 30,000-file tree
// with 3,600 changed paths and no attributes this writes, reads and removes no file; the
// checkout of the changed paths it did before cost about a fifth of the whole park.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { joinNul, runGit, splitNul } from '../git/gitExec';
import type { GitEnv } from '../git/gitExec';
import { differs, foldersOf } from './parkDisk';

/** The attributes that make a checkout write other bytes than the blob's. */
const CONVERTING = ['text', 'eol', 'crlf', 'filter', 'ident', 'working-tree-encoding'];
/** lstat calls between two turns of the event loop, so a large tree never holds the daemon. */
const LSTAT_SLICE = 2000;

interface Entry {
  mode: string;
  path: Buffer;
}

/** The permission bits a checkout gives what it creates here (it honours the umask). */
interface CreatedModes {
  file: number;
  executable: number;
  folder: number;
}

/**
 * Rehearses restoring `tree` into `trialDir` and lists the paths whose disk state a patch
 * would not give back.
 */
export async function rehearseRestore(
  top: string,
  tree: string,
  trialDir: string,
  opts: GitEnv,
): Promise<{ differing: Buffer[] }> {
  const call = { ...opts, extra: { GIT_INDEX_FILE: `${trialDir}.index` } };
  await runGit(top, ['read-tree', tree], call);
  const entries = parseStage((await runGit(top, ['ls-files', '--stage', '-z'], call)).stdout);
  const paths = entries.map((e) => e.path);
  const converted = await convertedAtCheckout(top, paths, call);
  const checkedOut = (e: Entry) => converted === 'every path' || converted.has(e.path.toString('latin1'));
  const trialPaths = entries.filter(checkedOut).map((e) => e.path);
  fs.mkdirSync(trialDir, { recursive: true, mode: 0o700 });
  if (trialPaths.length)
    await runGit(top, ['checkout-index', '--force', '-z', '--stdin', `--prefix=${trialDir}/`], {
      ...call,
      input: joinNul(trialPaths),
    });
  const created = createdModes(`${trialDir}.modes`);
  const differing: Buffer[] = [];
  let n = 0;
  for (const folder of foldersOf(paths)) {
    if (++n % LSTAT_SLICE === 0) await turn();
    const d = lstatOf(top, folder);
    if (d?.isDirectory() && (d.mode & 0o7777) !== created.folder) differing.push(folder);
  }
  for (const e of entries) {
    if (++n % LSTAT_SLICE === 0) await turn();
    const why = checkedOut(e) ? differs(top, trialDir, e.path) : differsFromHead(top, e, created);
    if (why !== null) differing.push(e.path);
  }
  return { differing };
}

/** Why an unconverted path is not what its checkout writes (its type or bits); null when equal. */
function differsFromHead(top: string, e: Entry, created: CreatedModes): string | null {
  const d = lstatOf(top, e.path);
  if (!d || d.isDirectory()) return null; // deleted, absent (sparse), or a folder git sees as a file's place
  if (e.mode === '120000') return d.isSymbolicLink() ? null : 'type';
  if (!d.isFile()) return 'type';
  const want = e.mode === '100755' ? created.executable : created.file;
  return (d.mode & 0o7777) === want ? null : 'permission bits';
}

/**
 * The paths whose checkout (or capture) converts bytes, as the trial checkout (same index,
 * same folder) would see their attributes; every path when core.autocrlf is set to anything
 * but false (`input` converts on the capture's side: the blob holds LF where the disk holds
 * CRLF) or symlinks are written as files.
 */
async function convertedAtCheckout(
  top: string,
  paths: Buffer[],
  call: GitEnv & { extra: Record<string, string> },
): Promise<Set<string> | 'every path'> {
  const config = async (key: string) =>
    (await runGit(top, ['config', '--get', key], { ...call, okCodes: [1] })).stdout
      .toString('utf8')
      .trim()
      .toLowerCase();
  const autocrlf = await config('core.autocrlf');
  const off = ['', 'false', 'no', 'off', '0'];
  if (!off.includes(autocrlf) || off.slice(1).includes(await config('core.symlinks'))) return 'every path';
  const out = new Set<string>();
  if (paths.length === 0) return out;
  const r = await runGit(top, ['check-attr', '-z', '--stdin', ...CONVERTING], {
    ...call,
    input: joinNul(paths),
  });
  // -z: path NUL attribute NUL value NUL, for every path and attribute.
  const fields = splitNul(r.stdout);
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const value = fields[i + 2].toString('utf8');
    if (value !== 'unspecified' && value !== 'unset') out.add(fields[i].toString('latin1'));
  }
  return out;
}

/** `ls-files --stage -z`: `<mode> <object> <stage>\t<path>` NUL-separated. */
function parseStage(out: Buffer): Entry[] {
  return splitNul(out).map((rec) => {
    const tab = rec.indexOf(0x09);
    return { mode: rec.subarray(0, 6).toString('latin1'), path: rec.subarray(tab + 1) };
  });
}

/** Creates a file, an executable and a folder as git's checkout does, reads their modes, removes them. */
function createdModes(dir: string): CreatedModes {
  fs.mkdirSync(dir, { mode: 0o700 });
  try {
    const make = (name: string, mode: number) => {
      fs.writeFileSync(path.join(dir, name), '', { mode });
      return fs.lstatSync(path.join(dir, name)).mode & 0o7777;
    };
    fs.mkdirSync(path.join(dir, 'folder'), { mode: 0o777 });
    return {
      file: make('file', 0o666),
      executable: make('executable', 0o777),
      folder: fs.lstatSync(path.join(dir, 'folder')).mode & 0o7777,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function lstatOf(top: string, rel: Buffer): fs.Stats | undefined {
  return fs.lstatSync(Buffer.concat([Buffer.from(top + path.sep), rel]), { throwIfNoEntry: false });
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
