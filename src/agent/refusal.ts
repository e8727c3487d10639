/**
 * An agent's refusal of work it was asked to queue: its queue is full, or an Idempotency-Key
 * comes back with a different request, or no room for a new agent (capacity), or a quota of the
 * tenant is reached (quota_exceeded: which, its limit, when to retry), or the write cannot apply to
 * the agent as it stands (conflict). A payload is not refused here: the route validated it.
 * Thrown by the client (client.ts) and mapped to HTTP in one place (src/http/errors.ts).
 */
import type { QuotaName } from "../config/quotas";

export type RefusalCode = "queue_full" | "idempotency_conflict" | "capacity" | "conflict" | "quota_exceeded";

/** The quota a quota_exceeded refusal names. */
export interface QuotaRefusal {
  name: QuotaName;
  limit: number;
  retryAfterS: number;
}

export class AgentRefusal extends Error {
  override readonly name = "AgentRefusal";
  constructor(
    readonly code: RefusalCode,
    message: string,
    readonly quota?: QuotaRefusal,
  ) {
    super(message);
  }
}

/** What the object answers a write a quota refuses. */
export function quotaRefusal(quota: QuotaRefusal): { ok: false; code: "quota_exceeded"; message: string; quota: QuotaRefusal } {
  return { ok: false, code: "quota_exceeded", message: `the tenant's ${quota.name} quota (${quota.limit}) is reached`, quota };
}
