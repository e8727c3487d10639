/**
 * CPU time of the local runtime (workerd) behind a benchmark server, from /proc: the user and
 * system time of every workerd process in the server's process group (wrangler dev leads its own
 * group, scripts/local-server.mjs). One workerd runs the Worker, the Durable Objects and the D1
 * simulator, so its CPU is an upper bound on the Worker's and the objects' CPU. Linux only: null
 * elsewhere.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

function clockTicksPerSecond(): number {
  const out = spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" });
  const ticks = Number.parseInt(out.stdout ?? "", 10);
  return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
}

let ticksPerSecond: number | undefined;

/** CPU milliseconds (user + system) used so far by the workerd processes of process group `group`. */
export function workerdCpuMs(group: number | undefined): number | null {
  if (group === undefined || process.platform !== "linux") return null;
  ticksPerSecond ??= clockTicksPerSecond();
  let ticks = 0;
  let found = false;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid pgrp … utime stime …": comm may hold spaces, so split after its ")".
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const fields = stat.slice(close + 2).split(" ");
    if (comm !== "workerd" || Number(fields[2]) !== group) continue;
    found = true;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return found ? (ticks * 1000) / ticksPerSecond : null;
}
