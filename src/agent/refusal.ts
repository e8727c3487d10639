/**
 * An agent's refusal of work it was asked to queue: its queue is full, or an Idempotency-Key
 * comes back with a different request, or no room for a new agent (capacity), or the write cannot
 * apply to the agent as it stands (conflict). A payload is not refused here: the route validated
 * it. Thrown by the client (client.ts) and mapped to HTTP in one place (src/http/errors.ts).
 */
export type RefusalCode = "queue_full" | "idempotency_conflict" | "capacity" | "conflict";

export class AgentRefusal extends Error {
  override readonly name = "AgentRefusal";
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
  }
}
