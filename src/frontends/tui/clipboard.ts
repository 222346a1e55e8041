/**
 * @module
 * `/copy` on the terminal side: the OSC 52 sequence that tmux (with set-clipboard), iTerm2, kitty,
 * WezTerm and Windows Terminal turn into a clipboard write.
 */
import { Buffer } from "node:buffer";

/** The OSC 52 "set clipboard" sequence for `text`. */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
}
