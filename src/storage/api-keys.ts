/**
 * API keys: only a SHA-256 hash is stored; each key is bound to one tenant. Keys are random
 * 32-byte secrets, so a fast hash is enough (no password stretching needed).
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "./db";
import { apiKeys } from "./schema";

export async function hashKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The tenant a key belongs to, or undefined for an unknown or revoked key. */
export async function tenantOfKey(db: Db, key: string): Promise<string | undefined> {
  return tenantOfKeyHash(db, await hashKey(key));
}

/** The tenant of the key with this hash, or undefined once it is revoked (an MCP connector's grant keeps the hash only). */
export async function tenantOfKeyHash(db: Db, keyHash: string): Promise<string | undefined> {
  const [row] = await db
    .select({ tenantId: apiKeys.tenantId })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row?.tenantId;
}

export async function storeKey(db: Db, key: string, tenantId: string, label: string | null, now: number): Promise<void> {
  await db.insert(apiKeys).values({ keyHash: await hashKey(key), tenantId, label, createdAt: now });
}
