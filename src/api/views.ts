/** Response shapes of the read endpoints: the agent's own view schemas under their OpenAPI names. */
import { z } from "@hono/zod-openapi";
import { decodeLinksCursor, type LinksCursor } from "../operations/views/cursor";
import {
  DEFAULT_LINKS_PAGE,
  FocusViewSchema,
  MAX_LINKS_PAGE,
  NodeViewSchema,
  PingViewSchema,
  StatsViewSchema,
} from "../operations/views/view-schemas";

export const FocusSchema = FocusViewSchema.openapi("Focus");
export const NodeSchema = NodeViewSchema.openapi("Node");
export const StatsSchema = StatsViewSchema.openapi("Stats");
export const PingSchema = PingViewSchema.openapi("Ping");

/** Plain decimal only: "010", "1e3", "0x10" or "+5" are not read as some number of milliseconds. */
const WAIT_MS = /^(0|[1-9][0-9]{0,4})$/;

export const TaskWaitQuerySchema = z
  .object({
    wait_ms: z
      .string()
      .regex(WAIT_MS, "wait_ms: milliseconds, 0–30000, in plain decimal")
      .transform(Number)
      .refine((n) => n <= 30_000, "wait_ms: at most 30000")
      .optional()
      // The transform hides the pattern from the generated document: stated here again.
      .openapi({
        description: "Wait up to this long (ms) for the work to finish before answering.",
        type: "string",
        pattern: WAIT_MS.source,
      }),
  })
  .strict();

const PAGE_SIZE = /^[1-9][0-9]{0,3}$/;

/** A page size in a query string: plain decimal, 1 to `max`. */
export function pageSizeQuery(name: string, max: number, fallback: number) {
  return z
    .string()
    .regex(PAGE_SIZE, `${name}: 1–${max}, in plain decimal`)
    .transform(Number)
    .refine((n) => n <= max, `${name}: at most ${max}`)
    .optional()
    .openapi({ description: `At most this many (1–${max}, default ${fallback}).`, type: "string", pattern: PAGE_SIZE.source });
}

/** The page of a node's links a view lists (src/operations/views/node-view.ts). */
export const LinksPageQueryShape = {
  links_limit: pageSizeQuery("links_limit", MAX_LINKS_PAGE, DEFAULT_LINKS_PAGE),
  links_cursor: z
    .string()
    .refine((c) => decodeLinksCursor(c) !== undefined, "links_cursor: not a cursor returned in links.next_cursor")
    .optional()
    .openapi({ description: "`links.next_cursor` of the previous view of this node: the next page of its links." }),
};

export const LinksPageQuerySchema = z.object(LinksPageQueryShape).strict();

/** The agent's page request from the query (the cursor was checked by the schema). */
export function linksPageOf(query: { links_limit?: number | undefined; links_cursor?: string | undefined }): {
  limit: number;
  after: LinksCursor;
} {
  const after = query.links_cursor === undefined ? undefined : decodeLinksCursor(query.links_cursor);
  return { limit: query.links_limit ?? DEFAULT_LINKS_PAGE, after: after ?? { outgoing: null, incoming: null } };
}

/** The HTTP shapes of the read endpoints (what a client receives). */
export type FocusView = z.infer<typeof FocusSchema>;
export type NodeView = z.infer<typeof NodeSchema>;
export type StatsView = z.infer<typeof StatsSchema>;
