// The hosts of config.yaml `hosts:` as the daemon uses them: one SshHost per entry
// (re-made when its entry changes), the refusal for an unknown name, and the shared
// connections closed when the daemon stops. Made once by registerHosts (hostMethods.ts).
import type { App } from '../app';
import { unknownHostError } from './hostRefusals';
import { controlDirFor, SshHost } from './sshTransport';
import type { HostSpec } from './sshTransport';

export class Hosts {
  private readonly made = new Map<string, SshHost>();
  readonly controlDir: string;

  constructor(private readonly app: App) {
    this.controlDir = controlDirFor(app.paths.home, app.paths.socket);
  }

  names(): string[] {
    return Object.keys(this.app.config.config().hosts);
  }

  spec(name: string): HostSpec {
    const entry = this.app.config.config().hosts[name];
    if (!entry) {
      const names = this.names();
      throw unknownHostError(name, names);
    }
    return { name, ssh: entry.ssh, lanesRoot: entry.lanes_root, options: entry.ssh_options ?? [] };
  }

  get(name: string): SshHost {
    const spec = this.spec(name);
    const had = this.made.get(name);
    if (had && JSON.stringify(had.spec) === JSON.stringify(spec)) return had;
    if (had) void had.close();
    const h = new SshHost(spec, this.controlDir);
    this.made.set(name, h);
    return h;
  }

  /** Every host svc opened a connection to (for the stop). */
  opened(): SshHost[] {
    return [...this.made.values()];
  }
}
