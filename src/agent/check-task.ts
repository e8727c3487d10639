/**
 * The refusal check of a write (TaskDefinition.refuse): run in a read turn of the queue, so it sees
 * every write accepted before it, by MemoryAgent.submit before the write is queued. A refused
 * request then leaves nothing behind: no task, no idempotency key, no registry row
 * (docs/design.md, "Robustness promises", a 4xx writes nothing).
 */
import { z } from "zod";
import type { TaskRuntime } from "../engine/runtime";
import { defineTask, type TaskDefinition } from "../engine/define-task";

export const CheckPayloadSchema = z.object({ kind: z.string().min(1), payload: z.unknown() }).strict();
/** The refusal as the checked kind's result (parsed with that kind's schema by the client), or null. */
export const CheckResultSchema = z.object({ refusal: z.unknown() });

type Lookup = (kind: string) => TaskDefinition<unknown, unknown>;

async function refusalOf(rt: TaskRuntime, lookup: Lookup, kind: string, payload: unknown): Promise<unknown> {
  const definition = lookup(kind);
  if (!definition.refuse) return null;
  // The payload as stored with this check (the route validated it), parsed at rest; one that does
  // not parse is the queue's to refuse when its own task runs.
  const parsed = definition.payload.safeParse(payload);
  if (!parsed.success) return null;
  return (await definition.refuse(rt, parsed.data)) ?? null;
}

/** `lookup`: the kinds' definitions (passed in: the kinds hold this kind too). */
export function checkTask(lookup: Lookup) {
  return defineTask({
    lane: "read",
    payload: CheckPayloadSchema,
    result: CheckResultSchema,
    async run(rt: TaskRuntime, task) {
      return { status: "done", result: { refusal: await refusalOf(rt, lookup, task.payload.kind, task.payload.payload) } };
    },
  });
}
