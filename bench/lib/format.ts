export const MB = 1e6;

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

export function megabytes(bytes: number): string {
  return `${Math.round(bytes / MB)} MB`;
}

export function ratio(value: number): string {
  return `${value.toFixed(2)}×`;
}

export function perSecond(value: number): string {
  return `${Math.round(value).toLocaleString('en-US')}/s`;
}
