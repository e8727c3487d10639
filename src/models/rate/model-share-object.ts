/**
 * The account's coordinator of text-generation calls (docs/design.md, "Fair share of the model
 * budget"): one Durable Object per text model, which every agent's Workers AI provider asks for
 * a permit before each text call (model-share-client.ts). It holds each request until its permit
 * (fair-share.ts: the account's rate, start-time fair queueing between tenants by weight) or
 * until its patience runs out. Its state is the queue of the moment, in memory: after an eviction
 * it starts afresh, which costs at most a burst.
 */
import { DurableObject } from "cloudflare:workers";
import { z } from "zod";
import { FairShare } from "./fair-share";

/** The account's text-generation requests a minute when AI_ACCOUNT_REQUESTS_PER_MINUTE says nothing (Workers AI: 300, less a margin). */
const DEFAULT_ACCOUNT_PER_MINUTE = 290;
const PerMinute = z.coerce.number().int().min(1).max(1_000_000);
const WindowMs = z.coerce.number().int().min(1).max(60_000);

export type ModelShareEnv = { readonly AI_ACCOUNT_REQUESTS_PER_MINUTE?: string; readonly AI_RATE_WINDOW_MS?: string };

function optionsOf(env: ModelShareEnv) {
  const perWindow = PerMinute.safeParse(env.AI_ACCOUNT_REQUESTS_PER_MINUTE ?? "");
  const windowMs = WindowMs.safeParse(env.AI_RATE_WINDOW_MS ?? "");
  const permitsPerWindow = env.AI_ACCOUNT_REQUESTS_PER_MINUTE?.trim() && perWindow.success ? perWindow.data : DEFAULT_ACCOUNT_PER_MINUTE;
  // About a second's worth at once after an idle spell; the pace holds beyond it.
  return {
    permitsPerWindow,
    windowMs: env.AI_RATE_WINDOW_MS?.trim() && windowMs.success ? windowMs.data : 60_000,
    burst: Math.max(1, Math.round(permitsPerWindow / 60)),
  };
}

export class ModelShare extends DurableObject<Env> {
  private readonly share: FairShare;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.share = new FairShare(optionsOf(env));
  }

  /** Resolves true when the call may go, false when no permit came within `maxWaitMs`. */
  acquire(tenant: string, weight: number, maxWaitMs: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      this.share.request(tenant, weight, maxWaitMs, Date.now(), resolve);
      this.pump();
    });
  }

  private pump(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const next = this.share.pump(Date.now());
    if (next !== undefined) this.timer = setTimeout(() => this.pump(), Math.max(0, next - Date.now()));
  }
}
