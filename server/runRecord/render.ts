// The run record as one self-contained HTML page: inline CSS, an inline SVG timeline, no
// script, and a CSP that forbids loading anything (so it opens from a file, a PR
// attachment or an e-mail and asks nothing of the network). Every value is escaped;
// report bodies go through markdown.ts.
import { formatCost } from '../../shared/format/money';
import type { RunRecord } from '../../shared/protocol/runRecord';
import { escapeHtml as esc, markdownHtml } from './markdown';

/** Where a lane ran, as its row's header says it: nothing for this machine. */
const onHostText = (host: string | null): string => (host === null ? '' : ` · on ${esc(host)}`);
import { timelineSvg } from './timeline';
import { findingState } from '../../shared/format/findingState';

type Lane = RunRecord['lanes'][number];

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'";

const when = (at: number | null) =>
  at === null ? '—' : new Date(at).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
const money = (n: number | null) => (n === null ? '—' : formatCost(n));

export function renderRunRecord(r: RunRecord): string {
  const title = `Run ${r.run} · ${r.project}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} — svc run record</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${esc(title)}</h1>
<p class="meta">svc run record · exported ${esc(when(r.exportedAt))} · svc ${esc(r.svcVersion)} · ${r.lanes.length} lane${r.lanes.length === 1 ? '' : 's'} · cost ${esc(r.cost.reported ? r.cost.spend : 'not reported')}</p>
</header>
<nav><a href="#tree">Tree</a> <a href="#chains">Chains</a> <a href="#timeline">Timeline</a> <a href="#reports">Reports</a> <a href="#diffs">Diffs</a> <a href="#cost">Cost</a>${r.landings.length ? ' <a href="#landings">Landings</a>' : ''}${r.parked.length ? ' <a href="#parked">Parked</a>' : ''}${r.reviews.length ? ' <a href="#reviews">Reviews</a>' : ''}</nav>
<main>
<section id="tree"><h2>Tree</h2>${tree(r)}</section>
<section id="chains"><h2>Chains</h2>${r.chains.map((c) => `<p class="chain"><b>${esc(c.key)}</b> <code>${esc(c.line)}</code></p>`).join('')}</section>
<section id="timeline"><h2>Timeline</h2>${timelineSvg(r)}<p class="legend"><span class="dot tl-launch"></span>launch <span class="dot tl-report"></span>report <span class="dot tl-verdict"></span>verdict <span class="dot tl-spend"></span>spend cap <span class="dot tl-stop"></span>end <span class="dot tl-reap"></span>reap <span class="dot tl-land"></span>landing</p>${events(r)}</section>
<section id="reports"><h2>Reports</h2>${r.reports.length ? r.reports.map((x) => report(r, x)).join('') : '<p>No reports.</p>'}</section>
<section id="diffs"><h2>Builder diffs</h2>${r.diffs.length ? r.diffs.map(diff).join('') : '<p>No builder iterations.</p>'}</section>
<section id="cost"><h2>Cost</h2>${cost(r)}</section>
${r.landings.length ? `<section id="landings"><h2>Landings</h2>${landings(r)}</section>` : ''}
${r.parked.length ? `<section id="parked"><h2>Parked patches</h2>${parked(r)}</section>` : ''}
${r.reviews.length ? `<section id="reviews"><h2>Review convoys</h2>${reviews(r)}</section>` : ''}
</main>
</body>
</html>
`;
}

function laneLine(l: Lane): string {
  const judged = l.judged ? ` · judges ${esc(l.judged.key)} i${l.judged.iteration}` : '';
  return `<span class="role role-${esc(l.role)}">${esc(l.role)}</span> <b>${esc(l.key)} i${l.iteration}${l.respawn ? ` r${l.respawn}` : ''}</b> <span class="name">#${l.id} ${esc(l.name)}</span>${judged} · ${esc(l.harness)}/${esc(l.model)}${l.effort ? ` (${esc(l.effort)})` : ''}${onHostText(l.host)} · <code>${esc(l.dir)}</code> · <span class="act act-${esc(l.activity)}">${esc(l.activity)}</span>${l.reapedAt !== null ? ' · reaped' : ''}`;
}

/** Launcher → lanes, critics and verifiers under the builder iteration they judge, successors under their source. */
function tree(r: RunRecord): string {
  const judges = (b: Lane) =>
    r.lanes.filter(
      (j) =>
        j.judged &&
        j.judged.key === b.key &&
        j.judged.iteration === b.iteration &&
        (j.role === 'critic' || j.role === 'verifier'),
    );
  const judged = new Set(
    r.lanes
      .filter(
        (j) =>
          j.judged &&
          r.lanes.some((b) => b.role === 'builder' && b.key === j.judged!.key && b.iteration === j.judged!.iteration),
      )
      .map((j) => j.id),
  );
  const successors = (id: number): string => {
    const kids = r.successors.filter((s) => s.parentId === id);
    return kids.length
      ? `<ul>${kids.map((s) => `<li><span class="role">successor</span> continues ← #${id}: <span class="name">#${s.id} ${esc(s.name)}</span> · ${esc(s.harness)}/${esc(s.model)} · ${esc(s.activity)}${successors(s.id)}</li>`).join('')}</ul>`
      : '';
  };
  const laneItem = (l: Lane): string => {
    const kids = [
      ...(l.role === 'builder' ? judges(l).map(laneItem) : []),
      ...r.lanes.filter((c) => c.parentId === l.id && !judged.has(c.id)).map(laneItem),
    ];
    return `<li>${laneLine(l)}${successors(l.id)}${kids.length ? `<ul>${kids.join('')}</ul>` : ''}</li>`;
  };
  const laneIds = new Set(r.lanes.map((l) => l.id));
  const top = r.launchers.map((c) => {
    const lanes = r.lanes.filter((l) => l.parentId === c.id && !judged.has(l.id));
    return `<li><span class="role">launcher</span> <span class="name">#${c.id} ${esc(c.name)}</span> (${esc(c.kind)}) · ${esc(c.harness)}/${esc(c.model)} · ${esc(c.activity)}<ul>${lanes.map(laneItem).join('')}</ul></li>`;
  });
  const orphans = r.lanes.filter(
    (l) => !laneIds.has(l.parentId) && !r.launchers.some((c) => c.id === l.parentId) && !judged.has(l.id),
  );
  return `<ul class="tree">${top.join('')}${orphans.map(laneItem).join('')}</ul>`;
}

function events(r: RunRecord): string {
  const name = new Map(r.lanes.map((l) => [l.id, l.name]));
  return `<details><summary>${r.timeline.length} events</summary><table><tr><th>time</th><th>lane</th><th>event</th></tr>${r.timeline
    .map(
      (e) =>
        `<tr><td>${esc(when(e.at))}</td><td>${esc(name.get(e.laneId) ?? `#${e.laneId}`)}</td><td>${esc(e.text)}</td></tr>`,
    )
    .join('')}</table></details>`;
}

function report(r: RunRecord, x: RunRecord['reports'][number]): string {
  const lane = r.lanes.find((l) => l.id === x.laneId);
  const verdict = x.verdict
    ? ` <span class="verdict v-${esc(x.verdict)}">${esc(x.verdict)}${x.defects !== null ? ` · ${x.defects} defect${x.defects === 1 ? '' : 's'}` : ''}</span>`
    : '';
  const defects = x.defectList?.length
    ? `<div class="defects"><h4>Defects</h4><ol>${x.defectList.map((d) => `<li>${esc(d)}</li>`).join('')}</ol></div>`
    : x.defectNote
      ? `<p class="note">${esc(x.defectNote)}</p>`
      : '';
  const head = x.headSha ? ` · ${esc(x.branch ?? '(detached)')}@<code>${esc(x.headSha.slice(0, 12))}</code>` : '';
  return `<article class="report status-${esc(x.status)}"><h3>${lane ? `${esc(lane.role)} ${esc(lane.key)} i${lane.iteration}` : ''} · report ${x.seq}: <span class="status">${esc(x.status)}</span>${verdict}</h3><p class="meta">${esc(x.lane)} · ${esc(when(x.at))}${head}</p><div class="body">${markdownHtml(x.body)}</div>${defects}</article>`;
}

function diff(d: RunRecord['diffs'][number]): string {
  const range = d.base && d.head ? `<code>${esc(d.base.slice(0, 12))}..${esc(d.head.slice(0, 12))}</code>` : '';
  const lines = d.patch
    .split('\n')
    .map((line) => {
      const cls =
        line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ') || line.startsWith('index ')
          ? 'd-file'
          : line.startsWith('+')
            ? 'd-add'
            : line.startsWith('-')
              ? 'd-del'
              : line.startsWith('@@')
                ? 'd-hunk'
                : '';
      return cls ? `<span class="${cls}">${esc(line)}</span>` : esc(line);
    })
    .join('\n');
  return `<article class="diff"><h3>builder ${esc(d.key)} i${d.iteration} ${range}</h3><p class="meta">${esc(d.lane)}</p>${d.note ? `<p class="note">${esc(d.note)}</p>` : ''}${d.stat ? `<pre class="stat">${esc(d.stat)}</pre>` : ''}${d.patch ? `<pre class="patch">${lines}</pre>` : ''}</article>`;
}

function cost(r: RunRecord): string {
  const rows = r.lanes
    .map(
      (l) =>
        `<tr><td>${esc(l.name)}</td><td>${esc(l.role)}</td><td class="num">${esc(money(l.cost))}</td><td>${esc(l.budget)}</td></tr>`,
    )
    .join('');
  const succ = r.successors
    .map((s) => `<tr><td>${esc(s.name)}</td><td>successor</td><td class="num">${esc(money(s.cost))}</td><td></td></tr>`)
    .join('');
  return `<table><tr><th>lane</th><th>role</th><th>cost</th><th>against its cap</th></tr>${rows}${succ}<tr class="total"><td>total</td><td></td><td class="num">${esc(r.cost.reported ? formatCost(r.cost.total) : '—')}</td><td>${esc(r.cost.spend)}</td></tr></table>`;
}

/** Each landing: lane, method, state, the base before and after, and every check with its result, time and log. */
function landings(r: RunRecord): string {
  const sha = (s: string | null) => (s ? `<code>${esc(s.slice(0, 12))}</code>` : '—');
  return `<table><tr><th>lane</th><th>method</th><th>state</th><th>base before → after</th><th>checks</th></tr>${r.landings
    .map((l) => {
      const checks = l.checks.length
        ? `<ul>${l.checks
            .map(
              (c) =>
                `<li>${esc(c.name)}: <b class="${c.ok ? 'ok' : 'bad'}">${c.ok ? 'passed' : c.timedOut ? 'timed out' : `failed (exit ${c.exitCode ?? 'signal'})`}</b> in ${(c.durationMs / 1000).toFixed(1)} s · <code>${esc(c.logPath)}</code></li>`,
            )
            .join('')}</ul>`
        : 'no checks ran';
      const why = l.message ? `<p class="note">${esc(l.message)}</p>` : '';
      return `<tr><td>${esc(l.lane)}</td><td>${esc(l.method)}</td><td>${esc(l.state)}${why}</td><td>${esc(l.base)}: ${sha(l.baseBefore)} → ${l.baseAfter ? sha(l.baseAfter) : l.endedAt === null ? 'not yet' : 'unchanged'}</td><td>${checks}</td></tr>`;
    })
    .join('')}</table>`;
}

function parked(r: RunRecord): string {
  return `<ul>${r.parked.map((p) => `<li><b>${esc(p.lane)}</b>: <code>${esc(p.file)}</code>${p.restoreCommand ? `<pre>${esc(p.restoreCommand)}</pre>` : ''}</li>`).join('')}</ul>`;
}

function reviews(r: RunRecord): string {
  return `<table><tr><th>issue</th><th>run</th><th>mode</th><th>commit</th><th>verdict</th><th>started</th></tr>${r.reviews
    .map(
      (v) =>
        `<tr><td>${esc(v.issue)} ${esc(v.title)}</td><td>${esc(v.runId)}</td><td>${esc(v.mode)}</td><td><code>${esc(v.sha.slice(0, 12))}</code></td><td>${esc(v.verdict ?? v.phase)}</td><td>${esc(when(v.at))}</td></tr>`,
    )
    .join('')}</table>${r.reviews.map(findings).join('')}`;
}

/** A run's posted findings, one per line: severity, location, title and state. */
function findings(v: RunRecord['reviews'][number]): string {
  if (!v.findings.length) return '';
  return `<h3>Findings of ${esc(v.runId)}</h3><ul>${v.findings
    .map(
      (f) =>
        `<li>[${esc(f.severity)}] <code>${esc(f.location)}</code> ${esc(f.title)} · ${esc(findingState(f).join(' · '))} <code>${esc(f.id)}</code></li>`,
    )
    .join('')}</ul>`;
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --panel: #f6f8fa; --line: #d1d9e0; --add: #1a7f37; --del: #cf222e; --accent: #0969da; --warn: #9a6700; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --panel: #151b23; --line: #3d444d; --add: #3fb950; --del: #f85149; --accent: #4493f8; --warn: #d29922; } }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header, nav, main { max-width: 1040px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 20px; }
h1 { margin: 0 0 4px; font-size: 24px; }
h2 { margin: 28px 0 10px; font-size: 18px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { margin: 0 0 4px; font-size: 15px; }
h4 { margin: 8px 0 4px; font-size: 13px; }
nav { position: sticky; top: 0; background: var(--bg); padding-top: 6px; padding-bottom: 6px; border-bottom: 1px solid var(--line); }
nav a { color: var(--accent); margin-right: 12px; text-decoration: none; }
.meta, .note, .legend { color: var(--muted); font-size: 12px; margin: 0 0 6px; }
.note { color: var(--warn); }
code, pre { font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; overflow-x: auto; white-space: pre; }
ul.tree, ul.tree ul { list-style: none; padding-left: 18px; margin: 2px 0; border-left: 1px solid var(--line); }
ul.tree { border-left: none; padding-left: 0; }
ul.tree li { margin: 3px 0; }
.role { display: inline-block; min-width: 70px; font-size: 11px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.name { color: var(--muted); }
.act-working, .act-starting { color: var(--accent); }
.act-needs-you, .act-failed-to-start { color: var(--warn); }
.chain code { font-size: 13px; }
.report, .diff { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; margin: 10px 0; background: var(--bg); }
.status-blocked { border-left: 4px solid var(--warn); }
.status-failed { border-left: 4px solid var(--del); }
.status-done { border-left: 4px solid var(--add); }
.verdict { font-size: 12px; padding: 1px 6px; border-radius: 10px; border: 1px solid var(--line); }
.v-PASS, .v-WOWED, .v-IMPRESSED { color: var(--add); }
.v-NOT_YET, .v-DEFECTS { color: var(--warn); }
.body :first-child { margin-top: 0; }
.defects ol { margin: 0; }
.d-add { color: var(--add); } .d-del { color: var(--del); } .d-hunk { color: var(--accent); } .d-file { font-weight: 600; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; border-bottom: 1px solid var(--line); padding: 4px 8px; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.total td { font-weight: 600; }
.timeline { display: block; margin: 6px 0; }
.tl-label, .tl-axis { font: 12px system-ui, sans-serif; fill: var(--fg); }
.tl-axis { fill: var(--muted); }
.tl-life { stroke: var(--line); stroke-width: 8; stroke-linecap: round; }
.tl-builder { stroke: #8fb8ee; } .tl-critic { stroke: #d8b4fe; } .tl-verifier { stroke: #a5d6a7; } .tl-orchestrator { stroke: #ffcc80; } .tl-play { stroke: #b0bec5; }
.tl-mark { stroke: var(--bg); stroke-width: 1.5; }
.tl-launch { fill: var(--accent); } .tl-report { fill: var(--add); } .tl-verdict { fill: #8250df; } .tl-spend { fill: var(--del); } .tl-stop { fill: var(--muted); } .tl-reap { fill: var(--warn); } .tl-land { fill: #1b7c83; }
.dot { display: inline-block; width: 9px; height: 9px; border-radius: 50%; margin: 0 3px 0 10px; vertical-align: middle; }
.dot.tl-launch { background: var(--accent); } .dot.tl-report { background: var(--add); } .dot.tl-verdict { background: #8250df; } .dot.tl-spend { background: var(--del); } .dot.tl-stop { background: var(--muted); } .dot.tl-reap { background: var(--warn); } .dot.tl-land { background: #1b7c83; }
.img { color: var(--muted); }
b.ok { color: var(--add); } b.bad { color: var(--del); }
`;
