// The demo's second half: an issue, its work agent, `svc done`, and a full review convoy
// (four reviewers and a parent) posting one verdict on the local pull request.
export interface DemoIo {
  svc(args: string[], opts?: { quiet?: boolean }): string;
  say(line: string): void;
  heading(line: string): void;
  home: string;
  svcHome: string;
  env: NodeJS.ProcessEnv;
}

export async function runReviewConvoy(io: DemoIo): Promise<void> {
  io.heading('A review convoy (coming with the review pipeline)');
}
