/**
 * How the HTTP layer reaches an agent: the agent's Durable Object for a caller's identity, with
 * typed submit/ask over the object's generic RPC entry points. Kinds, payload types and result
 * types come from the task kinds (agent-tasks.ts); payloads (validated by the routes) and results cross the RPC
 * boundary as typed objects, parsed on neither side. A refusal (full queue, a reused
 * Idempotency-Key, a conflict) is thrown as an AgentRefusal.
 */
import type { TenantLimits } from "../config/quotas";
import type { AgentIdentity } from "../vocabulary/identity";
import type { Region } from "../vocabulary/regions";
import type { SubmitOptions } from "./submit-options";
import { agentStub, type NamingEnv } from "./naming";
import { AgentRefusal } from "./refusal";
import type { TaskStatus } from "../engine/task-queue";
import type { KindOf, PayloadIn, ResultOf, TaskKind } from "./agent-tasks";

export interface Submitted<R> {
  taskIds: string[];
  /** Writes ahead of the (last) task in the queue when it was accepted. */
  queuedAhead: number;
  status: TaskStatus;
  /** The result, when the task finished within the wait. */
  result: R | null;
  error: string | null;
}

/**
 * `limits`: the tenant's, sent with every write (the agent applies its quotas: tenant-terms.ts);
 * `region`: the tenant's, the object's location hint and sent with every write (a new agent's shard
 * is chosen there).
 */
export function agentClient(env: NamingEnv, identity: AgentIdentity, limits?: TenantLimits, region?: Region) {
  const stub = agentStub(env, identity, region);
  const terms = { ...(limits ? { limits } : {}), ...(region ? { region } : {}) };
  return {
    identity,
    stub,
    /** Queues a write or cycles; with `waitMs`, waits for it and carries its result when done. */
    async submit<K extends KindOf<"write" | "cycle">>(
      kind: K,
      payload: PayloadIn<K>,
      options: SubmitOptions = {},
    ): Promise<Submitted<ResultOf<K>>> {
      const answer = await stub.submit(identity, kind, payload, { ...options, ...terms });
      if (!answer.ok) throw new AgentRefusal(answer.code, answer.message, answer.code === "quota_exceeded" ? answer.quota : undefined);
      const result = answer.result === null ? null : sameKind<K>(answer.result);
      return { taskIds: answer.taskIds, queuedAhead: answer.queuedAhead, status: answer.status, result, error: answer.error };
    },
    /** Runs a read behind every write accepted before it. */
    async ask<K extends KindOf<"read">>(kind: K, payload: PayloadIn<K>): Promise<ResultOf<K>> {
      return sameKind<K>(await stub.ask(identity, kind, payload));
    },
  };
}

export type AgentClient = ReturnType<typeof agentClient>;

/**
 * The object's answer for kind K, typed as such again: the object's method answers ResultOf<K>,
 * but the RPC stub's type instantiates the method's type parameter with its constraint (every
 * kind's result). Nothing to parse: the object built it from the kind's run, or parsed it from
 * storage.
 */
function sameKind<K extends TaskKind>(result: unknown): ResultOf<K> {
  return result as ResultOf<K>;
}
