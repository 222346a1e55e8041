/**
 * @module
 * The interactive question of `reasonix trust`, asked with @clack/prompts like `reasonix setup`.
 */
import { confirm, isCancel } from "@clack/prompts";

export async function confirmTrust(message: string): Promise<boolean> {
  const answer = await confirm({ message, initialValue: false });
  return !isCancel(answer) && answer === true;
}
