/**
 * API keys (docs/design.md, "Tenants and keys"): only a SHA-256 hash is stored; each key is bound
 * to one tenant and carries a scope, an optional agent-id prefix and an optional expiry. Keys are
 * random 32-character secrets (about 190 bits), so a fast hash is enough (no password stretching
 * needed). The key's first 12 characters are its public prefix: what lists, logs and the audit
 * log show of it.
 */
import { and, asc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { jurisdictionOf } from "../vocabulary/jurisdictions";
import { regionOf } from "../vocabulary/regions";
import type { Scope } from "../vocabulary/scopes";
import type { Db } from "./db";
import { apiKeys, tenants } from "./schema";
import { NO_OVERRIDES, type TenantRecord } from "./tenants";

/** The characters of a key after `amk_`. */
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const SECRET_LENGTH = 32;

/** The public part of a key: `amk_` and its first 8 characters (about 48 of its 190 bits). */
export const KEY_PREFIX_LENGTH = 12;

/** What a key created here looks like, and what a prefix of one looks like. */
export const KEY_PREFIX_PATTERN = /^amk_[A-Za-z0-9]{8}$/;

/** A new key: `amk_` and 32 characters drawn uniformly from 62 (rejection sampling). */
export function generateApiKey(): string {
  let secret = "";
  while (secret.length < SECRET_LENGTH) {
    for (const b of crypto.getRandomValues(new Uint8Array(64))) {
      // 248 = 4 · 62: bytes above it would favour the first characters.
      if (b < 248 && secret.length < SECRET_LENGTH) secret += ALPHABET[b % 62];
    }
  }
  return `amk_${secret}`;
}

/**
 * The public prefix of a key; none for a text too short to keep a secret part beyond it (such a
 * key is never named by its first characters).
 */
export function keyPrefixOf(key: string): string | null {
  return key.length >= 3 * KEY_PREFIX_LENGTH ? key.slice(0, KEY_PREFIX_LENGTH) : null;
}

export async function hashKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A key as stored, without its hash. */
export interface KeyRecord {
  prefix: string | null;
  tenantId: string;
  label: string | null;
  scope: Scope;
  agentPrefix: string | null;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
  replacedBy: string | null;
}

export type KeyState = "valid" | "revoked" | "expired";

export function keyState(key: Pick<KeyRecord, "revokedAt" | "expiresAt">, now: number): KeyState {
  if (key.revokedAt !== null) return "revoked";
  if (key.expiresAt !== null && key.expiresAt <= now) return "expired";
  return "valid";
}

const RECORD = {
  prefix: apiKeys.prefix,
  tenantId: apiKeys.tenantId,
  label: apiKeys.label,
  scope: apiKeys.scope,
  agentPrefix: apiKeys.agentPrefix,
  createdAt: apiKeys.createdAt,
  expiresAt: apiKeys.expiresAt,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
  replacedBy: apiKeys.replacedBy,
};

const OVERRIDES = {
  maxAgents: tenants.maxAgents,
  maxNodesPerAgent: tenants.maxNodesPerAgent,
  messagesPerDay: tenants.messagesPerDay,
  requestsPerMinute: tenants.requestsPerMinute,
  modelWeight: tenants.modelWeight,
};

/** A key with what its tenant's row brings (quota overrides, the jurisdiction of its agents). */
interface KeyWithTenant {
  key: KeyRecord & { keyHash: string };
  tenant: TenantRecord;
}

export class ApiKeys {
  constructor(private readonly db: Db) {}

  /**
   * The key with this hash in any state, with its tenant's overrides: the one query that
   * authenticates a request (src/http/principal.ts caches it).
   */
  withTenant(keyHash: string): Promise<KeyWithTenant | undefined> {
    return this.joined(eq(apiKeys.keyHash, keyHash));
  }

  /** The same for the key a public prefix names (a service binding's props name a key so). */
  withTenantByPrefix(prefix: string): Promise<KeyWithTenant | undefined> {
    return this.joined(eq(apiKeys.prefix, prefix));
  }

  private async joined(where: SQL): Promise<KeyWithTenant | undefined> {
    const [row] = await this.db
      // The joined table's key first: drizzle reads a left-joined object as absent when its first column is null.
      .select({
        key: { ...RECORD, keyHash: apiKeys.keyHash },
        tenant: { tenantId: tenants.tenantId, ...OVERRIDES, jurisdiction: tenants.jurisdiction, region: tenants.region },
      })
      .from(apiKeys)
      .leftJoin(tenants, eq(tenants.tenantId, apiKeys.tenantId))
      .where(where)
      .limit(1);
    if (!row) return undefined;
    if (!row.tenant) return { key: row.key, tenant: { overrides: NO_OVERRIDES, jurisdiction: null, region: null } };
    const { tenantId: _joined, jurisdiction, region, ...overrides } = row.tenant;
    return { key: row.key, tenant: { overrides, jurisdiction: jurisdictionOf(jurisdiction), region: regionOf(region) } };
  }

  /** The key with this public prefix, with its hash, in any state. */
  async byPrefix(prefix: string): Promise<(KeyRecord & { keyHash: string }) | undefined> {
    const [row] = await this.db
      .select({ ...RECORD, keyHash: apiKeys.keyHash })
      .from(apiKeys)
      .where(eq(apiKeys.prefix, prefix))
      .limit(1);
    return row;
  }

  async byHash(keyHash: string): Promise<(KeyRecord & { keyHash: string }) | undefined> {
    const [row] = await this.db
      .select({ ...RECORD, keyHash: apiKeys.keyHash })
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, keyHash))
      .limit(1);
    return row;
  }

  /** Every key of a tenant, oldest first (revoked and expired ones too: the list is the record). */
  async listByTenant(tenantId: string): Promise<(KeyRecord & { keyHash: string })[]> {
    return this.db
      .select({ ...RECORD, keyHash: apiKeys.keyHash })
      .from(apiKeys)
      .where(eq(apiKeys.tenantId, tenantId))
      .orderBy(asc(apiKeys.createdAt), asc(apiKeys.prefix));
  }

  insert(keyHash: string, key: Omit<KeyRecord, "revokedAt" | "lastUsedAt" | "replacedBy">) {
    return this.db.insert(apiKeys).values({ keyHash, ...key });
  }

  /** Revokes a valid key (a revoked one keeps its first revocation time). */
  revoke(keyHash: string, now: number) {
    return this.db
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
  }

  /** Rotation: the key stops at `expiresAt` (never later than an expiry it already had) and names its successor. */
  retire(keyHash: string, expiresAt: number, replacedBy: string) {
    return this.db
      .update(apiKeys)
      .set({ expiresAt: sql`min(coalesce(${apiKeys.expiresAt}, ${expiresAt}), ${expiresAt})`, replacedBy })
      .where(eq(apiKeys.keyHash, keyHash));
  }

  /**
   * Records a use, to the hour: written only when the stored time is older than `coarseMs`, and a
   * key created before prefixes gets its prefix (OR IGNORE: a prefix another key holds stays null).
   */
  async touch(keyHash: string, prefix: string | null, now: number, coarseMs: number): Promise<void> {
    await this.db.run(
      sql`UPDATE OR IGNORE api_keys SET last_used_at = ${now}, prefix = coalesce(prefix, ${prefix})
          WHERE key_hash = ${keyHash} AND (last_used_at IS NULL OR last_used_at <= ${now - coarseMs} OR prefix IS NULL)`,
    );
  }
}

/** Stores a key bound to a tenant with every right (tests; operators use src/service/key-lifecycle.ts). */
export async function storeKey(db: Db, key: string, tenantId: string, label: string | null, now: number): Promise<void> {
  await db.insert(apiKeys).values({ keyHash: await hashKey(key), tenantId, label, createdAt: now });
}
