/**
 * Node-only loader: reads benchmark data files by path and hands them to the pure parsers.
 * Errors name the path and what is wrong with it (missing, not JSON, not the expected shape).
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { parseLocomo, type LocomoDataset } from "./locomo";
import { parseMadial, type MadialDataset } from "./madial";

export class BenchDataError extends Error {
  override name = "BenchDataError";
}

/** Reads a JSON file; `what` names it in the error. */
export function readJson(file: string, what: string): unknown {
  if (!existsSync(file)) throw new BenchDataError(`${what}: no such file: ${file}`);
  if (!statSync(file).isFile()) throw new BenchDataError(`${what}: not a file: ${file}`);
  const text = readFileSync(file, "utf8");
  try {
    const value: unknown = JSON.parse(text);
    return value;
  } catch (e) {
    throw new BenchDataError(`${what}: ${file} is not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
}

function parsed<T>(file: string, what: string, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw new BenchDataError(`${what}: ${file} is malformed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Reads and parses a LoCoMo-format file (the dev split, locomo10.json, or any file of that shape). */
export function loadLocomo(file: string): LocomoDataset {
  const value = readJson(file, "LoCoMo");
  return parsed(file, "LoCoMo", () => parseLocomo(value));
}

export interface MadialFiles {
  memory: string;
  dialogue: string;
}

/**
 * Finds the memory and dialogue files: `target` is either the directory holding exactly one
 * `*memory.json` and one `*dialogue.json`, or the path of one of them (the other is its sibling with
 * "memory"/"dialogue" swapped).
 */
export function findMadialFiles(target: string): MadialFiles {
  if (!existsSync(target)) throw new BenchDataError(`MADial: no such file or directory: ${target}`);
  if (statSync(target).isFile()) {
    const dir = path.dirname(target);
    const base = path.basename(target);
    if (base.endsWith("memory.json")) {
      return { memory: target, dialogue: path.join(dir, base.replace(/memory\.json$/, "dialogue.json")) };
    }
    if (base.endsWith("dialogue.json")) {
      return { memory: path.join(dir, base.replace(/dialogue\.json$/, "memory.json")), dialogue: target };
    }
    throw new BenchDataError(`MADial: ${target} is neither a *memory.json nor a *dialogue.json file`);
  }
  const names = readdirSync(target).sort();
  const pick = (suffix: string): string => {
    const found = names.filter((n) => n.endsWith(suffix));
    if (found.length !== 1 || !found[0]) {
      throw new BenchDataError(`MADial: expected exactly one *${suffix} in ${target}, found ${found.length}`);
    }
    return path.join(target, found[0]);
  };
  return { memory: pick("memory.json"), dialogue: pick("dialogue.json") };
}

/** Reads and parses MADial-Bench memory and dialogue files (see `findMadialFiles` for `target`). */
export function loadMadial(target: string): MadialDataset & { files: MadialFiles } {
  const files = findMadialFiles(target);
  const memory = readJson(files.memory, "MADial memory");
  const dialogue = readJson(files.dialogue, "MADial dialogue");
  return { ...parsed(files.dialogue, "MADial", () => parseMadial(memory, dialogue)), files };
}
