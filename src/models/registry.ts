/**
 * Chooses the model provider from configuration (the MODEL_PROVIDER var), never by probing a
 * binding: in local runs the AI binding is not declared at all (see wrangler.local.toml).
 */
import { LocalModel } from "./local/local-model";
import type { SmallModel } from "./types";

export type ModelProviderName = "local" | "workers-ai";

export function modelProviderOf(env: Pick<Env, "MODEL_PROVIDER">): ModelProviderName {
  const name = env.MODEL_PROVIDER;
  if (name === "local" || name === "workers-ai") return name;
  throw new Error(`MODEL_PROVIDER must be "local" or "workers-ai", got "${name}"`);
}

export function createModel(env: Env): SmallModel {
  const provider = modelProviderOf(env);
  if (provider === "local") return new LocalModel();
  throw new Error("the workers-ai provider is not available in this build");
}

/** The provider that answers when the configured one keeps failing (none for the local model). */
export function createFallbackModel(env: Env): SmallModel | undefined {
  return modelProviderOf(env) === "local" ? undefined : new LocalModel();
}
