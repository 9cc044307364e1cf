// One logger for the daemon, with a component prefix. Writes to SVC_HOME/logs/daemon.log
// (the daemon's stdout/stderr are redirected there by whoever starts it). Every line is
// escaped (control and non-ASCII bytes as \xNN or \uNNNN) and bounded, so text a client
// sent can never forge log lines or flood the file; the file rotates at a fixed size,
// keeping a bounded number of old files (daemon.log.1 newest).
import * as fs from 'node:fs';

export const LOG_MAX_BYTES = 5 * 1024 * 1024;
export const LOG_KEEP = 3;
const MAX_MESSAGE_CHARS = 2000;
const MAX_EXTRA_CHARS = 8000;

let sink: (line: string) => void = (line) => process.stderr.write(line);

export function logToFile(file: string, maxBytes = LOG_MAX_BYTES): void {
  let fd = fs.openSync(file, 'a', 0o600);
  let size = fs.fstatSync(fd).size;
  sink = (line) => {
    try {
      if (size + Buffer.byteLength(line) > maxBytes && size > 0) {
        fs.closeSync(fd);
        rotate(file);
        fd = fs.openSync(file, 'a', 0o600);
        size = 0;
      }
      size += fs.writeSync(fd, line);
    } catch {
      // the log is best effort; never let it take the daemon down
    }
  };
}

/** daemon.log → daemon.log.1 → … → daemon.log.<LOG_KEEP>; the oldest is dropped. */
function rotate(file: string): void {
  fs.rmSync(`${file}.${LOG_KEEP}`, { force: true });
  for (let i = LOG_KEEP - 1; i >= 1; i--) {
    if (fs.existsSync(`${file}.${i}`)) fs.renameSync(`${file}.${i}`, `${file}.${i + 1}`);
  }
  fs.renameSync(file, `${file}.1`);
}

/** A line written as is (our own text, e.g. the start failure clients look for). */
export function logLine(line: string): void {
  sink(line.endsWith('\n') ? line : line + '\n');
}

// Control characters (C0, DEL, C1) and the Unicode line and paragraph separators: any of
// them would break or forge a log line. On its own line, so the disable comment stays next
// to the expression it is about however the formatter wraps.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_IN_LOG = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/g;

/** Text from outside (a client's bytes, an error message quoting them) made safe for one log line. */
export function escapeForLog(text: string, max = MAX_MESSAGE_CHARS): string {
  const cut = text.length > max ? text.slice(0, max) : text;
  const escaped = cut.replace(UNSAFE_IN_LOG, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return text.length > max ? `${escaped}… (${text.length - max} more chars)` : escaped;
}

/** A bounded excerpt of raw bytes a client sent: printable ASCII as is, every other byte as \xNN. */
export function bytesExcerpt(bytes: Buffer, max = 120): string {
  let out = '';
  for (const b of bytes.subarray(0, max)) {
    out +=
      b >= 0x20 && b < 0x7f && b !== 0x5c && b !== 0x22
        ? String.fromCharCode(b)
        : `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return `"${out}"${bytes.length > max ? ` (+${bytes.length - max} bytes)` : ''}`;
}

export interface Logger {
  info(msg: string, extra?: unknown): void;
  warn(msg: string, extra?: unknown): void;
  error(msg: string, extra?: unknown): void;
}

export function logger(component: string): Logger {
  const write = (level: string, msg: string, extra?: unknown) => {
    const tail = extra === undefined ? '' : ' ' + extraText(extra);
    sink(`${new Date().toISOString()} ${level} [${component}] ${escapeForLog(msg)}${tail}\n`);
  };
  return {
    info: (m, e) => write('INFO ', m, e),
    warn: (m, e) => write('WARN ', m, e),
    error: (m, e) => write('ERROR', m, e),
  };
}

/** A stack keeps its line breaks (indented, so no line can pass for a log entry); the rest is escaped. */
function extraText(extra: unknown): string {
  const raw = extra instanceof Error ? (extra.stack ?? extra.message) : safeJson(extra);
  return raw
    .slice(0, MAX_EXTRA_CHARS)
    .split('\n')
    .map((l) => escapeForLog(l, MAX_EXTRA_CHARS))
    .join('\n    ');
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}
