/**
 * The models of one agent's object as its tasks use them: the configured provider and its
 * fallback, retried per the agent's max_retries with failures counted in stats; the embedder (with
 * the vectors asked ahead for queued remembers); query vectors; and a remote model's answers
 * asked ahead of their turn (docs/design.md, "Model economy").
 */
import { DigestAhead } from "../engine/digest-ahead";
import { EmbeddingsAhead } from "../engine/embeddings-ahead";
import type { AgentModels } from "../engine/runtime";
import type { MetaStore } from "../engine/stores/meta-store";
import { VerdictsAhead } from "../engine/verdicts-ahead";
import { QueryVectors } from "../models/query-vectors";
import { createEmbedder, createFallbackModel, createModel } from "../models/providers";
import { ResilientModel } from "../models/resilient-model";
import { realSleep, retryPolicy } from "../models/retry";
import type { Embedder, SmallModel } from "../models/types";

export class AgentModelSet implements AgentModels {
  /** The configured provider and its fallback; replaceable in tests. */
  primaryModel: SmallModel;
  fallbackModel: SmallModel | undefined;
  /** How retries wait; replaceable in tests so they need no real time. */
  sleep: (ms: number) => Promise<void> = realSleep;
  readonly embedder: Embedder;
  readonly embeddingsAhead: EmbeddingsAhead;
  readonly queryVectors: QueryVectors;
  /**
   * Model answers prepared ahead of their turn, for the model policy they were asked under: a
   * change of the agent's model_policy applies from its place in the queue, so answers asked
   * before it are dropped, never used by a task after it.
   */
  private ahead: { policy: string; digests: DigestAhead; verdicts: VerdictsAhead } | undefined;

  constructor(
    env: Env,
    private readonly meta: MetaStore,
    /** Hears each remote model call that answered, by kind (the day's usage). */
    onCall?: (kind: string) => void,
  ) {
    // Each text call asks the account's fair share as the agent's tenant, with its weight.
    const caller = () => ({ tenant: meta.get("identity")?.tenantId ?? "", weight: meta.get("tenantLimits")?.modelWeight ?? 1 });
    this.primaryModel = createModel(env, () => meta.params().model_policy, undefined, onCall, caller);
    this.fallbackModel = createFallbackModel(env);
    const embedder = createEmbedder(env, undefined, onCall);
    this.embeddingsAhead = new EmbeddingsAhead(embedder);
    this.embedder = this.embeddingsAhead;
    this.queryVectors = new QueryVectors(embedder);
  }

  get digestAhead(): DigestAhead {
    return this.answersAhead().digests;
  }

  get verdictsAhead(): VerdictsAhead {
    return this.answersAhead().verdicts;
  }

  private answersAhead(): { digests: DigestAhead; verdicts: VerdictsAhead } {
    const policy = JSON.stringify(this.meta.params().model_policy);
    if (this.ahead?.policy !== policy) this.ahead = { policy, digests: new DigestAhead(), verdicts: new VerdictsAhead() };
    return this.ahead;
  }

  sharesModelCalls(): boolean {
    return this.primaryModel.digestMany !== undefined;
  }

  /** The model as tasks use it: retried per the agent's max_retries, failures counted in stats. */
  get model(): SmallModel {
    const meta = this.meta;
    return new ResilientModel(this.primaryModel, this.fallbackModel, retryPolicy(meta.params().max_retries, this.sleep), {
      failed: (operation, error) => {
        meta.bump({ model_failures: 1 });
        console.warn(`model ${operation} failed after retries`, error);
      },
      fellBack: () => meta.bump({ model_fallbacks: 1 }),
      rateLimited: (_operation, ms) => meta.bump({ model_rate_limit_waits: 1, model_rate_limit_wait_ms: Math.round(ms) }),
      notRetried: (operation, error) => {
        meta.bump({ model_failures_not_retried: 1 });
        console.warn(`model ${operation} not retried`, error);
      },
    });
  }
}
