/**
 * Each 2014 CU-quarter's housing and vehicle payments, read from the raw MTBI files for the model card's
 * ranking table only (validate-ranking.ts): the committed extract does not carry them apart.
 *
 * - Housing payment: mortgage interest and charges (IStub OWNMORTG), property taxes (220211), rented
 *   dwellings (RNTDWELL) and mortgage principal paid (MRTPRINP) — the lines of `mortgage_and_rent`.
 * - Vehicle payments: reduction of vehicle loan principal (850100), vehicle finance charges (VEHFINCH)
 *   and car/truck lease payments (450310 through Q1 2013, 450350 after); lease down payments, fees and
 *   trade-in allowances are one-off and left out.
 *
 * MTBI records a principal reduction as a negative COST (every 2014 record of these UCCs is negative), so
 * principal paid is −COST. Annualised as the extract annualises spending: 12 × Σ with REF_YR 2014 / months
 * in scope.
 */
import { join } from 'node:path';
import { type Household, QUARTER_FILES, SURVEY_YEAR } from './extract-households.js';
import type { SourceReader } from './sources.js';
import { type StubLine, uccsOf } from './stub.js';

export interface Payments {
  /** Annual housing payment, 2014 dollars. */
  readonly housing: number;
  /** Annual vehicle payments, 2014 dollars. */
  readonly vehicle: number;
}

const VEHICLE_LOAN_PRINCIPAL = '850100';
const LEASE_PAYMENTS = ['450310', '450350'] as const;

/** UCC → [which payment, sign], checked against the stub so that a renamed code fails loudly. */
function paymentUccs(stub: readonly StubLine[]): Map<string, readonly [keyof Payments, number]> {
  const uccs = new Map<string, readonly [keyof Payments, number]>();
  const add = (codes: Iterable<string>, payment: keyof Payments, sign: number) => {
    for (const ucc of codes) uccs.set(ucc, [payment, sign]);
  };
  add(
    ['OWNMORTG', '220211', 'RNTDWELL'].flatMap((code) => [...uccsOf(stub, code)]),
    'housing',
    1,
  );
  add(uccsOf(stub, 'MRTPRINP'), 'housing', -1);
  add(uccsOf(stub, 'VEHFINCH'), 'vehicle', 1);
  const known = [...uccsOf(stub, 'CHGVEHPR'), ...uccsOf(stub, 'LEASVEH')];
  const missing = [VEHICLE_LOAN_PRINCIPAL, ...LEASE_PAYMENTS].filter((ucc) => !known.includes(ucc));
  if (missing.length > 0) throw new Error(`IStub2014: vehicle payment UCCs not found: ${missing.join(', ')}`);
  add([VEHICLE_LOAN_PRINCIPAL], 'vehicle', -1);
  add(LEASE_PAYMENTS, 'vehicle', 1);
  return uccs;
}

/** The annual payments of a household of the extract (0 where it reported none). */
export function housingAndVehiclePayments(
  source: SourceReader,
  ceDir: string,
  stub: readonly StubLine[],
): (h: Household) => Payments {
  const uccs = paymentUccs(stub);
  const inScope = new Map<string, Record<keyof Payments, number>>();
  const interviewDir = join(ceDir, 'pumd', '2014', 'interview');
  for (const quarter of QUARTER_FILES) {
    const file = join(interviewDir, `mtbi${quarter}.csv.gz`);
    for (const [newid = '', refYear, ucc = '', cost] of source.simpleCsv(file, [
      'NEWID',
      'REF_YR',
      'UCC',
      'COST',
    ])) {
      const target = uccs.get(ucc.padStart(6, '0'));
      if (target === undefined || Number(refYear) !== SURVEY_YEAR) continue;
      const sums = inScope.get(newid) ?? { housing: 0, vehicle: 0 };
      sums[target[0]] += target[1] * Number(cost);
      inScope.set(newid, sums);
    }
  }
  return (h) => {
    if (h.monthsInScope === 0) throw new Error(`${h.newid}: no month in ${SURVEY_YEAR}, no annual payments`);
    const { housing, vehicle } = inScope.get(h.newid) ?? { housing: 0, vehicle: 0 };
    return { housing: (housing * 12) / h.monthsInScope, vehicle: (vehicle * 12) / h.monthsInScope };
  };
}
