/**
 * The D1 databases agents are spread over (docs/design.md, "Scale and limits"). The configuration lists their
 * binding names in the D1_SHARDS var ("DB,DB_2"); `DB` is the primary: it also holds the registry
 * (agents, api_keys) and every agent registered before sharding. Each shard has the same schema
 * (the same migrations), an agent's rows live in exactly one of them, and adding a shard is adding
 * a binding to the list: existing agents stay where they are.
 */
import { z } from "zod";

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
export type ShardEnv = { readonly DB: D1Database; readonly D1_SHARDS?: string };

export class D1Shards {
  private readonly byName: ReadonlyMap<string, D1Database>;

  constructor(
    readonly primary: D1Database,
    shards: ReadonlyMap<string, D1Database>,
  ) {
    if (!shards.has(PRIMARY_D1_BINDING)) throw new Error(`D1_SHARDS must list ${PRIMARY_D1_BINDING}, the primary database`);
    this.byName = shards;
  }

  /** The configured shards: every binding D1_SHARDS lists, resolved and checked now. */
  static fromEnv(env: ShardEnv): D1Shards {
    const shards = new Map<string, D1Database>();
    for (const name of bindingList(env.D1_SHARDS, [PRIMARY_D1_BINDING], "D1_SHARDS")) {
      const binding: unknown = Reflect.get(env, name);
      if (!isD1Database(binding)) throw new Error(`D1_SHARDS lists ${name}, which is not a D1 binding of this Worker`);
      shards.set(name, binding);
    }
    return new D1Shards(env.DB, shards);
  }

  /** Binding names in configuration order (the order ties are broken in). */
  get names(): string[] {
    return [...this.byName.keys()];
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
    return new D1Shards(shards.get(PRIMARY_D1_BINDING) ?? this.primary, shards);
  }
}
