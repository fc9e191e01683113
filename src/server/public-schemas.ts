/** Response schema of the public liveness endpoint. */
import Type from '../vendor/typebox.js';

export const HealthStatus = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });
