/**
 * Who a request acts for (docs/design.md, "Tenants and keys"): a tenant, the scope and agent-id
 * prefix of the key that authenticated it, and the tenant's limits. Every surface resolves one
 * here: a Bearer key (REST, tools/call, MCP), the key an OAuth grant was made with (the MCP
 * connector keeps its hash), a service binding's props (Workers RPC, optionally naming a key by
 * its prefix).
 *
 * Key lookups are cached per isolate for KEY_CACHE_TTL_MS (30 s), the key with its tenant's
 * overrides, jurisdiction and region in one D1 query: a warm isolate authenticates without a round
 * trip, and a revoked key stops working everywhere within the TTL (at once in the isolate that
 * revoked it). Expiry is checked on every request against the cached record, so it is exact. A
 * key's last use is written at most once an hour per isolate (LAST_USED_STEP_MS), after the answer.
 */
import { limitsOf, quotaDefaults, type QuotaEnv, type TenantLimits } from "../config/quotas";
import { ApiKeys, hashKey, keyPrefixOf, keyState, type KeyRecord } from "../storage/api-keys";
import { createDb } from "../storage/db";
import { Tenants, type TenantRecord } from "../storage/tenants";
import type { Jurisdiction } from "../vocabulary/jurisdictions";
import type { Region } from "../vocabulary/regions";
import type { Scope } from "../vocabulary/scopes";
import { TtlCache } from "./ttl-cache";

export interface Principal {
  tenantId: string;
  scope: Scope;
  /** Only agents whose id starts with this; null: every agent of the tenant. */
  agentPrefix: string | null;
  /** What logs and the audit log name: the key's public prefix, "dev" or "binding". Never the key. */
  actor: string;
  /** The key's hash when a stored key authenticated the request (an OAuth grant keeps it). */
  keyHash: string | null;
  limits: TenantLimits;
  /** The jurisdiction the tenant's agents are created in (null: none): part of their objects' address. */
  jurisdiction: Jurisdiction | null;
  /** The region the tenant's new agents are placed in (null: anywhere): their shard, their object's location hint. */
  region: Region | null;
}

/** The tenant of the local development key (wrangler.local.toml's DEV_API_KEY). */
export const DEV_TENANT = "dev";

/** How long a key lookup is trusted: a revocation takes effect everywhere within this. */
export const KEY_CACHE_TTL_MS = 30_000;
/** A key's `last_used_at` is written when the stored one is older than this. */
export const LAST_USED_STEP_MS = 3_600_000;
const CACHE_ENTRIES = 10_000;

export type PrincipalEnv = Pick<Env, "DB" | "DEV_API_KEY"> & QuotaEnv;

/** Runs work after the answer (the request's waitUntil). */
export type Defer = (work: Promise<unknown>) => void;

interface CachedKey {
  key: KeyRecord & { keyHash: string };
  tenant: TenantRecord;
}

// Per isolate, on purpose: each isolate trusts a lookup for the TTL (see the header).
const keys = new TtlCache<CachedKey | null>(KEY_CACHE_TTL_MS, CACHE_ENTRIES);
const tenants = new TtlCache<TenantRecord>(KEY_CACHE_TTL_MS, CACHE_ENTRIES);

/** Drops what this isolate knows of a key (after revoking or rotating it here). */
export function forgetKey(keyHash: string, prefix: string | null): void {
  keys.delete(keyHash);
  if (prefix !== null) keys.delete(`prefix:${prefix}`);
}

/** Drops what this isolate knows of a tenant's overrides and jurisdiction (after the operator changed them here). */
export function forgetTenant(tenantId: string): void {
  tenants.delete(tenantId);
}

/** Constant-time comparison (of digests, so the lengths always match). */
export async function sameSecret(a: string, b: string): Promise<boolean> {
  const [da, db] = await Promise.all([hashKey(a), hashKey(b)]);
  return sameDigest(da, db);
}

/** Constant-time comparison of two hex digests of one hash function. */
function sameDigest(a: string, b: string): boolean {
  const encoder = new TextEncoder();
  return a.length === b.length && crypto.subtle.timingSafeEqual(encoder.encode(a), encoder.encode(b));
}

// The development key's digest, computed once per isolate (the key is configuration).
let devKey: { key: string; hash: Promise<string> } | undefined;

/** Whether `keyHash` is the development key's (local servers only: production sets no DEV_API_KEY). */
async function isDevKeyHash(env: PrincipalEnv, keyHash: string): Promise<boolean> {
  const key = env.DEV_API_KEY;
  if (!key) return false;
  if (devKey?.key !== key) devKey = { key, hash: hashKey(key) };
  return sameDigest(keyHash, await devKey.hash);
}

/**
 * The principal of a Bearer key, or undefined for an unknown, revoked or expired one. Throws when
 * D1 cannot be read. The key is hashed once: the development key is recognised by its digest, in
 * constant time, as a stored key is found by its.
 */
export async function principalOfKey(env: PrincipalEnv, key: string, now: number, defer: Defer): Promise<Principal | undefined> {
  return principalOfHash(env, await hashKey(key), now, defer, keyPrefixOf(key));
}

/**
 * The principal of the key with this hash (an OAuth grant keeps the hash only). `prefix`, when the
 * key itself is at hand, is recorded for a key created before prefixes.
 */
export async function principalOfHash(
  env: PrincipalEnv,
  keyHash: string,
  now: number,
  defer: Defer,
  prefix: string | null = null,
): Promise<Principal | undefined> {
  if (await isDevKeyHash(env, keyHash)) return tenantPrincipal(env, DEV_TENANT, "dev", now);
  let cached = keys.get(keyHash, now);
  if (cached === undefined) {
    cached = (await new ApiKeys(createDb(env.DB)).withTenant(keyHash)) ?? null;
    keys.set(keyHash, cached, now);
    if (cached) tenants.set(cached.key.tenantId, cached.tenant, now);
  }
  if (cached === null || keyState(cached.key, now) !== "valid") return undefined;
  const { key } = cached;
  if (key.lastUsedAt === null || key.lastUsedAt <= now - LAST_USED_STEP_MS || (key.prefix === null && prefix !== null)) {
    key.lastUsedAt = now;
    defer(new ApiKeys(createDb(env.DB)).touch(keyHash, prefix, now, LAST_USED_STEP_MS));
  }
  return principalOf(env, key, await tenantOf(env, key.tenantId, now), prefix);
}

/** The principal of the key a public prefix names, when it is the tenant's and valid (a binding's props). */
export async function principalOfPrefix(env: PrincipalEnv, tenantId: string, prefix: string, now: number): Promise<Principal | undefined> {
  const cacheKey = `prefix:${prefix}`;
  let cached = keys.get(cacheKey, now);
  if (cached === undefined) {
    cached = (await new ApiKeys(createDb(env.DB)).withTenantByPrefix(prefix)) ?? null;
    keys.set(cacheKey, cached, now);
    if (cached) tenants.set(cached.key.tenantId, cached.tenant, now);
  }
  if (cached === null || cached.key.tenantId !== tenantId || keyState(cached.key, now) !== "valid") return undefined;
  return principalOf(env, cached.key, await tenantOf(env, tenantId, now), prefix);
}

/**
 * The tenant's record as this isolate knows it: set with every key lookup (the same query), read
 * again once forgotten (forgetTenant: the operator changed it here) or expired.
 */
async function tenantOf(env: PrincipalEnv, tenantId: string, now: number): Promise<TenantRecord> {
  let tenant = tenants.get(tenantId, now);
  if (tenant === undefined) {
    tenant = await new Tenants(createDb(env.DB)).record(tenantId);
    tenants.set(tenantId, tenant, now);
  }
  return tenant;
}

/** A principal with every right over its tenant (the development key; a service binding that names no key). */
export async function tenantPrincipal(env: PrincipalEnv, tenantId: string, actor: string, now: number): Promise<Principal> {
  const tenant = await tenantOf(env, tenantId, now);
  return {
    tenantId,
    scope: "admin",
    agentPrefix: null,
    actor,
    keyHash: null,
    limits: limitsOf(quotaDefaults(env), tenant.overrides),
    jurisdiction: tenant.jurisdiction,
    region: tenant.region,
  };
}

function principalOf(env: PrincipalEnv, key: CachedKey["key"], tenant: TenantRecord, prefix: string | null): Principal {
  return {
    tenantId: key.tenantId,
    scope: key.scope,
    agentPrefix: key.agentPrefix,
    actor: key.prefix ?? prefix ?? "key",
    keyHash: key.keyHash,
    limits: limitsOf(quotaDefaults(env), tenant.overrides),
    jurisdiction: tenant.jurisdiction,
    region: tenant.region,
  };
}
