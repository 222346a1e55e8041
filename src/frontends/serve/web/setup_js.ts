/**
 * @module
 * The web UI's provider setup panel (plain JavaScript, served as /ui/setup.js): pick a provider and a
 * model, paste the key, save. It opens by itself when no provider has a key, and from the footer. The
 * key field is cleared once sent; the server answers with a masked tail only. Off loopback the server
 * refuses (403) and the panel shows why.
 */

export const SETUP_JS = String.raw`"use strict";
(function () {
  var $ = function (s) { return document.querySelector(s); };
  var panel = $("#setup");
  var providers = [];

  function call(method, body) {
    var init = { method: method, credentials: "same-origin", headers: {} };
    if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch("/api/setup", init).then(function (response) {
      return response.json().then(function (json) {
        if (!response.ok) throw json;
        return json;
      });
    });
  }

  function say(text, warn) {
    var result = $("#setup-result");
    result.textContent = text;
    result.className = "note" + (warn ? " warn" : "");
  }

  function fillModels() {
    var provider = providers[$("#setup-provider").selectedIndex];
    var select = $("#setup-model");
    select.textContent = "";
    if (!provider) return;
    provider.models.forEach(function (model) {
      var option = document.createElement("option");
      option.textContent = model;
      option.selected = model === provider.defaultModel;
      select.appendChild(option);
    });
    var key = $("#setup-key");
    key.disabled = provider.keyEnv === "";
    key.placeholder = provider.keyEnv === "" ? "this provider takes no key" : "paste the key (" + provider.keyEnv + ")";
    $("#setup-current").textContent = provider.key
      ? "A key is set (" + provider.key + ", from " + (provider.keySource === "env" ? "the environment" : "the .env file") + "); leave empty to keep it"
      : "";
  }

  function show(state) {
    providers = state.providers;
    var select = $("#setup-provider");
    select.textContent = "";
    var wanted = state.defaultModel.split("/")[0];
    providers.forEach(function (provider) {
      var option = document.createElement("option");
      option.textContent = provider.ref + " — " + provider.baseUrl;
      option.value = provider.ref;
      option.selected = provider.ref === wanted;
      select.appendChild(option);
    });
    fillModels();
    $("#setup-why").textContent = state.needed
      ? "No key is set for the default model (" + state.defaultModel + "): choose a provider and paste its key."
      : "New sessions use " + state.defaultModel + ". Keys are stored in " + state.keyFile + ".";
    panel.hidden = false;
  }

  function open() {
    say("");
    return call("GET").then(show).catch(function (error) {
      panel.hidden = false;
      $("#setup-why").textContent = "";
      say((error && error.message) || String(error), true);
    });
  }

  $("#setup-provider").onchange = fillModels;
  $("#setup-close").onclick = function () { panel.hidden = true; };
  $("#setup-form").onsubmit = function (ev) {
    ev.preventDefault();
    var key = $("#setup-key");
    var body = { provider: $("#setup-provider").value, model: $("#setup-model").value, test: $("#setup-test").checked };
    if (key.value.trim()) body.key = key.value.trim();
    key.value = "";
    say("Saving…");
    call("POST", body).then(function (saved) {
      var stored = saved.keyStored ? saved.keyEnv + " stored (" + saved.key + ") in " + saved.keyFile : "key kept";
      var config = saved.config.status === "not_written"
        ? "; " + saved.config.file + " was not changed (serve may not write it): the model choice lasts until serve restarts"
        : "";
      say("Saved: " + stored + ". New sessions use " + saved.defaultModel + (saved.tested ? " (tested)" : " (untested)") + config + ".");
      document.dispatchEvent(new CustomEvent("reasonix:setup", { detail: saved }));
    }).catch(function (error) {
      say((error && error.message) || String(error), true);
    });
  };
  $("#provider").onclick = open;
  document.addEventListener("reasonix:need-setup", open);

  // Opens by itself when the default model has no key; a browser off loopback is refused and sees nothing here.
  call("GET").then(function (state) { if (state.needed) show(state); }).catch(function () {});
})();
`;
