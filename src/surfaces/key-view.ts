/**
 * What the tenant's key endpoints share (src/operations/list-keys, revoke-key): a key as the API
 * shows it (never its secret), the viewer a request's principal is, and the actor the audit log
 * names for it.
 */
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../http/app-env";
import { forgetKey } from "../http/principal";
import type { Actor, ChangedKey, KeyViewer } from "../service/key-lifecycle";
import { SCOPES } from "../vocabulary/scopes";

/** A key's public prefix: `amk_` and 8 letters or digits. */
export const KeyPrefixSchema = z
  .string()
  .regex(/^amk_[A-Za-z0-9]{8}$/, "a key prefix: amk_ and 8 letters or digits, as GET /v1/keys lists it")
  .openapi({ param: { name: "prefix", in: "path" }, example: "amk_Q3vX81bd" });

export const KeyViewSchema = z
  .object({
    prefix: z
      .string()
      .nullable()
      .openapi({ description: "The key's first 12 characters (null for a key created before prefixes, until its next use)." }),
    label: z.string().nullable(),
    scopes: z.enum(SCOPES).openapi({ description: "read, write (read and every write) or admin (write, deleting agents, purging)." }),
    agent_prefix: z.string().nullable().openapi({ description: "The key reaches only agents whose id starts with this." }),
    status: z.enum(["valid", "revoked", "expired"]),
    created_at: z.number().int(),
    last_used_at: z.number().int().nullable().openapi({ description: "Its latest use, to the hour." }),
    expires_at: z.number().int().nullable(),
    revoked_at: z.number().int().nullable(),
    replaced_by: z.string().nullable().openapi({ description: "The prefix of the key that replaced it by rotation." }),
  })
  .openapi("ApiKey");

export function keyViewer(c: Context<AppEnv>): KeyViewer {
  const { tenantId, scope, agentPrefix, keyHash } = c.get("principal");
  return { tenantId, scope, agentPrefix, keyHash };
}

export function auditActor(c: Context<AppEnv>): Actor {
  return { actor: c.get("principal").actor, requestId: c.get("requestId") };
}

/** This isolate stops trusting its cached copy of a key at once (others within the cache's TTL). */
export function keyChanged(changed: ChangedKey): void {
  forgetKey(changed.keyHash, changed.view.prefix);
}
