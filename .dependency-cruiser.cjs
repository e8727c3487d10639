/**
 * The layering of src/ (docs/architecture.md, "Layers"), checked by `npm run lint`. From the top:
 *
 *   app         src/index.ts, src/app.ts, src/scheduled.ts,  the Worker's entry points and composition
 *               src/rpc, src/oauth, src/admin
 *   routes      src/routes                                   the operations listed in their areas and mounted
 *   endpoints   src/operations/<operation>/route.ts          each operation's route, its HTTP schemas, its tool entry
 *   surfaces    src/surfaces                                 what the endpoints share: the operation definition,
 *                                                            common schemas, the agent a request addresses, tools
 *   http        src/http                                     middleware, auth, the one error mapping
 *   service     src/service                                  checks of the whole service (health, storage, agents)
 *   agent       src/agent                                    the Durable Object: its client, state and task kinds
 *   operations  src/operations (all but route.ts)            each operation's task and schemas; shared/: what tasks share
 *   engine      src/engine                                   queue, runner, write path, runtime and the object's stores
 *   memory      src/memory                                   the pure domain
 *   infra       src/storage, src/models, src/vectors, src/search
 *   language    src/language                                 the language library: tokens, tagging, word tables,
 *                                                            salience, conflict frames, entity names, times
 *   base        src/text, src/config, src/vocabulary
 *   sdk         sdk/src                                      the published client, shared with the endpoints
 *
 * A module may import its own layer and the layers below it, never one above; the service checks
 * and the agent do not reach each other; the routes, endpoints and surfaces reach the memory, the
 * engine and storage only through the agent or the service; an operation's folder takes nothing
 * from another operation's folder but its task and schemas (getContext runs recall's), and shared/
 * takes nothing from any; the domain reads no storage, vectors or model providers.
 * No exceptions are listed here, type-only imports included: a rule that needs one is a design change.
 */
const layer = {
  app: "^src/((index|app|scheduled)\\.ts$|rpc/|oauth/|admin/)",
  routes: "^src/routes/",
  endpoints: "^src/operations/[^/]+/route\\.ts$",
  surfaces: "^src/surfaces/",
  http: "^src/http/",
  service: "^src/service/",
  agent: "^src/agent/",
  operations: "^src/operations/(?![^/]+/route\\.ts$)",
  engine: "^src/engine/",
  memory: "^src/memory/",
  infra: "^src/(storage|models|vectors|search)/",
  language: "^src/language/",
  base: "^src/(text|config|vocabulary)/",
  sdk: "^sdk/src/",
};

const order = [
  "app",
  "routes",
  "endpoints",
  "surfaces",
  "http",
  "service",
  "agent",
  "operations",
  "engine",
  "memory",
  "infra",
  "language",
  "base",
  "sdk",
];
const above = Object.fromEntries(order.slice(1).map((name, i) => [name, order.slice(0, i + 1).map((n) => layer[n])]));

const upward = Object.entries(above).map(([name, targets]) => ({
  name: `no-upward-from-${name}`,
  comment: `${name} must not depend on a layer above it`,
  severity: "error",
  from: { path: layer[name] },
  to: { path: `(${targets.join("|")})` },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "modules must not depend on each other in a cycle",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...upward,
    {
      name: "routes-through-the-agent",
      comment: "routes reach the memory, the engine, storage, models, vectors and search only through the agent or the service",
      severity: "error",
      from: { path: `(${layer.routes}|${layer.endpoints}|${layer.surfaces})` },
      to: { path: "^src/(engine|memory|storage|models|vectors|search)/" },
    },
    {
      name: "service-beside-the-agent",
      comment: "the service-wide checks read storage directly, not through an agent",
      severity: "error",
      from: { path: layer.service },
      to: { path: `(${layer.agent}|${layer.operations}|${layer.engine})` },
    },
    {
      name: "one-home-per-operation",
      comment:
        "an operation's folder takes from another operation's folder only its task and schemas (composing operations), never a helper",
      severity: "error",
      from: { path: "^src/operations/([^/]+)/" },
      to: {
        path: "^src/operations/[^/]+/",
        pathNot: ["^src/operations/$1/", "^src/operations/shared/", "^src/operations/[^/]+/(task|schemas)\\.ts$"],
      },
    },
    {
      name: "shared-borrows-from-no-operation",
      comment: "what the tasks share is named for what it is, not borrowed from one operation's folder",
      severity: "error",
      from: { path: "^src/operations/shared/" },
      to: { path: "^src/operations/(?!shared/)" },
    },
    {
      name: "pure-domain",
      comment: "the memory domain touches no storage, vectors or model providers (model types only)",
      severity: "error",
      from: { path: layer.memory },
      to: { path: "^src/(storage|vectors)/|^src/models/(?!types\\.ts$)" },
    },
    {
      name: "no-unresolvable",
      comment: "every import resolves",
      severity: "error",
      from: {},
      to: { couldNotResolve: true, pathNot: "^cloudflare:" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    includeOnly: "^(src|sdk/src)/",
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
