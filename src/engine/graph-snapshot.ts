/**
 * The agent's network as the object holds it (src/memory/graph.ts), packed to be kept in the
 * object's own SQLite (stores/graph-snapshot-store.ts), so that a wake reads it there instead of
 * from D1 (docs/design.md, "The cold path and the storage layout", Decision 1). Packed as:
 *
 *   a header   JSON: the layout it was written in, the focus, the relation names, the aliases,
 *              the counts and sizes of what follows;
 *   the nodes  one JSON array of the node records, each as an array of its fields' values in
 *              NODE_KEYS' order (a third smaller and faster to parse than objects with their keys)
 *              followed by its own index terms (so no text is analysed again on load:
 *              src/search/fts-text.ts);
 *   the links  typed arrays: source and target (Int32), level as the graph holds it and creation
 *              time (Float64), relation code (Uint16): 26 bytes a link, read as stored until the
 *              first change to the links (src/memory/packed-links.ts);
 *   the BM25   the graph's full-text index as arrays (src/search/bm25-packed.ts: offsets, postings,
 *              term frequencies, documents and lengths as Int32, then the tokens as JSON), read as
 *              stored until its first change, so a wake's first search builds no map.
 *
 * A node's terms are kept as stored and analysed into its fields when a read first needs them
 * (fts-text.ts, keepOwnTerms): a recall touches a few hundred nodes, not 10,000.
 *
 * A snapshot written by another layout (a node field added or removed, another analyzer: the data
 * version) is not read: the graph is rebuilt from D1 and the snapshot written again.
 */
import { MemoryGraph } from "../memory/graph";
import type { GraphLink } from "../memory/graph-links";
import { Bm25Index } from "../search/bm25-index";
import { keepOwnTerms, ownTerms } from "../search/fts-text";
import type { MemoryNode } from "../vocabulary/records";
import { ByteParts } from "./byte-parts";
import { DATA_VERSION } from "./stores/meta-store";

/**
 * A node record from its stored values, which are its fields in this literal's order (NODE_KEYS):
 * the compiler refuses the literal when MemoryNode gains or loses a field, and a snapshot written
 * with another list is not read (its nodes would lack or carry a field). One literal, so every node
 * loaded has one shape (and it is fast).
 */
function nodeOf(v: readonly unknown[]): MemoryNode {
  const node = {
    id: v[0],
    kind: v[1],
    name: v[2],
    content: v[3],
    originalLength: v[4],
    phrase: v[5],
    keywords: v[6],
    role: v[7],
    speaker: v[8],
    sourceMessageIds: v[9],
    sourceTaskId: v[10],
    messageTime: v[11],
    createdAt: v[12],
    supersededBy: v[13],
    meta: v[14],
    pinned: v[15],
    sessionId: v[16],
    metadata: v[17],
    expiresAt: v[18],
  } satisfies Record<keyof MemoryNode, unknown>;
  return node as MemoryNode;
}

/** The node record's fields in the order they are stored. */
const NODE_KEYS = Object.keys(nodeOf([])) as (keyof MemoryNode)[];

/** The link's fields, each stored in its own array below: a new one must be stored too. */
const LINK_FIELDS = { source: 0, target: 0, relation: 0, level: 0, createdAt: 0 } satisfies Record<keyof GraphLink, 0>;

/** What a snapshot was written with; another layout is not read. */
const LAYOUT = `3;data ${DATA_VERSION};nodes ${NODE_KEYS.join(",")};links ${Object.keys(LINK_FIELDS).join(",")}`;

/** Bytes a link takes in the link arrays. */
const LINK_BYTES = 4 + 4 + 8 + 8 + 2;

interface SnapshotHeader {
  layout: string;
  focus: number[];
  relations: string[];
  aliases: [string, number][];
  links: number;
  nodeBytes: number;
  linkBytes: number;
  /** The BM25 index's arrays (tokens, postings, documents: their counts) and its tokens' JSON bytes. */
  bm25: { tokens: number; postings: number; documents: number; tokenBytes: number };
}

/** A node as stored: its fields' values in NODE_KEYS' order, then its own index terms, space-separated. */
type StoredNode = unknown[];

export interface PackedGraph {
  header: Uint8Array;
  /** The nodes' JSON, then the link arrays, then the BM25 index, in parts (read without joining them). */
  body: readonly Uint8Array[];
}

/** The graph packed. */
export function packGraph(graph: MemoryGraph): PackedGraph {
  const nodes: StoredNode[] = [];
  for (const id of graph.nodeIds()) {
    const node = graph.node(id);
    if (node) nodes.push([...NODE_KEYS.map((key) => node[key]), ownTerms(node).join(" ")]);
  }
  const nodeBytes = new TextEncoder().encode(JSON.stringify(nodes));
  const links = graph.allLinks();
  const count = links.length;
  const relations: string[] = [];
  const codes = new Map<string, number>();
  // Float64 arrays first (8-byte aligned inside the body's buffer once the nodes are padded to 8).
  const linkBuffer = new ArrayBuffer(count * LINK_BYTES);
  const arrays = linkArrays(linkBuffer, 0, count);
  links.forEach((link, i) => {
    let code = codes.get(link.relation);
    if (code === undefined) {
      code = relations.length;
      relations.push(link.relation);
      codes.set(link.relation, code);
    }
    arrays.levels[i] = link.level;
    arrays.created[i] = link.createdAt;
    arrays.sources[i] = link.source;
    arrays.targets[i] = link.target;
    arrays.relations[i] = code;
  });
  const bm25 = graph.textIndex().pack();
  const bm25Ints = [bm25.offsets, bm25.docs, bm25.tfs, bm25.docIds, bm25.lengths];
  const tokenBytes = new TextEncoder().encode(JSON.stringify(bm25.tokens));
  const nodeSpan = padded(nodeBytes.length);
  const linkSpan = padded(linkBuffer.byteLength);
  const intBytes = bm25Ints.reduce((n, a) => n + a.byteLength, 0);
  const body = new Uint8Array(nodeSpan + linkSpan + intBytes + tokenBytes.length);
  body.set(nodeBytes, 0);
  body.set(new Uint8Array(linkBuffer), nodeSpan);
  let at = nodeSpan + linkSpan;
  for (const ints of bm25Ints) {
    body.set(new Uint8Array(ints.buffer, ints.byteOffset, ints.byteLength), at);
    at += ints.byteLength;
  }
  body.set(tokenBytes, at);
  const header: SnapshotHeader = {
    layout: LAYOUT,
    focus: graph.focusIds(),
    relations,
    aliases: graph.aliasEntries(),
    links: count,
    nodeBytes: nodeBytes.length,
    linkBytes: linkBuffer.byteLength,
    bm25: { tokens: bm25.tokens.length, postings: bm25.docs.length, documents: bm25.docIds.length, tokenBytes: tokenBytes.length },
  };
  return { header: new TextEncoder().encode(JSON.stringify(header)), body: [body] };
}

/** The graph a packed snapshot holds; undefined when it was written with another layout. */
export function unpackGraph(packed: PackedGraph): MemoryGraph | undefined {
  const header = JSON.parse(new TextDecoder().decode(packed.header)) as SnapshotHeader;
  if (header.layout !== LAYOUT) return undefined;
  const nodeSpan = padded(header.nodeBytes);
  const linkSpan = padded(header.linkBytes);
  const { tokens, postings, documents, tokenBytes } = header.bm25;
  const intCounts = [tokens + 1, postings, postings, documents, documents];
  const intBytes = intCounts.reduce((n, c) => n + c * 4, 0);
  const body = new ByteParts(packed.body);
  if (body.length !== nodeSpan + linkSpan + intBytes + tokenBytes || header.linkBytes !== header.links * LINK_BYTES) return undefined;
  const graph = new MemoryGraph();
  graph.setInitialFocus(header.focus);
  const nodes = JSON.parse(body.text(0, header.nodeBytes)) as StoredNode[];
  // Each node's terms are kept as stored and analysed into fields only when a read needs them.
  const fields = NODE_KEYS.length;
  for (const stored of nodes) {
    if (stored.length !== fields + 1) return undefined;
    const node = nodeOf(stored);
    keepOwnTerms(node, String(stored[fields]));
    graph.addNode(node);
  }
  for (const [key, nodeId] of header.aliases) graph.addAlias(key, nodeId);
  // Copies: aligned, and the parts (the nodes' JSON) are not held while the links or the index stay packed.
  const linkBuffer = body.copy(nodeSpan, header.linkBytes).buffer;
  const arrays = linkArrays(linkBuffer, 0, header.links);
  graph.loadLinks({
    count: header.links,
    sources: arrays.sources,
    targets: arrays.targets,
    relationCodes: arrays.relations,
    relations: header.relations,
    levels: arrays.levels,
    created: arrays.created,
  });
  const ints = body.copy(nodeSpan + linkSpan, intBytes).buffer;
  let at = 0;
  const [offsets, docs, tfs, docIds, lengths] = intCounts.map((count) => {
    const array = new Int32Array(ints, at, count);
    at += count * 4;
    return array;
  });
  const tokenList = JSON.parse(body.text(nodeSpan + linkSpan + intBytes, tokenBytes)) as string[];
  if (!offsets || !docs || !tfs || !docIds || !lengths || tokenList.length !== tokens) return undefined;
  graph.useTextIndex(Bm25Index.fromPacked({ tokens: tokenList, offsets, docs, tfs, docIds, lengths }));
  return graph;
}

function linkArrays(buffer: ArrayBufferLike, at: number, count: number) {
  return {
    levels: new Float64Array(buffer, at, count),
    created: new Float64Array(buffer, at + count * 8, count),
    sources: new Int32Array(buffer, at + count * 16, count),
    targets: new Int32Array(buffer, at + count * 20, count),
    relations: new Uint16Array(buffer, at + count * 24, count),
  };
}

function padded(bytes: number): number {
  return Math.ceil(bytes / 8) * 8;
}
