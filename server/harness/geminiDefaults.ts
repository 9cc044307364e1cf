// gemini runs shell commands in a pseudo-terminal by default, and its ACP layer then reports
// their output as nothing at all (the result is a terminal snapshot, which it drops), so a
// command's output never reached `conv log` or the conversation view. svc points gemini at a
// system-defaults file that turns the pseudo-terminal off. System defaults are gemini's
// lowest-precedence settings layer, so a user's own settings still win; an administrator's
// system-defaults file (or a GEMINI_CLI_SYSTEM_DEFAULTS_PATH the user set) is left in place.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where build.mjs puts the file, beside the daemon bundle. */
export const GEMINI_DEFAULTS_FILE = path.join('harness', 'gemini-system-defaults.json');

/** Where gemini looks for an administrator's system defaults on this platform. */
function adminDefaultsPath(): string {
  if (process.platform === 'darwin') return '/Library/Application Support/GeminiCli/system-defaults.json';
  if (process.platform === 'win32') return 'C:\\ProgramData\\gemini-cli\\system-defaults.json';
  return '/etc/gemini-cli/system-defaults.json';
}

/** The env that gives gemini svc's defaults, or nothing when someone else's are in force. */
export function geminiDefaultsEnv(
  distDir: string,
  env: NodeJS.ProcessEnv = process.env,
  adminFile = adminDefaultsPath(),
): Record<string, string> {
  if (env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH || env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || fs.existsSync(adminFile)) return {};
  return { GEMINI_CLI_SYSTEM_DEFAULTS_PATH: path.join(distDir, GEMINI_DEFAULTS_FILE) };
}
