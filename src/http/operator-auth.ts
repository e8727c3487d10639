/**
 * The operator's credential (docs/deploy.md, "The admin API"): OPERATOR_SECRET, set with
 * `wrangler secret put OPERATOR_SECRET` (locally: `OPERATOR_SECRET=… npm run dev`; the tests' servers pass a
 * local-only value, scripts/local-server.mjs), sent as
 * `Authorization: Bearer <secret>` and compared in constant time. No tenant key is ever accepted
 * here. Without the secret the admin API does not exist: every path under it answers 404 like any
 * unknown path, whatever the method or credential.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";
import { bearerKey } from "./auth";
import { ApiError, errorResponse } from "./errors";
import { sameSecret } from "./principal";

/** A secret (absent from the generated Env types: secrets are not vars). */
export type OperatorEnv = Pick<Env, "DB"> & { readonly OPERATOR_SECRET?: string };

const OPERATOR_CHALLENGE = 'Bearer realm="agent-memory-operator"';

export const operatorOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  const env: OperatorEnv = c.env;
  const secret = env.OPERATOR_SECRET;
  if (secret === undefined || secret === "") return errorResponse(c, "not_found", "no such endpoint");
  const given = bearerKey(c.req.header("Authorization"));
  if (given === undefined || !(await sameSecret(given, secret))) {
    throw new ApiError("unauthorized", "the admin API needs the operator secret: Authorization: Bearer <OPERATOR_SECRET>", {
      headers: { "WWW-Authenticate": OPERATOR_CHALLENGE },
    });
  }
  await next();
};
