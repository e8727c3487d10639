/**
 * The semantic arm of the quality benchmark (issue 23): MADial asked again on agents whose embedder
 * has meaning, so that recall's fusion of keyword and vector entry points is checked with real
 * similarity, as production's bge-m3 gives it.
 *
 * The vectors: the npm package node-synonyms@1.3.1 carries Chinese word2vec vectors
 * (`data/words.vector`, binary, 125,796 words × 100 dimensions, trained on Chinese Wikipedia).
 * Its licence is GPL-3.0 and its native dependency does not build on current Node, so it is never
 * a dependency of the project and never bundled: at run time the benchmark fetches the tarball with
 * `npm pack`, checks its sha512 integrity, extracts only the vectors into a cache outside the
 * repository (VECTOR_CACHE) and deletes the tarball. Offline, the arm is skipped and says so.
 *
 * A text's embedding is word-vectors.ts's (the mean of its words' vectors). It is served to the benchmark's own `wrangler dev` (src/models/local/http-embedder.ts,
 * the BENCH_EMBEDDER_URL var) by a small HTTP server on 127.0.0.1 that lives as long as the run.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { z } from "zod";
import type { HttpClient } from "../driver/http";
import type { MadialDataset } from "../lib/madial";
import { PRESETS, type Preset } from "./presets";
import { runMadialPreset, type PresetRun } from "./runs";
import { embedWords, parseWord2vec, type WordVectors } from "./word-vectors";

export const VECTOR_PACKAGE = "node-synonyms@1.3.1";
export const VECTOR_INTEGRITY = "sha512-X3GZ4J4kDAp7uSkwqaOeCJ6++pHT2L7EDlQsL8O4AZRB0NEtBAZSmDtvWOkIKPqZkgStnX9EtL1y4xQClhflxQ==";
const VECTOR_MEMBER = "package/data/words.vector";
/** Outside the repository: the vectors are GPL-3.0 data, never part of the project. */
export const VECTOR_CACHE = path.join(
  process.env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache"),
  "agent-memory-bench",
  "node-synonyms-1.3.1",
);

export const integrityOf = (data: Buffer): string => `sha512-${createHash("sha512").update(data).digest("base64")}`;

/**
 * The vectors file, from the cache or fetched into it; null with the reason when it cannot be had
 * (offline, registry refused, integrity mismatch).
 */
export function vectorFile(): { file: string } | { skipped: string } {
  const file = path.join(VECTOR_CACHE, "words.vector");
  if (existsSync(file)) return { file };
  const work = mkdtempSync(path.join(tmpdir(), "bench-vectors-"));
  try {
    const out = execFileSync("npm", ["pack", VECTOR_PACKAGE, "--json", "--pack-destination", work], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 300_000,
    });
    const packed = z.array(z.object({ filename: z.string() })).parse(JSON.parse(out))[0];
    if (!packed) return { skipped: `npm pack ${VECTOR_PACKAGE} gave no tarball` };
    const tarball = path.join(work, packed.filename);
    const integrity = integrityOf(readFileSync(tarball));
    if (integrity !== VECTOR_INTEGRITY)
      return { skipped: `${VECTOR_PACKAGE}: integrity ${integrity} is not the expected ${VECTOR_INTEGRITY}` };
    execFileSync("tar", ["-xzf", tarball, "-C", work, VECTOR_MEMBER]);
    mkdirSync(VECTOR_CACHE, { recursive: true });
    renameSync(path.join(work, VECTOR_MEMBER), file);
    return { file };
  } catch (e) {
    const reason = e instanceof Error ? e.message.split("\n")[0] : String(e);
    return { skipped: `could not fetch ${VECTOR_PACKAGE} (${reason})` };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const REQUEST = z.object({ texts: z.array(z.string()).max(1000) });

/** Serves embedWords on 127.0.0.1 (http-embedder.ts's protocol) until close() is called. */
export async function serveEmbeddings(vectors: WordVectors): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        // answered 400 below
      }
      const parsed = REQUEST.safeParse(body);
      if (!parsed.success) {
        res.writeHead(400).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ vectors: parsed.data.texts.map((t) => embedWords(t, vectors)) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the embedding server has no port");
  return { url: `http://127.0.0.1:${address.port}/embed`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * The vectors served for the run, with the `wrangler dev` arguments that point a server at them;
 * null (and a note saying why) when they cannot be had.
 */
export async function startSemanticArm(notes: string[]): Promise<{ wranglerArgs: string[]; close: () => Promise<void> } | null> {
  const found = vectorFile();
  if ("skipped" in found) {
    notes.push(`Semantic arm skipped: ${found.skipped}`);
    return null;
  }
  const vectors = parseWord2vec(readFileSync(found.file));
  const served = await serveEmbeddings(vectors);
  notes.push(
    `Semantic arm: MADial on \`default\` with ${VECTOR_PACKAGE}'s Chinese word vectors (${vectors.words.size} words × ${vectors.dimensions}, sha512 checked, cached outside the repository), the mean of word vectors as the embedder`,
  );
  return {
    wranglerArgs: ["--var", `BENCH_EMBEDDER_URL:${served.url}`, "--var", `BENCH_EMBEDDER_DIMENSIONS:${vectors.dimensions}`],
    close: served.close,
  };
}

/** MADial on `default` (recall in both query modes and the search endpoint's modes) on the semantic server. */
export async function runSemanticLane(http: HttpClient, madial: MadialDataset, step: (text: string) => void): Promise<PresetRun | null> {
  const base = PRESETS.find((p) => p.name === "default");
  if (!base) return null;
  const preset: Preset = { ...base, extras: ["search"], contextBlock: false };
  const run = await runMadialPreset(http, preset, madial, (text) => step(`semantic · ${text}`));
  step("semantic done");
  return run;
}
