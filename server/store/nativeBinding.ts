// Which better-sqlite3 binary the daemon loads. A build ships one per supported Node ABI
// (dist/native, scripts/buildNative.mjs) and the daemon takes the one built for the Node
// it runs on; when none fits it refuses in words that name that Node, the versions svc
// supports and the fix. Pure over its inputs, so the refusals are unit-tested exactly.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SUPPORTED_NODE, majorsInWords, nativeBinaryPath, nodeFix } from '../../shared/node/supportedNode';

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

export type BindingChoice = { ok: true; file: string } | { ok: false; message: string };

export function chooseNativeBinding(i: BindingInput): BindingChoice {
  const fileFor = (abi: number | string) => path.join(i.distDir, nativeBinaryPath(i.platform, i.arch, abi));
  const node = `Node ${i.nodeVersion} (${i.execPath})`;
  const supported = SUPPORTED_NODE.find((n) => String(n.abi) === i.abi);
  if (supported && i.exists(fileFor(i.abi))) return { ok: true, file: fileFor(i.abi) };
  const all = SUPPORTED_NODE.map((n) => n.major);
  if (!supported) {
    return {
      ok: false,
      message: `svc cannot run on ${node}: svc supports Node ${majorsInWords(all)}, and its SQLite module (better-sqlite3) is built for those only, not for this Node's ABI ${i.abi}; ${nodeFix(all)}`,
    };
  }
  const shipped = SUPPORTED_NODE.filter((n) => i.exists(fileFor(n.abi))).map((n) => n.major);
  const where = `${i.platform}-${i.arch} in ${path.join(i.distDir, path.dirname(nativeBinaryPath(i.platform, i.arch, i.abi)))}`;
  if (!shipped.length) {
    return {
      ok: false,
      message: `svc cannot run on ${node}: this build of svc has no SQLite module (better-sqlite3) for ${where}; run "npm run build" on a ${i.platform}-${i.arch} machine, or install the svc package built for ${i.platform}-${i.arch}`,
    };
  }
  return {
    ok: false,
    message: `svc cannot run on ${node}: this build of svc has no SQLite module (better-sqlite3) for Node ${supported.major} on ${where}, only for Node ${majorsInWords(shipped)}; run "npm run build" to build one for every supported Node (${majorsInWords(all)}), or ${nodeFix(shipped)}`,
  };
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
