/**
 * remember (docs/design.md, "remember(messages)"): segment, extract, update the focus, create the nodes and links, index them,
 * then one compression cycle right behind it. Model work runs once; its outcome is committed
 * through the write path (src/engine/write-path.ts) together with the ids it allocated, so a task
 * interrupted anywhere is redone from its stored intent and writes the same rows once. Messages
 * whose id the agent already holds are skipped: a retried or overlapping submission stores nothing
 * twice. Mentions reach existing entities through their aliases and singular/plural forms
 * (entity-resolution.ts), and after the commit every new segment is checked for conflicts with the
 * memories it shares an entity with (conflict-check.ts: updates supersede, contradictions are
 * linked), before capacity is enforced.
 */
import { z } from "zod";
import { planFocus, planRemember, relationPairs, rememberOps, type RememberPlan } from "../../memory/remember-plan";
import { digestOf } from "../../models/digest";
import { parseJsonOrUndefined } from "../../storage/row-parsing";
import { DIGEST_AHEAD_TASKS, type Conversation } from "../../engine/digest-ahead";
import { mentionRelations } from "../../language/entities/mentions";
import type { ModelMessage } from "../../models/types";
import { EPISODE_SUMMARY_MAX, planEpisode } from "../../memory/episode";
import { MessageSchema, type Message } from "../../vocabulary/message";
import type { EntityAlias } from "../../vocabulary/records";
import { ConflictSummarySchema } from "../shared/conflict-check";
import { resolveEntities } from "../shared/entity-resolution";
import { foreseenPairs, segmentSpeaker, type QueuedConversation } from "../shared/conflict-foresight";
import { networkReader } from "../../engine/network-reader";
import type { TaskRuntime } from "../../engine/runtime";
import { commit } from "../../engine/write-path";
import { embeddingText } from "../../engine/vector-writes";
import { afterWrite, afterWriteCheckpointSchema } from "../shared/after-write";
import { defineTask, type RunningTask } from "../../engine/define-task";
import { readCheckpoint } from "../../engine/checkpoint";

export const RememberPayloadSchema = z.object({ messages: z.array(MessageSchema).min(1) }).strict();
export type RememberPayload = z.infer<typeof RememberPayloadSchema>;

export const RememberResultSchema = z.object({
  segments: z.number().int(),
  nodes_created: z.number().int(),
  entities_created: z.number().int(),
  links_created: z.number().int(),
  nodes_evicted: z.number().int(),
  /** The submission's episode node (docs/design.md, "Context for prompts"), or null when nothing was stored. */
  episode_id: z.number().int().nullable().default(null),
  /** Messages skipped because the agent already holds their id. */
  messages_skipped: z.number().int(),
  focus: z.array(z.string()),
  /** The conflict check of the new segments (absent in results of tasks that ran before it existed). */
  conflicts: ConflictSummarySchema.optional(),
});
export type RememberResult = z.infer<typeof RememberResultSchema>;

const CheckpointSchema = afterWriteCheckpointSchema(RememberResultSchema);

export const rememberTask = defineTask({
  lane: "write",
  allocatesNodes: true,
  payload: RememberPayloadSchema,
  result: RememberResultSchema,
  // The focus after it: a purge takes out the names of entities only purged memories named.
  resultNames: ["$.focus"],
  async run(rt: TaskRuntime, task) {
    let checkpoint = readCheckpoint(task, CheckpointSchema);
    if (!checkpoint) {
      const { plan, skipped, aliases } = await buildPlan(rt, task);
      const result = resultOf(plan, skipped);
      const segments = plan.nodes.filter((n) => n.kind === "segment").map((n) => n.id);
      checkpoint = { result, evicted: false, conflicts: { phase: "pending", ids: segments } };
      const aliasOps = aliases.length > 0 ? [{ type: "addAliases" as const, aliases }] : [];
      await commit(rt, task.id, [...rememberOps(plan, task.seq), ...aliasOps, ...bookkeeping(plan, task.payload)], {
        // The ids the plan allocated are taken before anything is written.
        prepare: () => rt.meta.setNextNodeId(plan.nextNodeId),
        checkpoint,
      });
    }
    const result = await afterWrite(
      rt,
      task,
      checkpoint,
      rt.sharesModelCalls()
        ? (reader, clock) =>
            foreseenPairs(reader, digested(rt), { entries: rt.focus.list(), limit: rt.meta.params().focus_limit }, clock, rt.verdictsAhead)
        : undefined,
    );
    const autoCompress = rt.meta.params().auto_compress;
    // Every remember triggers one compression cycle (docs/design.md, "remember(messages)" step 7), unless forgetting is paused.
    // A remember that stored nothing (every message already held) is a no-op: no time passes either.
    const cycle = autoCompress && result.segments > 0;
    return { status: "done", result, followUps: cycle ? [{ kind: "compressMemories", payload: null }] : [] };
  },
});

async function buildPlan(
  rt: TaskRuntime,
  task: RunningTask<RememberPayload>,
): Promise<{ plan: RememberPlan; skipped: number; aliases: EntityAlias[] }> {
  const params = rt.meta.params();
  const repos = await rt.repos();
  const { messages, modelMessages } = conversationOf(rt, task.id, task.payload);
  // One model call per window for segments, extractions and the episode summary (docs/design.md,
  // "Model economy"); the local model answers the three tasks in turn, as before. A remote model's
  // digests of the queued remembers behind this one are asked ahead, sharing calls (digest-ahead.ts).
  const digest =
    modelMessages.length === 0
      ? undefined
      : rt.sharesModelCalls()
        ? await rt.digestAhead.digest(rt.model, { taskId: task.id, messages: modelMessages }, upcoming(rt), EPISODE_SUMMARY_MAX)
        : await digestOf(rt.model, modelMessages, EPISODE_SUMMARY_MAX);
  // The queued remembers' new nodes, embedded ahead while this one is written (embeddings-ahead.ts).
  if (rt.sharesModelCalls()) rt.embeddingsAhead.ahead(digested(rt).flatMap(embeddingTextsOf));
  const segments = digest?.segments ?? [];
  const extracted = digest?.extractions ?? [];
  const entities = await resolveEntities(await networkReader(rt, repos), extracted, {
    model: rt.model,
    texts: segments.map((s) => s.text),
  });
  const extractions = entities.extractions;
  const focusPlan = planFocus({
    focus: rt.focus.list(),
    focusLimit: params.focus_limit,
    nextNodeId: rt.meta.nextNodeId(),
    extractions,
    existingEntities: entities.existing,
  });
  const pairs = relationPairs(focusPlan);
  // Classical, never a model call: a segment is about an entity it mentions (by the name it was
  // spoken under, aliases resolved above), else only in its context.
  const relations = mentionRelations(
    pairs.map((p) => ({ segment: segments[p.segmentIndex]?.text ?? "", entity: entities.spokenName(p.segmentIndex, p.entity.name) })),
  );
  const now = rt.now();
  const plan = planRemember({
    taskId: task.id,
    epoch: task.seq,
    now,
    clock: rt.meta.clock(),
    linkInitialStrength: params.link_initial_strength,
    messages,
    segments,
    extractions,
    focusPlan,
    relations,
  });
  // The submission's episode (docs/design.md, "Context for prompts"): its summary, participants and span.
  const segmentNodes = plan.nodes.filter((n) => n.kind === "segment");
  if (segmentNodes.length > 0) {
    const summary = digest?.summary ?? "";
    if (summary.trim() !== "") {
      const episode = planEpisode({
        id: plan.nextNodeId,
        taskId: task.id,
        epoch: task.seq,
        now,
        clock: plan.clock,
        linkInitialStrength: params.link_initial_strength,
        summary: summary.trim(),
        messages,
        segments: segmentNodes,
      });
      plan.nodes.push(episode.node);
      plan.links.push(...episode.links);
      plan.nextNodeId += 1;
    }
  }
  return { plan, skipped: task.payload.messages.length - messages.length, aliases: entities.aliases(focusPlan) };
}

/** A remember's messages to store, and as the model sees them. */
function conversationOf(rt: TaskRuntime, taskId: string, payload: RememberPayload): { messages: Message[]; modelMessages: ModelMessage[] } {
  const messages = newMessages(rt, taskId, payload.messages);
  const modelMessages: ModelMessage[] = messages.map((m, index) => ({
    index,
    role: m.role,
    content: m.content,
    ...(m.name !== undefined ? { name: m.name } : {}),
  }));
  return { messages, modelMessages };
}

/** The queued remembers behind the running one, as the model would see them now. */
function upcoming(rt: TaskRuntime): Conversation[] {
  return rt.queue.upcoming("remember", DIGEST_AHEAD_TASKS).flatMap((t) => {
    const payload = RememberPayloadSchema.safeParse(parseJsonOrUndefined(t.payload));
    return payload.success ? [{ taskId: t.id, messages: conversationOf(rt, t.id, payload.data).modelMessages }] : [];
  });
}

/** The queued remembers behind the running one whose digests have come, up to the first that has not. */
function digested(rt: TaskRuntime): QueuedConversation[] {
  const out: QueuedConversation[] = [];
  for (const conversation of upcoming(rt)) {
    const digest = rt.digestAhead.known(conversation);
    if (!digest) break;
    out.push({ messages: conversation.messages, digest });
  }
  return out;
}

/** What a remember of this digest will embed: its segments as they are stored, entity names, the summary. */
function embeddingTextsOf({ messages, digest }: QueuedConversation): string[] {
  const segments = digest.segments.map((segment) =>
    embeddingText({ kind: "segment", content: segment.text, speaker: segmentSpeaker(segment.messageIndexes, messages) }),
  );
  return [...segments, ...digest.extractions.flatMap((e) => e.entities), digest.summary.trim()];
}

/**
 * The messages to store: those whose id the agent does not hold yet, each id once. A message
 * without an id gets `<task id>#<position in the submission>` as its provenance.
 */
function newMessages(rt: TaskRuntime, taskId: string, messages: readonly Message[]): Message[] {
  const held = rt.messages.held(messages.flatMap((m) => (m.id === undefined ? [] : [m.id])));
  const seen = new Set<string>();
  return messages.flatMap((m, i) => {
    if (m.id === undefined) return [{ ...m, id: `${taskId}#${i}` }];
    if (held.has(m.id) || seen.has(m.id)) return [];
    seen.add(m.id);
    return [m];
  });
}

/** The object's bookkeeping of a remember: the client's message ids now held, and the counters. */
function bookkeeping(plan: RememberPlan, payload: RememberPayload) {
  const segments = plan.nodes.filter((n) => n.kind === "segment");
  const clientIds = new Set(payload.messages.flatMap((m) => (m.id === undefined ? [] : [m.id])));
  const ids = [...new Set(segments.flatMap((n) => n.sourceMessageIds))].filter((id) => clientIds.has(id));
  return [
    { type: "recordMessages" as const, ids },
    {
      type: "count" as const,
      counters: { remembers: 1, characters_remembered: segments.reduce((sum, n) => sum + n.originalLength, 0) },
    },
  ];
}

function resultOf(plan: RememberPlan, skipped: number): RememberResult {
  const segments = plan.nodes.filter((n) => n.kind === "segment").length;
  return {
    segments,
    nodes_created: plan.nodes.length,
    entities_created: plan.nodes.filter((n) => n.kind === "entity").length,
    episode_id: plan.nodes.find((n) => n.kind === "episode")?.id ?? null,
    links_created: plan.links.length,
    nodes_evicted: 0,
    messages_skipped: skipped,
    focus: plan.focus.map((f) => f.name),
  };
}
