/**
 * Service-wide checks that are not one agent's (the health endpoint): the HTTP layer reaches the
 * database only through the agent layer.
 */
import { sql } from "drizzle-orm";
import { createDb } from "../storage/db";

/** One round trip to D1; throws when it cannot be reached. */
export async function checkDatabase(env: Pick<Env, "DB">): Promise<void> {
  await createDb(env.DB).run(sql`SELECT 1`);
}
