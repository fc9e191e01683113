/**
 * The explanation of one score as the API answers it (`details`, with `?explain=true`): the indices, the
 * percentile, the reasons, the flags and, with a proposed loan, lender mode. The engine computes it
 * (src/engine/score-details.ts); the shapes are defined once here, for the answer and the OpenAPI document.
 */
import { GEO_FLAGS, GEO_LEVELS } from '../geo/types.js';
import Type, { type Static } from '../vendor/typebox.js';
import { BASES } from './schemas.js';

/**
 * The score profiles: `standard` scores the profile as sent; `fair-lending` scores it without age and
 * household type (fair-lending.ts), and its percentile reads the reference of that profile.
 */
export const SCORE_PROFILES = ['standard', 'fair-lending'] as const;
export type ScoreProfile = (typeof SCORE_PROFILES)[number];

const ReasonItem = Type.Object({ code: Type.String(), text: Type.String() }, { additionalProperties: false });

/** The expense and income flags' codes (src/engine/benchmark.ts says when each is raised). */
export const FLAG_CODES = [
  'BELOW_PEERS',
  'BASICS_TOTAL_BELOW_PEERS',
  'GROSS_BELOW_TAKE_HOME',
  'TAKE_HOME_ESTIMATED',
  'RENT_FREE',
] as const;
export type FlagCode = (typeof FLAG_CODES)[number];

const FlagItem = Type.Object(
  {
    code: Type.Enum([...FLAG_CODES, ...GEO_FLAGS], { type: 'string' }),
    category: Type.Union([Type.String(), Type.Null()]),
    stated: Type.Optional(Type.Integer({ description: 'The stated amount; absent on a ZIP flag.' })),
    benchmark: Type.Optional(Type.Integer({ description: 'What it is held to; absent on a ZIP flag.' })),
  },
  { additionalProperties: false },
);

/** The terms of the index's decomposition (src/engine/terms.ts computes them). */
export const TERM_CODES = [
  'TAKE_HOME_LESS_PEER_SPENDING',
  'STATED_VS_PEERS',
  'BENCHMARK_VS_PEERS',
  'OTHER_DEBT_PAYMENTS',
] as const;

export const TermItem = Type.Object(
  {
    code: Type.Enum(TERM_CODES, { type: 'string' }),
    category: Type.Union([Type.String(), Type.Null()]),
    amount: Type.Number({
      description: 'Dollars a year, signed, to the cent: what the term adds to 12 × PSA.',
    }),
  },
  { additionalProperties: false },
);
export type Term = Static<typeof TermItem>;

const LendingDetails = Type.Object(
  {
    stressed_payment: Type.Integer({ description: 'The payment as assessed, monthly, whole units.' }),
    surplus: Type.Integer({ description: 'PSA less the stressed payment, monthly, whole units.' }),
    index: Type.Number({ description: '80 + 100 × 12 × surplus / take-home, one decimal, unclamped.' }),
    score: Type.Number({ description: 'The index clamped to 0–100.' }),
    reasons: Type.Array(ReasonItem, { maxItems: 4 }),
  },
  { additionalProperties: false },
);

export const ScoreDetails = Type.Object(
  {
    basis: Type.Enum(BASES, { type: 'string' }),
    profile: Type.Enum(SCORE_PROFILES, { type: 'string' }),
    psa: Type.Integer({ description: 'The PSA on this basis, monthly, whole units.' }),
    index: Type.Number({ description: 'The main score unclamped, one decimal.' }),
    savings_index: Type.Number({ description: 'The SAViNGS score unclamped, one decimal.' }),
    percentile: Type.Number({
      minimum: 0,
      maximum: 100,
      description: 'Where the index sits among US households (data/model/score-reference.json), one decimal.',
    }),
    reasons: Type.Array(ReasonItem, { maxItems: 4 }),
    savings_reasons: Type.Array(ReasonItem, { maxItems: 4 }),
    terms: Type.Array(TermItem, {
      description:
        'Every term of the index decomposition on this basis (docs/scores.md), dollars a year, signed: they ' +
        'sum to 12 × PSA before its rounding.',
    }),
    flags: Type.Array(FlagItem),
    geo_level: Type.Enum(GEO_LEVELS, { type: 'string' }),
    model_version: Type.String(),
    lending: Type.Optional(LendingDetails),
  },
  { additionalProperties: false },
);
export type ScoreDetails = Static<typeof ScoreDetails>;
