/**
 * model_policy (docs/deploy.md, "Model policy"): which provider answers each kind of model work
 * when the deployment's provider is Workers AI. Every operation has a local answer (the built-in
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
 * The deployment's default is MODEL_POLICY ("compression=local" etc., comma-separated; unset: the
 * DEFAULT_MODEL_POLICY below); an agent may choose otherwise per operation in its parameters
 * (`model_policy`, "default" keeping the deployment's choice).
 */
import { z } from "zod";

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

const AgentChoice = z.enum(["default", ...POLICY_PROVIDERS]);

/** What each operation covers, as the parameter's description says it. */
const COVERS: Record<PolicyOperation, string> = {
  extraction: "a remember's digest, entity identity and `expand` query keywords",
  compression: "shortening a node in a compression cycle",
  conflicts: "verdicts on pairs of memories that may conflict",
  summaries: "episode summaries",
};
const described = (operation: PolicyOperation) =>
  AgentChoice.describe(
    `Who answers ${operation} (${COVERS[operation]}): "default" (the deployment's MODEL_POLICY), "local" or "workers-ai".`,
  );

/** An agent's choices (its `model_policy` parameter); "default" defers to the deployment. */
export const AgentModelPolicySchema = z
  .object({
    extraction: described("extraction").default("default"),
    compression: described("compression").default("default"),
    conflicts: described("conflicts").default("default"),
    summaries: described("summaries").default("default"),
  })
  .strict();
export type AgentModelPolicy = z.infer<typeof AgentModelPolicySchema>;

/** A change of some of the agent's choices: the operations not named keep theirs. */
export const AgentModelPolicyPatchSchema = z
  .object({
    extraction: described("extraction").optional(),
    compression: described("compression").optional(),
    conflicts: described("conflicts").optional(),
    summaries: described("summaries").optional(),
  })
  .strict();

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

/** The policy in force for an agent: its own choices over the deployment's. */
export function policyInForce(deployment: ModelPolicy, agent: AgentModelPolicy | undefined): ModelPolicy {
  const policy: Record<PolicyOperation, PolicyProvider> = { ...deployment };
  for (const operation of POLICY_OPERATIONS) {
    const chosen = agent?.[operation] ?? "default";
    if (chosen !== "default") policy[operation] = chosen;
  }
  return policy;
}
