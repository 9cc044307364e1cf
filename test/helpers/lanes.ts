// Fixtures for lane tests: a project with a local bare origin, a root conversation on the
// script harness, and helpers to launch lanes through the real shim.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { makeRepo } from './scratch';
import type { LaneRecord } from '../../shared/protocol/lanes';
import type { RunOptions, RunResult, Scratch } from './scratch';

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

/** A person's `script` conversation on project `proj` (`svc conv new … --json`); its id. */
export async function newScriptConversation(s: Scratch, opts: { prompt: string; title?: string }): Promise<number> {
  const title = opts.title === undefined ? [] : ['--title', opts.title];
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
      ...title,
      '--prompt',
      opts.prompt,
      '--json',
    ]),
  );
  return (JSON.parse(r.stdout) as { conversation: { id: number } }).conversation.id;
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
  const rootId = await newScriptConversation(s, { prompt: 'I orchestrate.' });
  return { s, repo: dir, origin, rootId, briefs: path.join(s.home, 'briefs') };
}

/** The flags of `svc lane start` by name (docs/spec.md, `svc lane` commands); undefined ones are left out. */
export interface LaneStartOptions {
  run?: string;
  key?: string;
  for?: string;
  role?: string;
  brief?: string;
  prompt?: string;
  parent?: number | string;
  project?: string;
  model?: string;
  harness?: string;
  effort?: string;
  title?: string;
  branch?: string;
  from?: string;
  at?: string;
  host?: string;
  budget?: string;
  sandbox?: string;
  reuse?: boolean;
  replace?: boolean;
  noWait?: boolean;
  json?: boolean;
  /** Arguments passed as they are after the named ones (a flag written `--name=value`). */
  extra?: string[];
}

const VALUE_FLAGS = [
  'run',
  'key',
  'for',
  'role',
  'brief',
  'prompt',
  'parent',
  'project',
  'model',
  'harness',
  'effort',
  'title',
  'branch',
  'from',
  'at',
  'host',
  'budget',
  'sandbox',
] as const;

/** The argv of `svc lane start` with these flags, in the spec's order. */
export function laneStartArgs(o: LaneStartOptions): string[] {
  const args = ['lane', 'start'];
  for (const f of VALUE_FLAGS) if (o[f] !== undefined) args.push(`--${f}`, String(o[f]));
  if (o.reuse) args.push('--reuse');
  if (o.replace) args.push('--replace');
  if (o.noWait) args.push('--no-wait');
  if (o.json) args.push('--json');
  return [...args, ...(o.extra ?? [])];
}

/**
 * Runs `svc lane start` and returns its exit code and output, for a refusal or a line to
 * check. In a LaneWorld it launches as a person on behalf of the root conversation on the
 * script harness (`parent` and `harness` default to those); with a bare Scratch it passes
 * only the flags given (an agent's launch, with `run.env` saying which agent).
 */
export function tryStartLane(at: Scratch | LaneWorld, o: LaneStartOptions, run?: RunOptions): Promise<RunResult> {
  if (!('rootId' in at)) return at.svc(laneStartArgs(o), run);
  return at.s.svc(laneStartArgs({ parent: at.rootId, harness: 'script', ...o }), run);
}

/** Runs `svc lane start --json` as tryStartLane does, requires exit 0 and returns the lane it launched. */
export async function startLane(at: Scratch | LaneWorld, o: LaneStartOptions, run?: RunOptions): Promise<LaneRecord> {
  const r = await ok(tryStartLane(at, { ...o, json: true }, run));
  return JSON.parse(r.stdout) as LaneRecord;
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
