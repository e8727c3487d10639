/**
 * unpinMemory (docs/design.md, "Pins"): the memory is forgotten like any other from the next
 * compression cycle on. pinMemory's write with `pinned: false`: a memory not pinned is answered as
 * it stands (nothing changes), an entity or a superseded version is refused (409).
 */
import type { AgentStores, WritePath } from "../../engine/runtime";
import { defineTask } from "../../engine/define-task";
import { PinPayloadSchema, PinResultSchema, refusePin, runPin } from "../pin-memory/task";

type Runtime = AgentStores & WritePath;

export const unpinMemoryTask = defineTask({
  lane: "write",
  payload: PinPayloadSchema,
  result: PinResultSchema,
  refuse: (rt: Runtime, payload) => refusePin(rt, payload, false),
  run: (rt: Runtime, task) => runPin(rt, task, false),
});
