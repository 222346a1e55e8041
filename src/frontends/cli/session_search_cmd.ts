/**
 * @module
 * `reasonix session search QUERY`: the `history` tool's search for a person. Text shows one hit per
 * block with its escaped snippet; `--json` prints `{"schema_version":1,"command":"session.search",…}`.
 */
import { adminContext, type HistoryHit, sessionSearch } from "../../control/mod.ts";
import { escapeControls, terminalSafeJson } from "../../lib/terminal_text.ts";

export async function sessionSearchCmd(
  query: string,
  opts: { dir?: string; json?: boolean; global?: boolean; limit?: number },
): Promise<void> {
  const result = await sessionSearch(await adminContext(opts.dir), query, {
    ...(opts.global ? { global: true } : {}),
    ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
  });
  if (opts.json) {
    const body = { schema_version: 1, command: "session.search", ...result };
    return console.log(terminalSafeJson(JSON.stringify(body)));
  }
  const where = result.scope === "project" ? "this workspace's sessions" : "all sessions and archives";
  const read = `${result.stats.files} file(s) read${result.stats.capped ? ", the oldest left out" : ""}`;
  if (result.terms.length === 0) {
    return console.log(`${quoted(query)} holds only common words, which are not searched`);
  }
  if (result.hits.length === 0) {
    const retry = result.scope === "project"
      ? "fewer or broader words, or --global"
      : "fewer or broader words";
    return console.log(`No match for ${quoted(query)} in ${where} (${read}). Try ${retry}.`);
  }
  const blocks = result.hits.map(render);
  console.log(`${blocks.join("\n\n")}\n\n${result.hits.length} result(s) in ${where} (${read})`);
}

function render(hit: HistoryHit): string {
  const who = hit.tool ? `tool ${hit.tool}` : hit.role;
  const from = hit.origin ? `  from ${hit.origin}` : "";
  const place = hit.workspace ? `  ${hit.workspace}` : "";
  const head = `${hit.session} #${hit.seq}  ${hit.at.slice(0, 19).replace("T", " ")}  ${who}${from}${place}`;
  return `${escapeControls(head)}\n  ${escapeControls(hit.snippet)}`;
}

function quoted(text: string): string {
  return `"${escapeControls(text)}"`;
}
