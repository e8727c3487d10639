/**
 * The one table of Workers AI text models this provider can drive (docs/design.md, "Models": model names are
 * configuration). The AI_TEXT_MODEL var picks a row; the row says how to ask for JSON (the
 * request family, request-shapes.ts), how to keep a reasoning model from thinking, and the limits
 * every window and batch is sized by (workers-ai-planner.ts). Adding a model is adding a row with
 * the numbers from its catalog page; a name not in the table is refused at start-up rather than
 * sent requests of a guessed shape. docs/deploy.md names where each row's numbers come from and why
 * the default is the default; request families follow the model input schemas in
 * @cloudflare/workers-types.
 */

export type RequestFamily =
  /** Workers AI JSON mode: `response_format: { type: "json_schema", json_schema: <schema> }`, `max_tokens`. */
  | "workers-ai-json"
  /** `guided_json: <schema>`, `max_tokens` (Mistral Small 3.1, Gemma 3, QwQ on Workers AI). */
  | "guided-json"
  /**
   * OpenAI Chat Completions: `response_format: { type: "json_schema", json_schema: { name, schema,
   * strict } }`, `max_completion_tokens`; the answer is `choices[0].message.content`.
   */
  | "openai-chat";

export type ThinkingSwitch =
  /** The model does not reason before answering, or only when asked. */
  | "none"
  /** Qwen3's documented soft switch: "/no_think" in the system message. */
  | "no-think-directive"
  /** `chat_template_kwargs: { enable_thinking: false }` (GLM-4.7-Flash and other hybrid models). */
  | "chat-template-off";

export interface TextModelProfile {
  readonly family: RequestFamily;
  /** The documented context window: Workers AI refuses input + max_tokens above it (error 5021). */
  readonly contextTokens: number;
  /** `max_tokens` of every call: the longest answer one call may produce. */
  readonly maxOutputTokens: number;
  readonly thinking: ThinkingSwitch;
  /** USD per million tokens, from the catalog (for the cost notes in docs/deploy.md). */
  readonly pricePerMillion: { readonly input: number; readonly output: number };
}

export const TEXT_MODEL_PROFILES = {
  "@cf/google/gemma-4-26b-a4b-it": {
    family: "openai-chat",
    contextTokens: 256_000,
    maxOutputTokens: 8_192,
    // Gemma 4 thinks only when the system prompt holds <|think|> (its prompt format).
    thinking: "none",
    pricePerMillion: { input: 0.1, output: 0.3 },
  },
  "@cf/qwen/qwen3-30b-a3b-fp8": {
    family: "workers-ai-json",
    contextTokens: 32_768,
    maxOutputTokens: 4_096,
    thinking: "no-think-directive",
    pricePerMillion: { input: 0.051, output: 0.34 },
  },
  "@cf/zai-org/glm-4.7-flash": {
    family: "openai-chat",
    contextTokens: 131_072,
    maxOutputTokens: 8_192,
    thinking: "chat-template-off",
    pricePerMillion: { input: 0.06, output: 0.4 },
  },
  "@cf/mistralai/mistral-small-3.1-24b-instruct": {
    family: "guided-json",
    contextTokens: 128_000,
    maxOutputTokens: 8_192,
    thinking: "none",
    pricePerMillion: { input: 0.35, output: 0.56 },
  },
  "@cf/meta/llama-3.3-70b-instruct-fp8-fast": {
    family: "workers-ai-json",
    contextTokens: 24_000,
    maxOutputTokens: 4_096,
    thinking: "none",
    pricePerMillion: { input: 0.29, output: 2.25 },
  },
} as const satisfies Record<string, TextModelProfile>;

export type KnownTextModel = keyof typeof TEXT_MODEL_PROFILES;

/** The default AI_TEXT_MODEL (docs/deploy.md: Chinese and English, JSON schema, lowest output price). */
export const DEFAULT_TEXT_MODEL: KnownTextModel = "@cf/google/gemma-4-26b-a4b-it";

export function isKnownTextModel(model: string): model is KnownTextModel {
  return Object.hasOwn(TEXT_MODEL_PROFILES, model);
}

/** The row of `model`; a name not in the table is a configuration error. */
export function textModelProfile(model: string): TextModelProfile {
  if (isKnownTextModel(model)) return TEXT_MODEL_PROFILES[model];
  throw new RangeError(
    `AI_TEXT_MODEL "${model}" is not in src/models/workers-ai/model-profiles.ts; known: ${Object.keys(TEXT_MODEL_PROFILES).join(", ")}`,
  );
}
