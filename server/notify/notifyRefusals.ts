// Every refusal of `svc notify`, each message made here and nowhere else (docs/style.md
// §16). Reasons: shared/refusals/notify.ts.
import { refusalsOf } from '../../shared/errors';
import type { SvcError } from '../../shared/errors';
import { NOTIFY_REFUSALS } from '../../shared/refusals/notify';

const { notFound } = refusalsOf(NOTIFY_REFUSALS);

/** `configured`: the target names under notify:; `file`: config.yaml as shown to the person. */
export function unknownNotifyTargetError(
  name: string,
  configured: readonly string[],
  file: string,
): SvcError<'unknownNotifyTarget'> {
  return notFound(
    'unknownNotifyTarget',
    `no notify target '${name}' in ${file} (${configured.length ? `configured: ${configured.join(', ')}` : 'none configured; add one under notify:'})`,
  );
}
