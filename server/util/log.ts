// One logger for the daemon, with a component prefix. Writes to SVC_HOME/logs/daemon.log
// (the daemon's stdout/stderr are redirected there by whoever starts it).
import * as fs from 'node:fs';

let sink: (line: string) => void = (line) => process.stderr.write(line);

export function logToFile(file: string): void {
  const fd = fs.openSync(file, 'a', 0o600);
  sink = (line) => {
    try {
      fs.writeSync(fd, line);
    } catch {
      // the log is best effort; never let it take the daemon down
    }
  };
}

export interface Logger {
  info(msg: string, extra?: unknown): void;
  warn(msg: string, extra?: unknown): void;
  error(msg: string, extra?: unknown): void;
}

export function logger(component: string): Logger {
  const write = (level: string, msg: string, extra?: unknown) => {
    const tail = extra === undefined ? '' : ' ' + (extra instanceof Error ? (extra.stack ?? extra.message) : safeJson(extra));
    sink(`${new Date().toISOString()} ${level} [${component}] ${msg}${tail}\n`);
  };
  return {
    info: (m, e) => write('INFO ', m, e),
    warn: (m, e) => write('WARN ', m, e),
    error: (m, e) => write('ERROR', m, e),
  };
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}
