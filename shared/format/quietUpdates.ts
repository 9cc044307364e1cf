// ACP session updates that carry nothing a transcript shows (usage, commands, modes,
// config, session info). They neither print nor split a streamed message in two, in
// `svc conv log` and in the Conversation panel alike.
export const QUIET_UPDATES: ReadonlySet<string> = new Set([
  'usage_update',
  'available_commands_update',
  'current_mode_update',
  'config_option_update',
  'session_info_update',
]);
