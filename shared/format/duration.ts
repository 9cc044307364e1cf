// Durations as people write them in config.yaml and read them in lists: `90s`, `15m`, `2h`.

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;

/** `15m` → 900000; undefined when it is not `<n>s`, `<n>m` or `<n>h`. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d{1,6})(s|m|h)$/.exec(text.trim());
  return m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : undefined;
}

/** An age for a list: `12s`, `4m`, `3h 5m`, `2d 1h`. */
export function ageText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h}h ${m % 60}m` : `${h}h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d}d ${h % 24}h` : `${d}d`;
}
