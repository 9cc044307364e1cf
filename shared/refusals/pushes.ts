// The reasons a lane's push through svc (`lanes/push`, bin/git-remote-svc) is refused whole.
// Messages: server/lanes/pushRefusals.ts (which also words the refusal of each single ref).
export const PUSH_REFUSALS = ['pushNotFromLane', 'pushRemoteNotLocal'] as const;
export type PushRefusal = (typeof PUSH_REFUSALS)[number];
