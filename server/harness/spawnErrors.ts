// Every failure to start an agent becomes the conversation's spawn error: one line
// saying the cause and the fix (docs/acp.md rule 4). Messages are produced here only.
import type { Profile } from './profiles';

export class SpawnError extends Error {}

const configHint = (p: Profile, configFile: string) => `set harnesses.${p.name}.command in ${configFile}`;

export function commandNotFound(p: Profile, configFile: string): SpawnError {
  const where = p.command.includes('/')
    ? `command '${p.command}' not found`
    : `command '${p.command}' not found on PATH`;
  const fix = p.install ? `install ${p.install} or ${configHint(p, configFile)}` : configHint(p, configFile);
  return new SpawnError(`harness '${p.name}': ${where}; ${fix}`);
}

export function notExecutable(p: Profile, configFile: string, code: string): SpawnError {
  return new SpawnError(
    `harness '${p.name}': command '${p.command}' cannot be run (${code}); make it executable or ${configHint(p, configFile)}`,
  );
}

export function missingCwd(p: Profile, cwd: string): SpawnError {
  return new SpawnError(
    `harness '${p.name}': working directory ${cwd} does not exist; create it or start the conversation with another --cwd`,
  );
}

/** Terminal colour and cursor sequences (CSI, OSC), which agents print to a TTY-less stderr too. */
// eslint-disable-next-line no-control-regex -- matching escape sequences is the point
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

export function exitedEarly(p: Profile, configFile: string, step: string, exit: string, stderr: string): SpawnError {
  const clean = stripAnsi(stderr).trim();
  const tail = clean ? `; its stderr ended with:\n${clean}` : ' (no stderr output)';
  return new SpawnError(
    `harness '${p.name}': '${[p.command, ...p.args].join(' ')}' exited (${exit}) before ${step} answered; check harnesses.${p.name} in ${configFile}${tail}`,
  );
}

export function noAnswer(p: Profile, step: string, seconds: number): SpawnError {
  const hint = p.acpFlag
    ? ` (svc adds ${p.acpFlag.flag} after harnesses.${p.name}.args; a wrapper set as harnesses.${p.name}.command must pass it on)`
    : '';
  return new SpawnError(
    `harness '${p.name}': no answer to ${step} within ${seconds} s; is '${[p.command, ...p.args].join(' ')}' an ACP agent on stdio?${hint}`,
  );
}

function credentials(p: Profile, configFile: string): string {
  if (!p.authEnv?.length) return '';
  return `; set ${p.authEnv.join(' or ')} in the environment svc runs in or under harnesses.${p.name}.env in ${configFile}`;
}

export function stepFailed(p: Profile, configFile: string, step: string, message: string, code?: number): SpawnError {
  const c = code !== undefined ? ` (${code})` : '';
  let fix = '';
  if (step.startsWith('authenticate') || code === -32000) fix = credentials(p, configFile);
  else if (step === 'session/new') fix = credentials(p, configFile) + (p.sessionHint ? `; ${p.sessionHint}` : '');
  return new SpawnError(`harness '${p.name}': ${step} failed: ${message}${c}${fix}`);
}

export function authRequired(p: Profile, configFile: string, message: string): SpawnError {
  return new SpawnError(
    `harness '${p.name}': authentication required on the first prompt: ${message}${credentials(p, configFile) || `; log the agent in or set its credentials under harnesses.${p.name}.env in ${configFile}`}`,
  );
}

export function modelRefused(
  p: Profile,
  what: 'model' | 'effort',
  value: string,
  message: string,
  available: string[],
): SpawnError {
  const list = available.length ? `; available: ${available.join(', ')}` : '';
  return new SpawnError(`harness '${p.name}': ${what} '${value}' refused: ${message}${list}`);
}

/** A lane whose sandbox is `workspace` never starts unconfined: it fails with the reason and the fix. */
export function sandboxUnavailable(p: Profile, reason: string, fix: string): SpawnError {
  return new SpawnError(`harness '${p.name}': the lane's sandbox (workspace) cannot start: ${reason}; ${fix}`);
}
