/**
 * A private tmux server (its own -L socket) running one command in a pane, for driving the real
 * TUI: send keys, poll the captured screen until a pattern shows, kill the server when done.
 */
export class TmuxPane {
  readonly socket = `reasonix-tui-${crypto.randomUUID().slice(0, 8)}`;

  async run(...args: string[]): Promise<string> {
    const out = await new Deno.Command("tmux", {
      args: ["-L", this.socket, ...args],
      stdout: "piped",
      stderr: "piped",
    })
      .output();
    return new TextDecoder().decode(out.stdout);
  }

  async start(command: string, columns: number, rows: number): Promise<void> {
    await this.run("new-session", "-d", "-s", "main", "-x", String(columns), "-y", String(rows), command);
  }

  screen(): Promise<string> {
    return this.run("capture-pane", "-p", "-t", "main");
  }

  /** Polls the screen (every 100 ms, at most 60 s overall) until it matches. */
  async waitFor(pattern: RegExp | ((screen: string) => boolean)): Promise<string> {
    const test = typeof pattern === "function" ? pattern : (screen: string) => pattern.test(screen);
    let screen = "";
    for (let i = 0; i < 600; i++) {
      screen = await this.screen();
      if (test(screen)) return screen;
      await new Promise((done) => setTimeout(done, 100));
    }
    throw new Error(`Screen never showed ${pattern}:\n${screen}`);
  }

  async type(text: string): Promise<void> {
    await this.run("send-keys", "-t", "main", "-l", text);
  }

  async keys(...keys: string[]): Promise<void> {
    await this.run("send-keys", "-t", "main", ...keys);
  }

  /** Pastes `text` as a terminal paste: bracketed (`paste-buffer -p`) when the app asked for it. */
  async paste(text: string): Promise<void> {
    await this.run("set-buffer", "-b", "reasonix-paste", "--", text);
    await this.run("paste-buffer", "-p", "-d", "-b", "reasonix-paste", "-t", "main");
  }

  async kill(): Promise<void> {
    await this.run("kill-server");
  }
}

export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}
