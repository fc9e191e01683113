/** Geographies for model tests: the national fallback (price parities 100, region and area unknown). */
import type { Geography } from '../../src/geo/types.js';

export const NATIONAL: Geography = {
  level: 'national',
  state: null,
  cbsa: null,
  region: null,
  urban: null,
  rpp: { all: 100, goods: 100, housing: 100, utilities: 100, other: 100 },
  rppScope: 'national',
};
