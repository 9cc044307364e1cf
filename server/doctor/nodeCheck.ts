// Node: the daemon's own (one of shared/node/supportedNode.json) and the one agents find on their PATH (npm
// adapters run on it; claude-agent-acp declares ≥ 22 and was seen to run on 20).
import { execFile } from 'node:child_process';
import type { DoctorCheck } from '../../shared/protocol/doctor';
import { isSupportedMajor, majorsInWords, nodeFix, supportedMajors } from '../../shared/node/supportedNode';
import { findCommand } from '../harness/agentProcess';

export const CLAUDE_NODE_MAJOR = 22;

const major = (v: string) => Number(/^v?(\d+)/.exec(v)?.[1] ?? 0);

function nodeVersionAt(bin: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(bin, ['--version'], { env, timeout: 5000 }, (err, out) =>
      resolve(err ? null : String(out).trim() || null),
    );
  });
}

export async function checkNode(
  env: NodeJS.ProcessEnv,
  daemonVersion: string,
  claudeInstalled: boolean,
): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const daemonOk = isSupportedMajor(major(daemonVersion));
  checks.push({
    area: 'node',
    subject: 'daemon',
    status: daemonOk ? 'ok' : 'problem',
    text: `the daemon runs on Node ${daemonVersion}${daemonOk ? ' (supported)' : ` (unsupported: svc supports Node ${majorsInWords(supportedMajors())})`}`,
    fix: daemonOk ? null : `${nodeFix(supportedMajors())}; then svc daemon restart`,
  });
  const bin = findCommand('node', env.PATH, process.cwd());
  const agentVersion = bin ? await nodeVersionAt(bin, env) : null;
  if (!agentVersion) {
    checks.push({
      area: 'node',
      subject: 'agents',
      status: 'problem',
      text: "no node on the agents' PATH (npm-installed harnesses run on it)",
      fix: `install Node ${CLAUDE_NODE_MAJOR} or newer and put it on the PATH the daemon starts with; then svc daemon restart`,
    });
  } else if (claudeInstalled && major(agentVersion) < CLAUDE_NODE_MAJOR) {
    checks.push({
      area: 'node',
      subject: 'agents',
      status: 'note',
      text: `agents run on Node ${agentVersion} (${bin}); claude-agent-acp declares Node ${CLAUDE_NODE_MAJOR} or newer`,
      fix: `install Node ${CLAUDE_NODE_MAJOR} or newer for claude lanes (e.g. nvm install ${CLAUDE_NODE_MAJOR}); then svc daemon restart`,
    });
  } else
    checks.push({
      area: 'node',
      subject: 'agents',
      status: 'ok',
      text: `agents run on Node ${agentVersion} (${bin})`,
      fix: null,
    });
  return checks;
}
