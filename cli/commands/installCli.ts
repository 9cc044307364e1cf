// svc install-cli|uninstall-cli — the `svc` command on every shell's PATH (a launcher in
// ~/.local/bin; shared/cli/installCli.ts), for the person's own terminal and for agents
// whose shell resets PATH (codex runs every command in a login shell).
import * as os from 'node:os';
import * as path from 'node:path';
import {
  describeInstallCli,
  describeUninstallCli,
  installCli,
  loginShellSvc,
  uninstallCli,
} from '../../shared/cli/installCli';
import type { CommandSpec } from '../cli';
import { cliLinkRefusal } from '../shimRefusals';

const place = (env: NodeJS.ProcessEnv) => ({
  platform: process.platform,
  home: env.HOME || os.homedir(),
  localAppData: env.LOCALAPPDATA,
});

export const installCliCommands: CommandSpec[] = [
  {
    path: ['install-cli'],
    summary:
      'put the svc command on your PATH: a launcher in ~/.local/bin (Windows: %LOCALAPPDATA%\\Microsoft\\WindowsApps)',
    usage: [''],
    flags: {},
    details:
      "The launcher runs this svc with the Node that runs this command, by absolute paths, so a login shell finds both.\nIt is written only under your home and never over a file that is not svc's; installing again refreshes it.\nsvc uninstall-cli removes it; svc doctor checks it.",
    async run(_a, io) {
      const where = place(io.env);
      // dist/svc.js → the package's bin/svc, the shim a person runs.
      const r = installCli({
        ...where,
        nodePath: process.execPath,
        shimPath: path.resolve(__dirname, '..', 'bin', 'svc'),
      });
      const line = describeInstallCli(
        r,
        process.platform === 'win32' || r.outcome === 'taken' || r.outcome === 'outsideHome'
          ? undefined
          : loginShellSvc(io.env, where.home),
        where.home,
      );
      if (r.outcome === 'taken' || r.outcome === 'outsideHome')
        throw cliLinkRefusal(line, r.outcome === 'taken' ? 'cliLinkTaken' : 'cliLinkOutsideHome');
      io.out(line + '\n');
      return 0;
    },
  },
  {
    path: ['uninstall-cli'],
    summary: 'remove the svc launcher that svc install-cli wrote',
    usage: [''],
    flags: {},
    details: "A file of that name that is not svc's launcher is left alone (exit 1).",
    async run(_a, io) {
      const r = uninstallCli(place(io.env));
      if (r.outcome === 'notOurs') throw cliLinkRefusal(describeUninstallCli(r), 'cliLinkTaken');
      io.out(describeUninstallCli(r) + '\n');
      return 0;
    },
  },
];
