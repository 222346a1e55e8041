/**
 * @module
 * What `/` shows before the person is logged in: the password form, or where the token URL is.
 * Embedded as a string, like the UI itself.
 */

export function loginPage(mode: string): string {
  const how = mode === "password"
    ? `<form method="post" action="/api/login"><label>Password <input type="password" name="password" ` +
      `autocomplete="current-password" autofocus></label> <button>Log in</button></form>`
    : "<p>Open the URL <code>reasonix serve</code> printed at start: it carries the token.</p>";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Reasonix</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem}
code{background:#8882;padding:0 .25em;border-radius:3px}</style></head>
<body><h1>Reasonix serve</h1>
${how}
<p>The API is described at <a href="/api/openapi.json"><code>/api/openapi.json</code></a>.</p>
</body></html>
`;
}
