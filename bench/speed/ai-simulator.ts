/**
 * A stand-in for Workers AI, for the production-shaped benchmark (production-bench.ts): an HTTP
 * endpoint the Worker's `HttpAiBinding` (src/models/workers-ai/http-ai-binding.ts) sends every
 * `AI.run` to. It answers with the built-in local model, after the latency the real service takes
 * (text generation 1,200 ms, embeddings 120 ms, each ±20 % from a seeded generator), and it
 * enforces the account's rate limits (300 text-generation and 3,000 embedding requests a minute,
 * shared by every agent): a request beyond them gets a 429 with Workers AI's own message
 * ("3021: …"), as the binding would throw it.
 *
 * Time can be scaled (`timeScale` < 1): latencies and the limits' minute shrink alike, so a smoke
 * run finishes in seconds; figures are then reported in simulated time by the caller.
 *
 * It counts what it served per task (the JSON schema's name): requests, refusals, and estimated
 * tokens in and out (src/text/token-estimate.ts, the planner's deliberately high estimate).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { seededRandom } from "../../src/memory/capacity";
import { digestByTasks } from "../../src/models/digest";
import { EMBEDDING_DIMENSIONS, embedText } from "../../src/models/local/local-embedder";
import { LocalModel } from "../../src/models/local/local-model";
import { CONFLICT_VERDICTS, type ModelMessage } from "../../src/models/types";
import { MESSAGE_ROLES } from "../../src/vocabulary/roles";
import { tokenWeight } from "../../src/text/token-estimate";

export const TEXT_LATENCY_MS = 1_200;
export const EMBEDDING_LATENCY_MS = 120;
export const LATENCY_JITTER = 0.2;
export const ACCOUNT_TEXT_PER_MINUTE = 300;
export const ACCOUNT_EMBEDDINGS_PER_MINUTE = 3_000;
/** The vector length the Worker's embedder expects (bge-m3); local vectors are padded with zeros (same cosines). */
const EMBEDDING_DIMENSIONS_REMOTE = 1024;

export interface SimulatorOptions {
  /** 1 = real time; 0.1 = every latency and the limits' minute ten times shorter. */
  timeScale: number;
  seed: number;
}

export interface OperationCount {
  calls: number;
  refused: number;
  tokensIn: number;
  tokensOut: number;
}

export type Counts = Record<string, OperationCount>;

const ChatMessage = z.object({ role: z.string(), content: z.string() });
const ChatInputs = z.object({
  messages: z.array(ChatMessage).min(1),
  response_format: z.object({ json_schema: z.object({ name: z.string() }) }),
});
const EmbeddingInputs = z.object({ text: z.array(z.string()) });
const RunRequest = z.object({ model: z.string(), inputs: z.record(z.string(), z.unknown()) });

const SegmentInput = z.object({
  messages: z.array(z.object({ index: z.number(), speaker: z.string(), role: z.enum(MESSAGE_ROLES), content: z.string() })),
});
const DigestInput = SegmentInput.extend({ max: z.number() });
const DigestsInput = z.object({ max: z.number(), conversations: z.array(SegmentInput) });
const TextsInput = z.object({ texts: z.array(z.string()) });
const RelationsInput = z.object({ pairs: z.array(z.object({ segment: z.string(), entity: z.string() })) });
const CompressInput = z.object({ target: z.number(), text: z.string() });
const SummarizeInput = z.object({ max: z.number(), segments: z.array(z.string()) });
const QueryInput = z.object({ query: z.string() });
const ConflictsInput = z.object({ pairs: z.array(z.object({ earlier: z.string(), later: z.string(), entities: z.array(z.string()) })) });
const SameInput = z.object({ pairs: z.array(z.object({ known: z.string(), mentioned: z.string(), context: z.string() })) });

/** The model's messages from a prompt's input (the speaker is the name unless it is the role). */
function messagesOf(input: z.output<typeof SegmentInput>["messages"]): ModelMessage[] {
  return input.map((x) => ({ index: x.index, role: x.role, content: x.content, ...(x.speaker !== x.role ? { name: x.speaker } : {}) }));
}

/** Sliding-window limiter of the whole account, as the service applies it. */
class AccountLimit {
  private readonly starts: number[] = [];
  constructor(
    private readonly perWindow: number,
    private readonly windowMs: number,
  ) {}

  admit(now: number): boolean {
    while (this.starts.length > 0 && (this.starts[0] ?? 0) <= now - this.windowMs) this.starts.shift();
    if (this.starts.length >= this.perWindow) return false;
    this.starts.push(now);
    return true;
  }
}

export class AiSimulator {
  readonly counts: Counts = {};
  private readonly model = new LocalModel();
  private readonly random: () => number;
  private readonly text: AccountLimit;
  private readonly embeddings: AccountLimit;
  private server: Server | undefined;

  constructor(private readonly options: SimulatorOptions) {
    this.random = seededRandom(options.seed);
    const windowMs = 60_000 * options.timeScale;
    this.text = new AccountLimit(ACCOUNT_TEXT_PER_MINUTE, windowMs);
    this.embeddings = new AccountLimit(ACCOUNT_EMBEDDINGS_PER_MINUTE, windowMs);
  }

  /** The scaled minute, for the Worker's request budgets (AI_RATE_WINDOW_MS). */
  get windowMs(): number {
    return Math.round(60_000 * this.options.timeScale);
  }

  /** Starts listening on a free port of 127.0.0.1; returns the URL the Worker posts to. */
  async start(): Promise<string> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/run`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** A copy of the counters now (the caller subtracts two snapshots to count one phase). */
  snapshot(): Counts {
    return Object.fromEntries(Object.entries(this.counts).map(([k, v]) => [k, { ...v }]));
  }

  private count(operation: string): OperationCount {
    const c = (this.counts[operation] ??= { calls: 0, refused: 0, tokensIn: 0, tokensOut: 0 });
    return c;
  }

  private latency(base: number): number {
    return base * (1 + LATENCY_JITTER * (2 * this.random() - 1)) * this.options.timeScale;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const run = RunRequest.parse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      const embedding = EmbeddingInputs.safeParse(run.inputs);
      if (embedding.success) {
        const c = this.count("embedding");
        if (!this.embeddings.admit(Date.now())) return this.refuse(res, c);
        c.calls += 1;
        c.tokensIn += embedding.data.text.reduce((a, t) => a + tokenWeight(t), 0);
        const data = embedding.data.text.map((t) => {
          const v = new Array<number>(EMBEDDING_DIMENSIONS_REMOTE).fill(0);
          embedText(t, EMBEDDING_DIMENSIONS).forEach((x, i) => (v[i] = x));
          return v;
        });
        await this.wait(started, this.latency(EMBEDDING_LATENCY_MS));
        return this.answer(res, { shape: [data.length, EMBEDDING_DIMENSIONS_REMOTE], data });
      }
      const chat = ChatInputs.parse(run.inputs);
      const operation = chat.response_format.json_schema.name;
      const c = this.count(operation);
      if (!this.text.admit(Date.now())) return this.refuse(res, c);
      c.calls += 1;
      c.tokensIn += chat.messages.reduce((a, m) => a + tokenWeight(m.content), 0);
      const input: unknown = JSON.parse(chat.messages[chat.messages.length - 1]?.content ?? "null");
      const content = JSON.stringify(await this.solve(operation, input));
      c.tokensOut += tokenWeight(content);
      await this.wait(started, this.latency(TEXT_LATENCY_MS));
      return this.answer(res, { choices: [{ message: { content }, finish_reason: "stop" }] });
    } catch (e) {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(`simulator: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** The local model's answer to one task, in the task's answer schema. */
  private async solve(operation: string, input: unknown): Promise<unknown> {
    const m = this.model;
    switch (operation) {
      case "segments":
        return { segments: await m.segment(messagesOf(SegmentInput.parse(input).messages)) };
      case "extractions":
        return { items: await m.extract(TextsInput.parse(input).texts) };
      case "relations":
        return { relations: await m.nameRelations(RelationsInput.parse(input).pairs) };
      case "compression": {
        const x = CompressInput.parse(input);
        return { text: await m.compress(x.text, x.target) };
      }
      case "summary": {
        const x = SummarizeInput.parse(input);
        return { summary: await m.summarize(x.segments, x.max) };
      }
      case "query_keywords":
        return { keywords: await m.queryKeywords(QueryInput.parse(input).query) };
      case "conflict_verdicts": {
        const verdicts = await m.judgeConflicts(ConflictsInput.parse(input).pairs);
        return { verdicts: verdicts.map((v) => (CONFLICT_VERDICTS.includes(v) ? v : "unrelated")) };
      }
      case "window_digest": {
        const x = DigestInput.parse(input);
        const d = await digestByTasks(m, messagesOf(x.messages), x.max);
        return {
          segments: d.segments.map((seg, i) => ({ ...seg, ...(d.extractions[i] ?? { phrase: "", keywords: [], entities: [] }) })),
          summary: d.summary,
        };
      }
      case "window_digests": {
        const x = DigestsInput.parse(input);
        const out = [];
        for (const c of x.conversations) {
          const d = await digestByTasks(m, messagesOf(c.messages), x.max);
          out.push({
            segments: d.segments.map((seg, i) => ({ ...seg, ...(d.extractions[i] ?? { phrase: "", keywords: [], entities: [] }) })),
            summary: d.summary,
          });
        }
        return { conversations: out };
      }
      case "same_entities":
        return { same: await m.sameEntities(SameInput.parse(input).pairs) };
      default:
        throw new Error(`no local answer for the task "${operation}"`);
    }
  }

  private refuse(res: ServerResponse, c: OperationCount): void {
    c.refused += 1;
    res.writeHead(429, { "content-type": "text/plain" });
    res.end("3021: Rate limiting: inference request per min rate reached");
  }

  private answer(res: ServerResponse, result: unknown): void {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ result }));
  }

  /** Sleeps until `latency` ms after `started` (the local model's own time counts toward it). */
  private async wait(started: number, latency: number): Promise<void> {
    const left = latency - (performance.now() - started);
    if (left > 0) await new Promise((r) => setTimeout(r, left));
  }
}
