/**
 * Where an agent may be placed by jurisdiction (docs/deploy.md, "Near the user"): the shards and
 * indexes configured for it and no others, a binding in one list only, nothing configured a
 * refusal; and the namespace its object is addressed in.
 */
import { describe, expect, it } from "vitest";
import { agentNamespace, agentStub } from "../../../src/agent/naming";
import { placementOptions } from "../../../src/agent/placement-options";
import { PlacementError } from "../../../src/storage/agent-registry";
import { D1Shards } from "../../../src/storage/d1-shards";
import { allVectorIndexNames, vectorIndexNamesFor } from "../../../src/vectors/providers";

/** Enough of a D1 binding for the configuration's checks (nothing is run). */
const fakeD1 = () => ({ prepare: () => undefined, batch: () => undefined }) as unknown as D1Database;

const shardEnv = (eu: string, regions = "") => ({
  DB: fakeD1(),
  DB_2: fakeD1(),
  DB_EU: fakeD1(),
  D1_SHARDS: "DB,DB_2",
  D1_EU_SHARDS: eu,
  D1_SHARD_REGIONS: regions,
});

describe("D1 shards by jurisdiction", () => {
  it("places EU agents on the EU shards only, and the others never there", () => {
    const shards = D1Shards.fromEnv(shardEnv("DB_EU"));
    expect(shards.placeable("eu")).toEqual(["DB_EU"]);
    expect(shards.placeable(undefined)).toEqual(["DB", "DB_2"]);
    expect(shards.names).toEqual(["DB", "DB_2", "DB_EU"]);
    expect(shards.jurisdictionOf("DB_EU")).toBe("eu");
    expect(shards.jurisdictionOf("DB_2")).toBeNull();
    // A replaced binding (tests, the meter) keeps the lists.
    expect(shards.with({ DB_EU: fakeD1() }).placeable("eu")).toEqual(["DB_EU"]);
  });

  it("has no EU shard unless one is listed, and refuses a binding in both lists (the primary included) or one that is not bound", () => {
    expect(D1Shards.fromEnv(shardEnv("")).placeable("eu")).toEqual([]);
    expect(() => D1Shards.fromEnv(shardEnv("DB_2"))).toThrow(/both D1_SHARDS and D1_EU_SHARDS/);
    expect(() => D1Shards.fromEnv(shardEnv("DB"))).toThrow(/both D1_SHARDS and D1_EU_SHARDS/);
    expect(() => D1Shards.fromEnv(shardEnv("DB_MISSING"))).toThrow(/not a D1 binding/);
  });
});

describe("D1 shards by region", () => {
  it("places an agent of a region on that region's shards of its jurisdiction only", () => {
    const shards = D1Shards.fromEnv(shardEnv("DB_EU", "DB:enam,DB_2:apac,DB_EU:weur"));
    expect(shards.placeable(undefined, "apac")).toEqual(["DB_2"]);
    expect(shards.placeable(undefined, "enam")).toEqual(["DB"]);
    expect(shards.placeable("eu", "weur")).toEqual(["DB_EU"]);
    expect(shards.placeable(undefined, "weur")).toEqual([]);
    expect(shards.placeable(undefined)).toEqual(["DB", "DB_2"]);
    expect(() => placementOptions({ VECTOR_PROVIDER: "local" }, shards, undefined, undefined, "oc")).toThrow(/region oc/);
    expect(placementOptions({ VECTOR_PROVIDER: "local" }, shards, undefined, undefined, "apac")).toEqual({
      d1: ["DB_2"],
      vectors: [],
      region: "apac",
    });
  });

  it("refuses a region that is not one, a pair that is not BINDING:region, and a binding not configured", () => {
    expect(() => D1Shards.fromEnv(shardEnv("", "DB:mars"))).toThrow(/D1_SHARD_REGIONS/);
    expect(() => D1Shards.fromEnv(shardEnv("", "DB"))).toThrow(/D1_SHARD_REGIONS/);
    expect(() => D1Shards.fromEnv(shardEnv("", "DB:enam,DB:weur"))).toThrow(/twice/);
    expect(() => D1Shards.fromEnv(shardEnv("", "DB_9:enam"))).toThrow(/not configured/);
  });
});

describe("Vectorize indexes by jurisdiction", () => {
  const env = { VECTOR_PROVIDER: "vectorize", VECTORIZE_INDEXES: "VEC_A,VEC_B", VECTORIZE_EU_INDEXES: "VEC_EU" };

  it("gives EU agents the EU indexes and the others the rest; the cron measures both", () => {
    expect(vectorIndexNamesFor(env, "eu")).toEqual(["VEC_EU"]);
    expect(vectorIndexNamesFor(env, undefined)).toEqual(["VEC_A", "VEC_B"]);
    expect(allVectorIndexNames(env)).toEqual(["VEC_A", "VEC_B", "VEC_EU"]);
    expect(() => vectorIndexNamesFor({ ...env, VECTORIZE_EU_INDEXES: "VEC_B" }, "eu")).toThrow(/both/);
    // The local index keeps vectors in the agent's object: no index to name.
    expect(vectorIndexNamesFor({ ...env, VECTOR_PROVIDER: "local" }, "eu")).toEqual([]);
  });

  it("refuses to place an EU agent where nothing is configured for it, never falling back", () => {
    const shards = D1Shards.fromEnv(shardEnv("DB_EU"));
    expect(placementOptions(env, shards, "eu", 5)).toEqual({ d1: ["DB_EU"], vectors: ["VEC_EU"], jurisdiction: "eu", maxAgents: 5 });
    expect(placementOptions(env, shards, undefined, undefined)).toEqual({ d1: ["DB", "DB_2"], vectors: ["VEC_A", "VEC_B"] });
    expect(() => placementOptions({ ...env, VECTORIZE_EU_INDEXES: "" }, shards, "eu", undefined)).toThrow(PlacementError);
    expect(() => placementOptions(env, D1Shards.fromEnv(shardEnv("")), "eu", undefined)).toThrow(PlacementError);
    expect(placementOptions({ ...env, VECTOR_PROVIDER: "local" }, shards, "eu", undefined)).toEqual({
      d1: ["DB_EU"],
      vectors: [],
      jurisdiction: "eu",
    });
  });
});

describe("the namespace an agent's object is addressed in", () => {
  /** A namespace that names the ids it makes after the namespace and the name. */
  function fakeNamespace(scope: string, log: string[]) {
    return {
      idFromName: (name: string) => ({ name: `${scope}/${name}` }),
      get: (id: { name: string }, options?: { locationHint?: string }) => {
        log.push(options?.locationHint === undefined ? id.name : `${id.name}@${options.locationHint}`);
        return { id };
      },
      jurisdiction: (j: string) => fakeNamespace(`${scope}+${j}`, log),
    };
  }

  it("is the platform's EU namespace for an EU agent, the plain one otherwise, with the region as location hint", () => {
    const log: string[] = [];
    const env = { AGENT: fakeNamespace("plain", log) as unknown as Env["AGENT"] };
    agentStub(env, { tenantId: "t", agentId: "a", jurisdiction: "eu" });
    agentStub(env, { tenantId: "t", agentId: "a" });
    agentStub(env, { tenantId: "t", agentId: "a" }, "apac");
    agentStub(env, { tenantId: "t", agentId: "a", jurisdiction: "eu" }, "weur");
    expect(log).toEqual(["plain+eu/t:a", "plain/t:a", "plain/t:a@apac", "plain+eu/t:a@weur"]);
  });

  it("is emulated by a name no plain agent has where the runtime has no jurisdictions (local)", () => {
    const log: string[] = [];
    const env = { AGENT: fakeNamespace("plain", log) as unknown as Env["AGENT"], EMULATE_JURISDICTIONS: "true" };
    agentStub(env, { tenantId: "t", agentId: "a", jurisdiction: "eu" });
    expect(log).toEqual(["plain/eu:t:a"]);
    expect(agentNamespace(env, undefined)).toBe(env.AGENT);
  });
});
