/** Milliseconds with at most three decimals, fewer when they are zeros (`12`, `0.25`, `130`). */
export function formatMs(ms: number): string {
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1).replace(/\.0$/, "");
  return ms.toFixed(3).replace(/\.?0+$/, "") || "0";
}
