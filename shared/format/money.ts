// Costs as money, for every view that prints one (CLI tables, `svc conv show`, the
// Agents page, the Conversation panel). Agents report costs as floats summed from tiny
// per-call prices (0.00028199999999999997): show cents, and for amounts under a cent two
// significant digits, so a cheap turn reads $0.00028 instead of $0.00 or float noise.

/** The amount as a decimal string without float noise: 2 decimals, or 2 significant digits under a cent. */
export function moneyAmount(amount: number): string {
  if (!Number.isFinite(amount)) return String(amount);
  const a = Math.abs(amount);
  if (a === 0 || a >= 0.01) return amount.toFixed(2);
  const digits = Math.min(20, 1 - Math.floor(Math.log10(a)));
  return amount.toFixed(digits).replace(/0+$/, '');
}

/** `$0.00028` for US dollars, `0.0003 EUR` for any other currency. */
export function formatCost(amount: number, currency = 'USD'): string {
  const n = moneyAmount(amount);
  if (currency.toUpperCase() === 'USD') return amount < 0 ? `-$${n.slice(1)}` : `$${n}`;
  return `${n} ${currency}`;
}

/**
 * A budget as written by a person (`2.50`, `$2.50`) → its amount in US dollars, or the
 * reason it is not one. The shim, the daemon's config/set and the Roles panel (before it
 * writes) all read amounts this way, so a value one accepts the others accept too.
 */
export function parseUsd(raw: string): { usd: number } | { why: string } {
  const t = raw.trim();
  const n = Number(t.replace(/^\$/, ''));
  if (!/^\$?\d+(\.\d+)?$/.test(t) || !(n > 0)) return { why: 'a budget is an amount of US dollars above 0, like 2.50' };
  if (n > 1_000_000) return { why: 'a budget is at most 1,000,000 US dollars' };
  return { usd: n };
}
