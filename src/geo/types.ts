/**
 * What a ZIP resolves to. `level` says how precise the match was; callers report it (never guessed silently).
 * `outside`: a real code of a place the model does not cover (territories, military mail), scored at
 * national prices; `national`: nothing is known of the place but that it is in the US (the resolver gives
 * it to a code whose 3-digit prefix USPS does not assign, which the engine refuses).
 */
export type GeoLevel = 'zip' | 'zip3' | 'state' | 'outside' | 'national';

/** Every level, in the order of `GeoLevel`: for schemas and documentation. */
export const GEO_LEVELS: readonly GeoLevel[] = ['zip', 'zip3', 'state', 'outside', 'national'];

/**
 * What a caller is told about a place scored with less than the model's local detail (docs/model.md,
 * "Coverage"): a ZIP no source lists, scored at its 3-digit prefix's state; a place outside the model's
 * coverage, scored at national prices.
 */
export type GeoFlag = 'ZIP_UNKNOWN' | 'ZIP_OUTSIDE_COVERAGE';

export const GEO_FLAGS: readonly GeoFlag[] = ['ZIP_UNKNOWN', 'ZIP_OUTSIDE_COVERAGE'];

/** The flag a level carries, if any: `zip3` is an unknown ZIP of a known prefix, `outside` is outside coverage. */
export function geoFlagOf(level: GeoLevel): GeoFlag | undefined {
  return level === 'zip3' ? 'ZIP_UNKNOWN' : level === 'outside' ? 'ZIP_OUTSIDE_COVERAGE' : undefined;
}

export type CensusRegion = 'northeast' | 'midwest' | 'south' | 'west';

/**
 * Which BEA table the price parities came from: the metro area's MARPP; else the state's SARPP (micro
 * and rural areas, whose own level BEA does not publish); else the national index, US = 100 (Puerto Rico,
 * territories, military mail and unknown prefixes, for which BEA publishes no RPP).
 */
export type RppScope = 'metro' | 'state' | 'national';

/** BEA Regional Price Parity components (US = 100). */
export interface PriceParities {
  readonly all: number;
  readonly goods: number;
  readonly housing: number;
  readonly utilities: number;
  readonly other: number;
}

export interface Geography {
  readonly level: GeoLevel;
  /** USPS state abbreviation, null only at national level. */
  readonly state: string | null;
  /** 5-digit CBSA code (metro or micro), null when the area is outside any CBSA or unknown. */
  readonly cbsa: string | null;
  readonly region: CensusRegion | null;
  /** True when the ZIP is in a metropolitan area (RUCA 1–3, or county in a metro CBSA at coarser levels). */
  readonly urban: boolean | null;
  readonly rpp: PriceParities;
  readonly rppScope: RppScope;
  /**
   * The ZIP's rent level over its price area's (population-weighted) mean, from HUD rents: BEA's housing
   * parity is the area's average, this says how far the ZIP stands from it. 1 when unknown or coarser than
   * a ZIP. Optional so that a hand-made Geography need not state it.
   */
  readonly rentIndex?: number;
  /**
   * The metro-size class (src/geo/metro-size.ts: 1 more than 4 million people … 5 less than 125 thousand)
   * of the ZIP's CBSA by its population; null or absent outside a CBSA or coarser than a ZIP.
   */
  readonly metroSize?: number | null;
}

export interface GeoResolver {
  /**
   * `zip5` is a validated 5-digit string, or a 3-digit prefix alone (a batch row's ZIP3: resolved as
   * `resolvePrefix` does, national for an unassigned prefix). Never throws: unknown ZIPs fall back to
   * coarser levels, and a code whose prefix USPS does not assign resolves at `national` level (`knows` is
   * false for it).
   */
  resolve(zip5: string): Geography;
  /** Whether `zip5` is a code USPS could have issued: its 3-digit prefix is assigned (else the engine refuses it). */
  knows(zip5: string): boolean;
  /**
   * The geography of a 3-digit prefix (`352`) alone: what an unknown ZIP of that prefix resolves to (level
   * `zip3`, or `outside` for a territory or military prefix); undefined for an unassigned prefix or a string
   * that is not 3 digits.
   */
  resolvePrefix(zip3: string): Geography | undefined;
}

/** The national fallback: price parities 100, region and area unknown (the model card's "national prices"). */
export const NATIONAL_GEOGRAPHY: Geography = {
  level: 'national',
  state: null,
  cbsa: null,
  region: null,
  urban: null,
  rpp: { all: 100, goods: 100, housing: 100, utilities: 100, other: 100 },
  rppScope: 'national',
};
