/**
 * importAgent (docs/design.md, "Memory operations"): an export (src/operations/shared/export-format.ts)
 * into an empty agent.
 *
 * An import body may be far larger than the 1 MiB of other requests (a 10k-node agent exports
 * several megabytes): it is read as a stream, up to MAX_IMPORT_BYTES, never held whole. Each line
 * is validated as it arrives and the valid lines are handed to the agent's object in batches
 * (staged, not yet memory). Any bad line, or a file that fails the whole-file checks, drops the
 * staging and answers 400 naming the line: nothing is written. Only a complete, valid file becomes
 * an import task, named by the body's SHA-256, so a retry with the same Idempotency-Key and body
 * is recognised.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { ImportValidator, type LineProblem } from "../shared/export-format";
import { AgentPathSchema, EmptyQuerySchema, ErrorSchema, errorResponses } from "../../surfaces/common-schemas";
import { WriteHeadersSchema } from "../../surfaces/headers";
import { MAX_IMPORT_BYTES, MAX_IMPORT_LINE_BYTES } from "../../config/limits";
import { ApiError } from "../../http/errors";
import { agentOf, writeOptions } from "../../surfaces/agent-of";
import { JsonLinesError, jsonLines } from "../../surfaces/json-lines";
import { OPERATION_WAIT_MS, pendingBody, PendingSchema, whenFailed } from "../../surfaces/pending";
import { defineOperation } from "../../surfaces/operation";
import { audited } from "../../surfaces/audit";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { jsonAnswer } from "../../surfaces/common-schemas";

const JSONL_TYPES = ["application/x-ndjson", "application/jsonl", "application/json-lines"];

/** The media type of JSON Lines, typed as a plain string: the route's answer is a stream, not a JSON body. */
const NDJSON: string = "application/x-ndjson";

/** Characters of validated lines handed to the object per call. */
const STAGE_BATCH_CHARACTERS = 512 * 1024;

const STAGE_BATCH_LINES = 5_000;

const ImportedSchema = z
  .object({ nodes: z.number().int(), links: z.number().int(), aliases: z.number().int(), messages: z.number().int() })
  .openapi("Imported");

const route = createRoute({
  operationId: "importAgent",
  method: "post",
  path: "/v1/agents/{agentId}/import",
  tags: ["transfer"],
  summary: "Import an export into an empty agent",
  description: `The body is an export (JSON Lines, \`Content-Type: application/x-ndjson\`), at most ${MAX_IMPORT_BYTES} bytes, streamed. Every line is validated (strict schemas, the header first, the end line's counts) before anything is written; one bad line refuses the whole import (400, naming the line). The agent must hold no memory (409 otherwise). The result reproduces the exported agent's recall, search and stats.`,
  request: {
    params: AgentPathSchema,
    query: EmptyQuerySchema,
    headers: WriteHeadersSchema,
    body: { required: true, content: { [NDJSON]: { schema: z.string() } } },
  },
  responses: {
    200: jsonAnswer(ImportedSchema, "Imported"),
    202: jsonAnswer(PendingSchema, "Validated and queued behind earlier writes: follow the task"),
    ...errorResponses,
    409: jsonAnswer(ErrorSchema, "The agent is not empty"),
    413: jsonAnswer(ErrorSchema, "The body is too large"),
    415: jsonAnswer(ErrorSchema, "Not JSON Lines"),
    422: jsonAnswer(ErrorSchema, "The Idempotency-Key was used with a different request"),
    429: jsonAnswer(ErrorSchema, "The agent's queue is full"),
  },
});

export const importAgent: Endpoint = {
  operation: defineOperation(route, {
    scope: "write",
    tool: { reason: "a whole agent's memory as JSON Lines, for backups and moves" },
    sdk: { reason: "a JSON Lines body, not a JSON one: POST the export with Content-Type application/x-ndjson" },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
      if (!JSONL_TYPES.includes(type)) {
        throw new ApiError("unsupported_media_type", `an import is JSON Lines: Content-Type ${JSONL_TYPES[0]}`);
      }
      const declared = Number(c.req.header("content-length") ?? "0");
      if (declared > MAX_IMPORT_BYTES) throw new ApiError("payload_too_large", `an import body is at most ${MAX_IMPORT_BYTES} bytes`);
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
      // Whatever ends an upload before its task is queued drops what it staged (docs/design.md, "Memory operations").
      const drop = (digest: string | null) =>
        retry
          ? Promise.resolve()
          : agent.stub
              .abandonImport(agent.identity, uploadId, digest)
              .catch((err: unknown) => console.warn("dropping the staging of a failed import failed", err));
      let staged: Staged;
      try {
        staged = await stage(body, (from, lines, begin) =>
          retry ? Promise.resolve() : agent.stub.stageImport(agent.identity, uploadId, from, lines, begin),
        );
      } catch (err) {
        await drop(null);
        throw err;
      }
      if (!staged.ok) {
        await drop(null);
        const { line, message } = staged.problem;
        throw new ApiError(staged.tooLarge ? "payload_too_large" : "validation_failed", `line ${line}: ${message}`, {
          details: { line },
        });
      }
      if (!retry) await agent.stub.sealImport(agent.identity, uploadId, staged.digest);
      let outcome;
      try {
        outcome = await agent.submit(
          "importAgent",
          { import_id: staged.digest, lines: staged.lines, next_node_id: staged.nextNodeId },
          { waitMs: OPERATION_WAIT_MS, ...options },
        );
      } catch (err) {
        await drop(staged.digest);
        throw err;
      }
      whenFailed(outcome, "importAgent");
      const result = outcome.result;
      if (!result || result.outcome === "imported") {
        const counts: Record<string, number> = result ? { nodes: result.nodes, links: result.links, messages: result.messages } : {};
        await audited(c, "agent.imported", agent.identity.agentId, null, {
          task_id: outcome.taskIds[0] ?? null,
          lines: staged.lines,
          ...counts,
        });
      }
      if (!result) return c.json(pendingBody(outcome), 202);
      if (result.outcome === "not_staged") {
        throw new ApiError("conflict", "the import's staged lines were dropped (the agent was deleted during the upload): send it again");
      }
      if (result.outcome !== "imported") throw new ApiError("conflict", "the agent holds memories: import into an empty agent");
      return c.json({ nodes: result.nodes, links: result.links, aliases: result.aliases, messages: result.messages }, 200);
    }),
};

type Stager = (from: number, lines: string[], begin: boolean) => Promise<void>;

type Staged = { ok: true; digest: string; lines: number; nextNodeId: number } | { ok: false; problem: LineProblem; tooLarge: boolean };

const encoder = new TextEncoder();

/**
 * Reads the body line by line (src/surfaces/json-lines.ts: UTF-8, LF or CRLF, bounded), validates
 * each non-blank line, hands valid lines to `put` in batches, and hashes the bytes: the body's
 * SHA-256 and the file's next node id, or the first problem (too large: 413).
 */
async function stage(body: ReadableStream<Uint8Array>, put: Stager): Promise<Staged> {
  const validator = new ImportValidator();
  const hash = new crypto.DigestStream("SHA-256");
  const hashWriter = hash.getWriter();
  let batch: string[] = [];
  let batchCharacters = 0;
  let staged = 0;
  let read = 0;
  const flush = async () => {
    if (batch.length === 0 && staged > 0) return;
    await put(staged, batch, staged === 0);
    staged += batch.length;
    batch = [];
    batchCharacters = 0;
  };
  const limits = { maxBytes: MAX_IMPORT_BYTES, maxLineBytes: MAX_IMPORT_LINE_BYTES };
  try {
    for await (const { number, text } of jsonLines(body, limits, (chunk) => hashWriter.write(chunk))) {
      read = number;
      if (text.trim() === "") continue;
      const accepted = validator.accept(text, number);
      if (!accepted.ok) return { ok: false, problem: accepted.problem, tooLarge: false };
      // As stored (re-serialised, numbers written out): bounded like the line itself.
      if (accepted.line.length * 3 > MAX_IMPORT_LINE_BYTES && encoder.encode(accepted.line).byteLength > MAX_IMPORT_LINE_BYTES) {
        return {
          ok: false,
          problem: { line: number, message: `the line is longer than ${MAX_IMPORT_LINE_BYTES} bytes as stored` },
          tooLarge: true,
        };
      }
      batch.push(accepted.line);
      batchCharacters += accepted.line.length;
      if (batchCharacters >= STAGE_BATCH_CHARACTERS || batch.length >= STAGE_BATCH_LINES) await flush();
    }
  } catch (err) {
    if (!(err instanceof JsonLinesError)) throw err;
    return { ok: false, problem: { line: err.line, message: err.message }, tooLarge: err.tooLarge };
  }
  const problem = validator.finish(read);
  const nextNodeId = validator.nextNodeId;
  if (problem || nextNodeId === undefined)
    return { ok: false, problem: problem ?? { line: read + 1, message: "the file is empty" }, tooLarge: false };
  await flush();
  await hashWriter.close();
  const digest = new Uint8Array(await hash.digest);
  return { ok: true, digest: [...digest].map((b) => b.toString(16).padStart(2, "0")).join(""), lines: staged, nextNodeId };
}
