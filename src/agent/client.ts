/**
 * How the HTTP layer reaches an agent: the agent's Durable Object for a caller's identity, with
 * typed submit/ask over the object's generic RPC entry points. Kinds, payload types and result
 * types come from the task registry; a result crosses the RPC boundary as JSON text and is parsed
 * with its kind's result schema on this side. A refusal (full queue, invalid payload) is thrown
 * as an AgentRefusal.
 */
import type { AgentIdentity } from "../vocabulary/identity";
import type { AskOutcome, SubmitOptions, SubmitOutcome } from "./memory-agent";
import { agentStub } from "./naming";
import { AgentRefusal } from "./refusal";
import type { TaskStatus } from "../engine/task-queue";
import { TASKS, type KindOf, type PayloadIn, type ResultOf } from "./registry";

export interface Submitted<R> {
  taskIds: string[];
  /** Writes ahead of the (last) task in the queue when it was accepted. */
  queuedAhead: number;
  status: TaskStatus;
  /** The result, when the task finished within the wait. */
  result: R | null;
  error: string | null;
}

export function agentClient(env: Pick<Env, "AGENT">, identity: AgentIdentity) {
  const stub = agentStub(env, identity);
  return {
    identity,
    stub,
    /** Queues a write or cycles; with `waitMs`, waits for it and carries its result when done. */
    async submit<K extends KindOf<"write" | "cycle">>(
      kind: K,
      payload: PayloadIn<K>,
      options: SubmitOptions = {},
    ): Promise<Submitted<ResultOf<K>>> {
      const answer: SubmitOutcome = await stub.submit(identity, kind, payload, options);
      if (!answer.ok) throw new AgentRefusal(answer.code, answer.message, answer.code === "invalid_payload" ? answer.issues : []);
      const result = answer.result !== null ? parseResult(kind, JSON.parse(answer.result)) : null;
      return { taskIds: answer.taskIds, queuedAhead: answer.queuedAhead, status: answer.status, result, error: answer.error };
    },
    /** Runs a read behind every write accepted before it. */
    async ask<K extends KindOf<"read">>(kind: K, payload: PayloadIn<K>): Promise<ResultOf<K>> {
      const answer: AskOutcome = await stub.ask(identity, kind, payload);
      if (!answer.ok) throw new AgentRefusal(answer.code, answer.message, answer.issues);
      return parseResult(kind, JSON.parse(answer.result));
    },
  };
}

export type AgentClient = ReturnType<typeof agentClient>;

function parseResult<K extends keyof typeof TASKS>(kind: K, value: unknown): ResultOf<K> {
  // The schema of TASKS[kind] is the one whose output type ResultOf<K> names; TypeScript cannot
  // follow a generic index into the registry, hence the annotation on a parsed value.
  const parsed: unknown = TASKS[kind].result.parse(value);
  return parsed as ResultOf<K>;
}
