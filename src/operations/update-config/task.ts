/**
 * A change of the agent's parameters (docs/design.md, "Parameters"). A queued write like any other, so it applies in
 * arrival order: a change accepted after a pending deletion configures the agent that follows
 * the deletion instead of being wiped by it. Parameters apply from the next compression cycle (a
 * running pass keeps the ones it started with).
 */
import { AgentParamsPatchSchema, AgentParamsSchema, patchedParams } from "../../config/params";
import { defineTask } from "../../engine/define-task";
import type { AgentStores } from "../../engine/runtime";

export const updateConfigTask = defineTask({
  lane: "write",
  payload: AgentParamsPatchSchema,
  result: AgentParamsSchema,
  async run(rt: Pick<AgentStores, "meta">, task) {
    const params = patchedParams(rt.meta.params(), task.payload);
    rt.meta.set("params", params);
    return { status: "done", result: params };
  },
});
