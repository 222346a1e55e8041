/**
 * @module
 * The Ink application, mounted on the terminal. Loaded through `loadInkShell`, never imported directly
 * by the launcher, so React and Ink are evaluated in their production builds.
 */
import { render } from "ink";
import { createElement } from "react";
import { App, type AppProps } from "./app.tsx";

export function mountApp(props: AppProps) {
  return render(createElement(App, props), { exitOnCtrlC: false });
}
