/**
 * The lifecycle of API keys (docs/design.md, "Tenants and keys"; docs/deploy.md, "API keys"):
 * create (the key is returned once, only its hash is stored), list, revoke, rotate (a new key; the
 * old one keeps working for a grace period). Each change and its audit entry are one D1 batch. The
 * admin API, the tenant's own endpoints and the operator's CLI all run these, so they behave
 * alike. Nothing here returns or records a key but `create`'s and `rotate`'s answer.
 */
import { z } from "zod";
import { durationSchema } from "../config/durations";
import { AGENT_ID_PATTERN } from "../config/limits";
import { ApiKeys, generateApiKey, hashKey, keyPrefixOf, keyState, type KeyRecord, type KeyState } from "../storage/api-keys";
import { AuditLog } from "../storage/audit-log";
import { runBatch, statement } from "../storage/batch";
import { createDb } from "../storage/db";
import { SCOPES, type Scope } from "../vocabulary/scopes";

/** The longest expiry or grace period an operator may set (ten years). */
const MAX_DURATION_MS = 3_650 * 86_400_000;

/** Who made a change, as the audit log records it: a key's prefix or "operator"; the request's id. */
export interface Actor {
  actor: string;
  requestId: string | null;
}

/** A new key's properties as the admin API and the CLI take them. */
export const NewKeySchema = z
  .object({
    scopes: z.enum(SCOPES).default("write").describe("read, write (read and every write) or admin (write, deleting agents, purging)."),
    agent_prefix: z
      .string()
      .regex(AGENT_ID_PATTERN, "an agent-id prefix: 1–64 of A–Z a–z 0–9 _ . -, starting with a letter or digit")
      .optional()
      .describe("The key reaches only agents whose id starts with this."),
    expires_in: durationSchema(MAX_DURATION_MS).optional().describe("The key stops working after this long."),
    label: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[^\p{Cc}]*$/u, "one line of text")
      .optional(),
  })
  .strict();
export type NewKey = z.output<typeof NewKeySchema>;

export const RotationSchema = z
  .object({
    grace: durationSchema(MAX_DURATION_MS).describe("How long the old key keeps working."),
    expires_in: durationSchema(MAX_DURATION_MS).optional().describe("The new key's lifetime; default: the old key's."),
  })
  .strict();

/** A key as lists and answers show it (never its secret or its hash). */
export interface KeyView {
  prefix: string | null;
  label: string | null;
  scopes: Scope;
  agent_prefix: string | null;
  status: KeyState;
  created_at: number;
  last_used_at: number | null;
  expires_at: number | null;
  revoked_at: number | null;
  replaced_by: string | null;
}

export function keyView(key: KeyRecord, now: number): KeyView {
  return {
    prefix: key.prefix,
    label: key.label,
    scopes: key.scope,
    agent_prefix: key.agentPrefix,
    status: keyState(key, now),
    created_at: key.createdAt,
    last_used_at: key.lastUsedAt,
    expires_at: key.expiresAt,
    revoked_at: key.revokedAt,
    replaced_by: key.replacedBy,
  };
}

/** A created key: the secret (shown once) and its view. */
export interface CreatedKey {
  key: string;
  view: KeyView;
}

/** A changed key: its view after the change, and its hash (to drop it from the caller's key cache). */
export interface ChangedKey {
  view: KeyView;
  keyHash: string;
}

function recordOf(tenantId: string, key: string, spec: NewKey, now: number) {
  return {
    prefix: keyPrefixOf(key),
    tenantId,
    label: spec.label ?? null,
    scope: spec.scopes,
    agentPrefix: spec.agent_prefix ?? null,
    createdAt: now,
    expiresAt: spec.expires_in === undefined ? null : now + spec.expires_in,
  };
}

/** Creates a key from its properties as NewKeySchema parsed them. */
export async function createKey(d1: D1Database, tenantId: string, spec: NewKey, by: Actor, now: number): Promise<CreatedKey> {
  const db = createDb(d1);
  const key = generateApiKey();
  const record = recordOf(tenantId, key, spec, now);
  await runBatch(d1, [
    statement(new ApiKeys(db).insert(await hashKey(key), record)),
    statement(
      new AuditLog(db).append({
        tenantId,
        at: now,
        action: "key.created",
        ...by,
        agentId: null,
        subject: record.prefix,
        details: { scopes: record.scope, agent_prefix: record.agentPrefix, expires_at: record.expiresAt },
      }),
    ),
  ]);
  return { key, view: keyView({ ...record, revokedAt: null, lastUsedAt: null, replacedBy: null }, now) };
}

/** Who asks about keys through the tenant's own endpoints: what its key may see and change. */
export interface KeyViewer {
  tenantId: string;
  scope: Scope;
  agentPrefix: string | null;
  /** The viewer's own key (null: the development key or a service binding, which are no stored key). */
  keyHash: string | null;
}

/**
 * Whether a viewer may see (and, with admin scope, revoke) a key of its tenant: an admin sees every
 * key within its agent-id prefix (a key limited to "support-" sees the keys limited to
 * "support-…", not the tenant's wider ones); any other key sees only itself.
 */
export function keyVisibleTo(viewer: KeyViewer, key: KeyRecord & { keyHash: string }): boolean {
  if (key.tenantId !== viewer.tenantId) return false;
  if (viewer.scope !== "admin") return viewer.keyHash === key.keyHash;
  return viewer.agentPrefix === null || (key.agentPrefix !== null && key.agentPrefix.startsWith(viewer.agentPrefix));
}

/** The tenant's keys, oldest first; for a viewer, those it may see. */
export async function listKeys(d1: D1Database, tenantId: string, now: number, viewer?: KeyViewer): Promise<KeyView[]> {
  const keys = await new ApiKeys(createDb(d1)).listByTenant(tenantId);
  return keys.filter((k) => viewer === undefined || keyVisibleTo(viewer, k)).map((k) => keyView(k, now));
}

/** Which key: by its public prefix, or by the key itself (hashed here; never stored or logged). */
export type KeyTarget = { prefix: string } | { key: string };

async function find(keys: ApiKeys, target: KeyTarget) {
  return "prefix" in target ? keys.byPrefix(target.prefix) : keys.byHash(await hashKey(target.key));
}

/**
 * Revokes a key. `viewer`: only a key it may see (a tenant revoking its own, keyVisibleTo).
 * Undefined when no such key; a key revoked before is answered as it stands, with no new audit entry.
 */
export async function revokeKey(
  d1: D1Database,
  target: KeyTarget,
  by: Actor,
  now: number,
  viewer?: KeyViewer,
): Promise<ChangedKey | undefined> {
  const db = createDb(d1);
  const keys = new ApiKeys(db);
  const found = await find(keys, target);
  if (!found || (viewer !== undefined && !keyVisibleTo(viewer, found))) return undefined;
  if (found.revokedAt !== null) return { view: keyView(found, now), keyHash: found.keyHash };
  await runBatch(d1, [
    statement(keys.revoke(found.keyHash, now)),
    statement(
      new AuditLog(db).append({
        tenantId: found.tenantId,
        at: now,
        action: "key.revoked",
        ...by,
        agentId: null,
        subject: found.prefix,
        details: null,
      }),
    ),
  ]);
  return { view: keyView({ ...found, revokedAt: now }, now), keyHash: found.keyHash };
}

/**
 * Rotates a valid key: a new key with its tenant, scope, agent prefix and label, and a lifetime of
 * `expiresInMs` (default: the old key's, if it had one); the old key works `graceMs` more, then
 * stops. Undefined when no valid key has that prefix.
 */
export async function rotateKey(
  d1: D1Database,
  prefix: string,
  graceMs: number,
  by: Actor,
  now: number,
  expiresInMs?: number,
): Promise<{ created: CreatedKey; old: ChangedKey } | undefined> {
  const db = createDb(d1);
  const keys = new ApiKeys(db);
  const old = await keys.byPrefix(prefix);
  if (!old || keyState(old, now) !== "valid") return undefined;
  const lifetime = expiresInMs ?? (old.expiresAt === null ? undefined : old.expiresAt - old.createdAt);
  const key = generateApiKey();
  const record = {
    prefix: keyPrefixOf(key),
    tenantId: old.tenantId,
    label: old.label,
    scope: old.scope,
    agentPrefix: old.agentPrefix,
    createdAt: now,
    expiresAt: lifetime === undefined ? null : now + lifetime,
  };
  const oldExpiry = Math.min(old.expiresAt ?? Infinity, now + graceMs);
  await runBatch(d1, [
    statement(keys.insert(await hashKey(key), record)),
    statement(keys.retire(old.keyHash, now + graceMs, record.prefix ?? "")),
    statement(
      new AuditLog(db).append({
        tenantId: old.tenantId,
        at: now,
        action: "key.rotated",
        ...by,
        agentId: null,
        subject: old.prefix,
        details: { replaced_by: record.prefix, grace_seconds: Math.round(graceMs / 1000), old_expires_at: oldExpiry },
      }),
    ),
  ]);
  return {
    created: { key, view: keyView({ ...record, revokedAt: null, lastUsedAt: null, replacedBy: null }, now) },
    old: { view: keyView({ ...old, expiresAt: oldExpiry, replacedBy: record.prefix }, now), keyHash: old.keyHash },
  };
}
