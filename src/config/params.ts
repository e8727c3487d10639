import { z } from "zod";
import { AgentModelPolicyPatchSchema, AgentModelPolicySchema } from "./model-policy";

/** The largest `max_pins` an agent may set: what the context block reads of its pinned memories at most. */
export const MAX_PINS = 1_000;

/**
 * Per-agent parameters (docs/design.md, "Parameters"). One zod schema is the single source of defaults, validation
 * and the OpenAPI description of GET/PUT /v1/agents/:agentId/config.
 */
export const AgentParamsSchema = z
  .object({
    focus_limit: z.number().int().min(1).max(50).default(5).describe("Size of the focus LRU."),
    decay_rate: z.number().gt(0).max(1).default(0.97).describe("Link strength multiplier per compression cycle, in (0, 1]."),
    link_initial_strength: z.number().gt(0).max(1).default(0.5).describe("Strength of a new link between consecutive segments, in (0, 1]."),
    delete_threshold: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(5)
      .describe("A node whose compression target is below this many code points is deleted."),
    link_break_threshold: z.number().gt(0).lt(1).default(0.01).describe("A link whose strength falls below this is removed, in (0, 1)."),
    time_slice_ms: z
      .number()
      .int()
      .min(10)
      .max(300_000)
      .default(30_000)
      .describe("Longest continuous compression run before yielding, in milliseconds."),
    max_retries: z.number().int().min(0).max(50).default(15).describe("Small-model call retries before giving up (content kept as is)."),
    default_search_depth: z.number().int().min(1).max(6).default(2).describe("BFS depth of recall when the request gives none."),
    capacity: z
      .number()
      .int()
      .min(10)
      .max(1_000_000)
      .default(10_000)
      .describe("Most nodes the agent may hold; beyond it the least important node is deleted first."),
    auto_compress: z
      .boolean()
      .default(true)
      .describe("Run one compression cycle after every remember (docs/design.md, “remember(messages)” step 7); false pauses forgetting."),
    max_pins: z
      .number()
      .int()
      .min(0)
      .max(MAX_PINS)
      .default(50)
      .describe(
        "Most memories the agent may pin (standing instructions: never forgotten, listed first by the context block; docs/design.md, “Pins”). Pinning one more answers 409; lowering it unpins nothing.",
      ),
    reinforce_step: z
      .number()
      .gt(0)
      .max(1)
      .default(0.3)
      .describe(
        "Strength each link of a memory reported as used gains (capped at 1), at most once per compression cycle (docs/design.md, “Memory operations”).",
      ),
    recall_neighbour_weight: z
      .number()
      .min(0)
      .max(1)
      .default(0.4)
      .describe(
        "Recall: weight of the previous and next segments' words (上文/下文) in a memory's text score (docs/design.md, “recall(keywords, relations, depth)”).",
      ),
    recall_entity_weight: z
      .number()
      .min(0)
      .max(1)
      .default(0.2)
      .describe("Recall: weight of the names of entities a memory is linked to (相关) in its text score."),
    recall_speaker_weight: z.number().min(0).max(2).default(1).describe("Recall: weight of who said a memory in its text score."),
    recall_time_weight: z
      .number()
      .min(0)
      .max(2)
      .default(0.5)
      .describe("Recall: weight of when a memory was said (month, day, year) in its text score."),
    recall_graph_prior: z
      .number()
      .min(0)
      .max(1)
      .default(0.1)
      .describe("Recall: the largest relative lift the network gives a memory (path strength from the focus, importance)."),
    recall_vectors: z
      .boolean()
      .default(true)
      .describe("Recall: fuse vector similarity with the text score, at the embedder's weight; false uses text and network only."),
    model_policy: AgentModelPolicySchema.prefault({}).describe(
      'Which provider answers each kind of model work for this agent (docs/deploy.md, “Model policy”); "default" keeps the deployment\'s MODEL_POLICY. No effect where the deployment runs only the built-in model.',
    ),
  })
  .strict();

export type AgentParams = z.infer<typeof AgentParamsSchema>;

export const DEFAULT_PARAMS: AgentParams = AgentParamsSchema.parse({});

/**
 * A partial update (PUT /config): only the given keys change, each validated like the whole;
 * model_policy too changes only the operations it names.
 */
export const AgentParamsPatchSchema = AgentParamsSchema.partial().extend({ model_policy: AgentModelPolicyPatchSchema.optional() }).strict();
export type AgentParamsPatch = z.infer<typeof AgentParamsPatchSchema>;

/** The parameters after a patch. */
export function patchedParams(current: AgentParams, patch: AgentParamsPatch): AgentParams {
  const { model_policy, ...rest } = patch;
  return AgentParamsSchema.parse({ ...current, ...rest, model_policy: { ...current.model_policy, ...model_policy } });
}
