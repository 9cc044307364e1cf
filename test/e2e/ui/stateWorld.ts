// What the preview-tab, panel-button, reload, polish and review-run suites look at: project
// st with a root conversation ("state root", which says something with inline code, a file
// name and a URL) and run s1 under it, builder api and its critic (NOT_YET, 1 defect), both
// reported. Set up once per e2e run by whichever of those suites runs first, so each also
// runs on its own (mocha --grep). Also the tab and panel helpers they share.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { makeRepo } from '../../helpers/scratch';
import { closeEditors, ok } from './cli';
import { once, startBuilderAndCritic, startLaneUnder } from './gauntletWorld';
import { session, timing } from './session';
import { runCommand, webviewFrame, webviewFrameWith } from './workbench';

export const PROJECT = 'st';

export interface StateWorld {
  /** Conversation ids: root, builder, critic. */
  id: Record<string, number>;
  /** Titles by conversation id, as the tabs show them. */
  title: Record<string, string>;
  /** The critic's verdict file (its report). */
  verdictFile: string;
}

export const stateWorld = once(async (): Promise<StateWorld> => {
  const { cs } = session();
  const t = Date.now();
  const id: Record<string, number> = {};
  const title: Record<string, string> = {};
  const { dir } = makeRepo(cs.scratch, PROJECT);
  await ok(['project', 'add', PROJECT, dir]);
  const briefs = path.join(cs.scratch.home, 'state-briefs');
  // The root says something with inline code (the high-contrast check reads it).
  const root = JSON.parse(
    await ok([
      'conv',
      'new',
      '--project',
      PROJECT,
      '--harness',
      'script',
      '--model',
      'm',
      '--title',
      'state root',
      '--prompt',
      '```svc-script\n- say: "Run `greet.sh Ada` to check it; README.md says how, and https://example.com/greet too."\n```\n',
      '--json',
    ]),
  ) as { conversation: { id: number } };
  id.root = root.conversation.id;
  ({ builder: id.builder, critic: id.critic } = await startBuilderAndCritic(
    (args) => startLaneUnder(id.root, args),
    briefs,
    's1',
    1,
  ));
  const lanes = JSON.parse(await ok(['lane', 'list', '--json'])) as {
    id: number;
    title: string;
    report: { verdictFile: string | null } | null;
  }[];
  for (const l of lanes) title[l.id] = l.title;
  title[id.root] = 'state root';
  const verdictFile = lanes.find((l) => l.id === id.critic)!.report!.verdictFile!;
  assert.ok(verdictFile.endsWith('.json'), verdictFile);
  timing('root, builder and critic started', t);
  return { id, title, verdictFile };
});

export const tabs = (page: Page) => page.locator('.tabs-container .tab .label-name').allTextContents();
export const activeTab = (page: Page) => page.locator('.tabs-container .tab.active');

/**
 * Opens the Roles panel. Under load code-server now and then leaves a new webview blank
 * (its resources never load; seen once in three runs, for any panel): closed and opened
 * again once, as a person would.
 */
export async function openRoles(page: Page) {
  await runCommand(page, 'svc: Open Roles');
  return webviewFrame(page, '[data-section="review"]').catch(async () => {
    await closeEditors();
    await runCommand(page, 'svc: Open Roles');
    return webviewFrame(page, '[data-section="review"]');
  });
}

/** The open conversation panel whose header names `#id`. */
export const panelOf = (page: Page, id: number, name: string) =>
  webviewFrameWith(page, 'header .facts', `#${id} ${name}`);
