/**
 * The scripted sessions both CLIs run against the simulator. They call read_file, edit_file and bash,
 * which both send as top-level tools, and ls, which both reach through use_capability with the same
 * arguments, so the Go Reasonix and ours do the same work and each pays for its proxy.
 */
import type { ScriptedReply } from "../tests/support/deepseek_sim.ts";

export interface Turn {
  task: string;
  script: ScriptedReply[];
}

export interface Scenario {
  name: string;
  files: Record<string, string>;
  turns: Turn[];
}

function call(name: string, args: Record<string, unknown>, reasoning?: string): ScriptedReply {
  return { ...(reasoning ? { reasoning } : {}), toolCalls: [{ name, arguments: JSON.stringify(args) }] };
}

const exploration: Scenario = {
  name: "3-turn exploration",
  files: {
    "README.md": "# demo\n\nA tiny demo project.\n",
    "src/app.js": "// TODO: greet by name\nconsole.log('hi');\n",
    "src/util.js": "export const twice = (x) => 2 * x;\n",
  },
  turns: [
    {
      task: "look at the project and tell me what it is",
      script: [
        call(
          "use_capability",
          { action: "call", capability_id: "tool:ls", arguments: { path: ".", recursive: true } },
          "List the files first.",
        ),
        call("read_file", { path: "README.md" }, "Read the README."),
        { reasoning: "Enough.", content: "A tiny demo project with an app and a util module." },
      ],
    },
    {
      task: "what does the app do?",
      script: [call("read_file", { path: "src/app.js" }), { content: "It prints hi." }],
    },
    {
      task: "any TODOs?",
      script: [call("bash", { command: "grep -rn TODO src" }), { content: "One: greet by name." }],
    },
  ],
};

const bugFix: Scenario = {
  name: "bug fix with edit and bash",
  files: {
    "package.json": `{"type":"module"}\n`,
    "math.js": "export function add(a, b) {\n  return a - b;\n}\n",
    "test.js":
      `import { add } from "./math.js";\nif (add(2, 3) !== 5) { console.error("FAIL"); process.exit(1); }\n` +
      `console.log("PASS");\n`,
  },
  turns: [{
    task: "fix the failing test",
    script: [
      call("bash", { command: "node test.js" }, "Run the test."),
      call("read_file", { path: "math.js" }, "Look at add."),
      call(
        "edit_file",
        { path: "math.js", old_string: "return a - b;", new_string: "return a + b;" },
        "Fix.",
      ),
      call("bash", { command: "node test.js" }),
      { content: "Fixed: add subtracted. The test passes." },
    ],
  }],
};

function moduleText(i: number): string {
  const lines = [`// module ${i}`];
  for (let n = 0; n < 120; n++) lines.push(`export function f${i}_${n}(x) { return x * ${n} + ${i}; }`);
  return lines.join("\n") + "\n";
}

const longSession: Scenario = {
  name: "20-turn session past 60k tokens",
  files: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`src/mod_${i}.js`, moduleText(i)])),
  turns: Array.from({ length: 20 }, (_, i) => ({
    task: `summarise src/mod_${i}.js`,
    script: [
      call("read_file", { path: `src/mod_${i}.js` }, `Read module ${i}.`),
      { reasoning: "Summarise.", content: `Module ${i} exports 120 small arithmetic functions.` },
    ],
  })),
};

export const SCENARIOS: Scenario[] = [exploration, bugFix, longSession];
