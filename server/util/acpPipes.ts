// The ACP SDK's newline-delimited JSON stream over a pair of Node pipes: an agent's stdin
// and stdout seen from the daemon, or the script agent's own stdout and stdin.
import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import type { Stream } from '@agentclientprotocol/sdk';

export function acpPipes(output: Writable, input: Readable): Stream {
  return ndJsonStream(
    Writable.toWeb(output) as WritableStream<Uint8Array>,
    // Node's web ReadableStream is the global one the SDK names, at run time and as a type
    // under server/tsconfig.json (no DOM). The root program, which type-checks this file
    // for the tests, has the DOM lib, whose ReadableStream type differs: there, and only
    // there, the assertion is needed.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- needed under the root tsconfig's DOM lib
    Readable.toWeb(input) as unknown as ReadableStream<Uint8Array>,
  );
}
