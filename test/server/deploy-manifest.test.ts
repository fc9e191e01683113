/**
 * deploy/k8s/api-deployment.yaml, read as Kubernetes would: a Deployment and a Service, the server
 * reachable from outside its container, probes on the admin listener, and only the API port exposed.
 * No cluster here: the manifest's flags are checked against `outlay serve --help`.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { PACKAGE_ROOT } from '../../src/paths.js';

interface Container {
  args: string[];
  ports: { name: string; containerPort: number }[];
  livenessProbe: { httpGet: { path: string; port: string } };
  readinessProbe: { httpGet: { path: string; port: string } };
  resources: { limits: Record<string, string> };
}

let deployment: { kind: string; spec: { template: { spec: { containers: Container[] } } } };
let service: { kind: string; spec: { ports: { targetPort: string }[] } };
let container: Container;

beforeAll(async () => {
  const text = await readFile(join(PACKAGE_ROOT, 'deploy', 'k8s', 'api-deployment.yaml'), 'utf8');
  const documents = parseAllDocuments(text);
  for (const document of documents) expect(document.errors).toEqual([]);
  [deployment, service] = documents.map((document) => document.toJS()) as [typeof deployment, typeof service];
  container = deployment.spec.template.spec.containers[0]!;
});

describe('deploy/k8s/api-deployment.yaml', () => {
  it('when read, is a Deployment of `outlay serve` listening on 0.0.0.0 and a Service', () => {
    expect([deployment.kind, service.kind]).toEqual(['Deployment', 'Service']);
    expect(container.args[0]).toBe('serve');
    expect(container.args).toContain('--host=0.0.0.0');
    expect(container.resources.limits).toHaveProperty('memory');
  });

  it('when read, probes the admin listener and exposes only the API port in the Service', () => {
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'admin' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'admin' });
    expect(service.spec.ports.map((port) => port.targetPort)).toEqual(['https']);
  });

  it('when its flags are compared with `outlay serve --help`, each one exists', () => {
    const help = execFileSync(process.execPath, [join(PACKAGE_ROOT, 'bin', 'outlay.js'), 'serve', '--help'], {
      encoding: 'utf8',
    });
    for (const arg of container.args.slice(1)) expect(help).toContain(arg.split('=')[0]!);
  });
});
