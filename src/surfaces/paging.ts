/** Paged views in a query string: a page size, and the page of a node's links. */
import { z } from "@hono/zod-openapi";
import { decodeLinksCursor, type LinksCursor } from "../operations/shared/cursor";
import { DEFAULT_LINKS_PAGE, MAX_LINKS_PAGE } from "../operations/shared/node-view";

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

/** The page of a node's links a view lists (src/operations/shared/node-view.ts). */
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
