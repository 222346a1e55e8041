/**
 * @module
 * Themes: a palette every component draws with, and SGR painters for text rendered outside Ink
 * (Markdown, highlighted code). With `NO_COLOR` set there are no colours at all: the palette is empty
 * and every painter returns its text unchanged.
 */

export type ThemeName = "dark" | "light";
export type ThemeSetting = ThemeName | "auto";

/** Ink colour names or hex; `undefined` means the terminal's default. */
export interface Palette {
  accent: string | undefined;
  muted: string | undefined;
  success: string | undefined;
  warning: string | undefined;
  error: string | undefined;
  added: string | undefined;
  removed: string | undefined;
  hunk: string | undefined;
  user: string | undefined;
}

export type Paint = (text: string) => string;

/** Painters for pre-rendered text; each maps to SGR codes or to the identity. */
export interface Painters {
  heading: Paint;
  firstHeading: Paint;
  strong: Paint;
  em: Paint;
  del: Paint;
  codespan: Paint;
  link: Paint;
  quote: Paint;
  muted: Paint;
  keyword: Paint;
  string: Paint;
  number: Paint;
  comment: Paint;
  type: Paint;
  func: Paint;
}

export interface Theme {
  name: ThemeName;
  color: boolean;
  palette: Palette;
  paint: Painters;
}

const DARK: Palette = {
  accent: "cyan",
  muted: "gray",
  success: "green",
  warning: "yellow",
  error: "red",
  added: "green",
  removed: "red",
  hunk: "cyan",
  user: "blueBright",
};

const LIGHT: Palette = {
  accent: "blue",
  muted: "gray",
  success: "green",
  warning: "#b58900",
  error: "red",
  added: "green",
  removed: "red",
  hunk: "blue",
  user: "magenta",
};

const NO_PALETTE: Palette = {
  accent: undefined,
  muted: undefined,
  success: undefined,
  warning: undefined,
  error: undefined,
  added: undefined,
  removed: undefined,
  hunk: undefined,
  user: undefined,
};

function sgr(open: string, close: string): Paint {
  return (text) => text === "" ? text : `\x1b[${open}m${text}\x1b[${close}m`;
}

function identity(text: string): string {
  return text;
}

const BOLD = ["1", "22"] as const;
const ITALIC = ["3", "23"] as const;

function painters(name: ThemeName): Painters {
  const fg = (dark: string, light: string) => sgr(name === "dark" ? dark : light, "39");
  const bold = sgr(...BOLD);
  return {
    heading: (text) => bold(fg("32", "34")(text)),
    firstHeading: (text) => bold(fg("35", "35")(text)),
    strong: bold,
    em: sgr(...ITALIC),
    del: sgr("9", "29"),
    codespan: fg("33", "33"),
    link: fg("34", "34"),
    quote: (text) => sgr(...ITALIC)(fg("90", "90")(text)),
    muted: fg("90", "90"),
    keyword: fg("35", "35"),
    string: fg("32", "32"),
    number: fg("36", "36"),
    comment: fg("90", "90"),
    type: fg("33", "33"),
    func: fg("34", "34"),
  };
}

function plainPainters(): Painters {
  const keys = Object.keys(painters("dark")) as (keyof Painters)[];
  return Object.fromEntries(keys.map((key) => [key, identity])) as unknown as Painters;
}

/** `COLORFGBG` is "fg;bg" (sometimes "fg;x;bg"); a light background is colour 7 or 9–15. */
export function backgroundFromColorFgBg(value: string | undefined): ThemeName | null {
  const last = value?.split(";").at(-1);
  if (last === undefined || last === "" || !/^\d+$/.test(last)) return null;
  const bg = Number(last);
  return bg === 7 || (bg >= 9 && bg <= 15) ? "light" : "dark";
}

export function noColorRequested(env: Record<string, string | undefined>): boolean {
  return env.NO_COLOR !== undefined && env.NO_COLOR !== "";
}

export interface ThemeOptions {
  setting?: string | undefined;
  env: Record<string, string | undefined>;
}

export function resolveTheme(options: ThemeOptions): Theme {
  const setting = options.setting === "light" || options.setting === "dark" ? options.setting : "auto";
  const name: ThemeName = setting === "auto"
    ? backgroundFromColorFgBg(options.env.COLORFGBG) ?? "dark"
    : setting;
  return makeTheme(name, !noColorRequested(options.env));
}

export function makeTheme(name: ThemeName, color: boolean): Theme {
  if (!color) return { name, color, palette: NO_PALETTE, paint: plainPainters() };
  return { name, color, palette: name === "dark" ? DARK : LIGHT, paint: painters(name) };
}

export const DEFAULT_THEME: Theme = makeTheme("dark", true);
