/**
 * Every manifest in deploy/k8s against the Kubernetes API schema, offline: the validators of the
 * `kubernetes-models` package, compiled from the Kubernetes OpenAPI document (types, required fields,
 * enumerations and formats of every field it declares, `backoffLimitPerIndex` included). They do not
 * refuse unknown fields, so the manifests' own tests read the fields that matter by name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { PACKAGE_ROOT } from '../../../../src/paths.js';

const K8S = join(PACKAGE_ROOT, 'deploy', 'k8s');

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name?: string; generateName?: string };
}

/** The model class of a manifest's apiVersion and kind: `kubernetes-models/<group>/<version>/<Kind>`. */
async function modelOf({ apiVersion, kind }: Manifest): Promise<new (data: object) => { validate(): void }> {
  const module = (await import(`kubernetes-models/${apiVersion}/${kind}`)) as Record<string, unknown>;
  return module[kind] as new (
    data: object,
  ) => { validate(): void };
}

const manifests = readdirSync(K8S)
  .filter((file) => file.endsWith('.yaml'))
  .flatMap((file) =>
    parseAllDocuments(readFileSync(join(K8S, file), 'utf8')).map((document, index) => {
      expect(document.errors).toEqual([]);
      const manifest = document.toJS() as Manifest;
      return [
        `${file} #${index + 1} (${manifest.kind} ${manifest.metadata.name ?? manifest.metadata.generateName})`,
        manifest,
      ] as const;
    }),
  );

describe('deploy/k8s manifests against the Kubernetes API schema', () => {
  it.each(manifests)('%s: validates', async (_name, manifest) => {
    const Model = await modelOf(manifest);
    expect(() => new Model(manifest).validate()).not.toThrow();
  });

  it('an Indexed Job with a string for backoffLimitPerIndex: is refused (the check is not vacuous)', async () => {
    const [, job] = manifests.find(([, m]) => m.kind === 'Job')!;
    const Model = await modelOf(job);
    const broken = structuredClone(job) as Manifest & { spec: Record<string, unknown> };
    broken.spec.backoffLimitPerIndex = 'three';
    expect(() => new Model(broken).validate()).toThrow(/backoffLimitPerIndex must be integer/);
  });
});
