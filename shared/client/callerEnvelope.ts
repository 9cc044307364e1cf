// What a request from inside an agent adds beside the method's own params: which
// conversation sends it ($SVC_CONVERSATION) and that conversation's credential
// ($SVC_CALLER_TOKEN). The daemon decides what the caller may do from them alone.
import { CALLER_CONVERSATION_PARAM, CALLER_TOKEN_PARAM } from '../protocol/rpc';

export function withCallerEnvelope(params: unknown, env: NodeJS.ProcessEnv | undefined): unknown {
  const conversation = env?.SVC_CONVERSATION?.trim();
  if (
    !conversation ||
    (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params)))
  )
    return params;
  const token = env?.SVC_CALLER_TOKEN;
  return {
    ...(params as object),
    [CALLER_CONVERSATION_PARAM]: conversation,
    ...(token ? { [CALLER_TOKEN_PARAM]: token } : {}),
  };
}
