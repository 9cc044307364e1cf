// What the conversation layer tells the features above it, each event naming the
// conversation by id. A closed list: a misspelt event name is a type error, not a listener
// that never fires (string-named EventEmitter events allowed both).

/** Every event of the conversation layer: each carries the conversation's id. */
export interface ConversationEventMap {
  /** Anything a view or a wait reads of the conversation may have changed (row, live facts). */
  changed: number;
  /** Its agent's session is open. */
  started: number;
  /** Its agent is gone after having been alive (or was stopped while starting). */
  ended: number;
  /** Its agent failed to start. */
  spawnError: number;
  /** A prompt turn ended. */
  turnEnded: number;
  /** Transcript lines were stored for it. */
  transcript: number;
  /** A cost report was stored for it. */
  usage: number;
}

export type ConversationEvent = keyof ConversationEventMap;
type Listener<E extends ConversationEvent> = (id: ConversationEventMap[E]) => void;

export class ConversationEvents {
  private readonly listeners = new Map<ConversationEvent, Set<(id: number) => void>>();

  /** Subscribes; returns the unsubscribe. */
  on<E extends ConversationEvent>(event: E, fn: Listener<E>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(fn);
    return () => this.off(event, fn);
  }

  off<E extends ConversationEvent>(event: E, fn: Listener<E>): void {
    this.listeners.get(event)?.delete(fn);
  }

  emit<E extends ConversationEvent>(event: E, id: ConversationEventMap[E]): void {
    // A copy: a listener may unsubscribe (itself or another) while the event is delivered.
    for (const fn of [...(this.listeners.get(event) ?? [])]) fn(id);
  }
}
