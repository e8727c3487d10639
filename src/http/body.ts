/**
 * Reads a request's body once, bounded, before any route sees it (in place of hono's bodyLimit).
 *
 * - Larger than the limit: 413, by the declared Content-Length when there is one, else counted
 *   while reading (a chunked body declares none).
 * - A GET, HEAD, DELETE or OPTIONS carries its whole meaning in its path and query: a body there
 *   is refused with 400, not ignored. Such a request is never rebuilt: the runtime refuses to
 *   construct a GET or HEAD Request with a body, which is what made hono's bodyLimit answer 500.
 * - A JSON body must be UTF-8 (JSON exchanged between systems is UTF-8 by definition): undecodable
 *   bytes are refused with 400 rather than stored as replacement characters the client never sent.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";
import { errorResponse } from "./errors";

const BODILESS_METHODS = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);

/** The media types hono's JSON validator parses (application/json, application/*+json). */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/** The body's bytes, or undefined as soon as they exceed `maxBytes` (the stream is left for src/http/drain.ts). */
export async function readAtMost(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      // Not cancelled: the rest is drained before the 413 (src/http/drain.ts).
      reader.releaseLock();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * A POST that takes no body (its meaning is its path): a body is refused with 400, as on a DELETE,
 * never ignored (`{"agentId": "other"}` must not seem to choose anything); an empty JSON object is
 * taken as nothing. Runs after readBody, which left the bytes in the request.
 */
export const noBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  const text = c.req.raw.body === null ? "" : (await c.req.raw.clone().text()).trim();
  const json = JSON_MEDIA_TYPE.test((c.req.header("content-type") ?? "").split(";")[0]?.trim() ?? "");
  if (text !== "" && !(json && /^\{\s*\}$/.test(text))) {
    return errorResponse(c, "validation_failed", `a ${c.req.method} to this path takes no body (its meaning is its path)`);
  }
  return next();
};

export function readBody(maxBytes: number): MiddlewareHandler<AppEnv> {
  const tooLarge = `the request body exceeds ${maxBytes} bytes`;
  return async (c, next) => {
    const raw = c.req.raw;
    if (raw.body === null) return next();
    const declared = raw.headers.get("content-length");
    if (declared !== null && !raw.headers.has("transfer-encoding") && Number(declared) > maxBytes) {
      return errorResponse(c, "payload_too_large", tooLarge);
    }
    const bytes = await readAtMost(raw.body, maxBytes);
    if (bytes === undefined) return errorResponse(c, "payload_too_large", tooLarge);
    if (BODILESS_METHODS.has(c.req.method)) {
      if (bytes.byteLength > 0) return errorResponse(c, "validation_failed", `a ${c.req.method} request takes no body`);
      return next();
    }
    const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim() ?? "";
    if (JSON_MEDIA_TYPE.test(mediaType) && !isUtf8(bytes)) {
      return errorResponse(c, "invalid_json", "the request body is not valid UTF-8");
    }
    // The stream is read: the routes get the same bytes back in a request of the same method.
    c.req.raw = new Request(raw, { body: bytes });
    return next();
  };
}
