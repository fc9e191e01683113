/** Geographies for model tests: the national fallback (price parities 100, region and area unknown). */
export { NATIONAL_GEOGRAPHY as NATIONAL } from '../../src/geo/types.js';
