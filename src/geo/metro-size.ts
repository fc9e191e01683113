/**
 * Metro-size classes: the CE Interview's POPSIZE codes of 1996–2015Q1 (BLS PUMD dictionary), the only
 * settlement-size measure the public microdata carry, applied to a ZIP's CBSA by its population.
 */

/** Lower population bounds of classes 1…4 (class 5: below 125,000), from the POPSIZE code labels. */
const CLASS_FLOORS = [4_000_000, 1_200_000, 330_000, 125_000] as const;

/** The number of classes: 1 more than 4 million, 2 1.2–4 million, 3 0.33–1.19 million, 4 125–330 thousand, 5 less. */
export const METRO_SIZE_CLASSES = CLASS_FLOORS.length + 1;

/** The class (1…5) of an area of this population. */
export function metroSizeOf(population: number): number {
  const index = CLASS_FLOORS.findIndex((floor) => population >= floor);
  return index === -1 ? METRO_SIZE_CLASSES : index + 1;
}
