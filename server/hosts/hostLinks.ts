// The daemon's one HostLink (hostLink.ts), shared by the conversation layer (agents on
// hosts) and lanes (worktrees, git facts, reap on hosts).
import type { App } from '../app';
import { HostLink } from './hostLink';
import { hosts } from './hosts';

const links = new WeakMap<App, HostLink>();

export function hostLink(app: App): HostLink {
  let l = links.get(app);
  if (!l) {
    l = new HostLink(hosts(app), app.distDir, app.paths.socket, app.paths.home);
    links.set(app, l);
  }
  return l;
}
