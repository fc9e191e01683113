/**
 * Re-extracts everything the model build needs from the raw CE folder into compact committed files under
 * data/ce (provenance in data/ce/README.md).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { meansByStubCode } from './bls-means.js';
import { extractHouseholds, type Household } from './extract-households.js';
import { gzipCsv, householdsToCsv } from './household-csv.js';
import type { SourceReader } from './sources.js';
import { parseStub, type StubLine } from './stub.js';

export const HOUSEHOLDS_FILE = 'fmli2014-households.csv.gz';

export interface CeStubs {
  readonly interview: StubLine[];
  readonly interviewMeans: Map<string, number>;
  readonly integratedMeans: Map<string, number>;
}

export function readStubs(source: SourceReader, ceDir: string): CeStubs {
  const docs = join(ceDir, 'pumd', '2014', 'docs');
  const means = (file: string) => parse(source.text(join(docs, file)), { from_line: 2 }) as string[][];
  const interview = parseStub(source.text(join(docs, 'IStub2014.txt')));
  const integrated = parseStub(source.text(join(docs, 'IntStub2014.txt')));
  return {
    interview,
    interviewMeans: meansByStubCode(interview, means('2014_Interview_Mean_and_SE.csv')),
    integratedMeans: meansByStubCode(integrated, means('2014_Integrated_Mean_and_SE.csv')),
  };
}

export function extractCeHouseholds(source: SourceReader, ceDir: string, outDir: string): Household[] {
  const stubs = readStubs(source, ceDir);
  const foodHome = stubs.interviewMeans.get('FOODHOME');
  const housekeeping = stubs.integratedMeans.get('HKPGSUPP');
  if (!foodHome || !housekeeping) throw new Error('2014 BLS means lack FOODHOME or HKPGSUPP');
  const households = extractHouseholds(source, ceDir, stubs.interview, {
    housekeepingPerFoodHome: housekeeping / foodHome,
  });
  writeFileSync(join(outDir, HOUSEHOLDS_FILE), gzipCsv(householdsToCsv(households)));
  return households;
}
