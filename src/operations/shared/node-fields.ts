/**
 * A node's fields as the reads show them (docs/design.md, "The model"): each field declared, named
 * and typed once, here. Every view of a node (a node with its links, a memory, a list item, a
 * search hit, a recalled memory, a context memory, a version) is made of the fields it shows, in
 * its own order, and what it adds of its own (scores, links, energy).
 */
import { z } from "zod";
import { NODE_KINDS } from "../../vocabulary/node-kinds";
import { MESSAGE_ROLES } from "../../vocabulary/roles";

const NODE_FIELDS = {
  node_id: z.number().int(),
  kind: z.enum(NODE_KINDS),
  name: z.string().nullable(),
  content: z.string(),
  original_length: z.number().int(),
  phrase: z.string(),
  keywords: z.array(z.string()),
  role: z.enum(MESSAGE_ROLES).nullable(),
  speaker: z.string().nullable(),
  source_message_ids: z.array(z.string()),
  source_task_id: z.string().nullable(),
  message_time: z.number().int().nullable(),
  created_at: z.number().int(),
  /** The memory that corrected this one (it is history), or null. */
  superseded_by: z.number().int().nullable(),
  /** Kind-specific facts (an explicit memory's structure, an episode's participants and span). */
  meta: z.record(z.string(), z.unknown()).nullable(),
  /** The sum of its outgoing link strengths (docs/design.md, "The model"). */
  importance: z.number(),
  /** Memories this one contradicts (a 矛盾 link to a memory that still holds: docs/design.md, "Memory operations"). */
  conflicts_with: z.array(z.number().int()),
};

type NodeFields = typeof NODE_FIELDS;

/** The named fields of a node, in the order given: the start of a view's own shape. */
export function nodeFields<K extends keyof NodeFields>(...names: K[]): Pick<NodeFields, K> {
  const picked: Partial<Pick<NodeFields, K>> = {};
  for (const name of names) Object.assign(picked, { [name]: NODE_FIELDS[name] });
  return picked as Pick<NodeFields, K>;
}
