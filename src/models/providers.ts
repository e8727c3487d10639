/**
 * Chooses the model provider from configuration (the MODEL_PROVIDER var), never by probing a
 * binding: in local runs the AI binding is not declared at all (see wrangler.local.toml), so
 * `env.AI` is read only on the "workers-ai" branch. The factories are called once per agent
 * runtime (the Durable Object's state), so the request budget each creates is that agent's.
 */
import { z } from "zod";
import { modelPolicyOf, policyInForce, type AgentModelPolicy } from "../config/model-policy";
import { HttpEmbedder } from "./local/http-embedder";
import { LocalEmbedder, LocalModel } from "./local/local-model";
import { PolicyModel } from "./policy-model";
import { systemClock, type Clock } from "./rate/clock";
import { modelPermits, type ShareNamespace } from "./rate/model-share-client";
import { RequestBudget } from "./rate/request-budget";
import type { Embedder, SmallModel } from "./types";
import type { AiBinding } from "./workers-ai/ai-client";
import { HttpAiBinding } from "./workers-ai/http-ai-binding";
import { textModelProfile } from "./workers-ai/model-profiles";
import { DEFAULT_EMBEDDING_REQUESTS_PER_MINUTE, WorkersAiEmbedder } from "./workers-ai/workers-ai-embedder";
import { DEFAULT_REQUESTS_PER_MINUTE, WorkersAiModel } from "./workers-ai/workers-ai-model";

export type ModelProviderName = "local" | "workers-ai";

/** What the factories read from the environment; `Env` satisfies it, and so does a test double. */
export type ModelEnv = Pick<Env, "MODEL_PROVIDER" | "AI_TEXT_MODEL" | "AI_EMBEDDING_MODEL"> & {
  readonly AI: AiBinding;
  /** Text-generation requests one agent may start per minute (optional var; default 120). */
  readonly AI_REQUESTS_PER_MINUTE?: string;
  /** Local benchmark servers only: an embedder served over HTTP and its vector length (http-embedder.ts). */
  readonly BENCH_EMBEDDER_URL?: string;
  readonly BENCH_EMBEDDER_DIMENSIONS?: string;
  /**
   * Benchmarks only: where a Worker without an AI binding sends its Workers AI requests
   * (http-ai-binding.ts), and the length of the rate limits' minute there (a scaled minute).
   */
  readonly AI_SIMULATOR_URL?: string;
  /** Which operations Workers AI answers by default (src/config/model-policy.ts); unset: DEFAULT_MODEL_POLICY. */
  readonly MODEL_POLICY?: string;
  /** The account's coordinator of text calls (rate/model-share-object.ts); "off" in AI_FAIR_SHARE leaves it out. */
  readonly MODEL_SHARE?: ShareNamespace;
  readonly AI_FAIR_SHARE?: string;
  readonly AI_RATE_WINDOW_MS?: string;
};

/** The window of Workers AI's rate limits: they count requests per minute. */
const RATE_WINDOW_MS = 60_000;

const RequestsPerMinute = z.coerce.number().int().min(1).max(100_000);
const WindowMs = z.coerce.number().int().min(1).max(RATE_WINDOW_MS);

/**
 * The binding requests go to: `env.AI`, or the benchmark's simulator when the Worker has none;
 * `onCall` hears each call that answered, by kind (the answer schema's name, or "embedding").
 */
function aiBindingOf(env: Pick<ModelEnv, "AI" | "AI_SIMULATOR_URL">, onCall?: (kind: string) => void): AiBinding {
  // Absent at run time in a configuration that declares no `ai` binding (wrangler.local.toml).
  const declared: unknown = env.AI;
  const binding =
    declared === undefined && env.AI_SIMULATOR_URL !== undefined && env.AI_SIMULATOR_URL !== ""
      ? new HttpAiBinding(env.AI_SIMULATOR_URL)
      : env.AI;
  if (onCall === undefined) return binding;
  return {
    run: async (model, inputs) => {
      const answer = await binding.run(model, inputs);
      onCall(callKind(inputs));
      return answer;
    },
  };
}

/** What a call to Workers AI was for: the task its JSON answer schema names, or an embedding. */
function callKind(inputs: Record<string, unknown>): string {
  if ("text" in inputs) return "embedding";
  const format: unknown = inputs.response_format;
  if (typeof format === "object" && format !== null && "json_schema" in format) {
    const schema: unknown = format.json_schema;
    if (typeof schema === "object" && schema !== null && "name" in schema && typeof schema.name === "string") return schema.name;
  }
  return "text";
}

/** The rate limits' window: a minute, or the benchmark's scaled minute (AI_RATE_WINDOW_MS). */
function rateWindowMsOf(env: Pick<ModelEnv, "AI_RATE_WINDOW_MS">): number {
  const raw = env.AI_RATE_WINDOW_MS;
  if (raw === undefined || raw.trim() === "") return RATE_WINDOW_MS;
  const parsed = WindowMs.safeParse(raw);
  if (!parsed.success) throw new Error(`AI_RATE_WINDOW_MS must be a whole number from 1 to ${RATE_WINDOW_MS}, got "${raw}"`);
  return parsed.data;
}

export function modelProviderOf(env: Pick<Env, "MODEL_PROVIDER">): ModelProviderName {
  const name = env.MODEL_PROVIDER;
  if (name === "local" || name === "workers-ai") return name;
  throw new Error(`MODEL_PROVIDER must be "local" or "workers-ai", got "${name}"`);
}

/** AI_REQUESTS_PER_MINUTE parsed; unset or empty means the default, anything else invalid is a configuration error. */
export function requestsPerMinuteOf(env: Pick<ModelEnv, "AI_REQUESTS_PER_MINUTE">): number {
  const raw = env.AI_REQUESTS_PER_MINUTE;
  if (raw === undefined || raw.trim() === "") return DEFAULT_REQUESTS_PER_MINUTE;
  const parsed = RequestsPerMinute.safeParse(raw);
  if (!parsed.success) throw new Error(`AI_REQUESTS_PER_MINUTE must be a whole number from 1 to 100000, got "${raw}"`);
  return parsed.data;
}

/**
 * The configured small model: the built-in one, or Workers AI with the AI_TEXT_MODEL model, its
 * row in the model table and a request budget of AI_REQUESTS_PER_MINUTE, for the operations the
 * policy in force gives it: the agent's choices (`agentPolicy`, read at every call) over
 * MODEL_POLICY; the built-in model answers the others. An unknown model name or a wrong
 * MODEL_POLICY throws here, at start-up, instead of sending requests of a guessed shape.
 */
export function createModel(
  env: Omit<ModelEnv, "AI_EMBEDDING_MODEL">,
  agentPolicy: () => AgentModelPolicy | undefined = () => undefined,
  clock: Clock = systemClock,
  onCall?: (kind: string) => void,
  caller?: () => { tenant: string; weight: number },
): SmallModel {
  if (modelProviderOf(env) === "local") return new LocalModel();
  const budget = new RequestBudget({ requestsPerWindow: requestsPerMinuteOf(env), windowMs: rateWindowMsOf(env), clock });
  // The account's fair share between tenants (rate/fair-share.ts), unless the deployment turned it off.
  const share = env.MODEL_SHARE !== undefined && env.AI_FAIR_SHARE !== "off" && caller !== undefined;
  const permits = share ? modelPermits(env.MODEL_SHARE, env.AI_TEXT_MODEL, caller) : undefined;
  const remote = new WorkersAiModel(aiBindingOf(env, onCall), {
    model: env.AI_TEXT_MODEL,
    profile: textModelProfile(env.AI_TEXT_MODEL),
    throttle: { budget, clock, ...(permits ? { permits } : {}) },
  });
  const deployment = modelPolicyOf(env.MODEL_POLICY);
  return new PolicyModel(remote, new LocalModel(), () => policyInForce(deployment, agentPolicy()));
}

/** The provider that answers when the configured one keeps failing (none for the local model). */
export function createFallbackModel(env: Pick<Env, "MODEL_PROVIDER">): SmallModel | undefined {
  return modelProviderOf(env) === "local" ? undefined : new LocalModel();
}

/**
 * The configured embedder: local hashed n-grams (256 dimensions; on a local benchmark server given
 * BENCH_EMBEDDER_URL, the benchmark's embedder instead), or Workers AI with the
 * AI_EMBEDDING_MODEL model (1024 dimensions for bge-m3) and its own request budget (embeddings are
 * limited separately from text generation). The vector index must be created with the matching
 * dimension.
 */
export function createEmbedder(
  env: Omit<ModelEnv, "AI_TEXT_MODEL">,
  clock: Clock = systemClock,
  onCall?: (kind: string) => void,
): Embedder {
  if (modelProviderOf(env) === "local") {
    const url = env.BENCH_EMBEDDER_URL;
    return url ? new HttpEmbedder(url, Number(env.BENCH_EMBEDDER_DIMENSIONS)) : new LocalEmbedder();
  }
  const budget = new RequestBudget({ requestsPerWindow: DEFAULT_EMBEDDING_REQUESTS_PER_MINUTE, windowMs: rateWindowMsOf(env), clock });
  return new WorkersAiEmbedder(aiBindingOf(env, onCall), { model: env.AI_EMBEDDING_MODEL, throttle: { budget, clock } });
}
