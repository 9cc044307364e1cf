// A scripted review world for the e2e suite, like test/integration/reviewWorld.ts but
// trimmed to one path: the work agent commits a feature and runs `svc done`, each convoy
// lane writes an APPROVED report, the review parent waits for the lanes and posts. The
// globs name one project only, so agents of the suite's other projects stay unscripted.
// config.yaml is returned as hand-written text with comments: the Roles panel must keep
// every byte of it but the values it sets.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where each scripted agent leaves its command's output: $HOME/<CTL>/<ISSUE>/ (for a failure's diagnosis). */
export const CTL = 'review-ctl';

const LANE_SH = `printf '# Verdict: APPROVED\\n\\n## Summary\\n%s reviewed %s in run %s\\n\\n## Blockers\\nNone.\\n\\n## Evidence\\ngit diff %s %s\\n' "$SVC_REVIEW_LANE" "$SVC_REVIEW_SHA" "$SVC_REVIEW_RUN" "$SVC_REVIEW_BASE" "$SVC_REVIEW_SHA" > "$SVC_REVIEW_REPORT"
`;

const PARENT_SH = `d="$HOME/${CTL}/$SVC_ISSUE"; mkdir -p "$d"
svc review wait > "$d/wait-$SVC_REVIEW_RUN.out" 2>&1
{ printf '# Verdict: APPROVED\\n\\n## Summary\\nconvoy review of %s at %s\\n\\n## Blockers\\nNone.\\n\\n## Evidence\\nthe four lane reports\\n\\n## Convoy Notes\\n' "$SVC_ISSUE" "$SVC_REVIEW_SHA"
  for f in "$SVC_REVIEW_DIR"/*.md; do printf -- '- %s: %s\\n' "$(basename "$f" .md)" "$(head -1 "$f")"; done
} > "$SVC_REVIEW_REPORT.tmp"
mv "$SVC_REVIEW_REPORT.tmp" "$SVC_REVIEW_REPORT"
svc review post "$SVC_ISSUE" --run "$SVC_REVIEW_RUN" > "$d/post-$SVC_REVIEW_RUN.out" 2>&1
`;

const WORK_SH = `d="$HOME/${CTL}/$SVC_ISSUE"; mkdir -p "$d"
printf 'feature of %s\\n' "$SVC_ISSUE" > feature.txt && git add feature.txt && git commit -qm 'feature' && svc done > "$d/done.out" 2>&1
`;

export interface ReviewFixture {
  /** The seeded SVC_HOME/config.yaml text. */
  configYaml: string;
}

/** Writes the agents' scripts under `dir` and returns config.yaml text scripting project `project`'s agents. */
export function reviewFixture(dir: string, project: string): ReviewFixture {
  fs.mkdirSync(dir, { recursive: true });
  const script = (name: string, sh: string) => {
    fs.writeFileSync(path.join(dir, `${name}.sh`), sh);
    // A script file: one step that sources the shell script (the script harness's YAML steps).
    const yaml = path.join(dir, `${name}.yaml`);
    fs.writeFileSync(yaml, `- run: . "${path.join(dir, `${name}.sh`)}"\n`);
    return yaml;
  };
  const lane = script('lane', LANE_SH);
  const parent = script('parent', PARENT_SH);
  const work = script('work', WORK_SH);
  const configYaml = `# svc settings for the Roles e2e (hand-written: the panel must keep every comment)
harnesses:
  script:
    # project ${project}'s agents are scripted; the first matching glob wins
    scripts:
      "agent-${project}-*-review-*": ${lane}   # a convoy lane
      "agent-${project}-*-review": ${parent}   # the review parent
      "agent-${project}-*": ${work}   # the work agent

roles:
  review:
    mode: quick        # quick until the convoy is tuned
    # the review parent runs on the script harness
    model: parent-model
    harness: script
    sub:
      security:
        model: sec-old   # the Roles panel sets this
      correctness:
        model: cor-model

# end of file
`;
  return { configYaml };
}
