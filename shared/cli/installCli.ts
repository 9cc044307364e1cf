// Puts the `svc` command on the PATH of every shell, the way VS Code installs `code`: a
// small launcher in ~/.local/bin (the folder the default ~/.profile of Debian, Ubuntu and
// Fedora puts on a login shell's PATH when it exists), or on Windows in
// %LOCALAPPDATA%\Microsoft\WindowsApps (on every user's PATH by default). Used by
// `svc install-cli`/`svc uninstall-cli`, the extension's palette commands and `svc doctor`.
//
// A launcher, not a symlink to bin/svc: bin/svc starts with `#!/usr/bin/env node`, and a
// login shell (codex runs every command in one) resets PATH, so the Node svc runs on
// (nvm's, say) may not be found there, or an unsupported one found first. The launcher
// names that Node by its absolute path. It carries a marker line, so svc replaces or
// removes only a launcher of its own, never a user's file of the same name, and it is
// written only under the user's home.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { singleQuoted } from '../format/shellQuote';

const MARKER = "svc's command, installed by svc install-cli";

export interface CliPlace {
  platform: NodeJS.Platform;
  home: string;
  /** LOCALAPPDATA on Windows. */
  localAppData?: string;
}

/** Where the launcher goes. */
export function cliLinkPath(p: CliPlace): string {
  if (p.platform === 'win32')
    return path.win32.join(
      p.localAppData || path.win32.join(p.home, 'AppData', 'Local'),
      'Microsoft',
      'WindowsApps',
      'svc.cmd',
    );
  return path.posix.join(p.home, '.local', 'bin', 'svc');
}

/** The launcher's text: the Node and the shim (bin/svc) it runs, both absolute. */
export function launcherText(platform: NodeJS.Platform, nodePath: string, shimPath: string): string {
  if (platform === 'win32')
    return [`@echo off`, `rem ${MARKER}; svc uninstall-cli removes it`, `"${nodePath}" "${shimPath}" %*`, ''].join(
      '\r\n',
    );
  return [
    '#!/bin/sh',
    `# ${MARKER}; svc uninstall-cli removes it`,
    `exec ${singleQuoted(nodePath)} ${singleQuoted(shimPath)} "$@"`,
    '',
  ].join('\n');
}

export type Installed = { kind: 'none' } | { kind: 'ours'; nodePath: string; shimPath: string } | { kind: 'other' };

/** What is at the launcher's path: nothing, svc's launcher (with what it runs), or someone else's file. */
export function readInstalled(file: string): Installed {
  let text: string;
  try {
    if (!fs.lstatSync(file).isFile()) return { kind: 'other' };
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
    return { kind: 'other' };
  }
  if (!text.includes(MARKER)) return { kind: 'other' };
  const posix = /^exec '((?:[^']|'\\'')*)' '((?:[^']|'\\'')*)' "\$@"$/m.exec(text);
  const unquote = (s: string) => s.replace(/'\\''/g, "'");
  if (posix) return { kind: 'ours', nodePath: unquote(posix[1]), shimPath: unquote(posix[2]) };
  const win = /^"([^"]*)" "([^"]*)" %\*\r?$/m.exec(text);
  if (win) return { kind: 'ours', nodePath: win[1], shimPath: win[2] };
  return { kind: 'other' };
}

/** The real path of `dir`, or of its nearest existing parent with the rest appended. */
function realPathOfFolder(dir: string): string {
  const rest: string[] = [];
  let d = dir;
  for (;;) {
    try {
      return path.join(fs.realpathSync(d), ...rest.reverse());
    } catch {
      const up = path.dirname(d);
      if (up === d) return dir;
      rest.push(path.basename(d));
      d = up;
    }
  }
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

export type InstallCliResult =
  | { outcome: 'installed' | 'updated' | 'unchanged'; file: string; nodePath: string; shimPath: string }
  | { outcome: 'taken'; file: string }
  | { outcome: 'outsideHome'; file: string; realFolder: string; home: string };

/** Writes (or refreshes) the launcher; never outside home, never over a file that is not svc's. */
export function installCli(p: CliPlace & { nodePath: string; shimPath: string }): InstallCliResult {
  const file = cliLinkPath(p);
  const folder = path.dirname(file);
  const home = realPathOfFolder(p.home);
  const realFolder = realPathOfFolder(folder);
  if (!isInside(realFolder, home)) return { outcome: 'outsideHome', file, realFolder, home };
  const before = readInstalled(file);
  if (before.kind === 'other') return { outcome: 'taken', file };
  const text = launcherText(p.platform, p.nodePath, p.shimPath);
  const facts = { file, nodePath: p.nodePath, shimPath: p.shimPath };
  if (before.kind === 'ours' && fs.readFileSync(file, 'utf8') === text) return { outcome: 'unchanged', ...facts };
  fs.mkdirSync(folder, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o755 });
  fs.chmodSync(tmp, 0o755);
  fs.renameSync(tmp, file);
  return { outcome: before.kind === 'ours' ? 'updated' : 'installed', ...facts };
}

export type UninstallCliResult = { outcome: 'removed' | 'absent'; file: string } | { outcome: 'notOurs'; file: string };

/** Removes svc's launcher; a file of the same name that is not svc's is left alone. */
export function uninstallCli(p: CliPlace): UninstallCliResult {
  const file = cliLinkPath(p);
  const there = readInstalled(file);
  if (there.kind === 'none') return { outcome: 'absent', file };
  if (there.kind === 'other') return { outcome: 'notOurs', file };
  fs.rmSync(file);
  return { outcome: 'removed', file };
}

/** What a login shell finds as `svc` (`bash -lc 'command -v svc'`), with this environment and home; null when none. */
export function loginShellSvc(env: NodeJS.ProcessEnv, home: string): string | null {
  const shell = fs.existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
  // Loaded on use: the shim bundles this module, and every other command would pay for it.
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const r = spawnSync(shell, ['-lc', 'command -v svc'], {
    env: { ...env, HOME: home },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    timeout: 10_000,
  });
  const found = r.status === 0 ? r.stdout.trim().split('\n').pop()?.trim() : '';
  return found || null;
}

/** How the launcher's folder gets on a login shell's PATH where the profile does not put it there. */
export function pathFix(file: string, home: string): string {
  const dir = path.dirname(file);
  const shown = dir.startsWith(home + path.sep) ? `$HOME/${path.relative(home, dir)}` : dir;
  return `add it in ~/.profile: PATH="${shown}:$PATH", then log in again`;
}

/** One line for a person after an install, with what a login shell finds (POSIX) or whether the folder is on PATH (Windows). */
export function describeInstallCli(r: InstallCliResult, loginFinds: string | null | undefined, home: string): string {
  switch (r.outcome) {
    case 'taken':
      return `${r.file} exists and is not svc's launcher: svc leaves it alone; move it away, then run svc install-cli again`;
    case 'outsideHome':
      return `${path.dirname(r.file)} is ${r.realFolder}, outside your home (${r.home}): svc writes only under your home; make ${path.dirname(r.file)} a folder of your home, then run svc install-cli again`;
    default: {
      const did = r.outcome === 'unchanged' ? 'already installed' : r.outcome;
      const head = `${did} ${r.file}: runs ${r.shimPath} with ${r.nodePath}`;
      if (loginFinds === undefined) return head;
      if (loginFinds === r.file) return `${head}; a login shell finds it (bash -lc 'command -v svc')`;
      if (loginFinds)
        return `${head}; but a login shell finds ${loginFinds} first: remove that one, or put ${path.dirname(r.file)} before it on PATH`;
      return `${head}; but a login shell does not find it: ${path.dirname(r.file)} is not on its PATH; ${pathFix(r.file, home)}`;
    }
  }
}

export function describeUninstallCli(r: UninstallCliResult): string {
  switch (r.outcome) {
    case 'removed':
      return `removed ${r.file}`;
    case 'absent':
      return `nothing to remove: ${r.file} does not exist`;
    case 'notOurs':
      return `${r.file} is not svc's launcher: svc leaves it alone; remove it yourself if you want it gone`;
  }
}
