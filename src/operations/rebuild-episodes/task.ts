/**
 * Episodes for memories remembered before episodes existed (docs/design.md, "Context for prompts"): only when asked
 * (`POST episodes/rebuild`). Each remember task's surviving segments form one submission; one
 * without an episode gets one, summarized from those segments (participants and span from their
 * provenance). One commit per submission, with the submissions done in the checkpoint, so an
 * interrupted rebuild resumes and creates no episode twice.
 */
import { z } from "zod";
import { EPISODE_SUMMARY_MAX, planEpisode, type EpisodeMessage } from "../../memory/episode";
import type { MemoryNode } from "../../vocabulary/records";
import { networkReader } from "../../engine/network-reader";
import { commit } from "../../engine/write-path";
import { readCheckpoint } from "../../engine/checkpoint";
import { defineTask } from "../../engine/define-task";
import type { AgentModels, AgentStores, WritePath } from "../../engine/runtime";

/** Segments read to find the submissions without an episode (an agent at capacity holds 10,000 nodes). */
const REBUILD_SEGMENTS = 100_000;

const CheckpointSchema = z.object({ done: z.array(z.string()), created: z.number().int() });

export const rebuildEpisodesTask = defineTask({
  lane: "write",
  allocatesNodes: true,
  payload: z.object({}).strict(),
  result: z.object({ episodes_created: z.number().int(), submissions: z.number().int() }),
  async run(rt: AgentStores & WritePath & Pick<AgentModels, "model">, task) {
    const progress = readCheckpoint(task, CheckpointSchema) ?? { done: [], created: 0 };
    const repos = rt.existingRepos();
    if (!repos) return { status: "done", result: { episodes_created: 0, submissions: 0 } };
    const reader = await networkReader(rt, repos);
    const [segments, episodes] = await Promise.all([
      reader.ofKind("segment", REBUILD_SEGMENTS),
      reader.ofKind("episode", REBUILD_SEGMENTS),
    ]);
    const covered = new Set([...episodes.map((e) => e.sourceTaskId), ...progress.done]);
    const groups = new Map<string, MemoryNode[]>();
    for (const s of [...segments].sort((a, b) => a.id - b.id)) {
      if (s.sourceTaskId === null || covered.has(s.sourceTaskId)) continue;
      groups.set(s.sourceTaskId, [...(groups.get(s.sourceTaskId) ?? []), s]);
    }
    const params = rt.meta.params();
    for (const [taskId, group] of groups) {
      const summary = (
        await rt.model.summarize(
          group.map((s) => s.content),
          EPISODE_SUMMARY_MAX,
        )
      ).trim();
      const id = rt.meta.nextNodeId();
      progress.done.push(taskId);
      if (summary === "") continue;
      const messages: EpisodeMessage[] = group.flatMap((s) =>
        s.sourceMessageIds.map(() => ({
          role: s.role ?? "user",
          ...(s.speaker ? { name: s.speaker } : {}),
          ...(s.messageTime !== null ? { timestamp: s.messageTime } : {}),
        })),
      );
      const episode = planEpisode({
        id,
        taskId,
        epoch: task.seq,
        now: rt.now(),
        clock: rt.meta.clock(),
        linkInitialStrength: params.link_initial_strength,
        summary,
        messages,
        segments: group,
      });
      progress.created += 1;
      await commit(
        rt,
        task.id,
        [
          { type: "createNodes", nodes: [episode.node] },
          { type: "createLinks", links: episode.links },
        ],
        { prepare: () => rt.meta.setNextNodeId(id + 1), checkpoint: { ...progress } },
      );
    }
    return { status: "done", result: { episodes_created: progress.created, submissions: groups.size } };
  },
});
