// The PR verdict comment (docs/spec.md: "PR verdict comment"): when the host refuses a review on
// the author's own PR, the verdict is a comment that begins with this exact marker.
// Written by the pipeline, read by readiness; one format in one place.
export type MarkerVerdict = 'APPROVED' | 'CHANGES_REQUESTED';

const MARKER = /^<!-- svc-verdict: (APPROVED|CHANGES_REQUESTED) sha=([0-9a-f]{40}|[0-9a-f]{64}) -->/;

export function verdictMarker(verdict: MarkerVerdict, sha: string): string {
  return `<!-- svc-verdict: ${verdict} sha=${sha} -->`;
}

/** The marker at the very beginning of a comment body, if there is one. */
export function parseVerdictMarker(body: string): { verdict: MarkerVerdict; sha: string } | undefined {
  const m = MARKER.exec(body);
  return m ? { verdict: m[1] as MarkerVerdict, sha: m[2] } : undefined;
}
