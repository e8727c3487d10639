/**
 * `withMemory(model, { agentId })`: the model, wrapped (AI SDK `wrapLanguageModel`) so that every
 * call first puts the memory's context block for the latest user turn into the system prompt, and
 * after the answer remembers the exchange (that user turn and the answer's text), in the
 * background: the answer is never held up by the write, nor failed by it. A call of several steps
 * (generateText with tools: each step is a model call) is one exchange, remembered once: with the
 * step that ends it, not with those that end in tool calls (the call goes on with their results). Works for
 * generateText and streamText alike (a stream's answer is remembered when it has been read to its
 * end). In a Worker, pass `waitUntil: (p) => ctx.waitUntil(p)` so the write outlives the response.
 */
import type { GetContextInput, RememberOutput } from "@agent-memory/sdk";
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4FinishReason,
  LanguageModelV4Middleware,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import { wrapLanguageModel, type LanguageModel } from "ai";
import { agentOf, type MemoryOptions } from "./agent.js";

export type WithMemoryOptions = MemoryOptions & {
  /** What the context block holds: its token budget, sections and label language (the API's defaults otherwise). */
  context?: Pick<GetContextInput, "budget_tokens" | "include" | "locale">;
  /** false: only inject the context, remember nothing. Default true. */
  remember?: boolean;
  /** Keeps the background write alive (a Worker's `ctx.waitUntil`); it receives the write's promise. */
  waitUntil?: (promise: Promise<RememberOutput | undefined>) => void;
  /** A failed context read or write (the call goes on without it). Default: console.warn. */
  onError?: (error: unknown) => void;
};

/** A model call that ended in tool calls: its step is not the exchange's last (the caller runs the tools and calls again). */
function continues(reason: LanguageModelV4FinishReason | undefined): boolean {
  return reason?.unified === "tool-calls";
}

type LanguageModelV4 = Parameters<NonNullable<LanguageModelV4Middleware["transformParams"]>>[0]["model"];

/** The text of the prompt's latest user turn, or undefined when it has none. */
export function latestUserText(prompt: LanguageModelV4Prompt): string | undefined {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message?.role !== "user") continue;
    const text = message.content
      .flatMap((part) => (part.type === "text" ? [part.text] : []))
      .join("\n")
      .trim();
    return text === "" ? undefined : text;
  }
  return undefined;
}

/** The prompt with `block` appended to its system message (or in a new one at the start). */
export function withSystemBlock(prompt: LanguageModelV4Prompt, block: string): LanguageModelV4Prompt {
  const first = prompt[0];
  if (first?.role === "system") return [{ ...first, content: `${first.content}\n\n${block}` }, ...prompt.slice(1)];
  return [{ role: "system", content: block }, ...prompt];
}

export function memoryMiddleware(options: WithMemoryOptions): LanguageModelV4Middleware {
  const agent = agentOf(options);
  const onError = options.onError ?? ((error: unknown) => console.warn("agent memory:", error));
  const shouldRemember = options.remember ?? true;

  const injectContext = async (params: LanguageModelV4CallOptions): Promise<LanguageModelV4CallOptions> => {
    const query = latestUserText(params.prompt);
    if (query === undefined) return params;
    try {
      const { text } = await agent.getContext({ ...options.context, query });
      return text.trim() === "" ? params : { ...params, prompt: withSystemBlock(params.prompt, text) };
    } catch (error) {
      onError(error);
      return params;
    }
  };

  const rememberLater = (params: LanguageModelV4CallOptions, answer: string): void => {
    const question = latestUserText(params.prompt);
    if (!shouldRemember || question === undefined || answer.trim() === "") return;
    const write = agent
      .remember({
        messages: [
          { role: "user", content: question },
          { role: "assistant", content: answer },
        ],
      })
      .catch((error: unknown) => {
        onError(error);
        return undefined;
      });
    options.waitUntil?.(write);
  };

  return {
    specificationVersion: "v4",
    transformParams: async ({ params }) => injectContext(params),
    wrapGenerate: async ({ doGenerate, params }) => {
      const result = await doGenerate();
      if (!continues(result.finishReason)) {
        rememberLater(params, result.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(""));
      }
      return result;
    },
    wrapStream: async ({ doStream, params }) => {
      const result = await doStream();
      let answer = "";
      let finish: LanguageModelV4FinishReason | undefined;
      const watch = new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
        transform(part, controller) {
          if (part.type === "text-delta") answer += part.delta;
          if (part.type === "finish") finish = part.finishReason;
          controller.enqueue(part);
        },
        flush() {
          if (!continues(finish)) rememberLater(params, answer);
        },
      });
      return { ...result, stream: result.stream.pipeThrough(watch) };
    },
  };
}

/** The model with the agent's memory: context in, exchange remembered. */
export function withMemory(model: LanguageModelV4, options: WithMemoryOptions): LanguageModel {
  return wrapLanguageModel({ model, middleware: memoryMiddleware(options) });
}
