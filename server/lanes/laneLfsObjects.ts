// git-lfs objects a lane made in its repository of its own (laneGitRepo.ts). git-lfs keeps
// them in `<common git dir>/lfs/objects/<o[0:2]>/<o[2:4]>/<oid>` and reads the project's
// through objects/info/alternates; a lane's new ones are in its own lfs/ only, which goes
// with its reap. So reap (after the refs) copies each one the project lacks into the
// project's store, checked first: a regular file, not a link, named by the sha256 of its
// content, as git-lfs would have written it. Anything else the lane left there is not
// copied (it could be anything: the lane writes that folder).
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

const OID = /^[0-9a-f]{64}$/;

/** Copies the lane's new git-lfs objects into the project's store; returns how many it copied. */
export async function copyLaneLfsObjects(laneRepo: string, projectCommon: string): Promise<number> {
  const from = path.join(laneRepo, 'lfs', 'objects');
  const into = path.join(projectCommon, 'lfs', 'objects');
  if (!isDir(from) || !isDir(path.join(projectCommon, 'lfs'))) return 0;
  let copied = 0;
  for (const a of names(from))
    for (const b of names(path.join(from, a)))
      for (const oid of names(path.join(from, a, b))) {
        if (!OID.test(oid) || oid.slice(0, 2) !== a || oid.slice(2, 4) !== b) continue;
        const src = path.join(from, a, b, oid);
        const dest = path.join(into, a, b, oid);
        if (fs.existsSync(dest) || !(await isObject(src, oid))) continue;
        fs.mkdirSync(path.dirname(dest), { recursive: true });
        const tmp = `${dest}.svc-${process.pid}.tmp`;
        // COPYFILE_EXCL: a new file, never one a link names; the check above read a regular file.
        fs.copyFileSync(src, tmp, fs.constants.COPYFILE_EXCL);
        if (!(await isObject(tmp, oid))) {
          fs.rmSync(tmp, { force: true });
          continue;
        }
        fs.renameSync(tmp, dest);
        copied++;
      }
  return copied;
}

function isDir(p: string): boolean {
  return fs.lstatSync(p, { throwIfNoEntry: false })?.isDirectory() === true;
}

/** The entries of a real folder (never through a link). */
function names(dir: string): string[] {
  return isDir(dir) ? fs.readdirSync(dir) : [];
}

/** Whether `file` is a regular file (not a link, FIFO or device) whose sha256 is `oid`. */
async function isObject(file: string, oid: string): Promise<boolean> {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return false;
    const hash = crypto.createHash('sha256');
    await new Promise<void>((resolve, reject) =>
      fs
        .createReadStream('', { fd, autoClose: false })
        .on('data', (d) => hash.update(d))
        .on('end', resolve)
        .on('error', reject),
    );
    return hash.digest('hex') === oid;
  } catch {
    return false;
  } finally {
    fs.closeSync(fd);
  }
}
