/**
 * A scripted model for goal-mode tests: a simulator responder that reads the goal id and revision from
 * the host's note in the conversation (as a real model would) and answers each goal turn with what the
 * test's plan says. Goal mode runs under verified delivery, so a "write" turn does what the gates ask:
 * an acceptance list (todo_write), the change, a passing check, complete_step citing it, then the answer.
 */
import type { RecordedRequest, Responder, ScriptedReply } from "./deepseek_sim.ts";

export type GoalMove = "write" | "idle" | "complete" | "blocked" | "ask";

interface Message {
  role: string;
  content: string | null;
}

const ANSWER: ScriptedReply = { reasoning: "over", content: "Turn over." };

/** A check verified delivery accepts that passes in any workspace (printing the file would not count). */
const CHECK = "deno test --permit-no-files";

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

function proxied(name: string, args: Record<string, unknown>): ScriptedReply {
  return call("use_capability", { action: "call", capability_id: `tool:${name}`, arguments: args });
}

function writeStep(turn: number, step: number): ScriptedReply {
  const file = `out${turn}.txt`;
  const steps = [
    () => call("todo_write", { todos: [{ content: `Write ${file}`, status: "in_progress" }] }),
    () => call("write_file", { path: file, content: `turn ${turn}\n` }),
    () => call("bash", { command: CHECK }),
    () =>
      proxied("complete_step", {
        summary: `Wrote ${file}`,
        evidence: "verification",
        command: CHECK,
      }),
  ];
  return steps[step]?.() ?? ANSWER;
}

function askStep(step: number): ScriptedReply {
  if (step > 0) return ANSWER;
  return call("ask", {
    questions: [{
      header: "Which",
      question: "Which database should it use?",
      options: [{ label: "sqlite" }, { label: "postgres" }],
    }],
  });
}

/** `moves(turn)` picks each goal turn's move (turn counts from 1, per goal-mode user message). */
export function goalModel(moves: (turn: number) => GoalMove): Responder {
  return (request) => {
    const messages = request.json.messages as Message[];
    const notes = messages.flatMap((m, i) =>
      m.role === "user" && m.content?.includes("[goal mode]") ? [i] : []
    );
    const goal = goalNamed(request);
    if (!goal || notes.length === 0) return { reasoning: "think", content: "Still thinking about it." };
    const turn = notes.length;
    const step = messages.slice(notes.at(-1)! + 1).filter((m) => m.role === "assistant").length;
    const move = moves(turn);
    if (move === "idle") {
      return step === 0 ? { reasoning: "think", content: "Still thinking about it." } : ANSWER;
    }
    if (move === "write") return writeStep(turn, step);
    if (move === "ask") return askStep(step);
    if (step > 0) return ANSWER;
    const args: Record<string, unknown> = { goal_id: goal.id, revision: goal.revision, action: move };
    if (move === "blocked") args.blocked_reason = "needs the staging password";
    return proxied("update_goal", args);
  };
}
