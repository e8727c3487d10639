/**
 * model_policy (docs/deploy.md, "Model policy"): which provider answers each kind of model work
 * when the configured provider is Workers AI. Every operation has a local answer (the built-in
 * model); the policy decides where paying for the remote one is worth it:
 *
 *   - extraction: the digest of a remember (segments, phrases, keywords, entities), entity
 *     identity, and the query keywords of an `expand` recall;
 *   - compression: shortening a node in a compression cycle (one call per node shortened) and
 *     the phrase and keywords of its shortened text (an episode is shortened by summarizing it);
 *   - conflicts: the verdict on pairs of memories the classical judge flags as an update or a
 *     contradiction;
 *   - summaries: episode summaries (the digest's summary, and episode rebuilds).
 *
 * The deployment default is MODEL_POLICY ("compression=local" etc., comma-separated; unset: the
 * DEFAULT_MODEL_POLICY below).
 */
import { z } from "zod";
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

export const POLICY_OPERATIONS = ["extraction", "compression", "conflicts", "summaries"] as const;
export type PolicyOperation = (typeof POLICY_OPERATIONS)[number];
export const POLICY_PROVIDERS = ["local", "workers-ai"] as const;
export type PolicyProvider = (typeof POLICY_PROVIDERS)[number];
export type ModelPolicy = Readonly<Record<PolicyOperation, PolicyProvider>>;

/**
 * Compression is local by default: it is one call per node shortened (2.5 per remember on the
 * speed bench's stream, more than everything else together), and the local compressor keeps the
 * node's own words. Conflicts are local by default: the local rules get the conflict tables right
 * as the goal asks of the model (docs/BENCHMARKS.md, "Round 3, the conflict table"), while model verdicts were
 * 1.2 of the 1.4 text calls a remember made and one agent's ingestion waited on them
 * (docs/deploy.md, "Model policy"). Extraction and summaries are worth the model's judgement.
 */
export const DEFAULT_MODEL_POLICY: ModelPolicy = {
  extraction: "workers-ai",
  compression: "local",
  conflicts: "local",
  summaries: "workers-ai",
};

const Entry = z.tuple([z.enum(POLICY_OPERATIONS), z.enum(POLICY_PROVIDERS)]);

/** MODEL_POLICY parsed over the default; unset or empty means the default, anything invalid throws. */
export function modelPolicyOf(raw: string | undefined): ModelPolicy {
  const policy: Record<PolicyOperation, PolicyProvider> = { ...DEFAULT_MODEL_POLICY };
  for (const part of (raw ?? "").split(",")) {
    if (part.trim() === "") continue;
    const entry = Entry.safeParse(part.split("=").map((s) => s.trim()));
    if (!entry.success) {
      throw new Error(`MODEL_POLICY entries are operation=provider (${POLICY_OPERATIONS.join(", ")} = local or workers-ai), got "${part}"`);
    }
    policy[entry.data[0]] = entry.data[1];
  }
  return policy;
}

/** The remote model for the operations the policy gives it, the local model for the others. */
export class PolicyModel implements SmallModel {
  readonly name: string;
  readonly planner?: CallPlanner;
  readonly digestMany?: (conversations: ModelMessage[][], summaryMax: number, ctx?: CallContext) => Promise<WindowDigest[]>;

  constructor(
    private readonly remote: SmallModel,
    private readonly local: SmallModel,
    private readonly policy: ModelPolicy,
  ) {
    this.name = remote.name;
    const extraction = this.pick("extraction");
    if (extraction.planner) this.planner = extraction.planner;
    const many = extraction.digestMany?.bind(extraction);
    if (many)
      this.digestMany = async (conversations, summaryMax, ctx) => this.ownSummaries(await many(conversations, summaryMax, ctx), summaryMax);
  }

  private pick(operation: PolicyOperation): SmallModel {
    return this.policy[operation] === "workers-ai" ? this.remote : this.local;
  }

  /** With summaries local and extraction remote, the digest's summaries are the local model's. */
  private async ownSummaries(digests: WindowDigest[], summaryMax: number): Promise<WindowDigest[]> {
    if (this.policy.summaries === this.policy.extraction) return digests;
    return Promise.all(
      digests.map(async (d) => ({
        ...d,
        summary:
          d.segments.length === 0
            ? ""
            : await this.summarize(
                d.segments.map((s) => s.text),
                summaryMax,
              ),
      })),
    );
  }

  async digest(messages: ModelMessage[], summaryMax: number, ctx?: CallContext): Promise<WindowDigest> {
    const extraction = this.pick("extraction");
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
          ? await this.summarize(
              segments.map((s) => s.text),
              summaryMax,
              ctx,
            )
          : "";
      return { segments, extractions, summary };
    }
    const [digest] = await this.ownSummaries([await extraction.digest(messages, summaryMax, ctx)], summaryMax);
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
