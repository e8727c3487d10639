/**
 * The stored form of the records write operations carry (nodes, links, their keys), the pieces
 * of the write table's schemas (write-table.ts): an intent written by an earlier version of the
 * code is read with them, never cast.
 */
import { z } from "zod";
import { NODE_KINDS } from "../vocabulary/node-kinds";
import { MESSAGE_ROLES } from "../vocabulary/roles";

export const Id = z.number().int();

export const LinkKeySchema = z.object({ source: Id, target: Id, relation: z.string() });

export const NodeSchema = z.object({
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

export const NewLinkSchema = LinkKeySchema.extend({ level: z.number(), epoch: Id, createdAt: z.number() });

export const TextUpdateSchema = z.object({
  id: Id,
  kind: z.enum(NODE_KINDS),
  speaker: z.string().nullable(),
  messageTime: z.number().nullable().optional(),
  content: z.string(),
  phrase: z.string(),
  keywords: z.array(z.string()),
});
