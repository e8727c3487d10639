/**
 * Chooses the vector index from configuration (the VECTOR_PROVIDER var), never by probing a binding:
 * the local configuration declares no Vectorize binding, so `env.VECTORIZE` is read only when the
 * provider is "vectorize".
 */
import { LocalVectorIndex } from "./local-vector-index";
import { RecentVectors } from "./recent-vectors";
import type { VectorIndex } from "./types";
import { VectorizeVectorIndex } from "./vectorize-index";

export type VectorProviderName = "local" | "vectorize";

export interface VectorIndexScope {
  /** The agent Durable Object's SQLite (the local index, or the Vectorize adapter's recent buffer). */
  sql: SqlStorage;
  /** The agent's numeric id: its Vectorize namespace and the prefix of its vector ids. */
  agentUid: number;
  dimensions: number;
}

export function vectorProviderOf(env: Pick<Env, "VECTOR_PROVIDER">): VectorProviderName {
  const name = env.VECTOR_PROVIDER;
  if (name === "local" || name === "vectorize") return name;
  throw new Error(`VECTOR_PROVIDER must be "local" or "vectorize", got "${name}"`);
}

export function createVectorIndex(env: Pick<Env, "VECTOR_PROVIDER" | "VECTORIZE">, scope: VectorIndexScope): VectorIndex {
  if (vectorProviderOf(env) === "local") return new LocalVectorIndex(scope.sql, scope.dimensions);
  if (!Number.isSafeInteger(scope.agentUid) || scope.agentUid < 0) throw new RangeError(`invalid agent uid ${scope.agentUid}`);
  return new VectorizeVectorIndex({
    binding: env.VECTORIZE,
    namespace: `agent-${scope.agentUid}`,
    idPrefix: `${scope.agentUid}:`,
    dimensions: scope.dimensions,
    recent: new RecentVectors(scope.sql, scope.dimensions),
  });
}
