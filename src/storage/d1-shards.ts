/**
 * The D1 databases agents are spread over (docs/design.md, "Scale and limits"). The configuration lists their
 * binding names in the D1_SHARDS var ("DB,DB_2"); `DB` is the primary: it also holds the registry
 * (agents, api_keys) and every agent registered before sharding. Each shard has the same schema
 * (the same migrations), an agent's rows live in exactly one of them, and adding a shard is adding
 * a binding to the list: existing agents stay where they are.
 *
 * D1_EU_SHARDS lists the shards whose databases were created with `jurisdiction = "eu"`: the only
 * ones an EU agent's rows go to, and ones no other agent is placed on (docs/deploy.md, "Near the
 * user"). A binding is in one list or the other, never both. D1_SHARD_REGIONS names the region of
 * those created with a location hint ("DB_WEUR:weur,DB_APAC:apac"): an agent placed in a region
 * goes to a shard of that region only.
 */
import { z } from "zod";
import type { Jurisdiction } from "../vocabulary/jurisdictions";
import { RegionSchema, type Region } from "../vocabulary/regions";

/** The binding of the primary database: the registry, the API keys, the first shard. */
export const PRIMARY_D1_BINDING = "DB";

/** An agent's recorded shard that the configuration does not list (a removed or misspelt binding). */
export class UnknownShardError extends Error {
  override readonly name = "UnknownShardError";
}

const BindingName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/);

/** A comma-separated list of binding names; `fallback` when unset or empty. Duplicates are refused. */
export function bindingList(raw: string | undefined, fallback: readonly string[], what: string): string[] {
  const names = (raw ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (names.length === 0) return [...fallback];
  for (const name of names) {
    if (!BindingName.safeParse(name).success) throw new Error(`${what}: "${name}" is not a binding name`);
  }
  if (new Set(names).size !== names.length) throw new Error(`${what} lists a binding twice: ${raw}`);
  return names;
}

function isD1Database(value: unknown): value is D1Database {
  return (
    typeof value === "object" &&
    value !== null &&
    "prepare" in value &&
    typeof value.prepare === "function" &&
    "batch" in value &&
    typeof value.batch === "function"
  );
}

/** What the shards are read from: `Env` satisfies it (bindings are looked up by name). */
export type ShardEnv = {
  readonly DB: D1Database;
  readonly D1_SHARDS?: string;
  readonly D1_EU_SHARDS?: string;
  readonly D1_SHARD_REGIONS?: string;
};

/** D1_SHARD_REGIONS: "BINDING:region" pairs, comma-separated. */
function shardRegions(raw: string | undefined): Map<string, Region> {
  const out = new Map<string, Region>();
  for (const pair of (raw ?? "").split(",").map((s) => s.trim())) {
    if (pair === "") continue;
    const [name = "", region = ""] = pair.split(":").map((s) => s.trim());
    const parsed = RegionSchema.safeParse(region);
    if (!BindingName.safeParse(name).success || !parsed.success) {
      throw new Error(`D1_SHARD_REGIONS: "${pair}" is not BINDING:region (a region of ${RegionSchema.options.join(", ")})`);
    }
    if (out.has(name)) throw new Error(`D1_SHARD_REGIONS names ${name} twice`);
    out.set(name, parsed.data);
  }
  return out;
}

export class D1Shards {
  private readonly byName: ReadonlyMap<string, D1Database>;

  /** `eu`: the bindings of `shards` that are EU databases (D1_EU_SHARDS); `regions`: the region of those that have one. */
  constructor(
    readonly primary: D1Database,
    shards: ReadonlyMap<string, D1Database>,
    private readonly eu: readonly string[] = [],
    private readonly regions: ReadonlyMap<string, Region> = new Map(),
  ) {
    if (!shards.has(PRIMARY_D1_BINDING)) throw new Error(`D1_SHARDS must list ${PRIMARY_D1_BINDING}, the primary database`);
    for (const name of [...eu, ...regions.keys()]) if (!shards.has(name)) throw new UnknownShardError(`D1 shard ${name} is not configured`);
    this.byName = shards;
  }

  /** The configured shards: every binding D1_SHARDS and D1_EU_SHARDS list, resolved and checked now. */
  static fromEnv(env: ShardEnv): D1Shards {
    const shards = new Map<string, D1Database>();
    const global = bindingList(env.D1_SHARDS, [PRIMARY_D1_BINDING], "D1_SHARDS");
    const eu = bindingList(env.D1_EU_SHARDS, [], "D1_EU_SHARDS");
    for (const [list, names] of [
      ["D1_SHARDS", global],
      ["D1_EU_SHARDS", eu],
    ] as const) {
      for (const name of names) {
        if (shards.has(name)) throw new Error(`${name} is listed in both D1_SHARDS and D1_EU_SHARDS: a shard is EU or not`);
        const binding: unknown = Reflect.get(env, name);
        if (!isD1Database(binding)) throw new Error(`${list} lists ${name}, which is not a D1 binding of this Worker`);
        shards.set(name, binding);
      }
    }
    return new D1Shards(env.DB, shards, eu, shardRegions(env.D1_SHARD_REGIONS));
  }

  /** Every configured binding in configuration order, EU shards last (measured, metered). */
  get names(): string[] {
    return [...this.byName.keys()];
  }

  /**
   * The shards an agent of this jurisdiction (and region, when it has one) may be placed on, in
   * configuration order (the order ties are broken in): the EU ones for "eu", the others otherwise;
   * of those, the ones in its region. Empty when none is configured.
   */
  placeable(jurisdiction: Jurisdiction | undefined, region?: Region): string[] {
    const inJurisdiction = jurisdiction === "eu" ? [...this.eu] : this.names.filter((name) => !this.eu.includes(name));
    return region === undefined ? inJurisdiction : inJurisdiction.filter((name) => this.regions.get(name) === region);
  }

  /** The jurisdiction of a configured shard's database: "eu" for those D1_EU_SHARDS lists. */
  jurisdictionOf(name: string): Jurisdiction | null {
    return this.eu.includes(name) ? "eu" : null;
  }

  get(name: string): D1Database {
    const db = this.byName.get(name);
    if (!db) throw new UnknownShardError(`D1 shard ${name} is not configured (D1_SHARDS); never remove a shard that holds agents`);
    return db;
  }

  /** The same shards with some bindings replaced (tests wrap a binding to watch or limit it). */
  with(replacements: Readonly<Record<string, D1Database>>): D1Shards {
    const shards = new Map(this.byName);
    for (const [name, db] of Object.entries(replacements)) {
      if (!shards.has(name)) throw new UnknownShardError(`D1 shard ${name} is not configured`);
      shards.set(name, db);
    }
    return new D1Shards(shards.get(PRIMARY_D1_BINDING) ?? this.primary, shards, this.eu, this.regions);
  }
}
