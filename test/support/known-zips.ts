/**
 * Generated ZIPs the shipped geography knows (`GeoResolver.knows`): codes of an assigned prefix within
 * the span of its listed ZIPs, and military prefixes. The engine refuses the others ("unknown ZIP code"),
 * so a generator of households that must be scored draws from these.
 */
import fc from 'fast-check';
import { loadGeoResolver } from '../../src/geo/load.js';

const geo = await loadGeoResolver();

/** Any 5-digit code the geography knows, at ZIP, prefix or outside-coverage level. */
export const knownZip5: fc.Arbitrary<string> = fc
  .integer({ min: 0, max: 99_999 })
  .map((n) => String(n).padStart(5, '0'))
  .filter((zip) => geo.knows(zip));
