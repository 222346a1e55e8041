/**
 * A scripted model for goal-mode tests: a simulator responder that reads the goal id and revision from
 * the host's note in the conversation (as a real model would) and answers each goal turn with what the
 * test's plan says: write a file, do nothing, complete or block through `update_goal`.
 */
import type { RecordedRequest, Responder, ScriptedReply } from "./deepseek_sim.ts";

export type GoalMove = "write" | "idle" | "complete" | "blocked" | "ask";

interface Message {
  role: string;
  content: string | null;
}

/** The latest `goal "<id>" (revision <n>)` the host wrote into the conversation. */
export function goalNamed(request: RecordedRequest): { id: string; revision: number } | null {
  const messages = request.json.messages as Message[];
  for (let i = messages.length - 1; i >= 0; i--) {
    const match = /goal "(g[0-9a-f]+)" \(revision (\d+)\)/.exec(messages[i]!.content ?? "");
    if (match) return { id: match[1]!, revision: Number(match[2]) };
  }
  return null;
}

function call(name: string, args: Record<string, unknown>): ScriptedReply {
  return { reasoning: "act", toolCalls: [{ name, arguments: JSON.stringify(args) }] };
}

/** `moves(turn)` picks each goal turn's move (turn counts from 1, per goal-mode user message). */
export function goalModel(moves: (turn: number) => GoalMove): Responder {
  return (request) => {
    const messages = request.json.messages as Message[];
    const last = messages[messages.length - 1]!;
    if (last.role !== "user") return { reasoning: "done", content: "Turn done." };
    const turn = messages.filter((m) => m.role === "user" && m.content?.includes("[goal mode]")).length;
    const goal = goalNamed(request);
    const move = goal ? moves(turn) : "idle";
    if (move === "idle" || !goal) return { reasoning: "think", content: "Still thinking about it." };
    if (move === "write") return call("write_file", { path: `out${turn}.txt`, content: `turn ${turn}\n` });
    if (move === "ask") {
      return call("ask", {
        questions: [{
          header: "Which",
          question: "Which database should it use?",
          options: [{ label: "sqlite" }, { label: "postgres" }],
        }],
      });
    }
    const args: Record<string, unknown> = { goal_id: goal.id, revision: goal.revision, action: move };
    if (move === "blocked") args.blocked_reason = "needs the staging password";
    return call("use_capability", { action: "call", capability_id: "tool:update_goal", arguments: args });
  };
}
