// The machine's load average as each bench prints it beside a ratio: a ratio taken at load 20
// and one taken idle are different measurements, and the reader must know which this is.
import * as os from 'node:os';

/** `load 1.2 0.9 0.7` (1, 5 and 15 minutes). */
export function loadAverage(): string {
  return `load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`;
}
