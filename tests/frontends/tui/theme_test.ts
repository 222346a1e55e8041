import assert from "node:assert/strict";
import { backgroundFromColorFgBg, makeTheme, resolveTheme } from "../../../src/frontends/tui/theme.ts";

// deno-lint-ignore no-control-regex
const SGR = /\x1b\[[0-9;]*m/;

Deno.test("resolveTheme() auto picks light or dark from COLORFGBG, dark by default", () => {
  assert.equal(resolveTheme({ env: { COLORFGBG: "0;15" } }).name, "light");
  assert.equal(resolveTheme({ env: { COLORFGBG: "0;default;7" } }).name, "light");
  assert.equal(resolveTheme({ env: { COLORFGBG: "15;0" } }).name, "dark");
  assert.equal(resolveTheme({ env: {} }).name, "dark");
  assert.equal(resolveTheme({ setting: "auto", env: { COLORFGBG: "junk" } }).name, "dark");
  assert.equal(backgroundFromColorFgBg("12;8"), "dark");
});

Deno.test("resolveTheme() honours an explicit setting over COLORFGBG", () => {
  assert.equal(resolveTheme({ setting: "dark", env: { COLORFGBG: "0;15" } }).name, "dark");
  assert.equal(resolveTheme({ setting: "light", env: { COLORFGBG: "15;0" } }).name, "light");
});

Deno.test("NO_COLOR empties the palette and makes every painter the identity", () => {
  const theme = resolveTheme({ setting: "light", env: { NO_COLOR: "1" } });
  assert.equal(theme.color, false);
  for (const value of Object.values(theme.palette)) assert.equal(value, undefined);
  for (const paint of Object.values(theme.paint)) assert.equal(paint("word"), "word");
  assert.equal(resolveTheme({ env: { NO_COLOR: "" } }).color, true);
});

Deno.test("coloured painters emit SGR codes and the two themes differ", () => {
  const dark = makeTheme("dark", true);
  const light = makeTheme("light", true);
  assert.match(dark.paint.heading("x"), SGR);
  assert.notEqual(dark.paint.heading("x"), light.paint.heading("x"));
  assert.notDeepEqual(dark.palette, light.palette);
  assert.equal(dark.paint.strong(""), "");
});
