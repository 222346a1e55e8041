/**
 * @module
 * The web UI's page and stylesheet, embedded as strings so `deno compile` carries them and nothing is
 * fetched from a CDN (the UI works offline). The script is in `app_js.ts`.
 */

export const INDEX_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Reasonix</title><link rel="stylesheet" href="/ui/style.css"></head>
<body>
<aside id="side">
  <header><strong>Reasonix</strong> <button id="new" title="Start a session">+ New</button></header>
  <ul id="sessions"></ul>
  <footer><a href="/api/openapi.json">API</a> · <button id="provider" class="link">Provider</button> ·
    <button id="logout" class="link">Log out</button></footer>
</aside>
<main>
  <div id="bar">
    <span id="title">No session</span>
    <label>Model <select id="model"></select></label>
    <label>Effort <select id="effort">
      <option>auto</option><option>disabled</option><option>low</option><option>high</option><option>max</option>
    </select></label>
    <label>Mode <select id="mode"><option>ask</option><option>auto</option><option>yolo</option><option>plan</option></select></label>
    <span id="figures"></span>
    <button id="rewind" title="Rewind to before a turn">Rewind</button>
  </div>
  <div id="log" aria-live="polite"></div>
  <form id="composer">
    <textarea id="input" rows="3" placeholder="Ask, or type a /command (Enter sends, Shift+Enter is a new line)"></textarea>
    <div><button id="send" type="submit">Send</button> <button id="cancel" type="button">Stop</button></div>
  </form>
</main>
<section id="setup" hidden aria-label="Provider setup">
  <form id="setup-form" class="card">
    <h2>Provider setup</h2>
    <p id="setup-why" class="note"></p>
    <label>Provider <select id="setup-provider"></select></label>
    <label>Model <select id="setup-model"></select></label>
    <label>API key <input id="setup-key" type="password" autocomplete="off" spellcheck="false"></label>
    <small id="setup-current" class="note"></small>
    <label class="inline"><input id="setup-test" type="checkbox" checked> Test the key with one tiny request</label>
    <div><button id="setup-save" type="submit">Save</button> <button id="setup-close" type="button">Close</button></div>
    <p id="setup-result" class="note" role="status"></p>
  </form>
</section>
<script src="/ui/vendor.js"></script>
<script src="/ui/markdown.js"></script>
<script src="/ui/app.js"></script>
<script src="/ui/setup.js"></script>
</body></html>
`;

export const STYLE_CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1f;--muted:#6b6b76;--line:#8884;--card:#8881;--accent:#2f6fde;
--ok:#1a7f37;--bad:#c62828}
@media (prefers-color-scheme:dark){:root{--bg:#16161a;--fg:#e6e6ea;--muted:#9a9aa6;--accent:#7aa7ff}}
*{box-sizing:border-box}
body{margin:0;display:flex;height:100vh;font:14px/1.5 system-ui,sans-serif;background:var(--bg);color:var(--fg)}
aside{width:16rem;border-right:1px solid var(--line);display:flex;flex-direction:column}
aside header,aside footer{padding:.6rem;display:flex;gap:.5rem;align-items:center;justify-content:space-between}
aside footer{margin-top:auto;font-size:12px;color:var(--muted)}
#sessions{list-style:none;margin:0;padding:0;overflow:auto}
#sessions li{padding:.45rem .6rem;cursor:pointer;border-bottom:1px solid var(--line)}
#sessions li.current{background:var(--card);border-left:3px solid var(--accent)}
#sessions small{display:block;color:var(--muted)}
main{flex:1;display:flex;flex-direction:column;min-width:0}
#bar{display:flex;flex-wrap:wrap;gap:.8rem;align-items:center;padding:.5rem .8rem;border-bottom:1px solid var(--line)}
#title{font-weight:600;margin-right:auto}
#figures{color:var(--muted);font-size:12px}
#log{flex:1;overflow:auto;padding:1rem}
.turn{margin:1rem 0 .4rem;padding:.5rem .7rem;background:var(--card);border-radius:6px;white-space:pre-wrap}
.answer{margin:.3rem 0}
.answer pre,.out pre,.tool pre{background:#8882;padding:.5rem;border-radius:4px;overflow:auto}
code{font-family:ui-monospace,monospace;font-size:13px}
.hljs-comment,.hljs-quote{color:var(--muted);font-style:italic}
.hljs-string,.hljs-regexp,.hljs-symbol{color:#b35a1f}.hljs-number,.hljs-literal{color:#1a7f37}
.hljs-keyword,.hljs-selector-tag,.hljs-built_in{color:#7c3aed;font-weight:600}
.hljs-title,.hljs-section,.hljs-attr,.hljs-property{color:var(--accent)}.hljs-meta,.hljs-type{color:#b7791f}
.hljs-addition{color:var(--ok)}.hljs-deletion{color:var(--bad)}
.answer table{border-collapse:collapse}.answer th,.answer td{border:1px solid var(--line);padding:.2rem .5rem}
.answer blockquote{margin:.3rem 0;padding-left:.7rem;border-left:3px solid var(--line);color:var(--muted)}
.answer a{color:var(--accent)}
details.thinking{color:var(--muted);margin:.3rem 0}
.tool{border:1px solid var(--line);border-radius:6px;margin:.4rem 0;padding:.3rem .6rem;font-size:13px}
.tool .name{font-weight:600}.tool.ok .status{color:var(--ok)}.tool.failed .status{color:var(--bad)}
.diff .add{color:var(--ok)}.diff .del{color:var(--bad)}
.card{border:2px solid var(--accent);border-radius:8px;padding:.6rem .8rem;margin:.6rem 0}
.card.done{border-color:var(--line);opacity:.75}
.card button{margin:.3rem .3rem 0 0}
.note{color:var(--muted);font-size:13px;margin:.2rem 0}.warn{color:var(--bad)}
.out{font-size:13px}
#composer{border-top:1px solid var(--line);padding:.6rem;display:flex;gap:.5rem}
#composer textarea{flex:1;font:inherit;padding:.4rem;background:transparent;color:inherit;border:1px solid var(--line);border-radius:6px}
button{font:inherit;cursor:pointer}button.link{background:none;border:none;color:var(--accent);padding:0}
.busy #send{opacity:.5}
#setup{position:fixed;inset:0;background:#0006;display:flex;align-items:center;justify-content:center}
#setup[hidden]{display:none}
#setup form{background:var(--bg);width:min(34rem,92vw);display:flex;flex-direction:column;gap:.5rem}
#setup h2{margin:0;font-size:1.1rem}#setup label{display:flex;flex-direction:column;gap:.2rem}
#setup label.inline{flex-direction:row;align-items:center}
#setup input,#setup select{font:inherit;padding:.3rem}
`;
