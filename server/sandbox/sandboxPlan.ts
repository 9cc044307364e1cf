// What a sandboxed agent may touch, as an ordered list of mounts that bubblewrap applies
// as they come and the Seatbelt profile turns into rules (later, deeper rules win in both).
// Everything is readable and nothing writable unless listed here:
// - its own directory, except the `.git` file that says where its repository is;
// - what committing, fetching and pushing write in the lane's repository: the object
//   store, refs and reflogs, git-lfs's lfs/ (when there), and this worktree's own admin folder (but not the files in it
//   that point git at a repository, which the daemon's own git commands there follow, nor
//   objects/info/alternates). With `lanes.git: own` that repository is the lane's own
//   (server/lanes/laneGitRepo.ts) and nothing of the person's repository is writable; with
//   `shared` it is the person's repository itself;
// - the object store and refs of a push remote that is a local folder, for a lane on a host
//   only: a local lane pushes through svc (bin/git-remote-svc), which applies the lane ref policy;
// - the harness's own state, a private /tmp, and the conversation's own socket;
// - and SVC_HOME is hidden whole (caller.key, config.yaml with its tokens, svc.db), except
//   the files the agent must read (the script harness's script) and its socket; so are the
//   folders the sockets move to when SVC_HOME is too long for a socket path.
// The repository's hooks/, config and info/, core.hooksPath, HEAD and index of the main
// checkout, and every other worktree's admin folder stay read-only: a lane that could write
// them could make the person's next git command run its code outside the sandbox.
import * as path from 'node:path';

export interface SandboxFacts {
  /** The lane's directory. */
  cwd: string;
  svcHome: string;
  /** This worktree's admin folder (`<common>/worktrees/<lane>`) and the repository's common git dir. */
  gitDir?: string;
  commonDir?: string;
  /** Push remotes that are local folders (bare repositories) the lane writes itself, real paths: a host's lanes' (a local lane's pushes go through svc). */
  localRemotes: string[];
  /** core.hooksPath, absolute, when set. */
  hooksPath?: string;
  /** The harness's state files and folders (absolute); they exist by the time the plan is made. */
  state: string[];
  /** Files in hidden places the agent must read (the script harness's script). */
  readable: string[];
  /** The conversation's own socket, bound at the same path inside. */
  socket?: string;
  /** Folders replaced by an empty private tmpfs. */
  privateTmp: string[];
  /** Folders outside SVC_HOME that hold the daemon's sockets (or the person's), hidden like it. */
  sockets?: string[];
  /**
   * A lane repository's config folder (`at`) and the sandbox's own copy of it (`from`), shown
   * at its place inside so the lane's git can write its config (privateGitConfig.ts); bubblewrap only.
   */
  privateConfig?: { at: string; from: string };
}

/**
 * `mode`: the tmpfs's permission bits (svc's own tools refuse an SVC_HOME that is not 0700, the
 * hidden one included). `from`: a bind that shows another folder at `path` (bubblewrap only).
 */
export type Mount = { kind: 'tmpfs'; path: string; mode?: '0700' } | { kind: 'rw' | 'ro'; path: string; from?: string };

const depth = (p: string) => path.resolve(p).split(path.sep).filter(Boolean).length;

/**
 * The mounts, in the order they must be applied: the hidden folders first (a tmpfs over
 * each), then every bind from the shallowest path to the deepest, so a read-only file
 * inside a writable folder is bound after the folder and wins. `exists` says whether a
 * path is there to bind (a missing optional part is left out, never created).
 */
export function sandboxMounts(f: SandboxFacts, exists: (p: string) => boolean): Mount[] {
  const binds: Mount[] = [];
  const rw = (p: string) => binds.push({ kind: 'rw', path: p });
  const ro = (p: string) => exists(p) && binds.push({ kind: 'ro', path: p });

  rw(f.cwd);
  ro(path.join(f.cwd, '.git'));
  if (f.commonDir) {
    // lfs/: git-lfs's objects and tmp, which its hooks (post-commit, pre-push) write on a commit or push.
    for (const part of ['objects', 'refs', 'logs', 'lfs'])
      if (exists(path.join(f.commonDir, part))) rw(path.join(f.commonDir, part));
    // Which other object stores git reads as this one's (a lane repository's borrows the
    // project's, laneGitRepo.ts): svc's choice, so a lane cannot point the daemon's fetch of
    // its refs (laneGitMirror.ts) at another repository of the person's.
    ro(path.join(f.commonDir, 'objects', 'info', 'alternates'));
    // The config svc wrote stays read-only and unseen inside: the lane's git writes a copy of it.
    if (f.privateConfig) binds.push({ kind: 'rw', path: f.privateConfig.at, from: f.privateConfig.from });
    // A lane that is a clone of its own has its git dir inside its directory: the parts that run code stay read-only there too.
    if (isInside(f.commonDir, f.cwd)) for (const part of ['hooks', 'config', 'info']) ro(path.join(f.commonDir, part));
  }
  if (f.gitDir && f.gitDir !== f.commonDir) {
    rw(f.gitDir);
    for (const pointer of ['commondir', 'gitdir', 'config.worktree']) ro(path.join(f.gitDir, pointer));
  }
  for (const remote of f.localRemotes)
    for (const part of ['objects', 'refs', 'logs']) if (exists(path.join(remote, part))) rw(path.join(remote, part));
  for (const s of f.state) rw(s);
  // A hooks path inside a writable place (a folder of the worktree itself) stays read-only.
  if (f.hooksPath && binds.some((b) => b.kind === 'rw' && isInside(f.hooksPath!, b.path))) ro(f.hooksPath);
  for (const r of f.readable) ro(r);
  if (f.socket) rw(f.socket);

  const hidden: Mount[] = [
    ...f.privateTmp.map((p): Mount => ({ kind: 'tmpfs', path: p })),
    { kind: 'tmpfs', path: f.svcHome, mode: '0700' },
    ...(f.sockets ?? []).map((p): Mount => ({ kind: 'tmpfs', path: p, mode: '0700' })),
  ];
  const ordered = binds.map((b, i) => ({ b, i })).sort((x, y) => depth(x.b.path) - depth(y.b.path) || x.i - y.i);
  return [...hidden, ...dedupe(ordered.map((x) => x.b))];
}

function dedupe(ms: Mount[]): Mount[] {
  const seen = new Set<string>();
  return ms.filter((m) => {
    const k = `${m.kind}\0${m.path}\0${'from' in m ? (m.from ?? '') : ''}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
