/**
 * Refused bodies are read to their end, up to a bound, before the answer (docs/architecture.md,
 * "The HTTP edge"). A 4xx answered while the client is still sending (a 413 by Content-Length, a
 * line over the import's limit, a 401 before any byte was read) made proxies and clients in between
 * drop the connection instead of delivering the answer: `npm run dev`'s proxy gave some clients a
 * 500 or a bare `100 Continue` for a 5 MB import line. The rest of the body is read and discarded
 * (never parsed, never kept), up to DRAIN_MAX_BYTES; a client that sends more may still lose the
 * answer, and should not send it.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";

/** Bytes of a refused body read and discarded before its answer. */
export const DRAIN_MAX_BYTES = 8 * 1024 * 1024;

/** Reads and discards what is left of `body`, at most `maxBytes`; then cancels the rest. */
export async function drain(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<void> {
  if (body.locked) return;
  const reader = body.getReader();
  try {
    for (let read = 0; read <= maxBytes;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing left to answer.
  } finally {
    reader.releaseLock();
  }
}

/** After a 4xx, drains the request's own body (the one the client sends), whatever read part of it. */
export function drainRefused(maxBytes: number = DRAIN_MAX_BYTES): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const body = c.req.raw.body;
    await next();
    if (body !== null && c.res.status >= 400 && c.res.status < 500) await drain(body, maxBytes);
  };
}
