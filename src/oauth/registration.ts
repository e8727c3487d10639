/**
 * Bounds on dynamic client registration (RFC 7591, POST /oauth/register), which anyone may call and
 * whose every client is stored (OAUTH_KV) and shown on the consent page: a body of at most 16 KiB;
 * a name of at most 200 characters; at most 10 redirect URIs and 10 contacts; each URI at most 2,048
 * characters; and at most 10 registrations a minute per client address (Workers Rate Limiting,
 * OAUTH_REGISTRATIONS). Fields of the wrong type are left for the provider to refuse. Refusals are
 * OAuth errors (`invalid_client_metadata`, RFC 7591 §3.2.2).
 */
import { readAtMost } from "../http/body";
import { DRAIN_MAX_BYTES, drain } from "../http/drain";
import { RATE_LIMIT_RETRY_AFTER_S, withinRate } from "../http/rate-limit";

export const MAX_REGISTRATION_BYTES = 16 * 1024;
const MAX_NAME = 200;
const MAX_URI = 2048;
const MAX_LIST = 10;
const MAX_SHORT = 320;

const URI_FIELDS = ["client_uri", "logo_uri", "policy_uri", "tos_uri", "jwks_uri", "initiate_login_uri"];
const LIST_FIELDS: Record<string, number> = {
  redirect_uris: MAX_URI,
  contacts: MAX_SHORT,
  grant_types: MAX_SHORT,
  response_types: MAX_SHORT,
};
const SHORT_FIELDS = ["scope", "token_endpoint_auth_method", "software_id", "software_version"];

function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error, error_description: description }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

/** Why these client metadata exceed the bounds, or undefined. */
export function metadataProblem(metadata: unknown): string | undefined {
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) return undefined;
  const fields = metadata as Record<string, unknown>;
  const tooLong = (value: unknown, max: number) => typeof value === "string" && [...value].length > max;
  if (tooLong(fields.client_name, MAX_NAME)) return `client_name: at most ${MAX_NAME} characters`;
  for (const field of URI_FIELDS) if (tooLong(fields[field], MAX_URI)) return `${field}: at most ${MAX_URI} characters`;
  for (const field of SHORT_FIELDS) if (tooLong(fields[field], MAX_SHORT)) return `${field}: at most ${MAX_SHORT} characters`;
  for (const [field, max] of Object.entries(LIST_FIELDS)) {
    const list = fields[field];
    if (!Array.isArray(list)) continue;
    if (list.length > MAX_LIST) return `${field}: at most ${MAX_LIST} entries`;
    if (list.some((v) => tooLong(v, max))) return `${field}: each at most ${max} characters`;
  }
  return undefined;
}

/**
 * A registration checked against the bounds: the refusal, or the request to hand on (its body read
 * here, so a new request carries it).
 */
export async function boundedRegistration(request: Request, env: Env): Promise<{ refused: Response } | { request: Request }> {
  if (request.method !== "POST") return { request };
  if (!(await withinRate(env.OAUTH_REGISTRATIONS, request.headers.get("cf-connecting-ip") ?? "local"))) {
    return {
      refused: oauthError(429, "invalid_request", "too many client registrations from this address: retry in a minute", {
        "Retry-After": String(RATE_LIMIT_RETRY_AFTER_S),
      }),
    };
  }
  const bytes = await readAtMostDrained(request, MAX_REGISTRATION_BYTES);
  if (bytes === undefined)
    return { refused: oauthError(413, "invalid_client_metadata", `the registration exceeds ${MAX_REGISTRATION_BYTES} bytes`) };
  let metadata: unknown;
  try {
    metadata = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    metadata = undefined;
  }
  const problem = metadataProblem(metadata);
  if (problem !== undefined) return { refused: oauthError(400, "invalid_client_metadata", problem) };
  return { request: new Request(request, { body: bytes }) };
}

/** The body, or undefined once it passes `max` bytes (the rest drained, src/http/drain.ts: the client reads the answer). */
async function readAtMostDrained(request: Request, max: number): Promise<Uint8Array | undefined> {
  if (request.body === null) return new Uint8Array();
  const bytes = await readAtMost(request.body, max);
  if (bytes === undefined) await drain(request.body, DRAIN_MAX_BYTES);
  return bytes;
}
