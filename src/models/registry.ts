/**
 * Chooses the model provider from configuration (the MODEL_PROVIDER var), never by probing a
 * binding: in local runs the AI binding is not declared at all (see wrangler.local.toml), so
 * `env.AI` is read only on the "workers-ai" branch.
 */
import { LocalEmbedder, LocalModel } from "./local/local-model";
import type { Embedder, SmallModel } from "./types";
import type { AiBinding } from "./workers-ai/ai-client";
import { WorkersAiEmbedder } from "./workers-ai/workers-ai-embedder";
import { WorkersAiModel } from "./workers-ai/workers-ai-model";

export type ModelProviderName = "local" | "workers-ai";

/** What the factories read from the environment; `Env` satisfies it, and so does a test double. */
export type ModelEnv = Pick<Env, "MODEL_PROVIDER" | "AI_TEXT_MODEL" | "AI_EMBEDDING_MODEL"> & { readonly AI: AiBinding };

export function modelProviderOf(env: Pick<Env, "MODEL_PROVIDER">): ModelProviderName {
  const name = env.MODEL_PROVIDER;
  if (name === "local" || name === "workers-ai") return name;
  throw new Error(`MODEL_PROVIDER must be "local" or "workers-ai", got "${name}"`);
}

/** The configured small model: the built-in one, or Workers AI with the AI_TEXT_MODEL model. */
export function createModel(env: Omit<ModelEnv, "AI_EMBEDDING_MODEL">): SmallModel {
  if (modelProviderOf(env) === "local") return new LocalModel();
  return new WorkersAiModel(env.AI, { model: env.AI_TEXT_MODEL });
}

/** The provider that answers when the configured one keeps failing (none for the local model). */
export function createFallbackModel(env: Pick<Env, "MODEL_PROVIDER">): SmallModel | undefined {
  return modelProviderOf(env) === "local" ? undefined : new LocalModel();
}

/**
 * The configured embedder: local hashed n-grams (256 dimensions), or Workers AI with the
 * AI_EMBEDDING_MODEL model (1024 dimensions for bge-m3). The vector index must be created with
 * the matching dimension.
 */
export function createEmbedder(env: Omit<ModelEnv, "AI_TEXT_MODEL">): Embedder {
  if (modelProviderOf(env) === "local") return new LocalEmbedder();
  return new WorkersAiEmbedder(env.AI, { model: env.AI_EMBEDDING_MODEL });
}
