/**
 * Export and import (docs/design.md §11): the agent's whole memory as versioned JSON Lines
 * (src/agent/export-format.ts), streamed out; and an import into an empty agent.
 *
 * An import body may be far larger than the 1 MiB of other requests (a 10k-node agent exports
 * several megabytes): it is read as a stream, up to MAX_IMPORT_BYTES, never held whole. Each line
 * is validated as it arrives and the valid lines are handed to the agent's object in batches
 * (staged, not yet memory). Any bad line, or a file that fails the whole-file checks, drops the
 * staging and answers 400 naming the line: nothing is written. Only a complete, valid file becomes
 * an import task, named by the body's SHA-256, so a retry with the same Idempotency-Key and body
 * is recognised.
 */
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { ImportValidator, type LineProblem } from "../agent/export-format";
import { AgentPathSchema, ErrorSchema, errorResponses } from "../api/common";
import { WriteHeadersSchema } from "../api/headers";
import { ImportedSchema, OPERATION_WAIT_MS, PendingSchema } from "../api/memories";
import { MAX_IMPORT_BYTES } from "../config/limits";
import type { AppEnv } from "../http/app-env";
import { ApiError } from "../http/errors";
import { agentOf, writeOptions } from "./agent-of";
import { pendingBody, whenFailed } from "./pending";

const JSONL_TYPES = ["application/x-ndjson", "application/jsonl", "application/json-lines"];
/** The media type of JSON Lines, typed as a plain string: the route's answer is a stream, not a JSON body. */
const NDJSON: string = "application/x-ndjson";
/** Characters of validated lines handed to the object per call. */
const STAGE_BATCH_CHARACTERS = 512 * 1024;
const STAGE_BATCH_LINES = 5_000;

const json = <S>(schema: S, description: string) => ({ description, content: { "application/json": { schema } } });

export const exportAgentRoute = createRoute({
  operationId: "exportAgent",
  method: "get",
  path: "/v1/agents/{agentId}/export",
  tags: ["transfer"],
  summary: "Export the agent's whole memory as JSON Lines",
  description:
    "A header (format agent-memory-export, version 1, parameters, decay clock, counters), the focus, every node (provenance, meta, superseded_by, scan count), every link including dangling ones (level against the clock, strength, pinned), every alias, the message ids held, and an end line with the counts. Read at one moment, after every write accepted before the request; streamed.",
  request: { params: AgentPathSchema },
  responses: {
    200: { description: "The export", content: { [NDJSON]: { schema: z.string() } } },
    ...errorResponses,
  },
});

export const importAgentRoute = createRoute({
  operationId: "importAgent",
  method: "post",
  path: "/v1/agents/{agentId}/import",
  tags: ["transfer"],
  summary: "Import an export into an empty agent",
  description: `The body is an export (JSON Lines, \`Content-Type: application/x-ndjson\`), at most ${MAX_IMPORT_BYTES} bytes, streamed. Every line is validated (strict schemas, the header first, the end line's counts) before anything is written; one bad line refuses the whole import (400, naming the line). The agent must hold no memory (409 otherwise). The result reproduces the exported agent's recall, search and stats.`,
  request: {
    params: AgentPathSchema,
    headers: WriteHeadersSchema,
    body: { required: true, content: { [NDJSON]: { schema: z.string() } } },
  },
  responses: {
    200: json(ImportedSchema, "Imported"),
    202: json(PendingSchema, "Validated and queued behind earlier writes: follow the task"),
    ...errorResponses,
    409: json(ErrorSchema, "The agent is not empty"),
    413: json(ErrorSchema, "The body is too large"),
    415: json(ErrorSchema, "Not JSON Lines"),
    422: json(ErrorSchema, "The Idempotency-Key was used with a different request"),
    429: json(ErrorSchema, "The agent's queue is full"),
  },
});

export function registerTransfer(app: OpenAPIHono<AppEnv>): void {
  app.openapi(exportAgentRoute, async (c) => {
    const agent = agentOf(c, c.req.valid("param").agentId);
    const body = await agent.stub.exportLines(agent.identity);
    return c.body(body, 200, {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Content-Disposition": `attachment; filename="${agent.identity.agentId}.jsonl"`,
    });
  });

  app.openapi(importAgentRoute, async (c) => {
    const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    if (!JSONL_TYPES.includes(type)) {
      throw new ApiError("unsupported_media_type", `an import is JSON Lines: Content-Type ${JSONL_TYPES[0]}`);
    }
    const declared = Number(c.req.header("content-length") ?? "0");
    if (declared > MAX_IMPORT_BYTES) throw tooLarge();
    const agent = agentOf(c, c.req.valid("param").agentId);
    const options = writeOptions(c.req.valid("header"));
    const state = await agent.stub.importable(agent.identity, options.idempotencyKey);
    if (state === "not_empty") {
      throw new ApiError("conflict", "the agent holds memories: import into an empty agent (DELETE it first, or use another agent id)");
    }
    const body = c.req.raw.body;
    if (!body) throw new ApiError("validation_failed", "the import body is empty");
    const uploadId = crypto.randomUUID();
    // A retry of a known key stages nothing: its body is only validated and hashed.
    const retry = state === "retry";
    const staged = await stage(body, (from, lines, begin) =>
      retry ? Promise.resolve() : agent.stub.stageImport(agent.identity, uploadId, from, lines, begin),
    );
    if ("problem" in staged || "tooLarge" in staged) {
      if (!retry) await agent.stub.sealImport(agent.identity, uploadId, null);
      if ("tooLarge" in staged) throw tooLarge();
      throw new ApiError("validation_failed", `line ${staged.problem.line}: ${staged.problem.message}`, {
        details: { line: staged.problem.line },
      });
    }
    if (!retry) await agent.stub.sealImport(agent.identity, uploadId, staged.digest);
    const outcome = await agent.submit("import", { import_id: staged.digest }, { waitMs: OPERATION_WAIT_MS, ...options });
    whenFailed(outcome, "import");
    const result = outcome.result;
    if (!result) return c.json(pendingBody(outcome), 202);
    if (result.outcome !== "imported") throw new ApiError("conflict", "the agent holds memories: import into an empty agent");
    return c.json({ nodes: result.nodes, links: result.links, aliases: result.aliases, messages: result.messages }, 200);
  });
}

function tooLarge(): ApiError {
  return new ApiError("payload_too_large", `an import body is at most ${MAX_IMPORT_BYTES} bytes`);
}

type Stager = (from: number, lines: string[], begin: boolean) => Promise<void>;

/**
 * Reads the body line by line (UTF-8, LF or CRLF, blank lines ignored), validates each line,
 * hands valid lines to `put` in batches, and hashes the bytes: the body's SHA-256, or the first
 * problem, or that it was too large.
 */
async function stage(
  body: ReadableStream<Uint8Array>,
  put: Stager,
): Promise<{ digest: string } | { problem: LineProblem } | { tooLarge: true }> {
  const validator = new ImportValidator();
  const hash = new crypto.DigestStream("SHA-256");
  const hashWriter = hash.getWriter();
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  const reader = body.getReader();
  let bytes = 0;
  let pending = "";
  let batch: string[] = [];
  let batchCharacters = 0;
  let staged = 0;
  const flush = async () => {
    if (batch.length === 0 && staged > 0) return;
    await put(staged, batch, staged === 0);
    staged += batch.length;
    batch = [];
    batchCharacters = 0;
  };
  const take = async (raw: string): Promise<LineProblem | undefined> => {
    const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (text.trim() === "") return undefined;
    const accepted = validator.accept(text);
    if (!accepted.ok) return accepted.problem;
    batch.push(accepted.line);
    batchCharacters += accepted.line.length;
    if (batchCharacters >= STAGE_BATCH_CHARACTERS || batch.length >= STAGE_BATCH_LINES) await flush();
    return undefined;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > MAX_IMPORT_BYTES) return { tooLarge: true };
      await hashWriter.write(value);
      let text: string;
      try {
        text = decoder.decode(value, { stream: true });
      } catch {
        return { problem: { line: validator.lineCount + 1, message: "not UTF-8" } };
      }
      pending += text;
      for (let newline = pending.indexOf("\n"); newline >= 0; newline = pending.indexOf("\n")) {
        const problem = await take(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        if (problem) return { problem };
      }
    }
    const problem = (await take(pending + decoder.decode())) ?? validator.finish();
    if (problem) return { problem };
    await flush();
    await hashWriter.close();
    const digest = new Uint8Array(await hash.digest);
    return { digest: [...digest].map((b) => b.toString(16).padStart(2, "0")).join("") };
  } finally {
    reader.releaseLock();
  }
}
