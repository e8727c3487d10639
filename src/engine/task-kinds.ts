/**
 * A set of task kinds (define-task.ts) and what the queue needs from it: the definition of a
 * stored kind, and queuing a task (its payload validated first when its shape is unknown). The agent
 * uses one instance over its kinds (src/agent/agent-tasks.ts); tests build others (a kind of their own).
 */
import type { z } from "zod";
import { randomId } from "./runtime";
import { PermanentTaskError } from "./task-errors";
import type { NewTask, TaskQueue, TaskRecord } from "./task-queue";
import type { TaskDefinition } from "./define-task";

export class InvalidPayloadError extends Error {
  override readonly name = "InvalidPayloadError";
  constructor(
    message: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super(message);
  }
}

export class TaskKinds {
  constructor(private readonly kinds: Readonly<Record<string, TaskDefinition<unknown, unknown>>>) {}

  has(kind: string): boolean {
    return Object.hasOwn(this.kinds, kind);
  }

  /** A kind's definition; a stored kind this code does not know fails its task for good. */
  definition(kind: string): TaskDefinition<unknown, unknown> {
    const definition = this.has(kind) ? this.kinds[kind] : undefined;
    if (!definition) throw new PermanentTaskError(`unknown task kind "${kind}"`);
    return definition;
  }

  /**
   * Queues a task of `kind` whose payload is of unknown shape (a follow-up a runner names, a
   * test's), validated into the kind's own type first.
   */
  enqueue(queue: TaskQueue, kind: string, payload: unknown, options: { now: number; after?: TaskRecord; id?: string }): TaskRecord {
    const parsed = this.definition(kind).payload.safeParse(payload);
    if (!parsed.success) throw new InvalidPayloadError(`invalid ${kind} payload: ${parsed.error.message}`, parsed.error.issues);
    return this.enqueueAsIs(queue, kind, parsed.data, options);
  }

  /**
   * Queues a payload that is already of the kind's type (the agent's RPC methods take it typed
   * from the Worker, whose route validated it): stored as given, and parsed from storage when the
   * task runs, the one parse at rest (docs/design.md, "Task kinds").
   */
  enqueueAsIs(queue: TaskQueue, kind: string, payload: unknown, options: { now: number; after?: TaskRecord; id?: string }): TaskRecord {
    const task: NewTask = {
      id: options.id ?? randomId("tsk_"),
      kind,
      lane: this.definition(kind).lane,
      payload,
      now: options.now,
      ...(options.after ? { after: options.after } : {}),
    };
    return queue.enqueue(task);
  }
}
