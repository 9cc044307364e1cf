// `runs/export` (`svc run export`, the Awareness card's "Export Run Record…"): the run's
// facts, scrubbed of home paths and credentials, and the page made of them.
import * as os from 'node:os';
import { runsExport } from '../../shared/protocol/runRecord';
import type { App } from '../app';
import { collectRunRecord } from './collect';
import type { RunRecordPorts } from './ports';
import { redactDeep } from './redact';
import { renderRunRecord } from './render';

export function registerRunRecord(app: App, ports: RunRecordPorts): void {
  app.rpc.handle(runsExport, async (p) => {
    const record = redactDeep(await collectRunRecord(ports, p.run, p.project), process.env.HOME ?? os.homedir());
    return { record, html: p.format === 'html' ? renderRunRecord(record) : null };
  });
}
