// The bands a score is coloured by, wherever it shows: the portfolio's heat map, the score
// box of an assessment or attestation.

/** ScoreBand is the colour class of a score: high from 80, mid from 50, low below, none without a score. */
export type ScoreBand = 'high' | 'mid' | 'low' | 'none'

/** SCORE_BANDS lists the bands from best to none, the order of the heat map's legend. */
export const SCORE_BANDS: readonly ScoreBand[] = ['high', 'mid', 'low', 'none']

/** scoreBand classifies a score (0–100, null when every answer was not applicable). */
export function scoreBand(score: number | null | undefined): ScoreBand {
  if (score === null || score === undefined) return 'none'
  if (score >= 80) return 'high'
  if (score >= 50) return 'mid'
  return 'low'
}
