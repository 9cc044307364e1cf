// A tap on the decoded ACP message stream, both directions, in wire order. Transcript
// and live state are built from here, never from the SDK's handlers: with handlers a
// turn's last chunk was seen after its end_turn, and a permission request before the
// tool call it refers to (docs/acp.md rule 1). The tap runs before the SDK sees a message.
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';

export type Direction = 'in' | 'out';

export function tapStream(stream: Stream, onMessage: (dir: Direction, msg: AnyMessage) => void): Stream {
  const tapIn = new TransformStream<AnyMessage, AnyMessage>({
    transform(msg, controller) {
      onMessage('in', msg);
      controller.enqueue(msg);
    },
  });
  const tapOut = new TransformStream<AnyMessage, AnyMessage>({
    transform(msg, controller) {
      onMessage('out', msg);
      controller.enqueue(msg);
    },
  });
  tapOut.readable.pipeTo(stream.writable).catch(() => undefined);
  return { readable: stream.readable.pipeThrough(tapIn), writable: tapOut.writable };
}
