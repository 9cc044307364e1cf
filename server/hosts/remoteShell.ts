// Commands for the host's shell. ssh hands its command to the remote user's shell as one
// string, so every value svc puts there is single-quoted here, once; `~/…` paths become
// "$HOME"/'…' so the host's shell, not this machine, says where home is.
import { singleQuoted } from '../../shared/format/shellQuote';

/** `s` single-quoted for a POSIX shell. */
export const shq = singleQuoted;

/** A configured host path as a shell word: `~/x` → "$HOME"/'x'; absolute paths quoted. */
export function hostPathWord(p: string): string {
  if (p === '~') return '"$HOME"';
  if (p.startsWith('~/')) return `"$HOME"/${shq(p.slice(2))}`;
  return shq(p);
}

/** The folder on the host holding svc's copies (bundles, clones of origins, parked patches, sockets). */
export const HOST_BASE = '.svc-host';
export const hostBaseWord = `"$HOME"/${HOST_BASE}`;

/** A word for this machine's shell: quoted only when it needs to be, so commands read plainly. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./~-]+$/.test(s) ? s : shq(s);
}

/** `ssh` with the host entry's options, as a person runs it: a printed command that works as
 *  printed (a host on another port, with its own key or known_hosts file, needs them). */
export function sshCommand(spec: { ssh: string; options: readonly string[] }): string {
  return ['ssh', ...spec.options.flatMap((o) => ['-o', shellWord(o)]), shellWord(spec.ssh)].join(' ');
}

/** A command for the host as a person types it here: ssh with the entry's options and the host's
 *  command as one word, so this machine's shell expands nothing in it (a `~` is the host's). */
export function sshLine(spec: { ssh: string; options: readonly string[] }, command: string): string {
  return `${sshCommand(spec)} ${shellWord(command)}`;
}
