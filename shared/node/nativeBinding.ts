// Which better-sqlite3 binary the daemon loads. A build ships one per supported Node ABI
// (dist/native, scripts/buildNative.mjs) and the daemon takes the one built for the Node
// it runs on; when none fits it refuses in words that name that Node, the versions svc
// supports and the fix. Pure over its inputs, so the refusals are unit-tested exactly.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SVC_VERSION } from '../version';
import { SUPPORTED_NODE, majorsInWords, nativeBinaryPath, nodeFix } from './supportedNode';

export interface BindingInput {
  /** The folder of dist/daemon.js. */
  distDir: string;
  platform: string;
  arch: string;
  /** process.versions.modules */
  abi: string;
  /** process.version */
  nodeVersion: string;
  /** process.execPath */
  execPath: string;
  exists(file: string): boolean;
}

/** A refusal is one line: what is wrong, then the fix (`message` is both, as the daemon prints it). */
export type BindingChoice = { ok: true; file: string } | { ok: false; problem: string; fix: string; message: string };

const unusable = (problem: string, fix: string): BindingChoice => ({
  ok: false,
  problem,
  fix,
  message: `${problem}; ${fix}`,
});

export function chooseNativeBinding(i: BindingInput): BindingChoice {
  const fileFor = (abi: number | string) => path.join(i.distDir, nativeBinaryPath(i.platform, i.arch, abi));
  const node = `Node ${i.nodeVersion} (${i.execPath})`;
  const supported = SUPPORTED_NODE.find((n) => String(n.abi) === i.abi);
  if (supported && i.exists(fileFor(i.abi))) return { ok: true, file: fileFor(i.abi) };
  const all = SUPPORTED_NODE.map((n) => n.major);
  if (!supported) {
    return unusable(
      `svc cannot run on ${node}: svc supports Node ${majorsInWords(all)}, and its SQLite module (better-sqlite3) is built for those only, not for this Node's ABI ${i.abi}`,
      nodeFix(all),
    );
  }
  const shipped = SUPPORTED_NODE.filter((n) => i.exists(fileFor(n.abi))).map((n) => n.major);
  const target = `${i.platform}-${i.arch}`;
  const where = `${target} in ${path.join(i.distDir, path.dirname(nativeBinaryPath(i.platform, i.arch, i.abi)))}`;
  if (!shipped.length) {
    // A package for another platform (the .vsix is per platform): the one for this machine is the fix.
    return unusable(
      `svc cannot run on ${node}: this svc package has no SQLite module (better-sqlite3) for ${where}, so it was built for another platform`,
      `install svc for ${target}: the Marketplace or Open VSX installs it by itself, or take ${packageFileName(target)} from svc's releases (code --install-extension <file>); from a clone, run "npm run build" on this machine`,
    );
  }
  return unusable(
    `svc cannot run on ${node}: this build of svc has no SQLite module (better-sqlite3) for Node ${supported.major} on ${where}, only for Node ${majorsInWords(shipped)}`,
    `run "npm run build" with this Node (or "npm run build -- --every-node" for Node ${majorsInWords(all)}), or ${nodeFix(shipped)}`,
  );
}

/** The release's .vsix for one platform (vsce's name for a --target package). */
export function packageFileName(target: string): string {
  return `svc-${target}-${SVC_VERSION}.vsix`;
}

/** The choice for the running process. */
export function bindingForThisNode(distDir: string): BindingChoice {
  return chooseNativeBinding({
    distDir,
    platform: process.platform,
    arch: process.arch,
    abi: process.versions.modules,
    nodeVersion: process.version,
    execPath: process.execPath,
    exists: (f) => fs.existsSync(f),
  });
}
