/**
 * @module
 * A command's pick list (`/rewind`, `/resume`) as a card: title, info lines, a window of numbered
 * rows around the highlight. Keys are decided by `choiceKey`; the app owns the keyboard, as for
 * approval and question cards, and `choose()` resolves once a row is picked or the card is cancelled.
 */
import { Box, type Key, Text } from "ink";
import { useCallback, useRef, useState } from "react";
import stringWidth from "string-width";
import type { ChoiceList } from "../../control/mod.ts";
import { t } from "../../lib/i18n/mod.ts";
import { useTheme } from "./components/theme_context.ts";
import { clip, sanitize } from "./components/format.ts";

/** Below this width a row shows only its label. */
const DETAIL_MIN_WIDTH = 50;
const INFO_LINES = 6;

export type ChoiceKeyResult = { selected: number } | { pick: number } | { cancel: true } | null;

export function choiceKey(input: string, key: Key, selected: number, count: number): ChoiceKeyResult {
  if (key.escape) return { cancel: true };
  if (count === 0) return null;
  if (key.upArrow) return { selected: (selected + count - 1) % count };
  if (key.downArrow || key.tab) return { selected: (selected + 1) % count };
  if (key.return) return { pick: selected };
  if (/^[1-9]$/.test(input) && Number(input) <= count) return { pick: Number(input) - 1 };
  return null;
}

export interface ChoiceCardProps {
  list: ChoiceList;
  selected: number;
  width: number;
  /** Rows of the list shown at once. */
  window: number;
}

export function ChoiceCard({ list, selected, width, window }: ChoiceCardProps) {
  const { palette } = useTheme();
  const inner = Math.max(8, width - 4);
  const first = Math.max(0, Math.min(selected - window + 1, list.rows.length - window));
  const shown = list.rows.slice(first, first + window);
  const more = list.rows.length - first - shown.length;
  const lines = list.lines ?? [];
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={palette.accent} paddingX={1} width={width}>
      <Text bold color={palette.accent} wrap="truncate-end">{sanitize(list.title)}</Text>
      {lines.slice(0, INFO_LINES).map((line, index) => (
        <Text key={index} color={palette.muted} wrap="truncate-end">{sanitize(line)}</Text>
      ))}
      {lines.length > INFO_LINES
        ? <Text color={palette.muted}>{t("choice.more", { count: lines.length - INFO_LINES })}</Text>
        : null}
      {shown.map((row, offset) => {
        const index = first + offset;
        const at = index === selected;
        const label = `${at ? "›" : " "}${index < 9 ? index + 1 : " "} ${sanitize(row.label)}`;
        const detail = row.detail && width >= DETAIL_MIN_WIDTH ? `  ${sanitize(row.detail)}` : "";
        const room = Math.max(0, inner - stringWidth(label));
        return (
          <Text key={index} wrap="truncate-end">
            <Text inverse={at} color={at ? palette.accent : undefined}>
              {clip(label, inner, stringWidth)}
            </Text>
            {detail && room > 4 ? <Text color={palette.muted}>{clip(detail, room, stringWidth)}</Text> : null}
          </Text>
        );
      })}
      <Text color={palette.muted} wrap="truncate-end">
        {more > 0 ? `${t("choice.more", { count: more })} · ` : ""}
        {t("choice.hint")}
      </Text>
    </Box>
  );
}

interface Open {
  list: ChoiceList;
  selected: number;
  resolve: (index: number | null) => void;
}

export interface ChoiceSlot {
  card: ReturnType<typeof ChoiceCard> | null;
  /** What commands call through `CommandContext.choose`. */
  choose(list: ChoiceList): Promise<number | null>;
  /** Feeds a key to the open card; false when none is open. */
  onKey(input: string, key: Key): boolean;
}

export function useChoiceCard(width: number, rows: number): ChoiceSlot {
  const [open, setOpenState] = useState<Open | null>(null);
  /** Keys can arrive faster than renders, Down and Enter in one read: act on the latest state. */
  const latest = useRef(null as Open | null);
  const setOpen = useCallback((next: Open | null) => {
    latest.current = next;
    setOpenState(next);
  }, []);
  const choose = useCallback(
    (list: ChoiceList) => new Promise<number | null>((resolve) => setOpen({ list, selected: 0, resolve })),
    [],
  );
  if (!open) return { card: null, choose, onKey: () => false };
  return {
    card: <ChoiceCard list={open.list} selected={open.selected} width={width} window={windowRows(rows)} />,
    choose,
    onKey(input, key) {
      const current = latest.current;
      if (!current) return false;
      const step = choiceKey(input, key, current.selected, current.list.rows.length);
      if (step && "selected" in step) setOpen({ ...current, selected: step.selected });
      else if (step) {
        setOpen(null);
        current.resolve("pick" in step ? step.pick : null);
      }
      return true;
    },
  };
}

/** The card's rows fit a short terminal: the screen minus the border, title, info, hint and status. */
function windowRows(rows: number): number {
  return Math.max(3, Math.min(10, rows - 12));
}
