/**
 * ZIP → Geography. Every possible ZIP (00000–99999) has a slot of a Uint16Array that points into an array
 * of shared, frozen Geography objects, so `resolve` is an integer parse plus a few array reads and
 * allocates nothing once its prefix is placed (`resolverOver`).
 */
import { metroSizeOf } from './metro-size.js';
import {
  type GeoExtract,
  groupedByPrefix,
  NATIONAL,
  type RowsByPrefix,
  type StateRow,
  type ZipRentRow,
  type ZipRow,
  zipValueAt,
} from './tables.js';
import type { Geography, GeoLevel, GeoResolver, PriceParities, RppScope } from './types.js';

const ZIP_SPACE = 100_000;
/** Slot of the national fallback, for ZIPs whose prefix no table assigns. */
const NATIONAL_SLOT = 0;

/** 0–99999 for a 5-digit string, else -1. */
const zipNumber = (zip5: string): number => (zip5.length === 5 ? zipValueAt(zip5, 0) : -1);

interface Place {
  readonly level: GeoLevel;
  readonly state: string | null;
  readonly cbsa: string | null;
  readonly urban: boolean | null;
  readonly rentIndex: number;
}

/** Builds each distinct Geography once; identical places share one frozen object. */
class GeographyInterner {
  readonly geographies: Geography[] = [];
  private readonly slots = new Map<string, number>();
  private readonly frozenRpps = new Map<PriceParities, PriceParities>();
  private readonly states: Map<string, StateRow>;
  private readonly national: StateRow;
  private readonly metroRpps: Map<string, PriceParities>;
  private readonly metroSizes: Map<string, number>;

  constructor(data: Pick<GeoExtract, 'states' | 'cbsas'>) {
    this.states = new Map(data.states.map((row) => [row.state, row]));
    const national = this.states.get(NATIONAL.state);
    if (national === undefined) throw new Error('geo extract: states table has no national (US) row');
    this.national = national;
    this.metroRpps = new Map(data.cbsas.flatMap((row) => (row.rpp === null ? [] : [[row.cbsa, row.rpp]])));
    this.metroSizes = new Map(
      data.cbsas.flatMap((row) => (row.population === null ? [] : [[row.cbsa, metroSizeOf(row.population)]])),
    );
    this.slot({ level: 'national', state: null, cbsa: null, urban: null, rentIndex: 1 });
  }

  slot(place: Place): number {
    const key = `${place.level}|${place.state}|${place.cbsa}|${place.urban}|${place.rentIndex}`;
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = this.geographies.push(this.geography(place)) - 1;
      if (slot > 0xffff) throw new Error('geo: too many distinct geographies for a Uint16 index');
      this.slots.set(key, slot);
    }
    return slot;
  }

  private geography({ level, state, cbsa, urban, rentIndex }: Place): Geography {
    const stateRow = state === null ? undefined : this.states.get(state);
    const metroRpp = cbsa === null ? undefined : this.metroRpps.get(cbsa);
    const [rpp, rppScope]: [PriceParities, RppScope] = metroRpp
      ? [metroRpp, 'metro']
      : stateRow
        ? [stateRow.rpp, 'state']
        : [this.national.rpp, 'national'];
    return Object.freeze({
      level,
      state,
      cbsa,
      region: stateRow?.region ?? null,
      urban,
      rpp: this.frozen(rpp),
      rppScope,
      rentIndex,
      metroSize: cbsa === null ? null : (this.metroSizes.get(cbsa) ?? null),
    });
  }

  private frozen(rpp: PriceParities): PriceParities {
    let shared = this.frozenRpps.get(rpp);
    if (shared === undefined) {
      shared = Object.freeze({ ...rpp });
      this.frozenRpps.set(rpp, shared);
    }
    return shared;
  }
}

/**
 * Codes of an assigned prefix below the first or above the last ZIP the sources list in it (35200, 99999)
 * are codes USPS has not issued (it numbers a prefix's offices upwards, and the sources list PO-box and
 * unique ZIPs too): they go back to the national slot, which the engine refuses. Prefixes with no listed
 * ZIP (military mail) keep every code.
 */
function unissuedToNational(slotOfZip: Uint16Array, prefix: number, listed: readonly number[]): void {
  if (listed.length === 0) return;
  slotOfZip.fill(NATIONAL_SLOT, prefix * 100, Math.min(...listed));
  slotOfZip.fill(NATIONAL_SLOT, Math.max(...listed) + 1, prefix * 100 + 100);
}

/**
 * The level of a place found at `level`: `outside` when its state is not one the model covers (the 50
 * states and DC, the rows of states.tsv), whatever the precision of the match.
 */
const levelIn = (covered: ReadonlySet<string>, level: GeoLevel, state: string): GeoLevel =>
  covered.has(state) ? level : 'outside';

/** The extract with its ZIP-level tables read a prefix at a time (`RowsByPrefix`). */
export interface GeoSource extends Omit<GeoExtract, 'zips' | 'rents'> {
  readonly zips: RowsByPrefix<ZipRow>;
  readonly rents: RowsByPrefix<ZipRentRow>;
}

/** The resolver of an extract parsed whole. */
export function buildGeoResolver(data: GeoExtract): GeoResolver {
  const zipOf = (row: { readonly zip: string }) => row.zip;
  return resolverOver({
    ...data,
    zips: groupedByPrefix(data.zips, zipOf),
    rents: groupedByPrefix(data.rents, zipOf),
  });
}

/**
 * The resolver of an extract. The prefix and exact-ZIP states are placed now; a prefix's ZIP rows the
 * first time one of its codes is resolved or checked, each level overwriting the one before: prefix
 * state, then exact-ZIP state, then unissued codes, then ZIP row.
 */
export function resolverOver(data: GeoSource): GeoResolver {
  const interner = new GeographyInterner(data);
  const covered = new Set(data.states.flatMap((row) => (row.state === NATIONAL.state ? [] : [row.state])));
  const slotOfZip = new Uint16Array(ZIP_SPACE).fill(NATIONAL_SLOT);
  const slotOfPrefix = new Map<string, number>();
  for (const { prefix, state } of data.zip3States) {
    const first = Number(prefix) * 100;
    const level = levelIn(covered, 'zip3', state);
    const slot = interner.slot({ level, state, cbsa: null, urban: null, rentIndex: 1 });
    slotOfPrefix.set(prefix, slot);
    slotOfZip.fill(slot, first, first + 100);
  }
  for (const { prefix: zip, state } of data.zip5States) {
    const level = levelIn(covered, 'state', state);
    slotOfZip[Number(zip)] = interner.slot({ level, state, cbsa: null, urban: null, rentIndex: 1 });
  }
  const exceptions = groupedByPrefix(data.zip5States, (row) => row.prefix);
  const placed = new Uint8Array(ZIP_SPACE / 100);
  const placeZips = (prefix: number) => {
    placed[prefix] = 1;
    const zips = data.zips.rowsOf(prefix);
    const listed = [...zips.map((row) => row.zip), ...exceptions.rowsOf(prefix).map((row) => row.prefix)];
    unissuedToNational(slotOfZip, prefix, listed.map(Number));
    const rentIndex = new Map(data.rents.rowsOf(prefix).map((row) => [row.zip, row.rentIndex]));
    for (const { zip, state, cbsa, urban } of zips) {
      const level = levelIn(covered, 'zip', state);
      // A territory's rent index places a ZIP within the territory, not against the national level it is priced at.
      const rent = level === 'zip' ? (rentIndex.get(zip) ?? 1) : 1;
      slotOfZip[Number(zip)] = interner.slot({ level, state, cbsa, urban, rentIndex: rent });
    }
  };
  /** The slot of a code 0–99999, its prefix's ZIP rows placed first. */
  const slotOf = (zip: number): number => {
    const prefix = Math.floor(zip / 100);
    if (placed[prefix] === 0) placeZips(prefix);
    return slotOfZip[zip]!;
  };
  const { geographies } = interner;
  const national = geographies[NATIONAL_SLOT]!;

  return {
    resolve(zip5: string): Geography {
      const zip = zipNumber(zip5);
      if (zip >= 0) return geographies[slotOf(zip)]!;
      // A 3-digit prefix alone (a batch row's ZIP3): the fallback of an unknown ZIP in it, its state.
      const prefixSlot = zip5.length === 3 ? slotOfPrefix.get(zip5) : undefined;
      return prefixSlot === undefined ? national : geographies[prefixSlot]!;
    },
    knows(zip5: string): boolean {
      const zip = zipNumber(zip5);
      return zip >= 0 && slotOf(zip) !== NATIONAL_SLOT;
    },
    resolvePrefix(zip3: string): Geography | undefined {
      const slot = slotOfPrefix.get(zip3);
      return slot === undefined ? undefined : geographies[slot];
    },
  };
}
