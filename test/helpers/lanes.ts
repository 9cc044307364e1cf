// Fixtures for lane tests: a project with a local bare origin, a root conversation on the
// script harness, and helpers to launch lanes through the real shim.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { makeRepo } from './scratch';
import type { RunResult, Scratch } from './scratch';

export interface LaneWorld {
  s: Scratch;
  repo: string;
  origin: string;
  rootId: number;
  briefs: string;
}

export async function ok(p: Promise<RunResult>): Promise<RunResult> {
  const r = await p;
  assert.equal(r.code, 0, `expected exit 0, got ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}

/** A project `proj` and a root conversation #rootId on the script harness. */
export async function laneWorld(s: Scratch, opts: { gauntletModel?: boolean } = {}): Promise<LaneWorld> {
  const { dir, origin } = makeRepo(s);
  await ok(s.svc(['project', 'add', 'proj', dir]));
  if (opts.gauntletModel) {
    // A project default model for builders only, to test launch rule 6.
    const fs = await import('node:fs');
    const file = path.join(s.svcHome, 'projects.yaml');
    fs.appendFileSync(file, '    gauntlet:\n      roles:\n        builder:\n          model: default-builder-model\n');
  }
  const r = await ok(
    s.svc([
      'conv',
      'new',
      '--project',
      'proj',
      '--harness',
      'script',
      '--model',
      'm',
      '--prompt',
      'I orchestrate.',
      '--json',
    ]),
  );
  const rootId = (JSON.parse(r.stdout) as { conversation: { id: number } }).conversation.id;
  return { s, repo: dir, origin, rootId, briefs: path.join(s.home, 'briefs') };
}

/** `svc lane start` as a person on behalf of the root, script harness, model m. */
export function start(w: LaneWorld, args: string[], env?: NodeJS.ProcessEnv): Promise<RunResult> {
  return w.s.svc(['lane', 'start', '--parent', String(w.rootId), '--harness', 'script', ...args], { env });
}

/** The commands a scripted builder runs to commit, push and report done. */
export function buildAndReport(file: string, content: string, report = 'built it'): string {
  return [
    `printf '%s\\n' '${content}' > ${file}`,
    `git add ${file}`,
    `git commit -q -m 'work on ${file}'`,
    `git push -q -u origin HEAD`,
    `printf '%s\\n' '${report}' | svc lane report --stdin`,
  ].join(' && ');
}

/**
 * The commands a scripted critic runs to file a verdict with `defects` entries. The file
 * goes in the worktree's own git dir: written by a sandboxed lane (which cannot write
 * beside its directory), kept out of its tree (which reap would find dirty).
 */
export function judgeAndReport(verdict: string, defects: number): string {
  const list = JSON.stringify(Array.from({ length: defects }, (_, i) => ({ id: i + 1, what: `defect ${i + 1}` })));
  return [
    `v="$(git rev-parse --absolute-git-dir)/verdict-$(basename "$PWD").json"`,
    `printf '%s' '{"defects": ${list}}' > "$v"`,
    `printf 'judged\\n' | svc lane report --stdin --verdict ${verdict} --verdict-file "$v"`,
  ].join(' && ');
}
