// What the status bar item says, as a pure function of the connection state and the
// needs-you count (undefined until the conversation list can be read).
import type { ConnectionState } from './daemonConnection';

/** `1 conversation`, `2 conversations`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export interface StatusText {
  text: string;
  tooltip: string;
  /** A theme colour id for the item's background, when it must catch the eye. */
  background?: 'statusBarItem.warningBackground' | 'statusBarItem.errorBackground';
}

export function statusText(s: ConnectionState, needsYou: number | undefined): StatusText {
  switch (s.kind) {
    case 'connecting':
      return { text: '$(loading~spin) svc', tooltip: 'svc: connecting to the daemon…' };
    case 'noNode':
      return {
        text: '$(error) svc: no node',
        tooltip: `svc cannot start its daemon: ${s.problem}.\nFix: ${s.fix}.`,
        background: 'statusBarItem.errorBackground',
      };
    case 'down':
      return {
        text: '$(debug-disconnect) svc: daemon down',
        tooltip: `svc daemon is not connected: ${s.why}.\nClick for the daemon status and how to start it.`,
        background: 'statusBarItem.warningBackground',
      };
    case 'connected': {
      const i = s.info;
      const tooltip = `svc daemon ${i.version} (build ${i.build}), pid ${i.pid}\n${plural(i.conversations, 'conversation')}, ${i.live} live\nSVC_HOME ${i.svcHome}`;
      if (needsYou && needsYou > 0) {
        return {
          text: `$(bell-dot) svc: ${needsYou} need${needsYou === 1 ? 's' : ''} you`,
          tooltip,
          background: 'statusBarItem.warningBackground',
        };
      }
      return { text: '$(pulse) svc', tooltip };
    }
  }
}
