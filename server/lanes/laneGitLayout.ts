// Which git layout a new local lane gets (laneGitRepo.ts): config.yaml `lanes.git`, else the
// default (`own`). A test daemon (SVC_TEST_CLOCK=1) takes SVC_TEST_LANES_GIT as the default
// instead, so a whole test tier can be run under either layout without each suite's
// config.yaml saying it; a config.yaml that names one still wins.
import { DEFAULT_LANE_GIT, LANE_GIT_LAYOUTS } from '../../shared/config';
import type { ConfigFile, LaneGitLayout } from '../../shared/config';

export function laneGitLayout(config: ConfigFile, env: NodeJS.ProcessEnv = process.env): LaneGitLayout {
  if (config.lanes?.git) return config.lanes.git;
  const test = env.SVC_TEST_CLOCK === '1' ? env.SVC_TEST_LANES_GIT : undefined;
  return (LANE_GIT_LAYOUTS as readonly string[]).includes(test ?? '') ? (test as LaneGitLayout) : DEFAULT_LANE_GIT;
}
