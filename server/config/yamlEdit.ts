// Edits one key of a YAML file the way a person would: the YAML document API decides what
// the result means (and is what gets validated), then the change is spliced into the
// original text so every other byte — comments, blank lines, spacing, quoting — stays as
// written. When a splice cannot be made safely (flow collections, odd layouts) the
// document API's own rendering is used, which still keeps comments and key order.
import { isDeepStrictEqual } from 'node:util';
import YAML from 'yaml';
import type { Node, Pair, YAMLMap } from 'yaml';

export interface EditResult {
  /** The new file text (the old one when nothing changed). */
  text: string;
  /** The edited document as plain data, for validation. */
  data: unknown;
  changed: boolean;
  /** 'splice' kept every other byte; 'render' re-rendered through the document API. */
  how: 'splice' | 'render' | 'none';
}

export class YamlSyntaxError extends Error {}

export function parseDoc(text: string): YAML.Document {
  const doc = YAML.parseDocument(text);
  if (doc.errors.length) throw new YamlSyntaxError(doc.errors[0].message);
  return doc;
}

/**
 * Sets `path` to `value` (a string, or a number for amounts), or removes it when `value` is undefined; a removal
 * also removes maps it leaves empty, but never the first `keepDepth` path segments.
 */
export function editYaml(text: string, path: string[], value: string | number | undefined, keepDepth = 0): EditResult {
  const doc = parseDoc(text);
  const before: unknown = doc.toJS() ?? {};
  let target = path;
  if (value === undefined) {
    if (!doc.hasIn(path)) return { text, data: before, changed: false, how: 'none' };
    target = pruneTarget(doc, path, keepDepth);
    doc.deleteIn(target);
  } else {
    if (!doc.contents || YAML.isScalar(doc.contents)) doc.contents = doc.createNode({});
    setThrough(doc, path, value);
  }
  const data: unknown = doc.toJS() ?? {};
  if (isDeepStrictEqual(data, before)) return { text, data, changed: false, how: 'none' };
  const spliced = splice(text, target, value);
  if (spliced !== undefined && sameData(spliced, data)) return { text: spliced, data, changed: true, how: 'splice' };
  return { text: doc.toString(), data, changed: true, how: 'render' };
}

/** doc.setIn, replacing a null or scalar in the way by a map (`gauntlet:` with nothing under it). */
function setThrough(doc: YAML.Document, path: string[], value: string | number): void {
  for (let i = 1; i < path.length; i++) {
    const at = doc.getIn(path.slice(0, i), true);
    if (at !== undefined && !YAML.isMap(at)) doc.setIn(path.slice(0, i), doc.createNode({}));
  }
  doc.setIn(path, value);
}

/** The highest path whose removal removes `path` without leaving an empty map behind. */
function pruneTarget(doc: YAML.Document, path: string[], keepDepth: number): string[] {
  let target = path;
  while (target.length - 1 > keepDepth) {
    const parent = doc.getIn(target.slice(0, -1), true);
    if (!YAML.isMap(parent) || parent.items.length !== 1) break;
    target = target.slice(0, -1);
  }
  return target;
}

function sameData(text: string, data: unknown): boolean {
  try {
    return isDeepStrictEqual(parseDoc(text).toJS() ?? {}, data);
  } catch {
    return false;
  }
}

// ---- the splice ------------------------------------------------------------------------

/** A block map (not flow) whose keys all start lines indented by spaces only. */
function blockIndent(text: string, map: YAMLMap): number | undefined {
  if (map.flow) return undefined;
  let indent: number | undefined;
  for (const p of map.items) {
    const k = p.key as Node | null;
    if (!k?.range) return undefined;
    const lineStart = text.lastIndexOf('\n', k.range[0] - 1) + 1;
    const prefix = text.slice(lineStart, k.range[0]);
    if (!/^ *$/.test(prefix)) return undefined;
    if (indent !== undefined && indent !== prefix.length) return undefined;
    indent = prefix.length;
  }
  return indent;
}

function findPair(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((p) => YAML.isScalar(p.key) && String(p.key.value) === key);
}

function render(value: string | number): string | undefined {
  const s = YAML.stringify(value, { lineWidth: 0 }).replace(/\n$/, '');
  return s.includes('\n') ? undefined : s;
}

/**
 * The end of a block's last line: scanning lines from `from` up to `limit`, the end of the
 * last non-blank line before the first non-blank line indented less than `minIndent`. A
 * node's range also takes in the comments and blank lines after it, even ones that sit at
 * the parent's indentation and so read as belonging to what follows.
 */
function blockEnd(text: string, from: number, limit: number, minIndent: number): number {
  let end = from;
  for (let pos = from; pos < limit;) {
    const lineEnd = endOfLine(text, pos);
    const line = text.slice(pos, lineEnd).replace(/\n$/, '');
    if (line.trim() !== '') {
      if (line.length - line.trimStart().length < minIndent) break;
      end = lineEnd;
    }
    pos = lineEnd;
  }
  return end;
}

function endOfLine(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl < 0 ? text.length : nl + 1;
}

function splice(text: string, path: string[], value: string | number | undefined): string | undefined {
  const doc = parseDoc(text);
  let node: unknown = doc.contents;
  if (node === null || node === undefined || (YAML.isScalar(node) && node.value === null)) {
    if (value === undefined) return undefined;
    return appendLines(text, text.length, path, 0, 2, value);
  }
  let parentIndent = -2;
  for (let i = 0; i < path.length; i++) {
    if (!YAML.isMap(node)) return undefined;
    const map = node;
    const indent = blockIndent(text, map);
    if (indent === undefined || map.range === undefined || map.range === null) return undefined;
    const step = i === 0 ? 2 : indent - parentIndent;
    if (step <= 0) return undefined;
    const pair = findPair(map, path[i]);
    const last = i === path.length - 1;
    if (!pair) {
      if (value === undefined) return undefined;
      const first = map.items[0]?.key as Node | undefined;
      if (!first?.range) return undefined;
      const end = blockEnd(text, text.lastIndexOf('\n', first.range[0] - 1) + 1, map.range[1], indent);
      return appendLines(text, end, path.slice(i), indent, step, value);
    }
    if (last) return value === undefined ? removePair(text, pair) : replaceScalar(text, pair, value);
    const child = pair.value as Node | null;
    if (child === null || (YAML.isScalar(child) && child.value === null)) {
      // `gauntlet:` with nothing under it: the rest goes on the lines after the key.
      const key = pair.key as Node;
      if (value === undefined || !key.range) return undefined;
      return appendLines(text, endOfLine(text, key.range[1]), path.slice(i + 1), indent + step, step, value);
    }
    parentIndent = indent;
    node = pair.value;
  }
  return undefined;
}

/** Inserts `path: value` as nested block lines at `at` (a line start or the end of the text). */
function appendLines(
  text: string,
  at: number,
  path: string[],
  indent: number,
  step: number,
  value: string | number,
): string | undefined {
  const v = render(value);
  if (v === undefined) return undefined;
  const lines = path.map((k, j) => `${' '.repeat(indent + j * step)}${k}:${j === path.length - 1 ? ` ${v}` : ''}`);
  const before = text.slice(0, at);
  const lead = before === '' || before.endsWith('\n') ? '' : '\n';
  return `${before}${lead}${lines.join('\n')}\n${text.slice(at)}`;
}

function replaceScalar(text: string, pair: Pair, value: string | number): string | undefined {
  const v = render(value);
  const node = pair.value as Node | null;
  if (v === undefined || !YAML.isScalar(node) || !node.range) return undefined;
  if (node.type === 'BLOCK_FOLDED' || node.type === 'BLOCK_LITERAL') return undefined;
  return text.slice(0, node.range[0]) + v + text.slice(node.range[1]);
}

/** Removes the pair's lines: from its key's line start to the end of its value's last line. */
function removePair(text: string, pair: Pair): string | undefined {
  const key = pair.key as Node;
  if (!key.range) return undefined;
  const start = text.lastIndexOf('\n', key.range[0] - 1) + 1;
  if (!/^ *$/.test(text.slice(start, key.range[0]))) return undefined;
  const value = pair.value as Node | null;
  let end: number;
  if (value === null) end = endOfLine(text, key.range[1]);
  else if (!value.range) return undefined;
  else if (YAML.isMap(value) || YAML.isSeq(value)) {
    if ((value as YAMLMap).flow) end = endOfLine(text, value.range[1]);
    else end = blockEnd(text, endOfLine(text, key.range[1]), value.range[1], key.range[0] - start + 1);
  } else end = endOfLine(text, value.range[1]);
  return text.slice(0, start) + text.slice(end);
}
