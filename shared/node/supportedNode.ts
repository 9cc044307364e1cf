// The supported Node versions (supportedNode.json beside this file is the one list) and
// the words every refusal uses for them, so the daemon, the shim and the extension say
// the same thing.
import table from './supportedNode.json';

export interface SupportedNode {
  major: number;
  /** process.versions.modules of that major (NODE_MODULE_VERSION). */
  abi: number;
  /** The exact release CI installs from the npm registry. */
  ci: string;
  /** Set once the major is past its end of life (still shipped while listed). */
  endOfLife?: string;
}

export const SUPPORTED_NODE: readonly SupportedNode[] = table.node;

/** Where a build keeps the better-sqlite3 binary of one platform and ABI, relative to dist/. */
export function nativeBinaryPath(platform: string, arch: string, abi: number | string): string {
  return table.binary.replace('{platform}', platform).replace('{arch}', arch).replace('{abi}', String(abi));
}

export function supportedMajors(): number[] {
  return SUPPORTED_NODE.map((n) => n.major);
}

export function isSupportedMajor(major: number): boolean {
  return SUPPORTED_NODE.some((n) => n.major === major);
}

/** "20, 22, 24 and 26" (conjunction "and"), or "20, 22, 24 or 26". */
export function majorsInWords(majors: readonly number[], conjunction: 'and' | 'or' = 'and'): string {
  if (majors.length <= 1) return majors.join('');
  return `${majors.slice(0, -1).join(', ')} ${conjunction} ${majors[majors.length - 1]}`;
}

/** The fix every "this Node will not do" message ends with. */
export function nodeFix(majors: readonly number[]): string {
  return `install Node.js ${majorsInWords(majors, 'or')} and put it first on PATH, or set "svc.nodePath" (VS Code) to its node binary`;
}
