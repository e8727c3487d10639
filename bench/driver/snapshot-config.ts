/**
 * The wrangler configuration that serves the benchmark's frozen bundle (snapshot.ts): a copy of
 * wrangler.local.toml whose only changes are the paths. Pure module.
 */

/**
 * `toml` with `main` pointing at `bundle`, `no_bundle = true`, an absolute migrations dir and, when
 * it serves static assets (the web view), an absolute assets dir and no `[build]` section: the copy
 * lives in another directory, and a frozen run must not rebuild anything.
 */
export function snapshotConfig(toml: string, bundle: string, migrationsDir: string, assetsDir?: string): string {
  const main = /^main\s*=.*$/m;
  const migrations = /^migrations_dir\s*=.*$/m;
  if (!main.test(toml) || !migrations.test(toml)) {
    throw new Error("wrangler.local.toml has no `main =` or `migrations_dir =` line: cannot make the benchmark's frozen copy");
  }
  let out = toml
    .replace(main, `main = ${JSON.stringify(bundle)}\nno_bundle = true`)
    .replace(migrations, `migrations_dir = ${JSON.stringify(migrationsDir)}`);
  if (assetsDir !== undefined) {
    out = out
      .replace(/(\[assets\][^[]*?^directory\s*=).*$/m, `$1 ${JSON.stringify(assetsDir)}`)
      .replace(/^\[build\]\n(?:(?!\[).*\n?)*/m, "");
  }
  return out;
}
