// `svc host check <name>`: one login over the shared connection runs a short POSIX shell
// probe (it must work where node is missing, to say so), and each line becomes a check
// with its fix: reachable, git, node, the harness, the lanes root, disk, and whether the
// host could sandbox an agent (bubblewrap there, with user namespaces on).
import type { HostCheck, HostCheckResult } from '../../shared/protocol/hosts';
import { SvcError } from '../../shared/errors';
import type { SvcReason } from '../../shared/refusals/reasons';
import { APPARMOR_SIGNS, BWRAP_PROBE_ARGS, bwrapFailure } from '../sandbox/sandboxProbe';
import { probeFailedError } from './hostRefusals';
import { hostPathWord, shellWord, shq, sshCommand, sshLine } from './remoteShell';
import type { SshHost } from './sshTransport';

/** The shim and the script agent are bundles for Node 20 and newer. */
export const HOST_NODE_MAJOR = 20;
const LOW_DISK_KB = 1024 * 1024;

export interface HarnessProbe {
  name: string;
  /** The command to find on the host's login PATH (or an absolute path); null: runs on the host's node (the script harness). */
  command: string | null;
}

export function probeScript(lanesRoot: string, harness: HarnessProbe | null): string {
  const root = hostPathWord(lanesRoot);
  const lines = [
    `printf 'home\\t%s\\n' "$HOME"`,
    `if command -v git >/dev/null 2>&1; then printf 'git\\t%s\\n' "$(git --version 2>&1)"; else printf 'git\\t\\n'; fi`,
    `if command -v node >/dev/null 2>&1; then printf 'node\\t%s\\t%s\\n' "$(node --version 2>&1)" "$(command -v node)"; else printf 'node\\t\\n'; fi`,
    harness?.command ? `printf 'harness\\t%s\\n' "$(command -v ${shq(harness.command)} 2>/dev/null)"` : '',
    `r=${root}`,
    `if [ -d "$r" ]; then printf 'root\\tyes\\t%s\\n' "$(cd "$r" && pwd -P)"; else printf 'root\\tno\\n'; fi`,
    `d="$r"; while [ ! -d "$d" ]; do d=$(dirname "$d"); done`,
    `printf 'disk\\t%s\\n' "$(df -Pk "$d" 2>/dev/null | awk 'NR==2 {print $4}')"`,
    // The same smallest sandbox this machine probes before a sandboxed start (server/sandbox/sandboxProbe.ts),
    // quoting the same error line (AppArmor's, else the first) and where bwrap is (its AppArmor profile names it).
    `if command -v bwrap >/dev/null 2>&1; then if e=$(bwrap ${BWRAP_PROBE_ARGS.join(' ')} 2>&1); then printf 'bwrap\\tok\\t%s\\n' "$(bwrap --version 2>&1)"; else printf 'bwrap\\tfails\\t%s\\t%s\\n' "$(printf '%s\\n' "$e" | grep -m1 -E '${APPARMOR_SIGNS}' || printf '%s\\n' "$e" | head -n 1)" "$(command -v bwrap)"; fi; else printf 'bwrap\\t\\n'; fi`,
  ];
  return lines.filter(Boolean).join('\n');
}

export interface ProbeFacts {
  home: string;
  git: string | null;
  node: { version: string; path: string } | null;
  harnessPath: string | null;
  root: { exists: boolean; real: string | null };
  diskKb: number | null;
  /** bubblewrap on the host: missing, there but unable to start a sandbox (its first error line), or working (its version). */
  bwrap: { state: 'missing' } | { state: 'fails'; error: string; path: string } | { state: 'ok'; version: string };
}

export function parseProbe(out: string): ProbeFacts {
  const f: ProbeFacts = {
    home: '',
    git: null,
    node: null,
    harnessPath: null,
    root: { exists: false, real: null },
    diskKb: null,
    bwrap: { state: 'missing' },
  };
  for (const line of out.split('\n')) {
    const [k, a = '', b = '', c = ''] = line.split('\t');
    if (k === 'home') f.home = a;
    else if (k === 'git') f.git = a || null;
    else if (k === 'node') f.node = a ? { version: a, path: b } : null;
    else if (k === 'harness') f.harnessPath = a || null;
    else if (k === 'root') f.root = { exists: a === 'yes', real: b || null };
    else if (k === 'disk') f.diskKb = /^\d+$/.test(a) ? Number(a) : null;
    else if (k === 'bwrap')
      f.bwrap =
        a === 'ok'
          ? { state: 'ok', version: b }
          : a === 'fails'
            ? { state: 'fails', error: b, path: c || 'bwrap' }
            : { state: 'missing' };
  }
  return f;
}

const major = (v: string) => Number(/^v?(\d+)/.exec(v)?.[1] ?? 0);

export async function checkHost(host: SshHost, harness: HarnessProbe | null): Promise<HostCheckResult> {
  const { name, ssh: destination, lanesRoot } = host.spec;
  // Every printed fix runs ssh as svc does (with the host entry's options), so it works as printed.
  const run = (command: string) => sshLine(host.spec, command);
  const checks: HostCheck[] = [];
  const result = () => ({
    host: name,
    ssh: destination,
    checks,
    problems: checks.filter((c) => c.status === 'problem').length,
  });
  let facts: ProbeFacts;
  try {
    const r = await host.run(probeScript(lanesRoot, harness), { timeoutMs: 60_000 });
    if (r.code !== 0) throw probeFailedError(r.code, r.stderr);
    facts = parseProbe(r.stdout);
  } catch (e) {
    if (!SvcError.is(e)) throw e;
    checks.push({ what: 'reachable', status: 'problem', text: e.message, fix: fixFor(e.reason, host.spec) });
    return result();
  }
  checks.push({ what: 'reachable', status: 'ok', text: `logged in over ssh (home ${facts.home})`, fix: null });
  checks.push(
    facts.git
      ? { what: 'git', status: 'ok', text: facts.git, fix: null }
      : {
          what: 'git',
          status: 'problem',
          text: 'git is not on the login PATH of the host; lanes there are git worktrees',
          fix: `install git on ${name} (e.g. apt-get install git)`,
        },
  );
  const nodeOk = facts.node !== null && major(facts.node.version) >= HOST_NODE_MAJOR;
  checks.push(
    nodeOk
      ? { what: 'node', status: 'ok', text: `Node ${facts.node!.version} (${facts.node!.path})`, fix: null }
      : {
          what: 'node',
          status: 'problem',
          text: facts.node
            ? `Node ${facts.node.version} on the host is too old; svc's shim and helpers there need Node ${HOST_NODE_MAJOR} or newer`
            : `no node on the login PATH of the host; svc copies its shim there and it runs on node (Node ${HOST_NODE_MAJOR} or newer)`,
          fix: `install Node ${HOST_NODE_MAJOR} or newer on ${name}, on the PATH of a non-interactive login (${run('node --version')})`,
        },
  );
  if (harness) {
    if (harness.command === null) {
      checks.push({
        what: 'harness',
        status: nodeOk ? 'ok' : 'problem',
        text: `${harness.name}: shipped by svc, runs on the host's node`,
        fix: nodeOk ? null : 'see node above',
      });
    } else {
      checks.push(
        facts.harnessPath
          ? { what: 'harness', status: 'ok', text: `${harness.name}: ${facts.harnessPath}`, fix: null }
          : {
              what: 'harness',
              status: 'problem',
              text: `${harness.name}: ${harness.command} is not on the login PATH of the host`,
              fix: `install ${harness.command} on ${name} (${run(`command -v ${harness.command}`)})`,
            },
      );
    }
  }
  const inHome =
    facts.root.real !== null &&
    (facts.root.real === facts.home || facts.root.real.startsWith(facts.home.replace(/\/$/, '') + '/'));
  if (!facts.root.exists) {
    checks.push({
      what: 'lanes root',
      status: 'problem',
      text: `${lanesRoot} does not exist on the host`,
      fix: run(`mkdir -p ${lanesRoot.startsWith('~/') ? `~/${shellWord(lanesRoot.slice(2))}` : shellWord(lanesRoot)}`),
    });
  } else if (!inHome || facts.root.real === facts.home) {
    checks.push({
      what: 'lanes root',
      status: 'problem',
      text: `${lanesRoot} is ${facts.root.real}, not a folder under the SSH user's home ${facts.home}`,
      fix: `set hosts.${name}.lanes_root to a folder under ${facts.home}`,
    });
  } else checks.push({ what: 'lanes root', status: 'ok', text: facts.root.real!, fix: null });
  if (facts.diskKb === null)
    checks.push({ what: 'disk', status: 'note', text: 'free space unknown (df gave no answer)', fix: null });
  else {
    const gb = (facts.diskKb / 1024 / 1024).toFixed(1);
    checks.push(
      facts.diskKb < LOW_DISK_KB
        ? {
            what: 'disk',
            status: 'note',
            text: `${gb} GB free under the lanes root: little room for worktrees and builds`,
            fix: `free space on ${name}`,
          }
        : { what: 'disk', status: 'ok', text: `${gb} GB free under the lanes root`, fix: null },
    );
  }
  checks.push(sandboxCheckOf(facts.bwrap, name));
  return result();
}

/**
 * Whether the host can run its lanes sandboxed: a lane there runs under the host's own
 * bubblewrap (helper/hostSandbox.ts), in `workspace` unless its role, harness or launch says
 * `off`, so a host that cannot is a problem for the default lanes, with the way out.
 */
export function sandboxCheckOf(b: ProbeFacts['bwrap'], name: string): HostCheck {
  const cannot = 'workspace lanes cannot start there';
  if (b.state === 'ok')
    return { what: 'sandbox', status: 'ok', text: `${b.version}: lanes here run sandboxed (workspace)`, fix: null };
  if (b.state === 'fails') {
    // The words a lane's start there gives (helper/hostSandbox.ts runs the same probe): AppArmor's narrowest fix first.
    const why = bwrapFailure(b.path, b.error, 'there');
    return { what: 'sandbox', status: 'problem', text: `${why.reason}: ${cannot}`, fix: why.fix };
  }
  return {
    what: 'sandbox',
    status: 'problem',
    text: `no bubblewrap (bwrap) on the login PATH of the host: ${cannot}`,
    fix: `install bubblewrap on ${name} (apt-get install bubblewrap), or run its lanes with --sandbox off (per role: gauntlet.roles.<role>.sandbox: off)`,
  };
}

function fixFor(reason: SvcReason, spec: SshHost['spec']): string | null {
  switch (reason) {
    case 'hostKeyUnknown':
      return `${sshLine(spec, 'true')}   (check the fingerprint it shows, then accept it)`;
    case 'hostKeyChanged':
      return 'find out why the key changed; then remove the old key with ssh-keygen -R <host>';
    case 'loginRefused':
      return `ssh-copy-id ${sshCommand(spec).slice('ssh '.length)}, or name the key with IdentityFile in ~/.ssh/config`;
    case 'hostUnreachable':
      return sshLine(spec, 'true');
    case 'sshMissing':
      return 'apt-get install openssh-client';
    default:
      return null;
  }
}
