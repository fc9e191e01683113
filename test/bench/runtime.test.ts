/**
 * The benchmarks' runtime: the published figures are measured on the Node major the container image ships
 * (bench/lib/runtime.ts), which `npm run bench` must name and `run-all` must enforce.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeMajor, publishedRuntimeProblems, shippedNodeMajor } from '../../bench/lib/runtime.js';
import { PACKAGE_ROOT } from '../../src/paths.js';

describe('shippedNodeMajor', () => {
  it('reads the shipped deploy/Dockerfile: every stage on node:22', () => {
    expect(shippedNodeMajor()).toBe(22);
  });

  it('a multi-stage Dockerfile on one major: that major', () => {
    expect(shippedNodeMajor('FROM node:24-slim AS build\nRUN x\nFROM node:24-bookworm\n')).toBe(24);
  });

  it('stages on different majors: throws, naming both', () => {
    expect(() => shippedNodeMajor('FROM node:22-slim AS build\nFROM node:24-slim\n')).toThrow(/22, 24/);
  });

  it('no node image: throws', () => {
    expect(() => shippedNodeMajor('FROM debian:12\n')).toThrow(/no `FROM node:<major>` stage/);
  });
});

describe('npm run bench', () => {
  it("runs the figures with npx on the Dockerfile's Node major", async () => {
    const manifest = JSON.parse(await readFile(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const match = /\bnpx --yes node@(\d+) dist\/bench\/run-all\.js$/.exec(manifest.scripts.bench ?? '');
    expect(match, manifest.scripts.bench).not.toBeNull();
    expect(Number(match![1])).toBe(shippedNodeMajor());
  });
});

describe('publishedRuntimeProblems', () => {
  it('every figure measured on the shipped major: none', () => {
    const results = [
      { figure: 'engine', node: 'v22.23.3' },
      { figure: 'api', node: 'v22.1.0' },
    ];
    expect(publishedRuntimeProblems(results, 22)).toEqual([]);
  });

  it('a figure on another major, one without a recorded version: one line each, naming the figure', () => {
    const results = [
      { figure: 'engine', node: 'v20.20.2' },
      { figure: 'batch', node: 'v22.23.3' },
      { figure: 'api' },
    ];
    expect(publishedRuntimeProblems(results, 22)).toEqual([
      "engine: measured on Node v20.20.2, not on the image's Node 22",
      'api: the result does not record the Node.js it ran on',
    ]);
  });
});

describe('nodeMajor', () => {
  it.each([
    ['v22.23.3', 22],
    ['24.0.0', 24],
    ['v20', Number.NaN],
    ['node', Number.NaN],
  ])('%s: %s', (version, major) => {
    expect(nodeMajor(version)).toBe(major);
  });
});
