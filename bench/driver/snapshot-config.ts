/**
 * The wrangler configuration that serves the benchmark's frozen bundle (snapshot.ts): a copy of
 * wrangler.local.toml whose only changes are the paths. Pure module.
 */

/**
 * `toml` with `main` pointing at `bundle`, `no_bundle = true`, absolute migrations dirs (every D1 binding's), the web
 * view's assets at `assetsDir` (absolute: the copy lives elsewhere) and no [build] section (the
 * bundling built the assets once; a rebuild on change is what the snapshot exists to avoid).
 */
export function snapshotConfig(toml: string, bundle: string, migrationsDir: string, assetsDir: string): string {
  const main = /^main\s*=.*$/m;
  // Every D1 binding's (the local configuration has two shards).
  const migrations = /^migrations_dir\s*=.*$/gm;
  if (!main.test(toml) || !/^migrations_dir\s*=/m.test(toml)) {
    throw new Error("wrangler.local.toml has no `main =` or `migrations_dir =` line: cannot make the benchmark's frozen copy");
  }
  return toml
    .replace(main, `main = ${JSON.stringify(bundle)}\nno_bundle = true`)
    .replace(migrations, `migrations_dir = ${JSON.stringify(migrationsDir)}`)
    .replace(/^(\[assets\][^[]*?)^directory\s*=.*$/m, (_all, head: string) => `${head}directory = ${JSON.stringify(assetsDir)}`)
    .replace(/^\[build\]\n(?:(?!\[).*\n?)*/m, "");
}
