import { z } from 'zod';

/** A numeric string (`"0.006"`) read as its number; anything else passes unchanged to the schema. */
export const toNumber = (value: unknown): unknown =>
  typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;

/**
 * A number the platform may send as a numeric string where the spec does not fix the type
 * (issue 25: read tolerantly what the spec leaves open).
 */
export const NumberLike = z.preprocess(toNumber, z.number());
