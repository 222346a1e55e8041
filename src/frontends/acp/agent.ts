/**
 * @module
 * The ACP agent: one Controller per session, booted for the session's `cwd` like every face boots.
 * Requests map onto the Controller; nothing here decides what the agent does.
 */
import { isAbsolute } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { bootController, type BootOptions, type Controller } from "../../control/mod.ts";
import { VERSION } from "../../lib/version.ts";
import { ReasonixError } from "../../lib/errors.ts";
import { AcpSession, type EditorLink } from "./session.ts";
import { configOptions, modeState, setMode, setOption } from "./settings.ts";
import { requestError } from "./errors.ts";
import { availableCommands } from "./commands.ts";
import { registerExtensions, VENDOR_METHODS } from "./extensions.ts";
import { deleteSession, listSessions } from "./listing.ts";
import { editorServers } from "./mcp_servers.ts";
import type { ResponseWatch } from "./response_watch.ts";
import { type ClientFileAccess, clientFiles } from "./client_files.ts";
import { clientTerminal, type ClientTerminalAccess } from "./client_terminal.ts";

export interface AcpOptions {
  /** The launch directory: where `session/list` and `session/delete` look without a cwd. */
  cwd: string;
  /** What every session boots with (the command line's --model, --effort, --permission-mode…). */
  boot: Omit<BootOptions, "cwd" | "headless" | "resume">;
}

/** The open sessions of one connection. */
export class Sessions {
  readonly #open = new Map<string, AcpSession>();
  /** The workspace of each session this connection has seen (opened or listed), for `session/delete`. */
  readonly #cwds = new Map<string, string>();

  cwdOf(id: string): string | undefined {
    return this.#cwds.get(id);
  }

  seen(id: string, cwd: string): void {
    this.#cwds.set(id, cwd);
  }

  get(id: string): AcpSession {
    const session = this.#open.get(id);
    if (!session) throw acp.RequestError.sessionNotFound(id);
    return session;
  }

  has(id: string): boolean {
    return this.#open.has(id);
  }

  add(session: AcpSession): void {
    this.#open.set(session.id, session);
    this.seen(session.id, session.root);
  }

  async close(id: string): Promise<void> {
    const session = this.#open.get(id);
    this.#open.delete(id);
    await session?.close();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#open.keys()].map((id) => this.close(id)));
  }
}

export function initializeResponse(): acp.InitializeResponse {
  return {
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: false, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
      sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {}, additionalDirectories: {} },
      _meta: { "reasonix.io": { version: VERSION, methods: [...VENDOR_METHODS] } },
    },
    agentInfo: { name: "reasonix", title: "Reasonix", version: VERSION },
    authMethods: [],
  };
}

export function acpAgent(options: AcpOptions, sessions: Sessions, watch: ResponseWatch): acp.AgentApp {
  const app = acp.agent({ name: "reasonix" });
  let offered: acp.ClientCapabilities | undefined;
  const peer = (client: acp.AgentContext): Peer => ({
    link: link(client),
    files: clientFiles(client, offered),
    terminal: clientTerminal(client, offered),
  });
  app.onRequest(acp.methods.agent.initialize, ({ params }) => {
    offered = params.clientCapabilities;
    return initializeResponse();
  });
  app.onRequest(acp.methods.agent.authenticate, () => ({}));
  app.onRequest(acp.methods.agent.session.new, async ({ params, client, requestId }) => {
    const session = await openSession(options, params, null, peer(client));
    sessions.add(session);
    await session.attach(false);
    watch.after(requestId, () => announce(session));
    return { sessionId: session.id, ...await settingsOf(session.controller) };
  });
  app.onRequest(acp.methods.agent.session.load, async ({ params, client, requestId }) => {
    await sessions.close(params.sessionId);
    const session = await openSession(options, params, params.sessionId, peer(client));
    sessions.add(session);
    await session.attach(true);
    watch.after(requestId, () => announce(session));
    return await settingsOf(session.controller);
  });
  app.onRequest(acp.methods.agent.session.resume, async ({ params, client, requestId }) => {
    if (sessions.has(params.sessionId)) return await settingsOf(sessions.get(params.sessionId).controller);
    const session = await openSession(options, params, params.sessionId, peer(client));
    sessions.add(session);
    await session.attach(false);
    watch.after(requestId, () => announce(session));
    return await settingsOf(session.controller);
  });
  app.onRequest(acp.methods.agent.session.list, async ({ params }) => {
    const listed = await wrap(() => listSessions(params.cwd ?? options.cwd));
    for (const info of listed) sessions.seen(info.sessionId, info.cwd);
    return { sessions: listed };
  });
  app.onRequest(acp.methods.agent.session.close, async ({ params }) => {
    await sessions.close(params.sessionId);
    return {};
  });
  app.onRequest(acp.methods.agent.session.delete, async ({ params }) => {
    await sessions.close(params.sessionId);
    await wrap(() => deleteSession(sessions.cwdOf(params.sessionId) ?? options.cwd, params.sessionId));
    return {};
  });
  app.onRequest(acp.methods.agent.session.setMode, async ({ params }) => {
    await wrap(() => setMode(sessions.get(params.sessionId).controller, params.modeId));
    return {};
  });
  app.onRequest(acp.methods.agent.session.setConfigOption, async ({ params }) => {
    const session = sessions.get(params.sessionId);
    await wrap(() => setOption(session.controller, params.configId, params.value));
    return { configOptions: await configOptions(session.controller) };
  });
  app.onRequest(
    acp.methods.agent.session.prompt,
    ({ params }) => sessions.get(params.sessionId).prompt(params.prompt),
  );
  app.onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    if (sessions.has(params.sessionId)) sessions.get(params.sessionId).cancel();
  });
  registerExtensions(app, sessions);
  return app;
}

async function wrap<T>(action: () => T | Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    throw requestError(error);
  }
}

function link(client: acp.AgentContext): EditorLink {
  return {
    notify: (update, sessionId) => client.notify(acp.methods.client.session.update, { sessionId, update }),
    requestPermission: (params, signal) =>
      client.request(acp.methods.client.session.requestPermission, params, { cancellationSignal: signal }),
  };
}

async function settingsOf(controller: Controller) {
  return { modes: modeState(controller), configOptions: await configOptions(controller) };
}

/** Sent once the session's response has been written (see response_watch.ts). */
function announce(session: AcpSession): void {
  session.send({ sessionUpdate: "available_commands_update", availableCommands: availableCommands(session) });
  session.controller.start();
}

/** The client as a session uses it: updates and permission requests, and its file access when offered. */
interface Peer {
  link: EditorLink;
  files: ClientFileAccess;
  terminal: ClientTerminalAccess;
}

interface SessionParams {
  cwd: string;
  additionalDirectories?: string[] | undefined;
  mcpServers?: acp.McpServer[] | undefined;
}

async function openSession(
  options: AcpOptions,
  params: SessionParams,
  resume: string | null,
  peer: Peer,
): Promise<AcpSession> {
  const dirs = params.additionalDirectories ?? [];
  for (const dir of [params.cwd, ...dirs]) checkDir(dir);
  const mcpServers = await wrap(() => editorServers(params.mcpServers));
  // An exact id only: a prefix or title match would open (and repair) another session first.
  if (resume !== null && !(await wrap(() => listSessions(params.cwd))).some((s) => s.sessionId === resume)) {
    throw acp.RequestError.sessionNotFound(resume);
  }
  const flags = options.boot.flags ?? {};
  const controller = await wrap(() =>
    bootController({
      ...options.boot,
      cwd: params.cwd,
      headless: false,
      answersQuestions: false,
      switchable: true,
      mcpServers,
      ...(peer.files.files ? { editor: peer.files.files } : {}),
      ...(peer.terminal.terminal ? { terminal: peer.terminal.terminal } : {}),
      flags: { ...flags, addDirs: [...flags.addDirs ?? [], ...dirs] },
      ...(resume === null ? {} : { resume: { kind: "query", query: resume } }),
    })
  );
  if (resume !== null && controller.sessionId !== resume) {
    await controller.close();
    throw acp.RequestError.sessionNotFound(resume);
  }
  peer.files.bind(controller.sessionId);
  const session = new AcpSession(controller, peer.link);
  peer.terminal.bind(session);
  return session;
}

/** An absolute directory this process may write: under the Deno fence, only the launch workspace. */
function checkDir(dir: string): void {
  if (!isAbsolute(dir)) {
    throw requestError(new ReasonixError("usage.bad_cwd", `Cannot open a session in "${dir}": not absolute`));
  }
  if (Deno.permissions.querySync({ name: "write", path: dir }).state === "granted") return;
  throw requestError(
    new ReasonixError(
      "session.outside_fence",
      `Cannot open a session in "${dir}": outside the fenced workspace`,
      {
        hint: "start `reasonix acp` in that directory or with --dir, or set REASONIX_NO_FENCE=1",
      },
    ),
  );
}
