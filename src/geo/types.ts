/** What a ZIP resolves to. `level` says how precise the match was; callers report it (never guessed silently). */
export type GeoLevel = 'zip' | 'zip3' | 'state' | 'national';

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
   * `zip5` is a validated 5-digit string, or a 3-digit prefix alone (level `zip3`, as an unknown ZIP of
   * the prefix; national for an unassigned prefix). Never throws: unknown ZIPs fall back to coarser levels.
   */
  resolve(zip5: string): Geography;
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
