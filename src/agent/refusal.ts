/**
 * An agent's refusal of work it was asked to queue: its queue is full, or the payload does not
 * fit the task kind's schema, or an Idempotency-Key comes back with a different request, or the
 * write cannot apply to the agent as it stands (conflict). Thrown by
 * the client (client.ts) and mapped to HTTP in one place (src/http/errors.ts).
 */
export type RefusalCode = "queue_full" | "invalid_payload" | "idempotency_conflict" | "capacity" | "conflict";

export class AgentRefusal extends Error {
  override readonly name = "AgentRefusal";
  constructor(
    readonly code: RefusalCode,
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}
