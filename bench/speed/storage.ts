/**
 * Bytes on disk of the local D1 database and of the Durable Objects' storage, from the files under
 * the run's persist directory (miniflare keeps each as SQLite: `v3/d1/**.sqlite` and
 * `v3/do/**.sqlite`, each with its `-wal`). The write-ahead log is counted (it holds pages not yet
 * checkpointed), so the figure is an upper bound of what the rows need.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

export interface StorageBytes {
  /** *.sqlite files. */
  main: number;
  /** *.sqlite-wal files. */
  wal: number;
}

function walk(dir: string, out: StorageBytes): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file, out);
    else if (entry.name.endsWith(".sqlite")) out.main += statSync(file).size;
    else if (entry.name.endsWith(".sqlite-wal")) out.wal += statSync(file).size;
  }
}

export function storageBytes(persistDir: string, kind: "d1" | "do"): StorageBytes {
  const out: StorageBytes = { main: 0, wal: 0 };
  walk(path.join(persistDir, "v3", kind), out);
  return out;
}

export const totalBytes = (b: StorageBytes): number => b.main + b.wal;
