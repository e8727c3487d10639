/**
 * Chooses the vector index from configuration (the VECTOR_PROVIDER var), never by probing a binding:
 * the local configuration declares no Vectorize binding, so Vectorize bindings are read only when
 * the provider is "vectorize". With Vectorize, agents are spread over the indexes the
 * VECTORIZE_INDEXES var lists (binding names, in the order new agents fill them); each agent's
 * index is assigned when it registers (src/storage/agent-registry.ts). VECTORIZE_EU_INDEXES lists
 * the indexes configured for EU agents (docs/deploy.md, "Near the user"): an EU agent's vectors go
 * there only, and no other agent's do.
 */
import { z } from "zod";
import { VECTORIZE_DEFAULT_INDEX_CAPACITY } from "../config/limits";
import type { Jurisdiction } from "../vocabulary/jurisdictions";
import { LocalVectorIndex } from "./local-vector-index";
import { RecentVectors } from "./recent-vectors";
import type { VectorIndex, VectorIndexFullError } from "./types";
import { VectorizeVectorIndex, type VectorizeBinding } from "./vectorize-index";

export type VectorProviderName = "local" | "vectorize";

/** The Vectorize binding of a configuration that names no list (and of agents registered before lists). */
export const DEFAULT_VECTORIZE_BINDING = "VECTORIZE";

/** What the vector configuration is read from: `Env` satisfies it (index bindings are looked up by name). */
export type VectorEnv = {
  readonly VECTOR_PROVIDER: string;
  readonly VECTORIZE_INDEXES?: string;
  readonly VECTORIZE_EU_INDEXES?: string;
  readonly VECTORIZE_INDEX_CAPACITY?: string;
};

export interface VectorIndexScope {
  /** The agent Durable Object's SQLite (the local index, or the Vectorize adapter's recent buffer). */
  sql: SqlStorage;
  /** The agent's registry id: its Vectorize namespace and the prefix of its vector ids. */
  agentUid: number;
  dimensions: number;
  /** The agent's Vectorize index (its binding name); null with the local index. */
  index: string | null;
  /** Told when the agent's Vectorize index refuses a write because it is full. */
  onFull?: (error: VectorIndexFullError) => Promise<void>;
}

export function vectorProviderOf(env: Pick<VectorEnv, "VECTOR_PROVIDER">): VectorProviderName {
  const name = env.VECTOR_PROVIDER;
  if (name === "local" || name === "vectorize") return name;
  throw new Error(`VECTOR_PROVIDER must be "local" or "vectorize", got "${name}"`);
}

function listed(raw: string | undefined, what: string): string[] {
  const names = (raw ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (new Set(names).size !== names.length) throw new Error(`${what} lists a binding twice: ${raw}`);
  return names;
}

/** The Vectorize indexes new agents without a jurisdiction may be assigned to, in order; none with the local provider. */
export function vectorIndexNames(env: VectorEnv): string[] {
  if (vectorProviderOf(env) === "local") return [];
  const names = listed(env.VECTORIZE_INDEXES, "VECTORIZE_INDEXES");
  return names.length > 0 ? names : [DEFAULT_VECTORIZE_BINDING];
}

/** The Vectorize indexes configured for EU agents, in order (VECTORIZE_EU_INDEXES); none with the local provider. */
function euVectorIndexNames(env: VectorEnv): string[] {
  if (vectorProviderOf(env) === "local") return [];
  const eu = listed(env.VECTORIZE_EU_INDEXES, "VECTORIZE_EU_INDEXES");
  const shared = eu.filter((name) => vectorIndexNames(env).includes(name));
  if (shared.length > 0)
    throw new Error(`${shared.join(", ")} listed in both VECTORIZE_INDEXES and VECTORIZE_EU_INDEXES: an index is EU or not`);
  return eu;
}

/** The indexes a new agent of this jurisdiction may be assigned to. */
export function vectorIndexNamesFor(env: VectorEnv, jurisdiction: Jurisdiction | undefined): string[] {
  return jurisdiction === "eu" ? euVectorIndexNames(env) : vectorIndexNames(env);
}

/** Every configured index (the cron measures them all). */
export function allVectorIndexNames(env: VectorEnv): string[] {
  return [...vectorIndexNames(env), ...euVectorIndexNames(env)];
}

const Capacity = z.coerce.number().int().min(1).max(1_000_000_000);

/** Vectors one index holds (VECTORIZE_INDEX_CAPACITY; default: Vectorize's documented limit). */
export function vectorIndexCapacity(env: Pick<VectorEnv, "VECTORIZE_INDEX_CAPACITY">): number {
  const raw = env.VECTORIZE_INDEX_CAPACITY;
  if (raw === undefined || raw.trim() === "") return VECTORIZE_DEFAULT_INDEX_CAPACITY;
  const parsed = Capacity.safeParse(raw);
  if (!parsed.success) throw new Error(`VECTORIZE_INDEX_CAPACITY must be a whole number of vectors, got "${raw}"`);
  return parsed.data;
}

function isVectorizeBinding(value: unknown): value is VectorizeBinding {
  if (typeof value !== "object" || value === null) return false;
  return ["upsert", "deleteByIds", "query", "describe"].every((method) => typeof Reflect.get(value, method) === "function");
}

/** The Vectorize binding named `name`; throws a configuration error when there is none. */
export function vectorizeBinding(env: VectorEnv, name: string): VectorizeBinding {
  const binding: unknown = Reflect.get(env, name);
  if (!isVectorizeBinding(binding))
    throw new Error(`${name} is not a Vectorize binding of this Worker (VECTORIZE_INDEXES, VECTORIZE_EU_INDEXES)`);
  return binding;
}

export function createVectorIndex(env: VectorEnv, scope: VectorIndexScope): VectorIndex {
  if (vectorProviderOf(env) === "local") return new LocalVectorIndex(scope.sql, scope.dimensions);
  if (!Number.isSafeInteger(scope.agentUid) || scope.agentUid < 0) throw new RangeError(`invalid agent uid ${scope.agentUid}`);
  const index = scope.index ?? DEFAULT_VECTORIZE_BINDING;
  return new VectorizeVectorIndex({
    binding: vectorizeBinding(env, index),
    index,
    capacity: vectorIndexCapacity(env),
    onFull: scope.onFull,
    namespace: `agent-${scope.agentUid}`,
    idPrefix: `${scope.agentUid}:`,
    dimensions: scope.dimensions,
    recent: new RecentVectors(scope.sql, scope.dimensions),
  });
}
