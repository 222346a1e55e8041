/**
 * @module
 * How the web UI turns an answer into HTML (served as /ui/markdown.js, after /ui/vendor.js): marked
 * parses the Markdown, highlight.js colours code blocks, and DOMPurify sanitises the result before
 * anything reaches the page. Model output is attacker-controlled, so raw HTML in it is shown as text,
 * images are not loaded, and links keep only http(s) and mailto addresses and open in a new tab.
 */

export const MARKDOWN_JS = String.raw`"use strict";
(function () {
  function escapeHtml(text) {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  if (typeof marked === "undefined" || typeof DOMPurify === "undefined" || typeof hljs === "undefined") {
    window.reasonixMarkdown = function (source) {
      return "<p>" + escapeHtml(source).replace(/\n/g, "<br>") + "</p>";
    };
    return;
  }

  // Past this size an unlabelled block is not guessed at (highlightAuto tries every language).
  var AUTO_LIMIT = 20000;

  function highlight(code, lang) {
    var language = (lang || "").trim().split(/\s+/)[0].toLowerCase();
    if (language && hljs.getLanguage(language)) {
      return { html: hljs.highlight(code, { language: language, ignoreIllegals: true }).value, language: language };
    }
    if (code.length > AUTO_LIMIT) return { html: escapeHtml(code), language: "" };
    var guessed = hljs.highlightAuto(code);
    return { html: guessed.value, language: guessed.language || "" };
  }

  var parser = new marked.Marked({ gfm: true, breaks: false });
  parser.use({
    renderer: {
      // Raw HTML from the model is text on the page, never markup.
      html: function (token) { return escapeHtml(token.text); },
      code: function (token) {
        var lit = highlight(token.text.replace(/\n$/, ""), token.lang);
        var cls = "hljs" + (lit.language ? " language-" + lit.language.replace(/[^\w-]/g, "") : "");
        return "<pre><code class=\"" + cls + "\">" + lit.html + "</code></pre>\n";
      },
      // An image would be a request to wherever the model chose: show its text and address instead.
      image: function (token) { return escapeHtml("[" + (token.text || "image") + "](" + token.href + ")"); },
    },
  });

  var SAFE_URL = /^(?:https?:|mailto:)/i;
  DOMPurify.addHook("afterSanitizeAttributes", function (node) {
    if (node.tagName !== "A") return;
    var href = node.getAttribute("href") || "";
    if (!SAFE_URL.test(href)) node.removeAttribute("href");
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer nofollow");
  });
  var POLICY = {
    ALLOWED_URI_REGEXP: SAFE_URL,
    FORBID_TAGS: ["style", "img", "svg", "math", "form", "input", "button", "textarea", "select", "iframe",
      "object", "embed", "video", "audio", "source", "link", "meta", "base"],
    FORBID_ATTR: ["style", "id", "name"],
    ADD_ATTR: ["target"],
  };

  /** Markdown to sanitised HTML (without the libraries, above: the text escaped in a paragraph). */
  window.reasonixMarkdown = function (source) {
    return DOMPurify.sanitize(parser.parse(source), POLICY);
  };
})();
`;
