// The version of an installed harness, without starting an agent: the package.json of the
// npm package its command links into (npm puts a symlink to the package's script on
// PATH); else, for a bare command, `<command> --version` (stdin closed, short timeout:
// an ACP agent that ignores the flag exits on stdin EOF or is cut off).
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const VERSION_TIMEOUT_MS = 5000;

/** `version` of the package.json named `pkg` above the real file of `bin`. */
export function packageVersion(bin: string, pkg: string): string | null {
  let dir: string;
  try {
    dir = path.dirname(fs.realpathSync(bin));
  } catch {
    return null;
  }
  for (let i = 0; i < 6; i++) {
    try {
      const json = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (typeof json.version === 'string' && json.name === pkg) return json.version;
    } catch {
      // no package.json here; look further up
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

/** The first line of `<bin> --version` that holds a version number, or null. */
export function versionFlag(bin: string, env: NodeJS.ProcessEnv, cwd: string): Promise<string | null> {
  return new Promise((resolve) => {
    const child = execFile(
      bin,
      ['--version'],
      { env, cwd, timeout: VERSION_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 },
      (err, stdout) => {
        if (err) return resolve(null);
        const line = String(stdout)
          .split('\n')
          .find((l) => /\d+\.\d+/.test(l));
        resolve(line ? (/\d+\.\d+[\w.+-]*/.exec(line)?.[0] ?? null) : null);
      },
    );
    child.stdin?.end();
  });
}
