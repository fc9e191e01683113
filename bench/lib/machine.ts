import { readFileSync } from 'node:fs';
import { arch, cpus, platform, release, totalmem } from 'node:os';

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly os: string;
  readonly node: string;
  readonly date: string;
}

export function describeMachine(): Machine {
  const cores = cpus();
  return {
    cpu: cores[0]?.model.trim() ?? 'unknown',
    cores: cores.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${distribution()} (${platform()} ${release()}, ${arch()})`,
    node: process.version,
    date: new Date().toISOString().slice(0, 10),
  };
}

function distribution(): string {
  try {
    const osRelease = readFileSync('/etc/os-release', 'utf8');
    return /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(osRelease)?.[1] ?? platform();
  } catch {
    return platform();
  }
}
