// svc's own check statuses (`svc/check: <command>`) count for readiness only while their
// command is in the project's `check_commands`: a status of a command removed from the
// config stays on the commit forever, and svc will never run it again to make it green.
// Statuses and check runs of anyone else are untouched.
import type { Check } from '../../shared/protocol/pr';
import type { CodeHost } from './codeHost';

const PREFIX = 'svc/check: ';

/** The status context svc writes for a check command. */
export const checkContext = (command: string): string => {
  const c = `${PREFIX}${command.replace(/\s+/g, ' ').trim()}`;
  return c.length > 100 ? `${c.slice(0, 99)}…` : c;
};

export function configuredChecksOnly(checks: Check[], commands: readonly string[]): Check[] {
  const configured = new Set(commands.map(checkContext));
  return checks.filter((c) => c.source !== 'status' || !c.name.startsWith(PREFIX) || configured.has(c.name));
}

/** `host`, its listChecks reading only the checks the project still configures. */
export function withConfiguredChecks(host: CodeHost, commands: readonly string[]): CodeHost {
  const list = host.listChecks.bind(host);
  host.listChecks = async (sha: string) => configuredChecksOnly(await list(sha), commands);
  return host;
}
