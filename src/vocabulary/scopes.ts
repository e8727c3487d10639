/**
 * What an API key may do (docs/design.md, "Tenants and keys"): `read` (recall, search, context,
 * reads, export), `write` (read and every write), `admin` (write, deleting agents and purging).
 * Each scope holds the ones before it.
 */
export const SCOPES = ["read", "write", "admin"] as const;
export type Scope = (typeof SCOPES)[number];

/** Whether a key of scope `held` may run an operation that needs `needed`. */
export function scopeAllows(held: Scope, needed: Scope): boolean {
  return SCOPES.indexOf(held) >= SCOPES.indexOf(needed);
}

/**
 * What a key needs to run an operation, declared once in its definition (src/surfaces/operation.ts)
 * and checked in one place for every surface (src/http/scope-guard.ts: REST, and through it
 * tools/call, MCP and Workers RPC, which send the operation's REST request): a scope; "public"
 * for what needs no key; or, for an operation whose query makes it more than one thing, a
 * function of the query (deleteMemory: `purge=true` needs admin).
 */
export type ScopeRule = Scope | "public" | ((query: (name: string) => string | undefined) => Scope);
