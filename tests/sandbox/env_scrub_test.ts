import assert from "node:assert/strict";
import { scrubEnv } from "../../src/sandbox/env.ts";

const STRIPPED: Record<string, string> = {
  PGPASSWORD: "pw",
  MYSQL_PWD: "pw",
  DATABASE_URL: "postgres://u:pw@db.example.com/app",
  TOKEN: "t",
  APIKEY: "k",
  SECRET: "s",
  SENTRY_DSN: "https://abc@o1.ingest.sentry.io/1",
  SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T/B/X",
  GITHUB_TOKEN: "ghp_x",
  AWS_SECRET_ACCESS_KEY: "x",
  AWS_SESSION_TOKEN: "x",
  AWS_ACCESS_KEY_ID: "AKIAABCDEFGHIJKLMNOP",
  NPM_TOKEN: "x",
  GPG_PASSPHRASE: "x",
  SIGNING_PRIVATE_KEY: "x",
  REGISTRY_AUTH: "x",
  GOOGLE_APPLICATION_CREDENTIALS: "/k.json",
  SERVICE_CREDENTIAL: "x",
  SITE_COOKIE: "x",
  APP_SESSION: "x",
  SSH_AUTH_SOCK: "/run/user/0/ssh-agent",
  DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/0/bus",
  OPENAI_API_KEY: "x",
  GH_PAT: "x",
  "npm_config_//registry.npmjs.org/:_authToken": "x",
  clientSecret: "x",
  REDIS_URL: "redis://:hunter2@cache:6379/0",
  HTTP_PROXY: "http://me:pw@proxy:3128",
  EXTRA_HEADERS: "Authorization: Bearer abcdefghijklmnop",
  CALLBACK: "https://api.example.com/hook?token=abc",
  PLAIN_NAME: "sk-abcdefghijklmnopqrstuvwx",
  CI_JOB_JWT: "x",
  LOGIN: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig",
  KEY_PEM: "-----BEGIN RSA PRIVATE KEY-----\nMII",
};

const KEPT: Record<string, string> = {
  PATH: "/usr/bin:/bin",
  HOME: "/home/u",
  LANG: "C.UTF-8",
  TERM: "xterm-256color",
  USER: "u",
  SHELL: "/bin/bash",
  PWD: "/work/ws",
  OLDPWD: "/work",
  EDITOR: "vim",
  GOPATH: "/home/u/go",
  CARGO_HOME: "/home/u/.cargo",
  NODE_ENV: "production",
  KEYBOARD_LAYOUT: "us",
  COMPASS_HOME: "/opt/compass",
  GIT_ASKPASS: "/usr/bin/ask",
  XDG_SESSION_TYPE: "tty",
  HOMEPAGE: "https://example.com/docs?page=2",
  DOCS_URL: "https://user@example.com/",
  NO_PROXY: "localhost",
};

Deno.test("scrubEnv() strips every variable whose name or value looks like a credential", () => {
  const clean = scrubEnv({ ...STRIPPED, ...KEPT }, []);
  for (const name of Object.keys(STRIPPED)) assert.equal(clean[name], undefined, `${name} reached the child`);
  assert.deepEqual(clean, KEPT);
});

Deno.test("scrubEnv() passes names on the allow-list, but never a provider key or a .env name", () => {
  const env = {
    GITHUB_TOKEN: "ghp_x",
    DATABASE_URL: "postgres://u:pw@h/db",
    DEEPSEEK_API_KEY: "sk",
    MINE: "1",
  };
  const clean = scrubEnv(env, ["DEEPSEEK_API_KEY", "MINE"], [
    "GITHUB_TOKEN",
    "DATABASE_URL",
    "DEEPSEEK_API_KEY",
  ]);
  assert.deepEqual(clean, { GITHUB_TOKEN: "ghp_x", DATABASE_URL: "postgres://u:pw@h/db" });
});
