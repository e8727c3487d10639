/**
 * The stored form of write operations (src/memory/write-ops.ts), parsed when an interrupted commit
 * is redone: an intent written by an earlier version of the code is read, never cast, and one
 * that no longer parses fails its task with the reason instead of being applied wrongly.
 */
import { z } from "zod";
import type { WriteOp } from "../memory/write-ops";
import { NODE_KINDS } from "../vocabulary/node-kinds";
import { MESSAGE_ROLES } from "../vocabulary/roles";

const Id = z.number().int();
const LinkKeySchema = z.object({ source: Id, target: Id, relation: z.string() });

const NodeSchema = z.object({
  id: Id,
  kind: z.enum(NODE_KINDS),
  name: z.string().nullable(),
  content: z.string(),
  originalLength: z.number().int(),
  phrase: z.string(),
  keywords: z.array(z.string()),
  role: z.enum(MESSAGE_ROLES).nullable(),
  speaker: z.string().nullable(),
  sourceMessageIds: z.array(z.string()),
  sourceTaskId: z.string().nullable(),
  messageTime: z.number().nullable(),
  createdAt: z.number(),
  supersededBy: Id.nullable(),
  meta: z.record(z.string(), z.unknown()).nullable(),
});

const NewLinkSchema = LinkKeySchema.extend({ level: z.number(), epoch: Id, createdAt: z.number() });

export const WriteOpSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("createNodes"), nodes: z.array(NodeSchema) }),
  z.object({ type: z.literal("createLinks"), links: z.array(NewLinkSchema) }),
  z.object({ type: z.literal("setLinks"), links: z.array(NewLinkSchema) }),
  z.object({ type: z.literal("supersede"), id: Id, by: Id }),
  z.object({ type: z.literal("addAliases"), aliases: z.array(z.object({ key: z.string(), name: z.string(), nodeId: Id })) }),
  z.object({ type: z.literal("deleteAliases"), keys: z.array(z.string()) }),
  z.object({
    type: z.literal("setFocus"),
    focus: z.array(z.object({ nodeId: Id, key: z.string(), name: z.string() })),
    released: z.array(Id),
    clock: z.number(),
    epoch: Id,
  }),
  z.object({ type: z.literal("deleteLinks"), keys: z.array(LinkKeySchema) }),
  z.object({
    type: z.literal("updateText"),
    update: z.object({
      id: Id,
      kind: z.enum(NODE_KINDS),
      speaker: z.string().nullable(),
      messageTime: z.number().nullable().optional(),
      content: z.string(),
      phrase: z.string(),
      keywords: z.array(z.string()),
    }),
  }),
  z.object({ type: z.literal("deleteNodes"), ids: z.array(Id) }),
  z.object({ type: z.literal("setClock"), clock: z.number() }),
  z.object({ type: z.literal("finishScan"), cycles: Id, skipped: z.array(Id) }),
  z.object({ type: z.literal("recordMessages"), ids: z.array(z.string()) }),
  z.object({ type: z.literal("forgetMessages"), ids: z.array(z.string()) }),
  z.object({ type: z.literal("markReinforced"), ids: z.array(Id), cycle: Id }),
  z.object({ type: z.literal("setScanCounts"), counts: z.array(z.object({ id: Id, count: Id })) }),
  z.object({
    type: z.literal("recordForgotten"),
    nodes: z.array(z.object({ id: Id, taskId: z.string().nullable(), messageIds: z.array(z.string()) })),
  }),
  z.object({ type: z.literal("scrubPurged"), nodeIds: z.array(Id), taskIds: z.array(z.string()), names: z.array(z.string()) }),
  z.object({ type: z.literal("count"), counters: z.record(z.string(), z.number()) }),
  z.object({ type: z.literal("purgeAgent"), nodeIds: z.array(Id) }),
]) satisfies z.ZodType<WriteOp>;
