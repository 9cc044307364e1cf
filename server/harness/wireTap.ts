// A tap on the decoded ACP message stream, both directions, in wire order. Transcript
// and live state are built from here, never from the SDK's handlers: with handlers a
// turn's last chunk was seen after its end_turn, and a permission request before the
// tool call it refers to (docs/acp.md rule 1). The tap runs before the SDK sees a message.
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';

export type Direction = 'in' | 'out';

/**
 * `passIn`: whether an incoming message goes on to the SDK once tapped (absent: every one).
 * A message the tap alone acts on need not cost the SDK its validation.
 */
export function tapStream(
  stream: Stream,
  onMessage: (dir: Direction, msg: AnyMessage) => void,
  passIn: (msg: AnyMessage) => boolean = () => true,
): Stream {
  const tapIn = new TransformStream<AnyMessage, AnyMessage>({
    transform(msg, controller) {
      onMessage('in', msg);
      if (passIn(msg)) controller.enqueue(msg);
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
