/**
 * Where a new agent may be placed, from the configuration, its jurisdiction and its tenant's region
 * (docs/deploy.md, "Near the user"): the D1 shards configured for that jurisdiction (and region),
 * the Vectorize indexes configured for that jurisdiction, never others. Nothing configured for it
 * is a refusal (PlacementError), not a fallback.
 */
import { PlacementError, type PlacementOptions } from "../storage/agent-registry";
import type { D1Shards } from "../storage/d1-shards";
import { vectorIndexNamesFor, vectorProviderOf, type VectorEnv } from "../vectors/providers";
import type { Jurisdiction } from "../vocabulary/jurisdictions";
import type { Region } from "../vocabulary/regions";

export function placementOptions(
  env: VectorEnv,
  shards: D1Shards,
  jurisdiction: Jurisdiction | undefined,
  maxAgents: number | undefined,
  region?: Region,
): PlacementOptions {
  const d1 = shards.placeable(jurisdiction, region);
  if (d1.length === 0) {
    const list = jurisdiction === "eu" ? "D1_EU_SHARDS" : "D1_SHARDS";
    const where = region === undefined ? "" : ` in region ${region} (D1_SHARD_REGIONS)`;
    throw new PlacementError(`no D1 shard is configured for ${jurisdiction ?? "agents"}${where} (${list})`);
  }
  const vectors = vectorIndexNamesFor(env, jurisdiction);
  // With the local index the vectors stay in the agent's object, which is in its jurisdiction.
  if (vectors.length === 0 && vectorProviderOf(env) === "vectorize") {
    throw new PlacementError(`no Vectorize index is configured for ${jurisdiction ?? "agents"} (VECTORIZE_EU_INDEXES)`);
  }
  return {
    d1,
    vectors,
    ...(jurisdiction === undefined ? {} : { jurisdiction }),
    ...(region === undefined ? {} : { region }),
    ...(maxAgents === undefined ? {} : { maxAgents }),
  };
}
