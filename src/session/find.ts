/**
 * @module
 * What `--resume QUERY` names: a path, an id or unique id prefix of this workspace's sessions, or a
 * unique piece of a title or first message; an id that belongs to another workspace is named as such.
 */
import { join } from "node:path";
import { ReasonixError } from "../lib/errors.ts";
import { workspaceDir } from "./_paths.ts";
import { listWorkspaceSessions } from "./listing.ts";
import { findSession } from "./resume.ts";
import { loadSession } from "./store.ts";

const AMBIGUOUS_SHOWN = 5;

export async function findSessionQuery(
  sessionsDir: string,
  workspace: string,
  query: string,
): Promise<string> {
  try {
    return await findSession(sessionsDir, workspace, query);
  } catch (error) {
    if (!(error instanceof ReasonixError) || error.code !== "session.not_found" || query.trim() === "") {
      throw error;
    }
    const byText = await findByText(sessionsDir, workspace, query.trim());
    if (byText !== undefined) return byText;
    await refuseOtherWorkspace(sessionsDir, workspace, query.trim());
    throw error;
  }
}

async function findByText(
  sessionsDir: string,
  workspace: string,
  query: string,
): Promise<string | undefined> {
  const needle = query.toLowerCase();
  const matches = (await listWorkspaceSessions(sessionsDir, workspace)).filter((session) =>
    [session.title, session.firstMessage].some((text) => text?.toLowerCase().includes(needle))
  );
  if (matches.length <= 1) return matches[0]?.file;
  const shown = matches.slice(0, AMBIGUOUS_SHOWN).map((s) => `"${s.id}" (${s.title ?? s.firstMessage})`);
  throw new ReasonixError(
    "session.ambiguous",
    `Cannot pick session "${query}": ${matches.length} sessions match (${shown.join(", ")}${
      matches.length > AMBIGUOUS_SHOWN ? ", ..." : ""
    })`,
    { hint: "Pass an id, or more of the title" },
  );
}

/** An id typed in the wrong directory: say whose it is rather than "not found". */
async function refuseOtherWorkspace(sessionsDir: string, workspace: string, query: string): Promise<void> {
  const own = workspaceDir(sessionsDir, workspace);
  let dirs: string[] = [];
  try {
    dirs = [...Deno.readDirSync(sessionsDir)].filter((e) => e.isDirectory).map((e) =>
      join(sessionsDir, e.name)
    );
  } catch {
    return;
  }
  for (const dir of dirs.filter((d) => d !== own)) {
    let names: string[];
    try {
      names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".jsonl"));
    } catch {
      continue;
    }
    const name = names.find((n) => n.startsWith(query));
    if (name === undefined) continue;
    const header = await loadSession(join(dir, name)).then((s) => s.header, () => undefined);
    if (header === undefined) continue;
    throw new ReasonixError(
      "session.other_workspace",
      `Cannot resume session "${header.id}" here: it belongs to workspace "${header.workspace}"`,
      { hint: `Run from that directory, or pass --dir "${header.workspace}"` },
    );
  }
}
