/** Types of web/build.mjs for the TypeScript files that import it (vitest configurations). */
export declare const WEB_DIST: string;
export declare function buildWeb(): Promise<string>;
