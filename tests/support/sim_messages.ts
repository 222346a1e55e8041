/**
 * @module
 * What the model was sent, read back from the simulator's recorded requests.
 */
import type { DeepSeekSim } from "./deepseek_sim.ts";

/** The contents of the tool messages in request `index` (default: the last), oldest first. */
export function toolResults(sim: DeepSeekSim, index: number = sim.requests.length - 1): string[] {
  const messages = sim.requests[index]!.json.messages as { role: string; content: string }[];
  return messages.filter((message) => message.role === "tool").map((message) => message.content);
}
