/**
 * @module
 * The version has one source of truth: deno.json. Build metadata is stamped by the release pipeline.
 */
import manifest from "../../deno.json" with { type: "json" };

export const VERSION: string = manifest.version;
