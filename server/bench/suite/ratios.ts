/** The suite's arithmetic: each target against the baseline runs either side of it, median over rounds. */

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * One round measured as baseline, target 1, baseline, target 2, …, baseline: target i's ratio is its
 * rate over the mean of the baselines just before and just after it (a machine that slows mid-round
 * moves both).
 */
export function ratiosBetweenBaselines(baselines: readonly number[], targets: readonly number[]): number[] {
  if (baselines.length !== targets.length + 1) throw new RangeError(`${targets.length} targets need ${targets.length + 1} baselines, got ${baselines.length}`);
  return targets.map((rate, i) => rate / ((baselines[i]! + baselines[i + 1]!) / 2));
}

/** An admin route at 1M users keeps its ratio within `tolerance` of the 10k one (faster is fine). */
export function keepsRatio(small: number, large: number, tolerance = 0.2): boolean {
  return large >= small * (1 - tolerance);
}
