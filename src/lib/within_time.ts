/**
 * @module
 * A value that may be slow, or a fallback once `ms` passed: for listings a face shows (the `/mcp` counts,
 * `@` completion) that must not wait on a slow server. The slow promise keeps running; its timer is cleared.
 */

export async function withinTime<T>(value: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<T>((resolve) => timer = setTimeout(() => resolve(fallback), ms));
  try {
    return await Promise.race([value, late]);
  } finally {
    clearTimeout(timer);
  }
}
