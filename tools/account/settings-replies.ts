import { z } from 'zod';

/** `GET /api/user/responses-retention` (spec 1 §4.6); shared by settings_read and orbit-mcp doctor. */
export const Retention = z.looseObject({
  responsesRetentionDays: z.number().int().min(0).max(365).nullable(),
});
