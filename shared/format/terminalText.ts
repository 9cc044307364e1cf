// Text bound for a terminal. Agents write report bodies, titles, transcripts and names, and
// a terminal obeys the control characters in what it prints: an escape sequence can set the
// window title, write the clipboard (OSC 52), clear the screen or rewrite the line above.
// Every control character but newline and tab is shown as its code instead (`\x1b`), so the
// person sees that it was there and the terminal never acts on it. C1 controls (U+0080 to
// U+009F) count too: some terminals read U+009B as the start of a sequence.

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` with every control character other than `\n` and `\t` written as `\xNN`. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

// JSON.stringify escapes U+0000 to U+001F itself but leaves DEL and the C1 controls raw,
// which terminalSafe would then write as `\xNN`: not a JSON escape, so the output would
// stop being JSON. They are written as JSON's own `\u00NN`, which reads back as the same text.
const JSON_RAW_CONTROL = /[\u007f-\u009f]/g;

/** JSON text (JSON.stringify's) with DEL and the C1 controls escaped the JSON way: the same value, nothing for terminalSafe to change. */
export function jsonTerminalSafe(json: string): string {
  return json.replace(JSON_RAW_CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
