// Driving the VS Code workbench in Debian's chromium with playwright-core, using the
// selectors docs/e2e.md found stable on 1.100 and 1.139. Never `playwright install`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Frame, Locator, Page } from 'playwright-core';
import { REPO } from '../../helpers/scratch';

export { launchBrowser } from '../../helpers/browser';

export const SCREENSHOTS = path.join(REPO, '.scratch', 'e2e-screenshots');
/** Browser console errors and page errors of every frame (webviews included), for a failure's evidence. */
export const consoleErrors: string[] = [];

export async function openWorkbench(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(`[console ${m.location().url}] ${m.text()}`);
  });
  page.on('pageerror', (e) => consoleErrors.push(`[pageerror] ${e.stack ?? e.message}`));
  // A loaded machine (CI, or several runs at once) can take well over 30 s to serve the workbench.
  await page.goto(url, { timeout: 120_000 });
  await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
  return page;
}

/** Clicks an activity-bar container by its title and waits for its sidebar. */
export async function openContainer(page: Page, title: string): Promise<void> {
  // A container showing a badge has the badge's words after its title in its label.
  const label = `a.action-label[aria-label="${title}"], a.action-label[aria-label^="${title} "]`;
  const entry = page.locator('.activitybar').locator(label);
  await entry.waitFor({ timeout: 30_000 });
  const item = page.locator('.activitybar .action-item', { has: page.locator(label) });
  if ((await item.getAttribute('class'))?.includes('checked')) return;
  await entry.click();
  await page.locator('.sidebar').waitFor();
}

/** The titles of the sidebar's view panes, in order (from the headers' "<title> Section" labels). */
export async function paneTitles(page: Page): Promise<string[]> {
  const labels = await page
    .locator('.sidebar .pane-header')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
  return labels.map((l) => l.replace(/ Section$/, ''));
}

/** A view pane's body (welcome content included), found by the view's title. */
export function paneBody(page: Page, title: string) {
  return page
    .locator('.sidebar .pane', { has: page.locator(`.pane-header[aria-label="${title} Section"]`) })
    .locator('.pane-body');
}

/** Opens the command palette from the workbench (not a webview, which keeps F1 to itself). */
export async function openPalette(page: Page): Promise<void> {
  const input = page.locator('.quick-input-widget input.input');
  // Keys pressed while a webview has focus stay in its iframe (and a webview that just
  // loaded takes the focus): give the focus back to the workbench, and press again if the
  // palette did not open.
  for (let attempt = 0; ; attempt++) {
    await page.evaluate(() => {
      const target = document.querySelector<HTMLElement>('.part.sidebar .monaco-list[tabindex="0"]');
      if (target) target.focus();
      else (document.activeElement as HTMLElement | null)?.blur();
    });
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ timeout: attempt < 2 ? 3000 : 30_000 });
      return;
    } catch (e) {
      if (attempt >= 2) throw e;
    }
  }
}

/**
 * Runs a palette command by its full title ("svc: Show Daemon Status"). The palette lists
 * the commands whose `when` held as it opened; a context key set a moment before (a draft
 * just opened, on a loaded machine) can miss it, so a palette without the command is
 * closed and opened again, as a person would; so is one that closed before it was typed into
 * (an editor that finishes opening just then takes the focus, and the palette closes).
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget input.input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  for (let attempt = 0; ; attempt++) {
    await openPalette(page);
    try {
      await input.fill(`>${title}`, { timeout: attempt < 2 ? 5_000 : 30_000 });
      await row.waitFor({ timeout: attempt < 2 ? 10_000 : 30_000 });
      break;
    } catch (e) {
      if (attempt >= 2) throw e;
      await page.keyboard.press('Escape');
      await input.waitFor({ state: 'hidden' });
    }
  }
  await row.click();
}

/** Waits for a notification (toast or screen-reader alert) containing `text`; returns its text. */
export async function waitForMessage(page: Page, text: string | RegExp, timeoutMs = 15_000): Promise<string> {
  const toast = page.locator('.notifications-toasts .notification-list-item-message', { hasText: text }).first();
  const alert = page.locator('.monaco-aria-container .monaco-alert', { hasText: text }).first();
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await toast.count()) > 0) return (await toast.textContent()) ?? '';
    // The screen-reader alert can come before the toast renders; VS Code prefixes each alert
    // with its severity ("Error: …", "Info: …"), which is not part of the message.
    if ((await alert.count()) > 0) return ((await alert.textContent()) ?? '').replace(/^(Error|Warning|Info): /, '');
    await page.waitForTimeout(100);
  }
  throw new Error(`no message matching ${text} within ${timeoutMs} ms`);
}

export async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications');
}

/** The webview frame (the inner active-frame) whose document has `selector`. */
export async function webviewFrame(page: Page, selector: string, timeoutMs = 20_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const f of page.frames()) {
      if (f === page.mainFrame()) continue;
      if (
        await f
          .locator(selector)
          .count()
          .catch(() => 0)
      )
        return f;
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`no webview has ${selector} within ${timeoutMs} ms`);
}

/** The status bar entry of the svc extension. */
export function statusItem(page: Page) {
  return page.locator('.part.statusbar .statusbar-item[id$="svc.status"]');
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

export interface TreeRow {
  level: number;
  label: string;
  description: string;
}

/** The rendered rows of a tree view pane, in order: level, label and description. */
export async function treeRows(page: Page, pane: string): Promise<TreeRow[]> {
  return paneBody(page, pane)
    .locator('.monaco-list-row[role="treeitem"]')
    .evaluateAll((els) =>
      els.map((e) => ({
        level: Number(e.getAttribute('aria-level')),
        label: e.querySelector('.label-name')?.textContent ?? '',
        description: e.querySelector('.label-description')?.textContent ?? '',
      })),
    );
}

/** Waits until the pane's rows equal `want` (compared as text, so the failure shows both). */
export async function waitForTree(page: Page, pane: string, want: TreeRow[], timeoutMs = 20_000): Promise<void> {
  const text = (rows: TreeRow[]) => rows.map((r) => `${r.level} ${r.label} | ${r.description}`).join('\n');
  const deadline = Date.now() + timeoutMs;
  let got: TreeRow[] = [];
  while (Date.now() < deadline) {
    got = await treeRows(page, pane);
    if (text(got) === text(want)) return;
    await page.waitForTimeout(150);
  }
  throw new Error(`the ${pane} rows did not become\n${text(want)}\nthey are\n${text(got)}`);
}

/** A tree row of a pane by its description's start (`#12 · `: the conversation id). */
export function rowByDescription(page: Page, pane: string, start: string) {
  return paneBody(page, pane).locator('.monaco-list-row[role="treeitem"]', {
    has: page.locator('.label-description', {
      hasText: new RegExp(`^${start.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    }),
  });
}

/** The webview frame whose `selector` element has `text` (e.g. one conversation's panel). */
export async function webviewFrameWith(
  page: Page,
  selector: string,
  text: string | RegExp,
  timeoutMs = 20_000,
): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const f of page.frames()) {
      if (f === page.mainFrame()) continue;
      if (
        await f
          .locator(selector, { hasText: text })
          .count()
          .catch(() => 0)
      )
        return f;
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`no webview has ${selector} with ${text} within ${timeoutMs} ms`);
}

/** Picks the item labelled `label` in the open quick pick (typing it first to filter). */
export async function quickPick(page: Page, label: string): Promise<void> {
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor();
  await input.fill(label);
  const row = page
    .locator('.quick-input-list .monaco-list-row', {
      has: page.locator('.label-name', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }),
    })
    .first();
  await row.waitFor();
  await row.click();
}

/** A tree row's decoration badge (a verdict's defect count or ✓) and its colour, as rendered: the CSS `::after` VS Code makes for a FileDecoration. */
export async function rowBadge(row: Locator): Promise<{ text: string; color: string }> {
  return row.evaluate((el) => {
    const b = el.querySelector('[class*="-itemBadge-"]');
    if (!b) return { text: '', color: '' };
    const after = getComputedStyle(b, '::after');
    return { text: after.content.replace(/^"|"$/g, ''), color: after.color };
  });
}

/** A tree row by its label text, exactly. */
export function rowByLabel(page: Page, pane: string, label: string) {
  return paneBody(page, pane).locator('.monaco-list-row[role="treeitem"]', {
    has: page.locator('.label-name', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }),
  });
}

/**
 * Scrolls a pane's tree with the mouse wheel until `row` is drawn: a tree draws only the
 * rows in view, so a row below the fold (a long deck, after earlier suites) does not exist
 * for a locator until scrolled to. From the top down, then again (rows may still arrive).
 */
export async function revealRow(page: Page, pane: string, row: Locator, timeoutMs = 20_000): Promise<void> {
  const list = paneBody(page, pane).locator('.monaco-list').first();
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await list.hover();
    await page.mouse.wheel(0, -100_000);
    for (let step = 0; step < 40 && Date.now() < deadline; step++) {
      if ((await row.count()) > 0) return row.scrollIntoViewIfNeeded();
      await page.mouse.wheel(0, 150);
      await page.waitForTimeout(100);
    }
  }
  throw new Error(`no such row in ${pane} within ${timeoutMs} ms`);
}

/** Clicks a view's title-bar action by its title (shown on hover, as a person reaches it). */
export async function clickViewAction(page: Page, view: string, title: string): Promise<void> {
  const header = page.locator(`.sidebar .pane-header[aria-label="${view} Section"]`);
  await header.hover();
  const action = header.locator(`.actions a.action-label[aria-label="${title}"]`);
  const more = header.locator('.actions a.action-label.codicon-toolbar-more');
  // An inline icon, or else an item of the title bar's "…" menu.
  await action.or(more).first().waitFor();
  if (await action.count()) return action.click();
  await more.click();
  // The menu ignores a click in its first moments (against accidental clicks), so a click it
  // ignored (the menu stays open) is made again, as in contextMenuItem.
  const entry = page.locator('.context-view .monaco-menu .action-item .action-label', {
    hasText: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
  });
  for (let i = 0; i < 4; i++) {
    await entry.click();
    if (
      await page
        .locator('.context-view .monaco-menu')
        .waitFor({ state: 'hidden', timeout: 1_000 })
        .then(
          () => true,
          () => false,
        )
    )
      return;
  }
  throw new Error(`the "…" menu of ${view} stayed open after clicking ${title}`);
}

/** The inline icons of a view's title bar (the "…" menu's button included), by their labels. */
export async function viewTitleIcons(page: Page, view: string): Promise<string[]> {
  const header = page.locator(`.sidebar .pane-header[aria-label="${view} Section"]`);
  const read = () =>
    header
      .locator('.actions .action-item a.action-label')
      .evaluateAll((els) =>
        els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => e.getAttribute('aria-label') ?? ''),
      );
  // The icons come once the extension has activated and set the context keys their `when`
  // clauses read: right after the container opens the bar can still be empty.
  const deadline = Date.now() + 15_000;
  for (;;) {
    await header.hover();
    const icons = await read();
    if (icons.length || Date.now() > deadline) return icons;
    await page.waitForTimeout(200);
  }
}

/** Whether the palette lists a command with exactly this title (a `when` that does not hold hides it); closes the palette. */
export async function paletteOffers(page: Page, title: string): Promise<boolean> {
  const input = page.locator('.quick-input-widget input.input');
  await openPalette(page);
  await input.fill(`>${title}`);
  // The list filters as typed, late on a loaded machine: read it until it lists the title,
  // or shows only rows that match the filter (each highlights it; none when nothing matches).
  const started = Date.now();
  let offered = false;
  for (;;) {
    const rows = await page.locator('.quick-input-list .monaco-list-row').evaluateAll((els) =>
      els
        .filter((e) => (e as HTMLElement).offsetParent !== null)
        .map((e) => ({
          label: (e.querySelector('.label-name')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
          matched: !!e.querySelector('.label-name .highlight'),
        })),
    );
    offered = rows.some((r) => r.label === title);
    const settled = rows.every((r) => r.matched) && Date.now() - started > 400;
    if (offered || settled || Date.now() - started > 5000) break;
    await page.waitForTimeout(100);
  }
  await page.keyboard.press('Escape');
  await input.waitFor({ state: 'hidden' });
  return offered;
}

/** The open modal dialog: its message and detail text, and a click on one of its buttons. */
export async function modalDialog(
  page: Page,
  timeoutMs = 15_000,
): Promise<{ message: string; detail: string; buttons: string[]; click(label: string): Promise<void> }> {
  const box = page.locator('.monaco-dialog-box');
  await box.waitFor({ timeout: timeoutMs });
  const message = ((await box.locator('.dialog-message-text').textContent()) ?? '').trim();
  const detail = (
    (await box
      .locator('.dialog-message-detail')
      .textContent()
      .catch(() => '')) ?? ''
  ).trim();
  const buttons = (await box.locator('.dialog-buttons .monaco-button').allTextContents()).map((b) => b.trim());
  return {
    message,
    detail,
    buttons,
    async click(label: string) {
      await box
        .locator('.dialog-buttons .monaco-button', {
          hasText: new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`),
        })
        .click();
      await box.waitFor({ state: 'hidden' });
    },
  };
}

/** Clicks a button of the notification toast whose message contains `text`. */
export async function clickNotificationButton(page: Page, text: string | RegExp, button: string): Promise<void> {
  const item = (where: string) =>
    page
      .locator(`${where} .notification-list-item`, {
        has: page.locator('.notification-list-item-message', { hasText: text }),
      })
      .first();
  const toast = item('.notifications-toasts');
  // A toast hides after a while (sooner while a webview has the focus); the notification
  // center keeps it, as the bell does for a person.
  if (
    !(await toast.waitFor({ timeout: 5_000 }).then(
      () => true,
      () => false,
    ))
  ) {
    await runCommand(page, 'Notifications: Show Notifications');
    const kept = item('.notifications-center');
    await kept.waitFor({ timeout: 10_000 });
    await kept.hover();
    await kept.locator('.monaco-button', { hasText: button }).first().click();
    return;
  }
  await toast.locator('.monaco-button', { hasText: button }).first().click();
}

/**
 * Runs a tree row's context-menu item: a right-click, then a click on the item. VS Code's
 * menu ignores a mouse-up in the first 100 ms after it opens (against accidental clicks), a
 * timer a loaded machine runs late, so a click the menu ignored (it stays open) is made
 * again, as a person would.
 */
export async function contextMenuItem(page: Page, row: Locator, item: string): Promise<void> {
  await row.click({ button: 'right' });
  const menu = page.locator('.context-view .monaco-menu');
  const action = menu.locator('.action-item .action-label', {
    hasText: new RegExp(`^${item.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
  });
  await action.hover();
  await page.waitForTimeout(150);
  for (let attempt = 0; ; attempt++) {
    await action.click();
    try {
      await menu.waitFor({ state: 'detached', timeout: 1500 });
      return;
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}

/** A tree row's icon as rendered: its codicon (`bell-dot`, `sync` …) and its colour. */
export async function rowIcon(row: Locator): Promise<{ codicon: string; color: string }> {
  return row.locator('.custom-view-tree-node-item-icon').evaluate((el) => ({
    codicon: (
      Array.from(el.classList).find((c) => c.startsWith('codicon-') && c !== 'codicon-modifier-spin') ?? ''
    ).replace(/^codicon-/, ''),
    color: getComputedStyle(el).color,
  }));
}

/** The colour a theme colour id (`charts.green`) has in the current theme, as the page computes it. */
export async function themeColor(page: Page, id: string): Promise<string> {
  return page.evaluate(
    (name) => {
      // The theme's colour variables are set on the workbench element, not the document root.
      const probe = document.createElement('span');
      probe.style.color = `var(--vscode-${name})`;
      (document.querySelector('.monaco-workbench') ?? document.body).append(probe);
      const color = getComputedStyle(probe).color;
      probe.remove();
      return color;
    },
    id.replace(/\./g, '-'),
  );
}

/** The facts of a row's Markdown tooltip, as shown on hover: one text per list item. */
export async function rowTooltip(page: Page, row: Locator): Promise<string[]> {
  await row.hover();
  const hover = page.locator('.monaco-hover:visible li');
  await hover.first().waitFor({ timeout: 10_000 });
  return (await hover.allTextContents()).map((t) => t.trim());
}

/** The hover (inline) actions a hovered tree row shows, by their titles. */
export async function hoverActions(row: Locator): Promise<(string | null)[]> {
  const actions = row.locator('.actions a.action-label');
  await actions.first().waitFor();
  return actions.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
}

/**
 * Expands or collapses a side bar view by its header, as a person does: on its chevron, at
 * the header's left end (the middle of a narrow header can be one of its title-bar buttons,
 * which show on hover: the Command Deck's "Start Lane" sits there).
 */
export async function setPaneExpanded(page: Page, view: string, expanded: boolean): Promise<void> {
  const header = page.locator(`.sidebar .pane-header[aria-label="${view} Section"]`);
  if (((await header.getAttribute('aria-expanded')) === 'true') !== expanded)
    await header.click({ position: { x: 10, y: 11 } });
}

/** The count badge on the svc activity-bar icon (a TreeView badge of the Inbox: every item waiting). */
export function activityBadge(page: Page): Locator {
  return page
    .locator('.activitybar .action-item', { has: page.locator('a.action-label[aria-label^="svc"]') })
    .locator('.badge .badge-content');
}
