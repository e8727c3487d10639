/**
 * The layering of src/ (docs/design.md, "Layers"), checked by `npm run lint`. From the top:
 *
 *   app      src/index.ts, src/app.ts, src/scheduled.ts,  the Worker's entry points and composition
 *            src/rpc, src/oauth
 *   routes   src/routes, src/api                          HTTP endpoints and their schemas
 *   http     src/http                                     middleware, auth, the one error mapping
 *   agent    src/agent                                    the agent's Durable Object and its tasks
 *   memory   src/memory                                   the pure domain
 *   infra    src/storage, src/models, src/vectors, src/search
 *   base     src/text, src/config, src/vocabulary
 *
 * A module may import its own layer and the layers below it, never one above; the routes reach
 * the memory only through the agent; the domain reads no storage, vectors or model providers.
 * No exceptions are listed here: a rule that needs one is a design change.
 */
const layer = {
  app: "^src/((index|app|scheduled)\\.ts$|rpc/|oauth/)",
  routes: "^src/(routes|api)/",
  http: "^src/http/",
  agent: "^src/agent/",
  memory: "^src/memory/",
  infra: "^src/(storage|models|vectors|search)/",
  base: "^src/(text|config|vocabulary)/",
};

const above = {
  routes: [layer.app],
  http: [layer.app, layer.routes],
  agent: [layer.app, layer.routes, layer.http],
  memory: [layer.app, layer.routes, layer.http, layer.agent],
  infra: [layer.app, layer.routes, layer.http, layer.agent, layer.memory],
  base: [layer.app, layer.routes, layer.http, layer.agent, layer.memory, layer.infra],
};

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
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    ...upward,
    {
      name: "routes-through-the-agent",
      comment: "routes reach the memory, storage, models, vectors and search only through the agent",
      severity: "error",
      from: { path: layer.routes },
      to: { path: "^src/(memory|storage|models|vectors|search)/" },
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
    includeOnly: "^src/",
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
