/** The committed ZIP rent extract (data/geo/zip_rents.tsv): contents, and its rebuild from the raw HUD files. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractRents } from '../../jobs/extract/rents.js';
import { DEFAULT_GEO_DIR, loadGeoExtract } from '../../src/geo/load.js';
import { GEO_FILES, RENT_FILES } from '../../src/geo/tables.js';

const sharedDir = process.env.OUTLAY_SHARED_DIR;

describe('zip rent extract', () => {
  it('committed extract, known ZIP pairs of one metro, orders them as HUD rents do', async () => {
    const { rents } = await loadGeoExtract();
    const index = new Map(rents.map((row) => [row.zip, row.rentIndex]));
    expect(index.get('10021')).toBeGreaterThan(index.get('10453')!);
    expect(index.get('94025')).toBeGreaterThan(index.get('94110')!);
    expect(index.get('11756')).toBeGreaterThan(index.get('07102')!);
    for (const value of index.values()) expect(value).toBeGreaterThan(0);
  });

  it('committed provenance, names the build command and every raw file with its sha256', async () => {
    const provenance = JSON.parse(await readFile(join(DEFAULT_GEO_DIR, RENT_FILES.provenance), 'utf8'));
    expect(provenance.command).toMatch(/jobs\/extract\/rents\.js/);
    expect(provenance.sources.map((s: { file: string }) => s.file)).toEqual([
      'geo/bea_marpp_msa_2023.csv',
      'geo/county_cbsa2020_nchs2013.csv',
      'geo/simplemaps_uszips_free_2024.csv',
      'hud/hud_erap_fmr_zip_fy2024.csv',
      'hud/hud_fmr_county_fy2024.csv',
      'hud/hud_fmr_county_fy2025_fy2026_long.csv',
    ]);
    for (const source of provenance.sources) expect(source.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it.skipIf(!sharedDir)(
    'extractRents, raw files in $OUTLAY_SHARED_DIR/hud and /geo, reproduces zip_rents.tsv and its provenance byte for byte (skipped when OUTLAY_SHARED_DIR is not set: skipping rebuild from raw data)',
    async () => {
      const outDir = await mkdtemp(join(tmpdir(), 'outlay-rents-'));
      try {
        for (const file of [GEO_FILES.zips, GEO_FILES.cbsas]) {
          await writeFile(join(outDir, file), await readFile(join(DEFAULT_GEO_DIR, file)));
        }
        const summary = await extractRents(join(sharedDir!, 'hud'), join(sharedDir!, 'geo'), outDir);
        expect(summary.zipsWithPremium).toBeGreaterThan(10_000);
        for (const file of Object.values(RENT_FILES)) {
          const rebuilt = await readFile(join(outDir, file));
          const committed = await readFile(join(DEFAULT_GEO_DIR, file));
          expect(rebuilt.equals(committed), `${file} differs from the committed copy`).toBe(true);
        }
      } finally {
        await rm(outDir, { recursive: true, force: true });
      }
    },
  );
});
