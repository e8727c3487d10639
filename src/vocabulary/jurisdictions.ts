/**
 * The jurisdictions an agent can be placed in (docs/deploy.md, "Near the user"): its Durable
 * Object runs in the platform's jurisdiction-scoped namespace, its D1 rows go only to shards
 * whose databases were created in that jurisdiction, its vectors only to indexes configured for
 * it. No jurisdiction (null): the default placement, anywhere.
 */
import { z } from "zod";

export const JURISDICTIONS = ["eu"] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];

export const JurisdictionSchema = z.enum(JURISDICTIONS);

/** A stored or configured value read back: a jurisdiction, or null for none (anything else is a bug). */
export function jurisdictionOf(value: string | null | undefined): Jurisdiction | null {
  if (value === null || value === undefined) return null;
  return JurisdictionSchema.parse(value);
}
