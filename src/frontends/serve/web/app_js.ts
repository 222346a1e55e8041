/**
 * @module
 * The web UI's script (plain JavaScript, no build step, no CDN): the session list, a chat view that
 * renders the stored session and then streams it (an EventSource, which reconnects with
 * Last-Event-ID by itself), approval and question cards, model/effort/mode pickers, cache and cost,
 * rewind. Everything from the model or a repository is inserted as text, or (answers) as Markdown
 * sanitised by markdown.js.
 */

export const APP_JS = String.raw`"use strict";
(function () {
  var $ = function (s) { return document.querySelector(s); };
  var state = { id: null, source: null, answer: null, thinking: null, tools: {}, cards: {}, asked: {}, figures: null };

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function api(path, method, body) {
    var init = { method: method || "GET", credentials: "same-origin", headers: {} };
    if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch("/api" + path, init).then(function (response) {
      if (response.status === 401) location.href = "/";
      if (response.status === 204) return {};
      return response.json().then(function (json) {
        if (!response.ok) throw json;
        return json;
      });
    });
  }

  // Markdown to sanitised, highlighted HTML: markdown.js (marked, highlight.js, DOMPurify).
  function markdown(source) { return window.reasonixMarkdown(source); }

  // Deltas arrive faster than a page paints: the answer is parsed again at most once a frame.
  function paintAnswer(answer) {
    if (answer.pending) return;
    answer.pending = true;
    requestAnimationFrame(function () {
      answer.pending = false;
      answer.innerHTML = markdown(answer.raw);
    });
  }

  function sid() { return encodeURIComponent(state.id); }
  function log() { return $("#log"); }
  function add(node) {
    var box = log();
    var atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
    box.appendChild(node);
    if (atEnd) box.scrollTop = box.scrollHeight;
    return node;
  }
  function note(text, cls) { add(el("div", "note " + (cls || ""), text)); }

  function render(event) {
    var handler = HANDLERS[event.type];
    if (handler) handler(event);
  }

  var HANDLERS = {
    session_started: function (e) {
      if (e.redraw) clear();
      if (e.sessionId !== state.id) { state.id = e.sessionId; loadSessions(); }
      state.figures = e.figures || null;
      $("#title").textContent = e.model + " · " + e.sessionId.slice(0, 8);
    },
    turn_started: function (e) { endAnswer(); add(el("div", "turn", e.text)); },
    reasoning: function (e) {
      if (!state.thinking) {
        state.thinking = add(el("details", "thinking"));
        state.thinking.appendChild(el("summary", "", "thinking"));
        state.thinking.appendChild(el("div"));
      }
      state.thinking.lastChild.textContent += e.text;
    },
    text: function (e) {
      if (!state.answer) { state.answer = add(el("div", "answer")); state.answer.raw = ""; }
      state.answer.raw += e.text;
      paintAnswer(state.answer);
    },
    message: function (e) {
      // A client that connected mid-answer missed its first deltas: the record holds the whole text.
      if (state.answer && e.message.content) state.answer.raw = e.message.content;
      if (state.answer) paintAnswer(state.answer);
      endAnswer();
    },
    tool_call: function (e) {
      endAnswer();
      var card = add(el("div", "tool"));
      card.appendChild(el("span", "name", e.name + " "));
      card.appendChild(el("code", "", shortArgs(e.arguments)));
      card.appendChild(el("span", "status", " …"));
      state.tools[e.callId] = card;
    },
    tool_progress: function (e) {
      var card = state.tools[e.callId];
      var status = card && card.querySelector(".status");
      if (!status) return;
      var count = typeof e.progress === "number" ? " " + e.progress + (typeof e.total === "number" ? "/" + e.total : "") : "";
      status.textContent = count + (e.message ? " · " + e.message : "") || " …";
    },
    tool_result: function (e) {
      var card = state.tools[e.callId] || add(el("div", "tool"));
      card.className = "tool " + (e.ok ? "ok" : "failed");
      card.querySelector(".status") && (card.querySelector(".status").textContent = e.ok ? " ✓" : " ✗");
      var body = el("details");
      body.appendChild(el("summary", "", e.ok ? "output" : "error"));
      body.appendChild(toolBody(e));
      card.appendChild(body);
    },
    approval_requested: approvalCard,
    approval_resolved: function (e) { settle("approval", e.id, e); },
    question_asked: questionCard,
    question_resolved: function (e) { settle("question", e.id, e); },
    plan_proposed: planCard,
    plan_resolved: function (e) {
      settle("plan", "plan-" + e.plan.revision, e);
      // The mode an approval set may be long gone (a replayed plan): ask for the current one.
      if (e.mode) api("/sessions/" + sid() + "/status").then(showStatus).catch(function () {});
    },
    command_output: function (e) {
      var out = add(el("div", "out"));
      out.appendChild(e.format === "diff" ? diffView(e.text) : el("pre", "", e.text));
    },
    notice: function (e) { note(e.message); },
    goal_updated: function (e) {
      var g = e.goal;
      note("goal " + g.status + " · turns " + g.turns + "/" + g.budget + " · tokens " + g.tokens +
        (g.stopCause ? " · " + g.stopCause : "") + " · " + g.objective);
    },
    subagent: function (e) {
      if (e.phase === "tool" || e.phase === "spent") return;
      var what = e.phase === "started" ? "started: " + e.description : (e.ok ? "done: " : "failed: ") + (e.preview || "");
      note("subagent " + e.sessionId + " " + what, e.ok === false ? "warn" : undefined);
    },
    warning: function (e) { note(e.message, "warn"); },
    retrying: function (e) { note("retrying (" + e.attempt + "/" + e.maxAttempts + "): " + e.reason); },
    compaction: function (e) { note("compacted " + e.beforeTokens + " → " + e.afterTokens + " tokens"); },
    usage: function (e) {
      var cost = e.cost === null ? "" : " · " + e.cost.toFixed(4) + " " + (e.currency || "");
      $("#figures").textContent = "cache hit " + Math.round(e.hitRatio * 100) + "%" + cost;
    },
    turn_done: function (e) {
      endAnswer();
      document.body.classList.remove("busy");
      if (e.subtype !== "success") note(e.error ? e.error.message : e.result, "warn");
      // Once after a burst (a replayed session ends many turns at once): the list shows titles and turns.
      clearTimeout(state.relist);
      state.relist = setTimeout(function () { loadSessions().catch(function () {}); }, 300);
    },
  };

  function endAnswer() { state.answer = null; state.thinking = null; }
  function shortArgs(text) { return text.length > 160 ? text.slice(0, 160) + "…" : text; }

  function toolBody(e) {
    if (e.data && e.data.kind === "diff") return diffView(e.output);
    return el("pre", "", e.output.length > 4000 ? e.output.slice(0, 4000) + "\n…" : e.output);
  }
  function diffView(text) {
    var pre = el("pre", "diff");
    text.split("\n").forEach(function (line) {
      var cls = /^\+(?!\+\+)/.test(line) ? "add" : /^-(?!--)/.test(line) ? "del" : "";
      pre.appendChild(el("div", cls, line));
    });
    return pre;
  }

  // An answered card goes and leaves a line saying what was asked and how it was answered, the same live
  // and replayed: a replayed answer carries what was asked (no card came before it); a live one finds what
  // its card kept in state.asked. The line is text, never markup.
  function settle(kind, id, e) {
    var card = state.cards[id];
    if (card) card.remove();
    delete state.cards[id];
    var asked = state.asked[id] || {};
    delete state.asked[id];
    var line = SETTLED[kind](e, asked);
    note(line.text, "settled " + kind + (line.warn ? " warn" : ""));
  }

  var SETTLED = {
    approval: function (e, asked) {
      var subject = e.subject !== undefined ? e.subject : asked.subject;
      var verb = e.cancelled ? "unanswered" : e.choice === "deny" ? "denied"
        : e.choice === "allow_once" ? "allowed" : e.choice === "allow_session" ? "allowed for the session" : "always allowed";
      var text = verb + ": " + (e.tool || asked.tool || "tool") + (subject ? " " + subject : "");
      return { text: text + (e.reason ? " (" + e.reason + ")" : ""), warn: e.choice === "deny" };
    },
    question: function (e, asked) {
      var verb = e.outcome === "answered" || e.outcome === "declined" ? e.outcome : "unanswered";
      var asks = (e.questions || asked.questions || []).map(function (q, i) {
        var answer = e.answers && e.answers[i];
        return q.header + ": " + q.question + (answer ? " → " + answerText(answer) : "");
      });
      return { text: verb + ": " + (asks.join(" · ") || "question"), warn: verb === "unanswered" };
    },
    plan: function (e) {
      var text = "plan revision " + e.plan.revision + ": " + e.outcome + (e.mode ? " · mode " + e.mode : "");
      return { text: text + " — " + e.plan.summary + (e.feedback ? " (" + e.feedback + ")" : ""), warn: false };
    },
  };

  function answerText(answer) {
    var said = answer.labels.slice();
    if (answer.other) said.push("\u201c" + answer.other + "\u201d");
    return said.join(", ");
  }

  function approvalCard(e) {
    var r = e.request;
    state.asked[r.id] = { tool: r.tool, subject: r.subject };
    var card = add(el("div", "card"));
    var who = r.agent ? "Subagent \u201c" + r.agent + "\u201d asks: allow " : "Allow ";
    card.appendChild(el("strong", "", who + r.tool + "?"));
    if (r.subject) card.appendChild(el("code", "", r.subject));
    if (r.preview) {
      card.appendChild(el("div", "note", r.preview.kind + " " + r.preview.path));
      card.appendChild(el("pre", "", (r.preview.newText || "").slice(0, 4000)));
    }
    [["allow_once", "Allow once"], ["allow_session", "Allow this session"], ["allow_always", "Always"], ["deny", "Deny"]]
      .forEach(function (pair) {
        var button = el("button", "", pair[1]);
        button.onclick = function () {
          api("/sessions/" + sid() + "/approvals/" + r.id, "POST", { choice: pair[0] }).catch(showError);
        };
        card.appendChild(button);
      });
    state.cards[r.id] = card;
  }

  // The answer names the revision shown: the server refuses it (409) once a newer plan replaced it.
  function planCard(e) {
    var p = e.plan;
    var card = add(el("div", "card"));
    card.appendChild(el("strong", "", "Plan · revision " + p.revision));
    card.appendChild(el("div", "", p.summary));
    var list = card.appendChild(el("ol"));
    p.steps.forEach(function (step) { list.appendChild(el("li", "", step.content + (step.detail ? " — " + step.detail : ""))); });
    var feedback = el("input");
    feedback.placeholder = "What should change? (for Revise)";
    card.appendChild(feedback);
    ["approve", "revise", "reject"].forEach(function (decision) {
      var button = el("button", "", decision[0].toUpperCase() + decision.slice(1));
      button.onclick = function () {
        var body = { decision: decision };
        if (feedback.value.trim()) body.feedback = feedback.value;
        api("/sessions/" + sid() + "/plans/" + p.revision, "POST", body).catch(showError);
      };
      card.appendChild(button);
    });
    state.cards["plan-" + p.revision] = card;
  }

  function questionCard(e) {
    state.asked[e.id] = { questions: e.questions };
    var card = add(el("form", "card"));
    var picks = e.questions.map(function (q, qi) {
      var field = el("fieldset");
      field.appendChild(el("legend", "", q.header + ": " + q.question));
      q.options.forEach(function (option) {
        var label = el("label");
        var input = el("input");
        input.type = q.multiSelect ? "checkbox" : "radio";
        input.name = "q" + qi;
        input.value = option.label;
        label.appendChild(input);
        label.appendChild(document.createTextNode(" " + option.label + (option.description ? " — " + option.description : "")));
        field.appendChild(label);
        field.appendChild(el("br"));
      });
      card.appendChild(field);
      return field;
    });
    var send = el("button", "", "Answer");
    send.type = "submit";
    var decline = el("button", "", "Decline");
    decline.type = "button";
    card.appendChild(send);
    card.appendChild(decline);
    card.onsubmit = function (ev) {
      ev.preventDefault();
      var answers = picks.map(function (field) {
        return { labels: Array.prototype.map.call(field.querySelectorAll("input:checked"), function (i) { return i.value; }) };
      });
      api("/sessions/" + sid() + "/questions/" + e.id, "POST", { answers: answers }).catch(showError);
    };
    decline.onclick = function () {
      api("/sessions/" + sid() + "/questions/" + e.id, "POST", { declined: true }).catch(showError);
    };
    state.cards[e.id] = card;
  }

  function showError(error) {
    note((error && error.message) || String(error), "warn");
    // No key for the model: the setup panel (setup.js) offers to store one.
    if (error && error.code === "config.missing_key") document.dispatchEvent(new CustomEvent("reasonix:need-setup"));
  }

  function clear() {
    log().textContent = "";
    state.tools = {};
    state.cards = {};
    state.asked = {};
    endAnswer();
  }

  function open(id) {
    if (state.source) state.source.close();
    clear();
    state.id = id;
    markCurrent();
    // EventSource reconnects by itself with Last-Event-ID: the server replays exactly what was missed.
    state.source = new EventSource("/api/sessions/" + encodeURIComponent(id) + "/events");
    state.source.onmessage = function (message) { render(JSON.parse(message.data)); };
    // On every (re)connection: after a server restart the turn this page saw running is over.
    state.source.onopen = function () {
      api("/sessions/" + encodeURIComponent(id) + "/status").then(showStatus).catch(showError);
    };
    api("/sessions/" + encodeURIComponent(id) + "/models").then(function (m) {
      var select = $("#model");
      select.textContent = "";
      m.models.forEach(function (choice) {
        var option = el("option", "", choice.ref);
        option.selected = choice.current;
        select.appendChild(option);
      });
    }).catch(function () {});
  }

  function showStatus(s) {
    $("#effort").value = s.effort;
    $("#mode").value = s.mode;
    document.body.classList.toggle("busy", s.busy);
  }

  function markCurrent() {
    Array.prototype.forEach.call(document.querySelectorAll("#sessions li"), function (li) {
      li.classList.toggle("current", li.dataset.id === state.id);
    });
  }

  function loadSessions() {
    return api("/sessions").then(function (list) {
      var ul = $("#sessions");
      ul.textContent = "";
      list.sessions.forEach(function (s) {
        var li = el("li", "", s.title || s.firstMessage || "(new session)");
        li.dataset.id = s.id;
        li.appendChild(el("small", "", (s.turns || 0) + " turns · " + (s.modifiedAt || "open").slice(0, 16)));
        li.onclick = function () { open(s.id); };
        ul.appendChild(li);
      });
      markCurrent();
      return list.sessions;
    });
  }

  function send(text) {
    if (!state.id) return newSession().then(function () { return send(text); });
    document.body.classList.add("busy");
    return api("/sessions/" + sid() + "/input", "POST", { text: text }).then(function (result) {
      if (result.kind !== "turn") document.body.classList.remove("busy");
    }).catch(function (error) {
      document.body.classList.remove("busy");
      showError(error);
    });
  }

  function newSession() {
    return api("/sessions", "POST", {}).then(function (s) { open(s.id); return loadSessions(); });
  }

  function setting(path, body) {
    if (!state.id) return;
    api("/sessions/" + sid() + path, "PUT", body).then(function (s) {
      if (s.id !== state.id) open(s.id);
      else showStatus(s);
    }).catch(showError);
  }

  function rewind() {
    api("/sessions/" + sid() + "/checkpoints").then(function (c) {
      if (!c.turns.length) return note("Nothing to rewind to");
      var list = c.turns.map(function (t) { return t.turn + ": " + t.prompt.slice(0, 60); }).join("\n");
      var turn = Number(prompt("Rewind code and conversation to before turn:\n" + list));
      if (!turn) return;
      return api("/sessions/" + sid() + "/rewind", "POST", { turn: turn, scope: "both" }).then(function (r) {
        note(r.status === "done" ? "rewound to before turn " + turn : "files changed outside Reasonix: " + r.files.join(", "));
      });
    }).catch(showError);
  }

  $("#composer").onsubmit = function (ev) {
    ev.preventDefault();
    var text = $("#input").value;
    if (!text.trim()) return;
    $("#input").value = "";
    send(text);
  };
  $("#input").onkeydown = function (ev) {
    if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
      ev.preventDefault();
      $("#composer").requestSubmit();
    }
  };
  $("#cancel").onclick = function () { if (state.id) api("/sessions/" + sid() + "/cancel", "POST").catch(showError); };
  $("#new").onclick = function () { newSession().catch(showError); };
  $("#effort").onchange = function () { setting("/effort", { effort: $("#effort").value }); };
  $("#mode").onchange = function () { setting("/mode", { mode: $("#mode").value }); };
  $("#model").onchange = function () { setting("/model", { model: $("#model").value }); };
  $("#rewind").onclick = function () { if (state.id) rewind(); };
  $("#logout").onclick = function () { api("/logout", "POST").then(function () { location.href = "/"; }); };

  var wanted = new URLSearchParams(location.hash.slice(1)).get("session");
  loadSessions().then(function (sessions) {
    var first = wanted || (sessions[0] && sessions[0].id);
    if (first) open(first);
  }).catch(showError);
  window.addEventListener("hashchange", function () {
    var id = new URLSearchParams(location.hash.slice(1)).get("session");
    if (id && id !== state.id) open(id);
  });
})();
`;
