// Text and numbers for engine scores: "+0.48", "#3", and a 0–1 share for the evaluation bar.

/**
 * A score as text from its own side's view: pawns with sign, or "#n" for a mate.
 * @param {{cp?: number, mate?: number} | null | undefined} score
 */
export function formatScore(score) {
  if (!score) return "–";
  if (score.mate !== undefined && score.mate !== null) return `${score.mate < 0 ? "-" : ""}#${Math.abs(score.mate)}`;
  const pawns = (score.cp ?? 0) / 100;
  return `${pawns > 0 ? "+" : pawns < 0 ? "−" : ""}${Math.abs(pawns).toFixed(2)}`;
}

/**
 * White's share of the evaluation bar (0 = Black winning, 1 = White winning) from a White-view score.
 * @param {{cp?: number, mate?: number} | null | undefined} score
 */
export function whiteShare(score) {
  if (!score) return 0.5;
  if (score.mate !== undefined && score.mate !== null) return score.mate > 0 ? 1 : score.mate < 0 ? 0 : 0.5;
  return 1 / (1 + Math.exp(-(score.cp ?? 0) / 250));
}

/**
 * A White-view score clamped to ±10 pawns, for the graph (mates at the clamp).
 * @param {{cp?: number, mate?: number} | null | undefined} score
 */
export function graphPawns(score) {
  if (!score) return null;
  if (score.mate !== undefined && score.mate !== null) return score.mate >= 0 ? 10 : -10;
  return Math.max(-10, Math.min(10, (score.cp ?? 0) / 100));
}

/**
 * A count with thousands separators: 1852544 → "1,852,544".
 * @param {number} n
 */
export function formatCount(n) {
  return Math.round(n ?? 0).toLocaleString("en-US");
}

/**
 * A count in short form: 950 → "950", 15300 → "15.3k", 1852544 → "1.85M".
 * @param {number} n
 */
export function formatCompact(n) {
  if (n < 1000) return String(Math.round(n));
  if (n < 1e6) return `${(n / 1000).toFixed(n < 1e4 ? 2 : 1)}k`;
  return `${(n / 1e6).toFixed(n < 1e7 ? 2 : 1)}M`;
}
