// Node: the daemon's own (one of shared/node/supportedNode.json) and the one agents find on their PATH (npm
// adapters run on it; claude-agent-acp declares ≥ 22 and was seen to run on 20). A claude command
// that names its own node (a wrapper such as scripts/installAdapters.sh writes, or a shebang with
// an absolute node) runs on that one, whatever node the PATH has.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
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

/** The node `command` (a file) names for itself: its shebang's, or the one its wrapper execs; else null. */
export function ownNodeOf(command: string): string | null {
  let head: string;
  try {
    const fd = fs.openSync(command, 'r');
    try {
      const buf = Buffer.alloc(4096);
      head = buf.subarray(0, fs.readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
  const shebang = /^#!\s*(\/\S*\/node)(\s|$)/.exec(head);
  if (shebang) return shebang[1];
  if (!/^#!\s*\/\S*\/(sh|bash|dash)\b/.test(head)) return null;
  return /^\s*exec\s+"?(\/[^"\s]*\/node)"?\s/m.exec(head)?.[1] ?? null;
}

/** `claude`: the claude harness's command when it is installed (its path), else null. */
export async function checkNode(
  env: NodeJS.ProcessEnv,
  daemonVersion: string,
  claude: string | null,
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
    return checks;
  }
  const claudeNode = claude ? ownNodeOf(claude) : null;
  const claudeVersion = claudeNode ? await nodeVersionAt(claudeNode, env) : null;
  if (claude && major(claudeVersion ?? agentVersion) < CLAUDE_NODE_MAJOR) {
    checks.push({
      area: 'node',
      subject: 'agents',
      status: 'note',
      text: claudeVersion
        ? `claude-agent-acp runs on Node ${claudeVersion} (${claudeNode}, named by ${claude}); it declares Node ${CLAUDE_NODE_MAJOR} or newer`
        : `agents run on Node ${agentVersion} (${bin}); claude-agent-acp declares Node ${CLAUDE_NODE_MAJOR} or newer`,
      fix: `install Node ${CLAUDE_NODE_MAJOR} or newer for claude lanes (e.g. nvm install ${CLAUDE_NODE_MAJOR}); then svc daemon restart`,
    });
  } else
    checks.push({
      area: 'node',
      subject: 'agents',
      status: 'ok',
      text: `agents run on Node ${agentVersion} (${bin})${claudeVersion ? `; claude-agent-acp on Node ${claudeVersion} (${claudeNode}, named by ${claude})` : ''}`,
      fix: null,
    });
  return checks;
}
