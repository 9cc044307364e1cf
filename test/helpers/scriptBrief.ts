// Builds prompts for the `script` harness: one fenced `svc-script` block of YAML steps.
import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';

export type Step =
  | { say: string }
  | { run: string; check?: boolean }
  | { ask: string }
  | { sleep: number }
  | { write: { path: string; content: string } }
  | { cost: number }
  | { exit: number };

export function scriptBlock(steps: Step[], preface = 'Scripted brief.'): string {
  return `${preface}\n\n\`\`\`svc-script\n${YAML.stringify(steps)}\`\`\`\n`;
}

/** Writes a brief file holding a script; returns its path. */
export function writeBrief(dir: string, name: string, steps: Step[], preface?: string): string {
  const file = path.join(dir, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, scriptBlock(steps, preface));
  return file;
}
