/**
 * The engine's operations with take-home pay estimated for a body that asks for it (take-home.ts,
 * `"options": {"take_home": "estimate"}`); every other body reaches the operation as it is, so the default
 * contract is unchanged. The explained score flags an estimate: `TAKE_HOME_ESTIMATED`, whose `stated` is
 * the estimated take-home and `benchmark` the gross income it was estimated from.
 */
import type { ScoreDetails } from './score-details.js';
import { TAKE_HOME_ESTIMATED, withEstimatedTakeHome } from './take-home.js';
import type { ExplainedScore, LocalEngine, Result } from './types.js';

function estimating<A extends unknown[], T>(
  operation: (body: unknown, ...rest: A) => Result<T>,
): (body: unknown, ...rest: A) => Result<T> {
  return (body, ...rest) => {
    const estimated = withEstimatedTakeHome(body);
    return estimated.ok ? operation(estimated.body, ...rest) : estimated;
  };
}

export function estimatingTakeHome(engine: LocalEngine): LocalEngine {
  const explainedScore: LocalEngine['explainedScore'] = (body, options) => {
    const estimated = withEstimatedTakeHome(body);
    if (!estimated.ok) return estimated;
    const answer = engine.explainedScore(estimated.body, options);
    const { estimate } = estimated;
    if (!answer.ok || estimate === undefined) return answer;
    const details = answer.value.details as ScoreDetails;
    const flag = {
      code: TAKE_HOME_ESTIMATED,
      category: null,
      stated: estimate.net,
      benchmark: estimate.gross,
    };
    const flagged: ExplainedScore = {
      ...answer.value,
      details: { ...details, flags: [...details.flags, flag] },
    };
    return { ok: true, value: flagged };
  };
  return {
    ...engine,
    budget: estimating(engine.budget),
    model: estimating(engine.model),
    modelRanges: estimating(engine.modelRanges),
    score: estimating(engine.score),
    explainedScore,
    household: estimating(engine.household),
    householdFigures: estimating(engine.householdFigures),
  };
}
