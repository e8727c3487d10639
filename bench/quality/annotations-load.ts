/**
 * Node-only: the entity annotations with their texts, read from the data paths the quality bench is
 * given (`--locomo FILE`, `--madial DIR|FILE`); see annotations.ts.
 */
import path from "node:path";
import { BenchDataError, findMadialFiles, loadLocomo, loadMadial, readJson } from "../lib/load";
import {
  AnnotationError,
  parseEntityAnnotations,
  parseMadialDialogues,
  resolveAnnotations,
  type AnnotationData,
  type Resolution,
} from "./annotations";
import { annotationProblems } from "./annotations-check";

export const ENTITY_ANNOTATIONS_FILE = path.join(import.meta.dirname, "annotations", "entities.json");

export interface AnnotationPaths {
  /** A LoCoMo-format file (the dev split). */
  locomo?: string;
  /** MADial's directory or one of its two files. */
  madial?: string;
  /** Defaults to the committed annotations. */
  annotations?: string;
}

/**
 * The annotated items of the sources given, each with its text, and those the data does not hold
 * (skipped). Throws BenchDataError, or AnnotationError when the annotations contradict data that
 * holds their texts (annotations-check.ts).
 */
export function loadEntityAnnotations(paths: AnnotationPaths): Resolution {
  const file = paths.annotations ?? ENTITY_ANNOTATIONS_FILE;
  const annotations = parseEntityAnnotations(readJson(file, "entity annotations"));
  const data: AnnotationData = {};
  if (paths.locomo) data.locomo = loadLocomo(paths.locomo).conversations;
  if (paths.madial) {
    const madial = loadMadial(paths.madial);
    const userName = madial.userNames[0];
    if (madial.userNames.length !== 1 || !userName) {
      throw new BenchDataError(`MADial: expected one user in ${paths.madial}, found ${madial.userNames.length}`);
    }
    const dialogues = parseMadialDialogues(readJson(findMadialFiles(paths.madial).dialogue, "MADial dialogue"));
    data.madial = { memories: madial.memories, dialogues, userName };
  }
  const resolution = resolveAnnotations(annotations, data);
  const problems = annotationProblems(annotations, data, resolution);
  if (problems.length > 0) throw new AnnotationError(`entity annotations against ${file}:\n${problems.join("\n")}`);
  return resolution;
}
