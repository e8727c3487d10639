/**
 * The request body of one JSON task, in the shape of the model's family (model-profiles.ts). Every
 * family gets the same chat messages, temperature 0 (the same text must yield the same memory on
 * every call) and an explicit output cap (Llama 3.3 defaults to 256 tokens, far too few); they
 * differ in how the JSON schema is passed, how the cap is named and how reasoning is turned off.
 */
import type { ChatMessage } from "./ai-client";
import type { TextModelProfile } from "./model-profiles";

export interface JsonTaskRequest {
  /** The task's name, sent as the schema name where the family wants one (`^[a-zA-Z0-9_-]+$`). */
  name: string;
  messages: readonly ChatMessage[];
  /** The answer's JSON Schema. */
  schema: Record<string, unknown>;
  maxTokens: number;
}

/** Qwen3's soft switch (qwen.readthedocs.io): a trailing "/no_think" skips the thinking block. */
export const NO_THINK_DIRECTIVE = "/no_think";

export function requestInputs(profile: TextModelProfile, request: JsonTaskRequest): Record<string, unknown> {
  const messages = profile.thinking === "no-think-directive" ? withDirective(request.messages) : [...request.messages];
  switch (profile.family) {
    case "workers-ai-json":
      return {
        messages,
        response_format: { type: "json_schema", json_schema: request.schema },
        temperature: 0,
        max_tokens: request.maxTokens,
      };
    case "guided-json":
      return { messages, guided_json: request.schema, temperature: 0, max_tokens: request.maxTokens };
    case "openai-chat":
      return {
        messages,
        response_format: { type: "json_schema", json_schema: { name: request.name, schema: request.schema, strict: true } },
        temperature: 0,
        max_completion_tokens: request.maxTokens,
        ...(profile.thinking === "chat-template-off" ? { chat_template_kwargs: { enable_thinking: false } } : {}),
      };
  }
}

/** The directive appended to the system message (added once, whatever the task). */
function withDirective(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((m, i) => (i === 0 && m.role === "system" ? { role: m.role, content: `${m.content}\n${NO_THINK_DIRECTIVE}` } : m));
}
