/**
 * @module
 * What `/` shows until the web UI is built: an honest note and where the API is. Embedded as a
 * string, so `deno compile` carries it and nothing is fetched from a CDN.
 */

export function placeholderPage(authenticated: boolean, mode: string): string {
  const login = authenticated
    ? ""
    : mode === "password"
    ? `<form method="post" action="/api/login"><label>Password <input type="password" name="password" ` +
      `autocomplete="current-password" autofocus></label> <button>Log in</button></form>`
    : mode === "token"
    ? "<p>Open the URL <code>reasonix serve</code> printed at start (it carries the token).</p>"
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Reasonix</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem}
code{background:#8882;padding:0 .25em;border-radius:3px}</style></head>
<body><h1>Reasonix serve</h1>
<p>The built-in web UI is not built yet. The server speaks HTTP and server-sent events: its API is
described at <a href="/api/openapi.json"><code>/api/openapi.json</code></a> (see docs/SERVE.md).</p>
${login}
</body></html>
`;
}
