// The reasons conversations refuse with. Messages:
// server/conversations/conversationRefusals.ts; the extension matches on these names
// (DaemonRefusal.is), never on the text.
export const CONVERSATION_REFUSALS = [
  'badName',
  'noCwd',
  'badCwd',
  'badLines',
  'unknownConversation',
  'nameTaken',
  'alreadyRunning',
  'notRunning',
  'stillRunning',
  'hostNotAsked',
  'noSource',
  'callerNotProven',
  'callerNotThisSocket',
  'noOpenAsk',
] as const;
export type ConversationRefusal = (typeof CONVERSATION_REFUSALS)[number];
