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
