/**
 * The task registry: every kind of work an agent does, declared once (docs/design.md, "The task
 * registry"). The queue stores a kind's name and lane from here, the runner dispatches through
 * here, the status view lists these kinds, and the Durable Object's RPC methods accept any kind
 * whose lane fits them, validating the payload against the kind's own schema. Adding a kind is a
 * runner file, one line here, and the route that submits it.
 */
import type { z } from "zod";
import { PermanentTaskError } from "../task-errors";
import type { NewTask, TaskQueue, TaskRecord } from "../task-queue";
import { randomId } from "../runtime";
import { compressTask } from "./compress";
import { configureTask } from "./configure";
import type { Lane, TaskDefinition } from "./define-task";
import { deleteAgentTask } from "./delete-agent";
import { indexTask } from "./index-vectors";
import { recallTask } from "./recall";
import { rememberTask } from "./remember";
import { searchTask } from "./search";

export const TASKS = {
  remember: rememberTask,
  recall: recallTask,
  search: searchTask,
  compress: compressTask,
  index: indexTask,
  configure: configureTask,
  delete: deleteAgentTask,
} as const;

type Registry = typeof TASKS;
export type TaskKind = keyof Registry;
/** What a client submits for a kind (before defaults are applied). */
export type PayloadIn<K extends TaskKind> = z.input<Registry[K]["payload"]>;
export type ResultOf<K extends TaskKind> = z.output<Registry[K]["result"]>;
/** The kinds of one lane. */
export type KindOf<L extends Lane> = { [K in TaskKind]: Registry[K]["lane"] extends L ? K : never }[TaskKind];

/** Every kind, for schemas that list them (the task status view). */
export const TASK_KINDS = kindsOf(TASKS);

function kindsOf<T extends Record<string, unknown>>(record: T): [keyof T & string, ...(keyof T & string)[]] {
  const [first, ...rest] = Object.keys(record);
  if (first === undefined) throw new Error("the task registry is empty");
  return [first, ...rest];
}

export function isTaskKind(kind: string): kind is TaskKind {
  return Object.hasOwn(TASKS, kind);
}

/** A kind's definition, seen through what every definition has in common. */
export function definitionOf(kind: string): TaskDefinition<unknown, unknown> {
  if (!isTaskKind(kind)) throw new PermanentTaskError(`unknown task kind "${kind}"`);
  return TASKS[kind];
}

export class InvalidPayloadError extends Error {
  override readonly name = "InvalidPayloadError";
  constructor(
    message: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super(message);
  }
}

/**
 * Queues a task of `kind`, its payload validated into the kind's own type first (the payload is
 * stored as that type's JSON, which is what the runner parses again).
 */
export function enqueueTask(
  queue: TaskQueue,
  kind: string,
  payload: unknown,
  options: { now: number; after?: TaskRecord; id?: string },
): TaskRecord {
  const definition = definitionOf(kind);
  const parsed = definition.payload.safeParse(payload);
  if (!parsed.success) throw new InvalidPayloadError(`invalid ${kind} payload: ${parsed.error.message}`, parsed.error.issues);
  const task: NewTask = {
    id: options.id ?? randomId("tsk_"),
    kind,
    lane: definition.lane,
    payload: parsed.data,
    now: options.now,
    ...(options.after ? { after: options.after } : {}),
  };
  return queue.enqueue(task);
}
