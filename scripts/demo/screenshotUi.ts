// What each README screenshot shows, as a fingerprint: the contributions, columns and view
// state behind it. `npm run demo:screenshots` records each screenshot's fingerprint (and
// the image's own hash) in docs/screenshots/screenshots.json; a unit test recomputes them
// and fails when a screenshot is older than the UI it shows (a column added, a title-bar
// action renamed, a field the panel shows), so the README never shows a UI that is gone.
//
// View-state files are compared without their comments and formatting (TypeScript's printer),
// so a reworded comment or a reformat leaves the screenshots current.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { z } from 'zod';
import { RolesView } from '../../shared/protocol/config';
import { InboxItem } from '../../shared/protocol/inbox';
import { RunRecord } from '../../shared/protocol/runRecord';
import { COLUMNS as AGENT_COLUMNS } from '../../webview/agents/columns';
import { CONVOY_COLUMNS, ROLE_COLUMNS } from '../../webview/roles/columns';

const REPO = path.resolve(__dirname, '..', '..');
export const SHOTS_DIR = path.join(REPO, 'docs', 'screenshots');
export const MANIFEST = path.join(SHOTS_DIR, 'screenshots.json');

/** The README screenshots `npm run demo:screenshots` takes from the demo's state. */
export const README_SHOTS = [
  'deck.png',
  'inbox.png',
  'reviews.png',
  'conversation.png',
  'agents.png',
  'roles.png',
  'run-record.png',
];

interface Contributes {
  viewsContainers?: unknown;
  views?: unknown;
  colors?: unknown;
  commands?: { command: string; title: string; icon?: string }[];
  menus?: Record<string, { command: string; when?: string; group?: string }[]>;
}
export interface PackageJson {
  contributes: Contributes;
}

export function readPackage(): PackageJson {
  return JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as PackageJson;
}

/** A TypeScript file as its code alone: no comments, one formatting. */
function codeOf(rel: string): string {
  const file = path.join(REPO, rel);
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  return ts.createPrinter({ removeComments: true }).printFile(source);
}

/** A view's title-bar actions as shown: each command's title and icon, in menu order. */
function titleBar(c: Contributes, view: string): unknown[] {
  const byId = new Map((c.commands ?? []).map((x) => [x.command, x]));
  return (c.menus?.['view/title'] ?? [])
    .filter((m) => (m.when ?? '').includes(`view == ${view}`))
    .map((m) => ({ ...byId.get(m.command), when: m.when, group: m.group }));
}

/** What each screenshot shows, by name. */
export function shownUi(pkg: PackageJson = readPackage()): Record<string, unknown> {
  const c = pkg.contributes;
  const sideBar = { containers: c.viewsContainers, views: c.views, colors: c.colors };
  return {
    'deck.png': {
      ...sideBar,
      title: titleBar(c, 'svc.commandDeck'),
      row: codeOf('extension/commandDeck/deckTypes.ts'),
    },
    'inbox.png': {
      ...sideBar,
      rowMenus: (c.menus?.['view/item/context'] ?? []).filter((m) => (m.when ?? '').includes('view == svc.inbox')),
      item: z.toJSONSchema(InboxItem, { io: 'output', unrepresentable: 'any' }),
    },
    'reviews.png': { ...sideBar, title: titleBar(c, 'svc.reviews') },
    'conversation.png': {
      editorTitle: c.menus?.['editor/title'],
      state: codeOf('shared/webview/conversationMessages.ts'),
    },
    'agents.png': { columns: AGENT_COLUMNS, state: codeOf('shared/webview/agentsMessages.ts') },
    'roles.png': {
      columns: [CONVOY_COLUMNS, ROLE_COLUMNS],
      state: codeOf('shared/webview/rolesMessages.ts'),
      view: z.toJSONSchema(RolesView, { io: 'output', unrepresentable: 'any' }),
    },
    'run-record.png': { record: z.toJSONSchema(RunRecord, { io: 'output', unrepresentable: 'any' }) },
  };
}

const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 16);

/** Each screenshot's UI fingerprint. */
export function uiFingerprints(pkg?: PackageJson): Record<string, string> {
  return Object.fromEntries(Object.entries(shownUi(pkg)).map(([name, ui]) => [name, sha(JSON.stringify(ui))]));
}

/** The hash of a screenshot file as it is now. */
export function imageHash(file: string): string {
  return sha(fs.readFileSync(file));
}

export interface ManifestEntry {
  /** The UI fingerprint when the screenshot was taken. */
  ui: string;
  /** The screenshot's own hash: a file replaced by hand no longer matches. */
  image: string;
}

export function readManifest(): Record<string, ManifestEntry> {
  return fs.existsSync(MANIFEST)
    ? (JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Record<string, ManifestEntry>)
    : {};
}

/** Records the screenshots just taken (the others keep their entries). */
export function recordShots(names: string[]): void {
  const now = uiFingerprints();
  const manifest = readManifest();
  for (const name of names) manifest[name] = { ui: now[name], image: imageHash(path.join(SHOTS_DIR, name)) };
  const sorted = Object.fromEntries(Object.entries(manifest).sort(([a], [b]) => a.localeCompare(b)));
  fs.writeFileSync(MANIFEST, `${JSON.stringify(sorted, null, 2)}\n`);
}
