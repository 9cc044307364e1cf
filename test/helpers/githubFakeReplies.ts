// How the GitHub fake answers: a status, a body and headers; GitHub's error body; and a
// list as one page of it, with the Link header GitHub sends (pages capped at the fake's
// `maxPerPage`, so clients must follow `next`).
import type { FakeAddress, Json } from './githubFakeState';

/** One request as the routes read it: `rest` is the path below /repos/<owner>/<repo>. */
export interface Ask {
  method: string;
  url: URL;
  rest: string;
  login: string;
  body: Json;
}

export type Reply = { status: number; body: unknown; headers?: Record<string, string> };

export const err = (status: number, message: string, errors?: unknown[]): Reply => ({
  status,
  body: {
    message,
    ...(errors ? { errors } : {}),
    documentation_url: 'https://docs.github.com/rest',
    status: String(status),
  },
});

export function page(at: FakeAddress, url: URL, items: unknown[]): Reply {
  const per = Math.min(Number(url.searchParams.get('per_page') ?? 30), at.maxPerPage);
  const n = Number(url.searchParams.get('page') ?? 1);
  const last = Math.max(1, Math.ceil(items.length / per));
  const link = (p: number) => {
    const u = new URL(url.toString());
    u.searchParams.set('page', String(p));
    return `<${at.url}${u.pathname}${u.search}>`;
  };
  const links = [];
  if (n < last) links.push(`${link(n + 1)}; rel="next"`, `${link(last)}; rel="last"`);
  if (n > 1) links.push(`${link(1)}; rel="first"`, `${link(n - 1)}; rel="prev"`);
  return {
    status: 200,
    body: items.slice((n - 1) * per, n * per),
    headers: links.length ? { link: links.join(', ') } : {},
  };
}
