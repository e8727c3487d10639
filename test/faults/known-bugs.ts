/**
 * Bugs of the code under test that the fault suite's twin comparison ran into, each with a probe
 * that tells, in the same run, whether the bug is back (run.ts fails the run if so).
 *
 * DANGLING-RELEASE (fixed: LinkRepo.settleReleasesStatement moves a node's release onto the links
 * into it before the node is deleted; test/forgetting.test.ts has the in-process test): a link into a node that left the focus and was later deleted loses the
 * restart it got at the release once the agent's network is read from D1 instead of the object's
 * in-memory graph (after a restart, an eviction — wrangler dev evicts an object idle for ~10 s —
 * or for agents too large to cache). The graph keeps the link at the release clock (strength 1
 * then, decaying since: docs/design.md §3); D1 keeps the release on the node row, which the
 * deletion removes, and LinkRepo's effective level falls back to the link's stored level. The
 * source node's importance drops, so a network whose object restarted compresses and deletes
 * differently from one that did not.
 *
 * The probe (one small agent, read before and after the server restarts):
 *   focus_limit 1, decay_rate 0.5, auto_compress false;
 *   remember "Alice reviewed the budget on Monday." (segment 1, entity 2 "Alice" in the focus);
 *   compress 3 cycles (Alice pinned: the link 1→2 stays at strength 1);
 *   remember "Bob fixed the login bug in Oslo." (Alice leaves the focus: 1→2 restarts at 1);
 *   compress 1 cycle (1→2 decays to 0.5; Alice's importance is 0.5, her 5 characters × 0.5 < 5:
 *   deleted, so 1→2 dangles).
 * By the design, 1→2 has strength 0.5 from then on, whatever the object does. With the bug it
 * reads 0.5 while the graph is in memory and 0.0625 (= 0.5⁴, its level from before the focus)
 * once the network is read from D1.
 */
import type { Agent } from "./api";

export const PROBE_AGENT = "probe-dangling-release";

/** The design's strength of the probe's link 1→2 after its last cycle. */
const EXPECTED = 0.5;

export interface ProbeReading {
  /** Strength of 1→2 as read now, or null if the probe did not build what it should. */
  strength: number | null;
  note: string;
}

/** Builds the probe's network (every write waited for) and reads the link. */
export async function buildProbe(agent: Agent): Promise<ProbeReading> {
  const key = (n: number) => `${PROBE_AGENT}.${n}`;
  await agent.configure({ focus_limit: 1, decay_rate: 0.5, auto_compress: false }, key(0));
  await agent.remember([{ role: "user", content: "Alice reviewed the budget on Monday.", id: "p1" }], key(1));
  await agent.idle();
  await agent.compress(3, key(2));
  await agent.idle();
  await agent.remember([{ role: "user", content: "Bob fixed the login bug in Oslo.", id: "p2" }], key(3));
  await agent.idle();
  await agent.compress(1, key(4));
  await agent.idle();
  return readProbe(agent);
}

export async function readProbe(agent: Agent): Promise<ProbeReading> {
  const segment = await agent.node(1);
  const alice = await agent.node(2);
  const link = segment?.links.outgoing.find((l) => l.target === 2);
  if (!segment || alice !== null || !link?.dangling) {
    return {
      strength: null,
      note: `probe network not as designed: node 1 ${segment ? "present" : "missing"}, node 2 ${alice ? "present" : "deleted"}, link 1→2 ${link ? (link.dangling ? "dangling" : "not dangling") : "missing"}`,
    };
  }
  return { strength: link.strength, note: "" };
}

const near = (a: number, b: number) => Math.abs(a - b) < 1e-9;

export interface ProbeVerdict {
  /** True: the probe built its network and the bug did not show. */
  passed: boolean;
  text: string;
}

/** `before`: read with the graph in memory; `after`: read after the server restarted (from D1). */
export function judgeProbe(before: ProbeReading, after: ProbeReading): ProbeVerdict {
  if (before.strength === null || after.strength === null) {
    return { passed: false, text: `FAILED: DANGLING-RELEASE probe inconclusive: ${before.note || after.note}` };
  }
  const present = !near(after.strength, EXPECTED) || !near(before.strength, EXPECTED);
  return {
    passed: !present,
    text: present
      ? `FAILED: bug DANGLING-RELEASE is back: link 1→2 into a deleted, released node reads ${before.strength} with the graph in memory and ${after.strength} after a restart (design: ${EXPECTED}) — see test/faults/known-bugs.ts`
      : `DANGLING-RELEASE probe: link 1→2 reads ${EXPECTED} before and after a restart`,
  };
}
