/**
 * An explicit memory (docs/design.md, "Memory operations", create_memory): a remember of one pre-cut
 * segment. No segmentation; the same extraction, entity resolution, focus update and focus links
 * as remember (src/memory/remember-plan.ts); the node is of kind `memory` and keeps its structure
 * in `meta`. Its links to its subject and object entities start at `importance` (default 0.5)
 * instead of 1 (while an entity is in the focus its links are pinned at 1 like every link, "The model").
 * Then the conflict check (conflict-check.ts), capacity, and one compression cycle unless
 * auto_compress is off, as after a remember.
 */
import { z } from "zod";
import { MAX_TIMESTAMP_MS, MIN_TIMESTAMP_MS } from "../../config/limits";
import { composeMemory, prepareContent, type ComposedMemory } from "../../memory/explicit-memory";
import { MEMORY_TYPES } from "../../vocabulary/memory-types";
import { planFocus, planRemember, relationPairs, rememberOps, type RememberPlan } from "../../memory/remember-plan";
import { levelOf } from "../../memory/strength";
import type { Extraction } from "../../models/types";
import { entityKey } from "../../language/entities/entity-key";
import { EN_STOP_WORDS } from "../../language/tokens/stopwords-en";
import { ZH_STOP_WORDS } from "../../language/tokens/stopwords-zh";
import { normalizeText } from "../../text/normalize";
import type { EntityAlias, MemoryNode } from "../../vocabulary/records";
import { RELATION } from "../../vocabulary/relations";
import { ConflictSummarySchema } from "../shared/conflict-check";
import { resolveEntities } from "../shared/entity-resolution";
import { networkReader } from "../../engine/network-reader";
import type { TaskRuntime } from "../../engine/runtime";
import { commit } from "../../engine/write-path";
import { afterWrite, afterWriteCheckpointSchema } from "../shared/after-write";
import { readCheckpoint } from "../../engine/checkpoint";
import { defineTask, type RunningTask } from "../../engine/define-task";

export const MemoryStructureSchema = z
  .object({
    subject: z.string().min(1),
    memory_type: z.enum(MEMORY_TYPES),
    topic: z.string().min(1),
    object: z.string().min(1).optional(),
    attributes: z.record(z.string(), z.string()).optional(),
  })
  .strict();

/** The agent's own type: times in milliseconds, the memory type by its English name (the HTTP layer maps 事件…). */
export const CreateMemoryPayloadSchema = z
  .object({
    content: z.string().min(1).optional(),
    structure: MemoryStructureSchema.optional(),
    importance: z.number().min(0).max(1).default(0.5),
    /** When it was said: the reference of relative times ("yesterday"); default when the task runs. */
    timestamp: z.number().int().min(MIN_TIMESTAMP_MS).max(MAX_TIMESTAMP_MS).optional(),
  })
  .strict()
  .refine((p) => (p.content === undefined) !== (p.structure === undefined), "either content or a structure, not both");

export const CreateMemoryResultSchema = z.object({
  node_id: z.number().int(),
  content: z.string(),
  entities: z.array(z.string()),
  focus: z.array(z.string()),
  nodes_evicted: z.number().int(),
  conflicts: ConflictSummarySchema.optional(),
});

const CheckpointSchema = afterWriteCheckpointSchema(CreateMemoryResultSchema);

export const createMemoryTask = defineTask({
  lane: "write",
  allocatesNodes: true,
  resultNodes: ["$.node_id"],
  resultNames: ["$.entities", "$.focus"],
  payload: CreateMemoryPayloadSchema,
  result: CreateMemoryResultSchema,
  async run(rt: TaskRuntime, task) {
    let checkpoint = readCheckpoint(task, CheckpointSchema);
    if (!checkpoint) {
      const { plan, aliases, composed } = await buildPlan(rt, task);
      const node = plan.nodes[0];
      if (!node) throw new Error("an explicit memory plans one node");
      checkpoint = {
        result: {
          node_id: node.id,
          content: composed.content,
          entities: entityNames(plan, node.id),
          focus: plan.focus.map((f) => f.name),
          nodes_evicted: 0,
        },
        evicted: false,
        conflicts: { phase: "pending", ids: [node.id] },
      };
      const aliasOps = aliases.length > 0 ? [{ type: "addAliases" as const, aliases }] : [];
      await commit(
        rt,
        task.id,
        [
          ...rememberOps(plan, task.seq),
          ...aliasOps,
          { type: "count", counters: { memories_written: 1, characters_remembered: node.originalLength } },
        ],
        { prepare: () => rt.meta.setNextNodeId(plan.nextNodeId), checkpoint },
      );
    }
    const result = await afterWrite(rt, task, checkpoint);
    const cycle = rt.meta.params().auto_compress;
    return { status: "done", result, followUps: cycle ? [{ kind: "compressMemories", payload: null }] : [] };
  },
});

/** The names of the entities the memory is about (关于), in focus order. */
function entityNames(plan: RememberPlan, nodeId: number): string[] {
  const ids = new Set(plan.links.filter((l) => l.source === nodeId && l.relation === RELATION.about).map((l) => l.target));
  return plan.focus.filter((f) => ids.has(f.nodeId)).map((f) => f.name);
}

/** Pronouns and particles are never entities (as in extraction): "我"/"I" as a subject adds none. */
function isEntityName(name: string): boolean {
  const norm = normalizeText(name);
  return entityKey(name) !== "" && !EN_STOP_WORDS.has(norm) && !ZH_STOP_WORDS.has(norm);
}

async function buildPlan(
  rt: TaskRuntime,
  task: RunningTask<z.output<typeof CreateMemoryPayloadSchema>>,
): Promise<{ plan: RememberPlan; aliases: EntityAlias[]; composed: ComposedMemory }> {
  const params = rt.meta.params();
  const repos = await rt.repos();
  const payload = task.payload;
  const now = rt.now();
  const reference = payload.timestamp ?? now;
  const structure = payload.structure;
  const composed = structure
    ? composeMemory(
        {
          subject: structure.subject,
          memoryType: structure.memory_type,
          topic: structure.topic,
          object: structure.object,
          attributes: structure.attributes,
        },
        reference,
      )
    : prepareContent(payload.content ?? "", reference);
  const [extraction] = await rt.model.extract([composed.content]);
  // The structure names the subject and object: they are entities first.
  const named = structure ? [structure.subject, structure.object ?? ""].filter(isEntityName) : [];
  const entitiesNamed: Extraction = {
    phrase: extraction?.phrase ?? "",
    keywords: extraction?.keywords ?? [],
    // A resolved date (2025-11-04) is when, not what: never an entity.
    entities: dedupe([...named, ...(extraction?.entities ?? []).filter((e) => !DATE_LIKE.test(e))]),
  };
  const entities = await resolveEntities(await networkReader(rt, repos), [entitiesNamed], {
    model: rt.model,
    texts: [composed.content],
  });
  const focusPlan = planFocus({
    focus: rt.focus.list(),
    focusLimit: params.focus_limit,
    nextNodeId: rt.meta.nextNodeId(),
    extractions: entities.extractions,
    existingEntities: entities.existing,
  });
  const pairs = relationPairs(focusPlan);
  const relations =
    pairs.length > 0
      ? await rt.model.nameRelations(pairs.map((p) => ({ segment: composed.content, entity: entities.spokenName(0, p.entity.name) })))
      : [];
  const plan = planRemember({
    taskId: task.id,
    epoch: task.seq,
    now,
    clock: rt.meta.clock(),
    linkInitialStrength: params.link_initial_strength,
    messages: [{ role: "user", content: composed.content, ...(payload.timestamp !== undefined ? { timestamp: payload.timestamp } : {}) }],
    segments: [{ text: composed.content, messageIndexes: [0] }],
    extractions: entities.extractions,
    focusPlan,
    relations,
  });
  const memoryId = focusPlan.segmentIds[0];
  // The subject and object (else every entity it names): the memory's links to them carry the
  // importance. Positions match: resolution rewrites names in place.
  const namedKeys = new Set(named.map(entityKey));
  const rewritten = entities.extractions[0]?.entities ?? [];
  const weightedKeys = new Set(
    entitiesNamed.entities.flatMap((name, i) =>
      namedKeys.size === 0 || namedKeys.has(entityKey(name)) ? [entityKey(rewritten[i] ?? name)] : [],
    ),
  );
  const idOf = new Map([...entities.existing].map(([key, e]) => [key, e.nodeId]));
  for (const e of focusPlan.newEntities) idOf.set(e.key, e.nodeId);
  const weightedIds = new Set([...weightedKeys].flatMap((key) => idOf.get(key) ?? []));
  const importanceLevel = levelOf(Math.max(payload.importance, params.link_break_threshold), plan.clock);
  const meta = {
    importance: payload.importance,
    language: composed.language,
    ...(structure
      ? {
          memory_type: structure.memory_type,
          subject: structure.subject,
          topic: structure.topic,
          ...(structure.object !== undefined ? { object: structure.object } : {}),
          attributes: composed.attributes,
        }
      : {}),
    ...(composed.resolvedTimes.length > 0 ? { resolved_times: composed.resolvedTimes } : {}),
  };
  const nodes = plan.nodes.map((n): MemoryNode =>
    n.id === memoryId ? { ...n, kind: "memory", sourceMessageIds: [], role: null, speaker: null, meta } : n,
  );
  const links = plan.links.map((l) => (l.source === memoryId && weightedIds.has(l.target) ? { ...l, level: importanceLevel } : l));
  return { plan: { ...plan, nodes, links }, aliases: entities.aliases(focusPlan), composed };
}

const DATE_LIKE = /^[\d\s./:-]+$/;

function dedupe(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.filter((n) => {
    const key = entityKey(n);
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
