// The harness choices the pickers offer: the names the daemon knows (built-ins and
// config.yaml's profiles) marked with the doctor's facts. A refusal (an older daemon)
// leaves the names unmarked, or the list empty, so a picker still works.
import { configRoles } from '../../shared/protocol/config';
import { doctorRun } from '../../shared/protocol/doctor';
import type { DaemonConnection } from '../connection/daemonConnection';
import { DaemonRefusal } from '../../shared/client/daemonRefusal';
import { harnessChoices } from './harnessChoices';
import type { HarnessChoice } from './harnessChoices';

async function orNull<T>(ask: () => Promise<T>): Promise<T | null> {
  try {
    return await ask();
  } catch (e) {
    if (DaemonRefusal.is(e)) return null;
    throw e;
  }
}

export async function pickerHarnesses(connection: DaemonConnection): Promise<HarnessChoice[]> {
  const [roles, doctor] = await Promise.all([
    orNull(() => connection.request(configRoles, {})),
    orNull(() => connection.request(doctorRun, { only: 'harnesses' })),
  ]);
  return harnessChoices(roles?.harnesses ?? [], doctor?.harnesses ?? null);
}
