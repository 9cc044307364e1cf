// The mark a review finding's line comment carries (docs/review-findings.md): the finding's
// identity, hidden in the comment, so a resolved thread dismisses that finding and every
// view can name the id `svc review dismiss` takes. Shared: the daemon writes and reads it,
// the shim and the Reviews tree show it.
export const FINDING_MARKER = /<!-- svc-finding: (f-[0-9a-f]{10}) -->/;

export function findingMarker(id: string): string {
  return `<!-- svc-finding: ${id} -->`;
}

/** The finding a line comment carries, if it is one of svc's. */
export function findingOf(body: string): string | undefined {
  return FINDING_MARKER.exec(body)?.[1];
}
