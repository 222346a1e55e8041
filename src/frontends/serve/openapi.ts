/**
 * @module
 * The API description served at `/api/openapi.json` (OpenAPI 3.1), written by hand beside the routes;
 * tests/frontends/serve/openapi_test.ts checks that every route the app answers is described.
 */

const ERROR = { $ref: "#/components/schemas/Error" };
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ok = (description: string, schema: unknown = { type: "object" }) => ({
  200: { description, ...json(schema) },
  default: { description: "error", ...json(ERROR) },
});
const body = (schema: unknown) => ({ required: true, ...json(schema) });
const str = { type: "string" };
const id = { name: "id", in: "path", required: true, schema: str };

export const OPENAPI = {
  openapi: "3.1.0",
  info: { title: "Reasonix serve", version: "1" },
  components: {
    schemas: {
      Error: {
        type: "object",
        required: ["code", "message"],
        properties: { code: str, message: str, hint: str },
      },
    },
    securitySchemes: {
      cookie: { type: "apiKey", in: "cookie", name: "reasonix_session" },
      bearer: { type: "http", scheme: "bearer" },
    },
  },
  security: [{ cookie: [] }, { bearer: [] }],
  paths: {
    "/api/auth": {
      get: { summary: "Auth mode and whether this client is logged in", responses: ok("state") },
    },
    "/api/login": {
      post: {
        summary: "Log in with the token or the password; sets the session cookie (rate-limited)",
        requestBody: body({ type: "object", properties: { token: str, password: str } }),
        responses: ok("logged in"),
      },
    },
    "/api/logout": { post: { summary: "Forget this client's session cookie", responses: ok("logged out") } },
    "/api/setup": {
      get: {
        summary: "Provider setup (loopback clients only): whether a key is needed, the providers, each key " +
          "masked to its last four characters",
        responses: ok("setup state"),
      },
      post: {
        summary:
          "Store a provider's key (as `reasonix setup` does; tested first unless `test:false`) and make " +
          "it the default for new sessions (loopback clients only)",
        requestBody: body({
          type: "object",
          required: ["provider"],
          properties: { provider: str, model: str, key: str, test: { type: "boolean" } },
        }),
        responses: ok("saved (the key masked)"),
      },
    },
    "/api/sessions": {
      get: { summary: "This workspace's sessions, open ones first", responses: ok("sessions") },
      post: {
        summary: "Start a session",
        requestBody: body({ type: "object", properties: { model: str } }),
        responses: { 201: { description: "the open session", ...json({ type: "object" }) } },
      },
    },
    "/api/sessions/{id}": {
      parameters: [id],
      get: { summary: "One session", responses: ok("session") },
      patch: {
        summary: "Rename",
        requestBody: body({ type: "object", required: ["title"], properties: { title: str } }),
        responses: ok("renamed"),
      },
      delete: { summary: "Close and delete", responses: { 204: { description: "deleted" } } },
    },
    "/api/sessions/{id}/events": {
      parameters: [id, { name: "after", in: "query", schema: str }],
      get: {
        summary: "Server-sent events: the stored session, then live events; `id:` is the event seq " +
          "(`seq.n` for events without one); send `Last-Event-ID` (or `?after=`) to get exactly what was missed",
        responses: { 200: { description: "event stream", content: { "text/event-stream": {} } } },
      },
    },
    "/api/sessions/{id}/input": {
      parameters: [id],
      post: {
        summary: "What the person typed: a slash command runs and answers (200); text starts a turn (202); " +
          "409 while a turn runs",
        requestBody: body({ type: "object", required: ["text"], properties: { text: str } }),
        responses: ok("command output or turn started"),
      },
    },
    "/api/sessions/{id}/cancel": {
      parameters: [id],
      post: { summary: "Stop the turn", responses: ok("ok") },
    },
    "/api/sessions/{id}/status": {
      parameters: [id],
      get: { summary: "Model, effort, mode, totals", responses: ok("status") },
    },
    "/api/sessions/{id}/usage": {
      parameters: [id],
      get: { summary: "Token and cost totals", responses: ok("totals") },
    },
    "/api/sessions/{id}/pending": {
      parameters: [id],
      get: { summary: "Waiting approvals, questions and the plan (plan mode)", responses: ok("pending") },
    },
    "/api/sessions/{id}/plans/{revision}": {
      parameters: [id, { name: "revision", in: "path", required: true, schema: { type: "integer" } }],
      post: {
        summary: "Answer the waiting plan; 409 plan.stale when that revision is not the one waiting",
        requestBody: body({
          type: "object",
          required: ["decision"],
          properties: { decision: { enum: ["approve", "revise", "reject"] }, feedback: str },
        }),
        responses: ok("answered"),
      },
    },
    "/api/sessions/{id}/approvals/{approvalId}": {
      parameters: [id, { name: "approvalId", in: "path", required: true, schema: str }],
      post: {
        summary: "Answer an approval",
        requestBody: body({
          type: "object",
          required: ["choice"],
          properties: {
            choice: { enum: ["allow_once", "allow_session", "allow_always", "deny"] },
            reason: str,
          },
        }),
        responses: ok("answered"),
      },
    },
    "/api/sessions/{id}/questions/{questionId}": {
      parameters: [id, { name: "questionId", in: "path", required: true, schema: str }],
      post: {
        summary: "Answer the ask tool's questions: `{answers:[{labels,other?}]}` or `{declined:true}`",
        requestBody: body({ type: "object" }),
        responses: ok("answered"),
      },
    },
    "/api/sessions/{id}/models": {
      parameters: [id],
      get: { summary: "Models to switch to", responses: ok("models") },
    },
    "/api/sessions/{id}/model": {
      parameters: [id],
      put: {
        summary: "Switch model",
        requestBody: body({ type: "object", properties: { model: str } }),
        responses: ok("status"),
      },
    },
    "/api/sessions/{id}/effort": {
      parameters: [id],
      put: {
        summary: "Set effort",
        requestBody: body({ type: "object", properties: { effort: str } }),
        responses: ok("status"),
      },
    },
    "/api/sessions/{id}/mode": {
      parameters: [id],
      put: {
        summary: "Permission mode",
        requestBody: body({
          type: "object",
          properties: { mode: { enum: ["ask", "auto", "yolo", "plan"] } },
        }),
        responses: ok("status"),
      },
    },
    "/api/sessions/{id}/checkpoints": {
      parameters: [id],
      get: { summary: "Turns to rewind to", responses: ok("state") },
    },
    "/api/sessions/{id}/rewind": {
      parameters: [id],
      post: {
        summary: "Rewind code, conversation or both to before a turn, or `{undo:true}`",
        requestBody: body({ type: "object" }),
        responses: ok("rewound"),
      },
    },
  },
};
