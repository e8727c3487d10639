/**
 * An agent's refusal of work it was asked to queue: its queue is full, or the payload does not
 * fit the task kind's schema. Thrown by the client (client.ts) and mapped to HTTP in one place
 * (src/http/errors.ts): 429 with Retry-After, or 400 with the issues.
 */
export type RefusalCode = "queue_full" | "invalid_payload";

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
