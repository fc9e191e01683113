/** Response schemas of the public (unauthenticated) operational endpoints. */
import Type from '../vendor/typebox.js';

export const HealthStatus = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });

export const ReadinessStatus = Type.Object(
  {
    status: Type.Literal('ready'),
    modelVersion: Type.String({ description: 'Version of the loaded model artifact.' }),
    activeKeys: Type.Integer({ minimum: 0, description: 'Keys currently accepted (not revoked).' }),
  },
  { additionalProperties: false },
);
