/**
 * Each 2014 CU-quarter's housing and vehicle payments, for the model card's ranking table only
 * (validate-ranking.ts).
 *
 * - Housing payment: the extract's `mortgage_and_rent` — mortgage interest and charges, property taxes,
 *   rented dwellings and mortgage principal paid, with the extract's sign for principal (ce-categories.ts).
 * - Vehicle payments, read from the raw MTBI files (the committed extract does not carry them apart):
 *   reduction of vehicle loan principal (850100), vehicle finance charges (VEHFINCH) and car/truck lease
 *   payments (450310 through Q1 2013, 450350 after); lease down payments, fees and trade-in allowances are
 *   one-off and left out.
 *
 * MTBI records a principal reduction as a negative COST (every 2014 record of 850100 is negative), so
 * principal paid is −COST. Annualised as the extract annualises spending: 12 × Σ with REF_YR 2014 / months
 * in scope.
 */
import { join } from 'node:path';
import { CATEGORY_INDEX } from '../../src/contract/categories.js';
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
const HOUSING = CATEGORY_INDEX.mortgage_and_rent;

/** Vehicle payment UCC → sign, checked against the stub so that a renamed code fails loudly. */
function vehiclePaymentUccs(stub: readonly StubLine[]): Map<string, number> {
  const uccs = new Map<string, number>();
  for (const ucc of uccsOf(stub, 'VEHFINCH')) uccs.set(ucc, 1);
  const known = [...uccsOf(stub, 'CHGVEHPR'), ...uccsOf(stub, 'LEASVEH')];
  const missing = [VEHICLE_LOAN_PRINCIPAL, ...LEASE_PAYMENTS].filter((ucc) => !known.includes(ucc));
  if (missing.length > 0) throw new Error(`IStub2014: vehicle payment UCCs not found: ${missing.join(', ')}`);
  uccs.set(VEHICLE_LOAN_PRINCIPAL, -1);
  for (const ucc of LEASE_PAYMENTS) uccs.set(ucc, 1);
  return uccs;
}

/** The annual payments of a household of the extract (0 where it reported none). */
export function housingAndVehiclePayments(
  source: SourceReader,
  ceDir: string,
  stub: readonly StubLine[],
): (h: Household) => Payments {
  const uccs = vehiclePaymentUccs(stub);
  const inScope = new Map<string, number>();
  const interviewDir = join(ceDir, 'pumd', '2014', 'interview');
  for (const quarter of QUARTER_FILES) {
    const file = join(interviewDir, `mtbi${quarter}.csv.gz`);
    for (const [newid = '', refYear, ucc = '', cost] of source.simpleCsv(file, [
      'NEWID',
      'REF_YR',
      'UCC',
      'COST',
    ])) {
      const sign = uccs.get(ucc.padStart(6, '0'));
      if (sign === undefined || Number(refYear) !== SURVEY_YEAR) continue;
      inScope.set(newid, (inScope.get(newid) ?? 0) + sign * Number(cost));
    }
  }
  return (h) => {
    if (h.monthsInScope === 0) throw new Error(`${h.newid}: no month in ${SURVEY_YEAR}, no annual payments`);
    const vehicle = inScope.get(h.newid) ?? 0;
    return { housing: h.spending[HOUSING]!, vehicle: (vehicle * 12) / h.monthsInScope };
  };
}
