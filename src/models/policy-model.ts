/**
 * The small model an agent uses under its model_policy (src/config/model-policy.ts): the remote
 * model for the operations the policy in force gives it, the built-in one for the others. The
 * policy is read at every call, so a change of the agent's parameters applies from its place in
 * the queue on.
 */
import type { ModelPolicy, PolicyOperation } from "../config/model-policy";
import type { RelationName } from "../vocabulary/relations";
import type { CallPlanner } from "./call-planner";
import type {
  CallContext,
  ConflictPair,
  ConflictVerdict,
  EntityPair,
  Extraction,
  ModelMessage,
  RelationRequest,
  SegmentDraft,
  SmallModel,
  WindowDigest,
} from "./types";

/** The remote model for the operations the policy gives it, the local model for the others. */
export class PolicyModel implements SmallModel {
  readonly name: string;

  /** `policy`: the policy in force, asked at every call. */
  constructor(
    private readonly remote: SmallModel,
    private readonly local: SmallModel,
    private readonly policy: () => ModelPolicy,
  ) {
    this.name = remote.name;
  }

  /** How the extracting model sizes its calls (none for the built-in one). */
  get planner(): CallPlanner | undefined {
    return this.pick("extraction").planner;
  }

  /** Shared digest calls, where the extracting model has them (absent otherwise: nothing to share). */
  get digestMany(): ((conversations: ModelMessage[][], summaryMax: number, ctx?: CallContext) => Promise<WindowDigest[]>) | undefined {
    const policy = this.policy();
    const extraction = this.pick("extraction", policy);
    const many = extraction.digestMany?.bind(extraction);
    if (!many) return undefined;
    return async (conversations, summaryMax, ctx) => this.ownSummaries(await many(conversations, summaryMax, ctx), summaryMax, policy);
  }

  private pick(operation: PolicyOperation, policy: ModelPolicy = this.policy()): SmallModel {
    return policy[operation] === "workers-ai" ? this.remote : this.local;
  }

  /**
   * With summaries local and extraction remote, the digest's summaries are the local model's (both
   * as the policy was when the digest was asked).
   */
  private async ownSummaries(digests: WindowDigest[], summaryMax: number, policy: ModelPolicy): Promise<WindowDigest[]> {
    if (policy.summaries === policy.extraction) return digests;
    return Promise.all(
      digests.map(async (d) => ({
        ...d,
        summary:
          d.segments.length === 0
            ? ""
            : await this.pick("summaries", policy).summarize(
                d.segments.map((s) => s.text),
                summaryMax,
              ),
      })),
    );
  }

  async digest(messages: ModelMessage[], summaryMax: number, ctx?: CallContext): Promise<WindowDigest> {
    const policy = this.policy();
    const extraction = this.pick("extraction", policy);
    if (!extraction.digest) {
      const segments = await extraction.segment(messages, ctx);
      const extractions =
        segments.length > 0
          ? await extraction.extract(
              segments.map((s) => s.text),
              ctx,
            )
          : [];
      const summary =
        segments.length > 0
          ? await this.pick("summaries", policy).summarize(
              segments.map((s) => s.text),
              summaryMax,
              ctx,
            )
          : "";
      return { segments, extractions, summary };
    }
    const [digest] = await this.ownSummaries([await extraction.digest(messages, summaryMax, ctx)], summaryMax, policy);
    return digest ?? { segments: [], extractions: [], summary: "" };
  }

  segment(messages: ModelMessage[], ctx?: CallContext): Promise<SegmentDraft[]> {
    return this.pick("extraction").segment(messages, ctx);
  }

  extract(texts: string[], ctx?: CallContext): Promise<Extraction[]> {
    return this.pick("extraction").extract(texts, ctx);
  }

  nameRelations(requests: RelationRequest[], ctx?: CallContext): Promise<RelationName[]> {
    return this.pick("extraction").nameRelations(requests, ctx);
  }

  summarizeCompressed(texts: string[], maxLength: number, ctx?: CallContext): Promise<string> {
    return this.pick("compression").summarize(texts, maxLength, ctx);
  }

  extractCompressed(texts: string[], ctx?: CallContext): Promise<Extraction[]> {
    return this.pick("compression").extract(texts, ctx);
  }

  compress(text: string, target: number, ctx?: CallContext): Promise<string> {
    return this.pick("compression").compress(text, target, ctx);
  }

  summarize(texts: string[], maxLength: number, ctx?: CallContext): Promise<string> {
    return this.pick("summaries").summarize(texts, maxLength, ctx);
  }

  queryKeywords(query: string, ctx?: CallContext): Promise<string[]> {
    return this.pick("extraction").queryKeywords(query, ctx);
  }

  judgeConflicts(pairs: ConflictPair[], ctx?: CallContext): Promise<ConflictVerdict[]> {
    return this.pick("conflicts").judgeConflicts(pairs, ctx);
  }

  sameEntities(pairs: EntityPair[], ctx?: CallContext): Promise<boolean[]> {
    return this.pick("extraction").sameEntities(pairs, ctx);
  }
}
