/**
 * The task kinds: every kind of work an agent does, declared once (docs/design.md, "Task
 * kinds"). The queue stores a kind's name and lane from here, the runner dispatches through
 * here, the status view lists these kinds, and the Durable Object's RPC methods accept any kind
 * whose lane fits them, validating the payload against the kind's own schema. An operation's kind
 * is its task.ts, listed by `npm run generate:sdk` (src/operations/operation-tasks.ts); the
 * object's own upkeep kinds (index, check) are listed here.
 */
import type { z } from "zod";
import type { TaskHooks } from "../engine/runtime";
import type { ResultCarrier } from "../engine/result-scrub";
import type { TaskQueue, TaskRecord } from "../engine/task-queue";
import { checkTask } from "./check-task";
import { OPERATION_TASKS } from "../operations/operation-tasks";
import type { Lane, TaskDefinition } from "../engine/define-task";
import { indexTask } from "./index-task";
import { TaskKinds } from "../engine/task-kinds";

/** The kinds' definitions, for the refusal check (a function: the kinds hold that kind too). */
const definitionOf = (kind: string): TaskDefinition<unknown, unknown> => AGENT_TASKS.definition(kind);

export const TASKS = {
  ...OPERATION_TASKS,
  index: indexTask,
  check: checkTask(definitionOf),
} as const;

/**
 * Kinds renamed when each took its operation's name (one name per capability: URL, operationId,
 * tool, task kind). Stored tasks of an old kind are renamed when the object wakes, before any
 * request (renameStoredKinds), and a write's Idempotency-Key fingerprint keeps the old name, so a
 * retry that spans the upgrade is still recognised.
 */
export const RENAMED_KINDS: Readonly<Record<string, TaskKind>> = {
  search: "searchMemories",
  compress: "compressMemories",
  configure: "updateConfig",
  delete: "deleteAgent",
  memorize: "createMemory",
  memory: "getMemory",
  memories: "listMemories",
  history: "getMemoryHistory",
  update: "updateMemory",
  forget: "deleteMemory",
  link: "linkMemories",
  unlink: "unlinkMemories",
  reinforce: "reportFeedback",
  merge: "mergeEntities",
  export: "exportAgent",
  import: "importAgent",
  context: "getContext",
  profile: "getProfile",
};

/** The name a write's Idempotency-Key fingerprint carries: the kind's name before any rename. */
export function fingerprintName(kind: string): string {
  return Object.entries(RENAMED_KINDS).find(([, current]) => current === kind)?.[0] ?? kind;
}

type Kinds = typeof TASKS;
export type TaskKind = keyof Kinds;
/** What a client submits for a kind (before defaults are applied: the task applies them when it runs). */
export type PayloadIn<K extends TaskKind> = z.input<Kinds[K]["payload"]>;
export type ResultOf<K extends TaskKind> = z.output<Kinds[K]["result"]>;
/** The kinds of one lane. */
export type KindOf<L extends Lane> = { [K in TaskKind]: Kinds[K]["lane"] extends L ? K : never }[TaskKind];

/** Every kind, for schemas that list them (the task status view). */
export const TASK_KINDS = kindsOf(TASKS);

function kindsOf<T extends Record<string, unknown>>(record: T): [keyof T & string, ...(keyof T & string)[]] {
  const [first, ...rest] = Object.keys(record);
  if (first === undefined) throw new Error("no task kinds");
  return [first, ...rest];
}

/** The kinds that take new node ids (src/agent/node-id-room.ts). */
export const ALLOCATING_KINDS: readonly string[] = Object.entries(TASKS)
  .filter(([, definition]) => "allocatesNodes" in definition && definition.allocatesNodes === true)
  .map(([kind]) => kind);

/** Where each kind's result carries nodes and entity names (a purge scrubs them: src/engine/result-scrub.ts). */
export const RESULT_CARRIERS: readonly ResultCarrier[] = Object.entries(TASKS).flatMap(([kind, definition]) => {
  const nodes = "resultNodes" in definition ? definition.resultNodes : undefined;
  const names = "resultNames" in definition ? definition.resultNames : undefined;
  return nodes === undefined && names === undefined ? [] : [{ kind, nodes: nodes ?? [], names: names ?? [] }];
});

/** The agent's kinds: what its queue runs and its RPC entry points accept. */
export const AGENT_TASKS = new TaskKinds(TASKS);

/** What the agent's state needs of its kinds, so the state names none. */
export const AGENT_TASK_HOOKS: TaskHooks = {
  queueIndexRetry: (queue, ids, now) => AGENT_TASKS.enqueue(queue, "index", ids, { now }),
  resultCarriers: RESULT_CARRIERS,
};

/**
 * Queues a task of one of the agent's kinds whose payload is typed as the kind's (the object's RPC
 * methods, from its own Worker): stored as given, parsed from storage when it runs.
 */
export function enqueueTyped<K extends TaskKind>(
  queue: TaskQueue,
  kind: K,
  payload: PayloadIn<K>,
  options: { now: number; after?: TaskRecord; id?: string },
): TaskRecord {
  return AGENT_TASKS.enqueueAsIs(queue, kind, payload, options);
}

/**
 * The result the queue runner handed over in memory for a task of `kind`: what the kind's `run`
 * (or `refuse`) returned, typed by defineTask. The dispatch is generic and forgets the
 * type; nothing crossed storage or a boundary, so nothing is parsed here.
 */
export function resultInMemory<K extends TaskKind>(_kind: K, value: unknown): ResultOf<K> {
  return value as ResultOf<K>;
}

/** A finished task's result read back from storage (JSON text), parsed with its kind's schema: the parse at rest. */
export function storedResult<K extends TaskKind>(kind: K, json: string): ResultOf<K> {
  // The schema of TASKS[kind] is the one whose output type ResultOf<K> names; TypeScript cannot
  // follow a generic index into TASKS, hence the annotation on a parsed value.
  const parsed: unknown = TASKS[kind].result.parse(JSON.parse(json));
  return parsed as ResultOf<K>;
}

/** Queues a task of one of the agent's kinds, its payload validated first (see TaskKinds.enqueue). */
export function enqueueTask(
  queue: TaskQueue,
  kind: TaskKind,
  payload: unknown,
  options: { now: number; after?: TaskRecord; id?: string },
): TaskRecord {
  return AGENT_TASKS.enqueue(queue, kind, payload, options);
}
