// The buckets of the dashboard's histograms of time to first contact (issue 43,
// docs/attribution.md "Medians from the rollup"). Below 10 minutes a bucket is a whole minute
// (0–9); from 10 minutes on, bucket 10 + k holds [10 · 1.05^k, 10 · 1.05^(k+1)) minutes, each 5 %
// wide: a day's 10 hours are 94 buckets, a month 181. A median is read as the lower bound of the
// bucket that holds the nearest-rank median: exact to the whole minute below 10 minutes, at most
// 5 % (and never more) below the exact median above.

const WHOLE_MINUTES = 10;
const GROWTH = 1.05;
const LOG_GROWTH = Math.log(GROWTH);

/** The bucket of a time to first contact (milliseconds; negative counts as 0). */
export function contactBucket(ms: number): number {
  const minutes = Math.max(0, ms) / 60_000;
  if (minutes < WHOLE_MINUTES) return Math.floor(minutes);
  let bucket = WHOLE_MINUTES + Math.floor(Math.log(minutes / WHOLE_MINUTES) / LOG_GROWTH);
  // Floating point near an edge: the time lies in [floor(bucket), floor(bucket + 1)).
  if (bucketFloorMinutes(bucket) > minutes) bucket -= 1;
  else if (bucketFloorMinutes(bucket + 1) <= minutes) bucket += 1;
  return bucket;
}

/** The lower bound of a bucket, in minutes: what a median in it reads as. */
export function bucketFloorMinutes(bucket: number): number {
  return bucket < WHOLE_MINUTES ? bucket : WHOLE_MINUTES * GROWTH ** (bucket - WHOLE_MINUTES);
}

/** The median (nearest-rank: the ⌈n / 2⌉-th smallest) of a histogram, as its bucket's lower bound in minutes; null when empty. */
export function histogramMedianMinutes(histogram: ReadonlyMap<number, number>): number | null {
  let total = 0;
  for (const n of histogram.values()) total += n;
  if (!total) return null;
  const rank = Math.ceil(total / 2);
  let seen = 0;
  for (const bucket of [...histogram.keys()].sort((a, b) => a - b)) {
    seen += histogram.get(bucket)!;
    if (seen >= rank) return bucketFloorMinutes(bucket);
  }
  return null;
}
