// What a model id can look like, for the checks before a model is written to a config file
// (`svc config set`, the Roles panel). The characters are those of every model id the
// harnesses and providers use: `claude-sonnet-4-5`, `sonnet[1m]`, `gpt-5.1-codex`,
// `openrouter/anthropic/claude-3.5-sonnet`, `claude-opus-4-1@20250805` (Vertex),
// `us.anthropic.claude-3-5-sonnet-20241022-v2:0` (Bedrock), `llama3:8b+q4` (Ollama). A space,
// `!`, a quote or a `$` is a typing slip, never a model.
const MODEL_ID = /^[A-Za-z0-9._:/@+[\]-]+$/;

/** Why a model id cannot be one (the characters refused), or undefined when it can. */
export function modelIdProblem(value: string): string | undefined {
  const v = value.trim();
  if (!v || MODEL_ID.test(v)) return undefined;
  const bad = [...new Set([...v].filter((c) => !MODEL_ID.test(c)))].map((c) => (c === ' ' ? 'a space' : `'${c}'`));
  return `no model id has ${bad.join(', ')} (a model id is letters, digits and . _ - : / @ + [ ])`;
}

/** A note when the harness's own list is known and does not name the model (saved anyway: a custom provider's models are not listed). */
export function modelNotOffered(
  value: string,
  harness: string,
  offered: readonly string[] | undefined,
): string | undefined {
  const v = value.trim();
  if (!v || !offered?.length || offered.includes(v)) return undefined;
  return `${harness} does not offer ${v} (it offers ${offered.join(', ')}); a lane with it may be refused by the agent`;
}
