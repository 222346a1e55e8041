/**
 * @module
 * The spinner line above the input while a turn runs: what it is doing, for how long, and the tokens
 * so far. It ticks on its own timer, so only this line redraws between events.
 */
import { Text } from "ink";
import { useEffect, useState } from "react";
import { type Activity, activityText } from "../../control/mod.ts";
import { useTheme } from "./components/theme_context.ts";

const TICK_MS = 250;

export function ActivityLine({ activity }: { activity: Activity }) {
  const { palette } = useTheme();
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((count) => count + 1), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return <Text color={palette.accent} wrap="truncate-end">{activityText(activity, Date.now(), tick)}</Text>;
}
