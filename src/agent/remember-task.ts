/**
 * Running one remember task (DESIGN §4). Model work happens once: its outcome, the plan with the
 * node ids it allocated, is checkpointed with the task before anything is written to D1. The D1
 * writes are one atomic batch of idempotent statements, so a task interrupted anywhere is re-run
 * from its checkpoint and writes the same rows once.
 */
import { z } from "zod";
import { MessageSchema, type RememberMessage } from "../api/messages";
import { mentionedEntityKeys, planFocus, planRemember, relationPairs, type RememberPlan } from "../memory/remember-plan";
import type { ModelMessage } from "../models/types";
import { runBatch } from "../storage/batch";
import { parseJsonOrUndefined } from "../storage/row-parsing";
import { enforceCapacity } from "./enforce-capacity";
import { ftsEntries, syncVectors } from "./indexing";
import { networkReader } from "./network-reader";
import { PermanentTaskError } from "./task-errors";
import type { AgentRepos, AgentRuntime } from "./runtime";
import type { TaskRecord } from "./task-queue";

export const RememberPayloadSchema = z.object({ messages: z.array(MessageSchema) });

const FocusEntrySchema = z.object({ nodeId: z.number(), key: z.string(), name: z.string() });
const PlanSchema = z.object({
  clock: z.number(),
  nodes: z.array(
    z.object({
      id: z.number(),
      kind: z.enum(["segment", "entity"]),
      name: z.string().nullable(),
      content: z.string(),
      originalLength: z.number(),
      phrase: z.string(),
      keywords: z.array(z.string()),
      role: z.enum(["user", "assistant", "system"]).nullable(),
      speaker: z.string().nullable(),
      sourceMessageIds: z.array(z.string()),
      messageTime: z.number().nullable(),
    }),
  ),
  links: z.array(z.object({ source: z.number(), target: z.number(), relation: z.string(), level: z.number() })),
  pin: z.array(z.number()),
  unpin: z.array(z.number()),
  focus: z.array(FocusEntrySchema),
  nextNodeId: z.number(),
}) satisfies z.ZodType<RememberPlan>;

export interface RememberResult {
  segments: number;
  nodes_created: number;
  entities_created: number;
  links_created: number;
  nodes_evicted: number;
  focus: string[];
}

export interface RememberOutcome {
  result: RememberResult;
  plan: RememberPlan;
  charactersRemembered: number;
  /** Nodes deleted to stay within capacity. */
  evicted: number;
}

export async function runRemember(rt: AgentRuntime, task: TaskRecord): Promise<RememberOutcome> {
  const payload = RememberPayloadSchema.safeParse(parseJsonOrUndefined(task.payload));
  if (!payload.success) throw new PermanentTaskError(`corrupt remember payload: ${payload.error.message}`);
  const { messages } = payload.data;
  const repos = await rt.repos();
  let plan = task.checkpoint ? PlanSchema.parse(JSON.parse(task.checkpoint)) : undefined;
  if (!plan) {
    const fresh = await buildPlan(rt, repos, task.id, messages);
    rt.storage.transactionSync(() => {
      rt.queue.saveCheckpoint(task.id, fresh);
      rt.meta.set("nextNodeId", fresh.nextNodeId);
    });
    plan = fresh;
  }
  await applyPlan(rt, repos, plan, task.id);
  const evicted = await enforceCapacity(rt, repos);
  const segments = plan.nodes.filter((n) => n.kind === "segment");
  return {
    plan,
    evicted,
    charactersRemembered: segments.reduce((sum, n) => sum + n.originalLength, 0),
    result: {
      segments: segments.length,
      nodes_created: plan.nodes.length,
      entities_created: plan.nodes.length - segments.length,
      links_created: plan.links.length,
      nodes_evicted: evicted,
      focus: plan.focus.map((f) => f.name),
    },
  };
}

async function buildPlan(rt: AgentRuntime, repos: AgentRepos, taskId: string, messages: RememberMessage[]): Promise<RememberPlan> {
  const params = rt.meta.params();
  const modelMessages: ModelMessage[] = messages.map((m, index) => ({
    index,
    role: m.role,
    content: m.content,
    ...(m.name !== undefined ? { name: m.name } : {}),
  }));
  const segments = await rt.model.segment(modelMessages);
  const extractions = segments.length > 0 ? await rt.model.extract(segments.map((s) => s.text)) : [];
  const existingEntities = await (await networkReader(rt, repos)).findEntities(mentionedEntityKeys(extractions));
  const focusPlan = planFocus({
    focus: rt.focus.list(),
    focusLimit: params.focus_limit,
    nextNodeId: rt.meta.nextNodeId(),
    extractions,
    existingEntities,
  });
  const pairs = relationPairs(focusPlan);
  const relations =
    pairs.length > 0
      ? await rt.model.nameRelations(pairs.map((p) => ({ segment: segments[p.segmentIndex]?.text ?? "", entity: p.entity.name })))
      : [];
  return planRemember({
    taskId,
    clock: rt.meta.clock(),
    linkInitialStrength: params.link_initial_strength,
    messages,
    segments,
    extractions,
    focusPlan,
    relations,
  });
}

/**
 * One atomic D1 batch: nodes, their full-text rows, links, then the focus pins (all idempotent).
 * Embeddings follow once the rows are committed.
 */
async function applyPlan(rt: AgentRuntime, repos: AgentRepos, plan: RememberPlan, taskId: string): Promise<void> {
  const now = rt.now();
  const statements = [
    ...repos.nodes.insertStatements(plan.nodes, taskId, now),
    ...repos.fts.upsertStatements(ftsEntries(plan.nodes)),
    ...repos.links.insertStatements(plan.links, now),
  ];
  if (plan.unpin.length > 0) statements.push(repos.links.unpinStatement(plan.unpin, plan.pin, plan.clock));
  if (plan.pin.length > 0) statements.push(repos.links.pinStatement(plan.pin));
  await runBatch(rt.d1, statements);
  const graph = rt.loadedGraph();
  if (graph) {
    for (const node of plan.nodes) graph.addNode({ ...node, sourceTaskId: taskId, createdAt: now, scanCount: 0, scannedCycle: 0 });
    for (const link of plan.links) graph.addLink({ ...link, createdAt: now });
    if (plan.unpin.length > 0) graph.unpin(plan.unpin, plan.pin, plan.clock);
    if (plan.pin.length > 0) graph.pin(plan.pin);
  }
  await syncVectors(rt, plan.nodes, []);
}
