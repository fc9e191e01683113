/**
 * One row per 2014 Interview CU-quarter (FMLI 141x…151) with the model's inputs and the annualised spending
 * of each category, summed from MTBI UCC records with the category definitions in ce-categories.ts.
 *
 * Weighting follows BLS's months-in-scope method (CE PUMD "Interview mean and SE" sample program):
 * a record contributes only the reference months that fall in 2014, its population weight is
 * FINLWT21 × months-in-scope / 12, and its annualised spending is 12 × in-scope spending / months-in-scope.
 * Then Σ weight × spending / Σ weight is exactly BLS's published 2014 Interview mean.
 */
import { join } from 'node:path';
import { CATEGORIES } from '../../src/contract/categories.js';
import { CE_CATEGORIES, type SpendingCategory } from './ce-categories.js';
import type { SourceReader } from './sources.js';
import { type StubLine, uccsOf } from './stub.js';

export const SURVEY_YEAR = 2014;
export const QUARTER_FILES = ['141x', '142', '143', '144', '151'] as const;

export interface Household {
  newid: string;
  weight: number;
  monthsInScope: number;
  age: number;
  members: number;
  cutenure: number;
  isHomeowner: boolean;
  stateFips: string;
  region: number;
  urban: boolean;
  /** POPSIZE: CE's population-size class of the CU's PSU, 1 (more than 4 million) … 5; 0 when not given. */
  popsize: number;
  incRank: number;
  famType: number;
  grossIncome: number;
  takeHome: number;
  /** Annualised spending in CATEGORIES order (savings derived, other_debt_payments 0). */
  spending: Float64Array;
}

/** Months of a CU-quarter's three-month recall period that fall in the survey year. */
export function monthsInScope(interviewYear: number, interviewMonth: number): number {
  if (interviewYear === SURVEY_YEAR) return interviewMonth <= 3 ? interviewMonth - 1 : 3;
  return interviewMonth <= 3 ? 4 - interviewMonth : 0;
}

/** A spending column a UCC adds to, and the sign its MTBI COST is added with (−1: a liability reduction). */
interface UccTarget {
  readonly column: number;
  readonly sign: 1 | -1;
}

/** Every UCC's targets in each household's spending vector (ce-categories.ts: stub, minus, reductions). */
function uccTargets(stub: readonly StubLine[]): Map<string, UccTarget[]> {
  const targets = new Map<string, UccTarget[]>();
  const add = (ucc: string, target: UccTarget) => {
    const list = targets.get(ucc) ?? [];
    list.push(target);
    targets.set(ucc, list);
  };
  const uccsOfCodes = (codes: readonly string[] | undefined) =>
    new Set((codes ?? []).flatMap((code) => [...uccsOf(stub, code)]));
  CATEGORIES.forEach((name, column) => {
    const def = CE_CATEGORIES[name as SpendingCategory];
    if (!def) return;
    const minus = uccsOfCodes(def.minus);
    for (const ucc of [...uccsOfCodes(def.stub)].sort()) if (!minus.has(ucc)) add(ucc, { column, sign: 1 });
    for (const ucc of [...uccsOfCodes(def.reductions)].sort()) add(ucc, { column, sign: -1 });
  });
  return targets;
}

const SPENDING_COUNT = CATEGORIES.length;
const HOUSEKEEPING = CATEGORIES.indexOf('housekeeping_supplies');
const SAVINGS = CATEGORIES.indexOf('savings');

export interface HouseholdExtractOptions {
  /**
   * The Interview collects no housekeeping supplies (Diary-only UCCs), so the extract carries
   * food at home × this ratio (BLS 2014 integrated housekeeping mean / Interview food-at-home mean).
   */
  readonly housekeepingPerFoodHome: number;
}

export function extractHouseholds(
  source: SourceReader,
  ceDir: string,
  stub: readonly StubLine[],
  options: HouseholdExtractOptions,
): Household[] {
  const targets = uccTargets(stub);
  const interviewDir = join(ceDir, 'pumd', '2014', 'interview');
  const households: Household[] = [];
  for (const quarter of QUARTER_FILES) {
    const { inScope, all } = sumQuarterSpending(source, interviewDir, quarter, targets);
    for (const row of source.csv(join(interviewDir, `fmli${quarter}.csv.gz`))) {
      households.push(toHousehold(row, inScope.get(row.NEWID!), all.get(row.NEWID!), options));
    }
  }
  return households;
}

/** One quarter's MTBI spending per NEWID: the part in the survey year, and all of it. */
function sumQuarterSpending(
  source: SourceReader,
  interviewDir: string,
  quarter: string,
  targets: ReadonlyMap<string, readonly UccTarget[]>,
): { inScope: Map<string, Float64Array>; all: Map<string, Float64Array> } {
  const inScope = new Map<string, Float64Array>();
  const all = new Map<string, Float64Array>();
  // The Interview-only mean counts every MTBI record (PUBFLAG only marks what the integrated tables take
  // from the Diary instead); checked against 2014_Interview_Mean_and_SE.csv.
  const mtbi = source.simpleCsv(join(interviewDir, `mtbi${quarter}.csv.gz`), [
    'NEWID',
    'REF_YR',
    'UCC',
    'COST',
  ]);
  for (const [newid = '', refYear, ucc = '', costText] of mtbi) {
    const forUcc = targets.get(ucc.padStart(6, '0'));
    if (!forUcc) continue;
    const cost = Number(costText);
    addCost(all, newid, forUcc, cost);
    if (Number(refYear) === SURVEY_YEAR) addCost(inScope, newid, forUcc, cost);
  }
  return { inScope, all };
}

function addCost(
  sums: Map<string, Float64Array>,
  newid: string,
  targets: readonly UccTarget[],
  cost: number,
): void {
  let vector = sums.get(newid);
  if (!vector) {
    vector = new Float64Array(SPENDING_COUNT);
    sums.set(newid, vector);
  }
  for (const { column, sign } of targets) vector[column]! += sign * cost;
}

/**
 * Pension and Social Security deductions come from the income section, not MTBI (their UCCs 800910–800940
 * are in files the snapshot lacks), so they are read from FMLI's RETPENPQ/RETPENCQ: PQ covers the reference
 * months in the previous calendar quarter, CQ those in the interview's quarter. The in-scope part follows the
 * same months-in-2014 rule as the MTBI spending above.
 */
function pensionsInScope(row: Record<string, string>, months: number): number {
  const previous = Number(row.RETPENPQ) || 0;
  const current = Number(row.RETPENCQ) || 0;
  if (months === 0) return previous + current;
  if (Number(row.QINTRVYR) === SURVEY_YEAR) return Number(row.QINTRVMO) <= 3 ? current : previous + current;
  return previous;
}

function toHousehold(
  row: Record<string, string>,
  inScope: Float64Array | undefined,
  all: Float64Array | undefined,
  options: HouseholdExtractOptions,
): Household {
  const months = monthsInScope(Number(row.QINTRVYR), Number(row.QINTRVMO));
  // Records with no month in 2014 carry zero weight; their spending is the full quarter annualised.
  const [raw, factor] = months > 0 ? [inScope, 12 / months] : [all, 4];
  const spending = new Float64Array(SPENDING_COUNT);
  if (raw) for (let c = 0; c < SPENDING_COUNT; c++) spending[c] = raw[c]! * factor;
  const pensions = pensionsInScope(row, months) * factor;
  spending[HOUSEKEEPING] = spending[CATEGORIES.indexOf('food_home')]! * options.housekeepingPerFoodHome;
  const takeHome = Number(row.FINATXEM) - pensions;
  let spent = 0;
  for (let c = 0; c < SPENDING_COUNT; c++) spent += spending[c]!;
  spending[SAVINGS] = Math.max(0, takeHome - spent);
  const cutenure = Number(row.CUTENURE);
  return {
    newid: row.NEWID!,
    weight: (Number(row.FINLWT21) * months) / 12,
    monthsInScope: months,
    age: Number(row.AGE_REF),
    members: Number(row.FAM_SIZE),
    cutenure,
    isHomeowner: cutenure <= 3,
    stateFips: row.STATE ? row.STATE.padStart(2, '0') : '',
    region: Number(row.REGION) || 0,
    urban: row.BLS_URBN === '1',
    popsize: Number(row.POPSIZE) || 0,
    incRank: Number(row.INC_RANK),
    famType: Number(row.FAM_TYPE),
    grossIncome: Number(row.FINCBTXM),
    takeHome,
    spending,
  };
}
