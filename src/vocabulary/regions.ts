/**
 * The regions an agent can be placed near (docs/deploy.md, "Near the user"): the location hints D1
 * takes at a database's creation (`wrangler d1 create --location`), which Durable Objects take too
 * (`get(id, { locationHint })`), so an agent's object and its D1 shard can be placed together.
 */
import { z } from "zod";

export const REGIONS = ["wnam", "enam", "weur", "eeur", "apac", "oc"] as const;
export type Region = (typeof REGIONS)[number];

export const RegionSchema = z.enum(REGIONS);

/** A stored or configured value read back: a region, or null for none. */
export function regionOf(value: string | null | undefined): Region | null {
  if (value === null || value === undefined) return null;
  return RegionSchema.parse(value);
}
